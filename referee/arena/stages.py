"""Resolving an arena's stages: top-level keys as every stage's defaults, each stage's settings checked."""

from __future__ import annotations

from typing import Any, Mapping, TypedDict, cast

from referee.arena.formats import FORMATS, Format, Gauntlet, Knockout
from referee.arena.model import Stage
from referee.engine.rules import Ruleset, RulesetError, get_ruleset
from referee.inputs.problems import Path, Problems, format_path
from referee.inputs.reader import LineMap

#: Keys a stage takes; at the top level they are every stage's defaults.
STAGE_KEYS = ("ruleset", "options", "seats", "format", "games", "duplicate", "challengers", "advance", "final_games")
#: Keys the pool checks blame (``Stage.locate``).
LOCATED = ("seats", "challengers", "entrants", "games", "format")


class StageYaml(TypedDict, total=False):
    """A stage of the arena file (or the top level's defaults for every stage) as the schema let it through: each
    key there has the type the schema says (arena.schema.json), or is gone with its problem recorded."""

    name: str
    ruleset: str
    options: dict[str, object]
    seats: int
    format: str
    games: int
    duplicate: bool
    challengers: list[str]
    advance: int
    final_games: int
    entrants: int


class StageResolver:
    """Turns the ``stages`` list (or the top level, for a one-stage arena) into ``Stage`` objects."""

    def __init__(self, data: Mapping[str, Any], lines: LineMap, problems: Problems) -> None:
        self.data = data
        self.lines = lines
        self.problems = problems
        self.top = cast(StageYaml, {k: data[k] for k in STAGE_KEYS if k in data})  # the schema checked each

    def stages(self) -> list[Stage]:
        """Every stage the schema left standing, in file order."""
        raw: list[StageYaml | None] = self.data.get("stages") or [StageYaml()]
        out: list[Stage] = []
        names: dict[str, int] = {}
        for i, given in enumerate(raw):
            if given is None:  # the schema already said what is wrong with it
                continue
            path: Path = ("stages", i) if "stages" in self.data else ()
            name = given.get("name") or (f"stage {i + 1}" if len(raw) > 1 else (self.data.get("name") or "main"))
            if name in names:
                self.problems.add(path + ("name",), f"{name!r} is also the name of stages[{names[name]}]; stage "
                                                    "names must differ")
            names[name] = i
            out.append(self.stage(i, name, given, path))
        return out

    def stage(self, i: int, name: str, given: StageYaml, path: Path) -> Stage:
        """One stage: its own keys over the top level's."""
        merged = self.merged(given)
        ruleset = merged.get("ruleset", "compact")
        fmt = merged.get("format", "round_robin")
        seats = merged.get("seats", 4)
        games = merged.get("games", seats)
        duplicate = bool(merged.get("duplicate", False))
        advance = merged.get("advance", max(1, seats // 2))
        rules = self.rules(ruleset, merged.get("options") or {}, given, path)
        for other in FORMATS.values():
            for key in other.keys():  # noqa: SIM118 - a format's own keys(), the arena file's keys it reads
                if key in merged and other.name != fmt:
                    self.problems.add(path + (key,) if key in given else (key,),
                                      f"only means something with format {other.name}; this stage's format is {fmt}")
        fmt_obj = self.format(fmt, merged, advance)
        for key, message in fmt_obj.problems(seats, games, duplicate):
            self.problems.add(self.where(key, given, path), message)
        if i == 0 and "entrants" in given:
            self.problems.add(path + ("entrants",), "the first stage has no standings to take the top entrants "
                                                    "from; every bot plays it (leave entrants out)")
        located = tuple((key, format_path(p), self.lines.line(p) or self.lines.line(path) or None)
                        for key in LOCATED for p in [self.where(key, given, path, fallback=path + (key,))])
        return Stage(name=name, rules=rules, seats=seats, format=fmt_obj, games=games,
                     duplicate=duplicate, entrants=given.get("entrants"), path=format_path(path),
                     line=self.lines.line(path) if path else None, where=located)

    @staticmethod
    def format(name: str, merged: StageYaml, advance: int) -> Format:
        """The stage's format object, configured with the settings only it reads."""
        if name == "gauntlet":
            return Gauntlet(tuple(merged.get("challengers", ())))
        if name == "knockout":
            return Knockout(advance, merged.get("final_games"))
        return FORMATS[name]()

    def merged(self, given: StageYaml) -> StageYaml:
        """The stage's settings: its own, else the top level's (options merged key by key)."""
        merged: StageYaml = {**self.top, **given}
        if "options" in self.top and "options" in given:
            merged["options"] = {**self.top["options"], **given["options"]}
        return merged

    def where(self, key: str, given: StageYaml, path: Path, fallback: Path | None = None) -> Path:
        """The key path to blame for ``key``: the stage's own, else the top level's, else the stage."""
        if key in given:
            return path + (key,)
        if key in self.data:
            return (key,)
        return fallback if fallback is not None else (path or (key,))

    def rules(self, ruleset: str, options: Mapping[str, object], given: StageYaml, path: Path) -> Ruleset:
        """The ruleset with the stage's options; each bad option a problem at its own key (and the preset used)."""
        bad = False
        for key, value in options.items():
            where = path + ("options", key) if key in (given.get("options") or {}) else ("options", key)
            try:
                get_ruleset(ruleset, {key: value})
            except RulesetError as exc:
                self.problems.add(where, str(exc))
                bad = True
        try:
            return get_ruleset(ruleset, {} if bad else dict(options))
        except RulesetError as exc:
            self.problems.add(path + ("options",) if path else ("options",), str(exc))
            return get_ruleset("compact")  # the arena is refused anyway: the problem is recorded
