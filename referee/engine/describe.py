"""The game in sentences for people: seats, cards, actions and engine events (the replay, a person at the table)."""

from __future__ import annotations

import json
from typing import Any, Final, Mapping, Sequence

from referee.engine.actions import Action
from referee.engine.cardfaces import colour_label, label

_REASONS = {"turn": "on their turn", "penalty": "as a penalty", "forfeit": "for the missed call"}


def seat_name(names: Sequence[str], seat: int | None) -> str:
    """``seat 2 (easy)``."""
    return "nobody" if seat is None else f"seat {seat} ({names[seat]})"


def cards_text(codes: Sequence[str], styled: bool) -> str:
    """Cards for people, comma-separated."""
    return ", ".join(label(c, styled) for c in codes) or "(none)"


def action_text(action: Action, styled: bool) -> str:
    """An action for people: ``plays ● red 7 + calls last card``, ``draws``, ``names ◆ blue``."""
    kind: str = action.kind
    if kind == "play":
        cards = [label(c, styled) for c in action.cards[:-1]]
        cards.append(label(action.cards[-1], styled, action.colour))
        return "plays " + ", ".join(cards) + (" and calls last card" if action.call else "")
    if kind == "colour":
        return "names the colour " + colour_label(action.colour, styled)
    return {"draw": "draws", "pass": "passes"}.get(kind, kind)


def describe_event(ev: Mapping[str, Any], names: Sequence[str], styled: bool) -> str:
    """One engine event (or the event part of a message) in a sentence."""
    kind = ev.get("kind") or ev.get("type")
    if kind in _ROUND_EVENTS:
        return _round_event(kind, ev, names, styled)
    who = seat_name(names, ev.get("seat")) if isinstance(ev.get("seat"), int) else ""
    if kind == "play":
        cards = [label(c, styled) for c in ev["cards"]]
        return f"{who} plays {', '.join(cards)}" + (" and calls last card" if ev.get("call") else "")
    if kind == "colour":
        return f"{who} names the colour {colour_label(ev['colour'], styled)}"
    if kind == "call":
        return f"{who} has one card left: last card! (called by the {ev.get('by', 'player')})"
    if kind == "forfeit":
        return f"{who} did not call last card and draws {ev['count']}"
    if kind == "draw":
        seen = ev.get("cards")
        reason = _REASONS.get(ev.get("reason", ""), ev.get("reason", ""))
        what = f": {cards_text(seen, styled)}" if seen is not None else ""
        return f"{who} draws {ev['count']} {reason}{what}".replace("  ", " ")
    if kind == "skip":
        return f"{who} is skipped"
    if kind == "penalty":
        if ev.get("pending"):
            return f"{label(ev['card'], styled)}: {who} faces a stacked penalty of {ev['count']}"
        return f"{label(ev['card'], styled)}: {who} must draw {ev['count']}"
    if kind == "pass":
        return f"{who} passes" + (" and keeps the drawn card" if ev.get("kept") else ": nothing to play or draw")
    return json.dumps(ev)


#: The events of the table rather than of a seat's move: ``_round_event`` says them.
_ROUND_EVENTS: Final = frozenset({"deal", "bury", "reverse", "reshuffle", "round_end", "game_end"})


def _round_event(kind: str, ev: Mapping[str, Any], names: Sequence[str], styled: bool) -> str:
    """A deal, a buried card, a change of direction, a reshuffle, or the end of a round or of the game."""
    if kind == "deal":
        return (f"round {ev['round']}: {seat_name(names, ev['dealer'])} deals; the top card is "
                f"{label(ev['top'], styled)}; {seat_name(names, ev['first'])} plays first")
    if kind == "bury":
        return f"a turned-up {label(ev['card'], styled)} is buried in the draw pile"
    if kind == "reverse":
        return "play reverses: now " + ("clockwise" if ev["direction"] == 1 else "anticlockwise")
    if kind == "reshuffle":
        return f"the discard pile is shuffled into a new draw pile of {ev['count']}"
    if kind == "round_end":
        return (f"round {ev['round']} ends ({ev['reason']}); winner {seat_name(names, ev['winner'])}; "
                f"points left {ev['points']}; scores {ev['scores']}")
    return f"game over ({ev['reason']}): places {ev['placements']}, scores {ev['scores']}"
