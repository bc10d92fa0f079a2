"""Position suites (``referee/replay/suite.py``): the format and its schema, the shipped suites, ``lastcard
puzzles`` against built-ins and deliberately wrong bots, a suite for other rules refused, the JUnit output,
and ``replay --save-position`` from a stored game, the bot reading the history ``replay --ask`` sends."""

from __future__ import annotations

import json
import os
import re
from fractions import Fraction
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
from tests.support.shipped_suites import random_pass_chance, suite_positions

TAPE = ROOT / "tests" / "support" / "ask_bots" / "tape.py"
MOST_CARDS = ROOT / "tests" / "support" / "ask_bots" / "most_cards.py"
RULESETS = ("compact", "family", "arcade")
#: The rule documents a position's comment cites (seeds/000 compact, 001 family, 003 arcade; RULINGS.md).
SEEDS = {"000", "001", "003"}


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
    assert suite.ruleset == ruleset
    found = tuple(suite_positions(ruleset))
    assert suite.positions == found, "run python -m tests.support.shipped_suites to write them again"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_each_shipped_suite_holds_25_lessons_each_from_a_rule_document(ruleset):
    suite = load_suite(os.path.join(SHIPPED, f"{ruleset}.yaml"))
    assert len(suite.positions) >= 25
    assert len({p.id for p in suite.positions}) == len(suite.positions)
    for position in suite.positions:
        cited = re.findall(r"seeds/(\d{3})", position.comment)
        assert cited and set(cited) <= SEEDS, position.comment
    lessons = {p.id.split("-2p-")[0].split("-3p-")[0].split("-4p-")[0] for p in suite.positions}
    assert len(lessons) >= 7  # many rules and tactics, not one lesson 25 times


def _poisson_binomial(chances: list[Fraction]) -> list[Fraction]:
    """The exact distribution of the number of passes of independent positions passed with these chances."""
    dist = [Fraction(1)]
    for p in chances:
        dist = [(dist[k] if k < len(dist) else 0) * (1 - p) + (dist[k - 1] * p if k else 0)
                for k in range(len(dist) + 1)]
    return dist


@pytest.mark.parametrize("ruleset", RULESETS)
def test_hard_passes_most_and_random_few_by_a_margin_computed_exactly(ruleset):
    """``builtin:random`` answers uniformly among the legal answers, so its chance at each position is the share of
    them that pass: its score's distribution is computed exactly, and ``builtin:hard``'s score must lie beyond it."""
    suite = load_suite(os.path.join(SHIPPED, f"{ruleset}.yaml"))
    chances = [random_pass_chance(p, suite.at(p).legal_actions(), suite.calls()) for p in suite.positions]
    n = len(chances)
    dist = _poisson_binomial(chances)
    assert sum(dist) == 1
    expected = sum(chances)
    assert expected <= Fraction(n, 3)  # random: few
    hard = n - len(run_suite(suite, parse_bot("builtin:hard"), "hard").misses)
    assert hard >= Fraction(4, 5) * n  # hard: most
    assert sum(dist[hard:]) < Fraction(1, 10**6)  # a random answerer reaches hard's score less than once a million
    # builtin:random itself (seeded by each position) lands where its distribution says, far below hard
    rand = n - len(run_suite(suite, parse_bot("builtin:random"), "random").misses)
    assert sum(dist[:rand + 1]) > Fraction(1, 10**6) and sum(dist[rand:]) > Fraction(1, 10**6) and rand < hard


def test_the_shipped_suites_on_the_command_line_as_run_suite_scores_them():
    for ruleset in RULESETS:
        suite = load_suite(os.path.join(SHIPPED, f"{ruleset}.yaml"))
        for player in ("hard", "random"):
            passed = len(suite.positions) - len(run_suite(suite, parse_bot(f"builtin:{player}"), player).misses)
            out = puzzles(ruleset, f"builtin:{player}")
            assert out.exit_code == (0 if passed == len(suite.positions) else 1), out.output
            assert f"builtin:{player} on {ruleset} ({ruleset} (its preset options)): {passed}/{len(suite.positions)} " \
                   "positions passed" in out.output
            assert out.output.count("\nMISS ") == len(suite.positions) - passed


def worked_examples(folder: Path, ruleset: str, *ids: str) -> Path:
    """A suite of the shipped suite's positions ``ids`` (the documents' worked examples), for the bots below."""
    data = yaml.safe_load(Path(SHIPPED, f"{ruleset}.yaml").read_text())
    data["positions"] = [p for p in data["positions"] if p["id"] in ids]
    assert [p["id"] for p in data["positions"]] == list(ids)
    path = folder / f"{ruleset}-examples.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


@pytest.mark.slow
def test_a_bot_that_never_calls_misses_exactly_the_draw_two_pair(tmp_path):
    out = puzzles(worked_examples(tmp_path, "arcade", "7s-together", "draw-two-pair-calls"), f"{PY} {MOST_CARDS}",
                  "--json")
    assert out.exit_code == 1, out.output
    data = json.loads(out.stdout)  # the format line goes to stderr
    assert (data["positions"], data["passed"], data["failed"]) == (2, 1, 1)
    miss = next(r for r in data["results"] if not r["passed"])
    assert miss["id"] == "draw-two-pair-calls"
    assert miss["answered"] == "yd.rd" and miss["accept"] == ["yd.rd+"] and miss["reject"] == ["yd.rd"]


@pytest.mark.slow
def test_a_bot_that_always_draws_misses_every_position_shown_as_replay_shows_the_turn(tmp_path):
    out = puzzles(worked_examples(tmp_path, "family", "stop-the-last-card"), f"{PY} {TAPE} - last")  # draws
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
    out = puzzles(worked_examples(tmp_path, "arcade", "7s-together", "draw-two-pair-calls"), f"{PY} {MOST_CARDS}",
                  "--junit", junit)
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
