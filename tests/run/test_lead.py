"""An executor given a lead reads no job that far ahead of the earliest game not handed back yet, so a caller
counting games in planned order (``compare``) holds a bounded number, however the workers are scheduled."""

from __future__ import annotations

import pytest

from referee.bots.spec import TimeLimits, parse_bot, unique_names
from referee.engine.rules import get_ruleset
from referee.run.executor import LocalExecutor
from referee.run.jobs import GameJob
from referee.run.lead import Lead
from referee.run.seeds import game_seed


def test_a_lead_frees_as_the_earliest_games_finish_in_any_order():
    lead = Lead(3)
    for game in "abc":
        lead.read(game)
    assert not lead.may_read()
    lead.finished("b")  # not the earliest: nothing frees
    lead.finished("c")
    assert not lead.may_read() and lead.ahead == 3
    lead.finished("a")  # the earliest: b and c, finished behind it, free too
    assert lead.may_read() and lead.ahead == 0


def test_a_lead_below_one_job_is_refused():
    with pytest.raises(ValueError, match="at least 1 job, not 0"):
        Lead(0)


class Watched:
    """The plan's jobs, noting at each read how far it is past the earliest game not yet handed back."""

    def __init__(self, jobs: list[GameJob]) -> None:
        self.jobs = jobs
        self.handed: set[str] = set()
        self.widest = 0

    def __iter__(self):
        for k, job in enumerate(self.jobs):
            earliest = next(i for i, j in enumerate(self.jobs) if j.game_id not in self.handed)
            self.widest = max(self.widest, k - earliest + 1)
            yield job


def _jobs(n: int) -> list[GameJob]:
    rules = get_ruleset("family", {"target": "round"})
    seats = tuple(unique_names([parse_bot("builtin:easy", TimeLimits()) for _ in range(4)]))
    return [GameJob(f"g{i:04d}", game_seed(3, i), rules, seats) for i in range(n)]


@pytest.mark.slow
@pytest.mark.parametrize("workers", [1, 2])
def test_the_local_executor_never_reads_past_its_lead(workers):
    plan = Watched(_jobs(300))
    with LocalExecutor(workers, pin=False) as ex:
        for game_id, _ in ex.run(plan, lead=20):
            plan.handed.add(game_id)
    assert plan.handed == {j.game_id for j in plan.jobs}
    # Without the lead two workers are handed two batches of 32 each at once (128 games read).
    assert plan.widest <= 20, plan.widest


@pytest.mark.slow
def test_without_a_lead_the_workers_are_handed_whole_batches_ahead():
    """The check above can fail: with no lead the same plan is read far past the earliest game."""
    plan = Watched(_jobs(300))
    with LocalExecutor(2, pin=False) as ex:
        for game_id, _ in ex.run(plan):
            plan.handed.add(game_id)
    assert plan.widest > 20
