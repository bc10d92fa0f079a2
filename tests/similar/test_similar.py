"""``lastcard similar`` on a class with planted copies: a bot disguised (names changed, functions reordered),
the same bot with one threshold changed, and a JavaScript bot translated into Python stand out; the honest
pairs (the sample bots, two small bots of their own) do not; an unseeded random bot is said to be random.
The real program, each bot in the default sandbox. The class's run is seeded and every bot in it answers the
same position the same way, so its games, and so the figures, are the same every run; the unseeded bot plays
in a run of its own (in the class, its games, and so the decision points drawn, would differ from run to run)."""

from __future__ import annotations

import csv
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.similar_class import HEAVY, arena_yaml, make_class

pytestmark = pytest.mark.slow

COPIES = {("disguised", "strong"), ("disguised", "tuned"), ("strong", "tuned"), ("medium_js", "medium_py")}


def lastcard(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "referee.cli.entry", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=600)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("node") is None:
        pytest.skip("node is not installed: the translated pair (JavaScript and Python) needs it")
    folder = tmp_path_factory.mktemp("class")
    commands = make_class(folder / "bots", with_js=True)
    del commands["coin"]
    # A copy of a bot that is no kit: heavy with its names changed (a student's search and replace).
    (folder / "bots" / "heavy_copy").mkdir()
    renamed = HEAVY.replace("weight", "score").replace("(a)", "(act)").replace(" a[", " act[")
    renamed = renamed.replace("in a.", "in act.").replace("            return -1\n",
                                                         "            return -1  # <script>alert(1)</script>\n")
    (folder / "bots" / "heavy_copy" / "bot.py").write_text(renamed)
    shutil.copy(folder / "bots" / "heavy" / "botkit.py", folder / "bots" / "heavy_copy" / "botkit.py")
    commands["heavy_copy"] = f"python3 {folder / 'bots' / 'heavy_copy' / 'bot.py'}"
    path = arena_yaml(folder, commands)
    res = lastcard(folder, "arena", str(path), "--out", str(folder / "out"), "--no-report")
    assert res.returncode == 0, res.stderr
    assert "left out" not in res.stdout + res.stderr
    return folder


def test_the_planted_copies_stand_out_and_the_honest_pairs_do_not(played: Path):
    """Without the reference policies (the planted copies are of kits: below, what the references make of them)."""
    res = lastcard(played, "similar", "out", "--scripts", "8", "--jobs", "2", "--no-references")
    assert res.returncode == 0, res.stderr
    rows = [r for r in csv.DictReader((played / "out" / "similarity.csv").open()) if "heavy_copy" not in r.values()]
    standing = {tuple(sorted((r["bot_a"], r["bot_b"]))) for r in rows if r["stands_out"] == "yes"}
    assert standing == COPIES, rows
    kappa = {tuple(sorted((r["bot_a"], r["bot_b"]))): float(r["kappa"]) for r in rows}
    assert kappa[("medium_js", "medium_py")] == 1.0 and kappa[("disguised", "strong")] == 1.0
    honest = [k for pair, k in kappa.items() if pair not in COPIES]
    assert max(honest) < 0.45 and min(kappa[pair] for pair in COPIES) > 0.7  # a wide gap between the two groups
    for pair in ("disguised / strong", "medium_js / medium_py"):
        assert pair in res.stdout
    assert "evidence to look at, not a verdict" in res.stdout


def test_copies_of_a_kit_are_said_to_play_the_kit_and_a_copy_beyond_the_kits_stands_out(played: Path):
    """With the reference policies (the default): strong and disguised both play the Python kit, medium_js and
    medium_py both play builtin:medium (the JavaScript kit), so neither pair is taken for a copy of the other; the
    copy of heavy, a bot of its own, still stands out."""
    res = lastcard(played, "similar", "out", "--scripts", "8", "--jobs", "2")
    assert res.returncode == 0, res.stderr
    found = csv.DictReader((played / "out" / "similarity.csv").open())
    rows = {tuple(sorted((r["bot_a"], r["bot_b"]))): r for r in found}
    standing = {pair for pair, r in rows.items() if r["stands_out"] == "yes"}
    assert standing == {("heavy", "heavy_copy")}, rows
    assert (rows[("disguised", "strong")]["plays_reference"], rows[("disguised", "strong")]["reference"]) == \
        ("yes", "kit:python")
    assert (rows[("medium_js", "medium_py")]["plays_reference"], rows[("medium_js", "medium_py")]["reference"]) == \
        ("yes", "builtin:medium")
    assert float(rows[("heavy", "heavy_copy")]["beyond_kappa"] or 1.0) >= 0.6
    assert "disguised / strong: both play kit:python" in res.stdout
    bots = {r["bot"]: r for r in csv.DictReader((played / "out" / "similarity_bots.csv").open())}
    assert bots["strong"]["closest_reference"] == "kit:python" and float(bots["strong"]["reference_agreement"]) == 1.0
    # The text beside the play: the copy matches in text too, the starter code left out; the kit's users do not.
    stored = json.loads((played / "out" / "text_matches.json").read_text())["pairs"]
    texts = {frozenset((t["a"], t["b"])): t for t in stored}
    assert texts[frozenset(("heavy", "heavy_copy"))]["similarity"] >= 0.5
    assert texts[frozenset(("heavy", "heavy_copy"))]["fragments"]
    assert texts[frozenset(("disguised", "strong"))]["similarity"] < 0.2
    assert "heavy / heavy_copy: text" in res.stdout
    res = lastcard(played, "report", "out")
    assert res.returncode == 0, res.stderr
    page = (played / "out" / "report.html").read_text()
    assert "Both kinds of evidence" in page and "<b>heavy</b> and <b>heavy_copy</b>" in page
    assert "<script>alert(1)" not in page and "&lt;script&gt;alert(1)" in page  # what a student wrote, escaped


def test_the_same_seed_gives_the_same_figures(played: Path):
    first = lastcard(played, "similar", "out", "--scripts", "3", "--seed", "5", "--jobs", "1")
    text = (played / "out" / "similarity.csv").read_text()
    second = lastcard(played, "similar", "out", "--scripts", "3", "--seed", "5", "--jobs", "2")
    assert first.returncode == second.returncode == 0, first.stderr + second.stderr
    assert (played / "out" / "similarity.csv").read_text() == text


def test_the_points_are_drawn_from_the_games_whatever_order_they_ended_in(played: Path):
    """games.jsonl is in the order games ended (it differs with --jobs): the same games give the same figures."""
    first = lastcard(played, "similar", "out", "--scripts", "3", "--seed", "9", "--jobs", "2")
    text = (played / "out" / "similarity.csv").read_text()
    shutil.copytree(played / "out", played / "reordered")
    games = played / "reordered" / "games.jsonl"
    lines = games.read_text().splitlines(keepends=True)
    games.write_text("".join(reversed(lines)))
    second = lastcard(played, "similar", "reordered", "--scripts", "3", "--seed", "9", "--jobs", "2")
    assert first.returncode == second.returncode == 0, first.stderr + second.stderr
    assert (played / "reordered" / "similarity.csv").read_text() == text


def test_a_bot_that_plays_at_random_is_said_to_be_and_its_pairs_are_not_compared(tmp_path: Path):
    commands = make_class(tmp_path / "bots", with_js=False)
    # ``random`` plays at random too, but seeded by the game: asked twice, it answers the same.
    path = arena_yaml(tmp_path, {name: commands[name] for name in ("coin", "random", "heavy", "hoarder")})
    res = lastcard(tmp_path, "arena", str(path), "--out", "out", "--no-report")
    assert res.returncode == 0, res.stderr
    res = lastcard(tmp_path, "similar", "out", "--scripts", "4", "--jobs", "2")
    assert res.returncode == 0, res.stderr
    assert "coin plays at random" in res.stdout and "random plays at random" not in res.stdout
    rows = list(csv.DictReader((tmp_path / "out" / "similarity.csv").open()))
    assert rows and not any("coin" in (r["bot_a"], r["bot_b"]) for r in rows)  # its pairs are not compared
    assert any("random" in (r["bot_a"], r["bot_b"]) for r in rows)


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
