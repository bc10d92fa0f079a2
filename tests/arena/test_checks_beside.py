"""The checks behind the bot reports run beside the games (issue 51), on the bots as the contest built them.

A submission whose program exists only once built (its ``lastcard.yaml`` builds ``built/bot.py``) is checked
where it was built: its report says PASSED, as its games say it plays. The hook that starts the checks is called
once, with the arena as played (the bots left out gone, the built ones with their build's folder), as the games
begin and before any is stored.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.arena import load_arena, run_arena
from referee.arena.model import Arena
from referee.cli.main import cli
from tests.arena.test_bot_reports import STEADY

pytestmark = pytest.mark.slow  # bots are processes

BOT = STEADY  # a bot that plays the first legal move
ARENA = """\
ruleset: compact
options: {target: 100}
seats: 2
bootstrap: 0
bots:
  - submissions: {path: "students/*"}
  - builtin:random
stages:
  - {name: league, format: round_robin, games: 2}
  - {name: cup, format: knockout, games: 2, advance: 1}
"""


def a_class(tmp_path: Path) -> Path:
    """A class of two: ``built`` runs a program its build makes; ``empty`` handed in nothing (left out)."""
    folder = tmp_path / "students" / "built"
    folder.mkdir(parents=True)
    (folder / "source.py").write_text(BOT)
    (folder / "lastcard.yaml").write_text('build: "mkdir -p built && cp source.py built/bot.py"\n'
                                          'run: "python3 built/bot.py"\n')
    (tmp_path / "students" / "empty").mkdir()
    (tmp_path / "arena.yaml").write_text(ARENA)
    return tmp_path / "arena.yaml"


def test_a_built_bot_is_checked_as_built_and_passes(tmp_path: Path) -> None:
    arena = a_class(tmp_path)
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["arena", str(arena), "--out", str(out), "-j", "2", "--check-games", "2"])
    assert result.exit_code == 0, result.output
    report = (out / "bots" / "built.md").read_text()
    assert "## lastcard check\n\nPASSED" in report, report  # before: "the bot exited during startup" (no built/)
    assert "checking 1 bot(s) for their reports (2 fuzz games each), beside the games" in result.output


def test_the_hook_sees_the_arena_as_played_once_before_any_game_is_stored(tmp_path: Path) -> None:
    arena = load_arena(str(a_class(tmp_path)))
    out = tmp_path / "out"
    seen: list[tuple[Arena, int]] = []

    def beside(played: Arena) -> None:
        stored = out / "games.jsonl"
        seen.append((played, len(stored.read_text().splitlines()) if stored.exists() else 0))

    run = run_arena(arena, out=str(out), jobs=2, beside=beside)
    assert run.complete and len(run.doc.standings.stages) == 2  # two stages: the executor outlives a round
    assert len(seen) == 1, "called once"
    played, stored = seen[0]
    assert stored == 0
    assert played is run.played
    assert [e.spec.name for e in played.bots] == ["built", "random"]  # the empty folder left out
    built = played.bots[0]
    assert built.built is not None and built.spec.cwd == built.built.folder  # where its build left built/bot.py
    assert [e.spec.name for e in arena.bots][:2] == ["built", "empty"]  # the arena as given is not changed
