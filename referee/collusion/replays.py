"""The games played again: each stored game once per measured bot at its table, that bot's seat taken by a
reference player, on the same deal (the game's own seed), the same seating otherwise, the same rules, fault
policy and names told, as ``compare``'s twins are one deal played twice. Plain data in, plain data out: the jobs
are ``GameJob``s for the run loop, and each game's gains are computed from the two results' placements.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, replace
from typing import Iterable, Mapping, Sequence

from referee.bots.spec import BotSpec
from referee.engine.notation import StoredGame, ruleset_of
from referee.run.jobs import GameJob
from referee.store.results import GameResult
from referee.table.policy import FaultPolicy

#: What the reference player is called at the table (told to the bots when names are shown).
REFERENCE_NAME = "reference"


def place_score(placements: Sequence[int], seat: int) -> float:
    """1 for first place, 0 for last, evenly between (forfeited seats share the last place)."""
    n = len(placements)
    return (n - placements[seat]) / (n - 1) if n > 1 else 0.0


def stored_game(result: GameResult) -> StoredGame:
    """What replays a stored result."""
    return StoredGame(result.game, result.seed, result.ruleset, result.options, result.seating, result.actions)


@dataclass(frozen=True)
class Replay:
    """A stored game played again with ``seat`` (its bot, ``giver``) taken by the reference player."""

    game: str
    seat: int
    giver: str
    job: GameJob


def replay_id(game: str, seat: int) -> str:
    """The id of ``game`` played again with ``seat`` taken: ``g000012~s2`` for seat 2."""
    return f"{game}~s{seat}"


def plan(games: Iterable[GameResult], specs: Mapping[str, BotSpec], measured: Sequence[str], reference: BotSpec,
         policy: FaultPolicy, most: int | None = None) -> list[Replay]:
    """The games to play again: each stored game (by id) once per seat of a ``measured`` bot, while a pair at its
    table has fewer than ``most`` games (``None``: every game); a game with a seat no spec can start is left out."""
    wanted = set(measured)
    used: dict[frozenset[str], int] = defaultdict(int)
    out = []
    for result in sorted(games, key=lambda r: r.game):
        names = result.seating
        if result.reason == "lost" or any(n not in specs for n in names):
            continue
        pairs = {frozenset((a, b)) for a in names for b in names if a != b and {a, b} <= wanted}
        if not pairs or (most is not None and all(used[p] >= most for p in pairs)):
            continue
        for p in pairs:
            used[p] += 1
        rules = ruleset_of(stored_game(result))
        stand_in = replace(reference, name=_free_name(names))
        for seat, name in enumerate(names):
            if name not in wanted:
                continue
            seats = tuple(stand_in if i == seat else specs[n] for i, n in enumerate(names))
            job = GameJob(replay_id(result.game, seat), result.seed, rules, seats, policy,
                          hide_names=result.hidden_names)
            out.append(Replay(result.game, seat, name, job))
    return out


def _free_name(names: Sequence[str]) -> str:
    """The reference's name at a table: ``reference``, or ``reference#2``... if a bot is called that."""
    name, k = REFERENCE_NAME, 1
    while name in names:
        k += 1
        name = f"{REFERENCE_NAME}#{k}"
    return name


def gains(stored: GameResult, again: GameResult, seat: int) -> dict[int, float]:
    """What each seat that stayed gained from the bot of ``seat`` at this table: its change of place score when
    the bot was replaced, less the mean change of the other seats that stayed (``{}`` if the replayed game was lost
    by a worker)."""
    if again.reason == "lost":
        return {}
    n = len(stored.seating)
    change = {x: place_score(stored.placements, x) - place_score(again.placements, x) for x in range(n) if x != seat}
    out = {}
    for x, d in change.items():
        others = [v for y, v in change.items() if y != x]
        out[x] = d - (sum(others) / len(others) if others else 0.0)
    return out
