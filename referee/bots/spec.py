"""How to run a bot: a command line or ``builtin:NAME``, with its limits. Plain data, so jobs can travel."""

from __future__ import annotations

import shlex
import sys
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import NotRequired, TypedDict

from referee.bots.cpuclock import Clock, parse_clock, wall_limit_ms
from referee.bots.hints import language_of
from referee.bots.sandbox import SandboxSettings
from referee.engine.jsondata import JsonObject
from referee.players import BUILTINS

BUILTIN_PREFIX = "builtin:"


#: A "limit" no practice move reaches: a day.
PRACTICE_MS = 86_400_000
#: The clock a limit is measured on unless said otherwise (docs/security.md says why).
DEFAULT_CLOCK = Clock.CPU


class LimitsJson(TypedDict):
    """``TimeLimits.to_json`` (a bot's ``limits`` in arena.json and a ``hello``'s limits share its keys)."""

    startup_ms: int
    move_ms: int
    bank_ms: int
    clock: str
    wall_ms: NotRequired[int]
    quit_ms: NotRequired[int]
    """In ``BotSpec.to_json`` only."""


class BotSpecJson(TypedDict):
    """``BotSpec.to_json``: a bot as arena.json and a job keep it."""

    name: str
    command: str
    cwd: str | None
    env: dict[str, str]
    shell: bool
    limits: LimitsJson
    line_limit: int
    restart_each_game: bool
    sandbox: dict[str, object]
    """``SandboxSettings.to_json``: its settings by name."""
    language: NotRequired[str]


@dataclass(frozen=True)
class TimeLimits:
    """Per-bot time rules, in milliseconds; ``clock`` says whether a move's limit is CPU or wall time."""

    startup_ms: int = 10_000
    move_ms: int = 1_000
    bank_ms: int = 0
    quit_ms: int = 2_000
    clock: Clock = DEFAULT_CLOCK
    #: Under ``clock: cpu``, the most wall time a move may take (``None``: ``WALL_FACTOR`` times its CPU limit).
    wall_ms: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.clock, Clock):  # "cpu" from a file or the command line
            object.__setattr__(self, "clock", parse_clock(self.clock))

    def practice(self) -> TimeLimits:
        """No clocks (a day a move): for a bot author debugging, never for a contest unless its file says so."""
        return replace(self, startup_ms=PRACTICE_MS, move_ms=PRACTICE_MS, bank_ms=0, wall_ms=None)

    def wall_limit_ms(self, cpu_limit_ms: float) -> float:
        """The wall-clock backstop of a move allowed ``cpu_limit_ms`` of CPU time."""
        return wall_limit_ms(cpu_limit_ms, self.wall_ms)

    def to_json(self) -> LimitsJson:
        out: LimitsJson = {"startup_ms": self.startup_ms, "move_ms": self.move_ms, "bank_ms": self.bank_ms,
                               "clock": self.clock.value}
        if self.wall_ms is not None:
            out["wall_ms"] = self.wall_ms
        return out


@dataclass(frozen=True)
class BotSpec:
    """One entrant: its display name and how to start it."""

    name: str
    command: str
    cwd: str | None = None
    env: tuple[tuple[str, str], ...] = ()
    shell: bool = False
    limits: TimeLimits = field(default_factory=TimeLimits)
    line_limit: int = 65_536
    restart_each_game: bool = False
    #: Walls and limits for the process (referee/bots/sandbox.py); on (``auto``) unless said otherwise.
    sandbox: SandboxSettings = field(default_factory=SandboxSettings)
    #: The language its submission folder was detected as (``python``, ``java``...); ``None``: see ``lang``.
    language: str | None = None

    @property
    def lang(self) -> str | None:
        """The bot's language for hints: the detected one, else guessed from the command (``None``: unknown)."""
        return language_of(self.command, self.cwd, self.language)

    @cached_property  # asked several times a game; a frozen spec's answer never changes
    def builtin(self) -> str | None:
        """The built-in player's name, for ``builtin:NAME``."""
        return self.command[len(BUILTIN_PREFIX):] if self.command.startswith(BUILTIN_PREFIX) else None

    @property
    def argv(self) -> list[str] | str:
        """What to execute: a shell string with ``shell``, else the command split like a shell would."""
        return self.command if self.shell else shlex.split(self.command)

    def to_json(self) -> BotSpecJson:
        limits = self.limits.to_json()
        limits["quit_ms"] = self.limits.quit_ms
        out: BotSpecJson = {"name": self.name, "command": self.command, "cwd": self.cwd, "env": dict(self.env),
                            "shell": self.shell, "limits": limits, "line_limit": self.line_limit,
                            "restart_each_game": self.restart_each_game, "sandbox": self.sandbox.to_json()}
        if self.language:
            out["language"] = self.language
        return out

    @classmethod
    def from_json(cls, data: BotSpecJson | JsonObject) -> BotSpec:
        """A spec from arena.json or a job as read (``to_json``'s keys; those missing take their defaults)."""
        limits = TimeLimits(**data.get("limits", {}))
        return cls(name=data["name"], command=data["command"], cwd=data.get("cwd"),
                   env=tuple(sorted((data.get("env") or {}).items())), shell=data.get("shell", False),
                   limits=limits, line_limit=data.get("line_limit", 65_536),
                   restart_each_game=data.get("restart_each_game", False),
                   sandbox=SandboxSettings.from_json(data.get("sandbox") or {}), language=data.get("language"))


#: The placeholder every command a person types may hold: the Python running lastcard (its venv's, with its packages).
PYTHON = "{python}"


def with_python(command: str) -> str:
    """``command`` with each ``{python}`` replaced by this Python's path, quoted as a shell word.

    Every command a person hands lastcard goes through here (``parse_bot``, an arena file's ``bots``), so a bot
    that needs lastcard's own packages (numpy for the policy bot) is written one way everywhere. Other braces are
    left as they are: a shell's ``${HOME}``, a tune's ``{param}``.
    """
    return command.replace(PYTHON, shlex.quote(sys.executable)) if PYTHON in command else command


_GENERIC = frozenset({"bot", "main", "index", "run", "player", "agent", "app", "program"})


def parse_bot(text: str, limits: TimeLimits | None = None) -> BotSpec:
    """A command-line seat: ``builtin:hard``, or a command such as ``"python3 bots/my_bot.py"``.

    The name is the built-in's name or, for a command, its last path component without extension.
    ``NAME=COMMAND`` names it explicitly. ``{python}`` is this Python (``with_python``).
    """
    text = with_python(text.strip())
    if not text:
        raise ValueError("empty bot: give builtin:NAME or a command line")
    name = None
    head, sep, rest = text.partition("=")
    if sep and head and " " not in head and "/" not in head and not head.startswith(BUILTIN_PREFIX):
        name, text = head, rest.strip()
    if text.startswith(BUILTIN_PREFIX):
        builtin = text[len(BUILTIN_PREFIX):]
        if builtin not in BUILTINS:
            raise ValueError(f"unknown built-in player {builtin!r} in {text!r}; built-ins: "
                             + ", ".join(BUILTIN_PREFIX + b for b in BUILTINS))
        return BotSpec(name or builtin, text, limits=limits or TimeLimits())
    try:
        argv = shlex.split(text)
    except ValueError as exc:
        raise ValueError(f"cannot split the bot command {text!r}: {exc}") from None
    if not argv:
        raise ValueError(f"empty bot command {text!r}")
    return BotSpec(name or command_name(argv), text, limits=limits or TimeLimits())


def command_name(argv: list[str]) -> str:
    """The name a bot's command gives it: its script's (not its interpreter's) file name without extension."""
    # The script, not the interpreter, names a bot: "python3 bots/alice.py" -> "alice".
    files = [a for a in argv[1:] if not a.startswith("-") and ("/" in a or "." in a)]
    path = (files[0] if files else argv[0]).rstrip("/").split("/")
    base = path[-1].rsplit(".", 1)[0] if "." in path[-1] else path[-1]
    # "sample_bots/js/bot.js" -> "js-bot": a generic file name says less than its folder.
    return f"{path[-2]}-{base}" if base.lower() in _GENERIC and len(path) > 1 else base


def unique_names(specs: list[BotSpec]) -> list[BotSpec]:
    """Suffix repeated names (``random``, ``random#2``) so every seat can be told apart in results."""
    seen: dict[str, int] = {}
    out = []
    for spec in specs:
        count = seen.get(spec.name, 0) + 1
        seen[spec.name] = count
        out.append(spec if count == 1 else replace(spec, name=f"{spec.name}#{count}"))
    return out
