"""``lastcard tune`` on the command line: the tuned values as a command and a parameter file, ``--verify``, and
bad input refused with the value and the fix (exit status 2)."""

from __future__ import annotations

import sys

import pytest
from click.testing import CliRunner

from referee.cli.main import cli
from tests.cli.test_edges import COMMANDS
from tests.cli.test_edges import _check as check_edge
from tests.tune.tunebot import PEAKED

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
    assert result.exit_code == 2 and "cannot read '/nonexistent/params.txt'" in result.output


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
