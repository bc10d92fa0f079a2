"""The ladder's parts without games: the scheduler's choices, submission hashes, the file and its lock."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from referee.arena.config import BotEntry
from referee.bots.spec import BotSpec
from referee.inputs.problems import InputFileError
from referee.ladder.fingerprint import submission_hash, submission_hashes
from referee.ladder.scheduler import coverage_tables, pair_uncertainty, separated, uncertain_tables
from referee.ladder.store import LadderBusy, LadderError, open_ladder
from referee.standings.model import StandingRow
from referee.store.results import GameLine, GameResult

ROOT = Path(__file__).resolve().parents[2]


# ------------------------------------------------------------------ scheduler

def test_coverage_seats_the_bots_furthest_below_their_share():
    counts = {"new": 0, "a": 10, "b": 10, "c": 9, "d": 10}
    tables = coverage_tables(counts, share=10, seats=3, games=20, rng=random.Random(1))
    assert all("new" in t for t in tables[:10]) and len(tables) == 10
    assert sum("c" in t for t in tables) >= 1  # c was one short: it sits at one of new's tables
    assert all(len(set(t)) == 3 for t in tables)


def test_coverage_is_empty_when_every_bot_has_its_share():
    assert coverage_tables({"a": 5, "b": 6, "c": 5}, share=5, seats=2, games=8, rng=random.Random(1)) == []


def row(bot: str, rank: int, **values) -> StandingRow:
    return StandingRow(rank=rank, bot=bot, games=0, wins=0, draws=0, avg_place=None, points=0, **values)


def rated(*intervals):
    return [row(f"b{i}", i + 1, rating=r, rating_low=lo, rating_high=hi) for i, (r, lo, hi) in enumerate(intervals)]


def test_tables_go_to_the_neighbours_whose_intervals_overlap_most():
    rows = rated((1900, 1850, 1950), (1700, 1600, 1800), (1650, 1590, 1790), (1300, 1200, 1400), (1150, 1050, 1250))
    pairs = pair_uncertainty(rows, top=5)
    assert [i for _, i in pairs] == [1, 3]  # b1-b2 nest (score 1); b3-b4 overlap by a quarter
    tables = uncertain_tables(rows, seats=2, games=6, top=5, rng=random.Random(3))
    assert tables.count(("b1", "b2")) + tables.count(("b2", "b1")) > len(tables) / 2
    assert not any({"b0"} & set(t) for t in tables)  # b0 is separated from everyone: no table for it


def test_top_places_weigh_more_than_the_rest():
    rows = rated((1900, 1800, 2000), (1850, 1750, 1950), (1500, 1400, 1600), (1450, 1350, 1550))
    (first, i), *_ = pair_uncertainty(rows, top=1)
    assert i == 0
    assert [i for _, i in pair_uncertainty(rows, top=3)][:2] == [0, 2]


def test_separated_needs_each_top_place_alone():
    rows = [row("a", 1, rank_best=1, rank_worst=1), row("b", 2, rank_best=2, rank_worst=3),
            row("c", 3, rank_best=2, rank_worst=3)]
    assert separated(rows, 1) and not separated(rows, 2)


# ------------------------------------------------------------------ fingerprints

def entry(name: str, command: str, cwd: str | None, build: str | None = None) -> BotEntry:
    return BotEntry(BotSpec(name, command, cwd=cwd), "test", build=build)


def test_a_submission_hash_follows_its_files_not_its_caches(tmp_path):
    folder = tmp_path / "subs" / "ada"
    folder.mkdir(parents=True)
    (folder / "bot.py").write_text("print('hi')\n")
    e = entry("ada", f"{sys.executable} bot.py", str(folder))
    first = submission_hash(e, str(tmp_path))
    (folder / "__pycache__").mkdir()
    (folder / "__pycache__" / "bot.cpython-311.pyc").write_bytes(b"\0\1")
    (folder / "ada.stderr.log").write_text("noise")
    assert submission_hash(e, str(tmp_path)) == first
    (folder / "helper.py").write_text("X = 1\n")  # a new file of the submission
    second = submission_hash(e, str(tmp_path))
    assert second != first
    (folder / "bot.py").write_text("print('hello')\n")
    assert submission_hash(e, str(tmp_path)) not in (first, second)
    assert submission_hash(entry("ada", f"{sys.executable} bot.py", str(folder), build="make"), str(tmp_path)) \
        != submission_hash(e, str(tmp_path))  # how it is built is part of it


def test_bots_sharing_a_folder_are_hashed_by_their_own_files(tmp_path):
    for name in ("a", "b"):
        (tmp_path / f"{name}.py").write_text(f"# {name}\n")
    entries = [entry(n, f"{sys.executable} {n}.py", str(tmp_path)) for n in ("a", "b")]
    before = submission_hashes(entries, str(tmp_path / "arena"))
    (tmp_path / "b.py").write_text("# b changed\n")
    after = submission_hashes(entries, str(tmp_path / "arena"))
    assert before["a"] == after["a"] and before["b"] != after["b"]


def test_the_interpreter_and_builtins_are_not_part_of_a_submission(tmp_path):
    builtin = entry("hard", "builtin:hard", None)
    assert submission_hash(builtin, str(tmp_path)) == submission_hash(builtin, str(tmp_path / "elsewhere"))
    e = entry("x", f"{sys.executable} x.py", str(tmp_path))
    (tmp_path / "x.py").write_text("pass\n")
    from referee.ladder.fingerprint import _files
    assert set(_files(e, str(tmp_path), own_folder=False)) == {"cmd:x.py"}


def test_a_file_named_through_a_link_and_dotdot_is_hashed_where_it_really_is(tmp_path):
    (tmp_path / "deep" / "inner").mkdir(parents=True)
    (tmp_path / "deep" / "bot.py").write_text("# the real one\n")
    (tmp_path / "bot.py").write_text("# a decoy where a lexical '..' would lead\n")
    (tmp_path / "in").symlink_to("deep/inner")
    e = entry("x", f"{sys.executable} in/../bot.py", str(tmp_path))
    from referee.ladder.fingerprint import _files
    assert _files(e, str(tmp_path), own_folder=False) == {"cmd:in/../bot.py": str(tmp_path / "deep" / "bot.py")}
    first = submission_hash(e, str(tmp_path))
    (tmp_path / "bot.py").write_text("# the decoy changed\n")
    assert submission_hash(e, str(tmp_path)) == first
    (tmp_path / "deep" / "bot.py").write_text("# the real one changed\n")
    assert submission_hash(e, str(tmp_path)) != first


# ------------------------------------------------------------------ the file and its lock

def test_a_second_run_on_the_same_file_is_refused(tmp_path):
    db = tmp_path / "l.sqlite"
    with open_ladder(str(db)):
        with pytest.raises(LadderBusy, match=rf"in use by another ladder run \(pid {os.getpid()}"):
            open_ladder(str(db))
        with open_ladder(str(db), write=False) as reader:  # reading never waits
            assert reader.runs() == []
    open_ladder(str(db)).close()  # released


@pytest.mark.slow
def test_a_killed_run_does_not_leave_the_file_locked(tmp_path):
    db = tmp_path / "l.sqlite"
    code = ("import sys, time; from referee.ladder.store import open_ladder; s = open_ladder(sys.argv[1]); "
            "print('locked', flush=True); time.sleep(60)")
    proc = subprocess.Popen([sys.executable, "-c", code, str(db)], stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        assert proc.stdout.readline().strip() == "locked"
        with pytest.raises(LadderBusy, match=rf"another ladder run \(pid {proc.pid}\)"):
            open_ladder(str(db))
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    open_ladder(str(db)).close()


def test_different_game_settings_are_refused(tmp_path):
    with open_ladder(str(tmp_path / "l.sqlite")) as store:
        store.check_settings({"ruleset": "arcade", "seats": 4, "seed": 1})
        store.check_settings({"ruleset": "arcade", "seats": 4, "seed": 1})
        with pytest.raises(LadderError, match=r"seats: 4 before, 3 now.*another --db"):
            store.check_settings({"ruleset": "arcade", "seats": 3, "seed": 1})


def test_a_file_that_is_not_a_ladder_is_named(tmp_path):
    bad = tmp_path / "notes.sqlite"
    bad.write_text("just text, not a database " * 10)
    with pytest.raises(InputFileError, match=r"notes.sqlite: not a SQLite database \(text: 'just text, not a'\), so "
                                             "not a ladder file; give the ladder's file, or a new file name"):
        open_ladder(str(bad))
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        conn.execute("INSERT INTO meta VALUES ('format', 'something-else')")
    with pytest.raises(LadderError, match="is a SQLite file but not a ladder"):
        open_ladder(str(other))
    with pytest.raises(LadderError, match="does not exist"):
        open_ladder(str(tmp_path / "missing.sqlite"), write=False, create=False)


def test_changed_and_removed_bots_retire_their_games_and_only_theirs(tmp_path):
    with open_ladder(str(tmp_path / "l.sqlite")) as store:
        run = store.start_run({})
        store.update_bots(run, {"a": ("h1", {}), "b": ("h1", {}), "c": ("h1", {}), "d": ("h1", {})})
        store.plan(run, 1, [(1, "L000001", 11, ["a", "b"], ["h1", "h1"]), (2, "L000002", 12, ["c", "d"], ["h1", "h1"]),
                            (3, "L000003", 13, ["b", "d"], ["h1", "h1"])])
        for gid, seating in (("L000001", ["a", "b"]), ("L000002", ["c", "d"]), ("L000003", ["b", "d"])):
            store.record(gid, GameLine(GameResult.from_json({"game": gid, "seed": 1, "ruleset": "compact",
                                                              "seating": seating, "placements": [1, 2]})))
        run2 = store.start_run({})
        changes = store.update_bots(run2, {"a": ("h2", {}), "b": ("h1", {}), "d": ("h1", {})})
        assert changes == {"new": [], "changed": ["a"], "removed": ["c"], "returned": []}
        assert [g.game for g in store.games(played=True)] == ["L000003"]
        assert store.retired_in(run2) == 2


# ------------------------------------------------------------------ history


def _run(run_id: int, *rows: tuple[str, int, int, int]) -> dict:
    """A stored run with standings rows (bot, rank, rank_best, rank_worst), as run_ladder stores them."""
    standings = [{**StandingRow(rank, bot, 10, 2, 0, 2.0, 0, rating=1500.0, rating_low=1450.0,
                                rating_high=1550.0).to_json(timing=True), "rank_best": best, "rank_worst": worst}
                 for bot, rank, best, worst in rows]
    return {"id": run_id, "finished": f"2026-01-0{run_id}T00:00:00Z", "status": "finished", "played": 10,
            "retired": 0, "kept": 10 * run_id, "stop_reason": "every bot has its share", "standings": standings}


def _rank_table(md: str) -> dict[str, list[str]]:
    table = md[md.index("## Rank by run"):]
    return {cells[0]: cells[1:] for cells in ([c.strip() for c in line.strip("|").split("|")]
                                              for line in table.splitlines() if line.startswith("| ")
                                              and not line.startswith("| bot"))}


def test_history_marks_only_moves_the_intervals_support():
    """↑/↓ when the two runs' rank ranges do not overlap, ≈ when the rank changed within them, nothing when the
    rank is the same; a bot missing from a run is '-' and compared with its last run."""
    from referee.ladder.history import history_md

    runs = [_run(1, ("a", 1, 1, 1), ("b", 2, 2, 3), ("c", 3, 2, 3), ("d", 4, 4, 4)),
            _run(2, ("b", 1, 1, 1), ("a", 2, 2, 3), ("c", 3, 2, 3)),
            _run(3, ("b", 1, 1, 2), ("a", 2, 1, 2), ("d", 3, 3, 4), ("c", 4, 3, 4))]
    md = history_md(runs)
    assert _rank_table(md) == {
        "b": ["2-3", "1 ↑", "1-2"],      # 2-3 -> 1: apart, a real rise; then the same rank 1
        "a": ["1", "2-3 ↓", "1-2"],      # 1 -> 2-3: apart; then 2 again (no change of rank)
        "d": ["4", "-", "3-4 ≈"],        # missing in run 2; 4 -> 3 within 4 and 3-4: noise
        "c": ["2-3", "2-3", "3-4 ≈"],    # 3 -> 4 within 2-3 and 3-4
    }
    assert "≈ marks a change of rank within the ranges" in md
