"""The one replay checker: a stored game replayed through today's engine, compared with what was stored.

``first_difference`` is ``replay --verify``'s (a stored game: its result and recorded events, the first way
they differ); ``replay`` checks a record's lines move for move and raises ``ReplayMismatch``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable

from referee.engine.actions import Action
from referee.engine.game import Game
from referee.engine.notation import InvalidReplayError, rebuild
from referee.engine.rules import get_ruleset
from referee.errors import RUN_FAILED, LastcardError
from referee.store.game_source import SourceGame
from referee.store.record_file import RecordEntry

#: Result keys compared with the replayed game, in the order a difference is reported.
COMPARED = ("game_placements", "placements", "reason", "winner", "scores", "hand_points", "points", "rounds", "moves",
            "decisions")


class ReplayMismatch(LastcardError, ValueError):
    """A record whose actions do not reproduce its events."""

    exit_code = RUN_FAILED

    def cli_message(self) -> str:  # a stored game its replay contradicts: the run's finding
        return f"the replay differs from the record: {self}"


def replay(lines: Iterable[RecordEntry]) -> Game:
    """Rebuild the game from a record's seed, ruleset, seating and actions; check it gives the same events."""
    lines = list(lines)
    head = next((line for line in lines if line["t"] == "game"), None)
    if head is None:
        raise ReplayMismatch("the record has no 'game' line (seed, seating, ruleset)")
    rng = random.Random(head["seed"])
    game = Game(get_ruleset(head["ruleset"], head["options"]), len(head["seating"]), rng)
    for entry in lines:
        if entry["t"] != "action":
            continue
        if game.over:
            raise ReplayMismatch("the record has actions after the game ended")
        if entry["seat"] != game.current:
            raise ReplayMismatch(f"the record has seat {entry['seat']} acting where seat {game.current} is to act")
        action = Action.from_wire(entry["action"])
        game.check(action)
        game.apply(action, rng)
    recorded = next((line["events"] for line in lines if line["t"] == "events"), None)
    if recorded is not None and _plain(recorded) != _plain(game.events):
        raise ReplayMismatch("replaying the actions gives different events than the record holds")
    return game


def first_difference(source: SourceGame) -> str | None:
    """``None`` if replaying gives the stored result (and recorded events); else the first difference."""
    try:
        game, _ = rebuild(source.stored)
    except InvalidReplayError as exc:
        return str(exc)
    if not game.over:
        return f"the actions end before the game does (after {len(source.stored.actions.split())} actions)"
    outcome = game.outcome
    assert outcome is not None
    stored = source.line  # as written: older files' keys (``points``) are compared too
    forfeited = set(stored.get("forfeited") or [])
    replayed: dict[str, object] = {
        "game_placements": list(outcome.placements), "reason": outcome.reason.value, "winner": outcome.winner,
        "scores": list(outcome.scores), "hand_points": list(outcome.points), "points": list(outcome.points),
        "rounds": outcome.rounds,
        "moves": game.move, "decisions": len(source.stored.actions.split()),  # as the table reports them
    }
    if not forfeited:  # with forfeits the referee reorders places: only the game's own can be compared
        replayed["placements"] = list(outcome.placements)
    for key in COMPARED:
        if key in stored and key in replayed and _plain(stored[key]) != _plain(replayed[key]):
            return f"{key}: stored {stored[key]!r}, replayed {replayed[key]!r}"  # "points": older files
    if source.events is not None:
        recorded, now = source.events, json.loads(json.dumps(game.events))
        for index, (a, b) in enumerate(zip(recorded, now)):
            if _plain(a) != _plain(b):
                return f"event {index}: recorded {json.dumps(a)}, replayed {json.dumps(b)}"
        if len(recorded) != len(now):
            return f"events: {len(recorded)} recorded, {len(now)} replayed"
    return None


def _plain(value: object) -> str:
    # JSON turns tuples into lists and int keys (the seats under "secret") into strings: compare in that form.
    return json.dumps(value, sort_keys=True)
