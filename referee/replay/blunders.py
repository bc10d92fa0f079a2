"""``lastcard blunders``: the turns of a results folder where one bot's answer looks wrong, ranked by what the
game cost it.

A turn is flagged when the bot's stored answer differs from a reference player's in the same position (a
built-in, asked in process, or a bot's command, asked as ``replay --ask`` asks it), or breaks a named pattern read
from the position alone (``RULES``). Nothing is played again: the stored games are walked through the engine
(``notation.walk``), so the finder reads a folder of hundreds of games in seconds. A stand-in move (played for
the bot after a fault) is not the bot's and is never flagged.

The ranking is the game's cost to the bot (its place: last costs 1, first 0), then the number of reasons a turn
was flagged, then the game and turn in order: the turns of the games it lost most come first.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator, Mapping, Protocol, Sequence

from referee.engine.actions import PLAY, Action
from referee.engine.game import Game
from referee.engine.notation import StoredGame, code_of, walk
from referee.errors import BAD_INPUT, LastcardError
from referee.players import make_player
from referee.players.base import SeatView
from referee.store.game_source import stored_for
from referee.store.results import complete_line
from referee.store.results_dir import ResultsDir


@dataclass(frozen=True)
class Rule:
    """A named pattern: ``better`` gives, for the seat to act, the legal answers that keep it (none: it does not
    apply here), and an answer ``when`` holds for breaks it when it is not among them."""

    name: str
    text: str
    better: Callable[[Game, list[Action]], list[Action]]
    when: Callable[[Action], bool] = lambda action: True

    def broken(self, game: Game, legal: list[Action], action: Action) -> list[Action]:
        """The answers that would have kept the rule, where ``action`` breaks it (else none)."""
        if not self.when(action):
            return []
        better = self.better(game, legal)
        return better if better and all(a.key != action.key for a in better) else []


def _stoppers(game: Game, legal: list[Action]) -> list[Action]:
    """The plays that stop the next seat when it holds one card: it draws or loses its turn, or (a Reverse at three
    seats or more) plays after the seat on the other side, unless that one holds one card too."""
    nxt = (game.current + game.direction) % game.n
    if nxt == game.current or len(game.hands[nxt]) != 1:
        return []
    prev = (game.current - game.direction) % game.n
    turn_back = game.n > 2 and len(game.hands[prev]) != 1
    return [a for a in legal if hurts(a, game.n) or (turn_back and a.kind is PLAY and a.cards[-1].rank == "reverse")]


def _is_wild(action: Action) -> bool:
    return action.kind is PLAY and action.cards[-1].is_wild


def _colour_kept(game: Game, legal: list[Action]) -> list[Action]:
    """The plays of a card of the colour in play (a wild spent then is wasted)."""
    return [a for a in legal if a.kind is PLAY and not a.cards[-1].is_wild and a.cards[-1].colour == game.colour]


#: The ranks whose play hurts the seat after the player's (it draws, or loses its turn), as ``collusion`` counts.
HURTING = frozenset({"draw2", "wild4", "skip"})


def hurts(action: Action, seats: int) -> bool:
    """Whether playing ``action`` hurts the seat after the player's (with two seats a Reverse does too)."""
    return action.kind is PLAY and any(c.rank in HURTING or (seats == 2 and c.rank == "reverse")
                                       for c in action.cards)


RULES: dict[str, Rule] = {r.name: r for r in (
    Rule("one-card", "an opponent on one card not stopped (the next seat held one card; a Skip, Draw Two, Wild "
                     "Draw Four or Reverse was legal)", _stoppers),
    Rule("wild-with-colour", "a wild spent while holding the colour (a card of the colour in play was legal)",
         _colour_kept, _is_wild),
)}


class BlunderReference(Protocol):
    """A player whose answer the bot's is compared with, game by game."""

    @property
    def name(self) -> str:
        """How the lines name it (``builtin:hard``, a bot's name)."""

    def answers(self, stored: StoredGame, seat: int, where: str) -> Mapping[int, Action]:
        """Its answer at each of ``seat``'s turns it was asked (by turn)."""


@dataclass
class BuiltinReference:
    """A built-in player, asked in process at each turn (seeded by the game's seed, so the same every run)."""

    builtin: str
    name: str = field(init=False)

    def __post_init__(self) -> None:
        make_player(self.builtin)  # an unknown name raises ValueError here, listing the built-ins
        self.name = f"builtin:{self.builtin}"

    def answers(self, stored: StoredGame, seat: int, where: str) -> Mapping[int, Action]:
        player = make_player(self.builtin, stored.seed & 0x7FFF_FFFF)
        out = {}
        for turn, game, action, stand_in in walk(stored):
            if action is not None and not stand_in and game.current == seat:
                out[turn] = player.choose(SeatView(game, seat), game.legal_actions())
        return out


@dataclass(frozen=True)
class Reason:
    """Why a turn is flagged: ``rule`` (a rule's name, or the reference's) and the answers that would pass."""

    rule: str
    better: tuple[str, ...]


@dataclass(frozen=True)
class Blunder:
    """One flagged turn of the bot."""

    game: str
    turn: int
    seat: int
    played: str
    """The bot's answer in the compact notation."""
    reasons: tuple[Reason, ...]
    place: int
    seats: int

    @property
    def cost(self) -> float:
        """What the game cost the bot: 0 for a win, 1 for last place."""
        return (self.place - 1) / (self.seats - 1) if self.seats > 1 else 0.0

    def accept(self) -> tuple[str, ...]:
        """The answers a saved position should pass: a rule's (they keep it), else none (then the bot's fails)."""
        ruled = [r for r in self.reasons if r.rule in RULES]
        return tuple(dict.fromkeys(code for r in ruled for code in r.better))

    def sort_key(self) -> tuple[float, int, str, int]:
        return (-self.cost, -len(self.reasons), self.game, self.turn)


@dataclass(frozen=True)
class GameSeat:
    """A stored game and the bot's seat in it, with its place."""

    stored: StoredGame
    seat: int
    place: int


def flag_game(game_seat: GameSeat, rules: Sequence[Rule], reference: Mapping[int, Action] | None,
              reference_name: str) -> Iterator[Blunder]:
    """The bot's flagged turns in one game."""
    stored, seat = game_seat.stored, game_seat.seat
    for turn, game, action, stand_in in walk(stored):
        if action is None or stand_in or game.current != seat:
            continue
        legal = game.legal_actions()
        if len(legal) < 2:
            continue
        reasons = []
        for rule in rules:
            better = rule.broken(game, legal, action)
            if better:
                reasons.append(Reason(rule.name, tuple(code_of(a) for a in better)))
        theirs = reference.get(turn) if reference is not None else None
        if theirs is not None and theirs.key != action.key:
            reasons.append(Reason(reference_name, (code_of(theirs),)))
        if reasons:
            yield Blunder(stored.game, turn, seat, code_of(action), tuple(reasons), game_seat.place,
                          len(stored.seating))


def find_blunders(games: Sequence[GameSeat], rules: Sequence[Rule], reference: BlunderReference | None,
                  where: str, jobs: int = 1) -> list[Blunder]:
    """Every flagged turn of the bot in ``games``, ranked (``Blunder.sort_key``). ``jobs``: games whose reference
    answers are asked side by side (a bot's command waits on its process; the order of the answers is the games')."""
    answers: Iterable[Mapping[int, Action] | None] = [None] * len(games)
    if reference is not None:
        def ask(game_seat: GameSeat) -> Mapping[int, Action]:
            return reference.answers(game_seat.stored, game_seat.seat, where)

        if jobs > 1:
            with ThreadPoolExecutor(jobs) as pool:
                answers = list(pool.map(ask, games))
        else:
            answers = map(ask, games)
    out: list[Blunder] = []
    for game_seat, theirs in zip(games, answers):
        out += flag_game(game_seat, rules, theirs, reference.name if reference is not None else "")
    return sorted(out, key=Blunder.sort_key)


class BlundersError(LastcardError):
    """A results folder with no game of the bot asked about (bad input: the message names the bots there)."""

    exit_code = BAD_INPUT


def games_of(out_dir: str, bot: str) -> list[GameSeat]:
    """The games of ``bot`` in the results folder, each seat it sat in with its place (a game that was never
    played is left out); ``BlundersError`` naming the folder's bots when it played none."""
    folder = ResultsDir(out_dir)
    if not folder.has_games():
        raise BlundersError(f"{out_dir} holds no games ({folder.games} is missing or empty): give the results "
                            "folder of a match, compare or arena run (its --out)")
    defaults = folder.line_defaults()
    out: list[GameSeat] = []
    names: dict[str, None] = {}
    for _, raw in folder.games_log.lines():
        line = complete_line(raw, defaults)
        if line.get("reason") == "lost":
            continue
        seating = [str(s) for s in line.get("seating") or []]
        names.update(dict.fromkeys(seating))
        if bot not in seating:
            continue
        stored = stored_for(out_dir, line)
        places = line.get("placements") or []
        for seat, name in enumerate(seating):
            if name == bot:
                out.append(GameSeat(stored, seat, int(places[seat]) if seat < len(places) else len(seating)))
    if not out:
        raise BlundersError(f"no bot called {bot!r} played in {out_dir}: its bots are {', '.join(names) or 'none'}; "
                            "give one of them to --bot")
    return out
