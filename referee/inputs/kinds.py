"""The kinds of file a person hands in, each with its size cap, and the caps every reader shares: one definition each.

A cap is far above what a real file of the kind holds (the figure each ``FileKind`` states), so only a wrong or
hostile file meets it; each is met before the file is parsed, so a refusal costs at most one capped read.
"""

from __future__ import annotations

from dataclasses import dataclass

KIB = 1 << 10
MIB = 1 << 20

#: The deepest nesting of mappings and lists (YAML or JSON): a real file nests five or six levels, and a parser
#: or a walk over the data must never run out of stack.
MAX_DEPTH = 64
#: The most values (mappings, lists, scalars) a YAML file may hold once its aliases are expanded.
MAX_VALUES = 100_000
#: The most values one JSON line may hold (commas and brackets counted before it is parsed): a record's longest
#: line, the game's events, holds about 5,000 in 50 KB; a million is some 100 MB once parsed.
MAX_JSON_VALUES = 1_000_000
#: How many times its compressed size gzip data may inflate to (past ``GZIP_FLOOR``): a record lastcard writes
#: inflates about 14 times (``store/record_file``), a gzip bomb about a thousand.
GZIP_RATIO = 200
#: What any gzip data may inflate to, whatever its ratio: small records compress less well, and are small.
GZIP_FLOOR = 4 * MIB


@dataclass(frozen=True)
class FileKind:
    """A kind of file a person hands in: what it is called in messages, its cap, and what a real one holds."""

    name: str
    """As a message names it: ``arena file``, ``position suite``..."""
    max_bytes: int
    """The most bytes read (once inflated, for gzip): a file over it is refused unread."""
    real: str
    """What a real one holds, for the message of a file over the cap: ``an arena needs a few kilobytes``."""

    @property
    def a(self) -> str:
        """The name with its article: ``an arena file``, ``a position suite``."""
        return ("an " if self.name[0] in "aeiou" else "a ") + self.name

    def too_large(self) -> str:
        """The message for a file over ``max_bytes`` (one wording for every kind)."""
        return f"the file is larger than {size_text(self.max_bytes)}, far more than {self.real}; is it the right file?"


def size_text(size: int) -> str:
    """``1024 KiB``, ``64 MiB``, ``16.6 MiB``: a size as the messages say it (KiB up to 1 MiB)."""
    if size <= MIB:
        return f"{size // KIB} KiB"
    return f"{size // MIB} MiB" if size % MIB == 0 else f"{size / MIB:.1f} MiB"


ARENA = FileKind("arena file", MIB, "an arena needs (a few kilobytes)")
MANIFEST = FileKind("manifest", 16 * KIB, "a manifest needs (a few lines: run, build)")
SUITE = FileKind("position suite", 4 * MIB, "a suite needs (a position is a few hundred bytes)")
PARAMS = FileKind("parameter file", 256 * KIB, "a parameter file needs (a line a parameter)")
ROSTER = FileKind("roster", 4 * MIB, "a roster needs (a line a student)")
RECORD = FileKind("record file", 64 * MIB, "a game's record needs (a few hundred kilobytes; a long game of chatty "
                                            "bots a few megabytes)")
#: A student's zip or tar in a course platform's download (issue 48): the archive file itself, read before it is opened.
ARCHIVE = FileKind("submission archive", 64 * MIB, "a bot's sources need (a few hundred kilobytes; a Java or Node "
                                                   "project with its libraries a few megabytes)")
#: What one archive may unpack to, all its files together: counted as the bytes are written, so a zip whose
#: headers understate its sizes (a zip bomb) stops here too.
ARCHIVE_UNPACKED = 128 * MIB
#: The most members (files and folders) one archive may hold: a bot's folder holds tens, a project with its
#: libraries a few hundred.
ARCHIVE_MEMBERS = 5_000
#: The most folders deep a member may lie: real projects nest five or six levels (a Java package ten).
ARCHIVE_DEPTH = 32
