"""Every arena plans exactly the games it planned before the formats became objects (ids, seeds, seatings)."""

from __future__ import annotations

import json

import pytest

from tests.support.plans import GOLDEN, all_plans, summary


@pytest.fixture(scope="module")
def plans():
    return all_plans()


def test_every_arena_plans_the_same_games_as_before(plans):
    golden = json.loads(GOLDEN.read_text())
    assert set(summary(plans)) == set(golden)
    changed = {name: (golden[name], item) for name, item in summary(plans).items() if item != golden[name]}
    # A difference here means a seating, seed or game id moved: diff `python tests/support/plans.py --full F`
    # output from before and after the change to see where.
    assert not changed, changed


def test_the_counts_agree_with_the_games_planned(plans):
    for name, p in plans.items():
        planned = sum(len(r["games"]) for r in p["rounds"])
        assert planned == p["total"] == p["count"] == sum(p["stage_counts"]), name
        ids = [g[0] for r in p["rounds"] for g in r["games"]]
        assert len(set(ids)) == len(ids) and ids == sorted(ids), name
