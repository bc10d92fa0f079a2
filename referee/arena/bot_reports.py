"""A report per entrant, ``OUT/bots/NAME.md``: what a student reads about their own bot.

Its place and record, its submission and build log, each fault with the request, the line it sent,
the stderr it wrote in that game and the command that replays it, and its ``lastcard check`` result.
Every entrant gets one, the bots left out included (with why), plus ``OUT/bots/index.md`` listing all.
Reading only: everything comes from the run's documents and the files in ``OUT``. A report goes to the
student: it names no path of the teacher's machine (``store.handout``): its commands run in the results folder.
"""

from __future__ import annotations

import os
import shlex
from typing import Any, Iterable, Mapping, Sequence

from referee.bots.entry import BotEntry
from referee.bots.logs import read_log, safe_name
from referee.builds.steps import LeftOut
from referee.grading.grade import Grade
from referee.protocol.faults import Fault
from referee.replay.locate import faults_in
from referee.replay.requests import ask_command, request_line
from referee.standings.model import StandingRow
from referee.standings.render import format_faults, format_rating
from referee.standings.results_doc import ResultsDoc
from referee.store.bot_logs import stderr_by_game
from referee.store.disk import atomic_write
from referee.store.handout import HERE, Handout, in_folder
from referee.store.results import GameLine
from referee.store.results_dir import ResultsDir

#: Faults shown in full (request, answer, stderr, replay); the rest are listed one a line.
FAULTS_SHOWN = 10
#: Faults listed at all (a bot that faults every game would otherwise write a book).
FAULTS_LISTED = 100
#: Lines of a game's stderr shown with a fault, and of a build log.
STDERR_TAIL = 15
BUILD_TAIL = 60
#: Longest request or line quoted (a turn is a few kilobytes; a bot's garbage may be more).
QUOTE_LIMIT = 8000


def write_bot_reports(out_dir: str, doc: ResultsDoc, games: Iterable[GameLine],
                      entries: Sequence[BotEntry], left_out: Sequence[LeftOut] = (),
                      checks: Mapping[str, Mapping[str, Any]] | None = None,
                      folder: str = ResultsDir.BOT_REPORTS, grades: Mapping[str, Grade] | None = None,
                      notes: Sequence[str] = ()) -> list[str]:
    """Write ``OUT/bots/NAME.md`` for every entrant in ``entries`` (the arena's bots before builds) and
    ``OUT/bots/index.md``; the paths written. ``checks`` maps a bot's name to its check report's JSON; ``grades``
    a bot's name to its grade (an arena with ``grading:``), explained in its report; ``notes`` what the index says
    about the grades (a class the ranks do not separate)."""
    target = os.path.join(out_dir, folder)
    os.makedirs(target, exist_ok=True)
    rows = {r.bot: r for r in doc.standings.rows}
    left = {x.bot: x for x in left_out}
    faults = faults_by_bot(games)
    paths = []
    graded = bool(grades)
    index = [f"# Entrants of {doc.name or 'the arena'}", "", *(f"**Note**: {n}\n" for n in notes),
             "| place | bot | games | wins | faults |" + (" points |" if graded else "") + " report |",
             "| ---: | --- | ---: | ---: | ---: |" + (" ---: |" if graded else "") + " --- |"]
    for entry in entries:
        name = entry.spec.name
        if entry.spec.builtin is not None:
            continue
        text = bot_report(name, entry, rows.get(name), left.get(name), faults.get(name, []), out_dir,
                          (checks or {}).get(name), len(rows), (grades or {}).get(name), doc.build_levels.get(name))
        paths.append(atomic_write(os.path.join(target, f"{safe_name(name)}.md"), text))
        row = rows.get(name)
        place = row.rank_text if row else "left out"
        grade = (grades or {}).get(name)
        points = f" {(grade.points + (' (not certain)' if grade.flag else '')) if grade else '-'} |" if graded else ""
        link = f"[{safe_name(name)}.md]({_link(safe_name(name) + '.md')})"
        index.append(f"| {place} | {_cell(name)} | {row.games if row else 0} | {row.wins if row else 0} | "
                     f"{len(faults.get(name, []))} |{points} {link} |")
    paths.append(atomic_write(os.path.join(target, "index.md"), "\n".join(index) + "\n"))
    return paths


def faults_by_bot(games: Iterable[GameLine]) -> dict[str, list[tuple[str, Fault]]]:
    """Each bot's faults as (game id, fault), in game order."""
    out: dict[str, list[tuple[str, Fault]]] = {}
    for game in games:
        for fault in game.result.faults:
            bot = fault.bot
            if bot is None and fault.seat is not None:
                bot = game.seating[fault.seat]
            if bot is not None:
                out.setdefault(bot, []).append((game.game, fault))
    return out


def bot_report(name: str, entry: BotEntry, row: StandingRow | None, left: LeftOut | None,
               faults: Sequence[tuple[str, Fault]], out_dir: str,
               check: Mapping[str, Any] | None, field: int, grade: Grade | None = None,
               build_level: str | None = None) -> str:
    """One entrant's report as Markdown (``build_level``: the sandbox its build ran in)."""
    lines = [f"# {name}", ""]
    handout = _handout(out_dir, entry)
    if entry.submission:
        lines.append(f"- submission: `{handout.text(entry.submission)}`" + (f" ({entry.language})" if entry.language
                                                                          else ""))
    if entry.arrived:
        lines.append(f"- handed in as: `{handout.text(entry.arrived)}` (the folder above was made of it)")
    if entry.spec.command:
        lines.append(f"- command: `{handout.command(entry.spec.command, entry.spec.cwd)}`"
                     + (" (in its own folder)" if entry.spec.cwd else ""))
    if entry.build:
        lines.append(f"- build: `{entry.build}`" + (f" ({_BUILT_AT.get(build_level, build_level)})"
                                                     if build_level else ""))
    if left is not None:
        lines += [f"- **left out**: {handout.text(left.reason)}", "", "It played no game. "
                  "Fix the reason above and hand the submission in again; `lastcard check --arena ARENA.yaml "
                  f"--bot {shlex.quote(name)}` tells you whether it is ready before the contest."]
        if left.stderr:
            lines += ["", "What it wrote on stderr as it failed to start"
                      + (f" (log: `{in_folder(left.log, out_dir)}` in the results folder)" if left.log else "") + ":",
                      "", *_fence(handout.text("\n".join(left.stderr)))]
        if left.walls:
            lines += ([""] if lines[-1] else []) + ["What the sandbox's walls may have hidden from it, and the fix:",
                                                    "", *(f"- {handout.text(line)}" for line in left.walls)]
    elif row is not None:
        lines += _record(row, field)
    if grade is not None:
        lines += ["", "## Grade", "", *(f"- {line}" for line in grade.why)]
        if grade.section:
            lines += ["", *grade.section]
    lines += _build_log(name, entry, out_dir, handout)
    if left is None:
        lines += _faults(name, faults, out_dir, None if entry.spec.cwd else handout.command(entry.spec.command),
                         handout)
        lines += _check(check)
    return "\n".join(lines).rstrip() + "\n"


#: How a build ran, in words, by its sandbox level (docs/security.md).
_BUILT_AT = {"full": "built in a copy of the folder, behind the walls, with limits (sandbox full)",
             "walls": "built in a copy of the folder, behind the walls (sandbox walls)",
             "limits": "built in a copy of the folder, with limits but no walls (sandbox limits)",
             "none": "built in place, as the referee's user (sandbox none)"}


def _record(row: StandingRow, field: int) -> list[str]:
    shared = (" (the games do not separate it from the bots it shares that range with)"
              if row.rank_best != row.rank_worst else "")
    avg = "-" if row.avg_place is None else f"{row.avg_place:.2f}"
    out = [f"- place: **{row.rank_text}** of {field}{shared}" + (f"; reached {row.reached}" if row.reached else ""),
           f"- record: {row.games} games, {row.wins} wins, {row.draws} draws, average place {avg}"
           + (f", points {row.points}" if row.points else "")]
    if row.rating is not None:
        out.append(f"- rating: {format_rating(row)} (95% interval)")
    if row.faults:
        out.append(f"- faults: {format_faults(row.faults)}")
    if row.avg_ms is not None:
        # Both clocks: a wall time far above the CPU time means the bot waited (for a core, or sleeping).
        text = f"- time per answer: {row.avg_ms:.1f} ms on average, {row.max_ms or 0:.1f} ms at most (wall clock)"
        if row.cpu_avg_ms is not None:
            text += f"; {row.cpu_avg_ms:.1f} ms on average, {row.cpu_max_ms or 0:.1f} ms at most of CPU time"
        out.append(text)
    return out


def _build_log(name: str, entry: BotEntry, out_dir: str, handout: Handout) -> list[str]:
    path = ResultsDir(out_dir).build_log(name)
    if not entry.build or not os.path.exists(path):
        return []
    text = read_log(path, 0).splitlines()
    shown = text[-BUILD_TAIL:]
    cut = f" (the last {len(shown)} of {len(text)} lines)" if len(shown) < len(text) else ""
    return ["", "## Build", "", f"Log: `{in_folder(path, out_dir)}` in the results folder{cut}", "",
            *_fence(handout.text("\n".join(shown)))]


def _handout(out_dir: str, entry: BotEntry) -> Handout:
    """What the report may quote of ``entry``: its folders (the submission, its build's copy) named by the bot."""
    built = entry.built.folder if entry.built is not None else None
    submission = entry.submission
    folder = submission if submission and os.path.isdir(submission) else os.path.dirname(submission or "")
    return Handout.of_bots(out_dir, [(entry.spec.name, (folder, entry.spec.cwd, built))])


def _faults(name: str, faults: Sequence[tuple[str, Fault]], out_dir: str, command: str | None = None,
            handout: Handout | None = None) -> list[str]:
    handout = handout or Handout(out_dir)
    if not faults:
        return ["", "## Faults", "", "None: every answer was on time, valid and legal."]
    turns = faults_in(out_dir, {game_id for game_id, _ in faults[:FAULTS_SHOWN]})
    out = ["", f"## Faults ({len(faults)})", ""]
    stderr = stderr_by_game(ResultsDir(out_dir).stderr_log(name))
    for game_id, fault in faults[:FAULTS_SHOWN]:
        seat = fault.seat
        request_id = (fault.request or {}).get("id")
        turn = None if fault.kind.value == "startup" else turns.get((game_id, seat, request_id, fault.kind.value))
        at = f" at turn {turn}" if turn is not None else ""
        out += [f"### {game_id}" + (f", seat {seat}" if seat is not None else "") + f"{at}: {fault.kind.value}", "",
                handout.text(fault.message), ""]
        request = request_line(out_dir, game_id, seat, request_id)
        if request is not None:
            out += [f"The request{at}:", "", *_fence(_quote(request), "json")]
        elif request_id is not None:
            out += [f"The request{at} (its id {request_id}; the arena kept no record of it: `records: true` in "
                    "the arena file keeps every request; the replay below shows the position)", ""]
        if fault.line is not None:
            out += ["The line it sent:", "", *_fence(_quote(fault.line))]
        tail = stderr.get((game_id, seat)) or stderr.get((game_id, None))
        if tail:
            out += [f"Its stderr in this game (the last {min(len(tail), STDERR_TAIL)} lines):", "",
                    *_fence(handout.text("\n".join(tail[-STDERR_TAIL:])))]
        out += ["Replay it (in the results folder):", "",
                *_fence(f"lastcard replay {HERE} {shlex.quote(game_id)}", "sh")]
        if seat is not None:  # the command is the entry's where it runs from anywhere
            out += ["Ask your bot of today the same (it is sent what this seat was sent; in the results folder):", "",
                    *_fence(ask_command(HERE, game_id, seat, turn, None if command is None else command), "sh")]
    rest = faults[FAULTS_SHOWN:FAULTS_LISTED]
    if rest:
        out += ["Further faults:", ""]
        out += [f"- {g}: {f.kind.value}: {handout.text(f.message)}" for g, f in rest]
    if len(faults) > FAULTS_LISTED:
        out.append(f"- ... and {len(faults) - FAULTS_LISTED} more (games.jsonl has them all)")
    return out


def _check(check: Mapping[str, Any] | None) -> list[str]:
    if check is None:
        return []
    summary = check.get("summary", {})
    out = ["", "## lastcard check", "",
           f"{'PASSED' if check.get('ok') else 'FAILED'}: {summary.get('passed', 0)} passed, "
           f"{summary.get('failed', 0)} failed, {summary.get('skipped', 0)} skipped (settings: "
           + ", ".join(f"{k} {v}" for k, v in check.get("settings", {}).items() if k != "options") + ")"]
    for item in check.get("checks", []):
        if item.get("status") != "failed":
            continue
        out += ["", f"- **{item['name']}**: {item.get('problem', '')}"]
        for label in ("sent", "received", "expected"):
            if item.get(label) is not None:
                out += [f"  - {label}:", "", *("  " + line for line in _fence(_quote(str(item[label]))))]
        out += [f"  - {detail}" for detail in item.get("details", [])[:5]]
    return out


def _fence(text: str, lang: str = "") -> list[str]:
    ticks = "```"
    while ticks in text:
        ticks += "`"
    return [ticks + lang, text, ticks, ""]


def _quote(text: str) -> str:
    return text if len(text) <= QUOTE_LIMIT else f"{text[:QUOTE_LIMIT]}... ({len(text):,} characters in all)"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _link(target: str) -> str:
    return target.replace(" ", "%20")
