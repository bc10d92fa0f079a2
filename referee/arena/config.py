"""Arena files: YAML in, a validated ``Arena`` out.

Every mistake is a ``Problem`` with its key path (``bots[2].command``), the YAML line, what was
found and what is allowed; all of them are collected and raised together as ``ArenaFileError``
before anything runs. This module never imports click: the command line turns the error into a
message and exit code 2.

The work is split by concern: ``source`` reads the file (size cap, UTF-8, YAML with lines, bounded
aliases), ``schema`` turns the JSON Schema's complaints into messages, ``stages`` and
``bot_entries`` resolve what the schema cannot check, and ``formats`` counts each stage's games.
"""

from __future__ import annotations

import json
import os
import re
import sys
from dataclasses import replace
from typing import Any, Mapping

from referee.arena.bot_entries import BotResolver, limits_from
from referee.arena.collusion_option import collusion_from
from referee.arena.formats import FORMATS
from referee.arena.model import DEFAULT_BOOTSTRAP, Arena, Stage
from referee.arena.pool_check import MAX_GAMES, pool_problems
from referee.arena.schema import arena_schema, kind, schema_check, without
from referee.arena.similarity_option import similarity_from
from referee.arena.stages import STAGE_KEYS, StageResolver
from referee.bots.entry import DEFAULT_BUILD_TIMEOUT_S, BotEntry
from referee.bots.sandbox import SandboxSettings
from referee.bots.spec import BotSpec, TimeLimits
from referee.builds.arrivals import Intake
from referee.cluster.options import ClusterOptions
from referee.grading.class_list import Candidate, ClassList, match_class
from referee.grading.roster import read_roster
from referee.grading.rule import Grading, grading_from
from referee.inputs.problems import ArenaFileError, InputFileError, Path, Problem, Problems, format_path
from referee.inputs.reader import LineMap, load_yaml, read_text
from referee.store.outdir import out_dir_problem
from referee.table.policy import FaultPolicy


def load_arena(path: str, roster: str | None = None) -> Arena:
    """Read, check and resolve an arena file; raises ``ArenaFileError`` listing every mistake. ``roster`` (the
    command line's ``--roster``, relative to the current folder) replaces the file's ``roster:``."""
    text, problems = read_text(path)
    if text is None:
        raise ArenaFileError(path, problems)
    return parse_arena(text, source=path, roster=roster)


def parse_arena(text: str | Mapping[str, Any], source: str = "<arena>", base_dir: str | None = None,
                roster: str | None = None) -> Arena:
    """An ``Arena`` from YAML text (or already-parsed data); relative paths start at the file's folder."""
    lines = LineMap()
    early: list[Problem] = []
    if isinstance(text, str):
        data, early = load_yaml(text, lines)
        if data is None and early:
            raise ArenaFileError(source, early)
    else:
        data = json.loads(json.dumps(text))
    if data is None:
        raise ArenaFileError(source, [Problem("", "the file is empty; an arena needs at least bots "
                                                  "(see docs/arena.md)")])
    if not isinstance(data, dict):
        raise ArenaFileError(source, [Problem("", f"expected a mapping of keys (name, ruleset, bots, ...), "
                                                  f"found {kind(data)}", 1)])
    problems, bad = schema_check(data, lines)
    folder = base_dir or (os.path.dirname(os.path.abspath(source)) if not source.startswith("<") else os.getcwd())
    # Check what the schema did not object to as well, so one run reports (nearly) every mistake.
    return _Resolver(without(data, bad), lines, source, folder, early + problems).resolve(roster)


class _Resolver:
    """Turns checked data (what the schema rejected taken out) into an ``Arena``, collecting the mistakes a
    schema cannot see."""

    def __init__(self, data: dict[str, Any], lines: LineMap, source: str, folder: str,
                 found: list[Problem]) -> None:
        self.data = data
        self.lines = lines
        self.source = source
        self.problems = Problems(lines.line, found)
        base = data.get("base_dir", ".")
        self.base_dir = os.path.normpath(os.path.join(folder, os.path.expanduser(base)))
        if not os.path.isdir(self.base_dir):
            self.problems.add(("base_dir",), f"directory {self.base_dir!r} does not exist")

    def resolve(self, roster: str | None = None) -> Arena:
        """The arena, or ``ArenaFileError`` with every problem found."""
        data = self.data
        limits = limits_from(data.get("limits") or {}, TimeLimits())
        resolver = BotResolver(data, self.lines, self.problems, self.base_dir)
        bots = resolver.bots(limits)
        if data.get("practice"):  # no clocks for anyone: the file itself must ask for it
            bots = [replace(e, spec=replace(e.spec, limits=e.spec.limits.practice())) for e in bots]
            limits = limits.practice()
        stages = StageResolver(data, self.lines, self.problems).stages()
        grading = grading_from(data.get("grading"), self.problems)
        benchmarks = self.benchmarks(grading, limits)
        contest = grading is None or grading.by != "benchmarks" or any(k in data for k in ("stages", "format"))
        name = data.get("name") or os.path.splitext(os.path.basename(self.source))[0] or "arena"
        out = os.path.normpath(os.path.join(self.base_dir, data.get("out") or os.path.join("results", _slug(name))))
        trouble = out_dir_problem(out, writable=False) if "out" in data else None
        if trouble is not None:
            self.problems.add(("out",), trouble)
        jobs = data.get("jobs")
        arena = Arena(
            name=name, source=self.source, base_dir=self.base_dir, out=out, seed=data.get("seed", 1),
            stages=tuple(stages), bots=tuple(bots), policy=FaultPolicy.parse(data.get("policy", "forfeit")),
            jobs=None if jobs in (None, "auto") else int(jobs), records=bool(data.get("records", False)),
            bootstrap=data.get("bootstrap", DEFAULT_BOOTSTRAP), rank_by=data.get("rank_by", "rating"),
            description=data.get("description", ""), cluster=self.cluster(data.get("executor")),
            grading=grading, similarity=similarity_from(data.get("similarity")),
            collusion=collusion_from(data.get("collusion")), hide_names=hides_names(data), benchmarks=benchmarks,
            contest=contest, intakes=tuple(resolver.intakes),
            class_list=self.class_list(roster, bots, resolver.intakes), limits=limits, sandbox=resolver.sandbox)
        if not self.problems and contest:
            self.problems.found.extend(pool_problems(arena, [b.spec.name for b in bots]))
        if self.problems:
            raise ArenaFileError(self.source, self.problems.found)
        return arena


    def benchmarks(self, grading: Grading | None, limits: TimeLimits) -> tuple[BotSpec, ...]:
        """Each band's benchmark as a bot of the file: placeholders filled, run in base_dir, the file's sandbox."""
        if grading is None or grading.by != "benchmarks":
            return ()
        resolver = BotResolver(self.data, self.lines, self.problems, self.base_dir)
        resolver.sandbox = resolver.sandbox_settings(self.data.get("sandbox"), (), SandboxSettings())
        out = []
        for i, band in enumerate(grading.bands):
            path: Path = ("grading", "bands", i, "bot")
            spec = resolver.command(band.bot, path, limits, {"python": sys.executable})
            if spec is not None:
                out.append(replace(resolver.placed(spec, None, path), sandbox=resolver.sandbox))
        return tuple(out)

    def class_list(self, given: str | None, bots: list[BotEntry], intakes: list[tuple[str, Intake]]
                   ) -> ClassList | None:
        """``roster:`` (or the command line's, which wins) read and matched against the entrants; its mistakes and
        ambiguities are problems, so nothing runs until they are fixed."""
        path = given if given is not None else self.data.get("roster")
        if path is None:
            return None
        where = os.path.expanduser(path) if given is not None else \
            os.path.normpath(os.path.join(self.base_dir, os.path.expanduser(path)))
        try:
            roster = read_roster(where, path)
        except InputFileError as exc:
            self.problems.add(("roster",), f"{exc}")
            return None
        class_list = match_class(roster, candidates(bots, intakes))
        for problem in class_list.problems:
            self.problems.add(("roster",), problem)
        return class_list

    def cluster(self, section: Mapping[str, Any] | None) -> ClusterOptions | None:
        """The ``executor:`` section (checked by the schema); TLS files are relative to base_dir."""
        if not section or "cluster" not in section:
            return None
        tls = section.get("tls") or {}
        paths = {k: os.path.normpath(os.path.join(self.base_dir, os.path.expanduser(tls[k]))) if k in tls else None
                 for k in ("ca_file", "cert", "key")}
        if section["cluster"].startswith("tls://") and not tls:
            self.problems.add(("executor", "tls"), "missing: a tls:// cluster needs {ca_file, cert, key}")
        if section["cluster"].startswith("tcp://") and tls:
            self.problems.add(("executor", "tls"), "TLS files need a tls:// cluster address")
        for key, path in paths.items():
            if path is not None and not os.path.isfile(path):
                self.problems.add(("executor", "tls", key), f"no such file: {path!r}")
        return ClusterOptions(section["cluster"], paths["ca_file"], paths["cert"], paths["key"],
                              bool(section.get("build_on_workers", False)))


def hides_names(data: Mapping[str, Any]) -> bool:
    """``seat_names``: as the file says, else hidden for a class contest (bots from ``submissions``), where two
    friends' bots could otherwise recognise each other by name."""
    told = data.get("seat_names")
    if told is not None:
        return bool(told == "hidden")
    return any(isinstance(item, Mapping) and "submissions" in item for item in data.get("bots") or ())

def candidates(bots: list[BotEntry], intakes: list[tuple[str, Intake]]) -> list[Candidate]:
    """The entrants a roster's students may be (every one but the built-in players), with what identifies them:
    a submission's arrival says, another bot is known by its name."""
    arrivals = {a.name: a for _, intake in intakes for a in intake.arrivals}
    out = []
    for b in bots:
        if b.spec.builtin is not None:
            continue
        arrival = arrivals.get(b.spec.name) if b.submission else None
        if arrival is not None:
            out.append(Candidate(b.spec.name, arrival.shown, arrival.keys))
        else:
            out.append(Candidate(b.spec.name, b.origin, (("plain", b.spec.name),)))
    return out


def _slug(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", name).strip("-") or "arena"


#: The formats' names, in the order the docs list them (``formats.FORMATS`` holds the objects).
FORMAT_NAMES = tuple(FORMATS)

__all__ = ["Arena", "ArenaFileError", "BotEntry", "DEFAULT_BOOTSTRAP", "DEFAULT_BUILD_TIMEOUT_S",
           "FORMAT_NAMES", "MAX_GAMES", "Problem", "STAGE_KEYS", "Stage", "arena_schema", "format_path",
           "load_arena", "parse_arena", "pool_problems"]
