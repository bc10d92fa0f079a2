"""The start-up probe runs beside an arena's first games (issue 51), and a bot it finds unable to start is left out
as the probe before the games left it: the games played meanwhile are played again without it, and the results are
those of the arena without that bot, game for game.
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli.main import cli
from referee.protocol.faults import Fault, FaultKind
from referee.run.startups import ProbeBeside
from referee.store.record_file import recorded_ids
from referee.store.results_dir import ResultsDir
from referee.store.run_store import GameStore
from tests.arena.test_bot_reports import STEADY

ARENA = """\
name: pool
seats: 2
bootstrap: 0
records: true
stages:
  - {name: league, ruleset: arcade, format: round_robin, games: 6}
  - {name: cup, ruleset: compact, format: knockout, games: 2, advance: 1}
bots:
"""
PLAYERS = ["builtin:hard", "builtin:random", "builtin:medium", "{name: steady, command: '{python} steady.py'}"]
GHOST = "{name: ghost, command: '{python} no_such_bot.py'}"


def arena_run(folder: Path, bots: list[str]) -> tuple[Path, str]:
    folder.mkdir()
    (folder / "steady.py").write_text(STEADY)
    (folder / "arena.yaml").write_text(ARENA + "".join(f"  - {b}\n" for b in bots))
    out = folder / "out"
    res = CliRunner().invoke(cli, ["arena", str(folder / "arena.yaml"), "--out", str(out), "-j", "2", "--no-report"])
    assert res.exit_code == 0, res.output
    return out, res.stderr


def games(out: Path) -> dict[str, tuple[object, ...]]:
    lines = [json.loads(x) for x in (out / "games.jsonl").read_text().splitlines()]
    return {g["game"]: (g["seating"], g["seed"], g["actions"], g["placements"]) for g in lines}


@pytest.mark.slow
def test_a_bot_that_cannot_start_is_left_out_and_the_games_are_those_of_the_arena_without_it(tmp_path):
    out, said = arena_run(tmp_path / "ghost", [*PLAYERS, GHOST])
    plain, _ = arena_run(tmp_path / "plain", PLAYERS)
    assert "left out ghost: could not start (twice, the same way): the bot exited during startup" in said
    assert "the games are played again without ghost" in said
    assert games(out) == games(plain)  # card for card, ids and seeds too: the plan of the pool without it
    doc, doc_plain = (json.loads((o / "results.json").read_text()) for o in (out, plain))
    assert doc["standings"] == doc_plain["standings"]
    assert [x["bot"] for x in doc["left_out"]] == ["ghost"]
    # Nothing of the games played before the verdict is left: records, notes and the bots' stderr logs hold only
    # the games kept (every game keeps its record here), and the probe's own log is beside them.
    assert sorted(recorded_ids(str(out))) == sorted(games(out))
    assert not (out / "logs" / "ghost.stderr.log").exists()
    assert "no_such_bot.py" in (out / "logs" / "startup" / "ghost.stderr.log").read_text()
    steady = (out / "logs" / "steady.stderr.log").read_text()
    assert steady == (plain / "logs" / "steady.stderr.log").read_text()


@pytest.mark.slow
def test_a_pool_that_starts_plays_once(tmp_path):
    out, said = arena_run(tmp_path / "plain", PLAYERS)
    assert "played again" not in said and "left out" not in said
    # Steady started in its first game: the probe had nothing to start (it starts only bots no game has started).
    assert not (out / "logs" / "startup" / "steady.stderr.log").exists()


class Ended:
    """What ``ProbeBeside.see`` reads of a game's result: who sat, and the faults."""

    def __init__(self, seating: tuple[str, ...], failed: tuple[str, ...] = ()) -> None:
        self.seating = seating
        self.faults = [Fault(FaultKind.STARTUP, "the bot exited during startup", bot=name) for name in failed]


def test_the_probe_starts_only_the_bots_no_game_has_started(tmp_path, monkeypatch):
    import referee.run.startups as startups
    from referee.bots.spec import parse_bot

    asked: list[list[str]] = []
    monkeypatch.setattr(startups, "probe", lambda specs, log_dir, workers: asked.append([s.name for s in specs]) or {})
    bots = [parse_bot("a=python3 a.py"), parse_bot("b=python3 b.py"), parse_bot("c=python3 c.py"),
            parse_bot("builtin:random")]
    # Every bot program started in a game: it is due, no bot is started again, and the verdict (none) is at once.
    probing = ProbeBeside(str(tmp_path / "s"), 2, after_s=3600)
    probing.arm()
    probing.see(Ended(("a", "random")))  # type: ignore[arg-type]
    assert not probing.due(bots)
    probing.see(Ended(("b", "c")))  # type: ignore[arg-type]
    assert probing.due(bots)
    probing.start(bots)
    assert probing.wait() == {} and asked == [] and not (tmp_path / "s").exists()
    # One failed to start in a game: due at once, for the bots no game has started (b failed, c unseen).
    probing = ProbeBeside(str(tmp_path / "t"), 2, after_s=3600)
    probing.arm()
    probing.see(Ended(("a", "b"), failed=("b",)))  # type: ignore[arg-type]
    assert probing.due(bots)
    probing.start(bots)
    assert probing.wait() == {} and asked == [["b", "c"]]
    # Its time come (after_s since the games began), with no failure: the bots not yet seen.
    probing = ProbeBeside(str(tmp_path / "u"), 2, after_s=0)
    assert not probing.due(bots)  # not armed: the games have not begun
    probing.arm()
    assert probing.due(bots)


def test_the_store_starts_over_keeping_the_build_logs(tmp_path):
    folder = ResultsDir(str(tmp_path))
    store = GameStore(str(tmp_path))
    store.prepare()
    store.start({"name": "x"})
    logs = Path(folder.logs)
    logs.mkdir()
    for name in ("a.build.log", "a.stderr.log", "b.stderr.log"):
        (logs / name).write_text("words\n")
    for name in (ResultsDir.RECORDS, ResultsDir.RECORDS_INDEX, ResultsDir.NOTES, ResultsDir.NOTES_INDEX):
        Path(folder.file(name)).write_bytes(b"x")
    store.restart([str(logs / "a.stderr.log"), str(logs / "b.stderr.log"), str(logs / "absent.stderr.log")])
    left = sorted(p.name for p in tmp_path.rglob("*") if p.is_file())
    assert left == ["a.build.log", "arena.json"]
    store.start({"name": "y"})  # open again, as new
    assert Path(folder.games).exists() and json.loads(Path(folder.run).read_text())["arena"] == {"name": "y"}
    store.close()


def test_the_probe_says_nothing_until_it_is_over(tmp_path, monkeypatch):
    import referee.run.startups as startups

    release = threading.Event()
    found = startups.CannotStart("ghost", 2, "the bot exited during startup")

    def slow_probe(specs, log_dir, workers):
        release.wait(30)
        return {"ghost": found}

    monkeypatch.setattr(startups, "probe", slow_probe)
    from referee.bots.spec import parse_bot

    probing = ProbeBeside(str(tmp_path / "s"), 2)
    assert probing.failed() == {} and probing.wait() == {}  # not started: nothing to say
    probing.start([parse_bot("ghost=python3 x.py"), parse_bot("builtin:random")])
    assert probing.started and probing.failed() == {}  # running
    release.set()
    assert probing.wait() == {"ghost": found}
    deadline = time.monotonic() + 30
    while not probing.failed() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert probing.failed() == {"ghost": found}
    only_builtins = ProbeBeside(str(tmp_path / "t"), 2)
    only_builtins.start([parse_bot("builtin:random")])  # built-ins need none: nothing started, no folder made
    assert only_builtins.wait() == {} and not (tmp_path / "t").exists()


@pytest.mark.slow
def test_too_few_bots_left_is_the_arena_files_error_and_leaves_no_game(tmp_path):
    folder = tmp_path / "few"
    folder.mkdir()
    (folder / "arena.yaml").write_text("name: few\nseats: 3\ngames: 2\nbootstrap: 0\nruleset: compact\n"
                                       f"bots: [builtin:hard, builtin:random, {GHOST}]\n")
    res = CliRunner().invoke(cli, ["arena", str(folder / "arena.yaml"), "--out", str(folder / "out"), "--no-report"])
    assert res.exit_code == 2, res.output
    assert "ghost" in res.output and "seats" in res.output
    assert not (folder / "out" / "games.jsonl").exists() or not (folder / "out" / "games.jsonl").read_text()
