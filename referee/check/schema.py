"""Schema checks for what a bot writes: the protocol's JSON Schemas (``referee.protocol.schemas``), then the
referee's own checks of answers (``wire.answer_problem``) and of ``ready`` (``ready_problem``)."""

from __future__ import annotations

from typing import Mapping

from referee import PROTOCOL_VERSIONS
from referee.protocol.schemas import validate_message
from referee.protocol.wire import answer_problem


def from_bot_problem(msg: object) -> str | None:
    """Why ``msg`` (a message a bot wrote) does not match the protocol's schema, or ``None``."""
    problems = validate_message("from_bot", msg)
    if problems:
        return "; ".join(problems)
    if isinstance(msg, dict) and msg.get("type") in ("play", "draw", "pass", "colour"):
        return answer_problem(msg)
    if isinstance(msg, dict) and msg.get("type") == "ready":
        return ready_problem(msg)
    return None


def ready_problem(msg: Mapping[str, object]) -> str | None:
    """What the arena refuses in a ``ready`` (mirrors ``BotClient.start`` and ``schemas/ready.json``)."""
    if not isinstance(msg.get("name"), str):
        return f"'name' must be a string, got {msg.get('name')!r}"
    for key in ("author", "version"):
        if key in msg and not isinstance(msg[key], str):
            return f"'{key}' must be a string, got {msg[key]!r}"
    version = msg.get("protocol", PROTOCOL_VERSIONS[-1])
    if version not in PROTOCOL_VERSIONS or isinstance(version, bool):
        return (f"protocol version {version!r} is not supported; this referee speaks "
                f"{', '.join(map(str, PROTOCOL_VERSIONS))} (leave 'protocol' out to accept hello's)")
    return None
