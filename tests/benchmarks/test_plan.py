"""The benchmark plan without games: a student's pairs are compare's pairs, game ids round-trip, and every bad
``grading: by: benchmarks`` block is refused before any game with its key, line and fix."""

from __future__ import annotations

import sys

import pytest
from click.testing import CliRunner

from referee.arena.config import ArenaFileError, parse_arena
from referee.benchmarks.plan import BenchmarkPlan, benchmark_key, fewest_pairs, game_id, parse_id
from referee.bots.spec import parse_bot
from referee.cli.main import cli
from referee.compare.sprt import Ptnml, SprtSettings
from referee.compare.twins import CompareSettings, twin_pair

HEAD = """\
seed: 11
ruleset: compact
bots: ["python3 ann.py"]
grading:
  by: benchmarks
"""
BANDS = """\
  bands:
    - {bot: "builtin:easy", points: 60}
    - {bot: "builtin:medium", points: 80}
    - {bot: "builtin:hard", points: 100}
"""


def arena(extra: str = "", bands: str = BANDS):
    return parse_arena(HEAD + bands + extra)


def test_a_students_pair_is_compares_pair_with_the_same_seed_and_seats():
    plan = BenchmarkPlan.of(arena("  seats: 4\n"))
    ann = parse_bot("python3 ann.py")
    for band, k in ((0, 0), (1, 5), (2, 17)):
        mine = plan.pair(ann, band, k)
        theirs = twin_pair(CompareSettings.build(ann, plan.bands[band], [plan.bands[band]] * 2, seats=4, seed=11,
                                                 sprt=plan.sprt), k)
        assert (mine.seed, mine.new_seat, mine.base_seat) == (theirs.seed, theirs.new_seat, theirs.base_seat)
        assert [j.seats for j in mine.jobs] == [j.seats for j in theirs.jobs]
        assert [j.game_id for j in mine.jobs] == [game_id("ann", band, k, "a"), game_id("ann", band, k, "b")]


@pytest.mark.parametrize("name", ["ann", "zoé martin", "a:b", "x:b1:p000001a"])
def test_game_ids_name_the_student_band_and_pair(name):
    assert parse_id(game_id(name, 2, 41, "b")) == (name, 2, 41, "b")
    assert parse_id("p000001a") is None and parse_id("ann:b0:p000001a") is None


def test_the_fewest_pairs_are_where_the_llr_first_crosses():
    sprt = SprtSettings(0, 30, model="logistic")
    for verdict, counts in (("H1", lambda n: (0, 0, 0, 0, n)), ("H0", lambda n: (n, 0, 0, 0, 0))):
        n = fewest_pairs(sprt, verdict)
        assert n is not None and n > 1
        assert sprt.verdict(sprt.llr(Ptnml(counts(n)))) == verdict
        assert sprt.verdict(sprt.llr(Ptnml(counts(n - 1)))) is None
    assert fewest_pairs(sprt, "H1", cap=5) is None


def test_the_benchmark_key_ignores_the_students_and_the_budget_but_not_the_test():
    a, b = BenchmarkPlan.of(arena("  games: 800\n")), BenchmarkPlan.of(arena("  games: 2000\n"))
    c = BenchmarkPlan.of(arena("  test: {elo1: 50}\n"))
    assert benchmark_key(a) == benchmark_key(b) != benchmark_key(c)


def problems_of(text: str) -> list[str]:
    with pytest.raises(ArenaFileError) as err:
        BenchmarkPlan.of(parse_arena(text))
    return [str(p) for p in err.value.problems]


@pytest.mark.parametrize(("block", "expected"), [
    pytest.param("  bands:\n    - {bot: 'builtin:medium', points: 60}\n    - {bot: 'builtin:easy', points: 80}\n",
                 "grading.bands[1].bot: builtin:easy comes after builtin:medium (bands[0]), but it is the weaker "
                 "player (random < easy < medium < hard): list the bands weakest benchmark first (line 8)",
                 id="built-ins-out-of-order"),
    pytest.param("  bands:\n    - {bot: 'builtin:easy', points: 80}\n    - {bot: 'builtin:medium', points: 60}\n",
                 "grading.bands[1].points: 60 is not above 80 (bands[0]): the points must rise from band to band",
                 id="points-out-of-order"),
    pytest.param(BANDS + "  below: 70\n", "grading.bands[0].points: 60 is not above 70 (below)", id="below-too-high"),
    pytest.param("  bands:\n    - {bot: 'builtin:easy', points: 60}\n    - {bot: 'builtin:easy', points: 80}\n",
                 "grading.bands[1].bot: 'builtin:easy' is also the benchmark of bands[0]", id="same-benchmark-twice"),
    pytest.param("  bands:\n    - {bot: 'builtin:hardest', points: 60}\n",
                 "grading.bands[0].bot: unknown built-in player 'hardest'", id="unknown-builtin"),
    pytest.param(BANDS + "  test: {elo0: 20, elo1: 10}\n", "grading.test.elo1: elo1 10 is not above elo0 20",
                 id="bounds-reversed"),
    pytest.param(BANDS + "  best: 100\n", "grading.best: only means something with by: rank", id="another-rules-key"),
    pytest.param("  games: 100\n", "grading.bands: missing: by: benchmarks needs bands:", id="no-bands"),
])
def test_a_bad_benchmark_block_names_the_key_the_line_and_the_fix(block, expected):
    with pytest.raises(ArenaFileError) as err:
        parse_arena(HEAD + block)
    assert any(expected in str(p) for p in err.value.problems), [str(p) for p in err.value.problems]


def test_a_band_no_bot_can_reach_in_the_budget_is_refused_at_its_line():
    # [0, 30] logistic: a student who wins every pair twice needs 36 pairs (72 games) for H1 against one
    # benchmark; with 150 games, the second band (144 games) is reachable, the third (216) is not.
    found = problems_of(HEAD + BANDS + "  games: 150\n")
    assert len(found) == 1
    assert found[0].startswith("grading.bands[2]: no bot can reach this band (builtin:hard: 100) within the "
                               "budget: passing the 3 bands up to it takes at least 216 games (36 pairs each, every "
                               "pair won twice) and games is 150 (line 10); give games: 216 or more")
    assert found[0].endswith("(line 9)")


def test_a_budget_that_decides_nothing_is_refused_at_its_line():
    found = problems_of(HEAD + BANDS + "  games: 40\n")
    assert found == ["grading.games: a budget of 40 games decides no test: even a student who wins (or loses) every "
                     "game needs 66 games for a verdict against one benchmark; give games: 198 or more, or ease the "
                     "test (a larger elo1, alpha or beta) (line 10)"]


def test_validate_refuses_an_unreachable_band_before_anything_runs(tmp_path):
    (tmp_path / "a.yaml").write_text(HEAD + BANDS + "  games: 150\n")
    result = CliRunner().invoke(cli, ["validate", str(tmp_path / "a.yaml")])
    assert result.exit_code == 2
    assert "grading.bands[2]: no bot can reach this band" in result.output and "(line 9)" in result.output


@pytest.mark.slow
def test_a_benchmark_that_cannot_start_is_refused_before_any_game(tmp_path):
    (tmp_path / "ann.py").write_text("")
    (tmp_path / "a.yaml").write_text(HEAD.replace('"python3 ann.py"', f'"{sys.executable} ann.py"')
                                     + "  bands:\n    - {bot: 'builtin:easy', points: 60}\n"
                                       "    - {bot: 'ref=./no_such_bot --fast', points: 80}\n  games: 400\n")
    result = CliRunner().invoke(cli, ["arena", str(tmp_path / "a.yaml"), "--out", str(tmp_path / "out"), "-q",
                                      "--sandbox", "none"])  # none: the fault is the command, not the walls
    assert result.exit_code == 2, result.output
    assert "grading.bands[1].bot: the benchmark './no_such_bot --fast' cannot start (tried twice)" in result.output
    assert "(line 8)" in result.output
    assert not (tmp_path / "out" / "games.jsonl").exists() or not (tmp_path / "out" / "games.jsonl").read_text()
