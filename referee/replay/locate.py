"""Where a stored game's faults happened: the one fault locator every surface asks.

``replay`` marks a fault at its turn, the report links to it, a bot's report and ``check``'s fuzz games
print the ``replay --ask`` command that puts a bot of today there: all through ``turn_of_faults``.
A results line keeps a fault's seat and kind but not its turn; the turn is found from the actions the
referee played in the seat's place (marked ``!`` in the stored actions).
"""

from __future__ import annotations

from typing import Callable, Collection

from referee.engine.notation import InvalidReplayError, walk
from referee.store.game_source import SourceGame, stored_for
from referee.store.results import complete_line
from referee.store.results_dir import ResultsDir

#: Given the turns a caller asks about, the seat to act at each (a caller that knows them saves a replay).
SeatsOf = Callable[[list[int]], dict[int, int]]

#: A fault as a bot's report looks it up: (game, seat, request id, kind).
FaultKey = tuple[str, "int | None", object, str]


def turn_of_faults(source: SourceGame, seats_of: SeatsOf | None = None) -> list[int | None]:
    """For each fault of the stored result, in order, the turn (action index) where it happened.

    A fault recorded with its ``turn`` is placed there; otherwise at the faulting seat's first stand-in
    action not yet claimed (a replacement, or the first fallback move after a forfeit; a startup fault
    lands on the seat's first turn). ``None`` for a fault that no action stood in for. ``seats_of`` gives
    the seat to act at some turns when the caller knows them already (else the game is replayed for them).
    """
    faults = source.faults
    if not faults:
        return []
    marked = [i for i, token in enumerate(source.stored.actions.split()) if token.endswith("!")]
    seats = (seats_of or (lambda turns: seat_of_turns(source, turns)))(marked)
    out: list[int | None] = []
    claimed: set[int] = set()
    for fault in faults:
        turn = next((t for t in marked if seats.get(t) == fault.seat and t not in claimed), None)
        if turn is not None:
            claimed.add(turn)
        out.append(turn)
    return out


def fault_turns(source: SourceGame, seats_of: SeatsOf | None = None) -> dict[int, str]:
    """Turn index -> the fault that happened there, as ``kind: message``."""
    return {turn: f"{fault.kind.value}: {fault.message}"
            for fault, turn in zip(source.faults, turn_of_faults(source, seats_of)) if turn is not None}


def seat_faults(source: SourceGame, seat: int) -> list[int | None]:
    """The turn of each of ``seat``'s faults, in the order the game recorded them."""
    return [turn for fault, turn in zip(source.faults, turn_of_faults(source)) if fault.seat == seat]


def faults_in(out_dir: str, games: Collection[str]) -> dict[FaultKey, int | None]:
    """The turn of each fault of the named games of a results folder, keyed by (game, seat, request id, kind).

    games.jsonl is read once, whatever the number of games.
    """
    out: dict[FaultKey, int | None] = {}
    folder = ResultsDir(out_dir)
    path = folder.games
    wanted = set(games)
    if not wanted or not folder.has_games():
        return out
    defaults = folder.line_defaults()
    for _, line in folder.games_log.lines():
        game = line.get("game")
        if game not in wanted:
            continue
        try:
            line = complete_line(line, defaults)
            source = SourceGame(stored_for(out_dir, line), line, None, out_dir, path)
            for fault, turn in zip(source.faults, turn_of_faults(source)):
                out[(str(game), fault.seat, (fault.request or {}).get("id"), fault.kind.value)] = turn
        except InvalidReplayError:
            continue
    return out


def seat_of_turns(source: SourceGame, turns: list[int]) -> dict[int, int]:
    """The seat to act at each of ``turns`` (the game replayed up to the last of them)."""
    wanted = set(turns)
    out = {}
    for i, game, _action, _stand_in in walk(source.stored):
        if i in wanted:
            out[i] = game.current
    return out
