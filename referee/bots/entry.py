"""A bot as a contest holds it: how to run it, plus what must happen before it can play (its build)."""

from __future__ import annotations

from dataclasses import dataclass

from referee.bots.spec import BotSpec

DEFAULT_BUILD_TIMEOUT_S = 300.0


@dataclass(frozen=True)
class Built:
    """How a bot's build step ran: its sandbox level, whether the cache had it, and the copy the bot runs from."""

    level: str
    cached: bool = False
    folder: str | None = None
    """The built copy (``None``: built in place, ``sandbox: none``)."""
    seconds: float = 0.0
    origin: str | None = None
    """The folder the copy was made from (the paths into it were moved to ``folder``)."""


@dataclass(frozen=True)
class BotEntry:
    """A bot as the arena file gives it: how to run it, plus what must happen before it can play."""

    spec: BotSpec
    origin: str
    line: int | None = None
    build: str | None = None
    build_timeout_s: float = DEFAULT_BUILD_TIMEOUT_S
    requires: tuple[str, ...] = ()
    #: Why this entrant cannot play although it is in the contest (no bot in its folder, a broken
    #: manifest): the arena leaves it out with this reason rather than stopping.
    unusable: str | None = None
    #: The submission's language, as detected (``python``, ``c``, ``manifest``...); "" when not a submission.
    language: str = ""
    #: The submission's folder or file, when the entrant is a submission.
    submission: str | None = None
    #: How its build ran, once it has (``None``: not built, or no build step).
    built: Built | None = None
    #: The id a gradebook knows the student by, when a platform's download names it (Canvas's user id, Moodle's
    #: ``Participant 205``); "" for a folder named after the student (its name is the id).
    student: str = ""
    #: The download's entries the submission was made of (``download/x_4411_99812_bot.zip and 1 more``), when
    #: they are not the folder it runs from.
    arrived: str = ""
