"""Game records: replaying a recorded game move for move and checking it gives the recorded events."""

from __future__ import annotations

import json
import random
from typing import Any, Iterable, Mapping, Sequence

from referee.engine.actions import Action
from referee.engine.game import Game
from referee.engine.rules import get_ruleset


class ReplayMismatch(ValueError):
    """A record whose actions do not reproduce its events."""


def replay(lines: Iterable[dict[str, Any]]) -> Game:
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


def _plain(events: Sequence[Mapping[str, object]]) -> str:
    # JSON turns int keys (the seats under "secret") into strings; compare in that form.
    return json.dumps(events, sort_keys=True)
