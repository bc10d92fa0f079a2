"""Games with a bot process travel to a worker together once they are seen to be quick and faultless (a C bot's
games take milliseconds, a message a fraction of one): the same results as one game a message; a slow bot's
games, and those after a fault, travel alone."""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import replace
from types import SimpleNamespace

import pytest

from referee.bots.pool import BotPool
from referee.bots.sandbox import SandboxSettings, parse_mode
from referee.bots.spec import parse_bot
from referee.engine.rules import get_ruleset
from referee.run import executor as executor_module
from referee.run.executor import BATCH, PROCESS_BATCH_MS, LocalExecutor, _Dispatch
from referee.run.jobs import GameJob, run_job
from referee.run.seeds import game_seed
from tests.conftest import ROOT

GAMES = 40


def _dispatch() -> _Dispatch:
    return _Dispatch(LocalExecutor(1, pin=False), iter(()), None)


def test_bot_games_travel_alone_until_seen_quick_and_again_after_a_fault():
    d = _dispatch()
    assert d.process_batch() == 1  # nothing seen yet
    d.timed(SimpleNamespace(faults=(), wall_ms=2.0))
    assert d.process_batch() == int(PROCESS_BATCH_MS / 2.0) > 1
    d.timed(SimpleNamespace(faults=("a fault",), wall_ms=2.0))
    assert d.process_batch() == 1  # a fault: alone until the next faultless game
    d.timed(SimpleNamespace(faults=(), wall_ms=0.001))
    assert d.process_batch() == BATCH  # never more than a built-in batch
    for _ in range(20):
        d.timed(SimpleNamespace(faults=(), wall_ms=400.0))  # a slow bot: its games go back to one a message
    assert d.process_batch() == 1


@pytest.fixture(scope="module")
def trivial(tmp_path_factory):
    if shutil.which("gcc") is None:
        pytest.skip("needs gcc for the trivial C bot")
    exe = tmp_path_factory.mktemp("bot") / "trivial"
    subprocess.run(["gcc", "-O2", "-std=gnu99", "-o", str(exe), str(ROOT / "sample_bots/c/trivial.c")], check=True)
    return str(exe)


def _jobs(trivial: str) -> list[GameJob]:
    rules = get_ruleset("family", {"target": "round"})
    none = SandboxSettings(mode=parse_mode("none"))  # trusted: the test's own C bot; the walls are not what is tested
    seats = tuple(replace(parse_bot(f"c{i}={trivial}"), sandbox=none) for i in range(3))
    return [GameJob(f"g{i:03d}", game_seed(9, i), rules, seats, record=True, faults_only=True) for i in range(GAMES)]


def _plain(result):
    return {k: v for k, v in result.to_json().items() if k not in ("wall_ms", "time_ms")}


@pytest.mark.slow  # starts a worker and bot processes
@pytest.mark.skipif("fork" not in __import__("multiprocessing").get_all_start_methods(),
                    reason="the counting _play_batch reaches the worker only through fork")
def test_quick_bot_games_share_messages_and_give_the_results_of_games_played_one_by_one(trivial, tmp_path,
                                                                                        monkeypatch):
    jobs = _jobs(trivial)
    with BotPool() as pool:
        reference = {job.game_id: _plain(run_job(job, pool)[0]) for job in jobs}
    sizes = tmp_path / "sizes"
    real = executor_module._play_batch

    def counting(batch, pool, records_dir):
        with open(sizes, "a") as fh:
            fh.write(f"{len(batch)}\n")
        return real(batch, pool, records_dir)

    monkeypatch.setattr(executor_module, "_play_batch", counting)
    with LocalExecutor(1, pin=False) as ex:
        got = list(ex.run(jobs))
    assert sorted(g for g, _ in got) == sorted(reference)  # every game once
    assert {g: _plain(r) for g, r in got} == reference
    batches = [int(n) for n in sizes.read_text().split()]
    assert sum(batches) == GAMES and batches[0] == 1  # the first travels alone
    assert max(batches) > 1 and len(batches) < GAMES  # then several a message
