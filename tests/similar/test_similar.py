"""``lastcard similar`` on a class with planted copies: a bot disguised (names changed, functions reordered),
the same bot with one threshold changed, and a JavaScript bot translated into Python stand out; the honest
pairs (the sample bots, two small bots of their own) do not; an unseeded random bot is said to be random.
The real program, each bot in the default sandbox, on a seeded run (the figures are the same every run)."""

from __future__ import annotations

import csv
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.similar_class import arena_yaml, make_class

COPIES = {("disguised", "strong"), ("disguised", "tuned"), ("strong", "tuned"), ("medium_js", "medium_py")}


def lastcard(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "referee.cli.entry", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=600)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("node") is None:
        pytest.skip("node is not installed: the translated pair (JavaScript and Python) needs it")
    folder = tmp_path_factory.mktemp("class")
    path = arena_yaml(folder, make_class(folder / "bots", with_js=True))
    res = lastcard(folder, "arena", str(path), "--out", str(folder / "out"), "--no-report")
    assert res.returncode == 0, res.stderr
    assert "left out" not in res.stdout + res.stderr
    return folder


def test_the_planted_copies_stand_out_and_the_honest_pairs_do_not(played: Path):
    res = lastcard(played, "similar", "out", "--scripts", "8", "--jobs", "2")
    assert res.returncode == 0, res.stderr
    rows = list(csv.DictReader((played / "out" / "similarity.csv").open()))
    standing = {tuple(sorted((r["bot_a"], r["bot_b"]))) for r in rows if r["stands_out"] == "yes"}
    assert standing == COPIES, rows
    kappa = {tuple(sorted((r["bot_a"], r["bot_b"]))): float(r["kappa"]) for r in rows}
    assert kappa[("medium_js", "medium_py")] == 1.0 and kappa[("disguised", "strong")] == 1.0
    honest = [k for pair, k in kappa.items() if pair not in COPIES]
    assert max(honest) < 0.45 and min(kappa[pair] for pair in COPIES) > 0.7  # a wide gap between the two groups
    assert "coin plays at random" in res.stdout
    assert not any("coin" in (r["bot_a"], r["bot_b"]) for r in rows)  # its pairs are not compared
    for pair in ("disguised / strong", "medium_js / medium_py"):
        assert pair in res.stdout
    assert "evidence to look at, not a verdict" in res.stdout


def test_the_same_seed_gives_the_same_figures(played: Path):
    first = lastcard(played, "similar", "out", "--scripts", "3", "--seed", "5", "--jobs", "1")
    text = (played / "out" / "similarity.csv").read_text()
    second = lastcard(played, "similar", "out", "--scripts", "3", "--seed", "5", "--jobs", "2")
    assert first.returncode == second.returncode == 0, first.stderr + second.stderr
    assert (played / "out" / "similarity.csv").read_text() == text


def test_a_folder_with_one_bot_to_compare_is_refused_with_the_reason(tmp_path: Path):
    res = lastcard(tmp_path, "match", "-n", "2", "--out", "out", "--no-report", "builtin:easy", "builtin:random")
    assert res.returncode == 0, res.stderr
    res = lastcard(tmp_path, "similar", "out", "--bot", "easy")
    assert res.returncode == 1
    assert "1 bot(s) to compare" in res.stderr and "it has easy, random" in res.stderr
    assert "Traceback" not in res.stderr


def test_a_folder_that_is_not_a_results_folder_is_refused(tmp_path: Path):
    res = lastcard(tmp_path, "similar", str(tmp_path))
    assert res.returncode != 0 and "Traceback" not in res.stderr
    assert "games.jsonl" in res.stderr
