"""``lastcard collusion`` on a class with a planted colluding pair (``pal_a``, ``pal_b``: each spares the other the
cards that hurt, having read the friend's name): the pair ranks first and is the one pair to look at; the honest
pairs, ``aggro`` (the same program with no friend) among them, are not. The real program, every bot in the default
sandbox. Every bot answers a position the same way every time and the run is seeded, so the games, the games
played again and so every figure are the same every run.

The tolerance: pal_a never hits pal_b and always hits the others, so in each stratum of the Cochran-Mantel-Haenszel
test z is about -sqrt(N - 1) for N chances (tests/collusion/test_figures.py); this class gives each direction some
30 chances against the friend and 60 against the others, z near -9, p below 1e-15 before Holm's correction for the
30 tests of 10 pairs, so 1e-6 leaves a wide margin. The honest pairs' tests are valid at the family's 5%: the
seeded class is one draw in which none is below it, checked on 40 seeds by bench/collusion_bench.py
(bench/README.md: the family-wise rate measured).
"""

from __future__ import annotations

import csv
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from referee.html_report.collusion import collusion_section
from referee.store.collusion_file import CollusionRow, write_collusion
from tests.support.collusion_class import arena_yaml, make_class

pytestmark = pytest.mark.slow  # every test here starts a process


def lastcard(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "referee.cli.entry", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=600)


def rows(out: Path) -> list[dict[str, str]]:
    return list(csv.DictReader((out / "collusion.csv").open()))


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The class's contest, with ``collusion: true``: measured after the games."""
    folder = tmp_path_factory.mktemp("class")
    path = arena_yaml(folder, make_class(folder / "bots"), extra="collusion: true\n")
    res = lastcard(folder, "arena", str(path), "--out", str(folder / "out"), "--no-report", "--jobs", "2")
    assert res.returncode == 0, res.stderr
    assert "pairs to look at" in res.stdout and "collusion: " in res.stdout, res.stdout
    return folder


def test_the_planted_pair_ranks_first_and_no_honest_pair_is_named(played: Path):
    found = rows(played / "out")
    assert len(found) == 10  # five programs: the built-in players do not collude and are not measured
    first = found[0]
    assert (first["bot_a"], first["bot_b"], first["look"]) == ("pal_a", "pal_b", "yes")
    assert float(first["p_adjusted"]) < 1e-6
    assert int(first["b_hit_a"]) == 0 < int(first["b_hit_a_chances"]) and int(first["a_hit_b"]) == 0
    assert first["joint_gain"] != "" and int(first["replayed"]) == int(first["tables"]) >= 5  # measured, not asserted:
    # a dozen tables give the joint gain a standard error near 0.15 place score, so its sign is luck here
    assert [r for r in found[1:] if r["look"] == "yes"] == []
    assert all(float(r["p_adjusted"]) > 0.05 for r in found[1:] if r["p_adjusted"])


def test_the_command_gives_what_the_arena_wrote_whatever_the_workers(played: Path):
    text = (played / "out" / "collusion.csv").read_text()
    res = lastcard(played, "collusion", "out", "--jobs", "1")
    assert res.returncode == 0, res.stderr
    assert (played / "out" / "collusion.csv").read_text() == text
    assert "pal_a / pal_b" in res.stdout and "pal_a hit pal_b at 0 of" in res.stdout
    assert "evidence to look at, not a verdict" in res.stdout


def test_the_report_shows_the_pairs_and_escapes_every_name(played: Path, tmp_path: Path):
    res = lastcard(played, "report", "out")
    assert res.returncode == 0, res.stderr
    page = (played / "out" / "report.html").read_text()
    assert "<section id=collusion>" in page and "<b>pal_a</b> and <b>pal_b</b>" in page
    hostile = CollusionRow("<script>alert(1)</script>", "b&b", 5, 5, 0.1, 0.05, 0.05, 0.2, 3, 0, 9, 9, 0.001,
                           3, 1, 9, 8, 0.5, 0.003, True, "<i>note</i>")
    write_collusion(str(tmp_path), [hostile])
    section = collusion_section(str(tmp_path))
    assert "<script>" not in section and "&lt;script&gt;" in section and "<i>note" not in section


def test_a_bot_that_no_longer_starts_is_named_with_what_to_run(played: Path):
    broken = played / "broken"
    shutil.copytree(played / "out", broken)
    run = json.loads((broken / "arena.json").read_text())
    for bot in run["arena"]["bots"]:
        if bot["name"] == "heavy":
            bot["command"] = f"{sys.executable} {played / 'gone' / 'bot.py'}"
    (broken / "arena.json").write_text(json.dumps(run))
    res = lastcard(played, "collusion", "broken", "--jobs", "2")
    assert res.returncode == 0, res.stderr
    assert "heavy no longer starts" in res.stdout and "lastcard check" in res.stdout
    assert "lastcard collusion broken" in res.stdout
    found = {(r["bot_a"], r["bot_b"]): r for r in rows(broken)}
    assert found[("heavy", "pal_a")]["note"] == "heavy no longer starts"
    assert found[("pal_a", "pal_b")]["look"] == "yes"  # the stored moves still show it


def test_pairs_never_seated_together_are_named_with_what_to_run(tmp_path: Path):
    path = arena_yaml(tmp_path, make_class(tmp_path / "bots"), games=2)
    res = lastcard(tmp_path, "arena", str(path), "--out", "few", "--no-report")
    assert res.returncode == 0, res.stderr
    res = lastcard(tmp_path, "collusion", "few", "--jobs", "2")
    assert res.returncode == 0, res.stderr
    assert "never seated together: " in res.stdout and "lastcard match " in res.stdout
    assert "lastcard collusion DIR" in res.stdout
    notes = {r["note"] for r in rows(tmp_path / "few")}
    assert "never seated together" in notes


def test_a_folder_without_games_or_without_two_programs_is_refused(tmp_path: Path):
    (tmp_path / "empty").mkdir()
    res = lastcard(tmp_path, "collusion", "empty")
    assert res.returncode == 2 and "has no games.jsonl" in res.stderr
    res = lastcard(tmp_path, "match", "builtin:medium", "builtin:hard", "-n", "2", "--out", "builtins", "--no-report")
    assert res.returncode == 0, res.stderr
    res = lastcard(tmp_path, "collusion", "builtins")
    assert res.returncode != 0 and "built-in players do not collude" in res.stderr
    res = lastcard(tmp_path, "collusion", "builtins", "--reference", "python3 bot.py")
    assert res.returncode != 0
