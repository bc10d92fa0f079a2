"""Assembling report.html: the standings, chart, matrix and faults as static HTML, the games as data.

The page is one file with its style and script inlined and nothing loaded from the network. What grows
with the number of games stays out of the DOM until it is shown: the game list is a JSON index drawn a
page at a time, and each game's replay is a compact text (``tape``) decoded only when it is opened.

Past ``INLINE_GAMES`` games the page carries the standings, the faults and the first ``SAMPLE_GAMES``
games, and the rest go to shard files in a folder beside it (``report_files/games-00001.js``), each a
script the page adds with ``<script src>`` when the reader pages on or opens a game in it: a page opened
from disk (``file://``) may not ``fetch()`` in Chromium, but it may load a script next to it. The page is
written reading games.jsonl a line at a time, so memory does not grow with the run either.

The data: ``gamefile`` (games.jsonl in id order), ``tally`` (stages, rounds, faults counted), ``rows``
(each game's row and tape, the process pool, the shards). The rendering: ``sections`` (the static HTML),
``rating_chart``, ``sprt_chart`` and ``tune_chart`` (SVG), ``tape``; this module puts them on one page.
"""

from __future__ import annotations

import json
import os
from importlib import resources
from typing import Any, Iterable, Mapping, Sequence

from referee.bots.logs import read_log
from referee.builds.steps import first_errors
from referee.engine.cardfaces import CSS, MARKS, WILD_MARK
from referee.engine.rules import PRESETS
from referee.errors import BAD_INPUT, LastcardError
from referee.html_report.benchmark_tests import benchmarks_section
from referee.html_report.collusion import collusion_section
from referee.html_report.gamefile import GameFile, in_id_order
from referee.html_report.markup import arena_bots, esc, page_handout, replay_command
from referee.html_report.rows import TAPED_FAULTED, TAPED_GAMES, Made, ShardWriter, Taping, game_rows, js_exact
from referee.html_report.sections import faults_section, h2h_section, stages_section, standings_section
from referee.html_report.similarity import similarity_section
from referee.html_report.sprt_chart import candidates_section, sprt_section
from referee.html_report.students import StudentPages, students_section
from referee.html_report.tally import Faulted, RoundCounts, has_breakdown, stage_filter, stage_rounds
from referee.html_report.tapes_beside import forget_tapes, made_tapes
from referee.html_report.tune_chart import tune_section
from referee.standings.results_doc import ResultsDoc
from referee.store.disk import atomic_write
from referee.store.results import GameLineJson
from referee.store.results_dir import ResultsDir
from referee.store.results_shapes import ResultsJson

__all__ = ["INLINE_GAMES", "REPORT_NAME", "SAMPLE_GAMES", "SHARD_GAMES", "ReportError", "in_id_order", "js_exact",
           "render", "write_report"]


#: Up to this many games the page carries them all; past it, a sample and shards beside it.
INLINE_GAMES = 2000


#: The games a sharded page carries itself (the first, in id order).
SAMPLE_GAMES = 500


#: Games per shard file (about 0.3 to 0.8 MB of index and tapes).
SHARD_GAMES = 2000


REPORT_NAME = ResultsDir.REPORT


class ReportError(LastcardError, ValueError):
    """A results directory the report cannot be made from (named, with what is missing)."""

    exit_code = BAD_INPUT


def write_report(out_dir: str, path: str | None = None, *, inline_games: int = INLINE_GAMES,
                 sample_games: int = SAMPLE_GAMES, shard_games: int = SHARD_GAMES, taped_games: int = TAPED_GAMES,
                 taped_faulted: int = TAPED_FAULTED, jobs: int = 1) -> str:
    """Write ``out_dir/report.html`` (or ``path``) from the results directory ``out_dir``; its path.

    Past ``inline_games`` games, the page keeps ``sample_games`` and the others go to shard files of
    ``shard_games`` games in ``NAME_files/`` beside it (``report_files/`` for report.html). Only the first
    ``taped_games`` games, and ``taped_faulted`` more with faults, are replayed for the viewer: the time to
    write the page stays bounded whatever the run's length. ``jobs`` processes replay them (the page is the
    same, byte for byte, for any number). The tapes made beside the games (``tapes_beside``) are used where their
    line is the game's, and removed once the page is written.
    """
    folder = ResultsDir(out_dir)
    results = folder.read_results()
    if not results and not folder.has_games():
        raise ReportError(f"{out_dir} has neither results.json nor games.jsonl: give the output directory of "
                          "`lastcard arena` or `lastcard match --out`")
    target = path or folder.report
    games = GameFile(folder.games_log, folder.line_defaults())
    shards = None
    if len(games) > inline_games:
        shards = ShardWriter(target, sample_games, shard_games)
    pages = StudentPages(authors(out_dir, results), page_handout(out_dir))
    page = render(out_dir, results, games, shards, Taping(taped_games, taped_faulted), jobs=jobs, students=pages,
                  made=made_tapes(out_dir))
    written = atomic_write(target, page)  # a reader never sees half a page
    forget_tapes(out_dir)
    standings = ResultsDoc.from_json(results).standings if results else None
    builds = {x.bot: first_errors(read_log(folder.build_log(x.bot), 0))
              for x in (standings.left_out if standings else ()) if os.path.exists(folder.build_log(x.bot))}
    pages.write(os.path.dirname(os.path.abspath(target)), os.path.basename(target), standings, folder.read_grades(),
                _title(results, out_dir, []), builds)
    return written


def authors(out_dir: str, results: ResultsJson | None) -> list[str]:
    """The bots that get a page of their own: every bot of the run but the built-in players (``arena.json``, or
    results.json's bots, say which are), in the standings' order, then those left out."""
    named: list[Mapping[str, object]] = [*arena_bots(out_dir), *(results.get("bots") or [] if results else [])]
    builtin = {str(b.get("name")) for b in named if isinstance(b, dict)
               and str(b.get("command", "")).startswith("builtin:")}
    standings = ResultsDoc.from_json(results).standings if results else None
    names = [r.bot for r in standings.rows] + [x.bot for x in standings.left_out] if standings else []
    return [n for n in dict.fromkeys(names) if n not in builtin]


def render(out_dir: str, results: ResultsJson | None, lines: Iterable[GameLineJson],
           shards: ShardWriter | None = None, taping: Taping | None = None, jobs: int = 1,
           students: StudentPages | None = None, made: Made | None = None) -> str:
    """The whole page as text (``lines`` is read twice, a line at a time: a ``GameFile`` or a list); ``students``
    collects the bots' own pages (written beside it by ``write_report``); ``made``: tapes made beside the games."""
    if not isinstance(lines, GameFile):
        lines = in_id_order(lines)
    standings = ResultsDoc.from_json(results, ResultsDir(out_dir).read_timing()).standings if results else None
    bots = list(standings.bots) if standings else []
    count = 0
    rounds = RoundCounts()
    faulted = Faulted()
    for line in lines:
        count += 1
        for name in line.get("seating") or []:
            if name not in bots:
                bots.append(name)
        rounds.add(line)
        faulted.add(line)
    stages = stage_rounds(results, rounds)
    taping = taping or Taping()
    handout = page_handout(out_dir)
    made_rows = game_rows(out_dir, lines, bots, stages, shards, taping, jobs, handout,
                          students.add if students is not None else None, made)
    title = _title(results, out_dir, bots)
    alike = similarity_section(out_dir)
    helping = collusion_section(out_dir)
    data = {"title": title, "bots": bots, "colours": CSS, "marks": {c: m for c, (_, m) in MARKS.items()},
            "wild": WILD_MARK, "games": [row.to_json() for row in made_rows.rows], "replay": replay_command(),
            "problems": made_rows.problems,
            "stages": stage_filter(stages) if has_breakdown(stages) else [], "total": count,
            "shards": [f.to_json() for f in shards.files] if shards else [],
            "untaped": f"the page replays the first {taping.first} games and those with faults; in a terminal, in the "
                       f"results folder: {replay_command()}" if taping.left_out else ""}
    body = "\n".join([
        f"<header><h1>{esc(title)}</h1><p class=sub>{esc(_summary(results, count))}</p>"
        + _nav(has_breakdown(stages), bool(alike), bool(helping), bool(students and students.bots)) + "</header>",
        _command_section(results),
        standings_section(standings, handout),
        students_section(list(students.bots) if students is not None else []),
        stages_section(stages, bots),
        h2h_section(results.get("head_to_head") if results else None),
        alike,
        helping,
        faults_section(out_dir, faulted, bots, handout),
        _asset("games.html"),
    ])
    return (f"<!doctype html>\n<html lang=en><head><meta charset=utf-8>"
            f"<meta name=viewport content='width=device-width, initial-scale=1'>"
            f"<title>{esc(title)}</title><style>{_asset('report.css')}</style></head>\n<body>\n{body}\n"
            f"<script type='application/json' id=lc-data>{_json(data)}</script>\n"
            # Tapes use only letters, digits and . , | ~ + ! - : = @ and newlines: safe as raw script text.
            f"<script type='text/plain' id=lc-tapes>{'#'.join(made_rows.tapes)}</script>\n"
            # The bots' notes: a line a game with any, its index and its JSON ("<" escaped: no "</" ends the element).
            f"<script type='text/plain' id=lc-notes>{chr(10).join(made_rows.notes)}</script>\n"
            f"<script>{_asset('report.js')}</script>\n</body></html>\n")


def _nav(stages: bool, alike: bool, helping: bool = False, pages: bool = False) -> str:
    """The page's links to its sections: the stages, the play-alike matrix, the pairs that help each other and the
    bots' pages only where the page has them."""
    return ("<nav><a href='#standings'>Standings</a> " + ("<a href='#stages'>Stages</a> " if stages else "")
            + "<a href='#h2h'>Head to head</a> " + ("<a href='#similar'>Play alike</a> " if alike else "")
            + ("<a href='#collusion'>Help each other</a> " if helping else "")
            + ("<a href='#pages'>A page per bot</a> " if pages else "")
            + "<a href='#faults'>Faults</a> <a href='#games'>Games</a></nav>")


def _command_section(results: ResultsJson | None) -> str:
    """The block of the command that made the run, first on the page: a comparison, a family of candidates or
    a tune ("" for an arena or a match)."""
    if not results:
        return ""
    return (sprt_section(results.get("sprt")) or candidates_section(results.get("candidates"))
            or tune_section(results.get("tune")) or benchmarks_section(results.get("benchmarks")))


def _title(results: ResultsJson | None, out_dir: str, bots: Sequence[str]) -> str:
    if not results:
        return f"Results in {os.path.basename(os.path.abspath(out_dir))}"
    return ResultsDoc.from_json(results).title


def _ruleset_name(results: ResultsJson) -> str:
    stages = results.get("stages") or []
    return str(results.get("ruleset") or (stages[0].get("ruleset") if len(stages) == 1 else "") or "")


def _house_options(results: ResultsJson) -> str:
    """A match's options that differ from its ruleset's preset, as ``stacking true, target 200``."""
    stages = results.get("stages") or []
    name = _ruleset_name(results)
    options: Mapping[str, object] = (results.get("options") or (stages[0].get("options") if len(stages) == 1
                                                                  else None) or {})
    preset = PRESETS[name].options if name in PRESETS else {}
    changed = [f"{k} {json.dumps(v) if isinstance(v, bool) else v}" for k, v in options.items()
               if preset.get(k, v) != v]
    return ", ".join(changed)


def _summary(results: ResultsJson | None, count: int) -> str:
    parts = [f"{count} games"]
    if not results:
        return " · ".join(parts)
    if results.get("kind") == "match" and _house_options(results):
        parts.append(f"house options: {_house_options(results)}")
    if results.get("seed") is not None:
        parts.append(f"seed {results['seed']}")
    if results.get("policy"):
        parts.append(f"policy {results['policy']}")
    if results and not results.get("complete", True):
        parts.append("incomplete: the arena was interrupted")
    return " · ".join(parts)


def _asset(name: str) -> str:
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def _json(value: Any) -> str:
    # Inside <script>, "</" would end the element: escape "<" (JSON allows \u003c anywhere in a string).
    return json.dumps(js_exact(value), separators=(",", ":")).replace("<", "\\u003c")
