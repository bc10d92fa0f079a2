"""Twin games for ``lastcard compare``: the settings, parsed once, and the two games of any pair, as plain data.

A pair is two games on the same deal (one game seed) and the same seating of the field, NEW and BASE
swapping seats between the twins. The seats they take rotate from pair to pair so that every block of
``seats`` pairs puts each of them at every seat twice, and every ``seats * (seats - 1)`` pairs at every
distance from the other. Pair ``k`` is a formula of the run's seed and ``k``: nothing is planned ahead,
so a run of a million pairs holds none of them. The API the compare loop uses::

    settings = CompareSettings.build(new, base, field, seats=4, rules=get_ruleset("compact"), seed=1)
    job_a, job_b = twin_jobs(settings, k)          # GameJobs, for any executor
    pair = twin_pair(settings, k)                  # the same, with the seats of NEW and BASE
    sprt.add_pair(*pair.scores(result_a.placements, result_b.placements))
    pair_of("p000042b")                            # (41, "b"): a stored game back to its pair

A field larger than the seats it fills (a contest's bots, ``draw``) is drawn anew for every pair, the same draw in
both twins: a formula of the seed and ``k``. ``versus="field"`` is the other question, "did my results against the
field move?": in each pair NEW sits at a seat with the field in twin a and BASE at the same seat, with the same
field and deal, in twin b; the pair scores NEW's place against BASE's.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, replace
from typing import Literal, Mapping, Sequence, TypedDict

from referee.bots.spec import BotSpec, parse_bot, unique_names
from referee.compare.sprt import SprtSettings
from referee.engine.rules import MAX_PLAYERS, MIN_PLAYERS, Ruleset, get_ruleset
from referee.errors import OptionError
from referee.run.jobs import GameJob
from referee.run.seeds import game_seed
from referee.table.policy import FaultPolicy

#: The ruleset of a comparison that names none.
COMPACT = get_ruleset("compact")

#: What fills the table when ``--seats`` is more than NEW, BASE and the field.
FILLER = "builtin:medium"
#: The salt of compare's game seeds (``jobs.game_seed``): other commands' games on the same seed differ.
SEED_SALT = "compare"
#: The salt of a pair's draw of the field, when the field is larger than its seats.
DRAW_SALT = "compare-field"

#: What a pair measures: NEW against BASE at one table, or NEW's and BASE's results against the field.
Versus = Literal["each-other", "field"]

_GAME_ID = re.compile(r"p(\d{6,})([ab])")


class CompareError(OptionError, ValueError):
    """Settings that make no comparison; ``option`` names the command-line option at fault."""


class TwinsDescriptionJson(TypedDict):
    """The keys every description of games played in twin pairs has in arena.json (a comparison's, a candidates
    family's, a tune's): what decides the games besides the bots."""

    kind: str
    seed: int
    ruleset: str
    options: Mapping[str, object]
    seats: int
    policy: str
    records: bool


@dataclass(frozen=True)
class CompareSettings:
    """Everything a comparison needs, checked once: the bots, the table, the rules, the seed and the stop rule.

    ``field`` fills every seat but NEW's and BASE's (built-in fillers included, named in ``fillers``).
    With ``games`` the run is a fixed number of games and ``sprt`` is ``None``; otherwise the test stops
    it, at ``max_games`` at the latest.
    """

    new: BotSpec
    base: BotSpec
    field: tuple[BotSpec, ...]
    seed: int
    rules: Ruleset = COMPACT
    policy: FaultPolicy = FaultPolicy()
    record: bool = False
    sprt: SprtSettings | None = SprtSettings()
    max_games: int | None = None
    games: int | None = None
    fillers: tuple[str, ...] = ()
    """Names of the built-ins that fill seats the field left empty."""
    warnings: tuple[str, ...] = ()
    """Things allowed but worth saying (NEW and BASE one command, renamed)."""
    draw: int = 0
    """Seats of the field per game, drawn from ``field`` for every pair (0: the whole field sits, in order)."""
    versus: Versus = "each-other"
    hide_names: bool = False
    """The bots are told neutral seat labels (``seat1``...), not names (``--seat-names hidden``)."""

    @classmethod
    def build(cls, new: BotSpec, base: BotSpec, field: Sequence[BotSpec] = (), *, seats: int | None = None,
              seed: int = 1, rules: Ruleset | None = None, policy: FaultPolicy = FaultPolicy(), record: bool = False,
              sprt: SprtSettings | None = SprtSettings(), max_games: int | None = None,
              games: int | None = None, draw: bool = False, versus: Versus = "each-other",
              hide_names: bool = False) -> CompareSettings:
        """Check and complete the settings: the seats, the fillers, names told apart, the game counts.

        ``draw``: a field larger than the seats it fills is drawn for each pair (a contest's bots), not refused."""
        mine = 2 if versus == "each-other" else 1  # the seats NEW and BASE take in one game
        field, seats, drawn = _table(field, seats, mine, draw)
        if games is not None and max_games is not None:
            raise CompareError("--games (a fixed number, no test) and --max-games (a cap on the test) contradict "
                               "each other: pick one", "games")
        for option, value in (("games", games), ("max-games", max_games)):
            if value is not None and (value < 2 or value % 2):
                raise CompareError(f"--{option} {value}: compare plays twin pairs, so give an even number of games, "
                                   f"2 or more (e.g. {max(2, value + value % 2)})", option)
        warnings = []
        if new.name == base.name:
            same = new.command == base.command
            new, base = replace(new, name=f"{new.name}#new"), replace(base, name=f"{base.name}#base")
            warnings.append(("NEW and BASE are the same command" if same else "NEW and BASE have the same name")
                            + f" ({new.command!r}): named {new.name} and {base.name}; NAME=COMMAND names them")
        fill = [parse_bot(FILLER) for _ in range(max(0, seats - mine - len(field)))]
        named = unique_names([new, base, *field, *fill])
        return cls(named[0], named[1], tuple(named[2:]), seed, rules or COMPACT, policy, record,
                   None if games is not None else sprt, max_games, games,
                   tuple(s.name for s in named[2 + len(field):]), tuple(warnings), drawn, versus, hide_names)

    @property
    def seats(self) -> int:
        return (2 if self.versus == "each-other" else 1) + (self.draw or len(self.field))

    @property
    def max_pairs(self) -> int | None:
        """The pairs a run plays at most: ``games`` or ``max_games`` halved, else no cap."""
        cap = self.games if self.games is not None else self.max_games
        return None if cap is None else cap // 2

    def describe(self) -> str:
        """For the results header: ``compact, 4 seats, field: easy, medium (filled)``; ``..., field: 2 a pair, drawn
        from a, b, c, d``; ``..., against the field: ...``."""
        text = f"{self.rules.house}, {self.seats} seats"
        if self.field:
            names = ", ".join(s.name + (" (filled)" if s.name in self.fillers else "") for s in self.field)
            label = "against the field" if self.versus == "field" else "field"
            text += f", {label}: " + (f"{self.draw} a pair, drawn from {names}" if self.draw else names)
        return text

    def field_of(self, index: int) -> tuple[BotSpec, ...]:
        """The field at pair ``index``'s table, in seat order: the whole field, or its draw for this pair."""
        if not self.draw:
            return self.field
        pick = random.Random(game_seed(self.seed, index, DRAW_SALT)).sample(range(len(self.field)), self.draw)
        return tuple(self.field[i] for i in pick)


def _table(field: Sequence[BotSpec], seats: int | None, mine: int, draw: bool
           ) -> tuple[Sequence[BotSpec], int, int]:
    """The field that sits, the seats, and how many of the field a pair draws (0: all sit), checked against a
    table of Last Card; ``mine``: the seats NEW and BASE take in one game."""
    if mine == 1 and not field:
        raise CompareError("a test against the field needs a field: give --field BOT (or --arena FILE for a "
                           "contest's bots)", "vs-field")
    if seats is None and mine + len(field) > MAX_PLAYERS:
        raise CompareError(f"a field of {len(field)} makes {2 + len(field)} seats with NEW and BASE; a table of "
                           f"Last Card seats {MIN_PLAYERS} to {MAX_PLAYERS}: give at most {MAX_PLAYERS - 2} "
                           f"--field bots", "field")
    seats = mine + len(field) if seats is None else seats
    if not MIN_PLAYERS <= seats <= MAX_PLAYERS:
        raise CompareError(f"--seats {seats}: a table of Last Card seats {MIN_PLAYERS} to {MAX_PLAYERS}", "seats")
    if draw and seats == mine:  # a duel: no seat for a contest's field (a test against it still has one)
        field = ()
    drawn = seats - mine if draw and mine + len(field) > seats else 0
    if mine + len(field) > seats and not drawn:
        raise CompareError(f"a field of {len(field)} does not fit {seats} seats with NEW and BASE: give at most "
                           f"{seats - 2} --field bots, or --seats {2 + len(field)}", "field")
    return field, seats, drawn


@dataclass(frozen=True)
class TwinPair:
    """Pair ``index``: its seed, where NEW and BASE sit in twin a (they swap in twin b), and its two jobs."""

    index: int
    seed: int
    new_seat: int
    base_seat: int
    jobs: tuple[GameJob, GameJob]

    def seats_of(self, twin: int) -> tuple[int, int]:
        """NEW's and BASE's seats in twin 0 (a) or 1 (b)."""
        return (self.new_seat, self.base_seat) if twin == 0 else (self.base_seat, self.new_seat)

    versus: Versus = "each-other"

    def scores(self, placements_a: Sequence[int], placements_b: Sequence[int]) -> tuple[float, float]:
        """NEW's score in each twin, from the games' placements. Against the field, NEW (twin a) and BASE (twin b)
        sit at one seat: both twins score NEW's place there against BASE's (a pair is WW, WL+DD or LL)."""
        if self.versus == "field":
            score = game_score((placements_a[self.new_seat], placements_b[self.new_seat]), 0, 1)
            return score, score
        return (game_score(placements_a, *self.seats_of(0)), game_score(placements_b, *self.seats_of(1)))


def game_score(placements: Sequence[int], new_seat: int, base_seat: int) -> float:
    """1, 1/2 or 0 for NEW: placed ahead of, level with or behind BASE (place 1 is first; forfeits share last)."""
    new, base = placements[new_seat], placements[base_seat]
    return 1.0 if new < base else 0.5 if new == base else 0.0


def rotation(seats: int, index: int) -> tuple[int, int]:
    """NEW's and BASE's seats in twin a of pair ``index``: NEW walks the seats, BASE at a distance that
    changes every ``seats`` pairs."""
    distance = 1 + (index // seats) % (seats - 1)
    new = index % seats
    return new, (new + distance) % seats


def game_ids(index: int) -> tuple[str, str]:
    """The twins' game ids: ``p000001a`` and ``p000001b`` for pair 0."""
    return f"p{index + 1:06d}a", f"p{index + 1:06d}b"


def pair_of(game_id: str) -> tuple[int, str]:
    """The pair index and twin (``"a"`` or ``"b"``) of a compare game id."""
    m = _GAME_ID.fullmatch(game_id)
    if not m or int(m.group(1)) < 1:
        raise ValueError(f"{game_id!r} is not a compare game id such as 'p000001a'")
    return int(m.group(1)) - 1, m.group(2)


def is_pair_game(game_id: str) -> bool:
    """Whether ``game_id`` is a compare game id (``pair_of`` reads it)."""
    m = _GAME_ID.fullmatch(game_id)
    return m is not None and int(m.group(1)) >= 1


def twin_pair(settings: CompareSettings, index: int) -> TwinPair:
    """Pair ``index`` (0 first): the same seed and field seating in both twins, NEW and BASE swapped."""
    if index < 0:
        raise ValueError(f"pair index {index} is negative")
    seed = game_seed(settings.seed, index, SEED_SALT)
    here = settings.field_of(index)
    if settings.versus == "field":  # one seat of ours, NEW's in twin a and BASE's in twin b
        new_seat = base_seat = index % settings.seats
    else:
        new_seat, base_seat = rotation(settings.seats, index)

    def job(game_id: str, new_at: int, base_at: int, mine: BotSpec | None = None) -> GameJob:
        field = iter(here)  # the other seats in order, the same in both twins
        seating = tuple(mine if mine is not None and s == new_at else settings.new if s == new_at
                        else settings.base if s == base_at else next(field) for s in range(settings.seats))
        # As an arena's job: a process bot's game is recorded anyway, and kept if it has a fault.
        process = any(spec.builtin is None for spec in seating)
        return GameJob(game_id, seed, settings.rules, seating, settings.policy, settings.record or process,
                       faults_only=not settings.record, hide_names=settings.hide_names)

    id_a, id_b = game_ids(index)
    if settings.versus == "field":
        jobs = (job(id_a, new_seat, base_seat, settings.new), job(id_b, new_seat, base_seat, settings.base))
        return TwinPair(index, seed, new_seat, base_seat, jobs, "field")
    return TwinPair(index, seed, new_seat, base_seat, (job(id_a, new_seat, base_seat), job(id_b, base_seat, new_seat)))


def twin_jobs(settings: CompareSettings, index: int) -> tuple[GameJob, GameJob]:
    """The two games of pair ``index``, as jobs any executor runs."""
    return twin_pair(settings, index).jobs
