"""``compare --arena FILE [--stage NAME]``: a contest's format (its rules, seats, limits, policy and bots as the
field), the line that says what a run plays and its warnings, ``--vs-field`` (the second test: NEW's places
against the field against BASE's), and the default bounds said before the test."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from referee.cli.main import cli

ROOT = Path(__file__).resolve().parents[2]
RESULTS_SCHEMA = json.loads((ROOT / "protocol" / "schemas" / "results.schema.json").read_text())

CUP = """\
name: cup
ruleset: family
options: {target: round}
seats: 3
policy: strikes:2
limits: {move_ms: 400}
stages:
  - name: league
    format: round_robin
    games: 3
  - name: duel
    seats: 2
    games: 2
bots:
  - builtin:easy
  - builtin:random
  - {name: mine, command: "builtin:medium"}
  - builtin:hard
"""


@pytest.fixture
def cup(tmp_path: Path) -> Path:
    path = tmp_path / "cup.yaml"
    path.write_text(CUP)
    return path


def compare(*args: str) -> tuple[int, str]:
    res = CliRunner().invoke(cli, ["compare", *args])
    return res.exit_code, res.output


def lines_starting(output: str, start: str) -> list[str]:
    return [x for x in output.splitlines() if x.startswith(start)]


@pytest.mark.slow
def test_the_contest_gives_the_rules_seats_limits_policy_and_its_other_bots_as_the_field(cup, tmp_path):
    code, out = compare("--arena", str(cup), "new=builtin:hard", "mine", "--max-games", "20", "-q",
                        "--out", str(tmp_path / "o"), "--no-report")
    assert code == 0, out
    (fmt,) = lines_starting(out, "format: ")
    assert fmt == (f"format: family (target=round), 3 seats, move 400 ms cpu, startup 10000 ms, policy strikes:2, "
                   f"built-in players only; field: 1 a game, drawn from easy, random, hard; as in {cup}, stage "
                   f"league (round_robin)")
    assert not lines_starting(out, "warning:")
    # BASE named "mine" is the contest's own bot: it is left out of the field (NEW is not one of its bots)
    assert "Results of new vs mine (family, 3 seats, field: 1 a pair, drawn from easy, random, hard):" in out
    doc = json.loads((tmp_path / "o" / "results.json").read_text())
    jsonschema.validate(doc, RESULTS_SCHEMA)
    assert (doc["ruleset"], doc["seats"], doc["options"]["target"], doc["policy"]) == ("family", 3, "round",
                                                                                         "strikes:2")
    games = [json.loads(x) for x in (tmp_path / "o" / "games.jsonl").read_text().splitlines()]
    assert {n for g in games for n in g["seating"]} <= {"new", "mine", "easy", "random", "hard"}
    assert len({g["seating"][i] for g in games for i in range(3)} - {"new", "mine"}) >= 2  # drawn per pair
    assert all(g["ruleset"] == "family" for g in games)
    assert json.loads((tmp_path / "o" / "arena.json").read_text())["arena"]["draw"] == 1


@pytest.mark.slow
def test_an_option_given_over_the_contest_wins_with_a_warning(cup):
    code, out = compare("--arena", str(cup), "builtin:hard", "builtin:medium", "--seats", "4", "--move-ms", "300",
                        "--games", "4", "-q")
    assert code == 0, out
    (warning,) = lines_starting(out, "warning: ")
    assert warning.startswith("warning: this run is not the contest's format: 4 seats (the contest: 3); move 300 ms")
    assert "drop those options to play its format" in warning
    assert "Results of hard vs medium (family, 4 seats, field: 2 a pair, drawn from easy, random, mine)" in out


@pytest.mark.slow
def test_another_stage_plays_its_own_table(cup):
    code, out = compare("--arena", str(cup), "--stage", "duel", "builtin:hard", "builtin:medium", "--games", "4", "-q")
    assert code == 0, out
    assert "stage duel (round_robin)" in lines_starting(out, "format: ")[0]
    assert "Results of hard vs medium (family, 2 seats):" in out  # a duel: no seat for the field


@pytest.mark.parametrize("args, words", [
    (["--stage", "final"], "no stage 'final' in"),
    (["--stage", "leage"], "did you mean 'league'?"),
])
def test_a_stage_the_contest_lacks_is_a_usage_error_naming_its_stages(cup, args, words):
    code, out = compare("--arena", str(cup), *args, "builtin:hard", "builtin:medium", "--games", "2")
    assert code == 2 and words in out and "its stages are: league, duel" in out, out


def test_a_stage_without_an_arena_and_a_broken_arena_are_usage_errors(tmp_path):
    code, out = compare("--stage", "league", "builtin:hard", "builtin:medium")
    assert code == 2 and "give --arena FILE.yaml too" in out
    bad = tmp_path / "bad.yaml"
    bad.write_text("bots: [builtin:nobody]\n")
    code, out = compare("--arena", str(bad), "builtin:hard", "builtin:medium")
    assert code == 2 and "unknown built-in player 'builtin:nobody'" in out and "Traceback" not in out


@pytest.mark.slow
def test_without_a_contest_the_defaults_are_said_and_self_play_warned():
    code, out = compare("builtin:hard", "builtin:medium", "--games", "4", "-q")
    assert code == 0, out
    (fmt,) = lines_starting(out, "format: ")
    assert fmt == ("format: compact, 2 seats, move 1000 ms cpu, startup 10000 ms, policy forfeit, built-in players "
                   "only; field: none; this command's defaults (--arena FILE plays a contest's format)")
    (warning,) = lines_starting(out, "warning: ")
    assert warning.startswith("warning: pure self-play: your bot only meets versions of itself")
    code, out = compare("builtin:hard", "builtin:medium", "--field", "builtin:easy", "--games", "4", "-q")
    assert code == 0 and not lines_starting(out, "warning: "), out


@pytest.mark.slow
def test_the_default_bounds_are_the_tables_and_said_with_their_cost():
    code, out = compare("builtin:hard", "builtin:medium", "--max-games", "4", "-q")
    assert code == 0, out
    (line,) = lines_starting(out, "test: ")
    assert line.startswith("test: [0, 30] nElo (the default for compact at 2 seats), alpha 0.05, beta 0.05: about 711 "
                           "games if NEW is no better, ")
    assert "LLR: " in out and "[0.00, 30.00]" in out
    code, out = compare("builtin:hard", "builtin:medium", "-r", "family", "--seats", "4", "--max-games", "4", "-q")
    assert "test: [0, 35] nElo (the default for family at 4 seats)" in out and "[0.00, 35.00]" in out
    code, out = compare("builtin:hard", "builtin:medium", "--elo1", "20", "--max-games", "4", "-q")
    assert "test: [0, 20] nElo (given)" in out and "about 1,599 games if NEW is no better" in out


@pytest.mark.slow
def test_vs_field_runs_a_second_test_of_the_places_against_the_field(cup, tmp_path):
    out_dir = tmp_path / "o"
    code, out = compare("--arena", str(cup), "builtin:hard", "mine", "--vs-field", "--max-games", "30", "-q",
                        "--out", str(out_dir), "--no-report")
    assert code == 0, out
    assert "each deal played by NEW, then by BASE in its seat" in out
    # the contest's other bots, easy and random, fill the table around NEW (twin a) or BASE (twin b)
    assert "Results of hard vs mine (family, 3 seats, against the field: easy, random):" in out
    (both,) = lines_starting(out, "NEW against BASE: ")
    assert "; against the field: " in both
    field_doc = json.loads((out_dir / "vs-field" / "results.json").read_text())
    jsonschema.validate(field_doc, RESULTS_SCHEMA)
    block = field_doc["sprt"]
    assert block["ptnml"][1] == block["ptnml"][3] == 0  # a pair is NEW's place against BASE's: WW, even or LL
    games = [json.loads(x) for x in (out_dir / "vs-field" / "games.jsonl").read_text().splitlines()]
    for a, b in zip(games[::2], games[1::2]):
        assert a["seed"] == b["seed"] and "hard" in a["seating"] and "mine" not in a["seating"]
        assert "mine" in b["seating"] and "hard" not in b["seating"]
        seat = a["seating"].index("hard")
        assert b["seating"][seat] == "mine"
        assert [n for i, n in enumerate(a["seating"]) if i != seat] == [n for i, n in enumerate(b["seating"])
                                                                         if i != seat]
    assert json.loads((out_dir / "results.json").read_text())["sprt"]["new"] == "hard"  # the first test's, as ever


@pytest.mark.slow
def test_vs_field_needs_a_field_and_one_new():
    code, out = compare("builtin:hard", "builtin:medium", "--vs-field", "--games", "2", "-q")
    assert code == 2 and "needs a field" in out, out
    code, out = compare("builtin:medium", "--candidate", "builtin:hard", "--vs-field")
    assert code == 2 and "--vs-field tests one NEW against BASE" in out, out


@pytest.mark.slow
def test_candidates_play_the_contests_format_too(cup):
    code, out = compare("--arena", str(cup), "builtin:medium", "--candidate", "builtin:hard", "--candidate",
                        "builtin:easy", "--max-games", "6", "-q")
    assert code == 0, out
    assert lines_starting(out, "format: ")[0].startswith("format: family (target=round), 3 seats, move 400 ms")
    assert "field: 1 a game, drawn from random, mine" in out
    assert lines_starting(out, "test: ")[0].endswith("(each candidate's)")
