"""Position suites (``referee/replay/suite.py``): the format and its schema, the shipped suites, ``lastcard
puzzles`` against built-ins and deliberately wrong bots, a suite for other rules refused, the JUnit output,
and ``replay --save-position`` from a stored game, the bot reading the history ``replay --ask`` sends."""

from __future__ import annotations

import json
import os
from pathlib import Path
from xml.etree import ElementTree

import pytest
import yaml
from click.testing import CliRunner
from jsonschema import Draft202012Validator

from referee.bots.spec import parse_bot
from referee.cli.main import cli
from referee.protocol.schemas import load_schema
from referee.replay.seat_lines import seat_script
from referee.replay.suite import SHIPPED, SuiteError, load_suite, run_suite
from referee.store.game_record import load
from tests.conftest import PY, ROOT
from tests.support.replaydata import small_results_dir
from tests.support.shipped_suites import WANTED, find

TAPE = ROOT / "tests" / "support" / "ask_bots" / "tape.py"
MOST_CARDS = ROOT / "tests" / "support" / "ask_bots" / "most_cards.py"
RULESETS = ("compact", "family", "arcade")


def puzzles(*args: str):
    return CliRunner().invoke(cli, ["puzzles", *map(str, args)])


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    return small_results_dir(tmp_path_factory.mktemp("suite") / "out", faulty=False)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_shipped_suites_obey_the_schema_and_are_the_ones_the_script_finds(ruleset):
    path = os.path.join(SHIPPED, f"{ruleset}.yaml")
    with open(path) as fh:
        data = yaml.safe_load(fh)
    Draft202012Validator(load_schema("positions.schema")).validate(data)
    suite = load_suite(path)
    assert suite.ruleset == ruleset and suite.positions
    found = [find(w) for w in WANTED if w.ruleset == ruleset]
    assert suite.positions == tuple(found), "run python -m tests.support.shipped_suites to write them again"


#: Seeded figures: the positions each built-in passes in each shipped suite.
BUILTIN_PASSES = {
    ("compact", "random"): 1, ("compact", "easy"): 1, ("compact", "medium"): 1, ("compact", "hard"): 1,
    ("family", "random"): 0, ("family", "easy"): 0, ("family", "medium"): 0, ("family", "hard"): 1,
    ("arcade", "random"): 0, ("arcade", "easy"): 0, ("arcade", "medium"): 2, ("arcade", "hard"): 2,
}


@pytest.mark.parametrize(("ruleset", "player"), list(BUILTIN_PASSES))
def test_the_built_in_players_against_the_shipped_suites(ruleset, player):
    suite = load_suite(os.path.join(SHIPPED, f"{ruleset}.yaml"))
    run = run_suite(suite, parse_bot(f"builtin:{player}"), player)
    assert len(run.verdicts) - len(run.misses) == BUILTIN_PASSES[ruleset, player]


def test_builtin_hard_passes_every_shipped_suite_on_the_command_line():
    for ruleset in RULESETS:
        out = puzzles(ruleset, "builtin:hard")
        assert out.exit_code == 0, out.output
        assert "positions passed" in out.output and "MISS" not in out.output


@pytest.mark.slow
def test_a_bot_that_never_calls_misses_exactly_the_draw_two_pair():
    out = puzzles("arcade", f"{PY} {MOST_CARDS}", "--json")
    assert out.exit_code == 1, out.output
    data = json.loads(out.stdout)  # the format line goes to stderr
    assert (data["positions"], data["passed"], data["failed"]) == (2, 1, 1)
    miss = next(r for r in data["results"] if not r["passed"])
    assert miss["id"] == "draw-two-pair-calls"
    assert miss["answered"] == "yd.rd" and miss["accept"] == ["yd.rd+"] and miss["reject"] == ["yd.rd"]


@pytest.mark.slow
def test_a_bot_that_always_draws_misses_every_position_shown_as_replay_shows_the_turn():
    out = puzzles("family", f"{PY} {TAPE} - last")  # the last legal answer: draw
    assert out.exit_code == 1, out.output
    assert "0/1 positions passed" in out.output
    assert "MISS stop-the-last-card: seat 2 (random2) at turn 246 (seed 1)" in out.output
    assert "turn 246 · your turn (play) · top" in out.output and "your hand:" in out.output
    accepted = next(line for line in out.output.splitlines() if "accepted:" in line)
    assert "blue +2" in accepted and "answered: draws" in out.output
    assert "why: seeds/001 tip" in out.output


def test_a_suite_for_other_rules_is_refused_with_exit_2(tmp_path):
    out = puzzles("arcade", "builtin:hard", "--ruleset", "family")
    assert out.exit_code == 2
    assert "is a suite for arcade (its preset options): it does not run under family" in out.output
    out = puzzles("family", "builtin:hard", "--ruleset", "family", "--option", "stacking=true")
    assert out.exit_code == 2 and "under family with stacking=True" in out.output
    assert puzzles("family", "builtin:hard", "--ruleset", "family").exit_code == 0


def test_bad_suites_are_bad_input(tmp_path):
    assert puzzles(tmp_path / "none.yaml", "builtin:hard").exit_code == 2
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: lastcard-positions\nversion: 1\nruleset: compact\npositions: [{id: x}]\n")
    out = puzzles(bad, "builtin:hard")
    assert out.exit_code == 2 and "is not a position suite" in out.output and "seed" in out.output
    text = Path(SHIPPED, "arcade.yaml").read_text().replace("- yd.rd+", "- yd.gd+")
    bad.write_text(text)
    with pytest.raises(SuiteError, match="'yd.gd\\+' is not legal at turn 44"):
        load_suite(str(bad))


@pytest.mark.slow
def test_the_junit_output_parses(tmp_path):
    junit = tmp_path / "out.xml"
    out = puzzles("arcade", f"{PY} {MOST_CARDS}", "--junit", junit)
    assert out.exit_code == 1
    suite = ElementTree.parse(junit).getroot().find("testsuite")
    assert suite is not None and (suite.get("tests"), suite.get("failures")) == ("2", "1")
    cases = {c.get("name"): c for c in suite.iter("testcase")}
    assert set(cases) == {"7s-together", "draw-two-pair-calls"}
    failure = cases["draw-two-pair-calls"].find("failure")
    assert failure is not None and "answered yd.rd" in failure.get("message", "")
    assert cases["7s-together"].find("failure") is None


@pytest.mark.slow
def test_save_position_then_the_bot_reads_what_replay_ask_sends(results, tmp_path):
    found = load(str(results), "g0001")
    script = seat_script(found, 1)
    req = script.requests[2]
    suite = tmp_path / "mine.yaml"
    code = [t.removesuffix("!") for t in found.stored.actions.split()][req.turn]
    out = CliRunner().invoke(cli, ["replay", str(results), "g0001", "--seat", "1", "--turn", str(req.turn),
                                   "--save-position", str(suite), "--accept", code, "--comment", "as played"])
    assert out.exit_code == 0, out.output
    loaded = load_suite(str(suite))
    assert loaded.ruleset == found.stored.ruleset and loaded.options == {}
    assert [p.turn for p in loaded.positions] == [req.turn]
    tape = tmp_path / "tape.bin"
    out = puzzles(suite, f"{PY} {TAPE} {tape}", "--sandbox", "none")  # the tape is outside the bot's folder
    assert out.exit_code in (0, 1), out.output
    read = tape.read_bytes()
    # After its hello, every line the seat read up to the turn, then the quit.
    assert read.split(b"\n", 1)[1] == script.lines(upto=req.number) + b'{"type":"quit"}\n'
    # The same seat's turn again under another name appends; another ruleset's game is refused.
    again = ["replay", str(results), "g0001", "--seat", "1", "--turn", str(req.turn), "--save-position", str(suite),
             "--reject", "d", "--position-id", "no-draw"]
    assert CliRunner().invoke(cli, again).exit_code == 0
    assert [p.id for p in load_suite(str(suite)).positions] == [f"g0001-t{req.turn}-s1", "no-draw"]
    other = load(str(results), "g0002").stored
    assert other.ruleset != found.stored.ruleset
    turn = next(r.turn for r in seat_script(load(str(results), "g0002"), 0).requests)
    out = CliRunner().invoke(cli, ["replay", str(results), "g0002", "--seat", "0", "--turn", str(turn),
                                   "--save-position", str(suite), "--accept", "d"])
    assert out.exit_code == 2 and "is a suite for compact" in out.output and "save it to another suite" in out.output


@pytest.mark.parametrize(("args", "says"), [
    (["--save-position", "x.yaml", "--accept", "d"], "give --seat N and --turn K"),
    (["--seat", "1", "--turn", "3", "--save-position", "x.yaml"], "--accept ACTION"),
    (["--accept", "d"], "go with --save-position FILE"),
    (["--seat", "1", "--turn", "3", "--save-position", "x.yaml", "--accept", "d", "--ask", "x"], "leave out"),
])
def test_save_position_option_checks(results, args, says):
    out = CliRunner().invoke(cli, ["replay", str(results), "g0001", *args])
    assert out.exit_code == 2 and says in out.output
