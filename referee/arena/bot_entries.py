"""Resolving an arena's bots: commands and placeholders, working directories, builds and submission folders."""

from __future__ import annotations

import difflib
import fnmatch
import glob
import math
import os
import shlex
import string
import sys
from dataclasses import replace
from typing import Any, Mapping, TypedDict

from referee.bots.entry import DEFAULT_BUILD_TIMEOUT_S, BotEntry
from referee.bots.sandbox import SandboxSettings, checked_paths, settings_from
from referee.bots.spec import BUILTIN_PREFIX, BotSpec, TimeLimits, parse_bot, unique_names, with_python
from referee.builds.arrivals import Arrival, Intake, Skipped, arrange
from referee.builds.languages import Detected, Language, detect, detect_file, language_table
from referee.inputs.problems import Path, Problems, format_path
from referee.inputs.reader import LineMap
from referee.players import BUILTINS


class BotOptionsYaml(TypedDict, total=False):
    """What a bot item and a ``submissions`` entry of the arena file share, as the schema let it through (each key
    of the type arena.schema.json says, or gone with its problem recorded)."""

    command: str
    cwd: str
    env: dict[str, object]
    paths: list[str]
    """Files and folders the walls show the bot, read-only."""
    shell: bool
    limits: dict[str, object]
    sandbox: str | dict[str, object]
    """A mode, or a mapping of mode and limits."""
    line_limit: int
    restart_each_game: bool
    build: str
    build_timeout_s: float
    requires: str | list[str]


class BotYaml(BotOptionsYaml, total=False):
    """A ``{name, command, ...}`` item of ``bots``."""

    name: str


class SubmissionsYaml(BotOptionsYaml, total=False):
    """A ``submissions`` entry of ``bots``: one bot per file or folder ``path`` matches."""

    path: str
    exclude: list[str]
    languages: dict[str, dict[str, object]]


class BotResolver:
    """Turns the ``bots`` list into ``BotEntry`` objects; a ``submissions`` item becomes one bot per match."""

    def __init__(self, data: Mapping[str, Any], lines: LineMap, problems: Problems, base_dir: str) -> None:
        self.data = data
        self.lines = lines
        self.problems = problems
        self.base_dir = base_dir
        #: What each ``submissions`` pattern matched, made into arrivals (for ``validate`` and the roster), by the
        #: pattern's key path.
        self.intakes: list[tuple[str, Intake]] = []

    def bots(self, limits: TimeLimits) -> list[BotEntry]:
        """Every bot the schema left standing, names made unique, in file order."""
        entries: list[BotEntry] = []
        explicit: dict[str, Path] = {}
        default_timeout = float(self.data.get("build_timeout_s", DEFAULT_BUILD_TIMEOUT_S))
        self.sandbox = self.sandbox_settings(self.data.get("sandbox"), (), SandboxSettings())
        for i, item in enumerate(self.data["bots"]):
            path: Path = ("bots", i)
            if item is None:  # the schema already said what is wrong with it
                continue
            if isinstance(item, str):
                spec = self.command(item, path, limits, {"python": sys.executable})
                if spec is not None:
                    spec = replace(self.placed(spec, None, path), sandbox=self.sandbox)
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

    def claim(self, explicit: dict[str, Path], name: str, path: Path, match: str | None = None) -> None:
        """Record an explicit name; a name given twice is a problem (naming the submission it came from)."""
        if name in explicit:
            what = f"{match!r} gives the name {name!r}, which" if match else f"{name!r}"
            self.problems.add(path, f"{what} is also the name of {format_path(explicit[name][:2])}; bot names must "
                                    "differ" + ("; rename the file or folder, or exclude it" if match else ""))
        else:
            explicit[name] = path

    def bot(self, item: BotYaml, path: Path, limits: TimeLimits, default_timeout: float) -> BotEntry | None:
        """One ``{name, command, ...}`` item (None when it has a problem)."""
        values = {"python": sys.executable}
        spec = self.command(item["command"], path + ("command",), limits_from(item.get("limits") or {}, limits), values)
        if spec is None:
            return None
        if "name" in item:
            spec = replace(spec, name=item["name"])
        spec = self.placed(spec, item.get("cwd"), path + ("cwd",))
        spec = replace(_with_options(spec, item),
                       sandbox=self.with_paths(self.sandbox_settings(item.get("sandbox"), path, self.sandbox),
                                               item.get("paths"), path))
        build = item.get("build")
        if build is not None:
            build = self.template(build, path + ("build",), values, quote=True)
            if spec.builtin:
                self.problems.add(path + ("build",), "a builtin player has nothing to build")
        return BotEntry(spec, format_path(path), self.lines.line(path), build,
                        float(item.get("build_timeout_s", default_timeout)), _requires(item.get("requires")))

    def command(self, template: str, path: Path, limits: TimeLimits, values: dict[str, str]) -> BotSpec | None:
        """A command line (placeholders filled) as a ``BotSpec``; None when it has a problem."""
        text = self.template(template, path, values, quote=True)
        if text is None:
            return None
        stripped = text.strip()
        if stripped.startswith(BUILTIN_PREFIX):
            builtin = stripped[len(BUILTIN_PREFIX):]
            if builtin not in BUILTINS:
                close = difflib.get_close_matches(builtin, list(BUILTINS), n=1)
                hint = f" (did you mean {BUILTIN_PREFIX}{close[0]}?)" if close else ""
                self.problems.add(path, f"unknown built-in player {stripped!r}{hint}; built-ins: "
                                   + ", ".join(BUILTIN_PREFIX + b for b in BUILTINS))
                return None
        try:
            return parse_bot(text, limits)
        except ValueError as exc:
            self.problems.add(path, str(exc))
            return None

    def template(self, text: str, path: Path, values: dict[str, str], quote: bool) -> str | None:
        """Fill ``{python}``-style placeholders; unknown ones are mistakes (``{{`` is a literal brace)."""
        try:
            fields = [f for _, f, _, _ in string.Formatter().parse(text) if f is not None]
        except ValueError as exc:
            self.problems.add(path, f"{text!r}: {exc}; write {{{{ and }}}} for literal braces")
            return None
        unknown = [f for f in fields if f not in values]
        if unknown:
            allowed = ", ".join("{" + k + "}" for k in values)
            self.problems.add(path, f"unknown placeholder {{{unknown[0]}}} in {text!r}; allowed here: {allowed}")
            return None
        filled = {k: (shlex.quote(v) if quote else v) for k, v in values.items()}
        return text.format(**filled)

    def sandbox_settings(self, given: str | dict[str, object] | None, path: Path, base: SandboxSettings
                         ) -> SandboxSettings:
        """The ``sandbox:`` of the arena or of a bot (``given``), over ``base`` (referee/bots/sandbox.py)."""
        try:
            return settings_from(given, base)
        except ValueError as exc:
            self.problems.add(path + ("sandbox",), str(exc))
            return base

    def with_paths(self, settings: SandboxSettings, given: list[str] | None, path: Path) -> SandboxSettings:
        """``settings`` showing the bot the ``paths:`` given (relative to the arena file's folder)."""
        if not given:
            return settings
        try:
            return replace(settings, paths=settings.paths + checked_paths(given, self.base_dir))
        except ValueError as exc:
            self.problems.add(path + ("paths",), str(exc))
            return settings

    def placed(self, spec: BotSpec, cwd: str | None, path: Path) -> BotSpec:
        """Resolve the working directory (a process bot runs in base_dir unless told otherwise)."""
        if spec.builtin is not None:
            return spec
        folder = os.path.normpath(os.path.join(self.base_dir, os.path.expanduser(cwd))) if cwd else self.base_dir
        if cwd and not os.path.isdir(folder):
            self.problems.add(path, f"directory {folder!r} does not exist")
        return replace(spec, cwd=folder)

    def submissions(self, sub: SubmissionsYaml, path: Path, limits: TimeLimits, explicit: dict[str, Path],
                    default_timeout: float) -> list[BotEntry]:
        """One bot per file or folder the ``submissions.path`` glob matches (``exclude`` left out).

        With a ``command`` every match runs it; without one, each folder's language is detected
        (``languages``): a folder with no recognisable bot is still an entrant, marked unusable.
        """
        matches, excluded = self.matches(sub, path)
        if not matches:
            return []
        table = language_table(sub.get("languages"))
        if "command" not in sub and not self.language_problems(table, path):
            return []
        sub_limits = limits_from(sub.get("limits") or {}, limits)
        as_is = "command" in sub  # a template runs whatever the folder holds: no folder is unpacked for it
        intake = arrange([os.path.abspath(m) for m in matches], self.base_dir,
                         lambda folder: as_is or detect(folder, table).problem is None)
        self.intakes.append((format_path(path), replace(intake, skipped=intake.skipped + tuple(excluded))))
        out = []
        for arrival in intake.arrivals:
            entry = self.submission(arrival, sub, path, sub_limits, table, default_timeout)
            if entry is None:
                return []  # the same template fails for every match: say it once
            self.claim(explicit, entry.spec.name, path + ("path",), arrival.shown)
            out.append(entry)
        return out

    def matches(self, sub: SubmissionsYaml, path: Path) -> tuple[list[str], list[Skipped]]:
        """The files and folders ``submissions.path`` matches, sorted, ``exclude`` left out (a problem if none),
        and those left out by ``exclude``, each with its pattern (nothing is left out unsaid)."""
        pattern = os.path.join(self.base_dir, os.path.expanduser(sub["path"]))
        found = sorted(glob.glob(glob.escape(self.base_dir) + pattern[len(self.base_dir):])
                       if pattern.startswith(self.base_dir) else glob.glob(pattern))
        excludes = sub.get("exclude", [])
        kept, excluded = [], []
        for m in found:
            hit = next((x for x in excludes if fnmatch.fnmatch(os.path.basename(m), x)), None)
            if hit is None:
                kept.append(m)
            else:
                excluded.append(Skipped(os.path.relpath(m, self.base_dir), f"exclude: {hit!r} in the arena file"))
        if not kept:
            self.problems.add(path + ("path",), f"{sub['path']!r} matches nothing in {self.base_dir!r}"
                              + (f" (exclude left out all {len(excluded)})" if excluded else ""))
        return kept, excluded

    def submission(self, arrival: Arrival, sub: SubmissionsYaml, path: Path, limits: TimeLimits,
                   table: tuple[Language, ...], default_timeout: float) -> BotEntry | None:
        """The entrant of one arrival (unusable, with the reason, when there is nothing to run); None when a
        template of the ``submissions`` entry is wrong (recorded as a problem once)."""
        match, shown, name = arrival.path, arrival.shown, arrival.name
        values = {"python": sys.executable, "path": match, "name": name}
        if arrival.problem is not None:
            found, where = Detected(None, problem=arrival.problem), path + ("path",)
            match = self.base_dir
        else:
            found, where = self.detected(match, sub, path, table, shown)
        build = found.build
        spec: BotSpec | None = None
        if found.problem is None and found.manifest is not None:
            found, spec, build = _from_manifest(found, shown, limits)
        elif found.problem is None:
            spec = self.command(found.command or "", where, limits, values)
            if spec is None:
                return None
            if build is not None:
                build = self.template(build, path + ("build",) if "build" in sub else where, values, quote=True)
                if build is None:
                    return None
        # Nothing to run: still an entrant, left out with the reason when the arena starts.
        spec = replace(spec or BotSpec(name, "", limits=limits), name=name)
        cwd: str | None = match if os.path.isdir(match) else os.path.dirname(match)
        if "cwd" in sub:
            cwd = self.template(sub["cwd"], path + ("cwd",), values, quote=False)
            if cwd is None:
                return None
        spec = self.placed(spec, cwd, path + ("cwd",))
        sandbox = self.with_paths(self.sandbox_settings(sub.get("sandbox"), path, self.sandbox), sub.get("paths"), path)
        spec = replace(_with_options(spec, sub), sandbox=sandbox, language=None if "command" in sub else found.language)
        made = arrival.label.platform != "plain" or arrival.path != os.path.join(self.base_dir, arrival.sources[0])
        return BotEntry(spec, f"{format_path(path)} {shown}", self.lines.line(path), build,
                        float(sub.get("build_timeout_s", default_timeout)), found.requires,
                        unusable=found.problem, language="" if "command" in sub else found.language or "",
                        submission=match, student=arrival.student,
                        arrived=shown if made else "")

    @staticmethod
    def detected(match: str, sub: SubmissionsYaml, path: Path, table: tuple[Language, ...], shown: str
                 ) -> tuple[Detected, Path]:
        """What runs the match (the entry's ``command``, or its detected language) and the key to blame for it."""
        if "command" in sub:
            return Detected("command", sub["command"], sub.get("build"), _requires(sub.get("requires"))), \
                path + ("command",)
        found = detect(match, table, shown) if os.path.isdir(match) else detect_file(match, table)
        found = replace(found, build=sub.get("build", found.build),
                        requires=found.requires + _requires(sub.get("requires")))
        where = path + ("languages", found.language) if found.language is not None and found.manifest is None \
            else path + ("command",)
        return found, where

    def language_problems(self, table: tuple[Language, ...], path: Path) -> bool:
        """Check the language table's commands once (a language added without a command is a mistake)."""
        ok = True
        for lang in table:
            if not lang.command:
                self.problems.add(path + ("languages", lang.name, "command"),
                                  f"missing: how to start a {lang.name} submission, e.g. \"./bot\"")
                ok = False
        return ok


def _from_manifest(found: Detected, shown: str, limits: TimeLimits) -> tuple[Detected, BotSpec | None, str | None]:
    """A student's manifest (lastcard.yaml): its command and build, ``{python}`` the only placeholder; a command
    that does not parse leaves the student out, the reason in ``problem``."""
    command = with_python(found.command or "")
    build = with_python(found.build) if found.build else found.build
    try:
        spec = parse_bot(command, limits) if command else None
    except ValueError as exc:
        return replace(found, problem=f"{shown}/lastcard.yaml: run: {exc}"), None, build
    return found, spec, build


def limits_from(data: Mapping[str, Any], base: TimeLimits) -> TimeLimits:
    """``base`` with the file's ``limits`` mapping applied (checked by the schema: times are whole numbers)."""
    values: dict[str, Any] = {k: v if k == "clock" else int(v) for k, v in data.items()}
    return replace(base, **values)


def _with_options(spec: BotSpec, item: BotOptionsYaml) -> BotSpec:
    env = tuple(sorted((str(k), _env_value(v)) for k, v in (item.get("env") or {}).items()))
    return replace(spec, env=env or spec.env, shell=bool(item.get("shell", spec.shell)),
                   line_limit=int(item.get("line_limit", spec.line_limit)),
                   restart_each_game=bool(item.get("restart_each_game", spec.restart_each_game)))


def _env_value(value: object) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return str(int(value))
    return str(value)


def _requires(value: str | list[str] | None) -> tuple[str, ...]:
    if value is None:
        return ()
    return (value,) if isinstance(value, str) else tuple(value)


