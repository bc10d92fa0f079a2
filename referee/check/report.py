"""The report of a compliance check: one result per check, as plain data that renders as text, JSON or JUnit."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

#: Longest piece of a message or line kept in a report.
TEXT_LIMIT = 600
#: Longest request or answer kept whole in a failure (JSON and JUnit show it all; the checklist cuts it):
#: a turn request is a few kilobytes, and a bot's line is bounded by its line limit anyway.
EXCHANGE_LIMIT = 1 << 20
#: Most detail lines kept per check.
DETAILS_LIMIT = 30


class Status(str, enum.Enum):
    """How one check ended; the value is the word used in JSON and JUnit."""

    PASSED = "passed"
    """Every reply in the situation was right."""
    FAILED = "failed"
    """Something was wrong: ``problem`` says what."""
    SKIPPED = "skipped"
    """Not run (an earlier check left the bot dead or hung, or the option left it out)."""


def clip(text: str | bytes | None, limit: int = TEXT_LIMIT) -> str | None:
    """``text`` shortened for a report, saying how long it was."""
    if text is None:
        return None
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    text = text.rstrip("\n")
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} chars)"


@dataclass
class CheckResult:
    """One check: its name, its status and, when it failed, the exchange that shows why."""

    name: str
    group: str
    status: Status = Status.PASSED
    problem: str | None = None
    sent: str | None = None
    received: str | None = None
    expected: str | None = None
    elapsed_ms: float | None = None
    details: list[str] = field(default_factory=list)
    summary: str | None = None
    """A figure shown beside the name whatever the status (the time per move against the limit)."""

    @property
    def failed(self) -> bool:
        return self.status is Status.FAILED

    def fail(self, problem: str, *, sent: str | bytes | None = None, received: str | bytes | None = None,
             expected: str | None = None, elapsed_ms: float | None = None) -> None:
        """Record a failure; the first one keeps the exchange, later ones are added to ``details``."""
        if self.status is Status.FAILED:
            self.note(problem + (f" (received: {clip(received, 200)})" if received is not None else ""))
            return
        self.status = Status.FAILED
        self.problem = problem
        self.sent = clip(sent, EXCHANGE_LIMIT) if sent is not None else self.sent
        self.received = clip(received, EXCHANGE_LIMIT) if received is not None else self.received
        self.expected = expected if expected is not None else self.expected
        if elapsed_ms is not None:
            self.elapsed_ms = elapsed_ms

    def note(self, text: str) -> None:
        """Add a detail line, up to ``DETAILS_LIMIT`` of them (then only counted)."""
        if len(self.details) < DETAILS_LIMIT:
            self.details.append(text)
        elif len(self.details) == DETAILS_LIMIT:
            self.details.append("(more left out)")

    def skip(self, reason: str) -> None:
        self.status = Status.SKIPPED
        self.problem = reason

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"name": self.name, "group": self.group, "status": self.status.value}
        for key in ("problem", "sent", "received", "expected", "summary"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        if self.elapsed_ms is not None:
            out["elapsed_ms"] = round(self.elapsed_ms, 1)
        if self.details:
            out["details"] = list(self.details)
        return out


@dataclass
class Report:
    """Everything one ``lastcard check`` run found about one bot."""

    bot: str
    command: str
    rulesets: list[str]
    checks: list[CheckResult] = field(default_factory=list)
    elapsed_s: float = 0.0
    ready: dict[str, object] | None = None
    """The bot's ``ready`` as read (checked by the ``handshake`` checks)."""
    settings: dict[str, object] = field(default_factory=dict)

    def add(self, name: str, group: str) -> CheckResult:
        check = CheckResult(name, group)
        self.checks.append(check)
        return check

    def get(self, name: str) -> CheckResult:
        for check in self.checks:
            if check.name == name:
                return check
        raise KeyError(name)

    def count(self, status: Status) -> int:
        return sum(1 for c in self.checks if c.status is status)

    @property
    def ok(self) -> bool:
        """True when no check failed (skipped checks do not fail a run)."""
        return not any(c.failed for c in self.checks)

    @property
    def failed_names(self) -> list[str]:
        return [c.name for c in self.checks if c.failed]

    def to_json(self) -> dict[str, object]:
        return {
            "format": "lastcard-check", "version": 1, "ok": self.ok,
            "bot": {"name": self.bot, "command": self.command, "ready": self.ready},
            "rulesets": list(self.rulesets), "settings": dict(self.settings),
            "summary": {s.value: self.count(s) for s in Status},
            "elapsed_s": round(self.elapsed_s, 3),
            "checks": [c.to_json() for c in self.checks],
        }
