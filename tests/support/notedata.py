"""Games with a bot that writes debug notes (``note_bots/notes.py``), played and stored as a run stores them."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from referee.bots.pool import BotPool
from referee.bots.sandbox import Mode, SandboxSettings
from referee.bots.spec import TimeLimits, parse_bot
from referee.engine.notation import StoredGame, walk
from referee.engine.rules import get_ruleset
from referee.store.notes_file import append_notes
from referee.store.results import GameLine, GameResult
from referee.table.policy import FaultPolicy
from referee.table.table import Table, seat_for
from tests.conftest import PY, ROOT

NOTES_BOT = ROOT / "tests" / "support" / "note_bots" / "notes.py"
LIMITS = TimeLimits(startup_ms=10000, move_ms=5000, bank_ms=0, quit_ms=1000)


def play_notes(folder: Path, mode: str = "", seed: int = 7, game: str = "g1", ruleset: str = "compact",
               opponents: tuple[str, ...] = ("builtin:easy",)) -> GameResult:
    """One game of the notes bot (seat 0, ``mode``: "", "flood", "crash K") against ``opponents``, its stderr log in
    ``folder/logs`` (``--sandbox none``: the stderr timing is the referee's, not the walls')."""
    spec = replace(parse_bot(f"{PY} {NOTES_BOT} {mode}".strip(), LIMITS), name="notes",
                   sandbox=SandboxSettings(mode=Mode.NONE))
    (folder / "logs").mkdir(parents=True, exist_ok=True)
    with BotPool(stderr_dir=str(folder / "logs")) as pool:
        seats = [seat_for(spec, pool), *(seat_for(parse_bot(o), pool) for o in opponents)]
        return Table(get_ruleset(ruleset), seats, seed, game, FaultPolicy.parse("forfeit")).play()


def store_game(folder: Path, result: GameResult) -> None:
    """The game's line in games.jsonl and its notes in the notes file, as the run store writes them."""
    with open(folder / "games.jsonl", "a") as fh:
        fh.write(GameLine(result).encode().decode())
    if result.notes is not None:
        append_notes(str(folder), [result.notes])


def seat_turns(result: GameResult, seat: int) -> list[int]:
    """The turns (action indexes) where ``seat`` was asked, in order: its request ids were 1, 2, ... (a fresh
    process)."""
    stored = StoredGame(result.game, result.seed, result.ruleset, result.options, result.seating, result.actions)
    return [i for i, game, action, _ in walk(stored) if action is not None and game.current == seat]
