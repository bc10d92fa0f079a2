"""results.json as an object: built once from the run's typed values, written by ``to_json``, read back by
``from_json`` for the surfaces that render a finished run (report.html, ``ladder standings``, bot reports).

results.json holds nothing that varies from run to run (no times, no timestamps, no paths of the
output), so the same arena and seed give the same bytes whatever the number of workers; the times
go to timing.json and the tables meant for people.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence, cast

from referee.engine.rules import Ruleset, RulesetError, get_ruleset
from referee.standings.model import LeftOutEntry, StageRecord, StageSummary, StandingRow, Standings
from referee.standings.ratings import ALPHA, INTERVAL
from referee.store.ranking_shapes import HeadToHeadJson, OrderJson, RatingJson, StageJson
from referee.store.results_dir import ResultsDir
from referee.store.results_shapes import ResultBlocks, ResultsJson, TableJson, TimingJson

#: A title longer than this names fewer bots (and says how many more).
TITLE_WIDTH = 80
RESULTS_FORMAT = "lastcard-results"
RESULTS_VERSION = 2
TIED = "bots whose 95% rating intervals overlap share a rank range: the games do not separate them"


@dataclass(frozen=True)
class HeadToHead:
    """For every pair of bots: games together, and how often each placed ahead of the other."""

    bots: tuple[str, ...]
    ahead: tuple[tuple[int, ...], ...]
    meetings: tuple[tuple[int, ...], ...]

    @classmethod
    def of(cls, games: Iterable[Any], names: Sequence[str]) -> HeadToHead:
        """Counted from games with ``seating`` and ``placements`` (``GameLine``/``GameResult``)."""
        index = {n: i for i, n in enumerate(names)}
        n = len(names)
        ahead = [[0] * n for _ in range(n)]
        meetings = [[0] * n for _ in range(n)]
        for g in games:
            seats = [(index[b], p) for b, p in zip(g.seating, g.placements) if b in index]
            for i, pi in seats:
                for j, pj in seats:
                    if i != j:
                        meetings[i][j] += 1
                        if pi < pj:
                            ahead[i][j] += 1
        return cls(tuple(names), tuple(map(tuple, ahead)), tuple(map(tuple, meetings)))

    def score(self, i: int, j: int) -> float | None:
        """How often bot ``i`` finished ahead of bot ``j`` when they met (a tie counts half); None if never."""
        met = self.meetings[i][j]
        if i == j or not met:
            return None
        ahead, behind = self.ahead[i][j], self.ahead[j][i]
        return (ahead + (met - ahead - behind) / 2) / met

    def to_json(self) -> HeadToHeadJson:
        return {"bots": list(self.bots), "ahead": [list(r) for r in self.ahead],
                "meetings": [list(r) for r in self.meetings]}

    @classmethod
    def from_json(cls, data: HeadToHeadJson | None) -> HeadToHead:
        if data is None:
            return cls((), (), ())
        return cls(tuple(data.get("bots") or ()), tuple(tuple(r) for r in data.get("ahead") or ()),
                   tuple(tuple(r) for r in data.get("meetings") or ()))


def rating_info(bootstrap: int, seed: int) -> RatingJson:
    """How the rating columns were computed, for results.json."""
    return {"model": "plackett-luce", "fit": "choix.ilsr_top1 on every game's placements (ties: Breslow)",
            "alpha": ALPHA, "scale": "elo: 1500 is the pool average, +400 is 10:1 to finish ahead",
            "interval": INTERVAL if bootstrap else None, "bootstrap": bootstrap,
            "resample": "deals", "bootstrap_seed": seed}


def order_rule(stages: Sequence[StageJson], rank_by: str, *, complete: bool = True) -> str:
    """The rule that decided the order, in words (for results.json, standings.md and the terminal)."""
    overall = ("the rating (Plackett-Luce over every game), then the average place" if rank_by == "rating"
               else "the average place, then the rating")
    if not complete:
        return f"unfinished, so by {overall} over the games played so far"
    parts = []
    knockouts = [st["name"] for st in stages if st.get("format") == "knockout"]
    if len(stages) > 1 or knockouts:
        parts.append("the furthest stage and round reached")
    if knockouts:
        parts.append(f"the place at that round's table (knockout: {', '.join(knockouts)})")
    parts.append(overall)
    return "by " + ", then ".join(parts)


def match_title(ruleset: str, names: Sequence[str], width: int = TITLE_WIDTH) -> str:
    """``Match: family, hard vs medium vs random``; past ``width``, ``Match: family, 6 bots: a…1, b…2 and 4 more``."""
    head = f"Match: {ruleset}, " if ruleset else "Match: "
    full = head + " vs ".join(names)
    if len(full) <= width or not names:
        return full
    # Cut in the middle: names of one class often differ only at their end (bot-1, bot-2).
    short = [n if len(n) <= 16 else n[:8] + "…" + n[-7:] for n in names]
    head += f"{len(names)} bot{'s' if len(names) != 1 else ''}: "

    def naming(shown: int) -> str:
        rest = len(short) - shown
        return head + ", ".join(short[:shown]) + (f" and {rest} more" if rest else "")

    return naming(max([k for k in range(2, len(short) + 1) if len(naming(k)) <= width], default=1))


def stage_rulesets(stages: Sequence[StageJson | TableJson]) -> tuple[Ruleset, ...]:
    """The ruleset of each stage entry of results.json (unknown ones, from a newer version, skipped)."""
    out = []
    for st in stages:
        try:
            out.append(get_ruleset(st["ruleset"], st.get("options") or {}))
        except (RulesetError, KeyError):
            continue
    return tuple(out)


@dataclass(frozen=True)
class ResultsDoc:
    """results.json (documented in docs/arena.md)."""

    kind: str
    """``arena``, ``match``, ``ladder`` (written as kind ``arena`` with a ``ladder`` block) or ``compare``."""
    name: str
    complete: bool
    seed: int
    games: int
    policy: str
    rank_by: str
    standings: Standings
    head_to_head: HeadToHead
    rating: RatingJson
    bots: tuple[Mapping[str, object], ...] = ()
    """Each bot's ``BotSpec.to_json``."""
    stages: tuple[StageJson, ...] = ()
    """Each stage as the arena gave it (``Stage.to_json``) with its rounds and per-bot records."""
    games_planned: int | None = None
    sandbox_levels: Mapping[str, list[str]] = field(default_factory=dict)
    clock_levels: Mapping[str, list[str]] = field(default_factory=dict)
    """The clocks each process bot's moves were timed on (``cpu``, ``cpu-process``, ``wall``)."""
    build_levels: Mapping[str, str] = field(default_factory=dict)
    """The sandbox level each bot's build step ran at (``full``... ``none``), built or failed."""
    table: TableJson | None = None
    """A ladder's (or compare's) one table: ``ruleset``, ``options``, ``seats``."""
    blocks: ResultBlocks = field(default_factory=lambda: ResultBlocks())
    """Blocks of one kind of run: ``ladder``, ``sprt``, ``candidates``, ``tune``, ``benchmarks``."""

    @property
    def title(self) -> str:
        """What the run is, for a page's heading."""
        if self.kind == "match":
            st: StageJson | TableJson | None = self.stages[0] if len(self.stages) == 1 else self.table
            names = [str(b["name"]) for b in self.bots if b.get("name")] or self.standings.bots
            return match_title(str(st.get("ruleset") or "") if st else "", names)
        if self.kind == "ladder":
            return f"Ladder {self.name}"
        if self.kind == "compare":
            return f"Compare {self.name}"
        if self.kind == "tune":
            return f"Tune {self.name.removeprefix('tune ')}"
        if self.kind == "benchmarks":
            return f"Benchmark tests of {self.name}"
        return f"Arena {self.name}"

    def to_json(self) -> ResultsJson:
        s = self.standings
        # Built key by key (the order of the keys is the file's), then taken for the shape it was built to.
        out: dict[str, object] = {"format": RESULTS_FORMAT, "version": RESULTS_VERSION,
                           "kind": "arena" if self.kind == "ladder" else self.kind, "name": self.name,
                           "complete": self.complete, "seed": self.seed, "games": self.games}
        if self.games_planned is not None:
            out["games_planned"] = self.games_planned
        out.update(policy=self.policy, rank_by=self.rank_by)
        if self.table is not None:
            out.update(self.table)
        if self.stages:
            out["stages"] = [dict(st) for st in self.stages]
        out["bots"] = [dict(b) for b in self.bots]
        if self.kind != "ladder":
            out["sandbox_levels"] = dict(self.sandbox_levels)
            out["clock_levels"] = dict(self.clock_levels)
            if self.build_levels:
                out["build_levels"] = dict(self.build_levels)
        out["left_out"] = [x.to_json() for x in s.left_out]
        out["order"] = OrderJson(rule=s.rule, tied=TIED, rank_ranges=s.rank_ranges())
        out["rating"] = dict(self.rating)
        out["standings"] = [r.to_json() for r in s.rows]
        out["head_to_head"] = self.head_to_head.to_json()
        out.update(self.blocks)
        return cast(ResultsJson, out)

    def dumps(self) -> str:
        """results.json text: stable key order as built, two-space indent, final newline."""
        return json.dumps(self.to_json(), indent=2, ensure_ascii=False) + "\n"

    @classmethod
    def from_json(cls, data: ResultsJson, timing: TimingJson | None = None) -> ResultsDoc:
        """results.json read back (with timing.json's per-bot times, where given)."""
        table: TableJson | None = None
        if "ruleset" in data:
            table = TableJson(ruleset=data["ruleset"], options=data.get("options", {}), seats=data.get("seats", 0))
        blocks = ResultBlocks()
        if "ladder" in data:
            blocks["ladder"] = data["ladder"]
        if "sprt" in data:
            blocks["sprt"] = data["sprt"]
        if "candidates" in data:
            blocks["candidates"] = data["candidates"]
        if "tune" in data:
            blocks["tune"] = data["tune"]
        if "benchmarks" in data:
            blocks["benchmarks"] = data["benchmarks"]
        return cls(kind="ladder" if "ladder" in data else str(data.get("kind", "arena")),
                   name=str(data.get("name", "")), complete=bool(data.get("complete", True)),
                   seed=int(data.get("seed") or 0), games=int(data.get("games") or 0),
                   policy=str(data.get("policy", "")), rank_by=str(data.get("rank_by", "rating")),
                   standings=standings_from_json(data, timing),
                   head_to_head=HeadToHead.from_json(data.get("head_to_head")),
                   rating=data.get("rating") or RatingJson(), bots=tuple(data.get("bots") or ()),
                   stages=tuple(data.get("stages") or ()),
                   games_planned=data.get("games_planned"), sandbox_levels=data.get("sandbox_levels") or {},
                   clock_levels=data.get("clock_levels") or {}, build_levels=data.get("build_levels") or {},
                   table=table, blocks=blocks)


def standings_from_json(data: ResultsJson, timing: TimingJson | None = None) -> Standings:
    """The ``Standings`` results.json holds: rows with their rank ranges and times, the bots left out, the rule,
    the stages."""
    order = data.get("order")
    ranges = (order.get("rank_ranges") if order else None) or {}
    times = (timing.get("bots") if timing else None) or {}
    rows = tuple(StandingRow.from_json(r, ranges.get(r["bot"]), times.get(r["bot"]))
                 for r in data.get("standings") or ())
    stages = tuple(data.get("stages") or ())
    summaries = tuple(StageSummary(
        st.get("name", ""), st.get("format", ""), st.get("ruleset", ""), int(st.get("seats") or 0),
        int(st.get("played", 0)), tuple(st.get("rounds") or ()),
        tuple(StageRecord(**rec) for rec in st.get("records") or ())) for st in stages)
    rulesets = stage_rulesets(stages) if stages else stage_rulesets(
        [TableJson(ruleset=data["ruleset"], options=data.get("options", {}), seats=data.get("seats", 0))]
        if "ruleset" in data else [])
    return Standings(rows, tuple(LeftOutEntry(x["bot"], x["reason"]) for x in data.get("left_out") or ()),
                     order.get("rule", "") if order else "", bool(data.get("complete", True)), summaries, rulesets)


def read_results_doc(out_dir: str) -> ResultsDoc | None:
    """The results document of a results directory (with its timing.json), or None while none is written."""
    folder = ResultsDir(out_dir)
    data = folder.read_results()
    return None if data is None else ResultsDoc.from_json(data, folder.read_timing())
