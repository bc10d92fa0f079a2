"""``lastcard similar``: the run's bots asked the same decision points, drawn with a seed from its own games.

A point is a request of a stored game with at least two legal answers. Each bot is put in the stored seat
and asked every request of that seat's game in order (``replay --ask``: the history it would have seen, its
answers never changing the game), as its own spec runs it (its sandbox, limits and folder). The first
scripts are asked a second time, to tell a bot that plays at random. Bots are asked in parallel threads
(each ask is a bot process the thread waits on); the answers are kept by point, so the figures do not
depend on the order the asks end in.

A built-in player (``builtin:easy``...) is no process: it is asked in this process, by ``builtin.py``.
"""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Callable, Sequence

from referee.bots.spec import BotSpec, TimeLimits
from referee.engine.notation import StoredGame
from referee.errors import LastcardError
from referee.replay.ask import ask
from referee.replay.seat_lines import SeatScript, seat_script
from referee.similar.agreement import Answer, Similarity, similarity
from referee.similar.builtin import builtin_answers
from referee.similar.references import first_legal, references, scratch_dir
from referee.store.game_record import bot_limits, load
from referee.store.results_dir import ResultsDir


class SimilarError(LastcardError):
    """A results folder that cannot be compared (no games, fewer than two bots)."""


@dataclass(frozen=True)
class Plan:
    """The scripts to ask (stored games' seats, and the games they are seats of) and the bots to ask them."""

    scripts: tuple[SeatScript, ...]
    bots: tuple[BotSpec, ...]
    games: tuple[StoredGame, ...] = ()
    """Each script's stored game (a built-in player is asked on the game itself, not on its lines)."""
    limit: int | None = None
    """Only the first this many decision points (``None``: every one of the scripts')."""

    @property
    def points(self) -> list[tuple[int, int]]:
        """Each decision point as (script, request number): the requests with at least two legal answers."""
        found = [(s, r.number) for s, script in enumerate(self.scripts) for r in script.requests if len(r.legal) > 1]
        return found if self.limit is None else found[:self.limit]


def plan(out_dir: str, *, scripts: int, seed: int, bots: Sequence[str] | None = None,
         points: int | None = None) -> Plan:
    """``scripts`` (game, seat)s drawn with ``seed`` from ``out_dir``'s played games, and the run's bots, programs
    and built-in players (``bots``: only these). With ``points``, seats are drawn (in the seed's order) until
    they hold that many decision points, and only those are asked: a plan of fewer points is the start of one
    of more, with the same seed."""
    folder = ResultsDir(out_dir)
    if not folder.has_games():
        raise folder.missing_games()
    specs = list(run_bots(out_dir).values())
    specs = [s for s in specs if bots is None or s.name in bots]
    if len(specs) < 2:
        raise SimilarError(f"{out_dir}: {len(specs)} bot(s) to compare; similar compares the run's bots, at least "
                           "two: give a results folder of a run with them (arena.json lists its bots)"
                           + (f", or --bot names of its bots (it has {', '.join(sorted(run_bots(out_dir)))})"
                              if bots else ""))
    seats: list[tuple[str, int]] = []
    for _, line in folder.games_log.lines():
        if line.get("reason") != "lost":
            seats += [(str(line["game"]), seat) for seat in range(len(line.get("seating") or ()))]
    if not seats:
        raise SimilarError(f"{out_dir}: no game was played to draw decision points from")
    # games.jsonl is in the order games ended, which differs with --jobs: the draw is from the games by id, so the
    # same games and seed ask the same points whatever the run's concurrency.
    seats.sort()
    if points is None:
        chosen = sorted(random.Random(seed).sample(range(len(seats)), min(scripts, len(seats))))
        drawn = [_script(out_dir, *seats[i]) for i in chosen]
    else:
        drawn, found = [], 0
        for i in random.Random(seed).sample(range(len(seats)), len(seats)):
            if found >= points:
                break
            drawn.append(_script(out_dir, *seats[i]))
            found += sum(1 for r in drawn[-1][0].requests if len(r.legal) > 1)
    return Plan(tuple(d[0] for d in drawn), tuple(specs), tuple(d[1] for d in drawn), points)


def run_bots(out_dir: str) -> dict[str, BotSpec]:
    """Each bot of the run by name: arena.json's, else results.json's (a ladder's report folder has no arena.json:
    its results list the bots of the games that count)."""
    found = bot_limits(out_dir)
    if found:
        return {name: BotSpec.from_json(spec) for name, spec in found.items()}
    results = ResultsDir(out_dir).read_results()
    bots = (results.get("bots") if results else None) or []
    return {str(b["name"]): BotSpec.from_json(b) for b in bots if isinstance(b, dict) and "name" in b
            and "command" in b}


def _script(out_dir: str, game: str, seat: int) -> tuple[SeatScript, StoredGame]:
    source = load(out_dir, game)
    name = source.stored.seating[seat]
    spec = run_bots(out_dir).get(name)
    return seat_script(source, seat, limits=spec.limits if spec else TimeLimits()), source.stored


def answers_of(spec: BotSpec, script: SeatScript, stored: StoredGame | None = None,
               again: bool = False) -> dict[int, Answer]:
    """The bot's answer at each request of the script with two legal answers or more (None: illegal or fault);
    a built-in player is asked on ``stored``, with another seed ``again`` (see ``builtin.py``)."""
    if spec.builtin is not None:
        if stored is None:
            raise ValueError("a built-in player is asked on the stored game: give it")
        return builtin_answers(spec.builtin, script, stored, again=again)
    run = ask(script, spec)
    out: dict[int, Answer] = {r.number: None for r in script.requests if len(r.legal) > 1}
    for asked in run.asked:
        if asked.request.number in out and asked.action is not None:
            out[asked.request.number] = repr(asked.action.key)
    return out


def measure(p: Plan, *, again: int = 2, jobs: int = 1, progress: Callable[[int, int], None] | None = None,
            with_references: bool = True) -> Similarity:
    """Ask every bot every script (and the first ``again`` scripts once more), and the reference policies
    (``with_references``); the pairs' figures, what the references explain set aside."""
    with scratch_dir() as scratch:
        refs, left = references(scratch) if with_references else ([], [])
        askers = list(p.bots) + [r.spec for r in refs]
        tasks = [(b, s, 0) for b in range(len(askers)) for s in range(len(p.scripts))]
        tasks += [(b, s, 1) for b in range(len(p.bots)) for s in range(min(again, len(p.scripts)))]
        found: dict[tuple[int, int, int], dict[int, Answer]] = {}

        def one(task: tuple[int, int, int]) -> tuple[tuple[int, int, int], dict[int, Answer]]:
            b, s, twice = task
            spec = askers[b]
            if spec is None:  # the first legal answer, answered here
                return task, first_legal(p.scripts[s])
            return task, answers_of(spec, p.scripts[s], p.games[s] if p.games else None, again=twice == 1)

        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            for done, (task, got) in enumerate(pool.map(one, tasks), 1):
                found[task] = got
                if progress is not None:
                    progress(done, len(tasks))
    points = p.points
    first = {p.bots[b].name: [found[(b, s, 0)][r] for s, r in points] for b in range(len(p.bots))}
    ref_answers = {ref.name: [found[(len(p.bots) + k, s, 0)][r] for s, r in points] for k, ref in enumerate(refs)}
    asked_twice = [(s, r) for s, r in points if s < again]
    second = {p.bots[b].name: [found[(b, s, 1)][r] for s, r in asked_twice] for b in range(len(p.bots))}
    figures = similarity(first, {name: second[name] + [None] * (len(points) - len(asked_twice)) for name in second},
                         ref_answers)
    return replace(figures, references=tuple(f"{r.name}: {r.what}" for r in refs) + tuple(left))
