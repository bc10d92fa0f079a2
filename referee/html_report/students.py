"""A page per bot beside report.html (``bots/NAME.html``): what its author needs from the run, on one page.

Its place and record, its grade explained (``grades.json``, with ``grading:``), its games (each a link that
opens the report's viewer at its first fault, else its first turn, in its own seat's view), its faults,
and what it wrote (stderr, log messages) in each game, turn by turn. Every link is relative (``../report.html``),
so the page works from a folder copied anywhere, opened as a file or from the live page's server; it names no
path of the teacher's machine (``store.handout``), and everything a bot wrote goes in as escaped text.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Iterable, Mapping, Sequence
from urllib.parse import quote

from referee.bots.logs import safe_name
from referee.html_report.markup import esc
from referee.html_report.rows import GameRow, Tape
from referee.standings.model import StandingRow, Standings
from referee.store.disk import atomic_write
from referee.store.handout import Handout
from referee.store.notes import GameNotes, cut_text
from referee.store.results import GameLineJson
from referee.store.results_shapes import GradesJson

#: The folder beside the report that holds the pages (as the results folder's ``bots/NAME.md``).
FOLDER = "bots"
#: Games a page lists (the first ones, and every game with a fault of the bot up to ``FAULTED_LISTED``).
GAMES_LISTED = 500
FAULTED_LISTED = 200
#: Characters of the bot's notes a page quotes; past them it says where the rest is (the viewer, the replay).
NOTES_QUOTED = 256 * 1024


def page_name(bot: str) -> str:
    """The page's file name in ``FOLDER`` (``safe_name``, as ``bots/NAME.md``)."""
    return f"{safe_name(bot)}.html"


def page_link(bot: str) -> str:
    """The page's address relative to the report."""
    return f"{FOLDER}/{quote(page_name(bot))}"


@dataclass(frozen=True, slots=True)
class SeatGame:
    """One game of a bot as its page lists it."""

    game: str
    label: str | None
    seat: int
    place: int | None
    players: int
    turns: int | None
    opens_at: int
    """The turn its link opens at: the bot's first fault, else its first turn."""
    faults: tuple[tuple[int | None, str], ...]
    """The bot's faults in the game: (turn, ``kind: message``)."""


@dataclass
class _Bot:
    games: list[SeatGame] = field(default_factory=list)
    count: int = 0
    faulted: int = 0
    notes: list[tuple[str, int, GameNotes]] = field(default_factory=list)
    notes_size: int = 0
    notes_left: int = 0


class StudentPages:
    """Collects, game by game as the report reads them, what each bot's page shows; then writes the pages."""

    def __init__(self, bots: Iterable[str], handout: Handout) -> None:
        self.bots = {name: _Bot() for name in bots}
        self.handout = handout

    def add(self, line: GameLineJson, row: GameRow, made: Tape, notes: GameNotes | None) -> None:
        """One game of the report (``made``: its tape, empty where the page did not replay it)."""
        seating = line.get("seating") or []
        places = line.get("placements") or []
        first = _first_turns(made.text, len(seating)) if made.text else {}
        for seat, name in enumerate(seating):
            bot = self.bots.get(name)
            if bot is None:
                continue
            faults = _faults_of(line, made, seat)
            bot.count += 1
            listed = len(bot.games) < GAMES_LISTED or (faults and bot.faulted < FAULTED_LISTED)
            if faults:
                bot.faulted += 1
            if listed:
                opens = next((t for t, _ in faults if t is not None), first.get(seat, 0))
                bot.games.append(SeatGame(row.game, row.label, seat, places[seat] if seat < len(places) else None,
                                          len(seating), row.turns, opens, faults))
            mine = notes.of_seat(seat) if notes is not None else None
            if mine is not None and (mine.notes or mine.cuts):
                size = sum(len(n.text) for n in mine.notes)
                if bot.notes_size + size <= NOTES_QUOTED:
                    bot.notes.append((row.game, seat, mine))
                    bot.notes_size += size
                else:
                    bot.notes_left += 1

    def write(self, folder: str, report: str, standings: Standings | None, grades: GradesJson | None,
              title: str, builds: Mapping[str, str] | None = None) -> list[str]:
        """Write every bot's page into ``folder/bots/``; the paths written. ``builds``: a failed build's first error
        lines, by bot (its page says why it played no game)."""
        target = os.path.join(folder, FOLDER)
        os.makedirs(target, exist_ok=True)
        rows = {r.bot: r for r in standings.rows} if standings else {}
        left = {x.bot: x.reason for x in standings.left_out} if standings else {}
        graded = {g["bot"]: g for g in (grades or {}).get("grades", [])} if grades else {}
        paths = []
        for name, bot in self.bots.items():
            text = _page(name, bot, f"../{quote(report)}", rows.get(name), left.get(name), graded.get(name), title,
                         self.handout, len(rows), (builds or {}).get(name, ""))
            paths.append(atomic_write(os.path.join(target, page_name(name)), text))
        return paths


def students_section(bots: Sequence[str]) -> str:
    """The report's links to the bots' pages."""
    if not bots:
        return ""
    links = " ".join(f"<a href='{esc(page_link(b))}' class=bot-page>{esc(b)}</a>" for b in bots)
    return ("<section id=pages><h2>A page per bot</h2><p>Each bot's games, faults, what it wrote (stderr, log "
            f"messages) turn by turn and its grade, on a page of its own beside this one:</p><p>{links}</p></section>")


def _first_turns(tape: str, seats: int) -> dict[int, int]:
    """Each seat's first turn, read from the tape's step heads (``2t7``: seat 2 acts)."""
    out: dict[int, int] = {}
    for turn, step in enumerate(tape.split("\n")):
        if step[:1].isdigit() and int(step[0]) not in out:
            out[int(step[0])] = turn
            if len(out) == seats:
                break
    return out


def _faults_of(line: GameLineJson, made: Tape, seat: int) -> tuple[tuple[int | None, str], ...]:
    """The seat's faults: at their turns where the page replayed the game, else as games.jsonl has them."""
    if made.faults:
        return tuple((turn, text) for turn, at, text in made.faults if at == seat)
    return tuple((None, f"{f.get('kind', '?')}: {f.get('message', '')}") for f in line.get("faults") or []
                 if f.get("seat") == seat)


def _page(name: str, bot: _Bot, report: str, row: StandingRow | None, left: str | None,
          grade: Mapping[str, object] | None, title: str, handout: Handout, field_size: int, build: str = "") -> str:
    body = [f"<header><h1>{esc(name)}</h1><p class=sub>{esc(title)} · <a href='{esc(report)}'>the whole report"
            "</a></p></header>", _summary(row, left, handout, field_size), _grade(grade)]
    if left is not None:  # it played no game: why, and the build's first error when that was it
        if build:
            body.append("<section id=build><h2>Its build</h2><p>The compiler's first error (all of it is in "
                        f"<code>logs/{esc(safe_name(name))}.build.log</code> in the results folder):</p>"
                        f"<pre>{esc(handout.text(build))}</pre></section>")
    else:
        body += [_faults(bot, report, handout), _games(name, bot, report), _notes(bot, report, handout)]
    return (f"<!doctype html>\n<html lang=en><head><meta charset=utf-8>"
            f"<meta name=viewport content='width=device-width, initial-scale=1'><title>{esc(name)} · {esc(title)}"
            f"</title><link rel=icon href='data:,'><style>{_style()}</style></head>\n<body>\n{''.join(body)}\n"
            "</body></html>\n")


def _summary(row: StandingRow | None, left: str | None, handout: Handout, field_size: int) -> str:
    if left is not None:
        return (f"<section id=record><h2>Left out</h2><p class=left-out>{esc(handout.text(left))}</p><p>It played no "
                "game: fix the reason above and hand the bot in again.</p></section>")
    if row is None:
        return "<section id=record><h2>Record</h2><p>No standings for this bot (results.json has none).</p></section>"
    avg = "-" if row.avg_place is None else f"{row.avg_place:.2f}"
    parts = [f"place <b>{esc(row.rank_text)}</b> of {field_size}", f"{row.games} games, {row.wins} wins",
             f"average place {avg}"]
    if row.rating is not None:
        low = "-" if row.rating_low is None else f"{row.rating_low:.0f}"
        high = "-" if row.rating_high is None else f"{row.rating_high:.0f}"
        parts.append(f"rating {row.rating:.0f} [{low}, {high}]")
    faults = sum(n for _, n in row.faults)
    parts.append(f"{faults} fault{'s' if faults != 1 else ''}" if faults else "no faults")
    return f"<section id=record><h2>Record</h2><p>{' · '.join(parts)}</p></section>"


def _grade(grade: Mapping[str, object] | None) -> str:
    if grade is None:
        return ""
    why = grade.get("why")
    lines = "".join(f"<li>{esc(_plain(str(w)))}</li>" for w in why) if isinstance(why, list) else ""
    return f"<section id=grade><h2>Grade: {esc(grade.get('points', ''))}</h2><ul>{lines}</ul></section>"


def _plain(text: str) -> str:
    """A line of ``Grade.why`` (Markdown: ``**bold**``, ```code```) as plain text."""
    return re.sub(r"\*\*|`", "", text)


def _link(report: str, game: str, turn: int, seat: int) -> str:
    return f"{report}#game={quote(game, safe='')}&turn={turn}&seat={seat}"


def _games(name: str, bot: _Bot, report: str) -> str:
    if not bot.games:
        return "<section id=games><h2>Games</h2><p>No games.</p></section>"
    rows = []
    for g in bot.games:
        where = "its first fault" if g.faults and g.faults[0][0] is not None else "its first turn"
        rows.append(f"<tr data-game='{esc(g.game)}'><td><a href='{esc(_link(report, g.game, g.opens_at, g.seat))}' "
                    f"title='opens the replay at {where} (turn {g.opens_at}), in its own view'>{esc(g.game)}</a></td>"
                    f"<td>{esc(g.label or '')}</td><td class=num>{g.seat}</td>"
                    f"<td class=num>{'' if g.place is None else g.place} of {g.players}</td>"
                    f"<td class=num>{'' if g.turns is None else g.turns}</td>"
                    f"<td class=num>{len(g.faults) or ''}</td></tr>")
    more = (f"<p>… and {bot.count - len(bot.games)} more games: the report's games list shows them all (filter it "
            f"by {esc(name)}).</p>" if bot.count > len(bot.games) else "")
    return (f"<section id=games><h2>Games ({bot.count})</h2><p>A game opens the replay at the bot's first fault, else "
            "at its first turn, in its own seat's view.</p><table class=games><thead><tr><th>game</th><th>stage</th>"
            "<th>seat</th><th>place</th><th>turns</th><th>faults</th></tr></thead><tbody>"
            f"{''.join(rows)}</tbody></table>{more}</section>")


def _faults(bot: _Bot, report: str, handout: Handout) -> str:
    found = [(g, turn, text) for g in bot.games for turn, text in g.faults]
    if not found:
        return "<section id=faults><h2>Faults</h2><p>None: every answer was on time, valid and legal.</p></section>"
    items = []
    for g, turn, text in found:
        at = g.opens_at if turn is None else turn
        where = f"turn {turn}" if turn is not None else "(turn not known: the game was not replayed)"
        items.append(f"<li><a href='{esc(_link(report, g.game, at, g.seat))}'>{esc(g.game)}</a>, seat {g.seat}, "
                     f"{esc(where)}: {esc(handout.text(text))}</li>")
    return f"<section id=faults><h2>Faults ({bot.faulted} games)</h2><ul>{''.join(items)}</ul></section>"


def _notes(bot: _Bot, report: str, handout: Handout) -> str:
    if not bot.notes:
        return ("<section id=notes><h2>What it wrote</h2><p>Nothing on stderr and no log messages were kept in its "
                "games.</p></section>")
    parts = ["<section id=notes><h2>What it wrote</h2><p>Its stderr and log messages, game by game, each at the turn "
             "of the request it followed (a turn opens the replay there).</p>"]
    for game, seat, notes in bot.notes:
        entries = []
        for note in notes.notes:
            turn = note.turn
            label = "before its first turn" if turn is None else f"turn {turn}"
            link = (f"<a href='{esc(_link(report, game, turn, seat))}'>{label}</a>" if turn is not None else label)
            entries.append(f"<div class=bot-note><b>{link} · {esc(note.source)}</b><pre>"
                           f"{esc(handout.text(note.text))}</pre></div>")
        for cut in notes.cuts:
            entries.append(f"<div class='bot-note cut'>{esc(cut_text(cut, notes.budget))}</div>")
        parts.append(f"<details><summary>{esc(game)} (seat {seat}): {len(notes.notes)} note"
                     f"{'s' if len(notes.notes) != 1 else ''}</summary>{''.join(entries)}</details>")
    if bot.notes_left:
        parts.append(f"<p>… and what it wrote in {bot.notes_left} more games: the replay shows it at each turn (in a "
                     "terminal, in the results folder: <code>lastcard replay . GAME --seat N</code>).</p>")
    parts.append("</section>")
    return "".join(parts)


def _style() -> str:
    return ("body{font:15px/1.45 system-ui,sans-serif;color:#1d1d1f;background:#fafafa;margin:0 auto;max-width:1100px;"
            "padding:0 16px 48px}header{border-bottom:1px solid #ddd}h1{margin:16px 0 0}.sub{color:#666}"
            "section{margin:22px 0}table{border-collapse:collapse;background:#fff}th,td{border:1px solid #ddd;"
            "padding:3px 8px;text-align:left}td.num{text-align:right}details{background:#fff;border:1px solid #ddd;"
            "padding:4px 10px;margin:4px 0}.bot-note{border-left:3px solid #5c6bc0;margin:4px 0;padding:2px 8px}"
            ".bot-note.cut{border-left-color:#e65100;color:#8d3b00}pre{background:#f3f3f3;padding:6px 8px;"
            "white-space:pre-wrap;word-break:break-all;font-size:12px;margin:2px 0;max-height:320px;overflow:auto}"
            ".left-out{color:#b71c1c}")
