"""Every command at the edges of its numeric options: a normal run, or exit status 2 with a message that names
the option; never a traceback, and a run that is legitimately long stops cleanly when cut (Ctrl-C)."""

from __future__ import annotations

import os
import shutil
import sys

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from referee.run.workers import JOBS_PER_CPU, max_jobs
from tests.support.cli_cut import invoke_cut
from tests.support.tiers import starts_processes

BOT = (f"{sys.executable} "
       f"{os.path.join(os.path.dirname(__file__), '..', '..', 'sample_bots', 'python', 'random_bot.py')}")

#: Each command: the arguments of a short run, and its numeric options ("-o KEY=": a ruleset option).
COMMANDS: dict[str, tuple[list[str], list[str]]] = {
    "match": (["match", "-n", "2", "builtin:easy", "builtin:random"],
              ["--games", "--seed", "--jobs", "--move-ms", "--bank-ms", "--startup-ms", "-o target=",
               "-o move_limit="]),
    "arena": (["arena", "arena.yaml", "--out", "arena-out", "--no-report", "--fresh"], ["--jobs", "--check-games"]),
    "check": (["check", BOT, "-n", "1"], ["--games", "--seed", "--move-ms", "--startup-ms", "--quiet-ms"]),
    "play": (["play", "--vs", "builtin:random", "--pace", "0"], ["--seat", "--seed", "--move-ms", "--pace"]),
    "replay": (["replay", "match-out", "g0001"], ["--seat"]),
    "ladder run": (["ladder", "run", "arena.yaml", "--db", "ladder.db"],
                   ["--budget", "--target-separation", "--games-per-bot", "--batch", "--jobs"]),
    "ladder standings": (["ladder", "standings", "--db", "ladder.db"], ["--run"]),
    "sprt": (["sprt", "--ptnml", "3,10,20,12,5"], ["--elo0", "--elo1", "--alpha", "--beta", "--seats", "--variance"]),
    "grade": (["grade", BOT, "--sandbox", "none", "-q", "-o", "grade.json"],
              ["--jobs", "--check-games", "--fail-under"]),
    "tune": (["tune", BOT + " {x}", "--param", "x=5,0,10,1", "--iterations", "1", "--pairs", "1", "--sandbox",
              "none", "-q", "--no-report"], ["--iterations", "--games", "--pairs", "--seed", "--jobs", "--verify"]),
}
EDGES = ["0", "-1", "1", str(2**31), str(2**63), str(10**12), "abc", "", "1.5"]
CASES = [(name, option) for name, (_, options) in COMMANDS.items() for option in options]
#: Seconds a run may take before the test cuts it as Ctrl-C would.
CUT_S = 2.0


@pytest.fixture(scope="module")
@starts_processes
def workdir(tmp_path_factory):
    """A directory with an arena file, a stored match (for replay) and a ladder (for its standings)."""
    path = tmp_path_factory.mktemp("edges")
    (path / "arena.yaml").write_text("name: edges\nseats: 2\ngames: 2\nbots: [builtin:random, builtin:easy]\n")
    cwd = os.getcwd()
    os.chdir(path)
    try:
        assert invoke_cut(["match", "-n", "1", "--out", "match-out", "--no-report", "builtin:easy",
                           "builtin:random"], 60).exit_code == 0
        assert invoke_cut(["ladder", "run", "arena.yaml", "--db", "ladder.db", "--budget", "2"], 60).exit_code == 0
    finally:
        os.chdir(cwd)
    return path


def _args(name: str, option: str, value: str) -> list[str]:
    base = list(COMMANDS[name][0])
    return base + (["-o", option[3:] + value] if option.startswith("-o ") else [option, value])


def _check(name: str, option: str, value: str) -> None:
    if name.startswith("ladder"):  # every example starts from the same ladder
        shutil.copy("ladder.db", "ladder-now.db")
    result = invoke_cut([("ladder-now.db" if a == "ladder.db" else a) for a in _args(name, option, value)], CUT_S,
                        input="q\n")
    where = f"lastcard {' '.join(_args(name, option, value))!r}:\n{result.output}"
    # A traceback is any exception but the exit itself.
    assert result.exception is None or isinstance(result.exception, SystemExit), where
    assert "Traceback" not in result.output, where
    failed = (name == "check" and "FAILED" in result.output) or (name == "grade" and "--fail-under" in result.output)
    assert result.exit_code in (0, 2, 130) or failed, where  # 1: failed, and the output says why
    if result.exit_code == 2:
        assert option.split()[-1].rstrip("=") in result.output, where  # the message names the option
    if result.exit_code == 130:  # cut by the test (or the player of `play` typed q): one line says so
        assert "interrupted" in result.output or "You left the game" in result.output, where


# The test's Ctrl-C may land in a garbage-collector callback (hypothesis keeps one), where Python reports it
# as unraisable and goes on, as it would with a real Ctrl-C; the next one stops the command.
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
@settings(max_examples=20, deadline=None, derandomize=True, phases=[Phase.explicit, Phase.generate],
          suppress_health_check=list(HealthCheck))
@given(case=st.sampled_from(CASES), value=st.sampled_from(EDGES))
def test_every_numeric_option_at_its_edges_runs_or_names_the_option(workdir, case, value):
    cwd = os.getcwd()
    os.chdir(workdir)
    try:
        _check(*case, value)
    finally:
        os.chdir(cwd)


@pytest.mark.parametrize("value", ["0", "-1", "abc", ""])
def test_jobs_out_of_range_is_refused_with_the_range(value):
    result = invoke_cut(["match", "-n", "1", "--jobs", value, "builtin:easy", "builtin:random"])
    assert result.exit_code == 2
    assert "--jobs" in result.output and f"give 1 to {max_jobs()} ({JOBS_PER_CPU} per CPU" in result.output


@pytest.mark.slow
def test_jobs_beyond_the_machine_or_the_games_is_cut_down_with_a_note(tmp_path):
    result = invoke_cut(["match", "-n", "3", "--jobs", "100000", "--out", str(tmp_path / "m"), "--no-report",
                         "builtin:easy", "builtin:random"], 60)
    assert result.exit_code == 0, result.output
    assert f"--jobs 100,000 is more than this machine's maximum, {max_jobs()}" in result.output
    if max_jobs() > 3:
        assert f"note: 3 workers, not {max_jobs()}: only 3 games can be played at once" in result.output
    assert '"jobs": 3' in (tmp_path / "m" / "timing.json").read_text() or max_jobs() <= 3


@pytest.mark.slow
def test_a_long_match_starts_and_speaks_of_its_own_options(tmp_path):
    """Two million games: no arena file's ``format:`` key, no cap; cut, it says how to resume."""
    out = tmp_path / "m"
    result = invoke_cut(["match", "-r", "family", "-n", "2000000", "--out", str(out), "--no-report",
                         "builtin:easy", "builtin:random"], CUT_S)
    assert result.exit_code == 130, result.output
    assert "format" not in result.output and "Traceback" not in result.output
    assert "2000000 games planned" in result.output
    assert (f"resume with: lastcard match -r family -n 2000000 --out {out} --no-report builtin:easy builtin:random "
            "--resume") in result.output
    played = len((out / "games.jsonl").read_text().splitlines())
    again = invoke_cut(["match", "-r", "family", "-n", "2000000", "--out", str(out), "--no-report", "--resume",
                        "builtin:easy", "builtin:random"], CUT_S)
    assert again.exit_code == 130 and f"resuming: {played} of 2000000 games already played" in again.output


@pytest.mark.slow
def test_a_resume_with_other_options_is_said_in_the_match_s_words(tmp_path):
    out = str(tmp_path / "m")
    assert invoke_cut(["match", "-n", "2", "--out", out, "--no-report", "builtin:easy", "builtin:random"],
                      60).exit_code == 0
    result = invoke_cut(["match", "-n", "4", "--seed", "9", "--out", out, "--no-report", "--resume",
                         "builtin:easy", "builtin:random"], 60)
    assert result.exit_code == 2
    assert "--resume: the match in" in result.output and "--seed" in result.output and "--games" in result.output
    assert "arena" not in result.output
