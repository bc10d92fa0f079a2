"""Long runs at flat cost (issue 25): what the collector keeps a game, the fit on distinct choices, records in
one compressed file (rebuilt byte for byte from games.jsonl when absent), and bots that cannot start."""

from __future__ import annotations

import json
import multiprocessing
import random
import sys
import tracemalloc

import choix
import numpy as np
import pytest
from click.testing import CliRunner

from referee.bots.spec import TimeLimits, parse_bot
from referee.cli.main import cli
from referee.protocol.faults import Fault, FaultKind
from referee.replay.record import read_record, rebuilt_record, record_lines, sent_lines
from referee.run.startups import StartupWatch, same_way
from referee.standings.collect import Collected
from referee.standings.placements import PlacementLog, choices
from referee.standings.ratings import ALPHA, CENTER, ELO, fit_ratings
from referee.store.game_record import bot_limits, find_line
from referee.store.record_file import append_record, recorded_ids
from referee.store.results import GameLine, GameResult, SeatTimes, Slot
from tests.conftest import PY, ROOT

NAMES = ["a", "b", "c", "d", "e"]


def game(i: int, faults: tuple[Fault, ...] = (), seats: int = 4) -> GameLine:
    """A made-up game: a seeded seating and order (bot a strongest), its id g000001..."""
    r = random.Random(i)
    seating = r.sample(NAMES, seats)
    order = sorted(seating, key=lambda n: NAMES.index(n) + r.random() * 3)
    places = tuple(order.index(n) + 1 for n in seating)
    result = GameResult(game=f"g{i:06d}", seed=r.getrandbits(62), ruleset="family", options={},
                        seating=tuple(seating), placements=places, game_placements=places, reason="out", winner=0,
                        scores=(0,) * seats, hand_points=(0,) * seats, rounds=1, decisions=40, moves=40,
                        faults=faults, forfeited=(), times=SeatTimes.zero(seats), wall_ms=1.0,
                        sandbox=(None,) * seats)
    return GameLine(result, Slot("s", 1, 0, i))


def test_the_collector_keeps_a_few_dozen_bytes_a_game():
    """What a run holds per game does not include the game: 20,000 more 4-seat games cost under 45 bytes each
    (columns as narrow as their values, no game's start while every game has as many seats)."""
    c = Collected(NAMES)
    c.extend(game(i) for i in range(1, 1001))
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for i in range(1001, 21001):
            c.add(game(i))
        per_game = (tracemalloc.get_traced_memory()[0] - before) / 20_000
    finally:
        tracemalloc.stop()
    assert len(c) == 21_000 and per_game < 45, per_game
    assert not c.add(game(5))  # a game already counted is not counted twice
    games_of_a = next(r.games for r in c.tally.rows() if r.bot == "a")
    assert games_of_a == sum(1 for i in range(1, 21001) if "a" in game(i).seating)


def test_the_fit_on_distinct_choices_is_choix_and_does_not_depend_on_arrival_order():
    games = [game(i) for i in range(1, 801)]
    index = {n: i for i, n in enumerate(NAMES)}
    data = [(index[g.seating[s]], [index[g.seating[o]] for o in others]) for g in games
            for s, others in choices(g.placements)]
    expected = choix.ilsr_top1(len(NAMES), data, alpha=ALPHA, max_iter=10_000)
    point = fit_ratings(games, NAMES)
    got = np.array([(point[n].rating - CENTER) / ELO for n in NAMES])
    np.testing.assert_allclose(got - got.mean(), expected - expected.mean(), atol=2e-3)  # 0.1 Elo rounding
    shuffled = games[:]
    random.Random(3).shuffle(shuffled)
    in_order, out_of_order = Collected(NAMES).extend(games), Collected(NAMES).extend(shuffled)
    assert fit_ratings(in_order.log, NAMES, bootstrap=40, seed=9) == fit_ratings(out_of_order.log, NAMES, bootstrap=40,
                                                                                   seed=9)
    # The collector's rows come back in id order whatever order the games ended in.
    assert [r.game for r in out_of_order] == [g.game for g in games]


def test_game_ids_past_their_width_sort_as_text_as_the_reports_always_did():
    log = PlacementLog(NAMES)
    for number in (9999, 10000, 2, 10001):
        log.add(f"g{number:04d}", number, ["a", "b"], [1, 2], [0, 0], Slot())
    assert [r.game for r in log] == sorted(["g9999", "g10000", "g0002", "g10001"])


def test_the_log_gives_back_every_game_as_added_whatever_its_size_and_numbers():
    """Columns widen as values need (a deal past 2**31, scores past a byte) and games of another size keep their
    starts: each row comes back as it went in, and the fit reads the same games either way."""
    log = PlacementLog(NAMES)
    added = []
    for i in range(1, 400):
        seats = 4 if i < 200 else 2 + i % 3
        r = random.Random(i)
        seating = tuple(r.sample(NAMES, seats))
        places = tuple(r.sample(range(1, seats + 1), seats))
        scores = tuple(r.choice([0, 5, 300, -70000]) for _ in range(seats))
        slot = Slot("s", i % 3, i % 130, i * 2 ** 24)
        seed = r.getrandbits(62)
        log.add(f"g{i:06d}", seed, seating, places, scores, slot)
        added.append((f"g{i:06d}", seed, seating, places, scores, slot))
    assert [(r.game, r.seed, r.seating, r.placements, r.scores, r.slot) for r in log] == added
    lines = [GameLine(GameResult(game=g, seed=seed, ruleset="family", options={}, seating=seating, placements=places,
                                 game_placements=places, reason="out", winner=0, scores=scores,
                                 hand_points=(0,) * len(seating), rounds=1, decisions=1, moves=1, faults=(),
                                 forfeited=(), times=SeatTimes.zero(len(seating)), wall_ms=1.0), slot)
             for g, seed, seating, places, scores, slot in added]
    assert fit_ratings(log, NAMES, bootstrap=20, seed=2) == fit_ratings(lines, NAMES, bootstrap=20, seed=2)


def _writer(args: tuple[str, int]) -> None:
    out, k = args
    for i in range(40):
        append_record(out, f"w{k}-{i}", [{"t": "game", "game": f"w{k}-{i}", "pad": "x" * (i * 37)}, {"t": "end"}])


@pytest.mark.slow
def test_workers_append_records_side_by_side_and_each_reads_back_whole(tmp_path):
    with multiprocessing.get_context("fork").Pool(3) as pool:
        pool.map(_writer, [(str(tmp_path), k) for k in range(3)])
    assert len(recorded_ids(str(tmp_path))) == 120
    for k in range(3):
        for i in (0, 17, 39):
            assert read_record(str(tmp_path), f"w{k}-{i}") == [{"t": "game", "game": f"w{k}-{i}",
                                                                "pad": "x" * (i * 37)}, {"t": "end"}]
    assert read_record(str(tmp_path), "nope") is None
    import gzip  # the file is a series of gzip members: zcat reads every record

    assert gzip.open(tmp_path / "records.jsonl.gz").read().count(b'"t":"end"') == 120


@pytest.mark.slow
@pytest.mark.parametrize("ruleset, options", [("compact", []), ("family", ["-o", "target=round"]),
                                              ("arcade", ["-o", "stacking=true"])])
def test_a_rebuilt_record_is_what_the_table_wrote(tmp_path, ruleset, options):
    """Every line each seat was sent, rebuilt from games.jsonl by the referee's own table, byte for byte (the
    bot's first game: its request ids count from 1); the actions, the events and the result likewise."""
    bot = f"{PY} {ROOT / 'sample_bots' / 'python' / 'random_bot.py'}"
    out = tmp_path / "out"
    res = CliRunner().invoke(cli, ["match", "-r", ruleset, *options, "-n", "1", "--seed", "11", "--records",
                                   "--out", str(out), "--no-report", bot, "builtin:medium", "builtin:easy"])
    assert res.exit_code == 0, res.output
    recorded = read_record(str(out), "g0001")
    assert recorded is not None
    again = [json.loads(json.dumps(x)) for x in rebuilt_record(find_line(str(out), "g0001"), bot_limits(str(out)))]
    told = [line for line in sent_lines(recorded, 0) if '"type":"hello"' not in line]
    assert len(told) > 10 and list(sent_lines(again, 0)) == told
    timings = ("ms", "cpu_ms")  # how long a bot took (wall and CPU) is the one thing a rebuild cannot know
    acted = [{k: v for k, v in x.items() if k not in timings} for x in recorded if x["t"] == "action"]
    assert acted == [{k: v for k, v in x.items() if k not in timings} for x in again if x["t"] == "action"]
    for kind in ("game", "events", "result"):
        assert [x for x in recorded if x["t"] == kind] == [x for x in again if x["t"] == kind], kind


@pytest.mark.slow
def test_without_records_only_a_game_with_a_fault_keeps_its_record(tmp_path):
    bad = f"misbehave={PY} {ROOT / 'tests' / 'support' / 'fault_bots' / 'misbehave.py'} illegal"
    good = f"{PY} {ROOT / 'sample_bots' / 'python' / 'random_bot.py'}"
    out = tmp_path / "out"
    res = CliRunner().invoke(cli, ["match", "-r", "family", "-o", "target=round", "-n", "2", "--move-ms", "2000",
                                   "--out", str(out), "--no-report", bad, good])
    assert res.exit_code == 0, res.output
    lines = [json.loads(x) for x in (out / "games.jsonl").read_text().splitlines()]
    faulty = {g["game"] for g in lines if g["faults"]}
    assert faulty and recorded_ids(str(out)) == faulty
    kept = read_record(str(out), sorted(faulty)[0])
    assert any(x["t"] == "in" for x in kept)  # the exact bytes the bot sent
    clean = [g["game"] for g in lines if not g["faults"]]
    for game_id in clean:  # the others are rebuilt when asked
        assert any(x["t"] == "out" for x in record_lines(str(out), game_id))


@pytest.mark.slow
def test_a_match_stops_for_a_bot_that_cannot_start_with_its_own_error(tmp_path):
    res = CliRunner().invoke(cli, ["match", "-r", "arcade", "-n", "30", "--out", str(tmp_path / "out"), "--no-report",
                                   "./no/such/bot", "builtin:random"])
    assert res.exit_code == 1
    assert "such-bot could not start, the same way 3 times, so the run stopped early" in res.output
    assert "No such file or directory: './no/such/bot'" in res.output and "Traceback" not in res.output
    played = (tmp_path / "out" / "games.jsonl").read_text().splitlines()
    assert 3 <= len(played) < 30


def test_the_watch_wants_the_same_failure_in_a_row_from_a_bot_that_never_started():
    specs = {"p": parse_bot("p=./p", TimeLimits()), "random": parse_bot("builtin:random", TimeLimits())}
    watch = StartupWatch(specs, tries=3)

    def result(message: str | None) -> GameResult:
        faults = (Fault(FaultKind.STARTUP, message, seat=0, bot="p"),) if message else ()
        return GameResult(game="g", seed=1, ruleset="compact", options={}, seating=("p", "random"), placements=(2, 1),
                          game_placements=(2, 1), reason="out", winner=1, scores=(0, 0), hand_points=(0, 0), rounds=1,
                          decisions=1, moves=1, faults=faults, forfeited=(), times=SeatTimes.zero(2), wall_ms=1.0)

    assert watch.see(result("exited (exit code 1)")) is None
    assert watch.see(result("timed out")) is None  # not the same way: the count starts again
    assert watch.see(result("timed out")) is None
    stuck = watch.see(result("timed out (leaving processes it started that held its pipes)"))
    assert stuck is not None and stuck.bot == "p" and stuck.tries == 3
    started = StartupWatch(specs, tries=2)
    assert started.see(result(None)) is None  # it started once: later failures depend on the game
    assert started.see(result("x")) is None and started.see(result("x")) is None
    assert same_way("the bot exited during startup (exit code 2, leaving processes)") == same_way(
        "the bot exited during startup (exit code 2)")


if sys.platform != "linux":  # pragma: no cover
    pytestmark = pytest.mark.skip(reason="record appends use flock (Linux)")
