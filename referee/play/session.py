"""One game of a person against bots in the browser: played on a ``Table`` as every game is, then stored as a
results folder of one game (as ``replay --play`` stores one: games.jsonl, the record file, the notes, the bots'
logs), which ``lastcard replay`` and ``lastcard report`` read and the page links to in the replay viewer."""

from __future__ import annotations

import os
import shlex
import time
from dataclasses import dataclass
from typing import Any

from referee.bots.pool import BotPool
from referee.bots.spec import BotSpec
from referee.engine.cardfaces import CSS, MARKS, WILD_MARK
from referee.engine.rules import Ruleset
from referee.play.desk import Desk
from referee.play.seat import BrowserSeat
from referee.store.notes_file import append_notes
from referee.store.outdir import out_dir_problem
from referee.store.record_file import append_record
from referee.store.results import GameLine, GameResult
from referee.store.results_dir import ResultsDir
from referee.table.table import Recorder, Table, seat_for

#: The game's id in its folder (as ``lastcard play --save`` names it).
GAME_ID = "play"
#: Where a game goes without ``--out``: a new folder under this one, named by the time it started.
RESULTS = "results"


class PlayOutError(ValueError):
    """An ``--out`` folder that cannot take the game (said before anything starts)."""


@dataclass(frozen=True, slots=True)
class BrowserGame:
    """What to play: the rules, the bots, the person's seat and name, the seed."""

    rules: Ruleset
    bots: tuple[BotSpec, ...]
    seat: int
    name: str
    seed: int
    pace: float = 0.0
    """Seconds the page is given to show each bot's move before the next."""

    @property
    def names(self) -> list[str]:
        names = [b.name for b in self.bots]
        names.insert(self.seat, self.name)
        return names


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """The game played and where it was stored."""

    result: GameResult
    out_dir: str

    @property
    def game(self) -> str:
        return self.result.game


def out_folder(out: str | None, now: float | None = None) -> str:
    """The folder the game goes to: ``out``, else a new ``results/play-YYYYMMDD-HHMMSS`` (``-2``... if taken).
    ``PlayOutError`` when it cannot be used, or already holds games (a game is never mixed into another run)."""
    if out is None:
        stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(now))
        base = os.path.join(RESULTS, f"play-{stamp}")
        out, n = base, 1
        while os.path.exists(out):
            n += 1
            out = f"{base}-{n}"
    problem = out_dir_problem(out)
    if problem is not None:
        raise PlayOutError(problem)
    if ResultsDir(out).has_games():
        raise PlayOutError(f"{os.path.abspath(out)!r} already holds games: give another --out (or none: the game "
                           f"goes to a new folder under {RESULTS}/)")
    return os.path.abspath(out)


def header(game: BrowserGame) -> dict[str, Any]:
    """What the page shows all game: the rules, the seed, who sits where, how the cards look."""
    rules = game.rules
    return {"title": f"{rules.house} · seed {game.seed}", "ruleset": rules.house, "seed": str(game.seed),
            "goal": f"{rules.goal[0].upper()}{rules.goal[1:]}.", "calls": rules.last_card_call == "required",
            "faces": {"colours": CSS, "marks": {c: m for c, (_, m) in MARKS.items()}, "wild": WILD_MARK}}


class _ShownToThePage(Recorder):
    """The game's record, also shown to the person as it is written (each action as it is played)."""

    def __init__(self, seat: BrowserSeat) -> None:
        super().__init__()
        self.seat = seat

    def add(self, entry: dict[str, Any]) -> None:
        super().add(entry)
        self.seat.follow(entry)


def play_game(game: BrowserGame, desk: Desk, out_dir: str) -> PlayedGame:
    """Play ``game`` with the person at ``desk``, and store it in ``out_dir`` (``LeftTheGame`` if they leave, and
    nothing is stored)."""
    folder = ResultsDir(out_dir)
    os.makedirs(folder.logs, exist_ok=True)
    person = BrowserSeat(game.name, desk, header(game), pace=game.pace)
    recorder = _ShownToThePage(person)
    with BotPool(stderr_dir=folder.logs) as pool:
        seats = [seat_for(spec, pool) for spec in game.bots]
        seats.insert(game.seat, person)
        result = Table(game.rules, seats, game.seed, GAME_ID, recorder=recorder).play()
    # One game a folder, written as an arena writes its games.
    append_record(out_dir, GAME_ID, recorder.lines)
    if result.notes is not None:  # what the bots wrote, by turn: the viewer and lastcard replay show it
        append_notes(out_dir, [result.notes])
    folder.games_log.write([GameLine(result)])
    return PlayedGame(result, out_dir)


def ending(played: PlayedGame, seat: int, replay: bool) -> dict[str, Any]:
    """What the page shows once the game is stored: the places, and (``replay``: the report was written) the
    replay viewer at the game's first turn in the person's own view."""
    result = played.result
    names = result.seating
    order = sorted(range(len(names)), key=lambda s: (result.placements[s], s))
    return {"places": [{"seat": s, "name": names[s], "place": result.placements[s],
                        "points": result.hand_points[s], "you": s == seat} for s in order],
            "reason": result.reason, "turns": result.decisions, "folder": played.out_dir,
            "replay": f"/{ResultsDir.REPORT}#game={played.game}&turn=0&seat={seat}" if replay else None,
            "command": f"lastcard replay {shlex.quote(played.out_dir)} {played.game} --seat {seat}"}
