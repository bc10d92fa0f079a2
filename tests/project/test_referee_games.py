"""Real subprocess games: every sample bot in every ruleset, records that replay, determinism."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from referee.bots.pool import BotPool
from referee.bots.spec import TimeLimits, parse_bot
from referee.cli.main import cli
from referee.engine.rules import get_ruleset
from referee.replay.verify import replay
from referee.run.jobs import GameJob, run_job
from referee.store.record_file import recorded_ids
from referee.table.table import play_game, seat_for
from tests.conftest import PY, ROOT, resolve_sample, sample_commands

RULESETS = ["compact", "family", "arcade"]
LIMITS = TimeLimits(startup_ms=20_000, move_ms=5_000)


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("sample", list(sample_commands()))
def test_sample_bot_plays_every_ruleset_legally(sample, ruleset):
    command = resolve_sample(sample)
    bot = parse_bot(command, LIMITS)
    opts = {"target": "round"} if ruleset == "family" else {"target": 100} if ruleset == "compact" else {}
    rules = get_ruleset(ruleset, opts)
    with BotPool() as pool:
        for game in range(2):  # two games: the same process serves both
            seats = [seat_for(bot, pool), seat_for(parse_bot("builtin:hard"), pool),
                     seat_for(parse_bot("builtin:random"), pool)]
            k = game % 3
            seats = seats[k:] + seats[:k]
            result = play_game(rules, seats, seed=100 + game, game_id=f"g{game}")
            assert result["faults"] == [], result["faults"]
            assert sorted(result["placements"])[0] == 1
        assert len(pool.clients) == 1 and next(iter(pool.clients.values())).alive


@pytest.mark.slow
def test_family_house_options_with_a_bot():
    bot = parse_bot(resolve_sample("python-strong"), LIMITS)
    rules = get_ruleset("family", {"stacking": True, "draw_until_playable": True, "target": "round"})
    with BotPool() as pool:
        for seed in range(4):
            result = play_game(rules, [seat_for(bot, pool), seat_for(parse_bot("builtin:hard"), pool)], seed=seed)
            assert result["faults"] == []


def _job(seed: int, record: bool = True) -> GameJob:
    seats = (parse_bot(resolve_sample("python-random"), LIMITS), parse_bot("builtin:hard"),
             parse_bot("builtin:random"))
    rules = get_ruleset("arcade")
    return GameJob("g1", seed, rules, seats, record=record)


@pytest.mark.slow
def test_record_replays_exactly():
    with BotPool() as pool:
        result, lines = run_job(_job(7), pool)
    assert lines is not None
    kinds = {line["t"] for line in lines}
    assert {"game", "out", "in", "action", "events", "result"} <= kinds
    answered = [line for line in lines if line["t"] == "action" and line["by"] == "bot"]
    assert answered and all(line["ms"] is not None for line in answered)
    game = replay(json.loads(json.dumps(lines)))  # through JSON, as read back from disk
    assert tuple(game.result["placements"]) == result.game_placements


@pytest.mark.slow
def test_same_seed_same_game_whatever_the_process():
    with BotPool() as pool:
        a, la = run_job(_job(3), pool)
    with BotPool() as pool:
        b, lb = run_job(_job(3), pool)
    events = lambda lines: next(line["events"] for line in lines if line["t"] == "events")  # noqa: E731
    assert events(la) == events(lb)
    assert a.placements == b.placements


@pytest.mark.slow
def test_match_command_writes_standings_and_records(tmp_path):
    out = tmp_path / "m"
    res = CliRunner().invoke(cli, ["match", "-r", "arcade", "-n", "4", "--seed", "5", "--out", str(out), "--records",
                                   resolve_sample("python-random"), "builtin:hard"])
    assert res.exit_code == 0, res.output
    assert "rank" in res.output and "hard" in res.output
    doc = json.loads((out / "results.json").read_text())
    assert [r["rank"] for r in doc["standings"]] == [1, 2]
    assert {r["bot"] for r in doc["standings"]} == {"random_bot", "hard"}
    assert sum(r["games"] for r in doc["standings"]) == 8
    games = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    assert len(games) == 4
    # Seats rotate: each bot sits in seat 0 in half the games.
    assert sum(g["seating"][0] == "hard" for g in games) == 2
    assert len(recorded_ids(str(out))) == 4 and not (out / "records").exists()
    assert (out / "logs" / "random_bot.stderr.log").exists()


@pytest.mark.parametrize("args, words", [
    (["-r", "arcade", "-o", "stackin=true", "builtin:random", "builtin:hard"], "unknown option 'stackin'"),
    (["-r", "family", "-o", "target=250", "builtin:random", "builtin:hard"], "allowed: round, 200, 300, 500"),
    (["-r", "compact", "builtin:random"], "a table seats 2 to 6"),
    (["-r", "compact", "builtin:random", "builtin:nobody"], "unknown built-in player 'nobody'"),
    (["-r", "compact", "--policy", "three", "builtin:random", "builtin:hard"], "'forfeit' or 'strikes: N'"),
])
def test_match_bad_input_names_the_problem(args, words):
    res = CliRunner().invoke(cli, ["match", *args])
    assert res.exit_code == 2
    assert words in res.output


@pytest.mark.slow
def test_missing_bot_program_is_a_startup_fault_not_a_crash():
    res = CliRunner().invoke(cli, ["match", "-r", "arcade", "-n", "2", "./no/such/bot", "builtin:random"])
    # Recorded as a startup fault in every game (no traceback), and the command says the bot never ran,
    # with its own error, and fails.
    assert res.exit_code == 1, res.output
    assert "startup 2" in res.output
    assert "such-bot could not start in any of its 2 games" in res.output
    assert "No such file or directory: './no/such/bot'" in res.output


@pytest.mark.slow
def test_an_illegal_answer_is_a_recorded_fault_in_every_output(tmp_path):
    # The offending line travels as text into games.jsonl and results.json, never as raw bytes.
    bot = f"{PY} {ROOT / 'tests' / 'support' / 'fault_bots' / 'misbehave.py'} illegal"
    res = CliRunner().invoke(cli, ["match", "-r", "family", "-o", "target=round", "-n", "2", "--move-ms", "2000",
                                   "--out", str(tmp_path), bot, "builtin:random"])
    assert res.exit_code == 0, res.output
    games = [json.loads(line) for line in (tmp_path / "games.jsonl").read_text().splitlines()]
    faults = [f for g in games for f in g["faults"]]
    assert [f["kind"] for f in faults] == ["illegal", "illegal"]
    assert all(isinstance(f["line"], str) and '"wild4"' in f["line"] for f in faults)
    doc = json.loads((tmp_path / "results.json").read_text())
    assert doc["standings"][-1]["bot"] == "misbehave" and doc["standings"][-1]["faults"] == {"illegal": 2}
