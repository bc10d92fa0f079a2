"""The README's quick start on a fresh Debian or Ubuntu: no gcc, no Java, no Node (issue 53).

The sample arena leaves out the bots whose toolchain is missing, each with the apt line that brings it, and reaches
standings with the Python bots and the built-in player (tables of three: three bots are enough).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from referee.builds.packages import install_hint

ROOT = Path(__file__).resolve().parents[2]
#: What a fresh install has on PATH that the referee uses: a shell and tar for builds, util-linux's setpriv and
#: prlimit, and bubblewrap when this machine has it (its level is said either way).
FRESH = ("sh", "tar", "setpriv", "prlimit", "bwrap", "cat", "env")


@pytest.mark.slow
def test_the_sample_arena_on_a_machine_without_compilers_names_each_and_reaches_standings(tmp_path):
    path = tmp_path / "bin"
    path.mkdir()
    for program in FRESH:
        found = shutil.which(program)
        if found is not None:
            (path / program).symlink_to(found)
    lastcard = Path(sys.executable).parent / "lastcard"
    run = subprocess.run([str(lastcard), "arena", str(ROOT / "arenas" / "sample.yaml"), "--out", str(tmp_path / "out")],
                         capture_output=True, text=True, timeout=300, cwd=tmp_path,
                         env={**os.environ, "PATH": str(path)})
    assert run.returncode == 0, run.stderr
    for bot, package in (("c-bot", "gcc"), ("java-bot", "default-jdk-headless"), ("js-bot", "nodejs")):
        assert f"left out {bot}: needs" in run.stderr and f"sudo apt-get install {package}" in run.stderr, run.stderr
    doc = json.loads((tmp_path / "out" / "results.json").read_text())
    assert sorted(row["bot"] for row in doc["standings"]) == ["hard", "random-py", "strong-py"]
    assert doc["games"] == 27 and doc["complete"]  # one table of three, 9 games in each of the three rulesets
    assert "rank" in run.stdout


def test_a_missing_program_s_package_is_named_once_and_unknown_ones_are_not_guessed():
    assert install_hint(["javac", "java"]) == " (on Debian or Ubuntu: sudo apt-get install default-jdk-headless " \
                                              "default-jre-headless)"
    assert install_hint(["erlc", "erl"]) == " (on Debian or Ubuntu: sudo apt-get install erlang-base)"
    assert install_hint(["no-such-compiler-xyz"]) == ""


def test_every_program_the_languages_table_requires_has_its_package():
    """A language added to the table without its Debian package would leave a bot out without the line to fix it."""
    from referee.builds.languages import DEFAULT_LANGUAGES
    from referee.builds.packages import DEBIAN_PACKAGES

    required = {p for lang in DEFAULT_LANGUAGES for p in lang.requires} - {"sh"}  # sh is in every Debian
    assert required <= set(DEBIAN_PACKAGES), sorted(required - set(DEBIAN_PACKAGES))
