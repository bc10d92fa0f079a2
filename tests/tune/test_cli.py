"""``lastcard tune`` on the command line: the tuned values as a command and a parameter file, ``--verify``, and
bad input refused with the value and the fix (exit status 2)."""

from __future__ import annotations

import json
import re
import sys

import pytest
from click.testing import CliRunner

from referee.cli.main import cli
from tests.cli.test_edges import COMMANDS
from tests.cli.test_edges import _check as check_edge
from tests.tune.tunebot import PEAKED, ROOT

BOT = f"{sys.executable} {PEAKED} --x {{x}} --y 70 --z {{z}}"
TABLE = ["--ruleset", "family", "-o", "target=round", "--sandbox", "none", "-q"]


def invoke(*args: str):
    return CliRunner().invoke(cli, ["tune", *args])


@pytest.mark.slow
def test_a_short_tune_prints_the_tuned_command_and_parameter_file_and_verifies(tmp_path):
    params = tmp_path / "params.txt"
    params.write_text("x, int, 80, 0, 100, 10, 0.04\n")
    out = tmp_path / "out"
    result = invoke(BOT, "--params", str(params), "--param", "z=50,0,100,10,0.04", "--games", "8", "--pairs", "2",
                    "--out", str(out), "--no-report", "--verify", "4", *TABLE)
    assert result.exit_code == 0, result.output
    text = result.output
    assert "tuned after 2 iterations (8 games), seed 1:" in text
    assert f"{sys.executable} {PEAKED} --x " in text and "--y 70 --z " in text
    assert "parameter file (OpenBench's format):" in text
    assert "x, int, " in text and ", 0, 100, 10, 0.04" in text
    assert "Results of peaked-tuned vs peaked-start" in text  # the verify block
    assert (out / "trajectory.csv").exists() and (out / "verify" / "results.json").exists()


def test_a_placeholder_no_parameter_gives_is_refused():
    result = invoke(f"{sys.executable} {PEAKED} --x {{xx}}", "--param", "x=80,0,100,10", *TABLE)
    assert result.exit_code == 2
    assert "placeholder {xx} that no --param gives; the parameters are x" in result.output


def test_a_bad_param_names_the_option_and_the_value():
    result = invoke(BOT, "--param", "x=800,0,100,10", "--param", "z=50,0,100,10", *TABLE)
    assert result.exit_code == 2
    assert "--param" in result.output and "START 800 is outside [0, 100]" in result.output


def test_iterations_and_a_game_budget_contradict():
    result = invoke(BOT, "--param", "x=80,0,100,10", "--param", "z=50,0,100,10", "--iterations", "5", "--games",
                    "100", *TABLE)
    assert result.exit_code == 2 and "pick one" in result.output


def test_a_budget_below_one_iteration_is_refused():
    result = invoke(BOT, "--param", "x=80,0,100,10", "--param", "z=50,0,100,10", "--games", "4", *TABLE)
    assert result.exit_code == 2 and "do not make one iteration of 8 twin pairs: give at least 16" in result.output


def test_a_missing_parameter_file_is_named():
    result = invoke(BOT, "--params", "/nonexistent/params.txt", *TABLE)
    assert result.exit_code == 2
    assert "--params: /nonexistent/params.txt: no such file; check its name and folder" in result.output


@pytest.mark.slow  # some values run a tune of bot processes
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
@pytest.mark.parametrize("option", COMMANDS["tune"][1])
@pytest.mark.parametrize("value", ["0", str(2**63), "abc"])
def test_every_numeric_option_at_its_edges_runs_or_names_the_option(tmp_path, monkeypatch, option, value):
    monkeypatch.chdir(tmp_path)
    check_edge("tune", option, value)  # exit 0, 2 naming the option, or 130 when cut; never a traceback


@pytest.mark.slow
def test_a_cut_tune_says_how_to_resume_and_the_resume_carries_on(tmp_path):
    from tests.support.cli_cut import invoke_cut

    out = tmp_path / "out"
    args = ["tune", BOT, "--param", "x=80,0,100,10,0.02", "--param", "z=50,0,100,10,0.02", "--iterations", "500",
            "--pairs", "1", "--out", str(out), "--no-report", *TABLE]
    cut = invoke_cut(args, 6.0)
    assert cut.exit_code == 130, cut.output
    assert "of 500 iterations saved; resume with: lastcard tune" in cut.output and "--resume" in cut.output
    played = len((out / "games.jsonl").read_text().splitlines())
    again = invoke_cut([*args, "--resume"], 6.0)
    assert again.exit_code == 130, again.output
    # (A machine too slow to finish one game in 6 s has nothing to resume from: the line is not printed.)
    assert f"resuming: {played} games already played" in again.output or not played
    assert len((out / "games.jsonl").read_text().splitlines()) > played or not played


def _line(text: str, start: str) -> str:
    (line,) = [x for x in text.splitlines() if x.startswith(start)]
    return line


@pytest.mark.slow
def test_a_tuned_value_reads_the_same_in_the_terminal_the_command_the_file_and_the_report(tmp_path):
    out = tmp_path / "out"
    result = invoke(BOT, "--param", "x=80,0,100,10,0.04", "--param", "z=50.0,0,100,10,0.04", "--iterations", "12",
                    "--pairs", "1", "--out", str(out), *TABLE)
    assert result.exit_code == 0, result.output
    text = result.output
    values = {m.group(1): m for m in re.finditer(r"^  (\w+) +(\S+)  \((start .*)\)$", text, re.M)}
    shown = {name: values[name].group(2) for name in ("x", "z")}
    assert re.fullmatch(r"\d+", shown["x"]) and re.fullmatch(r"\d+\.\d", shown["z"])  # z: a tenth of c_end 10
    assert values["x"].group(3).endswith("before rounding") and values["z"].group(3) == "start 50.0"
    assert f"--x {shown['x']} --y 70 --z {shown['z']}" in text  # the command
    tuned = (out / "tuned.txt").read_text()
    assert f"x, int, {shown['x']}, 0, 100, 10, 0.04" in tuned and f"z, float, {shown['z']}, 0, 100, 10, 0.04" in tuned
    block = json.loads((out / "results.json").read_text())["tune"]
    assert block["given"] == shown
    page = (out / "report.html").read_text()
    assert f"<td>{shown['x']}</td>" in page and f"<td>{shown['z']}</td>" in page
    # whether each parameter settled, over the last iterations
    assert _line(text, "convergence over the last 10 iterations").startswith("convergence over")
    for name in ("x", "z"):
        line = _line(text, f"  {name}  moved ")
        assert "noise ±" in line and "gradient " in line and ("settled" in line or "still moving" in line)
    assert [t["name"] for t in block["convergence"]] == ["x", "z"]
    # the sides are mixtures, and the standings say so
    assert "peaked+ (mixture)" in (out / "standings.md").read_text()


@pytest.mark.slow
def test_a_tune_without_a_field_says_its_format_and_warns_of_self_play():
    result = invoke(BOT, "--param", "x=80,0,100,10,0.04", "--param", "z=50,0,100,10,0.04", "--iterations", "1",
                    "--pairs", "1", "--no-report", *TABLE)
    assert result.exit_code == 0, result.output
    assert _line(result.output, "format: ").startswith("format: family (target=round), 2 seats, move 1000 ms cpu")
    assert _line(result.output, "warning: ").startswith("warning: pure self-play")


CONTEST = """\
name: league
ruleset: family
options: {target: round}
seats: 4
limits: {move_ms: 700}
sandbox: none
bots:
  - builtin:easy
  - builtin:random
  - builtin:hard
  - {name: peaked, command: "{python} tests/support/tune_bots/peaked.py --x 30 --y 70 --z 0"}
"""


@pytest.mark.slow
def test_a_tune_in_a_contests_format_meets_its_bots_and_verifies_against_them(tmp_path):
    arena = tmp_path / "league.yaml"
    arena.write_text(CONTEST.replace("name: league", f"name: league\nbase_dir: {ROOT}"))
    out = tmp_path / "out"
    result = invoke(f"peaked={sys.executable} {PEAKED} --x {{x}} --y 70 --z {{z}}", "--arena", str(arena),
                    "--param", "x=80,0,100,10,0.04", "--param", "z=50,0,100,10,0.04", "--iterations", "2",
                    "--pairs", "2", "--verify", "8", "--vs-field", "--out", str(out), "--no-report", "-q")
    assert result.exit_code == 0, result.output
    fmt = _line(result.output, "format: ")
    assert fmt.startswith("format: family (target=round), 4 seats, move 700 ms cpu, startup 10000 ms, policy forfeit, "
                          "sandbox none; field: 2 a game, drawn from easy, random, hard; as in ")
    assert not [x for x in result.output.splitlines() if x.startswith("warning:")]
    games = [json.loads(x) for x in (out / "games.jsonl").read_text().splitlines()]
    assert {n for g in games for n in g["seating"]} - {"peaked+ (mixture)", "peaked- (mixture)"} <= {
        "easy", "random", "hard"}
    assert all(len(g["seating"]) == 4 and g["ruleset"] == "family" for g in games)
    assert (out / "verify" / "results.json").exists() and (out / "verify-vs-field" / "results.json").exists()
    assert _line(result.output, "NEW against BASE: 8 games").count("against the field: 8 games") == 1
