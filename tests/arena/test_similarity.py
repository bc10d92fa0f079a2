"""An arena file's ``similarity:``: after the games, the bots compared (``lastcard similar``) and the pairs that
stand out printed and written to OUT/similarity.csv; a bad value refused like any other key."""

from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

import pytest

from referee.arena.config import ArenaFileError, parse_arena
from referee.arena.similarity_option import SimilarityOption
from tests.support.similar_class import make_class

#: The planted copies: strong disguised and tuned; the sample JavaScript bot translated into Python, which plays
#: as builtin:medium does (the sample bot is that player's logic: a built-in's copy found, the built-in asked
#: in-process).
COPIES = {("disguised", "strong"), ("disguised", "tuned"), ("strong", "tuned"), ("medium", "medium_py")}


def lastcard(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "referee.cli.entry", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=600)


def class_file(folder: Path, similarity: str) -> Path:
    commands = make_class(folder / "bots", with_js=False)
    commands.pop("coin")
    commands |= {"medium": "builtin:medium", "builtin_random": "builtin:random"}
    bots = "\n".join(f"  - {{name: {name}, command: '{cmd}'}}" for name, cmd in commands.items())
    path = folder / "class.yaml"
    path.write_text(f"name: class\nseed: 7\nruleset: family\nseats: 4\nformat: sampled\ngames: 8\nbootstrap: 0\n"
                    f"similarity: {similarity}\nbots:\n{bots}\n")
    return path


@pytest.mark.slow
def test_an_arena_with_similarity_writes_the_figures_and_prints_the_copies(tmp_path: Path):
    # The copies are of kits (strong_bot.py, the JavaScript kit as builtin:medium): without the references, as found.
    path = class_file(tmp_path, "{points: 150, seed: 2, references: false}")
    res = lastcard(tmp_path, "arena", str(path), "--out", "out", "--quiet")
    assert res.returncode == 0, res.stderr
    rows = list(csv.DictReader((tmp_path / "out" / "similarity.csv").open()))
    assert {int(r["points"]) for r in rows} == {150}
    standing = {tuple(sorted((r["bot_a"], r["bot_b"]))) for r in rows if r["stands_out"] == "yes"}
    assert standing == COPIES, rows
    kappa = {tuple(sorted((r["bot_a"], r["bot_b"]))): float(r["kappa"]) for r in rows}
    honest = max(k for pair, k in kappa.items() if pair not in COPIES)  # built-in pairs too
    assert honest < 0.55 and min(kappa[pair] for pair in COPIES) > honest + 0.25, kappa  # a gap between the two
    assert any("medium" in pair and "hoarder" in pair for pair in kappa)  # the built-in was compared
    # The standings first, then the copies, then the page (which reads the file).
    out = res.stdout
    assert out.index("strong") < out.index("pairs that stand out") < out.index("disguised / strong")
    assert "builtin_random plays at random" in out
    assert "<section id=similar><h2>Bots that play alike</h2>" in (tmp_path / "out" / "report.html").read_text()


def test_similarity_true_and_its_settings_are_read():
    base = "bots: [builtin:easy, builtin:hard]\nseats: 2\n"
    assert parse_arena(base).similarity is None
    assert parse_arena(base + "similarity: true\n").similarity == SimilarityOption()
    assert parse_arena(base + "similarity: false\n").similarity is None
    assert parse_arena(base + "similarity: {points: 80, seed: 4}\n").similarity == SimilarityOption(80, 4)


@pytest.mark.slow
def test_validate_says_what_similarity_will_do(tmp_path: Path):
    (tmp_path / "a.yaml").write_text("bots: [builtin:easy, builtin:hard]\nseats: 2\nsimilarity: {points: 80}\n")
    res = lastcard(tmp_path, "validate", "a.yaml")
    assert res.returncode == 0, res.stderr
    assert "similarity: after the games, 80 decision points (seed 1)" in res.stdout


@pytest.mark.parametrize(("value", "message"), [
    ("{pionts: 80}", "similarity.pionts: unknown key 'pionts'; did you mean 'points'? allowed: points, seed"),
    ("yes please", "similarity: found a string ('yes please'); expected true or false or a mapping"),
    ("{points: 0}", "similarity.points: 0 is less than the minimum, 1"),
], ids=["unknown key", "not a flag", "no points"])
def test_a_bad_similarity_is_refused_naming_the_key_the_value_and_what_is_allowed(value: str, message: str):
    with pytest.raises(ArenaFileError) as caught:
        parse_arena(f"bots: [builtin:easy, builtin:hard]\nseats: 2\nsimilarity: {value}\n")
    assert message in str(caught.value)


@pytest.mark.slow
def test_built_ins_alone_are_compared_and_a_fresh_start_without_similarity_leaves_no_old_figures(tmp_path: Path):
    bots = "bots: [builtin:medium, builtin:hard, builtin:easy, builtin:random]\nseats: 2\ngames: 2\nbootstrap: 0\n"
    (tmp_path / "with.yaml").write_text(bots + "similarity: {points: 60}\n")
    (tmp_path / "without.yaml").write_text(bots)
    res = lastcard(tmp_path, "arena", "with.yaml", "--out", "out", "--quiet")
    assert res.returncode == 0, res.stderr
    rows = list(csv.DictReader((tmp_path / "out" / "similarity.csv").open()))
    assert [(r["bot_a"], r["bot_b"]) for r in rows] == [("hard", "medium")]  # easy and random draw: random
    assert "id=similar" in (tmp_path / "out" / "report.html").read_text()
    res = lastcard(tmp_path, "arena", "without.yaml", "--out", "out", "--quiet", "--fresh")
    assert res.returncode == 0, res.stderr
    assert not any((tmp_path / "out" / name).exists() for name in ("similarity.csv", "similarity_bots.csv"))
    assert "id=similar" not in (tmp_path / "out" / "report.html").read_text()
