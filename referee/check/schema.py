"""Schema checks for what a bot writes: the JSON Schemas when ``referee.bots.schemas`` is there, else the
referee's own fast check of answers (``wire.answer_problem``)."""

from __future__ import annotations

from typing import Any, Callable

from .. import PROTOCOL_VERSIONS
from ..bots.wire import answer_problem

Validator = Callable[[str, Any], Any]


def _schema_validator() -> Validator | None:
    try:
        from ..bots.schemas import validate_message  # type: ignore[import-not-found,attr-defined]
    except ImportError:
        return None
    return validate_message  # type: ignore[no-any-return]


def _as_problem(outcome: Any) -> str | None:
    """Read a validator's answer, whatever its shape: ``None``/empty means valid; text or a list says why."""
    if outcome is None or outcome is True or outcome == [] or outcome == "":
        return None
    if isinstance(outcome, str):
        return outcome
    if isinstance(outcome, (list, tuple)):
        return "; ".join(str(x) for x in outcome)
    if outcome is False:
        return "does not match the protocol schema"
    return str(outcome)


def from_bot_problem(msg: Any) -> str | None:
    """Why ``msg`` (a message a bot wrote) does not match the protocol's schema, or ``None``."""
    validate = _schema_validator()
    if validate is not None:
        try:
            problem = _as_problem(validate("from_bot", msg))
        except (ValueError, TypeError, LookupError) as exc:  # jsonschema's ValidationError is a ValueError too
            problem = getattr(exc, "message", None) or str(exc)
        if problem is not None:
            return problem
    if isinstance(msg, dict) and msg.get("type") in ("play", "draw", "pass", "colour"):
        return answer_problem(msg)
    if isinstance(msg, dict) and msg.get("type") == "ready":
        return ready_problem(msg)
    return None


def ready_problem(msg: dict[str, Any]) -> str | None:
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
