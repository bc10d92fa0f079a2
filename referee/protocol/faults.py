"""Bot faults: each a named kind, recorded as a value, never raised past the table."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Mapping, NotRequired, TypedDict, cast


class FaultKind(str, enum.Enum):
    """What a bot did wrong; the value is the name used in records and results."""

    TIMEOUT = "timeout"
    """No answer within the move limit (plus the time bank)."""
    CRASH = "crash"
    """The process exited or closed its output (exit code or signal recorded)."""
    NON_JSON = "non_json"
    """A line on stdout that is not a JSON object: usually a debug print that belongs on stderr."""
    SCHEMA = "schema"
    """A JSON object that does not match the protocol's schema for an answer."""
    ILLEGAL = "illegal"
    """A well-formed action the rules do not allow here."""
    STALE_ID = "stale_id"
    """An answer whose id is not the id of the request being answered."""
    MISSING_ID = "missing_id"
    """An answer without an id."""
    LINE_TOO_LONG = "line_too_long"
    """A line longer than the line limit."""
    STARTUP = "startup"
    """The bot did not start, or did not answer hello with a valid ready in time."""
    EARLY = "early"
    """An answer that arrived before its request was sent (the bot predicted the id instead of reading)."""


#: Faults after which the process cannot be trusted to be in step: it is killed (and restarted next game).
KILL_KINDS = frozenset({FaultKind.TIMEOUT, FaultKind.CRASH, FaultKind.NON_JSON, FaultKind.LINE_TOO_LONG,
                        FaultKind.STARTUP})


#: Longest piece of an offending line kept in a record.
SNIPPET = 300


def snippet(line: bytes | str | None) -> str | None:
    """The offending line, truncated for records and reports."""
    if line is None:
        return None
    text = line.decode("utf-8", "replace") if isinstance(line, bytes) else line
    return text if len(text) <= SNIPPET else text[:SNIPPET] + f"... ({len(text)} chars)"


class FaultJson(TypedDict):
    """A fault as games.jsonl and results.json keep it (``Fault.to_json``): the request as its id and type."""

    kind: str
    message: str
    line: NotRequired[str]
    request_id: NotRequired[int | None]
    request_type: NotRequired[str | None]
    elapsed_ms: NotRequired[float]
    seat: NotRequired[int]
    bot: NotRequired[str]


@dataclass(frozen=True, slots=True)
class Fault:
    """One fault: its kind, what was wrong, the offending line, the request it answered and the time taken."""

    kind: FaultKind
    message: str
    line: str | None = None
    request: Mapping[str, object] | None = None
    """The request answered (the message as sent, or its ``id`` and ``type`` as read back)."""
    elapsed_ms: float | None = None
    seat: int | None = None
    bot: str | None = None

    def to_json(self) -> FaultJson:
        out: FaultJson = {"kind": self.kind.value, "message": self.message}
        if self.line is not None:
            out["line"] = self.line
        if self.request is not None:
            out["request_id"] = cast("int | None", self.request.get("id"))
            out["request_type"] = cast("str | None", self.request.get("type"))
        if self.elapsed_ms is not None:
            out["elapsed_ms"] = round(self.elapsed_ms, 3)
        if self.seat is not None:
            out["seat"] = self.seat
        if self.bot is not None:
            out["bot"] = self.bot
        return out

    def with_context(self, *, seat: int | None = None, bot: str | None = None) -> Fault:
        return Fault(self.kind, self.message, self.line, self.request, self.elapsed_ms,
                     seat if seat is not None else self.seat, bot if bot is not None else self.bot)


class BotFault(Exception):
    """Internal: carries a ``Fault`` out of the conversation code to the table, which records it."""

    def __init__(self, fault: Fault) -> None:
        super().__init__(fault.message)
        self.fault = fault
