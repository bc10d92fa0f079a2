"""A bot's notes of a game (``NoteTaker``: the budget and its marked cut) and its stderr as the referee takes it in
(``StderrSink.collect``: everything written up to now, even bytes the pump's thread has not read yet)."""

from __future__ import annotations

import os
import threading
from pathlib import Path

from referee.bots.pipes.notes import BEFORE, LOG, STDERR, NoteTaker
from referee.bots.pipes.transport import STDERR_MARK, StderrSink


def test_notes_are_kept_by_turn_and_stderr_chunks_of_one_turn_join() -> None:
    notes = NoteTaker(1000)
    notes.add(BEFORE, STDERR, "starting\n")
    notes.add(4, LOG, "thinking")
    notes.add(4, STDERR, "a")
    notes.add(4, STDERR, "b\n")
    notes.add(9, STDERR, "c\n")
    assert notes.entries == [(BEFORE, STDERR, "starting\n"), (4, LOG, "thinking"), (4, STDERR, "ab\n"),
                             (9, STDERR, "c\n")]
    assert notes.dropped == 0 and notes.cut_at is None


def test_past_the_budget_the_rest_is_counted_and_the_turn_of_the_cut_kept() -> None:
    notes = NoteTaker(10)
    notes.add(2, STDERR, "12345678")
    notes.add(5, LOG, "abcdef")        # 2 bytes fit
    notes.add(7, STDERR, "xyz", dropped=100)  # bytes the sink counted and did not keep
    assert notes.entries == [(2, STDERR, "12345678"), (5, LOG, "ab")]
    assert notes.used == 10 and notes.dropped == 4 + 3 + 100 and notes.cut_at == 5


def test_a_character_cut_at_the_budget_is_not_split_into_a_broken_one() -> None:
    notes = NoteTaker(5)
    notes.add(1, STDERR, "abcdé")  # é is two bytes: 6 in all, 5 fit
    assert notes.entries == [(1, STDERR, "abcd")] and notes.dropped == 2


def test_collect_takes_everything_written_so_far_and_the_log_marks_each_turn(tmp_path: Path) -> None:
    log = tmp_path / "bot.stderr.log"
    sink = StderrSink(str(log))
    sink.label = "g7 (seat 1)"
    read_end, write_end = os.pipe()
    pump = threading.Thread(target=sink.pump, args=(read_end,), daemon=True)
    sink.watch(read_end)
    pump.start()
    os.write(write_end, b"before\n")
    assert sink.collect(5.0) == (b"before\n", 0)  # waits for the pump to read it, however busy the interpreter
    sink.turn = 12
    os.write(write_end, b"at twelve\n")
    os.write(write_end, b"still twelve\n")
    assert sink.collect(5.0) == (b"at twelve\nstill twelve\n", 0)
    assert sink.collect(0.0) is None  # nothing new
    sink.turn = 15
    os.write(write_end, b"at fifteen\n")
    got = sink.collect(5.0)
    os.close(write_end)
    pump.join(5)
    os.close(read_end)
    assert got == (b"at fifteen\n", 0)
    assert log.read_text() == (f"{STDERR_MARK}g7 (seat 1) ---\nbefore\n{STDERR_MARK}g7 (seat 1) turn 12 ---\n"
                               f"at twelve\nstill twelve\n{STDERR_MARK}g7 (seat 1) turn 15 ---\nat fifteen\n")


def test_a_flood_is_kept_up_to_the_limit_and_the_rest_counted() -> None:
    from referee.bots.pipes.transport import FRESH_LIMIT

    sink = StderrSink(None)
    read_end, write_end = os.pipe()
    sink.watch(read_end)
    pump = threading.Thread(target=sink.pump, args=(read_end,), daemon=True)
    pump.start()
    writer = threading.Thread(target=lambda: (os.write(write_end, b"z" * (FRESH_LIMIT * 3)), os.close(write_end)))
    writer.start()
    writer.join(10)
    pump.join(10)
    os.close(read_end)
    data, dropped = sink.collect(1.0) or (b"", 0)
    assert len(data) == FRESH_LIMIT and dropped == FRESH_LIMIT * 2
