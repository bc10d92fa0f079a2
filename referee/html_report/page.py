"""Assembling report.html: the standings, chart, matrix and faults as static HTML, the games as data.

The page is one file with its style and script inlined and nothing loaded from the network. What grows
with the number of games stays out of the DOM until it is shown: the game list is a JSON index drawn a
page at a time, and each game's replay is a compact text (``tape``) decoded only when it is opened.

Past ``INLINE_GAMES`` games the page carries the standings, the faults and the first ``SAMPLE_GAMES``
games, and the rest go to shard files in a folder beside it (``report_files/games-00001.js``), each a
script the page adds with ``<script src>`` when the reader pages on or opens a game in it: a page opened
from disk (``file://``) may not ``fetch()`` in Chromium, but it may load a script next to it. The page is
written reading games.jsonl a line at a time, so memory does not grow with the run either.
"""

from __future__ import annotations

import functools
import html
import itertools
import json
import os
import re
import shlex
import signal
from array import array
from collections import Counter, defaultdict
from dataclasses import dataclass
from importlib import resources
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

from referee.arena.bot_reports import request_line, stderr_by_game
from referee.arena.results_doc import ResultsDoc
from referee.engine.cardfaces import CSS, MARKS, WILD_MARK
from referee.engine.notation import InvalidReplayError, walk
from referee.engine.rules import PRESETS
from referee.html_report.sprt_chart import sprt_section
from referee.html_report.tape import tape
from referee.protocol.messages import turn_request
from referee.replay.ask import ask_command
from referee.replay.text import fault_turns, turn_of_faults
from referee.standings.model import StandingRow, Standings
from referee.standings.render import column_notes, columns, format_rating
from referee.store.game_source import (
    STDERR_TAIL_LINES,
    SourceGame,
    complete_line,
    game_defaults,
    read_results,
    stderr_path,
    stderr_tail,
    stored_for,
)

#: Faults shown in full (request, answer, replay command) per bot; the rest are counted.
FAULT_DETAILS = 20
#: Up to this many games the page carries them all; past it, a sample and shards beside it.
INLINE_GAMES = 2000
#: The games a sharded page carries itself (the first, in id order).
SAMPLE_GAMES = 500
#: Games per shard file (about 0.3 to 0.8 MB of index and tapes).
SHARD_GAMES = 2000
#: The games whose replays the page and its shards carry: the first, in id order. Each replay costs the referee
#: about 3 ms (a million-game page would take an hour); past these, a game's row says who played and how it
#: ended, and ``lastcard replay`` shows it.
TAPED_GAMES = 10_000
#: Games with faults replayed for the page beyond ``TAPED_GAMES`` (their faults' turns come from the replay).
TAPED_FAULTED = 2_000
REPORT_NAME = "report.html"
#: Games a report process replays per message (``_tapes``).
TAPE_CHUNK = 8
#: JavaScript reads integers beyond this as the nearest double: the page carries them as strings.
JS_SAFE_INT = 2**53 - 1


class ReportError(ValueError):
    """A results directory the report cannot be made from (named, with what is missing)."""


def write_report(out_dir: str, path: str | None = None, *, inline_games: int = INLINE_GAMES,
                 sample_games: int = SAMPLE_GAMES, shard_games: int = SHARD_GAMES, taped_games: int = TAPED_GAMES,
                 taped_faulted: int = TAPED_FAULTED, jobs: int = 1) -> str:
    """Write ``out_dir/report.html`` (or ``path``) from the results directory ``out_dir``; its path.

    Past ``inline_games`` games, the page keeps ``sample_games`` and the others go to shard files of
    ``shard_games`` games in ``NAME_files/`` beside it (``report_files/`` for report.html). Only the first
    ``taped_games`` games, and ``taped_faulted`` more with faults, are replayed for the viewer: the time to
    write the page stays bounded whatever the run's length. ``jobs`` processes replay them (the page is the
    same, byte for byte, for any number).
    """
    results = read_results(out_dir)
    games_path = os.path.join(out_dir, "games.jsonl")
    if not results and not os.path.exists(games_path):
        raise ReportError(f"{out_dir} has neither results.json nor games.jsonl: give the output directory of "
                          "`lastcard arena` or `lastcard match --out`")
    target = path or os.path.join(out_dir, REPORT_NAME)
    games = GameFile(games_path, game_defaults(results))
    shards = None
    if len(games) > inline_games:
        shards = ShardWriter(target, sample_games, shard_games)
    page = render(out_dir, results, games, shards, _Taping(taped_games, taped_faulted), jobs=jobs)
    tmp = target + ".tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write(page)
    os.replace(tmp, target)  # a reader never sees half a page
    return target


class GameFile:
    """games.jsonl's lines in game-id order (as ``in_id_order`` sorts them), read from disk each time it is
    iterated: only each line's offset and sort key stay in memory."""

    def __init__(self, path: str, defaults: Mapping[str, Any]) -> None:
        self.path = path
        self.defaults = defaults
        self._order = array("q")
        if not os.path.exists(path):
            return
        offsets = array("q")
        numbers = array("q")  # the ids' numbers while every id is one prefix and digits (g0001, g0002, ...)
        prefix: bytes | None = None
        keys: list[Any] | None = None  # natural sort keys, once an id breaks that pattern
        at = 0
        with open(path, "rb") as fh:
            for raw in fh:
                if raw.strip():
                    m = _ID.match(raw)
                    game = m.group(1) if m else str(json.loads(raw).get("game")).encode()
                    plain = _PLAIN.fullmatch(game)
                    if keys is None and plain and (prefix is None or plain.group(1) == prefix):
                        prefix = plain.group(1)
                        numbers.append(int(plain.group(2)))
                    else:
                        if keys is None:  # fall back to natural keys for the ids so far, then for every id
                            keys = [_natural(prefix.decode() + str(n)) for n in numbers] if prefix is not None else []
                        keys.append(_natural(game.decode()))
                    offsets.append(at)
                at += len(raw)
        if keys is not None:
            self._order = array("q", (offsets[i] for i in sorted(range(len(offsets)), key=keys.__getitem__)))
        elif offsets:  # numbers: sorted in arrays, without a Python object a game
            import numpy as np

            by_id = np.argsort(np.frombuffer(numbers, dtype=np.int64), kind="stable")
            self._order = array("q", np.frombuffer(offsets, dtype=np.int64)[by_id].tobytes())

    def __len__(self) -> int:
        return len(self._order)

    def __iter__(self) -> Iterator[dict[str, Any]]:
        with open(self.path, "rb") as fh:
            for offset in self._order:
                fh.seek(offset)
                yield complete_line(json.loads(fh.readline()), self.defaults)  # type: ignore[arg-type]


_ID = re.compile(rb'\{"game":\s*"([^"\\]*)"')
_PLAIN = re.compile(rb"([A-Za-z_-]*)([0-9]{1,18})")


def _natural(game: str) -> list[tuple[int, int | str]]:
    # Digits compare as numbers so that ids of any width sort as people count.
    return [(0, int(part)) if part.isdigit() else (1, part) for part in re.split(r"(\d+)", game)]


class ShardWriter:
    """The shard files of a sharded page: ``NAME_files/games-NNNNN.js``, each ``lastcardShard(rows, tapes)``."""

    def __init__(self, target: str, sample: int, size: int) -> None:
        stem = os.path.splitext(os.path.basename(target))[0]
        self.folder_name = f"{stem}_files"
        self.folder = os.path.join(os.path.dirname(os.path.abspath(target)), self.folder_name)
        self.sample = sample
        self.size = size
        self.files: list[list[Any]] = []
        """Per shard: its src (relative to the page), its number of games, its first and last game id."""
        if os.path.isdir(self.folder):
            for name in os.listdir(self.folder):
                if name.startswith("games-") and name.endswith(".js"):
                    os.remove(os.path.join(self.folder, name))
        os.makedirs(self.folder, exist_ok=True)

    def write(self, rows: list[list[Any]], tapes: list[str]) -> None:
        name = f"games-{len(self.files) + 1:05d}.js"
        with open(os.path.join(self.folder, name), "w", encoding="utf-8") as fh:
            # A row's one number past 2^53 is its seed, made exact as the row was built (``_games``): the rows
            # are written as they are, not walked value by value (a third of a long run's page time).
            rows_text = json.dumps(rows, separators=(",", ":")).replace("<", "\\u003c")
            fh.write(f"lastcardShard({rows_text},{json.dumps('#'.join(tapes))});\n")
        self.files.append([f"{self.folder_name}/{name}", len(rows), rows[0][0], rows[-1][0]])


class _Taping:
    """Which games are replayed for the viewer: the first ``first``, and up to ``faulted`` more with faults."""

    def __init__(self, first: int = TAPED_GAMES, faulted: int = TAPED_FAULTED) -> None:
        self.first = first
        self.faulted = faulted
        self.left_out = 0

    def wanted(self, count: int, line: Mapping[str, Any]) -> bool:
        if count < self.first:
            return True
        if line.get("faults") and self.faulted > 0:
            self.faulted -= 1
            return True
        self.left_out += 1
        return False


def render(out_dir: str, results: Mapping[str, Any], lines: Iterable[dict[str, Any]],
           shards: ShardWriter | None = None, taping: _Taping | None = None, jobs: int = 1) -> str:
    """The whole page as text (``lines`` is read twice, a line at a time: a ``GameFile`` or a list)."""
    if not isinstance(lines, GameFile):
        lines = in_id_order(lines)
    timing = _read_timing(out_dir)
    standings = ResultsDoc.from_json(results, timing).standings if results else None
    bots = list(standings.bots) if standings else []
    count = 0
    rounds = _RoundCounts()
    faulted = _Faulted()
    for line in lines:
        count += 1
        for name in line.get("seating") or []:
            if name not in bots:
                bots.append(name)
        rounds.add(line)
        faulted.add(line)
    stages = _stage_rounds(results, rounds)
    taping = taping or _Taping()
    index, tapes, problems = _games(out_dir, lines, bots, stages, shards, taping, jobs)
    title = _title(results, out_dir, bots)
    data = {"title": title, "bots": bots, "colours": CSS, "marks": {c: m for c, (_, m) in MARKS.items()},
            "wild": WILD_MARK, "games": index, "replay": _replay_command(out_dir), "problems": problems,
            "stages": _stage_filter(stages) if _has_breakdown(stages) else [], "total": count,
            "shards": shards.files if shards else [],
            "untaped": f"the page replays the first {taping.first} games and those with faults; in a terminal: "
                       f"{_replay_command(out_dir)}" if taping.left_out else ""}
    body = "\n".join([
        f"<header><h1>{_e(title)}</h1><p class=sub>{_e(_summary(results, count))}</p>"
        "<nav><a href='#standings'>Standings</a> "
        + ("<a href='#stages'>Stages</a> " if _has_breakdown(stages) else "")
        + "<a href='#h2h'>Head to head</a> <a href='#faults'>Faults</a> <a href='#games'>Games</a></nav></header>",
        sprt_section(results.get("sprt")),
        _standings_section(standings),
        _stages_section(stages, bots),
        _h2h_section(results.get("head_to_head") or {}),
        _faults_section(out_dir, faulted, bots),
        _asset("games.html"),
    ])
    return (f"<!doctype html>\n<html lang=en><head><meta charset=utf-8>"
            f"<meta name=viewport content='width=device-width, initial-scale=1'>"
            f"<title>{_e(title)}</title><style>{_asset('report.css')}</style></head>\n<body>\n{body}\n"
            f"<script type='application/json' id=lc-data>{_json(data)}</script>\n"
            # Tapes use only letters, digits and . , | ~ + ! - : = @ and newlines: safe as raw script text.
            f"<script type='text/plain' id=lc-tapes>{'#'.join(tapes)}</script>\n"
            f"<script>{_asset('report.js')}</script>\n</body></html>\n")


class _RoundCounts:
    """Games and players of each (stage, round) in games.jsonl, counted a line at a time."""

    def __init__(self) -> None:
        self.games: dict[tuple[str, int], int] = defaultdict(int)
        self.players: dict[tuple[str, int], dict[str, None]] = defaultdict(dict)

    def add(self, line: Mapping[str, Any]) -> None:
        if line.get("stage") is not None:
            key = (str(line["stage"]), int(line.get("round") or 1))
            self.games[key] += 1
            for n in line.get("seating") or []:
                self.players[key].setdefault(n, None)


class _Faulted:
    """The faults of games.jsonl by bot: the first ``FAULT_DETAILS`` with their games, and a count by kind."""

    def __init__(self) -> None:
        self.shown: dict[str, list[tuple[dict[str, Any], dict[str, Any]]]] = defaultdict(list)
        self.kinds: dict[str, Counter[str]] = defaultdict(Counter)

    def add(self, line: dict[str, Any]) -> None:
        for fault in line.get("faults") or []:
            bot = fault.get("bot") or (line["seating"][fault["seat"]] if isinstance(fault.get("seat"), int) else "?")
            self.kinds[bot][fault["kind"]] += 1
            if len(self.shown[bot]) < FAULT_DETAILS:
                self.shown[bot].append((line, fault))


def in_id_order(lines: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The games by id (``g9`` before ``g10``), not in the order they finished."""
    def key(line: Mapping[str, Any]) -> list[tuple[int, int | str]]:
        # Digits compare as numbers so that ids of any width sort as people count.
        return [(0, int(part)) if part.isdigit() else (1, part) for part in re.split(r"(\d+)", str(line.get("game")))]
    return sorted(lines, key=key)


def _title(results: Mapping[str, Any], out_dir: str, bots: Sequence[str]) -> str:
    if not results:
        return f"Results in {out_dir}"
    return ResultsDoc.from_json(results).title


def _ruleset_name(results: Mapping[str, Any]) -> str:
    stages = results.get("stages") or []
    return str(results.get("ruleset") or (stages[0].get("ruleset") if len(stages) == 1 else "") or "")


def _house_options(results: Mapping[str, Any]) -> str:
    """A match's options that differ from its ruleset's preset, as ``stacking true, target 200``."""
    stages = results.get("stages") or []
    name = _ruleset_name(results)
    options = results.get("options") or (stages[0].get("options") if len(stages) == 1 else None) or {}
    preset = PRESETS[name].options if name in PRESETS else {}
    changed = [f"{k} {json.dumps(v) if isinstance(v, bool) else v}" for k, v in options.items() if preset.get(k, v) != v]
    return ", ".join(changed)


def _summary(results: Mapping[str, Any], count: int) -> str:
    parts = [f"{count} games"]
    if results.get("kind") == "match" and _house_options(results):
        parts.append(f"house options: {_house_options(results)}")
    if results.get("seed") is not None:
        parts.append(f"seed {results['seed']}")
    if results.get("policy"):
        parts.append(f"policy {results['policy']}")
    if results and not results.get("complete", True):
        parts.append("incomplete: the arena was interrupted")
    return " · ".join(parts)


def _replay_command(out_dir: str) -> str:
    return f"lastcard replay {shlex.quote(out_dir)}"


# ---------------------------------------------------------------------------------------- standings
def _read_timing(out_dir: str) -> dict[str, Any] | None:
    try:
        with open(os.path.join(out_dir, "timing.json"), encoding="utf-8") as fh:
            timing: dict[str, Any] = json.load(fh)
            return timing
    except (OSError, ValueError):
        return None


def _standings_section(standings: Standings | None) -> str:
    """The standings table as every surface draws it (``standings_render.columns``), the bots left out with
    their reasons, the legend and the rating chart."""
    if standings is None or not (standings.rows or standings.left_out):
        return "<section id=standings><h2>Standings</h2><p>No standings yet (results.json is missing).</p></section>"
    cols = columns(standings)
    head = "".join(f"<th class={'txt' if c.left else 'num'}>{_e(c.header)}</th>" for c in cols)
    rows = []
    for r in standings.rows:
        cells = "".join(f"<td class={'bot' if c.header == 'bot' else 'txt' if c.left else 'num'}>{_e(c.cell(r))}</td>"
                        for c in cols)
        rows.append(f"<tr data-bot='{_e(r.bot)}'>{cells}</tr>")
    for x in standings.left_out:
        rows.append(f"<tr class=left-out data-bot='{_e(x.bot)}'><td class=num>-</td><td class=bot>{_e(x.bot)}</td>"
                    f"<td class=txt colspan={len(cols) - 2}>left out: {_e(x.reason)}</td></tr>")
    rule = f"<p class=rule>Order: {_e(standings.rule)}.</p>" if standings.rule else ""
    legend = "".join(f"<li>{_e(n)}</li>" for n in column_notes(standings))
    table = (f"{rule}<table class=standings><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
             f"<ul class=legend>{legend}</ul>")
    return (f"<section id=standings><h2>Standings</h2>{table}{rating_chart(standings.rows)}"
            f"{_stage_records(standings)}</section>")


def _stage_records(standings: Standings) -> str:
    """Each stage's own records, for a run of more than one stage."""
    if len(standings.stages) < 2:
        return ""
    parts = ["<h3>By stage</h3>"]
    for st in standings.stages:
        rows = "".join(f"<tr><td class=bot>{_e(r.bot)}</td><td class=num>{r.games}</td><td class=num>{r.wins}</td>"
                       f"<td class=num>{r.draws}</td><td class=num>"
                       f"{'-' if r.avg_place is None else f'{r.avg_place:.2f}'}</td></tr>" for r in st.records)
        parts.append(f"<h4>{_e(st.name)} ({_e(st.format)}, {st.games} games)</h4><table class=stage-records><thead>"
                     "<tr><th class=txt>bot</th><th class=num>games</th><th class=num>wins</th><th class=num>draws</th>"
                     f"<th class=num>avg place</th></tr></thead><tbody>{rows}</tbody></table>")
    return "".join(parts)


def rating_chart(rows: Sequence[StandingRow]) -> str:
    """Each bot's rating as a dot and its interval as a bar, one row per bot, as inline SVG."""
    rated = [r for r in rows if r.rating is not None]
    if not rated:
        return "<p>No ratings (too few games).</p>"
    values = [v for r in rated for v in (r.rating, r.rating_low, r.rating_high) if v is not None]
    lo, hi = min(values), max(values)
    span = (hi - lo) or 100.0
    lo, hi = lo - span * 0.05, hi + span * 0.05
    left, width, row_h = 160, 560, 22
    height = row_h * len(rated) + 30

    def x(v: float) -> float:
        return left + (v - lo) / (hi - lo) * width

    parts = [f"<svg class=chart role=img aria-label='ratings with 95% intervals' viewBox='0 0 {left + width + 20} "
             f"{height}' width='{left + width + 20}' height='{height}'>"]
    for tick in _ticks(lo, hi):
        parts.append(f"<line x1='{x(tick):.1f}' x2='{x(tick):.1f}' y1='0' y2='{height - 20}' class=grid />"
                     f"<text x='{x(tick):.1f}' y='{height - 6}' class=tick>{tick:.0f}</text>")
    for i, r in enumerate(rated):
        y = i * row_h + 12
        low = r.rating_low if r.rating_low is not None else lo
        high = r.rating_high if r.rating_high is not None else hi
        assert r.rating is not None
        parts.append(f"<text x='{left - 8}' y='{y + 4}' class=name>{_e(r.bot)}</text>"
                     f"<line x1='{x(low):.1f}' x2='{x(high):.1f}' y1='{y}' y2='{y}' class=interval>"
                     f"<title>{_e(r.bot)}: {_e(format_rating(r))}</title></line>"
                     f"<circle cx='{x(r.rating):.1f}' cy='{y}' r='5' class=rating />")
    parts.append("</svg>")
    return "<figure><figcaption>Rating (Elo scale) with its 95% interval</figcaption>" + "".join(parts) + "</figure>"


def _ticks(lo: float, hi: float) -> list[float]:
    step = 10 ** len(str(int(max(1.0, (hi - lo) / 5)))) / 10
    for mult in (1, 2, 5, 10):
        if (hi - lo) / (step * mult) <= 6:
            step *= mult
            break
    first = (lo // step + 1) * step
    return [first + k * step for k in range(int((hi - first) // step) + 1)]


# ---------------------------------------------------------------------------------------- stages
@dataclass(frozen=True, slots=True)
class RoundRow:
    """One round of a stage as the page lists it: what results.json says of it, and who played its games."""

    stage: str
    number: int
    label: str
    tables: int | None
    games: int
    """Games of this round in games.jsonl (fewer than planned while an arena is interrupted)."""
    players: tuple[str, ...]
    advanced: tuple[str, ...] | None
    """Who went through to the next round (a knockout's); ``()`` after a final; None where the format says nothing."""


@dataclass(frozen=True, slots=True)
class StageRow:
    """One stage of an arena: its settings and its rounds."""

    name: str
    format: str
    ruleset: str
    rounds: tuple[RoundRow, ...]

    @property
    def players(self) -> tuple[str, ...]:
        """Everyone who played a game of this stage, in order of first appearance."""
        return tuple(dict.fromkeys(n for r in self.rounds for n in r.players))


def _stage_rounds(results: Mapping[str, Any], played: _RoundCounts | Iterable[Mapping[str, Any]]) -> list[StageRow]:
    """Each stage and its rounds: results.json's ``stages[i].rounds``, with the rounds games.jsonl adds to them
    (none for a ladder: its batches are not rounds anyone plays through)."""
    if "ladder" in results:
        return []
    if not isinstance(played, _RoundCounts):
        counts = _RoundCounts()
        for line in played:
            counts.add(line)
        played = counts
    declared = {str(st.get("name", "")): st for st in results.get("stages") or []}
    names = list(dict.fromkeys([*declared, *(stage for stage, _ in played.games)]))
    return [StageRow(name, str(declared.get(name, {}).get("format", "")), str(declared.get(name, {}).get("ruleset", "")),
                     _round_rows(name, declared.get(name, {}).get("rounds") or [], played)) for name in names]


def _round_rows(stage: str, declared: Sequence[Mapping[str, Any]], played: _RoundCounts) -> tuple[RoundRow, ...]:
    info = {int(r["round"]): r for r in declared}
    numbers = sorted(set(info) | {n for name, n in played.games if name == stage})
    rows = []
    for number in numbers:
        r = info.get(number, {})
        label = r.get("label") or (stage if len(numbers) == 1 else f"{stage} round {number}")
        rows.append(RoundRow(stage, number, str(label), r.get("tables"), played.games.get((stage, number), 0),
                             tuple(played.players.get((stage, number), {})),
                             tuple(r["advanced"]) if "advanced" in r else None))
    return tuple(rows)


def _has_breakdown(stages: Sequence[StageRow]) -> bool:
    """A breakdown says something only with more than one stage or round."""
    return len(stages) > 1 or any(len(s.rounds) > 1 for s in stages)


def _stage_filter(stages: Sequence[StageRow]) -> list[list[Any]]:
    """The games list's stage filter: ``[stage, games, [[round, label, games], ...]]`` (rounds only where several)."""
    return [[s.name, sum(r.games for r in s.rounds),
             [[r.number, r.label, r.games] for r in s.rounds] if len(s.rounds) > 1 else []] for s in stages]


def _stages_section(stages: Sequence[StageRow], bots: Sequence[str]) -> str:
    if not _has_breakdown(stages):
        return ""
    order = {name: i for i, name in enumerate(bots)}

    def names(values: Iterable[str]) -> str:
        return ", ".join(_e(n) for n in sorted(values, key=lambda n: (order.get(n, len(order)), n)))

    rows = []
    for i, stage in enumerate(stages):
        after = stages[i + 1] if i + 1 < len(stages) else None
        several = len(stage.rounds) > 1
        head = (f"<th rowspan={len(stage.rounds)} class=stage><a href='#games' class=stage-filter "
                f"data-filter='{_e(stage.name)}'>{_e(stage.name)}</a><small>{_e(stage.format)} · {_e(stage.ruleset)}"
                "</small></th>")
        for j, r in enumerate(stage.rounds):
            key = f"{stage.name}|{r.number}" if several else stage.name
            through = _went_through(stage, r, after, names) if j == len(stage.rounds) - 1 or r.advanced else "-"
            rows.append(f"<tr data-stage='{_e(stage.name)}' data-round='{r.number}'>{head if j == 0 else ''}"
                        f"<td class=bot>{_e(r.label) if several else '(one round)'}</td>"
                        f"<td>{'' if r.tables is None else r.tables}</td>"
                        f"<td><a href='#games' class=stage-filter data-filter='{_e(key)}'>{r.games}</a></td>"
                        f"<td class=names>{len(r.players)}: {names(r.players)}</td><td class=names>{through}</td></tr>")
    return ("<section id=stages><h2>Stages</h2><p>Each stage and its rounds: who played, and who went through. "
            "A number of games lists them below.</p><div class=scroll><table class=stages><thead><tr><th>stage</th>"
            "<th>round</th><th>tables</th><th>games</th><th>played</th><th>went through</th></tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table></div></section>")


def _went_through(stage: StageRow, r: RoundRow, after: StageRow | None, names: Callable[[Iterable[str]], str]) -> str:
    """Who went on from a round: a knockout's ``advanced``, or (after a stage's last round) the next stage's players."""
    if r.advanced:
        return f"{len(r.advanced)}: {names(r.advanced)}"
    if r.advanced is not None:
        return "(the final: the standings give its order)"
    if after is None or not after.players:
        return "-"
    if set(after.players) == set(stage.players):
        return f"all {len(after.players)} to {_e(after.name)}"
    return f"to {_e(after.name)}: {len(after.players)}: {names(after.players)}"


# ---------------------------------------------------------------------------------------- head to head
def _h2h_section(h2h: Mapping[str, Any]) -> str:
    names = h2h.get("bots") or []
    if not names:
        return "<section id=h2h><h2>Head to head</h2><p>No games between bots yet.</p></section>"
    head = "".join(f"<th class=v><span>{_e(n)}</span></th>" for n in names)
    rows = []
    for i, name in enumerate(names):
        cells = []
        for j in range(len(names)):
            met = h2h["meetings"][i][j]
            if i == j or not met:
                cells.append("<td class=none></td>")
                continue
            share = h2h["ahead"][i][j] / met
            hue = round(share * 120)  # red (behind) to green (ahead)
            cells.append(f"<td style='background:hsl({hue},60%,85%)' title='{_e(name)} ahead of {_e(names[j])} in "
                         f"{h2h['ahead'][i][j]} of {met} games'>{100 * share:.0f}%</td>")
        rows.append(f"<tr><th>{_e(name)}</th>{''.join(cells)}</tr>")
    return ("<section id=h2h><h2>Head to head</h2><p>How often the row's bot placed ahead of the column's, over the "
            f"games they met.</p><div class=scroll><table class=h2h><thead><tr><th></th>{head}</tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table></div></section>")


# ---------------------------------------------------------------------------------------- faults
def _faults_section(out_dir: str, faulted: _Faulted, bots: Sequence[str]) -> str:
    by_bot = faulted.shown
    if not by_bot:
        return "<section id=faults><h2>Faults</h2><p>No bot made a fault.</p></section>"
    parts = ["<section id=faults><h2>Faults</h2><p>Every fault a bot made, for its author: the request it got, what "
             "it sent back, its stderr, and the command that replays the game from its seat.</p>"]
    for bot in sorted(by_bot, key=lambda b: (bots.index(b) if b in bots else len(bots), b)):
        found = by_bot[bot]
        kinds = faulted.kinds[bot]
        total = sum(kinds.values())
        parts.append(f"<details class=bot-faults data-bot='{_e(bot)}'><summary><b>{_e(bot)}</b>: {total} "
                     f"fault{'s' if total != 1 else ''} ({_e(', '.join(f'{k} {v}' for k, v in kinds.items()))})"
                     "</summary>")
        per_game = stderr_by_game(stderr_path(out_dir, bot))
        if not per_game:  # a log from before games were marked in it: its end is all there is
            tail = stderr_tail(out_dir, bot)
            if tail:
                parts.append(f"<p>The end of its stderr log (all its games):</p><pre class=stderr>{_e(tail)}</pre>")
        for line, fault in found[:FAULT_DETAILS]:
            parts.append(_fault_detail(out_dir, line, fault))
            mine = per_game.get((line["game"], fault.get("seat")), [])[-STDERR_TAIL_LINES:]
            if mine:
                parts.append(f"<p>Its stderr in game {_e(line['game'])} (the last {len(mine)} lines):</p>"
                             f"<pre class=stderr>{_e(chr(10).join(mine))}</pre>")
        if total > len(found):
            parts.append(f"<p>… and {total - len(found)} more: filter the games list by {_e(bot)} with "
                         "faults.</p>")
        parts.append("</details>")
    parts.append("</section>")
    return "".join(parts)


def _fault_detail(out_dir: str, line: dict[str, Any], fault: dict[str, Any]) -> str:
    seat = fault.get("seat")
    game_id = line.get("game", "?")
    command = f"{_replay_command(out_dir)} {shlex.quote(str(game_id))}" + (f" --seat {seat}" if seat is not None else "")
    turn, request = _fault_request(out_dir, line, fault)
    # A game with a fault keeps its full record: the request exactly as the bot got it, clock and id included.
    exact = request_line(out_dir, str(game_id), seat, fault.get("request_id")) if fault.get("request_id") else None
    if exact is not None:
        request = exact
    where = f"turn {turn}" if turn is not None else "before its first turn"
    sent = fault.get("line")
    return (f"<div class=fault><p><b>{_e(fault.get('kind', '?'))}</b> in game "
            f"<a href='#game={_e(game_id)}&turn={turn if turn is not None else 0}' class=open-game "
            f"data-game='{_e(game_id)}' data-turn='{turn if turn is not None else 0}'>{_e(game_id)}</a>, seat "
            f"{seat}, {where}: {_e(fault.get('message', ''))}</p>"
            f"<p>The request:</p><pre>{_e(request)}</pre>"
            f"<p>What it sent back:</p><pre>{_e(sent if sent is not None else '(nothing)')}</pre>"
            f"<p>Replay it: <code>{_e(command)}</code></p>"
            + (f"<p>Ask your bot of today the same: <code>{_e(ask_command(out_dir, str(game_id), seat, turn))}</code></p>"
               if seat is not None else "") + "</div>")


def _fault_request(out_dir: str, line: dict[str, Any], fault: dict[str, Any]) -> tuple[int | None, str]:
    """The turn of a fault and the request the bot got there, rebuilt with the referee's own builder."""
    kind, request_id = fault.get("request_type"), fault.get("request_id")
    if kind not in (None, "turn"):  # a hello has no id: say which message, not "request None"
        return None, f"(the {kind} message" + (f", request {request_id})" if request_id is not None else ")")
    try:
        stored = stored_for(out_dir, line)
        faults = line.get("faults") or []
        turns = turn_of_faults(SourceGame(stored, line, None, None, ""))
        turn = next((t for f, t in zip(faults, turns) if f is fault), None)
        if turn is None:
            return None, "(startup: the hello message)" if fault.get("kind") == "startup" else "(no request)"
        for i, game, _action, _stand_in in walk(stored):
            if i == turn:
                request = turn_request(game, game.current, game.legal_actions(), fault.get("request_id") or 0, 0, 0)
                for key in ("time_left_ms", "bank_ms"):  # a replay does not know the clock
                    request.pop(key)
                return turn, json.dumps(request)
    except InvalidReplayError as exc:
        return None, f"(cannot be rebuilt: {exc})"
    return None, "(no request)"


# ---------------------------------------------------------------------------------------- games
def _games(out_dir: str, lines: Iterable[dict[str, Any]], bots: list[str], stages: Sequence[StageRow] = (),
           shards: ShardWriter | None = None, taping: _Taping | None = None, jobs: int = 1
           ) -> tuple[list[list[Any]], list[str], list[str]]:
    """The game index (one short row per game), each game's tape, and the games that could not be replayed.

    A row: id, stage (or round) label, ruleset, seed, seats (bot numbers), placements, fault count, turns of the
    whole game, faults ``[turn, seat, message]``, a note, stage, round. A game ``taping`` leaves out has no tape
    (and no faults' turns): its row only.
    """
    taping = taping or _Taping()
    index: list[list[Any]] = []
    tapes: list[str] = []
    problems: list[str] = []
    position = {name: i for i, name in enumerate(bots)}
    labels = {(s.name, r.number): r.label for s in stages if len(s.rounds) > 1 for r in s.rounds}
    page_rows, page_tapes = index, tapes
    wanted = ((line, taping.wanted(count, line)) for count, line in enumerate(lines))
    for count, (line, made) in enumerate(_tapes(out_dir, wanted, jobs, taping.first)):
        if shards is not None and count >= shards.sample and (count - shards.sample) % shards.size == 0:
            if index is not page_rows and index:
                shards.write(index, tapes)
            index, tapes = [], []  # from here on, each game goes to a shard file
        seating = [position[name] for name in line.get("seating") or []]
        text, turns, faults, note, problem = made
        if problem:
            problems.append(problem)
        stage, number = line.get("stage"), line.get("round")
        label = labels.get((str(stage), int(number or 1))) or stage or line.get("ruleset")
        index.append([str(line.get("game")), label, line.get("ruleset"), js_exact(line.get("seed")), seating,
                      line.get("placements"), len(line.get("faults") or []), turns, faults, note, stage, number])
        tapes.append(text)
    if shards is not None and index is not page_rows and index:
        shards.write(index, tapes)
    return page_rows, page_tapes, problems[:100] + ([f"... and {len(problems) - 100} more"] if len(problems) > 100
                                                      else [])


def _tapes(out_dir: str, lines: Iterable[tuple[dict[str, Any], bool]], jobs: int = 1, pooled: int | None = None
           ) -> Iterator[tuple[dict[str, Any], tuple[str, Any, list[list[Any]], str, str | None]]]:
    """Each line with its ``_game_tape`` (a wanted game) or its ``_untaped`` row, in the order of ``lines``: the
    first ``pooled`` (all: None) made by ``jobs`` forked processes, the rest here.

    Replaying games is most of a report's time (540 games of the sample arena: about 1.5 s of CPU), all
    of it after the games: with ``jobs`` workers it scales as they do. Lines go to the processes a few at
    a time through pipes that hold a few hundred, so memory stays flat however many games there are. Past
    the games a long run's page replays in a row (``_Taping.first``), a row costs less to make than to ship
    to a process and back, and the few faulted games replayed there are replayed here.
    """
    items = iter(lines)
    context = _fork_context() if jobs > 1 else None
    if context is not None:
        with context.Pool(jobs, initializer=_report_process) as pool:
            # imap's feeder thread reads ``items`` (its own file handle) while results come back in order; it
            # has taken exactly ``pooled`` of them when the last result is here.
            made = pool.imap(functools.partial(_game_tape_of, out_dir), itertools.islice(items, pooled),
                             chunksize=TAPE_CHUNK)
            yield from made
            pool.close()  # all done: let them exit (leaving the block would terminate them)
            pool.join()
    for item in items:
        yield _game_tape_of(out_dir, item)


def _report_process() -> None:
    """A report process: Ctrl-C and SIGTERM are the command's to handle (it may have made SIGTERM a Ctrl-C),
    and the pool's own SIGTERM ends it quietly."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _fork_context() -> Any:
    """multiprocessing's fork context, or None where there is no fork (spawn would import everything again)."""
    import multiprocessing

    return multiprocessing.get_context("fork") if "fork" in multiprocessing.get_all_start_methods() else None


def _game_tape_of(out_dir: str, item: tuple[dict[str, Any], bool]
                  ) -> tuple[dict[str, Any], tuple[str, Any, list[list[Any]], str, str | None]]:
    line, wanted = item
    return line, (_game_tape(out_dir, line) if wanted else _untaped(line))


def _game_tape(out_dir: str, line: dict[str, Any]) -> tuple[str, Any, list[list[Any]], str, str | None]:
    """One game for the viewer: its tape, its turns (the whole game's), its faults ``[turn, seat, message]``,
    a note, and the problem that kept it from being replayed (None when it was)."""
    turns = line.get("decisions")  # every action of every round (``moves`` is the last round's move counter)
    if line.get("reason") == "lost":
        return "", turns, [], "it was not played (its worker died, twice)", None
    try:
        stored = stored_for(out_dir, line)
        text = tape(stored)
        faults: list[list[Any]] = []
        if line.get("faults"):
            steps = text.split("\n")
            found = fault_turns(SourceGame(stored, line, None, None, ""),
                                lambda wanted: {t: _seat_at(steps, t) for t in wanted})
            faults = [[turn, _seat_at(steps, turn), message] for turn, message in sorted(found.items())]
        return text, len(stored.actions.split()), faults, "", None  # the turns the viewer steps through
    except Exception as exc:  # noqa: BLE001 - one unreadable game must not cost the whole report
        return "", turns, [], str(exc), f"{line.get('game')}: {exc}"


def _untaped(line: dict[str, Any]) -> tuple[str, Any, list[list[Any]], str, str | None]:
    """A game's row without its replay: its turns counted from its actions (as the replay would step them)."""
    actions = line.get("actions")
    turns = len(actions.split()) if isinstance(actions, str) else line.get("decisions")
    if line.get("reason") == "lost":
        return "", turns, [], "it was not played (its worker died, twice)", None
    return "", turns, [], "", None


def _seat_at(steps: list[str], turn: int) -> int | None:
    """The seat to act at ``turn``, read from a tape's step head (``2t7``)."""
    head = steps[turn] if turn < len(steps) else "-"
    return int(head[0]) if head[:1].isdigit() else None


# ---------------------------------------------------------------------------------------- helpers
def _asset(name: str) -> str:
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _json(value: Any) -> str:
    # Inside <script>, "</" would end the element: escape "<" (JSON allows \u003c anywhere in a string).
    return json.dumps(js_exact(value), separators=(",", ":")).replace("<", "\\u003c")


def js_exact(value: Any) -> Any:
    """``value`` with every integer JavaScript cannot hold exactly (past 2^53) as its decimal string."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return value if -JS_SAFE_INT <= value <= JS_SAFE_INT else str(value)
    if isinstance(value, dict):
        return {k: js_exact(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [js_exact(v) for v in value]
    return value
