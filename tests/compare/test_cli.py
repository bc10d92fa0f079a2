"""``lastcard compare`` in real play: verdicts, the stop at the same pair whatever --jobs or --resume, 4 seats,
process bots, faults, --out's files and the sprt block, fixed length, bad input."""

from __future__ import annotations

import io
import json
import shutil
import sys
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from referee.cli.main import cli
from referee.compare.sprt import Ptnml, SprtSettings
from referee.store.record_file import recorded_ids

ROOT = Path(__file__).resolve().parents[2]
RESULTS_SCHEMA = json.loads((ROOT / "protocol" / "schemas" / "results.schema.json").read_text())
PY = sys.executable
RANDOM_PY = f"{PY} {ROOT / 'sample_bots' / 'python' / 'random_bot.py'}"
STRONG_PY = f"{PY} {ROOT / 'sample_bots' / 'python' / 'strong_bot.py'}"
MISBEHAVE = ROOT / "tests" / "support" / "fault_bots" / "misbehave.py"
#: hard against medium, logistic bounds [0, 100]: decided (H0) after some 70 pairs with every kind of pair.
DECIDED = ["builtin:hard", "builtin:medium", "--model", "logistic", "--elo1", "100", "--seed", "1", "-q"]


def compare(*args: str) -> tuple[int, str]:
    res = CliRunner().invoke(cli, ["compare", *args])
    return res.exit_code, res.output


def verdict(output: str) -> str:
    """The verdict line (``H1 accepted``, ``H0 accepted``, ``inconclusive after N games``)."""
    (line,) = [x for x in output.splitlines() if x.endswith(" accepted") or x.startswith("inconclusive after")]
    return line


def results(out: Path) -> dict:
    return json.loads((out / "results.json").read_text())


def game_lines(out: Path) -> list[dict]:
    """games.jsonl without the timings (which differ from run to run)."""
    return [{k: v for k, v in json.loads(x).items() if k not in ("time_ms", "wall_ms")}
            for x in (out / "games.jsonl").read_text().splitlines()]


@pytest.mark.slow
def test_hard_against_random_accepts_h1():
    code, out = compare("builtin:hard", "builtin:random", "--model", "logistic", "--elo1", "50", "-q")
    assert code == 0, out
    assert verdict(out) == "H1 accepted"
    assert "Results of hard vs random (compact, 2 seats):" in out
    assert "LLR: " in out and "[0.00, 50.00]" in out


@pytest.mark.slow
def test_a_bot_against_itself_accepts_h0_at_the_first_pair_the_llr_allows(tmp_path):
    # Deterministic identical bots: the twin is the mirror game, so every pair is WL (no draws in 2 seats).
    code, output = compare("builtin:hard", "builtin:hard", "--model", "logistic", "--elo1", "5",
                           "--out", str(tmp_path / "out"), "--no-report", "-q")
    assert code == 0, output
    assert "NEW and BASE are the same command" in output  # allowed, and said
    block = results(tmp_path / "out")["sprt"]
    assert block["result"] == "H0" and verdict(output) == "H0 accepted"
    n = block["pairs"]
    assert block["ptnml"] == [0, 0, n, 0, 0]
    assert (block["new"], block["base"]) == ("hard#new", "hard#base")
    # H0 at the first pair count where the LLR of n even pairs reaches the lower bound, computed alone.
    settings = SprtSettings(0, 5, model="logistic")
    first = next(k for k in range(1, 10_000) if settings.llr(Ptnml((0, 0, k, 0, 0))) <= settings.lower)
    assert n == first and n < 300
    assert max(block["llr_trace"]) <= 0  # never once toward H1


@pytest.mark.slow
def test_jobs_and_resume_stop_at_the_same_pair_as_a_serial_run(tmp_path):
    serial, two, cut = tmp_path / "serial", tmp_path / "two", tmp_path / "cut"
    assert compare(*DECIDED, "--out", str(serial), "--jobs", "1", "--no-report", "--records")[0] == 0
    assert compare(*DECIDED, "--out", str(two), "--jobs", "2", "--no-report", "--records")[0] == 0
    one = results(serial)["sprt"]
    assert one["result"] in ("H0", "H1") and 20 < one["pairs"] < 200
    assert one["ptnml"][0] > 0 and one["ptnml"][4] > 0  # a real test: pairs of every outcome, not one bin
    assert results(two) == results(serial)  # the verdict, the pair, the trace: the same bytes
    assert game_lines(two) == game_lines(serial)  # games past the deciding pair are not kept
    assert recorded_ids(str(two)) == {g["game"] for g in game_lines(two)}  # and not their records
    # Interrupted mid-pair (an odd number of games stored): --resume plays on to the same pair.
    cut.mkdir()
    shutil.copy(serial / "arena.json", cut / "arena.json")
    lines = (serial / "games.jsonl").read_text().splitlines(keepends=True)
    (cut / "games.jsonl").write_text("".join(lines[:31]))
    code, out = compare(*DECIDED, "--out", str(cut))
    assert code == 2 and "--resume" in out  # nothing is thrown away unasked
    code, out = compare(*DECIDED, "--out", str(cut), "--resume", "--jobs", "2", "--no-report", "--records")
    assert code == 0, out
    assert results(cut) == results(serial) and game_lines(cut) == game_lines(serial)
    # A changed test is another run: --resume refuses it.
    code, out = compare(*DECIDED[:-3], "--elo1", "90", "--out", str(cut), "--resume")
    assert code == 2 and "changed" in out


@pytest.mark.slow
def test_the_out_directory_has_what_an_arena_writes_and_the_sprt_block(tmp_path):
    out = tmp_path / "out"
    code, text = compare(*DECIDED, "--out", str(out))
    assert code == 0, text
    for name in ("games.jsonl", "results.json", "standings.csv", "standings.md", "head_to_head.csv", "timing.json",
                 "arena.json", "report.html"):
        assert (out / name).is_file(), name
    doc = results(out)
    jsonschema.validate(doc, RESULTS_SCHEMA)
    assert doc["kind"] == "compare" and doc["complete"] and doc["seats"] == 2 and doc["ruleset"] == "compact"
    block = doc["sprt"]
    assert len(block["llr_trace"]) == block["pairs"] == sum(block["ptnml"]) == doc["games"] // 2
    assert block["llr_trace"][-1] == round(block["llr"], 6)
    settings = SprtSettings(0, 100, model="logistic")
    assert block["llr"] == pytest.approx(settings.llr(Ptnml(tuple(block["ptnml"]))))
    assert (block["lower"], block["upper"]) == pytest.approx((settings.lower, settings.upper))
    # Only the deciding pair crosses a bound.
    assert all(settings.lower < x < settings.upper for x in block["llr_trace"][:-1])
    games = [json.loads(x) for x in (out / "games.jsonl").read_text().splitlines()]
    assert [g["game"] for g in games[:2]] == ["p000001a", "p000001b"] and games[0]["seed"] == games[1]["seed"]
    # The W/L/D the block counts are the games' placements of NEW against BASE.
    wins = sum(g["placements"][g["seating"].index("hard")] < g["placements"][g["seating"].index("medium")]
               for g in games)
    assert block["wins"] == wins and block["losses"] == len(games) - wins
    html = (out / "report.html").read_text()
    assert "llr-trace" in html


@pytest.mark.slow
def test_four_seats_with_a_field_and_a_filler_finish(tmp_path):
    code, output = compare("builtin:hard", "builtin:medium", "--field", "builtin:easy", "--seats", "4",
                           "--max-games", "24", "--out", str(tmp_path / "out"), "--no-report", "-q")
    assert code == 0, output
    doc = results(tmp_path / "out")
    games = game_lines(tmp_path / "out")
    jsonschema.validate(doc, RESULTS_SCHEMA)
    assert "field: easy, medium#2 (filled)" in output
    block = doc["sprt"]
    assert block["fillers"] == ["medium#2"] and doc["seats"] == 4
    assert block["games"] == len(games) == 24 or block["result"] is not None
    assert all(sorted(g["seating"]) == ["easy", "hard", "medium", "medium#2"] for g in games)
    if block["result"] is None:
        assert verdict(output) == "inconclusive after 24 games"
    # NEW and BASE took every seat: 12 pairs on 4 seats put each at every seat 3 times in twin a.
    assert sorted({g["seating"].index("hard") for g in games}) == [0, 1, 2, 3]


@pytest.mark.slow
def test_fixed_length_games_gives_the_estimates_without_a_test(tmp_path):
    code, out = compare("builtin:hard", "builtin:easy", "--games", "10", "-q", "--out", str(tmp_path / "o"),
                        "--no-report")
    assert code == 0, out
    assert "Games: 10," in out and "LLR" not in out and "accepted" not in out
    assert "10 games played (--games: no test)" in out
    doc = results(tmp_path / "o")
    jsonschema.validate(doc, RESULTS_SCHEMA)
    block = doc["sprt"]
    assert block["result"] is None and block["llr"] is None and block["llr_trace"] == []
    assert block["stopped"] == "games" and block["pairs"] == 5 and sum(block["ptnml"]) == 5


@pytest.mark.slow
def test_two_process_bots_compare_in_the_sandbox(tmp_path):
    # The default sandbox (auto): the sample bots read and write nothing outside their folder.
    out = tmp_path / "out"
    code, text = compare(f"strong={STRONG_PY}", f"random={RANDOM_PY}", "--max-games", "4", "--out", str(out),
                         "--no-report", "-q")
    assert code == 0, text
    from referee.bots.sandbox import SandboxSettings, effective_level

    doc = results(out)
    level = effective_level(SandboxSettings()).value  # what auto gives on this machine (bubblewrap or less)
    assert doc["sprt"]["games"] == 4 and doc["sandbox_levels"] == {"strong": [level], "random": [level]}
    assert all(not g["faults"] for g in game_lines(out))


@pytest.mark.slow
def test_a_fault_counts_as_the_policy_says(tmp_path):
    # The crashing bot loses each game it crashes in (forfeit): NEW never places ahead of BASE.
    code, text = compare(f"crash={PY} {MISBEHAVE} crash", "builtin:random", "--games", "4", "--sandbox", "none",
                         "--out", str(tmp_path / "o"), "--no-report", "-q")
    assert code == 0, text
    block = results(tmp_path / "o")["sprt"]
    assert block["ptnml"] == [2, 0, 0, 0, 0] and block["losses"] == 4
    assert all(g["faults"] and g["faults"][0]["kind"] == "crash" for g in game_lines(tmp_path / "o"))


@pytest.mark.parametrize("args, words", [
    (["--elo0", "5", "--elo1", "5"], ["--elo0", "elo0 5 is not below elo1 5"]),
    (["--alpha", "0.5"], ["--alpha", "between 0 and 0.5"]),
    (["--beta", "0"], ["--beta", "between 0 and 0.5"]),
    (["--seats", "7"], ["--seats", "2 to 6"]),
    (["--seats", "3", "--field", "builtin:easy", "--field", "builtin:easy"], ["--field", "does not fit 3 seats"]),
    (["--field", "builtin:easy"] * 5, ["--field", "at most 4 --field bots"]),
    (["--games", "7"], ["--games", "even number"]),
    (["--games", "8", "--max-games", "10"], ["contradict"]),
    (["--policy", "sometimes"], ["--policy"]),
])
def test_bad_input_is_a_usage_error_naming_the_option(args, words):
    code, out = compare("builtin:hard", "builtin:easy", *args)
    assert code == 2, out
    for word in words:
        assert word in out
    assert "Traceback" not in out


@pytest.mark.slow
def test_a_bot_that_never_starts_is_an_error_after_the_games(tmp_path):
    code, out = compare(f"ghost={tmp_path / 'no-such-bot'}", "builtin:random", "--games", "2", "-q")
    assert code == 1, out
    assert "ghost could not start in any of its 2 games" in out
    assert "Ptnml(0-2): [1, 0, 0, 0, 0]" in out  # the startup fault lost both games, as the policy says


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_live_display_redraws_the_block_in_place():
    from referee.cli.compare import LiveDisplay
    from referee.compare.sprt import Sprt

    stream = _Terminal()
    display = LiveDisplay("Results of a vs b (compact, 2 seats):", stream=stream)
    display.TTY_EVERY = 0.0
    test = Sprt(SprtSettings(0, 5))
    for scores in [(1, 0), (1, 1), (0, 0.5)]:
        test.add_pair(*scores)
        display.update(test)
    display.stop()
    text = stream.getvalue()
    assert text.count("Results of a vs b") == 3 and "Ptnml(0-2): [0, 1, 1, 0, 1]" in text
    assert text.count("\x1b[7F\x1b[J") == 3  # each redraw (and the stop) first clears the 7 lines drawn
    # the last line: the test's expected length (fishtest's formula: [0, 5] nElo takes 25,591 games under H0 or
    # H1) and what is left at the estimate so far, with the time at the rate the pairs came in
    last = [x for x in text.split("\n") if x.startswith("Expected:")][-1]
    assert last.startswith("Expected: 25,591 games if H0 or H1 is true; at the estimate so far about ")
    assert "games/s)" in last
    quiet = _Terminal()
    LiveDisplay("x", stream=quiet, quiet=True).update(test)
    assert quiet.getvalue() == ""


@pytest.mark.slow
def test_an_interrupted_compare_keeps_its_games_and_resumes_to_the_serial_verdict(tmp_path):
    from referee.bots.spec import parse_bot
    from referee.cli.compare import compare_arena
    from referee.compare.run import NoDisplay, run_compare
    from referee.compare.twins import CompareSettings

    settings = CompareSettings.build(parse_bot("builtin:hard"), parse_bot("builtin:medium"), seed=1,
                                     sprt=SprtSettings(0, 100, model="logistic"))
    cut, serial = tmp_path / "cut", tmp_path / "serial"
    run = run_compare(settings, compare_arena(settings), out=str(cut), jobs=2, stop_after=9)  # Ctrl-C after 9
    assert not run.complete and run.stopped == "interrupted"
    doc = results(cut)
    assert not doc["complete"] and doc["sprt"]["result"] is None and doc["sprt"]["stopped"] == "interrupted"
    assert len(game_lines(cut)) >= 9  # every finished game kept, counted or not

    class Said(NoDisplay):  # what a resumed run shows, in order: "resuming", then the block of the pairs read
        def __init__(self):
            self.said = []

        def note(self, text):
            self.said.append(text)

        def update(self, counter):
            self.said.append(counter.tally.pairs)

    one = tmp_path / "one"  # one worker: the 9 games stored are the first 9, 4 whole pairs
    run_compare(settings, compare_arena(settings), out=str(one), jobs=1, stop_after=9)
    said = Said()
    resumed = run_compare(settings, compare_arena(settings), out=str(one), jobs=1, resume=True, display=said,
                          stop_after=1)
    assert not resumed.complete
    assert said.said[:2] == ["resuming: 9 games already played", 4], said.said[:3]
    assert compare(*DECIDED, "--no-report", "--out", str(cut), "--resume")[0] == 0
    assert compare(*DECIDED, "--no-report", "--out", str(serial))[0] == 0
    assert results(cut) == results(serial) and game_lines(cut) == game_lines(serial)


@pytest.mark.slow
def test_a_comparison_holds_only_the_games_ahead_of_its_count(tmp_path):
    """Memory does not grow with the games: each goes to games.jsonl as it ends and, once its pair is counted, is
    kept as sums and placements. Live ``GameLine``s stay a handful (those finished ahead of the count) however
    many pairs were played (keeping every game, as compare once did, holds them all)."""
    import gc

    from referee.bots.spec import parse_bot
    from referee.cli.compare import compare_arena
    from referee.compare.run import NoDisplay, run_compare
    from referee.compare.twins import CompareSettings
    from referee.store.results import GameLine

    class Watch(NoDisplay):
        pairs = 0
        most = 0

        def update(self, counter):
            self.pairs += 1
            if self.pairs % 25 == 0:
                self.most = max(self.most, sum(isinstance(o, GameLine) for o in gc.get_objects()))

    settings = CompareSettings.build(parse_bot("builtin:hard"), parse_bot("builtin:medium"), seed=1, games=600)
    watch = Watch()
    run = run_compare(settings, compare_arena(settings), out=str(tmp_path / "out"), jobs=2, display=watch, lead=48)
    assert run.complete and watch.pairs == 300 and len(run.collected) == 600
    # However the two workers are scheduled (one may stall for a while on a busy machine: 322 were once seen
    # waiting without a lead), no more than the lead wait; keeping every game would hold 600.
    assert 0 < watch.most <= 48, watch.most
    assert [g["game"] for g in game_lines(tmp_path / "out")][-2:] == ["p000300a", "p000300b"]
