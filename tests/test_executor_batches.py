"""Built-in games travel to workers in batches (or are played in the collecting process with one worker):
the same results as one game a message, and a worker's death still traced to the one game that caused it."""

from __future__ import annotations

import os
from dataclasses import replace

import pytest

from referee.arena import executor as executor_module
from referee.arena.executor import BATCH, LocalExecutor
from referee.bots.spec import TimeLimits, parse_bot, unique_names
from referee.jobs import GameJob, game_seed, run_job
from referee.record_file import INDEX_FILE, read_record, recorded_ids
from referee.rules import get_ruleset

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


@pytest.mark.parametrize("workers", [1, 2])
def test_batched_games_give_the_results_of_games_played_one_by_one(workers, reference):
    with LocalExecutor(workers, pin=False) as ex:
        got = list(ex.run(_jobs()))
    assert sorted(g for g, _ in got) == sorted(reference)  # every game once
    assert {g: _plain(r) for g, r in got} == reference


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


def test_a_batch_whose_worker_died_is_replayed_and_its_games_kept(tmp_path, monkeypatch, reference):
    marker = str(tmp_path / "killed")
    monkeypatch.setattr(executor_module, "run_job", _killing_run_job("g040", marker))
    with LocalExecutor(2, pin=False) as ex:
        got = dict(ex.run(_jobs()))
    assert os.path.exists(marker)  # the worker really died, in the middle of a batch
    assert len(got) == GAMES and {g: _plain(r) for g, r in got.items()} == reference


def test_a_game_that_kills_its_worker_every_time_is_the_only_one_lost(monkeypatch, reference):
    monkeypatch.setattr(executor_module, "run_job", _killing_run_job("g040", None))
    with LocalExecutor(2, pin=False) as ex:
        got = dict(ex.run(_jobs()))
    assert len(got) == GAMES
    lost = sorted(g for g, r in got.items() if r.reason == "lost")
    assert lost == ["g040"]  # not its batch-mates: the batch was replayed game by game
    assert {g: _plain(r) for g, r in got.items() if g != "g040"} == {g: v for g, v in reference.items() if g != "g040"}


@pytest.mark.parametrize("workers", [1, 2])
def test_a_referee_failure_in_a_batch_names_its_game(monkeypatch, workers):
    from referee.arena.executor import ExecutorError

    real = executor_module.run_job

    def failing(job, pool):
        if job.game_id == "g040":
            raise RuntimeError("a referee bug")
        return real(job, pool)

    monkeypatch.setattr(executor_module, "run_job", failing)
    with pytest.raises(ExecutorError, match=r"(?s)game g040:.*a referee bug"):
        with LocalExecutor(workers, pin=False) as ex:
            list(ex.run(_jobs()))


def _recorded_jobs() -> list[GameJob]:
    return [replace(job, record=True) for job in _jobs()]


def _members(out) -> dict[tuple[str, str], list[str]]:
    """The record file's members (offset, length) and the games in each, from the index."""
    members: dict[tuple[str, str], list[str]] = {}
    for line in (out / INDEX_FILE).read_text().splitlines():
        parts = line.split()
        members.setdefault((parts[1], parts[2]), []).append(parts[0])
    return members


@pytest.mark.parametrize("workers", [1, 2])
def test_a_batch_s_records_are_written_in_one_member_and_each_reads_back(tmp_path, workers, reference):
    with LocalExecutor(workers, pin=False, records_dir=str(tmp_path)) as ex:
        got = dict(ex.run(_recorded_jobs()))
    members = _members(tmp_path)
    games = [g for batch in members.values() for g in batch]
    assert sorted(games) == sorted(reference)  # every game once
    assert len(members) < GAMES / 2 and max(map(len, members.values())) == BATCH  # a member a batch, not a game
    for game_id, result in got.items():
        lines = read_record(str(tmp_path), game_id)
        assert lines[0]["game"] == game_id and lines[-1]["t"] == "result"
        assert lines[-1]["actions"] == result.actions and lines[-1]["seed"] == result.seed


def test_a_dead_worker_s_batch_is_recorded_once_by_its_replay(tmp_path, monkeypatch, reference):
    """The games its worker finished before dying were not written: the replay writes each game once."""
    marker = str(tmp_path / "killed")
    monkeypatch.setattr(executor_module, "run_job", _killing_run_job("g040", marker))
    out = tmp_path / "out"
    out.mkdir()
    with LocalExecutor(2, pin=False, records_dir=str(out)) as ex:
        got = dict(ex.run(_recorded_jobs()))
    assert os.path.exists(marker) and len(got) == GAMES
    games = [g for batch in _members(out).values() for g in batch]
    assert sorted(games) == sorted(reference)  # no game twice: nothing of the dead batch was written
    assert read_record(str(out), "g040")[-1]["actions"] == got["g040"].actions


def test_a_referee_failure_keeps_the_records_of_the_games_before_it(tmp_path, monkeypatch):
    from referee.arena.executor import ExecutorError

    real = executor_module.run_job

    def failing(job, pool):
        if job.game_id == "g040":
            raise RuntimeError("a referee bug")
        return real(job, pool)

    monkeypatch.setattr(executor_module, "run_job", failing)
    stored = []
    with pytest.raises(ExecutorError, match=r"(?s)game g040:.*a referee bug"):
        with LocalExecutor(1, pin=False, records_dir=str(tmp_path)) as ex:
            for game_id, _ in ex.run(_recorded_jobs()):
                stored.append(game_id)
    assert "g039" in stored and recorded_ids(str(tmp_path)) == set(stored)  # a result handed on has its record
