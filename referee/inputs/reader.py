"""Reading an arena file: bytes with a size cap, UTF-8 text, YAML with each key's line, bounded aliases.

A hostile or mistaken file must end in a ``Problem``, never a traceback or a hung referee: a
file that never ends (``/dev/zero``) stops at ``MAX_BYTES``; a YAML bomb (aliases of aliases, the
"billion laughs") is refused by counting the values its aliases expand to before building them;
nesting is bounded so no recursion runs out of stack.
"""

from __future__ import annotations

import datetime
from typing import Any, Iterable

import yaml

from referee.inputs.problems import Path, Problem, format_path

#: The largest arena file read; a real one is a few kilobytes.
MAX_BYTES = 1 << 20
#: The most values (mappings, lists, scalars) a file may hold once its aliases are expanded.
MAX_VALUES = 100_000
#: The deepest nesting of mappings and lists (a real file nests five or six levels).
MAX_DEPTH = 64


def read_text(path: str) -> tuple[str | None, list[Problem]]:
    """The file's text, or the problem that stops it being read (missing, too large, not UTF-8)."""
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_BYTES + 1)
    except OSError as exc:
        return None, [Problem("", f"cannot read the file: {exc.strerror or exc}")]
    if len(data) > MAX_BYTES:
        return None, [Problem("", too_large())]
    try:
        return data.decode("utf-8"), []
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        return None, [Problem("", f"not UTF-8 text: byte 0x{data[exc.start]:02x} at column {column} cannot be "
                                  "decoded; save the file as UTF-8", line)]


def too_large() -> str:
    """The message for a file over ``MAX_BYTES``."""
    return (f"the file is larger than {MAX_BYTES // 1024} KiB, far more than an arena needs (a few kilobytes); "
            "is it the right file?")


class LineMap:
    """Key path -> YAML line, built from the composed node tree (and duplicate keys, which YAML allows)."""

    def __init__(self) -> None:
        self.lines: dict[Path, int] = {}
        self.duplicates: list[Problem] = []

    def walk(self, node: yaml.Node, path: Path) -> None:
        """Record the line of ``node`` and everything under it (``check_size`` has bounded the tree)."""
        self.lines.setdefault(path, node.start_mark.line + 1)
        if isinstance(node, yaml.MappingNode):
            seen: dict[str, int] = {}
            for key_node, value_node in node.value:
                key = str(key_node.value)
                line = key_node.start_mark.line + 1
                if key in seen:
                    self.duplicates.append(Problem(format_path(path + (key,)),
                                                   f"given twice (lines {seen[key]} and {line}); keep one", line))
                seen[key] = line
                self.lines[path + (key,)] = line
                self.walk(value_node, path + (key,))
        elif isinstance(node, yaml.SequenceNode):
            for i, item in enumerate(node.value):
                self.walk(item, path + (i,))

    def line(self, path: Iterable[str | int]) -> int | None:
        """The line of ``path``, or of the nearest key above it that the file has."""
        p = tuple(k if isinstance(k, int) else str(k) for k in path)
        while p not in self.lines and p:
            p = p[:-1]
        return self.lines.get(p)


def load_yaml(text: str, lines: LineMap) -> tuple[Any, list[Problem]]:
    """The file's data (JSON types only) and its early problems; data is None when it cannot be used."""
    if len(text) > MAX_BYTES:
        return None, [Problem("", too_large())]
    loader: yaml.SafeLoader | None = None
    try:
        loader = yaml.SafeLoader(text)  # checks the characters first
        node = loader.get_single_node()
        if node is None:
            return None, []
        problem = check_size(node)
        if problem is not None:
            return None, [problem]
        data = loader.construct_document(node)
    except yaml.reader.ReaderError as exc:
        line = text.count("\n", 0, exc.position) + 1
        return None, [Problem("", f"not valid YAML: character #x{exc.character:04x} is not allowed in YAML text "
                                  "(control characters are not); remove it", line)]
    except yaml.YAMLError as exc:
        return None, [_yaml_problem(exc)]
    except RecursionError:
        return None, [Problem("", f"not valid YAML: nested too deeply (at most {MAX_DEPTH} levels)")]
    except (ValueError, TypeError, OverflowError) as exc:  # e.g. a date that is no date: 2024-13-45
        return None, [Problem("", f"not valid YAML: {exc}")]
    finally:
        if loader is not None:
            loader.dispose()
    lines.walk(node, ())
    return plain(data), lines.duplicates


def _yaml_problem(exc: yaml.YAMLError) -> Problem:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    problem = getattr(exc, "problem", None) or str(exc)
    context = getattr(exc, "context", None)
    text = f"not valid YAML: {problem}" + (f" ({context})" if context else "")
    if mark is not None:
        text += f", column {mark.column + 1}"
    return Problem("", text, mark.line + 1 if mark is not None else None)


def check_size(root: yaml.Node) -> Problem | None:
    """Refuse a node tree too deep, self-containing, or too large once aliases are expanded (a YAML bomb).

    Counts with one visit per distinct node (aliases share nodes), so a bomb is measured, not expanded.
    """
    size: dict[int, int] = {}
    height: dict[int, int] = {}
    # Iterative depth-first walk: (node, children done?); ``open_`` holds the node's ancestors.
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    open_: set[int] = set()
    while stack:
        node, done = stack.pop()
        key = id(node)
        children = _children(node)
        if done:
            open_.discard(key)
            size[key] = 1 + sum(size[id(c)] for c in children)
            height[key] = 1 + max((height[id(c)] for c in children), default=0)
            if size[key] > MAX_VALUES:
                return Problem("", f"holds more than {MAX_VALUES:,} values once its aliases (*name) are expanded; "
                                   "an arena needs a few hundred (is it a YAML bomb?)", node.start_mark.line + 1)
            if height[key] > MAX_DEPTH:
                return Problem("", f"nested more than {MAX_DEPTH} levels deep (aliases included); an arena nests a "
                                   "few", node.start_mark.line + 1)
            continue
        if key in size:
            continue
        open_.add(key)
        stack.append((node, True))
        for child in children:
            if id(child) in open_:
                return Problem("", "an alias (*name) refers to a mapping or list that contains it; "
                                   "an arena file cannot be endless", child.start_mark.line + 1)
            if id(child) not in size:
                stack.append((child, False))
    return None


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [n for pair in node.value for n in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


def plain(value: Any) -> Any:
    """YAML's data as JSON types: keys as strings, dates as their text, sets as lists, bytes as text."""
    if isinstance(value, dict):
        return {_key(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set)):
        return [plain(v) for v in value]
    if isinstance(value, (datetime.date, datetime.datetime)):
        return value.isoformat()
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return value


def _key(key: Any) -> str:
    if isinstance(key, bool):
        return str(key).lower()
    if isinstance(key, (datetime.date, datetime.datetime)):
        return key.isoformat()
    return key if isinstance(key, str) else str(key)
