"""The games list's data: one row and one tape per game (the tapes made by as many processes as asked), paged into
shards.

Each game's row is a ``GameRow`` (the page's script reads it as a JSON array, ``GameRow.to_json``);
its replay is a compact text (``tape``). Past ``Paging.sample`` games the rows and tapes go to shard
files beside the page (``ShardWriter``), a script each, loaded when the reader pages on.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import json
import os
import signal
import tempfile
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence, cast

from referee.engine.jsondata import JsonObject
from referee.html_report.tally import StageRow
from referee.html_report.tape import tape
from referee.replay.locate import fault_turns
from referee.run.orphans import fork_call
from referee.store.disk import atomic_file
from referee.store.game_source import SourceGame, stored_for
from referee.store.handout import Handout
from referee.store.jsonl import line_digest
from referee.store.notes import GameNotes
from referee.store.notes_file import NotesReader
from referee.store.results import GameLineJson
from referee.store.tape_file import TapeWriter, read_tapes

#: The games whose replays the page and its shards carry: the first, in id order. Each replay costs the referee
#: about 3 ms (a million-game page would take an hour); past these, a game's row says who played and how it
#: ended, and ``lastcard replay`` shows it.
TAPED_GAMES = 10_000
#: Games with faults replayed for the page beyond ``TAPED_GAMES`` (their faults' turns come from the replay).
TAPED_FAULTED = 2_000
#: JavaScript reads integers beyond this as the nearest double: the page carries them as strings.
JS_SAFE_INT = 2**53 - 1
#: The note of a game that was never played.
LOST = "it was not played (its worker died, twice)"
#: The bots' debug notes (stderr, log messages) the page and its shards carry at most, in characters of JSON: the
#: games past it say where their notes are (a long run of chatty bots would otherwise make a page of gigabytes).
NOTES_IN_PAGE = 8 * 1024 * 1024
#: A game's line of notes when they were left out of the page (``NOTES_IN_PAGE``).
NOTES_LEFT_OUT = "0"


@dataclass(frozen=True, slots=True)
class Tape:
    """One game made ready for the viewer (or left out of it)."""

    text: str
    """Its replay as a tape (``""``: not replayed)."""
    turns: int | None
    """The turns the viewer steps through (the whole game's, every round; None where a line does not say)."""
    faults: tuple[tuple[int, int | None, str], ...]
    """Each fault the replay placed: (turn, seat, ``kind: message``)."""
    note: str
    problem: str | None
    """Why the game could not be replayed (None when it was, or was not asked to be)."""


@dataclass(frozen=True, slots=True)
class GameRow:
    """One game of the games list, as the page's script reads it."""

    game: str
    label: str | None
    """The stage's round label, else the stage, else the ruleset."""
    ruleset: str | None
    seed: int | str | None
    """Exact for JavaScript (``js_exact``): a seed past 2^53 is its decimal string."""
    seats: list[int]
    """Each seat's bot, as its number in the page's list of bots."""
    placements: list[int] | None
    fault_count: int
    turns: int | None
    faults: tuple[tuple[int, int | None, str], ...]
    note: str
    stage: str | None
    round: int | None

    def to_json(self) -> list[object]:
        """The row as the page carries it: an array, in the order ``report.js`` reads it."""
        return [self.game, self.label, self.ruleset, self.seed, self.seats, self.placements, self.fault_count,
                self.turns, [list(f) for f in self.faults], self.note, self.stage, self.round]


@dataclass(frozen=True, slots=True)
class ShardFile:
    """One shard file as the page lists it: its src (relative to the page), its games, the first and last id."""

    src: str
    games: int
    first: str
    last: str

    def to_json(self) -> list[str | int]:
        return [self.src, self.games, self.first, self.last]


class ShardWriter:
    """The shard files of a sharded page: ``NAME_files/games-NNNNN.js``, each ``lastcardShard(rows, tapes)``."""

    def __init__(self, target: str, sample: int, size: int) -> None:
        stem = os.path.splitext(os.path.basename(target))[0]
        self.folder_name = f"{stem}_files"
        self.folder = os.path.join(os.path.dirname(os.path.abspath(target)), self.folder_name)
        self.sample = sample
        self.size = size
        self.files: list[ShardFile] = []
        if os.path.isdir(self.folder):
            for name in os.listdir(self.folder):
                if name.startswith("games-") and name.endswith(".js"):
                    os.remove(os.path.join(self.folder, name))
        os.makedirs(self.folder, exist_ok=True)

    def write(self, rows: list[GameRow], tapes: list[str], notes: Sequence[str] = ()) -> None:
        name = f"games-{len(self.files) + 1:05d}.js"
        with atomic_file(os.path.join(self.folder, name)) as fh:
            # A row's one number past 2^53 is its seed, made exact as the row was built (``game_rows``): the rows
            # are written as they are, not walked value by value (a third of a long run's page time).
            rows_text = json.dumps([row.to_json() for row in rows], separators=(",", ":")).replace("<", "\\u003c")
            notes_text = json.dumps("\n".join(notes)).replace("<", "\\u003c")
            fh.write(f"lastcardShard({rows_text},{json.dumps('#'.join(tapes))},{notes_text});\n")
        self.files.append(ShardFile(f"{self.folder_name}/{name}", len(rows), rows[0].game, rows[-1].game))


#: What a caller of ``game_rows`` is given of each game: its line, row, tape and notes.
Seen = Callable[[GameLineJson, GameRow, Tape, "GameNotes | None"], None]


class Taping:
    """Which games are replayed for the viewer: the first ``first``, and up to ``faulted`` more with faults."""

    def __init__(self, first: int = TAPED_GAMES, faulted: int = TAPED_FAULTED) -> None:
        self.first = first
        self.faulted = faulted
        self.left_out = 0

    def wanted(self, count: int, line: GameLineJson) -> bool:
        if count < self.first:
            return True
        if line.get("faults") and self.faulted > 0:
            self.faulted -= 1
            return True
        self.left_out += 1
        return False


@dataclass(frozen=True, slots=True)
class GameRows:
    """The games list as the page carries it, and the games that could not be replayed."""

    rows: list[GameRow]
    """The games the page carries itself (all of them, or the sample of a sharded page)."""
    tapes: list[str]
    problems: list[str]
    notes: list[str]
    """The page's games' notes: a line ``INDEX<tab>JSON`` per game with notes (``notes_line``)."""


class _Paging:
    """Where each row goes: the page, until ``shards`` takes over past its sample, a shard file at a time."""

    def __init__(self, shards: ShardWriter | None) -> None:
        self.shards = shards
        self.page_rows: list[GameRow] = []
        self.page_tapes: list[str] = []
        self.page_notes: list[str] = []
        self.rows, self.tapes, self.notes = self.page_rows, self.page_tapes, self.page_notes

    def add(self, count: int, row: GameRow, text: str, notes: str | None) -> None:
        shards = self.shards
        if shards is not None and count >= shards.sample and (count - shards.sample) % shards.size == 0:
            self.flush()
            self.rows, self.tapes, self.notes = [], [], []  # from here on, each game goes to a shard file
        if notes is not None:
            self.notes.append(f"{len(self.rows)}\t{notes}")
        self.rows.append(row)
        self.tapes.append(text)

    def flush(self) -> None:
        if self.shards is not None and self.rows is not self.page_rows and self.rows:
            self.shards.write(self.rows, self.tapes, self.notes)


class _PageNotes:
    """The notes each game of the page carries (its JSON), until ``NOTES_IN_PAGE`` is spent; then a mark that they
    were left out (``lastcard replay`` still shows them)."""

    def __init__(self, out_dir: str, handout: Handout, budget: int = NOTES_IN_PAGE) -> None:
        self.reader = NotesReader(out_dir)
        self.handout = handout
        self.left = budget

    def read(self, game: str) -> GameNotes | None:
        """The game's notes (None: its bots wrote nothing)."""
        return self.reader.get(game) if game in self.reader.index else None

    def line(self, notes: GameNotes | None, taped: bool) -> str | None:
        """The notes as the page carries them (None: none, or a game the page does not replay)."""
        if notes is None or not taped:
            return None
        doc = notes.to_json()
        shown = [[seat, turn, code, self.handout.text(str(note))] for seat, turn, code, note in doc["notes"]]
        text = json.dumps([shown, doc["cuts"], doc["budget"]], separators=(",", ":"), ensure_ascii=False)
        if len(text) > self.left:
            self.left = 0
            return NOTES_LEFT_OUT
        self.left -= len(text)
        return text.replace("<", "\\u003c")  # inside <script>: "</" would end it (JSON allows \u003c in a string)


def game_rows(out_dir: str, lines: Iterable[GameLineJson], bots: list[str], stages: Sequence[StageRow] = (),
              shards: ShardWriter | None = None, taping: Taping | None = None, jobs: int = 1,
              handout: Handout | None = None, seen: Seen | None = None, made: Made | None = None) -> GameRows:
    """The games list (one short row per game), each game's tape, and the games that could not be replayed.

    ``lines`` is read more than once (a ``GameFile``, or a list). A game ``taping`` leaves out has no tape (and no
    faults' turns): its row only. ``seen`` is given every game as the page makes it (the bots' own pages collect
    theirs). ``made``: the tapes made beside the games (``tapes_beside``), used where their line is the game's.
    """
    taping = taping or Taping()
    paging = _Paging(shards)
    problems: list[str] = []
    position = {name: i for i, name in enumerate(bots)}
    labels = {(s.name, r.number): r.label for s in stages if len(s.rounds) > 1 for r in s.rounds}
    notes = _PageNotes(out_dir, handout or Handout(out_dir))
    ready = _Ready(made or {}, _made_now(out_dir, lines, jobs, taping.first, made or {}))
    for count, line in enumerate(lines):
        wanted = taping.wanted(count, line)
        taped = ready.tape(count, line, wanted) or (game_tape(out_dir, line) if wanted else _untaped(line))
        if taped.problem:
            problems.append(taped.problem)
        row = _row(line, taped, position, labels)
        game_notes = notes.read(row.game)
        paging.add(count, row, taped.text, notes.line(game_notes, bool(taped.text)))
        if seen is not None:
            seen(line, row, taped, game_notes)
    paging.flush()
    if len(problems) > 100:
        problems = problems[:100] + [f"... and {len(problems) - 100} more"]
    return GameRows(paging.page_rows, paging.page_tapes, problems, paging.page_notes)


def _row(line: GameLineJson, made: Tape, position: Mapping[str, int], labels: Mapping[tuple[str, int], str]
         ) -> GameRow:
    stage, number = line.get("stage"), line.get("round")
    label = labels.get((str(stage), int(number or 1))) or stage or line.get("ruleset")
    return GameRow(str(line.get("game")), label, line.get("ruleset"), js_exact(line.get("seed")),
                   [position[name] for name in line.get("seating") or []], line.get("placements"),
                   len(line.get("faults") or []), made.turns, made.faults, made.note, stage, number)


#: The tapes made beside the games (``tapes_beside.made_tapes``): game id -> (its line's digest, its tape).
Made = Mapping[str, "tuple[str, Tape]"]


class _Ready:
    """The tapes made before the rows: those ``made`` beside the games (by game id, taken where the line is the one
    they were made from) and those the report's processes made ``now`` (by the line's place in the page)."""

    def __init__(self, made: Made, now: Mapping[int, Tape]) -> None:
        self.made = made
        self.now = now

    def tape(self, count: int, line: GameLineJson, wanted: bool) -> Tape | None:
        """The wanted game's tape, if made already."""
        if not wanted:
            return None
        taped = self.now.get(count)
        if taped is not None or not self.made:
            return taped
        found = self.made.get(str(line.get("game")))
        return found[1] if found is not None and found[0] == line_digest(line) else None


def _made_now(out_dir: str, lines: Iterable[GameLineJson], jobs: int, first: int, made: Made) -> dict[int, Tape]:
    """The tapes of the first ``first`` lines (each a wanted game) not ``made`` beside the games, by the line's
    place, made by ``jobs`` processes: this one and ``jobs - 1`` forked ones, each every ``jobs``-th line, the forked
    ones into a file of their own read back here. None with one job, or where there is no fork.

    Replaying games is most of a report's time (540 games of the sample arena: 0.25 s of CPU, after the games
    unless made beside them), and with ``jobs`` processes it scales as they do: nothing but the tapes crosses
    between them (each reads the lines from games.jsonl itself), where a pool's messages, a line out and a tape
    back, cost a third more than the replays and gained nothing on two cores. Past ``first`` games a long run's
    page replays only the faulted ones, here.
    """
    if jobs <= 1 or first <= 0 or not hasattr(os, "fork"):
        return {}
    with tempfile.TemporaryDirectory(prefix="lastcard-tapes-") as folder:
        shares = {share: os.path.join(folder, f"{share}.jsonl") for share in range(1, jobs)}
        children: list[int] = []
        try:
            for share, path in shares.items():
                children.append(fork_call(functools.partial(_write_share, out_dir, lines, share, jobs, first, made,
                                                            path)))
            now = dict(_share(out_dir, lines, 0, jobs, first, made))
            for pid in children:
                os.waitpid(pid, 0)
            children = []
        finally:
            for pid in children:  # interrupted: the processes left are ended
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
        for path in shares.values():  # a process that failed left its share, or part of it: replayed in the rows
            for items in read_tapes(path):
                with contextlib.suppress(ValueError, TypeError):  # not a tape's line
                    count, *fields = items
                    now[int(count)] = tape_of(fields)
    return now


def _write_share(out_dir: str, lines: Iterable[GameLineJson], share: int, jobs: int, first: int, made: Made,
                 path: str) -> None:
    """A report process: its ``_share`` of the tapes, written to ``path``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the command's: it ends them
    with TapeWriter(path, fresh=True) as out:
        for count, taped in _share(out_dir, lines, share, jobs, first, made):
            out.write([count, *tape_fields(taped)])


def _share(out_dir: str, lines: Iterable[GameLineJson], share: int, jobs: int, first: int, made: Made
           ) -> Iterator[tuple[int, Tape]]:
    """This process's share of the first ``first`` lines (every ``jobs``-th, from ``share``): each one's place and
    tape, but those ``made`` beside the games."""
    ready = _Ready(made, {})
    for count, line in enumerate(itertools.islice(lines, first)):
        if count % jobs == share and ready.tape(count, line, True) is None:
            yield count, game_tape(out_dir, line)


def tape_fields(taped: Tape) -> list[object]:
    """A tape as a JSON array's items (a file of tapes: ``tape_of`` reads them back)."""
    return [taped.text, taped.turns, [list(f) for f in taped.faults], taped.note, taped.problem]


def tape_of(fields: Sequence[Any]) -> Tape:
    """The tape that ``tape_fields`` wrote."""
    text, turns, faults, note, problem = fields
    return Tape(text, turns, tuple((int(t), s, str(m)) for t, s, m in faults), note, problem)


def game_tape(out_dir: str, line: GameLineJson) -> Tape:
    """One game for the viewer: its tape, its turns, its faults, or the problem that kept it from being replayed."""
    turns = line.get("decisions")  # every action of every round (``moves`` is the last round's move counter)
    if line.get("reason") == "lost":
        return Tape("", turns, (), LOST, None)
    raw = cast(JsonObject, line)  # the stored game's readers take the line as read, keys of older files too
    try:
        stored = stored_for(out_dir, raw)
        text = tape(stored)
        faults: tuple[tuple[int, int | None, str], ...] = ()
        if line.get("faults"):
            steps = text.split("\n")
            found = fault_turns(SourceGame(stored, raw, None, None, ""),
                                lambda wanted: {t: seat for t in wanted if (seat := _seat_at(steps, t)) is not None})
            faults = tuple((turn, _seat_at(steps, turn), message) for turn, message in sorted(found.items()))
        return Tape(text, len(stored.actions.split()), faults, "", None)  # the turns the viewer steps through
    except Exception as exc:  # noqa: BLE001 - one unreadable game must not cost the whole report
        return Tape("", turns, (), str(exc), f"{line.get('game')}: {exc}")


def _untaped(line: GameLineJson) -> Tape:
    """A game's row without its replay: its turns counted from its actions (as the replay would step them)."""
    actions = line.get("actions")
    turns = len(actions.split()) if isinstance(actions, str) else line.get("decisions")
    return Tape("", turns, (), LOST if line.get("reason") == "lost" else "", None)


def _seat_at(steps: list[str], turn: int) -> int | None:
    """The seat to act at ``turn``, read from a tape's step head (``2t7``)."""
    head = steps[turn] if turn < len(steps) else "-"
    return int(head[0]) if head[:1].isdigit() else None


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
