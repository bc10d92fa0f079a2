"""Mistakes in a file a person hands in: each a ``Problem`` (key path, line, message); an arena file's raised
together as ``ArenaFileError``, a file refused by its reader (``files``, ``jsonlines``...) as ``InputFileError``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable

from referee.errors import BAD_INPUT, LastcardError

Path = tuple[str | int, ...]
#: The longest message shown for one problem: a message quotes values, and a file's values can be long.
MAX_MESSAGE = 1000


@dataclass(frozen=True)
class Problem:
    """One mistake in an arena file: where (key path, line) and what (found, allowed)."""

    path: str
    message: str
    line: int | None = None

    def __str__(self) -> str:
        return f"{self.path or 'arena file'}: {self.located()}"

    def located(self) -> str:
        """The message (cut short when long) and its line, without the key path."""
        where = f" (line {self.line})" if self.line else ""
        message = self.message
        if len(message) > MAX_MESSAGE:
            message = f"{message[:MAX_MESSAGE - 40]}... (cut short; {len(message):,} characters)"
        return f"{message}{where}"


class InputFileError(LastcardError, ValueError):
    """A file that cannot be read as the kind it was given as: the file, the problem and the fix (exit status 2)."""

    exit_code = BAD_INPUT

    def __init__(self, source: str, problem: Problem) -> None:
        self.source = source
        self.problem = problem
        super().__init__(f"{source}: {problem.located()}")


class ArenaFileError(LastcardError, ValueError):
    """An arena file that cannot be run; ``problems`` lists every mistake found, in file order."""

    exit_code = BAD_INPUT

    def __init__(self, source: str, problems: Iterable[Problem]) -> None:
        self.source = source
        self.problems = sorted(problems, key=lambda p: (p.line or 0, p.path))
        super().__init__(self.describe())

    def describe(self) -> str:
        """Every problem, one a line, after the file's name."""
        n = len(self.problems)
        head = f"{self.source}: {n} problem{'s' if n != 1 else ''}"
        if n == 1:
            return f"{head}: {self.problems[0]}"
        return "\n".join([head + ":"] + [f"  {p}" for p in self.problems])


def format_path(path: Iterable[str | int]) -> str:
    """``("bots", 2, "command")`` -> ``bots[2].command``."""
    out = ""
    for key in path:
        if isinstance(key, int):
            out += f"[{key}]"
        else:
            out += ("." if out else "") + str(key)
    return out


class Problems:
    """The mistakes found so far, each placed at its key path's line."""

    def __init__(self, line_of: Callable[[Path], int | None], found: Iterable[Problem] = ()) -> None:
        self.line_of = line_of
        self.found: list[Problem] = list(found)

    def add(self, path: Path, message: str) -> None:
        """Record a mistake at ``path`` (its line looked up)."""
        self.found.append(Problem(format_path(path), message, self.line_of(path)))

    def __bool__(self) -> bool:
        return bool(self.found)
