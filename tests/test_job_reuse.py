"""What ``run_job`` and a game's result reuse from game to game (built-in seats, action codes, a spec's
built-in name) changes nothing about the games: the same seed gives the same game, card for card."""

from __future__ import annotations

from referee import jobs as jobs_module
from referee import replay
from referee.actions import Action
from referee.bots.pool import BotPool
from referee.bots.spec import TimeLimits, parse_bot, unique_names
from referee.cards import Card
from referee.jobs import GameJob, game_seed, run_job
from referee.replay import decode_action, encode_action, encode_actions
from referee.rules import get_ruleset
from referee.table import Table, seat_for


def _job(i: int, names: tuple[str, ...] = ("easy", "medium", "random", "hard")) -> GameJob:
    seats = tuple(unique_names([parse_bot(f"builtin:{n}", TimeLimits()) for n in names]))
    return GameJob(f"g{i}", game_seed(11, i), get_ruleset("family", {"target": "round"}), seats)


def _fresh(job: GameJob) -> dict:
    """The game played on seats made for it alone (as before seats were reused)."""
    seats = [seat_for(spec, BotPool()) for spec in job.seats]
    data = Table(job.rules, seats, job.seed, job.game_id).play().to_json()
    data.pop("wall_ms")
    return data


def _reused(job: GameJob) -> dict:
    data = run_job(job, BotPool())[0].to_json()
    data.pop("wall_ms")
    return data


def test_reused_seats_play_every_game_as_fresh_ones_would():
    jobs = [_job(i) for i in range(12)] + [_job(i, ("hard", "easy", "easy", "random")) for i in range(12, 20)]
    first = [_reused(job) for job in jobs]
    assert [_reused(job) for job in reversed(jobs)] == first[::-1]  # another order: the same games
    assert first == [_fresh(job) for job in jobs]


def test_the_seats_kept_stay_bounded(monkeypatch):
    monkeypatch.setattr(jobs_module, "_SEATS", {})
    monkeypatch.setattr(jobs_module, "_SEATS_KEPT", 3)
    for i in range(4):
        run_job(GameJob(f"h{i}", i, get_ruleset("family", {"target": "round"}),
                        (parse_bot(f"e{i}=builtin:easy"), parse_bot("builtin:random"))), BotPool())
    assert len(jobs_module._SEATS) <= 3


def test_codes_come_out_the_same_for_equal_actions_that_are_other_objects(monkeypatch):
    monkeypatch.setattr(replay, "_CODES", {})
    monkeypatch.setattr(replay, "_CODES_KEPT", 2)  # emptied and refilled while encoding
    actions = [Action("play", (Card.from_code("red:7"),)), Action("draw"), Action("colour", colour="blue"),
               Action("play", (Card.from_code("wild"),), colour="green", call=True)]
    want = " ".join(encode_action(a) for a in actions)
    for _ in range(3):
        copies = [decode_action.__wrapped__(encode_action(a)) for a in actions]  # equal, not the same objects
        assert encode_actions(copies) == want
        assert encode_actions(actions) == want
    assert encode_actions(actions, stand_ins=[1]) == want.replace(" d ", " d! ")
    assert len(replay._CODES) <= 2


def test_a_spec_names_its_builtin_however_often_asked():
    spec = parse_bot("builtin:hard")
    assert spec.builtin == spec.builtin == "hard"
    assert parse_bot("python3 bot.py").builtin is None
    assert spec == parse_bot("builtin:hard")  # the cached name is no part of a spec's identity
