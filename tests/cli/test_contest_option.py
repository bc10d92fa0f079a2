"""``--arena FILE [--stage NAME]`` on ``puzzles``, ``replay --ask`` and ``play`` (compare's and tune's are in
tests/compare/test_contest.py and tests/tune/test_cli.py): each run says the format it plays, takes the contest's
limits and sandbox, and warns where it is not the contest's format."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli.main import cli
from tests.conftest import PY, ROOT
from tests.support.replaydata import small_results_dir

STRONG = f"{PY} {ROOT / 'sample_bots' / 'python' / 'strong_bot.py'}"

FAMILY = f"""\
name: club
base_dir: {ROOT}
ruleset: family
seats: 3
limits: {{move_ms: 600}}
sandbox: none
bots:
  - builtin:easy
  - builtin:medium
  - {{name: strong, command: "{{python}} sample_bots/python/strong_bot.py"}}
"""


@pytest.fixture
def club(tmp_path: Path) -> Path:
    path = tmp_path / "club.yaml"
    path.write_text(FAMILY)
    return path


def invoke(*args: str, stdin: str | None = None):
    return CliRunner().invoke(cli, list(args), input=stdin)


def line(output: str, start: str) -> str:
    (found,) = [x for x in output.splitlines() if x.startswith(start)]
    return found


@pytest.mark.slow
def test_puzzles_run_the_bot_under_the_contests_limits_and_sandbox(club):
    res = invoke("puzzles", "family", STRONG, "--arena", str(club))
    assert res.exit_code in (0, 1) and "positions passed" in res.output, res.output  # 1: it misses some
    assert line(res.output, "format: ") == (f"format: family, move 600 ms cpu, startup 10000 ms, sandbox none; as in "
                                            f"{club}, stage club (round_robin)")
    # a name of the contest's bots is that bot, as the contest runs it
    res = invoke("puzzles", "family", "strong", "--arena", str(club))
    assert res.exit_code in (0, 1) and "strong on family" in res.output, res.output


def test_puzzles_refuse_a_suite_for_other_rules_than_the_contests(club):
    res = invoke("puzzles", "compact", "builtin:hard", "--arena", str(club))
    assert res.exit_code == 2, res.output
    assert "is a suite for compact (its preset options): it does not run under family" in res.output


def test_puzzles_without_a_contest_say_their_defaults():
    res = invoke("puzzles", "compact", "builtin:hard")
    assert res.exit_code == 0, res.output
    assert line(res.output, "format: ") == ("format: compact, move 1000 ms cpu, startup 10000 ms, built-in players "
                                            "only; this command's defaults (--arena FILE plays a contest's format)")


@pytest.mark.slow
def test_replay_ask_takes_the_contests_limits_and_says_the_game_is_not_its_format(club, tmp_path):
    results = small_results_dir(tmp_path / "out", faulty=False)  # g0001: compact, 3 seats
    res = invoke("replay", str(results), "g0001", "--seat", "0", "--all", "--ask", STRONG, "--arena", str(club))
    assert res.exit_code == 0, res.output
    assert line(res.output, "format: ").startswith("format: compact, 3 seats, move 600 ms cpu, startup 10000 ms, "
                                                   "sandbox none; as in ")
    warning = line(res.output, "warning: ")
    assert "compact (the contest: family)" in warning and "3 seats" not in warning
    assert warning.endswith("ask it positions from the contest's own games (a results folder of its format)")
    assert "asked " in res.output
    res = invoke("replay", str(results), "g0002", "--seat", "0", "--all", "--ask", STRONG, "--arena", str(club))
    assert res.exit_code == 0 and not [x for x in res.output.splitlines() if x.startswith("warning:")], res.output


def test_replay_takes_an_arena_only_to_ask(club, tmp_path):
    results = small_results_dir(tmp_path / "out", faulty=False)
    res = invoke("replay", str(results), "g0001", "--arena", str(club))
    assert res.exit_code == 2 and "it goes with --ask" in res.output


@pytest.mark.slow
def test_play_in_a_contests_format_meets_its_bots(club):
    res = invoke("play", "--arena", str(club), "--seed", "3", "--pace", "0", stdin="q\n")
    fmt = line(res.output, "format: ")
    assert fmt.startswith("format: family, 3 seats, move 600 ms cpu, startup 10000 ms, sandbox none; field: ")
    table = line(res.output, "You are seat 0 (you) at a table of 3: ")
    drawn = fmt.split("field: ")[1].split(";")[0].split(", ")
    assert len(drawn) == 2 and set(drawn) <= {"easy", "medium", "strong"}
    assert table.endswith(f"1 {drawn[0]}, 2 {drawn[1]}")
    res = invoke("play", "--arena", str(club), "--vs", "strong", "--seed", "3", "--pace", "0", stdin="q\n")
    assert "at a table of 2: 0 you, 1 strong" in res.output, res.output


def test_play_needs_bots_or_a_contest():
    res = invoke("play", "--seed", "3")
    assert res.exit_code == 2 and "--vs BOT (1 to 5), or --arena FILE" in res.output
