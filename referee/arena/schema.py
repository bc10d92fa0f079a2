"""The arena file's JSON Schema, and its complaints reworded for people: one message per kind, in a table."""

from __future__ import annotations

import difflib
import json
from functools import lru_cache
from importlib import resources
from typing import Any, Callable, Iterable, cast

import jsonschema

from referee.inputs.problems import Path, Problem, format_path
from referee.inputs.reader import LineMap


@lru_cache(maxsize=1)
def arena_schema() -> dict[str, Any]:
    """The arena file's JSON Schema, shipped with the package (``protocol/schemas/arena.schema.json``)."""
    text = resources.files("protocol").joinpath("schemas/arena.schema.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


@lru_cache(maxsize=1)
def _validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(arena_schema())


def schema_check(data: dict[str, Any], lines: LineMap) -> tuple[list[Problem], set[Path]]:
    """The schema's problems with ``data``, and the key paths it rejected (to leave out of resolving)."""
    problems: list[Problem] = []
    bad: set[Path] = set()
    for error in _validator().iter_errors(data):
        problems.extend(describe(error, lines))
        path = tuple(error.absolute_path)
        if error.validator == "additionalProperties" and isinstance(error.instance, dict):
            allowed = error.schema.get("properties", {}) if isinstance(error.schema, dict) else {}
            bad.update(path + (k,) for k in error.instance if k not in allowed)
        else:
            bad.add(path)
    return _unique(problems), bad


def without(data: dict[str, Any], bad: set[Path]) -> dict[str, Any]:
    """``data`` minus what the schema rejected: a bad bot or stage is left out, a bad setting takes its default."""
    out = dict(data)
    for path in bad:
        if not path:
            continue
        head = path[0]
        if head in ("bots", "stages") and len(path) >= 2 and isinstance(out.get(head), list):
            out[head] = [None if i == path[1] else item for i, item in enumerate(out[head])]
        else:
            out.pop(str(head), None)
    if not isinstance(out.get("bots"), list):
        out["bots"] = []
    if "stages" in out and not isinstance(out["stages"], list):
        out.pop("stages")
    return out


def _unique(problems: Iterable[Problem]) -> list[Problem]:
    seen: dict[tuple[str, str], Problem] = {}
    for p in problems:
        seen.setdefault((p.path, p.message), p)
    return list(seen.values())


# ---------------------------------------------------------------------------------------------- messages

#: A schema complaint as what it says: (the value found, the schema's limit, the schema node) -> message.
Message = Callable[[Any, Any, dict[str, Any]], str]


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


def _enum(found: Any, allowed: Any, schema: dict[str, Any]) -> str:
    close = difflib.get_close_matches(str(found), [str(v) for v in allowed], n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    return f"{show(found)} is not one of {', '.join(map(str, allowed))}{hint}"


#: One message per kind of schema complaint about a single value.
MESSAGES: dict[str, Message] = {
    "enum": _enum,
    "const": lambda found, allowed, _: f"{show(found)} is not {allowed!r}",
    "type": lambda found, allowed, _: f"found {kind(found)}; expected {expected(allowed)}",
    "minimum": lambda found, limit, _: f"{show(found)} is less than the minimum, {limit}",
    "maximum": lambda found, limit, _: f"{show(found)} is more than the maximum, {limit}",
    "exclusiveMinimum": lambda found, limit, _: f"{show(found)} must be more than {limit}",
    "minItems": lambda found, limit, _: f"has {_plural(len(found), 'item')}; at least {limit} needed",
    "maxItems": lambda found, limit, _: f"has {_plural(len(found), 'item')}; at most {limit} allowed",
    "minLength": lambda found, limit, _: "is empty",
    "maxLength": lambda found, limit, _: f"is {len(found):,} characters long; at most {limit:,} allowed",
    "uniqueItems": lambda found, limit, _: "lists the same name twice",
    "pattern": lambda found, pattern, _: f"{show(found)} does not match {pattern!r}",
}
#: Kinds whose message a schema node may replace with its own ``x-message``.
CUSTOM = ("pattern", "const", "enum", "type")

#: What to add when a required key is missing.
REQUIRED_HINTS = {
    "command": ": give a command line, e.g. \"python3 my_bot.py\", or builtin:NAME",
    "bots": ": list the entrants, e.g. [builtin:random, \"python3 my_bot.py\"]",
    "path": ": give a glob pattern, e.g. \"students/*\"",
    "strikes": ": e.g. {strikes: 3}",
}


def describe(error: jsonschema.ValidationError, lines: LineMap) -> list[Problem]:
    """One schema complaint as problems for people (a missing or unknown key each its own)."""
    path = list(error.absolute_path)
    schema = error.schema if isinstance(error.schema, dict) else {}
    if error.validator == "required":
        return _missing(error.instance, cast("list[str]", error.validator_value), path, lines)  # "required": names
    if error.validator == "additionalProperties":
        return _unknown(error.instance, list(schema.get("properties", {})), path, lines)
    where, line = format_path(path), lines.line(path)
    if schema.get("x-message") and error.validator in CUSTOM:
        return [Problem(where, f"{show(error.instance)} {schema['x-message']}", line)]
    message = MESSAGES.get(str(error.validator))
    text = message(error.instance, error.validator_value, schema) if message else error.message
    return [Problem(where, text, line)]


def _missing(found: Any, required: Iterable[str], path: list[Any], lines: LineMap) -> list[Problem]:
    return [Problem(format_path(path + [key]), "missing" + REQUIRED_HINTS.get(key, ""), lines.line(path))
            for key in required if isinstance(found, dict) and key not in found]


def _unknown(found: Any, allowed: list[str], path: list[Any], lines: LineMap) -> list[Problem]:
    out = []
    for key in found:
        if key in allowed:
            continue
        close = difflib.get_close_matches(str(key), allowed, n=1)
        hint = f"did you mean {close[0]!r}? " if close else ""
        msg = (f"unknown key {str(key)!r}; {hint}allowed: {', '.join(allowed)}" if allowed
               else f"unknown key {str(key)!r}")
        out.append(Problem(format_path(path + [str(key)]), msg, lines.line(path + [str(key)])))
    return out


def kind(value: Any) -> str:
    """What a value is, in words, with the value: ``a string ('x')``."""
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return f"a boolean ({str(value).lower()})"
    if isinstance(value, int):
        return f"a whole number ({_short(str(value))})"
    if isinstance(value, float):
        return f"a number ({value})"
    if isinstance(value, str):
        return f"a string ({_short(repr(value))})"
    if isinstance(value, list):
        return f"a list of {len(value)}"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


_TYPE_NAMES = {"integer": "a whole number", "number": "a number", "string": "a string", "boolean": "true or false",
               "array": "a list", "object": "a mapping", "null": "nothing"}


def expected(value: str | list[str]) -> str:
    """A schema ``type`` in words."""
    names = [value] if isinstance(value, str) else list(value)
    return " or ".join(_TYPE_NAMES.get(n, n) for n in names)


def show(value: Any) -> str:
    """A value as the file would write it, cut short if long (a message must not echo a huge value)."""
    return _short(repr(value) if isinstance(value, str) else json.dumps(value, default=str))


def _short(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else f"{text[:limit - 20]}... ({len(text):,} characters)"
