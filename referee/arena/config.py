"""Arena files: YAML in, a validated ``Arena`` out.

Every mistake is a ``Problem`` with its key path (``bots[2].command``), the YAML line, what was
found and what is allowed; all of them are collected and raised together as ``ArenaFileError``
before anything runs. This module never imports click: the command line turns the error into a
message and exit code 2.
"""

from __future__ import annotations

import difflib
import fnmatch
import glob
import json
import math
import os
import re
import shlex
import string
import sys
from dataclasses import dataclass, field, replace
from functools import lru_cache
from importlib import resources
from typing import Any, Iterable, Mapping

import jsonschema
import yaml

from ..bots.sandbox import SandboxSettings, settings_from
from ..bots.spec import BUILTIN_PREFIX, BotSpec, TimeLimits, parse_bot, unique_names
from ..players import BUILTINS
from ..rules import RulesetError, get_ruleset
from ..policy import FaultPolicy

FORMATS = ("round_robin", "gauntlet", "sampled", "knockout")
#: Keys a stage takes; at the top level they are every stage's defaults.
STAGE_KEYS = ("ruleset", "options", "seats", "format", "games", "duplicate", "challengers", "advance", "final_games")
#: Keys that only mean something for one format.
FORMAT_KEYS = {"challengers": "gauntlet", "advance": "knockout", "final_games": "knockout"}
DEFAULT_BUILD_TIMEOUT_S = 300.0
DEFAULT_BOOTSTRAP = 200
#: Placeholders a command, cwd or build template may use.
PLACEHOLDERS = {"bot": ("python",), "submissions": ("python", "path", "name")}

Path = tuple[str | int, ...]


@dataclass(frozen=True)
class Problem:
    """One mistake in an arena file: where (key path, line) and what (found, allowed)."""

    path: str
    message: str
    line: int | None = None

    def __str__(self) -> str:
        where = f" (line {self.line})" if self.line else ""
        return f"{self.path or 'arena file'}: {self.message}{where}"


class ArenaFileError(ValueError):
    """An arena file that cannot be run; ``problems`` lists every mistake found, in file order."""

    def __init__(self, source: str, problems: Iterable[Problem]) -> None:
        self.source = source
        self.problems = sorted(problems, key=lambda p: (p.line or 0, p.path))
        super().__init__(self.describe())

    def describe(self) -> str:
        n = len(self.problems)
        head = f"{self.source}: {n} problem{'s' if n != 1 else ''}"
        if n == 1:
            return f"{head}: {self.problems[0]}"
        return "\n".join([head + ":"] + [f"  {p}" for p in self.problems])


@dataclass(frozen=True)
class BotEntry:
    """A bot as the arena file gives it: how to run it, plus what must happen before it can play."""

    spec: BotSpec
    origin: str
    line: int | None = None
    build: str | None = None
    build_timeout_s: float = DEFAULT_BUILD_TIMEOUT_S
    requires: tuple[str, ...] = ()


@dataclass(frozen=True)
class Stage:
    """One stage of an arena: a format played under one ruleset by the top ``entrants`` so far."""

    name: str
    ruleset: str
    options: tuple[tuple[str, Any], ...]
    seats: int
    format: str
    games: int
    duplicate: bool = False
    entrants: int | None = None
    challengers: tuple[str, ...] = ()
    advance: int = 1
    final_games: int | None = None
    path: str = ""
    line: int | None = None
    #: Where each key the pool checks look at was given: key -> (key path, line).
    where: tuple[tuple[str, str, int | None], ...] = field(default=(), compare=False)

    def locate(self, key: str) -> tuple[str, int | None]:
        """The key path and line to blame for ``key`` of this stage."""
        for k, path, line in self.where:
            if k == key:
                return path, line
        return (f"{self.path}.{key}" if self.path else key), self.line

    @property
    def deals_per_table(self) -> int:
        """With ``duplicate``: the deals each table plays (each replayed once per seat)."""
        return max(1, self.games // self.seats)

    def to_json(self) -> dict[str, Any]:
        """The stage as results.json and arena.json show it."""
        out: dict[str, Any] = {"name": self.name, "format": self.format, "ruleset": self.ruleset,
                               "options": dict(self.options), "seats": self.seats, "games": self.games,
                               "duplicate": self.duplicate}
        if self.entrants is not None:
            out["entrants"] = self.entrants
        if self.format == "gauntlet":
            out["challengers"] = list(self.challengers)
        if self.format == "knockout":
            out["advance"] = self.advance
            out["final_games"] = self.final_games or self.games
        return out


@dataclass(frozen=True)
class Arena:
    """A validated arena: plain data, everything resolved (paths absolute, rulesets checked)."""

    name: str
    source: str
    base_dir: str
    out: str
    seed: int
    stages: tuple[Stage, ...]
    bots: tuple[BotEntry, ...]
    policy: str = "forfeit"
    jobs: int | None = None
    records: bool = False
    bootstrap: int = DEFAULT_BOOTSTRAP
    rank_by: str = "rating"
    description: str = ""

    @property
    def specs(self) -> list[BotSpec]:
        """How to run each bot."""
        return [b.spec for b in self.bots]

    def with_bots(self, bots: Iterable[BotEntry]) -> Arena:
        """The same arena with another pool (after builds have left some bots out)."""
        return replace(self, bots=tuple(bots))

    def to_json(self) -> dict[str, Any]:
        """What decides the games (not where output goes or how many workers): the resume fingerprint's input."""
        return {"name": self.name, "seed": self.seed, "policy": self.policy, "rank_by": self.rank_by,
                "bootstrap": self.bootstrap, "records": self.records,
                "stages": [s.to_json() for s in self.stages], "bots": [b.spec.to_json() for b in self.bots]}


# ---------------------------------------------------------------------------------------------- loading

@lru_cache(maxsize=1)
def arena_schema() -> dict[str, Any]:
    """The arena file's JSON Schema, shipped with the package (``protocol/schemas/arena.schema.json``)."""
    return json.loads(resources.files("protocol").joinpath("schemas/arena.schema.json").read_text("utf-8"))


def load_arena(path: str) -> Arena:
    """Read, check and resolve an arena file; raises ``ArenaFileError`` listing every mistake."""
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except OSError as exc:
        raise ArenaFileError(path, [Problem("", f"cannot read the file: {exc.strerror or exc}")]) from None
    return parse_arena(text, source=path)


def parse_arena(text: str | Mapping[str, Any], source: str = "<arena>", base_dir: str | None = None) -> Arena:
    """An ``Arena`` from YAML text (or already-parsed data); relative paths start at the file's folder."""
    lines = _LineMap()
    early: list[Problem] = []
    if isinstance(text, str):
        data, early = _load_yaml(text, lines)
        if data is None and early:
            raise ArenaFileError(source, early)
    else:
        data = json.loads(json.dumps(text))
    if data is None:
        raise ArenaFileError(source, [Problem("", "the file is empty; an arena needs at least bots (see docs/arena.md)")])
    if not isinstance(data, dict):
        raise ArenaFileError(source, [Problem("", f"expected a mapping of keys (name, ruleset, bots, ...), "
                                                  f"found {_kind(data)}", 1)])
    problems, bad = _schema_check(data, lines)
    problems = early + problems
    folder = base_dir or (os.path.dirname(os.path.abspath(source)) if not source.startswith("<") else os.getcwd())
    # Check what the schema did not object to as well, so one run reports (nearly) every mistake.
    return _Resolver(_without(data, bad), lines, source, folder, problems).resolve()


def _schema_check(data: dict[str, Any], lines: _LineMap) -> tuple[list[Problem], set[Path]]:
    validator = jsonschema.Draft202012Validator(arena_schema())
    problems: list[Problem] = []
    bad: set[Path] = set()
    for error in validator.iter_errors(data):
        problems.extend(_describe(error, lines))
        path = tuple(error.absolute_path)
        if error.validator == "additionalProperties" and isinstance(error.instance, dict):
            allowed = error.schema.get("properties", {}) if isinstance(error.schema, dict) else {}
            bad.update(path + (k,) for k in error.instance if k not in allowed)
        else:
            bad.add(path)
    return _unique(problems), bad


def _without(data: dict[str, Any], bad: set[Path]) -> dict[str, Any]:
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


def _load_yaml(text: str, lines: _LineMap) -> tuple[Any, list[Problem]]:
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        problem = getattr(exc, "problem", None) or str(exc)
        context = getattr(exc, "context", None)
        text_ = f"not valid YAML: {problem}" + (f" ({context})" if context else "")
        if mark is not None:
            text_ += f", column {mark.column + 1}"
        return None, [Problem("", text_, mark.line + 1 if mark is not None else None)]
    except RecursionError:
        return None, [Problem("", "not valid YAML: nested too deeply")]
    if node is not None:
        lines.walk(node, ())
    return data, lines.duplicates


class _LineMap:
    """Key path -> YAML line, built from the composed node tree (and duplicate keys, which YAML allows)."""

    def __init__(self) -> None:
        self.lines: dict[Path, int] = {}
        self.duplicates: list[Problem] = []

    def walk(self, node: yaml.Node, path: Path) -> None:
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
        p = tuple(k if isinstance(k, int) else str(k) for k in path)
        while p not in self.lines and p:
            p = p[:-1]
        return self.lines.get(p)


def format_path(path: Iterable[str | int]) -> str:
    """``("bots", 2, "command")`` -> ``bots[2].command``."""
    out = ""
    for key in path:
        if isinstance(key, int):
            out += f"[{key}]"
        else:
            out += ("." if out else "") + str(key)
    return out


# ---------------------------------------------------------------------------------------------- schema

def schema_problems(data: Any, lines: _LineMap | None = None) -> list[Problem]:
    """The JSON Schema's complaints about ``data``, each reworded for people."""
    return _schema_check(data, lines or _LineMap())[0]


def _unique(problems: Iterable[Problem]) -> list[Problem]:
    seen: dict[tuple[str, str], Problem] = {}
    for p in problems:
        seen.setdefault((p.path, p.message), p)
    return list(seen.values())


def _describe(error: jsonschema.ValidationError, lines: _LineMap) -> list[Problem]:
    path = list(error.absolute_path)
    where = format_path(path)
    line = lines.line(path)
    inst = error.instance
    value = error.validator_value
    schema = error.schema if isinstance(error.schema, dict) else {}
    kind = error.validator
    if schema.get("x-message") and kind in ("pattern", "const", "enum", "type"):
        return [Problem(where, f"{_show(inst)} {schema['x-message']}", line)]
    if kind == "required":
        out = []
        for key in value:
            if isinstance(inst, dict) and key not in inst:
                hint = _REQUIRED_HINTS.get(key, "")
                out.append(Problem(format_path(path + [key]), "missing" + hint, line))
        return out
    if kind == "additionalProperties":
        allowed = list(schema.get("properties", {}))
        out = []
        for key in inst:
            if key in allowed:
                continue
            close = difflib.get_close_matches(str(key), allowed, n=1)
            hint = f"did you mean {close[0]!r}? " if close else ""
            where_key = format_path(path + [str(key)])
            if allowed:
                msg = f"unknown key {str(key)!r}; {hint}allowed: {', '.join(allowed)}"
            else:
                msg = f"unknown key {str(key)!r}"
            out.append(Problem(where_key, msg, lines.line(path + [str(key)])))
        return out
    if kind == "enum":
        close = difflib.get_close_matches(str(inst), [str(v) for v in value], n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        return [Problem(where, f"{_show(inst)} is not one of {', '.join(map(str, value))}{hint}", line)]
    if kind == "const":
        return [Problem(where, f"{_show(inst)} is not {value!r}", line)]
    if kind == "type":
        return [Problem(where, f"found {_kind(inst)}; expected {_expected(value)}", line)]
    if kind == "minimum":
        return [Problem(where, f"{_show(inst)} is less than the minimum, {value}", line)]
    if kind == "maximum":
        return [Problem(where, f"{_show(inst)} is more than the maximum, {value}", line)]
    if kind == "exclusiveMinimum":
        return [Problem(where, f"{_show(inst)} must be more than {value}", line)]
    if kind == "minItems":
        return [Problem(where, f"has {len(inst)} item{'s' if len(inst) != 1 else ''}; at least {value} needed", line)]
    if kind == "minLength":
        return [Problem(where, "is empty", line)]
    if kind == "uniqueItems":
        return [Problem(where, "lists the same name twice", line)]
    if kind == "pattern":
        return [Problem(where, f"{_show(inst)} does not match {value!r}", line)]
    return [Problem(where, error.message, line)]


_REQUIRED_HINTS = {
    "command": ": give a command line, e.g. \"python3 my_bot.py\", or builtin:NAME",
    "bots": ": list the entrants, e.g. [builtin:random, \"python3 my_bot.py\"]",
    "path": ": give a glob pattern, e.g. \"students/*\"",
    "strikes": ": e.g. {strikes: 3}",
}


def _kind(value: Any) -> str:
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return f"a boolean ({str(value).lower()})"
    if isinstance(value, int):
        return f"a whole number ({value})"
    if isinstance(value, float):
        return f"a number ({value})"
    if isinstance(value, str):
        return f"a string ({value!r})"
    if isinstance(value, list):
        return f"a list of {len(value)}"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


_TYPE_NAMES = {"integer": "a whole number", "number": "a number", "string": "a string", "boolean": "true or false",
               "array": "a list", "object": "a mapping", "null": "nothing"}


def _expected(value: str | list[str]) -> str:
    names = [value] if isinstance(value, str) else list(value)
    words = [_TYPE_NAMES.get(n, n) for n in names]
    return " or ".join(words)


def _show(value: Any) -> str:
    return repr(value) if isinstance(value, str) else json.dumps(value)


# ---------------------------------------------------------------------------------------------- resolving

class _Resolver:
    """Turns checked data (what the schema rejected taken out) into an ``Arena``, collecting the mistakes a
    schema cannot see."""

    def __init__(self, data: dict[str, Any], lines: _LineMap, source: str, folder: str,
                 problems: list[Problem]) -> None:
        self.data = data
        self.lines = lines
        self.source = source
        self.problems: list[Problem] = list(problems)
        base = data.get("base_dir", ".")
        self.base_dir = os.path.normpath(os.path.join(folder, os.path.expanduser(base)))
        if not os.path.isdir(self.base_dir):
            self.problem(("base_dir",), f"directory {self.base_dir!r} does not exist")

    def problem(self, path: Path, message: str) -> None:
        self.problems.append(Problem(format_path(path), message, self.lines.line(path)))

    def resolve(self) -> Arena:
        data = self.data
        limits = _limits(data.get("limits") or {}, TimeLimits())
        self.sandbox = self.sandbox_settings(data, (), SandboxSettings())
        bots = self.bots(limits)
        names = [b.spec.name for b in bots]
        stages = self.stages()
        name = data.get("name") or os.path.splitext(os.path.basename(self.source))[0] or "arena"
        out = os.path.normpath(os.path.join(self.base_dir, data.get("out") or os.path.join("results", _slug(name))))
        jobs = data.get("jobs")
        arena = Arena(
            name=name, source=self.source, base_dir=self.base_dir, out=out, seed=data.get("seed", 1),
            stages=tuple(stages), bots=tuple(bots), policy=FaultPolicy.parse(data.get("policy", "forfeit")).to_json(),
            jobs=None if jobs in (None, "auto") else int(jobs), records=bool(data.get("records", False)),
            bootstrap=data.get("bootstrap", DEFAULT_BOOTSTRAP), rank_by=data.get("rank_by", "rating"),
            description=data.get("description", ""))
        if not self.problems:
            self.problems.extend(pool_problems(arena, names))
        if self.problems:
            raise ArenaFileError(self.source, self.problems)
        return arena

    # ------------------------------------------------------------------ stages
    def stages(self) -> list[Stage]:
        data = self.data
        top = {k: data[k] for k in STAGE_KEYS if k in data}
        raw = data.get("stages") or [{}]
        out = []
        names: dict[str, int] = {}
        for i, st in enumerate(raw):
            path: Path = ("stages", i) if "stages" in data else ()
            if st is None:  # the schema already said what is wrong with it
                continue
            merged = {**top, **st}
            if "options" in top and "options" in st:
                merged["options"] = {**top["options"], **st["options"]}
            ruleset = merged.get("ruleset", "compact")
            fmt = merged.get("format", "round_robin")
            seats = merged.get("seats", 4)
            games = merged.get("games", seats)
            name = st.get("name") or (f"stage {i + 1}" if len(raw) > 1 else (data.get("name") or "main"))
            if name in names:
                self.problem(path + ("name",), f"{name!r} is also the name of stages[{names[name]}]; stage names "
                                               "must differ")
            names[name] = i
            options = self.options(ruleset, merged.get("options") or {}, st, path)
            for key, wanted in FORMAT_KEYS.items():
                if key in merged and fmt != wanted:
                    where = path + (key,) if key in st else (key,)
                    self.problem(where, f"only means something with format {wanted}; this stage's format is {fmt}")
            duplicate = bool(merged.get("duplicate", False))
            if duplicate and fmt != "sampled" and games % seats:
                where = path + ("games",) if "games" in st else ("games",) if "games" in data else path or ("duplicate",)
                self.problem(where, f"{games} games is not a multiple of seats ({seats}), which duplicate: true needs "
                                    "(each deal is replayed once per seat); try "
                                    f"{max(seats, games // seats * seats)} or {(games // seats + 1) * seats}")
            final_games = merged.get("final_games")
            if duplicate and fmt == "knockout" and final_games and final_games % seats:
                where = path + ("final_games",) if "final_games" in st else ("final_games",)
                self.problem(where, f"{final_games} games is not a multiple of seats ({seats}), which duplicate: "
                                    "true needs (each deal is replayed once per seat)")
            advance = merged.get("advance", max(1, seats // 2))
            if fmt == "knockout" and advance >= seats:
                where = path + ("advance",) if "advance" in st else ("advance",) if "advance" in data else path
                self.problem(where, f"{advance} places advance from a table of {seats}: at most {seats - 1} may, or "
                                    "nobody is knocked out")
            if i == 0 and "entrants" in st:
                self.problem(path + ("entrants",), "the first stage has no standings to take the top entrants "
                                                   "from; every bot plays it (leave entrants out)")
            located: list[tuple[str, str, int | None]] = []
            for key in ("seats", "challengers", "entrants", "games"):
                key_path = path + (key,) if key in st else (key,) if key in data else path + (key,)
                located.append((key, format_path(key_path), self.lines.line(key_path) or self.lines.line(path) or None))
            out.append(Stage(name=name, ruleset=ruleset, options=options, seats=seats, format=fmt, games=games,
                             duplicate=duplicate, entrants=st.get("entrants"),
                             challengers=tuple(merged.get("challengers", ())), advance=advance,
                             final_games=merged.get("final_games"), path=format_path(path),
                             line=self.lines.line(path) if path else None, where=tuple(located)))
        return out

    def options(self, ruleset: str, options: dict[str, Any], stage: dict[str, Any], path: Path) -> tuple:
        bad = False
        for key, value in options.items():
            where = path + ("options", key) if key in (stage.get("options") or {}) else ("options", key)
            try:
                get_ruleset(ruleset, {key: value})
            except RulesetError as exc:
                self.problem(where, str(exc))
                bad = True
        if bad:
            return ()
        try:
            return tuple(get_ruleset(ruleset, options).options.items())
        except RulesetError as exc:
            self.problem(path + ("options",) if path else ("options",), str(exc))
            return ()

    # ------------------------------------------------------------------ bots
    def bots(self, limits: TimeLimits) -> list[BotEntry]:
        entries: list[BotEntry] = []
        explicit: dict[str, Path] = {}
        default_timeout = float(self.data.get("build_timeout_s", DEFAULT_BUILD_TIMEOUT_S))
        for i, item in enumerate(self.data["bots"]):
            path: Path = ("bots", i)
            if item is None:  # the schema already said what is wrong with it
                continue
            if isinstance(item, str):
                spec = self.command(item, path, limits, {"python": sys.executable})
                if spec is not None:
                    spec = self.placed(spec, None, path)
                    entries.append(BotEntry(spec, format_path(path), self.lines.line(path)))
            elif "submissions" in item:
                entries.extend(self.submissions(item["submissions"], path + ("submissions",), limits, explicit,
                                                default_timeout))
            else:
                entry = self.bot(item, path, limits, default_timeout)
                if entry is not None:
                    if "name" in item:
                        self.claim(explicit, entry.spec.name, path + ("name",))
                    entries.append(entry)
        # Derived names may repeat (two builtin:random): suffix them; explicit names must be unique.
        specs = unique_names([e.spec for e in entries])
        return [replace(e, spec=s) for e, s in zip(entries, specs)]

    def claim(self, explicit: dict[str, Path], name: str, path: Path) -> None:
        if name in explicit:
            self.problem(path, f"{name!r} is also the name of {format_path(explicit[name][:2])}; bot names must differ")
        else:
            explicit[name] = path

    def bot(self, item: dict[str, Any], path: Path, limits: TimeLimits, default_timeout: float) -> BotEntry | None:
        values = {"python": sys.executable}
        spec = self.command(item["command"], path + ("command",), _limits(item.get("limits") or {}, limits), values)
        if spec is None:
            return None
        if "name" in item:
            spec = replace(spec, name=item["name"])
        spec = self.placed(spec, item.get("cwd"), path + ("cwd",))
        spec = replace(_with_options(spec, item), sandbox=self.sandbox_settings(item, path, self.sandbox))
        build = item.get("build")
        if build is not None:
            build = self.template(build, path + ("build",), values, quote=True)
            if spec.builtin:
                self.problem(path + ("build",), "a builtin player has nothing to build")
        return BotEntry(spec, format_path(path), self.lines.line(path), build,
                        float(item.get("build_timeout_s", default_timeout)), _requires(item.get("requires")))

    def command(self, template: str, path: Path, limits: TimeLimits, values: dict[str, str]) -> BotSpec | None:
        text = self.template(template, path, values, quote=True)
        if text is None:
            return None
        stripped = text.strip()
        if stripped.startswith(BUILTIN_PREFIX):
            builtin = stripped[len(BUILTIN_PREFIX):]
            if builtin not in BUILTINS:
                close = difflib.get_close_matches(builtin, list(BUILTINS), n=1)
                hint = f" (did you mean {BUILTIN_PREFIX}{close[0]}?)" if close else ""
                self.problem(path, f"unknown built-in player {stripped!r}{hint}; built-ins: "
                                   + ", ".join(BUILTIN_PREFIX + b for b in BUILTINS))
                return None
        try:
            return parse_bot(text, limits)
        except ValueError as exc:
            self.problem(path, str(exc))
            return None

    def template(self, text: str, path: Path, values: dict[str, str], quote: bool) -> str | None:
        """Fill ``{python}``-style placeholders; unknown ones are mistakes (``{{`` is a literal brace)."""
        try:
            fields = [f for _, f, _, _ in string.Formatter().parse(text) if f is not None]
        except ValueError as exc:
            self.problem(path, f"{text!r}: {exc}; write {{{{ and }}}} for literal braces")
            return None
        unknown = [f for f in fields if f not in values]
        if unknown:
            allowed = ", ".join("{" + k + "}" for k in values)
            self.problem(path, f"unknown placeholder {{{unknown[0]}}} in {text!r}; allowed here: {allowed}")
            return None
        filled = {k: (shlex.quote(v) if quote else v) for k, v in values.items()}
        return text.format(**filled)

    def sandbox_settings(self, item: Mapping[str, Any], path: Path, base: SandboxSettings) -> SandboxSettings:
        """The ``sandbox:`` of an arena or a bot over ``base`` (referee/bots/sandbox.py)."""
        try:
            return settings_from(item.get("sandbox"), base)
        except ValueError as exc:
            self.problem(path + ("sandbox",), str(exc))
            return base

    def placed(self, spec: BotSpec, cwd: str | None, path: Path) -> BotSpec:
        """Resolve the working directory (a process bot runs in base_dir unless told otherwise)."""
        if spec.builtin is not None:
            return spec
        folder = os.path.normpath(os.path.join(self.base_dir, os.path.expanduser(cwd))) if cwd else self.base_dir
        if cwd and not os.path.isdir(folder):
            self.problem(path, f"directory {folder!r} does not exist")
        return replace(spec, cwd=folder)

    def submissions(self, sub: dict[str, Any], path: Path, limits: TimeLimits, explicit: dict[str, Path],
                    default_timeout: float) -> list[BotEntry]:
        pattern = os.path.join(self.base_dir, os.path.expanduser(sub["path"]))
        matches = sorted(glob.glob(pattern))
        excludes = sub.get("exclude", [])
        matches = [m for m in matches if not any(fnmatch.fnmatch(os.path.basename(m), x) for x in excludes)]
        if not matches:
            self.problem(path + ("path",), f"{sub['path']!r} matches nothing in {self.base_dir!r}")
            return []
        sub_limits = _limits(sub.get("limits") or {}, limits)
        out = []
        for match in matches:
            match = os.path.abspath(match)
            base = os.path.basename(match.rstrip(os.sep))
            name = base if os.path.isdir(match) else os.path.splitext(base)[0]
            values = {"python": sys.executable, "path": match, "name": name}
            spec = self.command(sub["command"], path + ("command",), sub_limits, values)
            if spec is None:
                return []  # the same template fails for every match: say it once
            spec = replace(spec, name=name)
            cwd: str | None = match if os.path.isdir(match) else os.path.dirname(match)
            if "cwd" in sub:
                cwd = self.template(sub["cwd"], path + ("cwd",), values, quote=False)
                if cwd is None:
                    return []
            spec = self.placed(spec, cwd, path + ("cwd",))
            spec = replace(_with_options(spec, sub), sandbox=self.sandbox_settings(sub, path, self.sandbox))
            build = sub.get("build")
            if build is not None:
                build = self.template(build, path + ("build",), values, quote=True)
                if build is None:
                    return []
            self.claim(explicit, name, path + ("path",))
            out.append(BotEntry(spec, f"{format_path(path)} {os.path.relpath(match, self.base_dir)}",
                                self.lines.line(path), build, float(sub.get("build_timeout_s", default_timeout)),
                                _requires(sub.get("requires"))))
        return out


def pool_problems(arena: Arena, names: list[str], left_out: Iterable[str] = ()) -> list[Problem]:
    """Mistakes that depend on which bots are in the pool (checked again once builds have left some out)."""
    problems: list[Problem] = []
    gone = list(left_out)
    after = f" after leaving out {', '.join(gone)}" if gone else ""
    available = len(names)
    for stage in arena.stages:
        entrants = min(stage.entrants or available, available)
        label = f"stage {stage.name!r}" if len(arena.stages) > 1 else "the arena"
        if entrants < stage.seats:
            path, line = stage.locate("seats")
            problems.append(Problem(path, f"{stage.seats} seats, but {label} has {entrants} bot"
                                          f"{'s' if entrants != 1 else ''}{after}; a table needs {stage.seats}", line))
        if stage.format == "gauntlet":
            cpath, cline = stage.locate("challengers")
            if not stage.challengers:
                problems.append(Problem(cpath, "missing: a gauntlet needs the names of its challengers", cline))
                continue
            known = set(names)
            present = [c for c in stage.challengers if c in known]
            if not present and all(c in gone for c in stage.challengers):
                problems.append(Problem(cpath, f"every challenger was left out ({', '.join(stage.challengers)}); "
                                               "the gauntlet has nobody to run it", cline))
                continue
            for i, c in enumerate(stage.challengers):
                if c not in known and c not in gone:  # a challenger left out by its build is reported already
                    close = difflib.get_close_matches(c, names, n=1)
                    hint = f" (did you mean {close[0]!r}?)" if close else ""
                    problems.append(Problem(f"{cpath}[{i}]", f"{c!r} is not a bot{after}{hint}; the bots are: "
                                                             + ", ".join(names), cline))
            field_size = entrants - sum(1 for c in stage.challengers if c in known)
            if field_size < stage.seats - 1 and entrants >= stage.seats:
                problems.append(Problem(cpath, f"the field (the bots that are not challengers) has {field_size}"
                                               f"{after}; a table of {stage.seats} needs {stage.seats - 1}", cline))
    return problems


def _limits(data: Mapping[str, Any], base: TimeLimits) -> TimeLimits:
    return replace(base, **{k: int(v) for k, v in data.items()})


def _with_options(spec: BotSpec, item: Mapping[str, Any]) -> BotSpec:
    env = tuple(sorted((str(k), _env_value(v)) for k, v in (item.get("env") or {}).items()))
    return replace(spec, env=env or spec.env, shell=bool(item.get("shell", spec.shell)),
                   line_limit=int(item.get("line_limit", spec.line_limit)),
                   restart_each_game=bool(item.get("restart_each_game", spec.restart_each_game)))


def _env_value(value: Any) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return str(int(value))
    return str(value)


def _requires(value: str | list[str] | None) -> tuple[str, ...]:
    if value is None:
        return ()
    return (value,) if isinstance(value, str) else tuple(value)


def _slug(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", name).strip("-") or "arena"


__all__ = ["Arena", "ArenaFileError", "BotEntry", "FORMATS", "Problem", "Stage", "arena_schema",
           "format_path", "load_arena", "parse_arena", "pool_problems", "schema_problems"]
