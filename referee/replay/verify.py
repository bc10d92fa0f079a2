"""``--verify``: replay a stored game through today's engine and name the first way it differs."""

from __future__ import annotations

import json
from typing import Any

from referee.engine.notation import InvalidReplayError, rebuild
from referee.store.game_source import SourceGame

#: Result keys compared with the replayed game, in the order a difference is reported.
COMPARED = ("game_placements", "placements", "reason", "winner", "scores", "hand_points", "points", "rounds", "moves",
            "decisions")


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
    forfeited = set(source.result.get("forfeited") or [])
    replayed: dict[str, Any] = {
        "game_placements": list(outcome.placements), "reason": outcome.reason.value, "winner": outcome.winner,
        "scores": list(outcome.scores), "hand_points": list(outcome.points), "points": list(outcome.points),
        "rounds": outcome.rounds,
        "moves": game.move, "decisions": len(source.stored.actions.split()),  # as the table reports them
    }
    if not forfeited:  # with forfeits the referee reorders places: only the game's own can be compared
        replayed["placements"] = list(outcome.placements)
    for key in COMPARED:
        if key in source.result and key in replayed and _plain(source.result[key]) != _plain(replayed[key]):
            return f"{key}: stored {source.result[key]!r}, replayed {replayed[key]!r}"  # "points": older files
    if source.events is not None:
        recorded, now = source.events, json.loads(json.dumps(game.events))
        for index, (a, b) in enumerate(zip(recorded, now)):
            if _plain(a) != _plain(b):
                return f"event {index}: recorded {json.dumps(a)}, replayed {json.dumps(b)}"
        if len(recorded) != len(now):
            return f"events: {len(recorded)} recorded, {len(now)} replayed"
    return None


def _plain(value: Any) -> str:
    # JSON turns tuples into lists and int keys (the seats under "secret") into strings: compare in that form.
    return json.dumps(value, sort_keys=True)
