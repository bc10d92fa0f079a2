"""A bot that never starts is shown with its own words (the end of its stderr) on every path a user can take:
``match`` (stopping early, with and without --out), ``compare`` (one candidate or several), an arena's start-up
check, ``ladder run`` and ``check``. Each runs the real program on ``python3 missing.py``, in the default sandbox."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

#: What python3 says when the file it is asked to run is not there: the bot's own words.
WORDS = "can't open file"


def lastcard(cwd: Path, *args: str, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "referee.cli.entry", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=timeout)


def said(text: str, folder: Path) -> bool:
    """Whether ``text`` holds python3's own complaint about ``folder/missing.py``."""
    return f"{WORDS} '{folder / 'missing.py'}': [Errno 2] No such file or directory" in text


def arena_yaml(folder: Path, name: str = "t") -> Path:
    path = folder / f"{name}.yaml"
    path.write_text(f"name: {name}\nseed: 1\nseats: 2\ngames: 2\nbootstrap: 0\n"
                    "bots:\n  - {name: ghost, command: python3 missing.py}\n  - builtin:easy\n  - builtin:random\n")
    return path


def test_match_stops_early_with_the_bots_own_words(tmp_path):
    res = lastcard(tmp_path, "match", "-n", "6", "--no-report", "python3 missing.py", "builtin:easy")
    assert res.returncode == 1, res.stderr
    assert "missing could not start, the same way 3 times" in res.stderr
    assert "  its stderr:\n    | python3: " in res.stderr and said(res.stderr, tmp_path)  # no log named: it is gone
    assert "Traceback" not in res.stderr


def test_match_with_out_names_the_log_the_words_come_from(tmp_path):
    out = tmp_path / "out"
    res = lastcard(tmp_path, "match", "-n", "6", "--no-report", "--out", str(out), "python3 missing.py", "builtin:easy")
    assert res.returncode == 1, res.stderr
    assert f"its stderr (the end of {out / 'logs' / 'missing.stderr.log'}):" in res.stderr
    assert said(res.stderr, tmp_path)


def test_match_banner_says_match_once(tmp_path):
    res = lastcard(tmp_path, "match", "-n", "2", "builtin:easy", "builtin:random")
    assert res.returncode == 0, res.stderr
    assert "match: 2 bots, 2 games planned" in res.stderr and "match match" not in res.stderr
    assert "1 stage" not in res.stderr


@pytest.mark.parametrize("out", [False, True], ids=["no-out", "out"])
def test_compare_shows_the_bots_own_words(tmp_path, out):
    args = ["--out", str(tmp_path / "out")] if out else []
    res = lastcard(tmp_path, "compare", "python3 missing.py", "builtin:easy", "--games", "4", "--no-report", *args)
    assert res.returncode == 1, res.stderr
    assert "warning: missing could not start in any of its 4 games:" in res.stderr
    assert said(res.stderr, tmp_path)
    assert "Error: missing never started: fix the bot's command" in res.stderr
    assert "Error: warning" not in res.stderr
    if not out:  # the scratch logs are gone: no path is named
        assert "  its stderr:\n" in res.stderr and "lastcard-compare-" not in res.stderr


@pytest.mark.parametrize("out", [False, True], ids=["no-out", "out"])
def test_compare_candidates_shows_the_bots_own_words(tmp_path, out):
    args = ["--out", str(tmp_path / "out")] if out else []
    res = lastcard(tmp_path, "compare", "builtin:easy", "--candidate", "python3 missing.py", "--candidate",
                   "builtin:random", "--max-games", "8", "--no-report", *args)
    assert res.returncode == 1, res.stderr
    assert "warning: missing could not start in any of its" in res.stderr
    assert said(res.stderr, tmp_path)  # the words were kept (in a scratch folder without --out)
    assert "Error: missing never started: fix the bot's command" in res.stderr
    assert "Error: warning" not in res.stderr
    if not out:
        assert "lastcard-compare-" not in res.stderr


def test_the_arena_start_up_check_leaves_the_bot_out_with_its_own_words(tmp_path):
    out = tmp_path / "out"
    res = lastcard(tmp_path, "arena", str(arena_yaml(tmp_path)), "--out", str(out), "--no-report")
    assert res.returncode == 0, res.stderr  # the contest went on without it
    left = res.stderr[res.stderr.index("left out ghost: could not start (twice, the same way): "):]
    # The probe runs beside the first games: its bots write to logs/startup/, the games' to logs/.
    assert left.splitlines()[1] == f"  its stderr (the end of {out / 'logs' / 'startup' / 'ghost.stderr.log'}):"
    assert said(left.splitlines()[2], tmp_path)
    report = (out / "bots" / "ghost.md").read_text()  # the student's own report says it too, with no path of ours
    assert "What it wrote on stderr as it failed to start" in report and said(report, Path("ghost"))
    assert str(tmp_path) not in report


def test_ladder_run_shows_the_bots_own_words(tmp_path):
    res = lastcard(tmp_path, "ladder", "run", str(arena_yaml(tmp_path, "l")), "--db", str(tmp_path / "l.db"),
                   "--out", str(tmp_path / "out"), "--games-per-bot", "2", "--quiet")
    assert res.returncode == 0, res.stderr
    warning = res.stderr[res.stderr.index("warning: ghost could not start in any of its "):]
    assert said(warning, tmp_path)


def test_check_shows_the_bots_own_words(tmp_path):
    res = lastcard(tmp_path, "check", "python3 missing.py", "--games", "0")
    assert res.returncode == 1, res.stdout + res.stderr
    assert "the bot exited during startup (exit code 2)" in res.stdout
    assert said(res.stdout, tmp_path) and "stderr: python3: " in res.stdout


def test_check_arena_shows_the_bots_own_words(tmp_path):
    res = lastcard(tmp_path, "check", "--arena", str(arena_yaml(tmp_path)), "--bot", "ghost", "--games", "0")
    assert res.returncode == 1, res.stdout + res.stderr
    assert said(res.stdout + res.stderr, tmp_path)
