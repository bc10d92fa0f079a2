"""``lastcard compare BASE --candidate NEW ...``: several candidates on shared deals, each its own GSPRT at the
Bonferroni levels, counted round by round in planned order; the family-wise error rates by seeded simulation
(tolerances from the number of runs); real play, --jobs and --resume giving a serial run's bytes; bad input."""

from __future__ import annotations

import html
import json
import shutil
from pathlib import Path

import jsonschema
import numpy as np
import pytest
from click.testing import CliRunner

from referee.bots.spec import parse_bot
from referee.cli.main import cli
from referee.compare.alike import MIN_DEALS, Alike
from referee.compare.candidates import (
    CandidateSettings,
    Family,
    behind,
    game_ids,
    pair_of,
    score_bounds,
    status_text,
)
from referee.compare.display import alike_lines, winner_line
from referee.compare.simulate import BEHIND, H0, H1, SCENARIOS, binomial_ceiling, pentanomial_at, simulate_family
from referee.compare.sprt import Ptnml, SprtSettings
from referee.compare.twins import CompareError, CompareSettings, twin_pair
from referee.run.seeds import game_seed

ROOT = Path(__file__).resolve().parents[2]
RESULTS_SCHEMA = json.loads((ROOT / "protocol" / "schemas" / "results.schema.json").read_text())
BASE = parse_bot("builtin:medium")
CANDS = [parse_bot("builtin:hard"), parse_bot("builtin:easy"), parse_bot("builtin:random")]


def settings(**kw) -> CandidateSettings:
    return CandidateSettings.build(CANDS, BASE, **({"seed": 7} | kw))


# ---------------------------------------------------------------- the plan
def test_every_candidate_meets_the_deals_a_single_compare_plays():
    s = settings(field=[parse_bot("builtin:easy")])
    single = CompareSettings.build(CANDS[0], BASE, [parse_bot("builtin:easy")], seed=7)
    for k in (0, 1, 5, 33):
        seeds = {job.seed for i in range(3) for job in s.jobs(i, k)}
        assert seeds == {game_seed(7, k, "compare")}
        ref = twin_pair(single, k)
        for i in range(3):
            pair = s.pair(i, k)
            assert (pair.new_seat, pair.base_seat) == (ref.new_seat, ref.base_seat)  # the same seats for all
            a, b = pair.jobs
            assert a.seats[pair.new_seat].name == s.candidates[i].name == b.seats[pair.base_seat].name
            assert a.seats[pair.base_seat].name == "medium" == b.seats[pair.new_seat].name
            assert (a.game_id, b.game_id) == game_ids(i, k)


@pytest.mark.parametrize("i, k", [(0, 0), (2, 41), (11, 999_999)])
def test_game_ids_lead_back_to_candidate_deal_and_twin(i, k):
    a, b = game_ids(i, k)
    assert pair_of(a) == (i, k, "a") and pair_of(b) == (i, k, "b")


@pytest.mark.parametrize("game_id", ["p000001a", "c0p000001a", "c1p000000a", "c1p1a", "x"])
def test_a_game_id_from_elsewhere_is_refused(game_id):
    with pytest.raises(ValueError, match="not a candidate game id"):
        pair_of(game_id)


def test_each_test_runs_at_the_bonferroni_levels_and_names_are_told_apart():
    s = CandidateSettings.build([parse_bot("builtin:medium"), parse_bot("builtin:medium"), parse_bot("builtin:hard")],
                                BASE, sprt=SprtSettings(0, 10, 0.06, 0.03))
    assert (s.per_test.alpha, s.per_test.beta) == pytest.approx((0.02, 0.01))
    assert (s.per_test.elo0, s.per_test.elo1) == (0, 10)
    assert s.base.name == "medium"  # the base keeps its name
    assert [c.name for c in s.candidates] == ["medium#2", "medium#3", "hard"]
    assert any("BASE's command" in w for w in s.warnings)
    assert any("2 candidates are the same command" in w for w in s.warnings)


@pytest.mark.parametrize("kwargs, option, words", [
    ({"candidates": []}, "candidate", "at least one --candidate"),
    ({"candidates": [parse_bot("builtin:easy")] * 17}, "candidate", "at most 16"),
    ({"max_games": 7}, "max-games", "even number"),
    ({"seats": 9}, "seats", "2 to 6"),
])
def test_settings_that_make_no_run_are_refused_naming_the_option(kwargs, option, words):
    args = {"candidates": CANDS} | kwargs
    with pytest.raises(CompareError, match=words) as err:
        CandidateSettings.build(args.pop("candidates"), BASE, **args)
    assert err.value.option == option


# ---------------------------------------------------------------- the family's rules, on scores alone
def test_a_decided_candidate_stops_and_the_others_play_on_in_rounds():
    fam = Family(settings(sprt=SprtSettings(0, 100, model="logistic")))
    assert list(fam.needed()) == [(0, 0), (1, 0), (2, 0)]
    with pytest.raises(ValueError, match="not the next to count"):
        fam.add(1, 1, 0)
    rounds = 0
    while fam.status[2] == "running":  # candidate 3 loses every game: H0 in a few rounds
        for i, _ in list(fam.needed()):  # the others swing between WW and LL: no verdict yet
            fam.add(i, *((0, 0) if i == 2 else (rounds % 2, rounds % 2)))
        rounds += 1
    assert fam.status == ["running", "running", "H0"] and fam.tests[2].pairs == rounds
    assert not fam.plays(2, rounds) and fam.plays(0, rounds) and fam.plays(2, rounds - 1)
    assert list(fam.needed()) == [(0, rounds), (1, rounds)]  # its slots go to the others


def test_once_one_is_accepted_a_candidate_that_cannot_catch_up_stops():
    fam = Family(settings(sprt=SprtSettings(0, 100, model="logistic")))
    while fam.status[0] == "running":
        k = fam.round
        for i, _ in list(fam.needed()):  # hard: WW; the others swing between WW and LL, in opposite phases
            fam.add(i, *{0: (1, 1), 1: (k % 2, k % 2), 2: (1 - k % 2, 1 - k % 2)}[i])
    # hard accepted; the others' mean of 1/2 is undecided, but its 95% upper bound is below hard's score
    assert fam.status[0] == "H1" and fam.winner == 0 and fam.tests[1].result is None
    assert fam.status[1] == fam.status[2] == "behind" and fam.behind_of == {1: 0, 2: 0}
    assert fam.done and fam.games == 2 * sum(t.pairs for t in fam.tests)


def test_behind_needs_an_accepted_candidate_and_a_low_upper_bound():
    counts = np.array([[0, 0, 0, 0, 30], [0, 0, 30, 0, 0], [0, 0, 0, 10, 20]], dtype=float)
    running = np.array([False, True, True])
    assert not behind(counts, running, [False, False, False]).any()  # nobody accepted: nobody behind
    late = behind(counts, running, [True, False, False])
    score, high = score_bounds(counts)
    assert list(late) == [False, True, True] and high[2] < score[0]
    # a candidate as good as the accepted one is not behind, nor one that no longer runs
    assert not behind(counts[[0, 0]], [False, True], [True, False]).any()
    assert not behind(counts, [False, False, False], [True, False, False]).any()


def test_the_cap_is_per_candidate_and_leaves_the_rest_inconclusive():
    fam = Family(settings(max_games=6))
    for _ in range(3):
        for i, _ in list(fam.needed()):
            fam.add(i, 1, 0)
    assert fam.done and fam.status == ["max-games"] * 3 and [t.games for t in fam.tests] == [6, 6, 6]


# ---------------------------------------------------------------- the statistics, by seeded simulation
ELO1, RUNS, ALPHA = 150.0, 600, 0.05
#: More errors than this in RUNS runs would be a one-in-a-million accident at a true rate of ALPHA.
CEILING = binomial_ceiling(RUNS, ALPHA)


@pytest.mark.parametrize("index", range(len(SCENARIOS)), ids=[s.name for s in SCENARIOS])
def test_family_wise_error_rates_are_at_most_alpha_and_beta(index):
    scenario = SCENARIOS[index]
    sprt = SprtSettings(0, ELO1, ALPHA, ALPHA, "logistic")
    elos = [e * ELO1 for e in scenario.elos]
    fam = simulate_family([pentanomial_at("logistic", e) for e in elos], sprt, RUNS, seed=100 + index)
    assert fam.type1_errors(elos, 0) < CEILING
    assert fam.type2_errors(elos, ELO1) < CEILING
    assert (fam.status != 0).all()  # every run ended
    # power: the best candidate, if at elo1 or better, is accepted in most runs (another at elo1 or better is
    # accepted or stopped behind it); one at elo0 or worse is dropped or stopped
    for j, e in enumerate(elos):
        if e >= ELO1:
            assert fam.share(H1)[j] > (0.9 if e == max(elos) else 0.2)
            assert fam.share(H1)[j] + fam.share(BEHIND)[j] > 0.9
        if e <= 0:
            assert fam.share(H0)[j] + fam.share(BEHIND)[j] > 0.9


def test_without_the_correction_the_family_errs_more_than_alpha():
    """What Bonferroni is for: four candidates equal to the base, each tested at the full alpha, accept one of
    them far more often than alpha (about 1 - 0.95^4); the family run does not (the test above)."""
    sprt = SprtSettings(0, ELO1, ALPHA, ALPHA, "logistic")
    elos = [0.0] * 4
    loose = simulate_family([pentanomial_at("logistic", 0)] * 4, sprt, RUNS, seed=100, bonferroni=False,
                            catch_up=False)
    # At a true rate of alpha or less, CEILING errors or more would be a one-in-a-million accident: the
    # uncorrected family's rate is above alpha (about 1 - 0.96^4 = 0.15 expected: some 90 errors in 600 runs).
    assert loose.type1_errors(elos, 0) >= CEILING


def test_the_family_saves_games_against_single_runs_when_some_are_better():
    sprt = SprtSettings(0, ELO1, ALPHA, ALPHA, "logistic")
    truths = [pentanomial_at("logistic", e * ELO1) for e in SCENARIOS[3].elos]
    fam = simulate_family(truths, sprt, 300, seed=5)
    singles = simulate_family(truths, sprt, 300, seed=6, catch_up=False)  # the same levels, one after the other
    assert fam.mean_games < 0.8 * singles.mean_games
    assert (fam.games == 2 * fam.pairs.sum(axis=1)).all()


def test_a_simulated_truth_has_the_elo_asked():
    for model, elo in (("logistic", 60), ("normalized", 20), ("logistic", -150)):
        p = pentanomial_at(model, elo)
        assert p.sum() == pytest.approx(1) and (p > 0).all()
        big = Ptnml(tuple(int(x) for x in np.round(1e6 * p)))
        settings = SprtSettings(elo - 1, elo + 1, model=model)
        # the LLR of a million pairs from p between elo - 1 and elo + 1 is small next to its size at elo +- 10
        far = SprtSettings(elo + 9, elo + 11, model=model)
        assert abs(settings.llr(big)) < abs(far.llr(big)) / 5


# ---------------------------------------------------------------- real play
RUN = ["compare", "builtin:random", "--candidate", "builtin:hard", "--candidate", "builtin:random",
       "--candidate", "builtin:easy", "--model", "logistic", "--elo1", "100", "--seed", "3", "-q"]


def invoke(*args: str) -> tuple[int, str]:
    res = CliRunner().invoke(cli, list(args))
    return res.exit_code, res.output


def game_lines(out: Path) -> list[dict]:
    return [{k: v for k, v in json.loads(x).items() if k not in ("time_ms", "wall_ms")}
            for x in (out / "games.jsonl").read_text().splitlines()]


@pytest.mark.slow
def test_real_play_accepts_hard_and_stops_the_base_itself_the_same_whatever_jobs_and_resume(tmp_path):
    serial, two, cut = tmp_path / "serial", tmp_path / "two", tmp_path / "cut"
    code, out = invoke(*RUN, "--out", str(serial), "--no-report")
    assert code == 0, out
    block = json.loads((serial / "results.json").read_text())["candidates"]
    jsonschema.validate(json.loads((serial / "results.json").read_text()), RESULTS_SCHEMA)
    tests = {t["new"]: t for t in block["tests"]}
    assert tests["hard"]["result"] == "H1" and block["winner"] == "hard" and "winner: hard" in out
    assert tests["random#2"]["result"] != "H1" and tests["random#2"]["stopped"] in ("H0", "behind")
    assert tests["easy"]["result"] != "H0" or tests["easy"]["stopped"] == "H0"
    assert "hard: accepted after" in out and "Results of random#2 vs random" in out
    games = game_lines(serial)
    assert len(games) == block["games"] == sum(t["games"] for t in block["tests"])
    # planned order: deal by deal, candidates in order
    keys = [pair_of(g["game"]) for g in games]
    assert keys == sorted(keys, key=lambda x: (x[1], x[0], x[2]))
    # each test counted its pairs' placements, the same deal for every candidate
    assert len({g["seed"] for g in games if pair_of(g["game"])[1] == 0}) == 1
    code, out2 = invoke(*RUN, "--out", str(two), "--no-report", "--jobs", "2")
    assert code == 0, out2
    assert (two / "results.json").read_bytes() == (serial / "results.json").read_bytes()
    assert game_lines(two) == games
    # interrupted mid-run: --resume plays on to the same bytes
    cut.mkdir()
    shutil.copy(serial / "arena.json", cut / "arena.json")
    lines = (serial / "games.jsonl").read_text().splitlines(keepends=True)
    (cut / "games.jsonl").write_text("".join(lines[:len(lines) // 2 + 1]))
    code, out3 = invoke(*RUN, "--out", str(cut), "--resume", "--no-report", "--jobs", "2")
    assert code == 0, out3
    assert (cut / "results.json").read_bytes() == (serial / "results.json").read_bytes()
    assert game_lines(cut) == games


@pytest.mark.parametrize("args, words", [
    (["builtin:random", "builtin:hard", "--candidate", "builtin:easy"], "BASE alone"),
    (["builtin:random"], "give NEW and BASE"),
    (["builtin:random", "--candidate", "builtin:hard", "--games", "10"], "--max-games"),
    (["builtin:random", "--candidate", "builtin:hard", "--max-games", "5"], "even number"),
    (["builtin:random", "--candidate", "builtin:hard", "--alpha", "0.7"], "alpha"),
])
def test_bad_input_is_a_usage_error(args, words):
    code, out = invoke("compare", *args)
    assert code == 2 and words in out, out


def test_the_report_draws_every_candidates_llr_on_one_chart():
    from referee.compare.candidates_run import candidates_block
    from referee.html_report.sprt_chart import candidates_section

    s = settings(sprt=SprtSettings(0, 100, model="logistic"))
    fam = Family(s)
    while not fam.done:
        k = fam.round
        for i, _ in list(fam.needed()):
            fam.add(i, *{0: (1, 1), 1: (k % 2, k % 2), 2: (0, 0)}[i])
    block = candidates_block(s, fam)
    assert block["winner"] == "hard" and [t["stopped"] for t in block["tests"]] == ["H1", "behind", "H0"]
    page = candidates_section(block)
    assert "winner hard" in page and page.count("<svg") == 1
    for t in block["tests"]:
        assert f"data-candidate='{t['new']}'" in page and html.escape(t["status"]) in page
        assert len(t["llr_trace"]) == t["pairs"]


def test_the_live_display_draws_every_candidates_block_and_status():
    import io

    from referee.cli.compare import FamilyLive

    fam = Family(settings(sprt=SprtSettings(0, 100, model="logistic")))
    for i, _ in list(fam.needed()):
        fam.add(i, 1, 0)
    stream = io.StringIO()
    live = FamilyLive("compact, 2 seats", stream=stream)
    live.LINE_EVERY = 0.0
    live.update(fam)
    text = stream.getvalue()
    for name in ("hard", "easy", "random"):
        assert f"Results of {name} vs medium (compact, 2 seats):" in text and f"{name}: running (2 games)" in text
    assert text.count("LLR: ") == 3


@pytest.mark.slow
def test_four_seats_with_a_field_every_candidate_at_the_same_seats_and_records_of_counted_games(tmp_path):
    from referee.store.record_file import recorded_ids

    out = tmp_path / "out"
    code, text = invoke("compare", "builtin:easy", "--candidate", "builtin:hard", "--candidate", "builtin:medium",
                        "--field", "builtin:random", "--seats", "4", "--max-games", "20", "--out", str(out),
                        "--records", "--no-report", "--jobs", "2", "-q")
    assert code == 0, text
    assert "field: random, medium#2 (filled)" in text and text.count("inconclusive after 20 games") <= 2
    games = game_lines(out)
    block = json.loads((out / "results.json").read_text())["candidates"]
    assert len(games) == block["games"] == sum(t["games"] for t in block["tests"])
    by_deal: dict[int, list[dict]] = {}
    for g in games:
        by_deal.setdefault(pair_of(g["game"])[1], []).append(g)
    for deal in by_deal.values():
        assert len({g["seed"] for g in deal}) == 1
        # the field sits at the same seats for every candidate; the candidate and the base share the other two
        field_seats = [{i for i, name in enumerate(g["seating"]) if name in ("random", "medium#2")} for g in deal]
        assert all(seats == field_seats[0] for seats in field_seats)
    assert recorded_ids(str(out)) == {g["game"] for g in games}


# ---------------------------------------------------------------- candidates that play alike
def test_candidates_with_the_same_games_on_the_same_deals_are_found_alike():
    alike = Alike(4)
    for k in range(40):
        alike.add(0, k, f"t{k} d", "p")
        alike.add(1, k, f"t{k} d", "p")  # candidate 0's games exactly: another name for one bot
        alike.add(2, k, f"t{k} d" if k % 10 else "x", "p")  # the same on 36 of 40 deals: near-identical
        alike.add(3, k, f"t{k} d" if k % 4 else "x", "p")  # 30 of 40: not alike
    found = {(x.a, x.b): x for x in alike.pairs()}
    assert set(found) == {(0, 1), (0, 2), (1, 2)}
    assert found[(0, 1)].identical and (found[(0, 2)].same, found[(0, 2)].shared) == (36, 40)
    assert "all 40 deals" in found[(0, 1)].text(["a", "b", "c", "d"])
    assert "36 of the 40" in found[(0, 2)].text(["a", "b", "c", "d"]) and "near-identical" in found[(0, 2)].text("abcd")
    assert alike.group_of(3) == [3] and alike.group_of(0) == [0, 1, 2]


def test_a_few_shared_deals_are_not_enough_to_call_candidates_alike():
    alike = Alike(2)
    for k in range(MIN_DEALS - 1):
        alike.add(0, k, "d", "d")
        alike.add(1, k, "d", "d")
    assert alike.pairs() == []
    alike.add(0, MIN_DEALS, "d", "d")
    alike.add(1, MIN_DEALS, "d", "d")
    assert len(alike.pairs()) == 1


def test_no_winner_is_declared_between_accepted_candidates_that_play_alike():
    fam = Family(settings(sprt=SprtSettings(0, 100, model="logistic")))
    while not fam.done:
        k = fam.round
        for i, _ in list(fam.needed()):  # 0 and 1 play the same games; 2 loses every pair
            fam.add(i, *((1, 1) if i < 2 else (0, 0)), actions=(f"g{k}" if i < 2 else f"h{i}{k}", "x"))
    assert fam.status[:2] == ["H1", "H1"] and fam.accepted == [0, 1]
    assert fam.winner is None and fam.equals == [0, 1]
    line = winner_line(fam)
    assert line.startswith("no winner: hard and easy are accepted and play alike"), line
    assert alike_lines(fam) == [f"alike: hard and easy played the same games on all {fam.tests[0].pairs} deals they "
                                "shared (identical: the same answers on the same deals)"]


def test_cannot_catch_up_says_by_how_much():
    fam = Family(settings(sprt=SprtSettings(0, 100, model="logistic")))
    while fam.status[0] == "running":
        k = fam.round
        for i, _ in list(fam.needed()):
            fam.add(i, *{0: (1, 1), 1: (k % 2, k % 2), 2: (1 - k % 2, 1 - k % 2)}[i])
    high, best = fam.behind_by[1]
    assert high < best == pytest.approx(fam.tests[0].estimates().score, abs=1e-3)
    text = status_text(fam, 1)
    assert text.startswith(f"stopped after {fam.tests[1].games} games: cannot catch up with hard")
    assert f"at most {high:.3f} at 95%, below hard's {best:.3f}" in text


@pytest.mark.slow
def test_identical_candidates_in_real_play_are_reported_and_no_winner_declared(tmp_path):
    code, out = invoke("compare", "builtin:easy", "--candidate", "builtin:hard", "--candidate", "twin=builtin:hard",
                       "--model", "logistic", "--elo1", "100", "--seed", "2", "-q", "--out", str(tmp_path),
                       "--no-report")
    assert code == 0, out
    assert "alike: hard and twin played the same games on all" in out and "identical" in out
    assert "no winner: hard and twin are accepted and play alike" in out and "\nwinner:" not in out
    doc = json.loads((tmp_path / "results.json").read_text())
    jsonschema.validate(doc, RESULTS_SCHEMA)
    block = doc["candidates"]
    assert block["winner"] is None and block["equals"] == ["hard", "twin"]
    assert block["alike"][0]["candidates"] == ["hard", "twin"] and block["alike"][0]["identical"]
    assert block["alike"][0]["same"] == block["alike"][0]["deals"] == block["tests"][0]["pairs"]
