"""What ``run_job`` and a game's result reuse from game to game (built-in seats, action codes, a spec's
built-in name) changes nothing about the games: the same seed gives the same game, card for card."""

from __future__ import annotations

from referee.bots.pool import BotPool
from referee.bots.spec import TimeLimits, parse_bot, unique_names
from referee.engine import notation as replay
from referee.engine.actions import Action
from referee.engine.cards import Card
from referee.engine.notation import decode_action, encode_action, encode_actions
from referee.engine.rules import get_ruleset
from referee.run import jobs as jobs_module
from referee.run.jobs import GameJob, run_job
from referee.run.seeds import game_seed
from referee.table.table import Table, seat_for


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
    jobs_module._kept_seats().clear()
    monkeypatch.setattr(jobs_module, "_SEATS_KEPT", 3)
    for i in range(4):
        run_job(GameJob(f"h{i}", i, get_ruleset("family", {"target": "round"}),
                        (parse_bot(f"e{i}=builtin:easy"), parse_bot("builtin:random"))), BotPool())
    assert len(jobs_module._kept_seats()) <= 3


def test_threads_playing_side_by_side_share_no_seat():
    """A cluster worker plays games in several threads at once: each thread has seats of its own."""
    import threading

    jobs = [_job(i) for i in range(16)]
    want = [_fresh(job) for job in jobs]
    got: dict[int, list] = {}
    seats: dict[int, list] = {}
    start = threading.Barrier(2)

    def play(k: int) -> None:
        start.wait()
        got[k] = [_reused(job) for job in jobs]
        seats[k] = list(jobs_module._kept_seats().values())

    threads = [threading.Thread(target=play, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got[0] == got[1] == want
    assert not {id(s) for s in seats[0]} & {id(s) for s in seats[1]}


def test_codes_come_out_the_same_for_equal_actions_that_are_other_objects(monkeypatch):
    replay.ACTION_CODES.clear()
    monkeypatch.setattr(replay, "_CODES_KEPT", 2)  # emptied and refilled while encoding
    actions = [Action("play", (Card.from_code("red:7"),)), Action("draw"), Action("colour", colour="blue"),
               Action("play", (Card.from_code("wild"),), colour="green", call=True)]
    want = " ".join(encode_action(a) for a in actions)
    for _ in range(3):
        copies = [decode_action.__wrapped__(encode_action(a)) for a in actions]  # equal, not the same objects
        assert encode_actions(copies) == want
        assert encode_actions(actions) == want
    assert encode_actions(actions, stand_ins=[1]) == want.replace(" d ", " d! ")
    assert len(replay.ACTION_CODES) <= 2


def test_a_spec_names_its_builtin_however_often_asked():
    spec = parse_bot("builtin:hard")
    assert spec.builtin == spec.builtin == "hard"
    assert parse_bot("python3 bot.py").builtin is None
    assert spec == parse_bot("builtin:hard")  # the cached name is no part of a spec's identity


def test_untimed_seats_and_options_come_out_as_computed_afresh():
    from referee.protocol.messages import ruleset_options as _options
    from referee.store.results import SeatTimes
    from referee.table.table import _seat_times, _SeatClock

    clocks = [_SeatClock() for _ in range(3)]
    assert _seat_times(clocks) == SeatTimes.of(clocks)
    clocks[1].add(2.5, 1.25)
    assert _seat_times(clocks) == SeatTimes.of(clocks) != SeatTimes.zero(3)
    clocks[2].add(1.00049, None)
    clocks[0].add(7.123456, 3.0004999)
    assert _seat_times(clocks) == SeatTimes.of(clocks)
    clocks = [_SeatClock() for _ in range(2)]
    clocks[0].add(4.2, None)  # wall times only: no CPU columns
    assert _seat_times(clocks) == SeatTimes.of(clocks) and not _seat_times(clocks).cpu_decisions
    rules = get_ruleset("family", {"target": "round"})
    first = _options(rules)
    first["target"] = "changed"  # each result gets a dict of its own
    assert _options(rules) == rules.options == get_ruleset("family", {"target": "round"}).options
    assert _options(get_ruleset("family", {})) == get_ruleset("family", {}).options


def test_a_store_that_keeps_no_games_writes_no_games_file(tmp_path):
    from referee.store.results import GameLine
    from referee.store.run_store import GameStore

    store = GameStore(str(tmp_path), keep_games=False)
    store.prepare(fresh=True)
    store.start({"name": "x"})
    store.append(GameLine(run_job(_job(1), BotPool())[0]))
    store.close()
    assert (tmp_path / "arena.json").exists() and not (tmp_path / "games.jsonl").exists()


def test_plan_ids_read_without_the_pattern_as_the_pattern_reads_them():
    from referee.standings.placements import _LETTERS, _PLAN_ID, PlacementLog

    def by_pattern(prefix, game_id):
        m = _PLAN_ID.fullmatch(game_id)
        if m is None or m.group(1) != (prefix or m.group(1)):
            return None
        return int(m.group(2)) * _LETTERS + (ord(m.group(3)) - 96 if m.group(3) else 0), len(m.group(2))

    ids = ["g0001", "g1", "p000012b", "g", "g" + "1" * 17, "g" + "1" * 18, "1234", "é12", "g\u0661\u0662", "g12a",
           "G0003", "x0001", "g-1", "g 1", "gg1", "g\u00b2", ""]
    for prefix in (None, "g", "p"):
        for game_id in ids:
            log = PlacementLog([])
            log._prefix = prefix
            assert log._plan_number(game_id) == by_pattern(prefix, game_id), (prefix, game_id)


def test_stage_tallies_are_each_stages_games_alone_whether_one_stage_or_several():
    from referee.standings.collect import Collected
    from referee.standings.model import Tally
    from referee.store.results import GameLine, Slot

    results = [run_job(_job(i, ("easy", "random", "hard")), BotPool())[0] for i in range(9)]
    names = ["easy", "random", "hard", "idle"]  # "idle" is entered but never plays

    def lines(stages):
        return [GameLine(r, Slot(stages[i % len(stages)], 1, 0, i)) for i, r in enumerate(results)]

    for stages in ([None], ["groups"], ["groups", "final"], ["a", "b", "c"]):
        collected = Collected(names).extend(lines(stages))
        got = {st: t.rows() for st, t in collected.stage_tallies.items()}
        want = {}
        for line in lines(stages):
            want.setdefault(line.stage, Tally()).add(line.result)
        assert got == {st: t.rows() for st, t in want.items()}, stages
        assert collected.stage_counts == {st: sum(1 for x in lines(stages) if x.stage == st) for st in stages}
        assert [r.bot for r in collected.tally.rows()][-1] == "idle"  # the whole run's tally still names it
