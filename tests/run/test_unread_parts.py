"""What a game leaves out when nothing reads it: the result's action codes in a run that writes no games.jsonl
(``match`` without ``--out``), and the events of a game between built-in seats that is not recorded. The games
are the same either way."""

from __future__ import annotations

import pytest

from referee.arena.runner import run_arena
from referee.bots.pool import BotPool
from referee.bots.spec import TimeLimits, parse_bot, unique_names
from referee.cli.match import match_arena
from referee.engine.rules import get_ruleset
from referee.run import executor as executor_module
from referee.run.jobs import GameJob, run_job
from referee.run.seeds import game_seed
from referee.table.policy import FaultPolicy

RULES = get_ruleset("family", {"target": "round"})
SEATS = tuple(unique_names([parse_bot(f"builtin:{n}", TimeLimits()) for n in ("easy", "medium", "hard", "random")]))


def _plain(result) -> dict:
    return {k: v for k, v in result.to_json().items() if k != "wall_ms"}


def test_a_job_says_whether_its_result_keeps_the_actions_and_its_message_says_so_only_when_not():
    kept = GameJob("g1", 5, RULES, SEATS)
    left = GameJob("g1", 5, RULES, SEATS, actions=False)
    assert "actions" not in kept.to_json() and left.to_json()["actions"] is False
    assert GameJob.from_json(kept.to_json()) == kept and GameJob.from_json(left.to_json()) == left


def test_a_result_without_actions_is_the_same_game_and_a_recorded_game_keeps_them():
    pool = BotPool()
    for i in range(6):
        seed = game_seed(3, i)
        full = _plain(run_job(GameJob(f"g{i}", seed, RULES, SEATS), pool)[0])
        lean = _plain(run_job(GameJob(f"g{i}", seed, RULES, SEATS, actions=False), pool)[0])
        assert full["actions"] and lean["actions"] == ""
        assert lean == full | {"actions": ""}
        recorded, lines = run_job(GameJob(f"g{i}", seed, RULES, SEATS, record=True, actions=False), pool)
        # built-in seats: the record is rebuilt from games.jsonl when read (``rebuilds_record``), from these codes
        assert _plain(recorded) == full and lines is None


@pytest.mark.slow
def test_a_run_without_games_jsonl_asks_for_no_actions_and_one_with_it_does(tmp_path, monkeypatch):
    asked: list[bool] = []
    real = executor_module.run_job

    def spy(job, pool):
        asked.append(job.actions)
        return real(job, pool)

    monkeypatch.setattr(executor_module, "run_job", spy)
    arena = match_arena(RULES, list(SEATS), games=8, seed=1, policy=FaultPolicy(), records=False)
    lean = run_arena(arena, out=str(tmp_path / "lean"), jobs=1, fresh=True, kind="match", keep_games=False)
    assert asked == [False] * 8
    asked.clear()
    full = run_arena(arena, out=str(tmp_path / "full"), jobs=1, fresh=True, kind="match")
    assert asked == [True] * 8
    assert lean.standings == full.standings
