"""Reading a YAML file a person hands in (an arena file, a position suite, a manifest): its text through the
guarded reader (``files``), then YAML with each key's line, bounded nesting and bounded aliases.

A hostile or mistaken file must end in a ``Problem``, never a traceback or a hung referee: a
file that never ends (``/dev/zero``) stops at its kind's cap; a YAML bomb (aliases of aliases, the
"billion laughs") is refused by counting the values its aliases expand to before building them;
nesting is refused as the text is scanned, past ``MAX_DEPTH``, so no recursion runs out of stack.
"""

from __future__ import annotations

import datetime
from typing import Any, Iterable

import yaml

from referee.inputs.files import read_text as read_guarded
from referee.inputs.kinds import ARENA, MAX_DEPTH, MAX_VALUES, FileKind
from referee.inputs.problems import InputFileError, Path, Problem, format_path


def read_text(path: str, kind: FileKind = ARENA) -> tuple[str | None, list[Problem]]:
    """The file's text, or the problem that stops it being read (missing, too large, not UTF-8)."""
    try:
        return read_guarded(path, kind), []
    except InputFileError as exc:
        return None, [exc.problem]


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


class _TooDeep(Exception):
    """Nesting past ``MAX_DEPTH``, met while scanning (``mark``: where)."""

    def __init__(self, mark: yaml.Mark) -> None:
        super().__init__()
        self.mark = mark


class _Loader(yaml.SafeLoader):
    """The safe loader, refusing nesting past ``MAX_DEPTH`` as it scans: a file of 100,000 ``[`` stops at the 65th,
    before the composer's recursion or the node tree grows."""

    def fetch_flow_collection_start(self, TokenClass: Any) -> None:  # noqa: N803 - PyYAML's name
        if self.flow_level >= MAX_DEPTH:
            raise _TooDeep(self.get_mark())
        super().fetch_flow_collection_start(TokenClass)

    def add_indent(self, column: int) -> bool:
        if len(self.indents) >= MAX_DEPTH:
            raise _TooDeep(self.get_mark())
        return super().add_indent(column)


def too_deep(kind: FileKind) -> str:
    """The message for YAML nested past ``MAX_DEPTH``."""
    return f"nested more than {MAX_DEPTH} levels deep (aliases included); {kind.a} nests a few"


def load_yaml(text: str, lines: LineMap, kind: FileKind = ARENA) -> tuple[Any, list[Problem]]:
    """The file's data (JSON types only) and its early problems; data is None when it cannot be used."""
    if len(text) > kind.max_bytes:
        return None, [Problem("", kind.too_large())]
    loader: _Loader | None = None
    try:
        loader = _Loader(text)  # checks the characters first
        node = loader.get_single_node()
        if node is None:
            return None, []
        problem = check_size(node, kind)
        if problem is not None:
            return None, [problem]
        data = loader.construct_document(node)
    except _TooDeep as exc:
        return None, [Problem("", too_deep(kind), exc.mark.line + 1)]
    except yaml.reader.ReaderError as exc:
        line = text.count("\n", 0, exc.position) + 1
        return None, [Problem("", f"not valid YAML: character #x{exc.character:04x} is not allowed in YAML text "
                                  "(control characters are not); remove it", line)]
    except yaml.YAMLError as exc:
        return None, [_yaml_problem(exc)]
    except RecursionError:
        return None, [Problem("", too_deep(kind))]
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


def check_size(root: yaml.Node, kind: FileKind = ARENA) -> Problem | None:
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
                                   f"{kind.a} holds a few hundred (is it a YAML bomb?)", node.start_mark.line + 1)
            if height[key] > MAX_DEPTH:
                return Problem("", too_deep(kind), node.start_mark.line + 1)
            continue
        if key in size:
            continue
        open_.add(key)
        stack.append((node, True))
        for child in children:
            if id(child) in open_:
                return Problem("", "an alias (*name) refers to a mapping or list that contains it; "
                                   f"{kind.a} cannot be endless", child.start_mark.line + 1)
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
