"""The protocol's JSON Schemas (``protocol/schemas/*.json``), loaded from the installed package.

The referee itself checks answers with the hand-written ``wire.answer_problem`` (a general validator
costs more than a move); these schemas are the published contract, used by the tests, by tools and by
bot authors. ``$ref``\\ s between the files resolve offline through a ``referencing`` registry.

Strict mode (``strict=True``) additionally refuses properties a schema does not declare, in every
object schema that does not already say what to do with them. The published schemas let the
referee's messages grow new fields within a protocol version (bots must ignore fields they do not
know); the test suite validates the referee's output in strict mode, so that every field the referee
actually sends is documented.
"""

from __future__ import annotations

import copy
import functools
import json
from importlib import resources
from typing import Any, Final

from jsonschema import Draft202012Validator  # type: ignore[import-untyped]  # no stubs; compiled with mypyc
from jsonschema.exceptions import ValidationError  # type: ignore[import-untyped]
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

#: The base of every schema's ``$id``; a name like ``turn.json`` resolves against it.
BASE_URI: Final = "https://lastcard.invalid/schemas/"

#: Message types by direction (the types are unique across both).
TO_BOT: Final = ("hello", "start", "turn", "event", "round_end", "game_end", "error", "quit")
FROM_BOT: Final = ("ready", "log", "play", "draw", "pass", "colour")
ANSWERS: Final = ("play", "draw", "pass", "colour")

_DIRECTIONS: Final = {"to_bot": TO_BOT, "out": TO_BOT, "from_bot": FROM_BOT, "in": FROM_BOT}


def _schema_dir() -> Any:
    return resources.files("protocol").joinpath("schemas")


def schema_names() -> list[str]:
    """Every installed schema file name (``answer.json``, ``defs.json``, ...), sorted."""
    return sorted(p.name for p in _schema_dir().iterdir() if p.name.endswith(".json"))


def _file_name(name: str) -> str:
    name = name.removeprefix(BASE_URI)
    return name if name.endswith(".json") else f"{name}.json"


@functools.cache
def _load(file_name: str) -> dict[str, Any]:
    path = _schema_dir().joinpath(file_name)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise KeyError(f"no schema {file_name!r}; the schemas are: {', '.join(schema_names())}") from None
    schema: dict[str, Any] = json.loads(text)
    return schema


def load_schema(name: str) -> dict[str, Any]:
    """One schema by name (``"turn"``, ``"turn.json"`` or its ``$id``), as a fresh copy of plain data."""
    return copy.deepcopy(_load(_file_name(name)))


def _strict(node: Any) -> Any:
    """A copy of a schema in which every declared object refuses undeclared properties."""
    if isinstance(node, list):
        return [_strict(x) for x in node]
    if not isinstance(node, dict):
        return node
    out = {k: (v if k in ("const", "enum", "default", "examples") else _strict(v)) for k, v in node.items()}
    if (out.get("type") == "object" and "additionalProperties" not in out
            and "unevaluatedProperties" not in out):
        out["unevaluatedProperties"] = False
    return out


@functools.cache
def registry(strict: bool = False) -> Registry:
    """Every installed schema, by ``$id``, for resolving ``$ref`` offline."""
    resources_ = []
    for name in schema_names():
        schema = _load(name)
        if strict:
            schema = _strict(schema)
        resources_.append((schema["$id"], Resource.from_contents(schema, default_specification=DRAFT202012)))
    return Registry().with_resources(resources_)


@functools.cache
def validator(name: str, strict: bool = False) -> Draft202012Validator:
    """A validator for one schema (see ``load_schema`` for names), its ``$ref``\\ s resolved offline."""
    schema = _load(_file_name(name))
    if strict:
        schema = _strict(schema)
    return Draft202012Validator(schema, registry=registry(strict))


def _where(error: ValidationError) -> str:
    path = "$"
    for part in error.absolute_path:
        path += f"[{part}]" if isinstance(part, int) else f".{part}"
    return path


def _leaves(error: ValidationError) -> list[ValidationError]:
    """The errors that say what is wrong: inside a failed oneOf/anyOf, those of the branch meant."""
    if not error.context:
        return [error]
    branches: dict[str | int, list[ValidationError]] = {}
    for e in error.context:
        branches.setdefault(e.relative_schema_path[0], []).append(e)

    def rank(errs: list[ValidationError]) -> tuple[bool, bool, int]:
        # A branch whose discriminator ("type"/"kind" const) failed is not the one meant; nor is a
        # branch for another JSON type (null in "colour or null") when another got further.
        wrong = any(e.validator == "const" and list(e.relative_path) in (["type"], ["kind"]) for e in errs)
        other_type = all(e.validator == "type" and not e.relative_path for e in errs)
        return wrong, other_type, len(errs)

    return [leaf for e in min(branches.values(), key=rank) for leaf in _leaves(e)]


def _describe(error: ValidationError) -> str:
    text = error.message
    if len(text) > 300:
        text = text[:300] + "..."
    return f"{_where(error)}: {text}"


def validate_message(direction: str, msg: object, *, strict: bool = False) -> list[str]:
    """Why ``msg`` is not a valid message in ``direction``, one string per problem; ``[]`` when valid.

    ``direction`` is ``"to_bot"`` (referee to bot; ``"out"`` in game records) or ``"from_bot"``
    (bot to referee; ``"in"``). The message's ``type`` picks its schema.
    """
    try:
        types = _DIRECTIONS[direction]
    except KeyError:
        raise ValueError(f"direction {direction!r} is not one of {', '.join(_DIRECTIONS)}") from None
    if not isinstance(msg, dict):
        return [f"$: expected a JSON object, got {type(msg).__name__}"]
    kind = msg.get("type")
    if kind not in types:
        sender = "the referee" if types is TO_BOT else "a bot"
        return [f"$.type: {kind!r} is not a message type {sender} sends; expected one of {', '.join(types)}"]
    errors = validator(kind, strict).iter_errors(msg)
    return sorted({_describe(leaf) for e in errors for leaf in _leaves(e)})
