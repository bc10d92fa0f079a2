"""How a line from a bot is read and judged: the one set of conversation rules, shared by the
referee's client (``match``, ``arena``) and by ``lastcard check``'s probe.

A line is read with its ``\\r`` dropped (Windows line ends are harmless, as are whitespace around
the JSON and the order of keys). A line that is not one JSON object with a string ``type`` gets a
diagnosis naming the classic mistake behind it, with the fix in the bot's language (see ``hints``):
a message pretty-printed over several lines, a byte order mark, several messages on one line, a
prompt or text before the message, JSON that is not an object, or plain debug text. The judging is
pure (bytes in, a ``LineProblem`` out) so it tests without a process; only ``gather`` reads on.
"""

from __future__ import annotations

import enum
import json
import time
from dataclasses import dataclass
from typing import Any, Callable

from referee.bots.hints import bom_hint, flush_hint, newline_hint, one_line_hint, stderr_hint
from referee.bots.pipes.transport import ReadTimeout, Transport, TransportError
from referee.protocol.faults import FaultKind
from referee.protocol.wire import JSONDecodeError, loads

BOM = b"\xef\xbb\xbf"
#: How long the lines after the first of a split message are waited for (they are written together).
GATHER_S = 0.5
#: The most lines joined to find a split message.
GATHER_LINES = 200
_EXAMPLE = '{"type":"draw","id":7}'


class Mistake(str, enum.Enum):
    """The classic stdout mistakes, each named for a student; the value is a stable word for tests and docs."""

    SPLIT = "split"
    """One message pretty-printed over several lines (the lines joined are one valid message)."""
    FRAGMENT = "fragment"
    """A line that looks like a piece of a message split over lines, the rest not (yet) seen."""
    BOM = "bom"
    """A UTF-8 byte order mark (U+FEFF) before the message."""
    SEVERAL = "several"
    """Two or more messages on one line."""
    NO_NEWLINE = "no_newline"
    """A message written without its newline, and the bot then waits."""
    NOT_OBJECT = "not_object"
    """Valid JSON that is not an object (a string, a number, a list)."""
    NO_TYPE = "no_type"
    """A JSON object without a string ``type``."""
    TEXT_BEFORE = "text_before"
    """Text (a prompt, a print without its newline) before a message on the same line."""
    DEBUG = "debug"
    """A line that is not JSON at all: a debug print."""
    BAD_LOG = "bad_log"
    """A ``log`` message without a string ``text``."""


@dataclass(frozen=True)
class LineProblem:
    """What is wrong with one line, in words for a student: ``what`` happened and how to ``fix`` it."""

    mistake: Mistake
    kind: FaultKind
    what: str
    fix: str
    line: bytes

    @property
    def message(self) -> str:
        return f"{self.what}: {self.fix}"


def read_line(transport: Transport, deadline: float) -> bytes:
    """The next line from the bot, without its ``\\r`` (a Windows line end is harmless)."""
    line = transport.read_line(deadline)
    return line[:-1] if line.endswith(b"\r") else line


def judge(line: bytes, language: str | None = None, *, before_ready: bool = False) -> dict[str, Any] | LineProblem:
    """The message on ``line`` (a JSON object with a string ``type``), or what is wrong with the line."""
    try:
        msg = loads(line)
    except JSONDecodeError:
        return diagnose(line, language, before_ready=before_ready)
    if msg.__class__ is dict and msg.get("type").__class__ is str:
        if msg["type"] == "log" and not isinstance(msg.get("text"), str):
            return LineProblem(Mistake.BAD_LOG, FaultKind.SCHEMA, "a log message needs a string 'text'",
                               '{"type":"log","text":"..."}', line)
        return msg
    return diagnose(line, language, before_ready=before_ready)


def diagnose(line: bytes, language: str | None = None, *, before_ready: bool = False) -> LineProblem:
    """Why ``line`` is not one protocol message; pure."""
    where = " before ready" if before_ready else ""
    if line.startswith(BOM):
        rest = line[len(BOM):]
        whole = isinstance(_json(rest), dict)
        return LineProblem(Mistake.BOM, FaultKind.NON_JSON,
                           f"the line{where} starts with a UTF-8 byte order mark (U+FEFF, bytes EF BB BF)"
                           + (", then a valid message" if whole else "") + "; the referee reads plain UTF-8",
                           bom_hint(language), line)
    text = line.decode("utf-8", "replace").strip()
    value = _json(line)
    if value is not _NOT_JSON:
        if isinstance(value, dict):
            return LineProblem(Mistake.NO_TYPE, FaultKind.SCHEMA,
                               f"this JSON object{where} has no string 'type'",
                               f"every message names its type, such as {_EXAMPLE}", line)
        listed = " (send the object itself, not a list holding it)" if isinstance(value, list) and value \
            and all(isinstance(v, dict) for v in value) else ""
        return LineProblem(Mistake.NOT_OBJECT, FaultKind.NON_JSON,
                           f"this line{where} is valid JSON but {_kind_of(value)}, not an object",
                           f"every message is one JSON object with a string 'type', such as {_EXAMPLE}{listed}",
                           line)
    values = _several(text)
    if values is not None:
        return LineProblem(Mistake.SEVERAL, FaultKind.NON_JSON,
                           f"{len(values)} JSON messages on one line" + where
                           + "; the referee reads one message per line", newline_hint(language), line)
    start = text.find("{")
    if start > 0 and (isinstance(_json(text[start:].encode()), dict) or _several(text[start:]) is not None):
        prefix = text[:start]
        return LineProblem(Mistake.TEXT_BEFORE, FaultKind.NON_JSON,
                           f"the line{where} starts with {prefix!r} before a JSON message: a prompt, or a print "
                           "without its newline",
                           "write nothing on stdout but the messages (Python: input() without a prompt, or "
                           "sys.stdin.readline()); " + stderr_hint(language), line)
    if _fragment(text):
        return LineProblem(Mistake.FRAGMENT, FaultKind.NON_JSON,
                           f"this line is not JSON{where}; it looks like part of one message split over several "
                           "lines (pretty-printed)", one_line_hint(language), line)
    return LineProblem(Mistake.DEBUG, FaultKind.NON_JSON,
                       f"this line{where} is not JSON (a debug print? a prompt?); stdout must carry only protocol "
                       "JSON, one object per line", stderr_hint(language), line)


def gather(first: bytes, read: Callable[[float], bytes], deadline: float,
           language: str | None = None, *, before_ready: bool = False) -> LineProblem:
    """After a ``FRAGMENT``: read the lines that follow (briefly) and say whether, joined, they are one
    message; ``read(deadline)`` gives the next line. The problem to report either way."""
    lines = [first]
    size = len(first)
    until = min(deadline, time.monotonic() + GATHER_S)
    while len(lines) < GATHER_LINES and size < 1 << 20:
        try:
            line = read(until)
        except (ReadTimeout, TransportError):
            break
        lines.append(line)
        size += len(line)
        joined = b"\n".join(lines)
        value = _json(joined)
        if value is not _NOT_JSON:
            where = " before ready" if before_ready else ""
            shown = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
            if len(shown) > 200:
                shown = shown[:200] + "..."
            first_lines = " ".join(repr(x.decode("utf-8", "replace")) for x in lines[:3])
            return LineProblem(Mistake.SPLIT, FaultKind.NON_JSON,
                               f"one message split over {len(lines)} lines{where} ({first_lines} ...): joined, the "
                               f"lines are one valid message, {shown}; the referee reads one message per line, so "
                               "the first line alone is not JSON", one_line_hint(language), joined)
        if not _fragment(line.decode("utf-8", "replace").strip()) and line.strip():
            break
    return diagnose(first, language, before_ready=before_ready)


def while_waiting(partial: bytes, lines: list[bytes] | None = None, logs: int = 0,
                  language: str | None = None) -> tuple[str, str | None]:
    """What the bot wrote on stdout while a limit was waited out, and the likely fix (``partial``: bytes
    after its last newline; ``lines``: lines that were not messages; ``logs``: log messages)."""
    if partial:
        whole = isinstance(_json(partial.rstrip(b"\r")), dict)
        shown = partial[:200].decode("utf-8", "replace")
        return (f"in that time it wrote {shown!r} without a newline"
                + (" (a whole message: the newline is missing)" if whole else ""), newline_hint(language))
    if lines:
        return (f"in that time it wrote {len(lines)} line(s) that are not protocol messages, e.g. "
                f"{lines[0][:200].decode('utf-8', 'replace')!r}", None)
    if logs:
        return f"in that time it wrote only {logs} log message(s)", None
    return ("in that time it wrote nothing on stdout (a line it printed may still be in its output buffer)",
            flush_hint(language))


def no_newline(head: bytes, language: str | None = None, *, before_ready: bool = False) -> LineProblem:
    """A whole message left without its newline (``transport.NoNewline``), named."""
    return LineProblem(Mistake.NO_NEWLINE, FaultKind.NON_JSON,
                       "the bot wrote a whole message" + (" (its ready)" if before_ready else "")
                       + " without a newline and then waited: the referee reads a message when its line ends",
                       newline_hint(language), head)


# ---------------------------------------------------------------------------------------------- helpers
_NOT_JSON = object()


def _json(data: bytes) -> Any:
    try:
        return loads(data)
    except JSONDecodeError:
        return _NOT_JSON


def _kind_of(value: Any) -> str:
    if isinstance(value, str):
        return f"a string ({value[:40]!r})"
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, (int, float)):
        return f"a number ({value})"
    return "a list"


def _several(text: str) -> list[Any] | None:
    """The values on one line holding two or more JSON values side by side (``{...}{...}``), else ``None``."""
    decoder = json.JSONDecoder()
    values = []
    i, n = 0, len(text)
    while i < n:
        while i < n and text[i] in " \t\r,":
            i += 1
        if i >= n:
            break
        try:
            value, i = decoder.raw_decode(text, i)
        except ValueError:
            return None
        values.append(value)
    if len(values) >= 2 and any(isinstance(v, dict) for v in values):
        return values
    return None


def _fragment(text: str) -> bool:
    """Whether ``text`` looks like a line of pretty-printed JSON: an opening or closing bracket, or a ``"key":``
    line."""
    if not text:
        return False
    if text in ("{", "[", "}", "]", "},", "],", "{}") or (text[0] in "{[" and not text.endswith(("}", "]"))):
        return True
    return text[0] == '"' and '":' in text.replace('" :', '":')
