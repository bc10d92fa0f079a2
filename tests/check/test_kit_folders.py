"""Every starter kit is a student's starting folder: each ``sample_bots/LANG`` folder, copied as a student's folder
into a ``submissions:`` folder, builds under ``lastcard validate --build`` and plays a short arena as a submission
(a kit whose toolchain is missing is skipped with the reason); each README says how to start from it."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from referee.builds.languages import Language
from referee.store.results_dir import ResultsDir
from tests.check.test_kits import KITS, SAMPLES, language, toolchain
from tests.support.tiers import starts_processes

#: Games per kit in the short arena: tables of two, so each kit meets two others.
GAMES = 2
ARENA = """\
name: kits
seed: 3
ruleset: compact
seats: 2
limits: {{move_ms: 2000, startup_ms: 30000}}
bots:
  - submissions: {{path: "subs/*", build_timeout_s: 600}}
stages:
  - {{name: league, format: sampled, games: {games}}}
"""


def missing(folder: str) -> list[str]:
    return [tool for tool in toolchain(language(KITS[folder])) if shutil.which(tool) is None]


def lastcard(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "referee.cli.entry", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=1800, env={**os.environ, "NO_COLOR": "1"})


@pytest.fixture(scope="module")
@starts_processes
def class_of_kits(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A submissions folder of every kit whose toolchain is here (``subs/kitLANG``, copied as a student would), its
    ``validate --build`` and a short arena on it."""
    root = tmp_path_factory.mktemp("kits")
    present = [folder for folder in sorted(KITS) if not missing(folder)]
    if len(present) < 2:
        pytest.skip(f"fewer than two kits have their toolchain here ({', '.join(present) or 'none'}): no arena")
    for folder in present:
        shutil.copytree(SAMPLES / folder, root / "subs" / f"kit{folder}")
    (root / "kits.yaml").write_text(ARENA.format(games=GAMES), encoding="utf-8")
    validated = lastcard("validate", "--build", "kits.yaml", cwd=root)
    played = lastcard("arena", "kits.yaml", "--out", "out", "--no-report", "--quiet", "--check-games", "0", cwd=root)
    results = ResultsDir(str(root / "out")).read_results()
    return {"validated": validated, "played": played, "results": results}


@pytest.mark.toolchain
@pytest.mark.parametrize("folder", sorted(KITS))
def test_each_kit_copied_as_a_students_folder_builds_and_plays(folder: str, class_of_kits: dict[str, Any]) -> None:
    absent = missing(folder)
    if absent:
        pytest.skip(f"the {folder} kit: toolchain {', '.join(absent)} not installed (see .ci/run)")
    name = f"kit{folder}"
    validated = class_of_kits["validated"]
    assert validated.returncode == 0, validated.stdout + validated.stderr
    line = next((x for x in validated.stdout.splitlines() if x.strip().startswith(f"{name}:")), "")
    assert f"({KITS[folder]};" in line or line.endswith(f"({KITS[folder]})"), validated.stdout
    assert "left out" not in line and f"would be left out: {name}" not in validated.stdout
    played = class_of_kits["played"]
    assert played.returncode == 0, played.stdout[-3000:] + played.stderr[-3000:]
    results = class_of_kits["results"]
    assert results is not None
    assert [x for x in results.get("left_out") or [] if x["bot"] == name] == []
    row = next(r for r in results["standings"] if r["bot"] == name)
    assert row["games"] == GAMES and row["faults"] == {}, row


@pytest.mark.parametrize("folder", sorted(KITS))
def test_each_kit_readme_says_how_to_start(folder: str) -> None:
    """Copy the folder, edit the file the table recognises, check it with the command an arena starts it with."""
    text = (SAMPLES / folder / "README.md").read_text(encoding="utf-8")
    start = text.split("## Start here", 1)
    assert len(start) == 2, f"sample_bots/{folder}/README.md has no 'Start here' section"
    steps = start[1].split("\n## ", 1)[0]
    lang: Language = language(KITS[folder])
    run = lang.command.replace("{python}", "python3")
    assert f"cp -r sample_bots/{folder} " in steps
    assert f"Edit `{lang.file}`" in steps
    assert f'lastcard check "{run}"' in steps
    if lang.build:
        assert f"`{lang.build}`" in steps
    assert re.search(r"hand in the folder", steps)
