"""Built-in games travel to workers in batches (or are played in the collecting process with one worker):
the same results as one game a message, and a worker's death still traced to the one game that caused it."""

from __future__ import annotations

import json
import os
from dataclasses import replace

import pytest

from referee.bots.spec import TimeLimits, parse_bot, unique_names
from referee.engine.rules import get_ruleset
from referee.replay.record import read_record
from referee.run import executor as executor_module
from referee.run.executor import BATCH, LocalExecutor
from referee.run.jobs import GameJob, run_job
from referee.run.seeds import game_seed
from referee.store.record_file import INDEX_FILE, RECORDS_FILE, encode_record, recorded_ids
from referee.store.results import GameLine

pytestmark = pytest.mark.skipif("fork" not in __import__("multiprocessing").get_all_start_methods(),
                                reason="the killing run_job reaches the workers only through fork")

GAMES = 2 * BATCH + 5  # more than two batches, the last one short


def _jobs() -> list[GameJob]:
    rules = get_ruleset("arcade", {})
    seats = tuple(unique_names([parse_bot("builtin:easy", TimeLimits()) for _ in range(3)]))
    return [GameJob(f"g{i:03d}", game_seed(5, i), rules, seats) for i in range(GAMES)]


def _plain(result):
    return {k: v for k, v in result.to_json().items() if k not in ("wall_ms", "times")}


@pytest.fixture(scope="module")
def reference():
    """Each game played directly, one by one."""
    from referee.bots.pool import BotPool

    pool = BotPool()
    return {job.game_id: _plain(run_job(job, pool)[0]) for job in _jobs()}


@pytest.mark.slow
@pytest.mark.parametrize("workers", [1, 2])
def test_batched_games_give_the_results_of_games_played_one_by_one(workers, reference):
    with LocalExecutor(workers, pin=False) as ex:
        got = list(ex.run(_jobs()))
    assert sorted(g for g, _ in got) == sorted(reference)  # every game once
    assert {g: _plain(r) for g, r in got} == reference


@pytest.mark.slow
def test_one_worker_plays_built_in_games_in_the_collecting_process(monkeypatch, reference):
    here = []
    real = executor_module.run_job

    def counting(job, pool):
        here.append(os.getpid())
        return real(job, pool)

    monkeypatch.setattr(executor_module, "run_job", counting)
    with LocalExecutor(1, pin=False) as ex:
        got = list(ex.run(_jobs()))
    assert len(got) == GAMES and set(here) == {os.getpid()} and len(here) == GAMES


def _failing_run_job(victim: str):
    """``run_job`` with a referee bug on ``victim``."""
    real = executor_module.run_job

    def run(job, pool):
        if job.game_id == victim:
            raise RuntimeError("a referee bug")
        return real(job, pool)
    return run


def _killing_run_job(victim: str, marker: str | None):
    """``run_job`` that kills its worker on ``victim`` (once, leaving ``marker``; every time without one)."""
    real = executor_module.run_job

    def run(job, pool):
        if job.game_id == victim and (marker is None or not os.path.exists(marker)):
            if marker is not None:
                open(marker, "w").close()
            os._exit(3)
        return real(job, pool)
    return run


@pytest.mark.slow
def test_a_batch_whose_worker_died_is_replayed_and_its_games_kept(tmp_path, monkeypatch, reference):
    marker = str(tmp_path / "killed")
    monkeypatch.setattr(executor_module, "run_job", _killing_run_job("g040", marker))
    with LocalExecutor(2, pin=False) as ex:
        got = dict(ex.run(_jobs()))
    assert os.path.exists(marker)  # the worker really died, in the middle of a batch
    assert len(got) == GAMES and {g: _plain(r) for g, r in got.items()} == reference


@pytest.mark.slow
def test_a_game_that_kills_its_worker_every_time_is_the_only_one_lost(monkeypatch, reference):
    monkeypatch.setattr(executor_module, "run_job", _killing_run_job("g040", None))
    with LocalExecutor(2, pin=False) as ex:
        got = dict(ex.run(_jobs()))
    assert len(got) == GAMES
    lost = sorted(g for g, r in got.items() if r.reason == "lost")
    assert lost == ["g040"]  # not its batch-mates: the batch was replayed game by game
    assert {g: _plain(r) for g, r in got.items() if g != "g040"} == {g: v for g, v in reference.items() if g != "g040"}


@pytest.mark.slow
@pytest.mark.parametrize("workers", [1, 2])
def test_a_referee_failure_in_a_batch_names_its_game(monkeypatch, workers):
    from referee.run.executor import ExecutorError

    monkeypatch.setattr(executor_module, "run_job", _failing_run_job("g040"))
    with pytest.raises(ExecutorError, match=r"(?s)game g040:.*a referee bug"), LocalExecutor(workers, pin=False) as ex:
        list(ex.run(_jobs()))


def _recorded_jobs() -> list[GameJob]:
    return [replace(job, record=True) for job in _jobs()]


def _entries(out) -> list[list[str]]:
    return [line.split() for line in (out / INDEX_FILE).read_text().splitlines()]


def _table_record(job: GameJob) -> list[dict]:
    """The record the table itself writes of ``job``, as read back from a record file (through JSON)."""
    from referee.bots.pool import BotPool
    from referee.table.table import Recorder, Table, seat_for

    recorder = Recorder()
    Table(job.rules, [seat_for(s, BotPool()) for s in job.seats], job.seed, job.game_id, job.policy, recorder).play()
    return [json.loads(encode_record([line])) for line in recorder.lines]


@pytest.mark.slow
@pytest.mark.parametrize("workers", [1, 2])
def test_a_batch_of_built_in_games_keeps_its_records_as_index_entries_in_one_write(tmp_path, workers, monkeypatch,
                                                                                    reference):
    writes = []
    real = executor_module.append_records
    monkeypatch.setattr(executor_module, "append_records", lambda *a: (writes.append(a), real(*a)))
    with LocalExecutor(workers, pin=False, records_dir=str(tmp_path)) as ex:
        got = dict(ex.run(_recorded_jobs()))
    entries = _entries(tmp_path)
    assert sorted(e[0] for e in entries) == sorted(reference)  # every game once
    assert {tuple(e[1:]) for e in entries} == {("rebuild:forfeit",)}  # no member: rebuilt when read
    assert not (tmp_path / RECORDS_FILE).exists()  # no member, not even the file opened
    if workers == 1:  # in this process: one write a batch, not a game (a worker's are made in the worker)
        assert [len(w[2]) for w in writes] == [BATCH, BATCH, GAMES - 2 * BATCH] and not any(w[1] for w in writes)
    with open(tmp_path / "games.jsonl", "w") as fh:  # what the run's store writes, for the rebuild
        fh.writelines(GameLine(result).encode().decode() for result in got.values())
    for job in _recorded_jobs()[::9]:
        assert read_record(str(tmp_path), job.game_id) == _table_record(job)


@pytest.mark.slow
def test_a_dead_worker_s_batch_is_recorded_once_by_its_replay(tmp_path, monkeypatch, reference):
    """The games its worker finished before dying were not written: the replay writes each game once."""
    marker = str(tmp_path / "killed")
    monkeypatch.setattr(executor_module, "run_job", _killing_run_job("g040", marker))
    out = tmp_path / "out"
    out.mkdir()
    with LocalExecutor(2, pin=False, records_dir=str(out)) as ex:
        got = dict(ex.run(_recorded_jobs()))
    assert os.path.exists(marker) and len(got) == GAMES
    assert sorted(e[0] for e in _entries(out)) == sorted(reference)  # no game twice: nothing of the dead batch


@pytest.mark.slow
def test_a_referee_failure_keeps_the_records_of_the_games_before_it(tmp_path, monkeypatch):
    from referee.run.executor import ExecutorError

    monkeypatch.setattr(executor_module, "run_job", _failing_run_job("g040"))
    stored = []
    with (pytest.raises(ExecutorError, match=r"(?s)game g040:.*a referee bug"),
          LocalExecutor(1, pin=False, records_dir=str(tmp_path)) as ex):
        for game_id, _ in ex.run(_recorded_jobs()):
            stored.append(game_id)
    assert "g039" in stored and recorded_ids(str(tmp_path)) == set(stored)  # a result handed on has its record


def test_the_cluster_s_per_game_write_keeps_an_entry_for_a_built_in_game_and_lines_for_a_bot_s(tmp_path):
    """``write_record`` (the Dask client writes each game's record as its result comes back)."""
    from referee.run.executor import write_record

    built_in = _recorded_jobs()[0]
    with_bot = replace(built_in, game_id="b1", seats=(parse_bot("python3 bot.py", TimeLimits()), *built_in.seats[1:]))
    write_record(str(tmp_path), built_in.game_id, None, built_in)
    write_record(str(tmp_path), "b1", [{"t": "game", "game": "b1"}], with_bot)
    assert [e[:2] for e in _entries(tmp_path)] == [[built_in.game_id, "rebuild:forfeit"], ["b1", "0"]]
    assert read_record(str(tmp_path), "b1") == [{"t": "game", "game": "b1"}]


@pytest.mark.slow
def test_a_run_of_built_in_games_ends_without_waiting_on_its_idle_worker(monkeypatch):
    """With one worker the built-in games are played here; once they are, the run ends at once (it used to wait
    a second for the idle worker's pipe at the end of every such run)."""
    real = executor_module.wait
    timeouts = []

    def watched(conns, timeout=None):
        timeouts.append(timeout)
        return real(conns, timeout)

    monkeypatch.setattr(executor_module, "wait", watched)
    with LocalExecutor(1, pin=False) as ex:
        got = list(ex.run(_jobs()))
    assert len(got) == GAMES
    assert all(t == 0 for t in timeouts), timeouts
