"""JSON lines on the wire: a fast codec and a fast check of a bot's answer against the schema."""

from __future__ import annotations

from typing import Any

import orjson

from referee.engine.cards import _BY_CODE, ALL_COLOURS

# orjson: the referee serialises a turn request (with its legal list) and events for every seat on
# every move; orjson is several times faster than the standard json module on this hot path.
dumps = orjson.dumps
loads = orjson.loads
JSONDecodeError = orjson.JSONDecodeError


def encode(msg: dict[str, Any]) -> bytes:
    """One protocol line, newline included."""
    return orjson.dumps(msg) + b"\n"


_ANSWER_KEYS = {
    "play": {"type", "id", "cards", "colour", "call"},
    "draw": {"type", "id"},
    "pass": {"type", "id"},
    "colour": {"type", "id", "colour"},
}
_COLOURS = frozenset(ALL_COLOURS)


_PLAY_KEYS = frozenset(_ANSWER_KEYS["play"])
_BARE_KEYS = frozenset(_ANSWER_KEYS["draw"])


def answer_problem(msg: Any) -> str | None:
    """Why ``msg`` is not a schema-valid answer (mirrors ``schemas/answer.json``), or ``None``.

    Hand-written because it runs on every move and a general validator costs more than the move;
    a test checks it agrees with the JSON Schema. Well-formed answers take a short path; anything
    else goes through ``_problem``, which names what is wrong.
    """
    if msg.__class__ is dict and msg.get("id", 0).__class__ is int:
        kind = msg.get("type")
        if kind == "play" and msg.keys() <= _PLAY_KEYS:
            cards = msg.get("cards")
            colour = msg.get("colour")
            if (cards.__class__ is list and cards and msg.get("call", False).__class__ is bool
                    and (colour is None or (colour.__class__ is str and colour in _COLOURS))):
                for code in cards:
                    if code.__class__ is not str or code not in _BY_CODE:
                        break
                else:
                    return None
        elif (kind == "draw" or kind == "pass") and msg.keys() <= _BARE_KEYS:
            return None
    return _problem(msg)


def _problem(msg: Any) -> str | None:
    if not isinstance(msg, dict):
        return f"expected a JSON object, got {type(msg).__name__}"
    kind = msg.get("type")
    keys = _ANSWER_KEYS.get(kind) if isinstance(kind, str) else None
    if keys is None:
        return f"'type' must be one of play, draw, pass, colour (or log), got {kind!r}"
    extra = msg.keys() - keys
    if extra:
        return (f"unexpected field(s) {', '.join(sorted(extra))} in a {kind!r} answer; "
                f"allowed: {', '.join(sorted(keys))}")
    if "id" in msg:
        rid = msg["id"]
        # JSON Schema's "integer" includes 12.0; bool is an int subclass in Python but not in JSON.
        if isinstance(rid, bool) or not (isinstance(rid, int) or (isinstance(rid, float) and rid.is_integer())):
            return f"'id' must be an integer, got {rid!r}"
    if kind == "play":
        return _play_problem(msg)
    if kind == "colour":
        colour = msg.get("colour")
        if not (isinstance(colour, str) and colour in _COLOURS):
            return f"'colour' must be one of {', '.join(ALL_COLOURS)}, got {colour!r}"
    return None


def _play_problem(msg: dict[str, Any]) -> str | None:
    """What is wrong with the fields of a ``play`` answer (its keys are already known to be allowed)."""
    cards = msg.get("cards")
    if not isinstance(cards, list) or not cards or not all(isinstance(c, str) for c in cards):
        return f"'cards' must be a non-empty list of card codes, got {cards!r}"
    for code in cards:
        if code not in _BY_CODE:
            return (f"{code!r} is not a card code: use 'colour:rank' (ranks 0-10, skip, reverse, draw2) "
                    "or 'wild' / 'wild4'")
    colour = msg.get("colour")
    if colour is not None and not (isinstance(colour, str) and colour in _COLOURS):
        return f"'colour' must be one of {', '.join(ALL_COLOURS)}, got {colour!r}"
    if "call" in msg and not isinstance(msg["call"], bool):
        return f"'call' must be true or false, got {msg['call']!r}"
    return None
