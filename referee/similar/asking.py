"""``lastcard similar``: the run's bots asked the same decision points, drawn with a seed from its own games.

A point is a request of a stored game with at least two legal answers. Each bot is put in the stored seat
and asked every request of that seat's game in order (``replay --ask``: the history it would have seen, its
answers never changing the game), as its own spec runs it (its sandbox, limits and folder). The first
scripts are asked a second time, to tell a bot that plays at random. Bots are asked in parallel threads
(each ask is a bot process the thread waits on); the answers are kept by point, so the figures do not
depend on the order the asks end in.
"""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Callable, Sequence

from referee.bots.spec import BotSpec, TimeLimits
from referee.errors import LastcardError
from referee.replay.ask import ask
from referee.replay.seat_lines import SeatScript, seat_script
from referee.similar.agreement import Answer, Similarity, similarity
from referee.store.game_record import bot_limits, load
from referee.store.results_dir import ResultsDir


class SimilarError(LastcardError):
    """A results folder that cannot be compared (no games, fewer than two process bots)."""


@dataclass(frozen=True)
class Plan:
    """The scripts to ask (stored games' seats) and the bots to ask them."""

    scripts: tuple[SeatScript, ...]
    bots: tuple[BotSpec, ...]

    @property
    def points(self) -> list[tuple[int, int]]:
        """Each decision point as (script, request number): the requests with at least two legal answers."""
        return [(s, r.number) for s, script in enumerate(self.scripts) for r in script.requests if len(r.legal) > 1]


def plan(out_dir: str, *, scripts: int, seed: int, bots: Sequence[str] | None = None) -> Plan:
    """``scripts`` (game, seat)s drawn with ``seed`` from ``out_dir``'s played games, and the run's process bots
    (``bots``: only these)."""
    folder = ResultsDir(out_dir)
    if not folder.has_games():
        raise folder.missing_games()
    specs = [BotSpec.from_json(s) for s in bot_limits(out_dir).values()]
    specs = [s for s in specs if s.builtin is None and (bots is None or s.name in bots)]
    if len(specs) < 2:
        raise SimilarError(f"{out_dir}: {len(specs)} bot program(s) to compare; similar compares the run's bot "
                           "programs (not the built-in players), at least two: give a results folder of a run "
                           "with them (arena.json lists its bots)")
    seats: list[tuple[str, int]] = []
    for _, line in folder.game_lines():
        if line.get("reason") != "lost":
            seats += [(str(line["game"]), seat) for seat in range(len(line.get("seating") or ()))]
    if not seats:
        raise SimilarError(f"{out_dir}: no game was played to draw decision points from")
    chosen = sorted(random.Random(seed).sample(range(len(seats)), min(scripts, len(seats))))
    return Plan(tuple(_script(out_dir, *seats[i]) for i in chosen), tuple(specs))


def _script(out_dir: str, game: str, seat: int) -> SeatScript:
    source = load(out_dir, game)
    name = source.stored.seating[seat]
    spec = bot_limits(out_dir).get(name, {})
    return seat_script(source, seat, limits=TimeLimits(**spec.get("limits", {})))


def answers_of(spec: BotSpec, script: SeatScript) -> dict[int, Answer]:
    """The bot's answer at each request of the script with two legal answers or more (None: illegal or fault)."""
    run = ask(script, spec)
    out: dict[int, Answer] = {r.number: None for r in script.requests if len(r.legal) > 1}
    for asked in run.asked:
        if asked.request.number in out and asked.action is not None:
            out[asked.request.number] = repr(asked.action.key)
    return out


def measure(p: Plan, *, again: int = 2, jobs: int = 1,
            progress: Callable[[int, int], None] | None = None) -> Similarity:
    """Ask every bot every script (and the first ``again`` scripts once more); the pairs' figures."""
    tasks = [(b, s, 0) for b in range(len(p.bots)) for s in range(len(p.scripts))]
    tasks += [(b, s, 1) for b in range(len(p.bots)) for s in range(min(again, len(p.scripts)))]
    found: dict[tuple[int, int, int], dict[int, Answer]] = {}

    def one(task: tuple[int, int, int]) -> tuple[tuple[int, int, int], dict[int, Answer]]:
        b, s, _ = task
        return task, answers_of(p.bots[b], p.scripts[s])

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        for done, (task, got) in enumerate(pool.map(one, tasks), 1):
            found[task] = got
            if progress is not None:
                progress(done, len(tasks))
    points = p.points
    first = {p.bots[b].name: [found[(b, s, 0)][r] for s, r in points] for b in range(len(p.bots))}
    asked_twice = [(s, r) for s, r in points if s < again]
    second = {p.bots[b].name: [found[(b, s, 1)][r] for s, r in asked_twice] for b in range(len(p.bots))}
    return similarity(first, {name: second[name] + [None] * (len(points) - len(asked_twice)) for name in second})
