"""The shipped position suites (``referee/data/suites/RULESET.yaml``), found in seeded games of built-in players.

Each position is the situation of one of the rule documents' worked examples (``seeds/``), met in a real
game: the first seeded game (of ``builtin:random`` against itself, so the situations come up unsteered)
where the situation holds gives the position. Run as a script to write the suites again:

    python -m tests.support.shipped_suites
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass
from typing import Callable

from referee.engine.actions import PLAY, Action
from referee.engine.game import Game
from referee.engine.notation import code_of, encode_actions
from referee.engine.rules import get_ruleset
from referee.players import SeatView, make_player
from referee.replay.suite import SHIPPED, Position, append_position

#: A situation: the game before the seat's turn -> (accepted codes, rejected codes), or None when it does not hold.
Finder = Callable[[Game], "tuple[list[str], list[str]] | None"]


@dataclass(frozen=True)
class Wanted:
    id: str
    ruleset: str
    seats: int
    finder: Finder
    comment: str


def _plays(game: Game) -> list[Action]:
    return [a for a in game.legal_actions() if a.kind == PLAY]


def coral_seven(game: Game) -> tuple[list[str], list[str]] | None:
    """compact: the coral 7 on top, the seat holds the colour in play, a 7 of another colour and a Wild Draw Four."""
    hand = game.hands[game.current]
    top = game.top
    if game.phase != "play" or top.code != "coral:7" or game.colour != "coral":
        return None
    if not (any(c.colour == game.colour for c in hand) and any(c.rank == "7" for c in hand)
            and any(c.rank == "wild4" for c in hand)):
        return None
    return [code_of(a) for a in _plays(game)], [f"w4{c[0]}" for c in game.colours]


def two_sevens(game: Game) -> tuple[list[str], list[str]] | None:
    """arcade: the seat can lay two 7s together (and can play something else too): shed the most."""
    plays = _plays(game)
    sevens = [a for a in plays if len(a.cards) >= 2 and all(c.rank == "7" for c in a.cards)]
    if game.phase != "play" or not sevens or len(game.hands[game.current]) < 4:
        return None
    most = max(len(a.cards) for a in plays)
    if max(len(a.cards) for a in sevens) != most or len([a for a in plays if len(a.cards) == 1]) < 2:
        return None
    return [code_of(a) for a in plays if len(a.cards) == most], []


def draw_two_pair(game: Game) -> tuple[list[str], list[str]] | None:
    """arcade: three cards, two of them Draw Twos that go down together: lay both, with the call."""
    hand = game.hands[game.current]
    if game.phase != "play" or len(hand) != 3:
        return None
    pairs = [a for a in _plays(game) if len(a.cards) == 2 and all(c.rank == "draw2" for c in a.cards)]
    if not pairs:
        return None
    return ([code_of(a) for a in pairs if a.call],
            [code_of(Action(PLAY, a.cards, a.colour, False)) for a in pairs if a.call])


def save_the_draw_two(game: Game) -> tuple[list[str], list[str]] | None:
    """family: the next player is down to one card and the seat can play a Draw Two or a Skip on them."""
    nxt = (game.current + game.direction) % game.n
    if game.phase != "play" or len(game.hands[nxt]) != 1 or len(game.hands[game.current]) < 3:
        return None
    plays = _plays(game)
    stoppers = [a for a in plays if a.cards[-1].rank in ("draw2", "skip", "wild4")]
    if not stoppers or len(stoppers) == len(plays):
        return None
    return [code_of(a) for a in stoppers], []


WANTED = (
    Wanted("coral-7", "compact", 3, coral_seven,
           "seeds/000 worked example: on the coral 7 coral matches, any 7 matches, a Wild plays on anything; "
           "the Wild Draw Four only when you hold no card of the colour in play, and here you hold one"),
    Wanted("7s-together", "arcade", 3, two_sevens,
           "seeds/003 worked example: the play that sheds the most is the 7s together; the last one laid sets "
           "the colour"),
    Wanted("draw-two-pair-calls", "arcade", 2, draw_two_pair,
           "seeds/003 worked example: lay both Draw Twos and you hold one card, so the play has to carry the "
           "last-card call (without it you draw one)"),
    Wanted("stop-the-last-card", "family", 3, save_the_draw_two,
           "seeds/001 tip: save a Skip or a Draw Two for the player after you when they are down to one card"),
)


def find(wanted: Wanted, seeds: range = range(1, 5000)) -> Position:
    """The first seeded game of random players where the wanted situation comes up."""
    rules = get_ruleset(wanted.ruleset)
    for seed in seeds:
        rng = random.Random(seed)
        game = Game(rules, wanted.seats, rng)
        players = [make_player("random", seed * 10 + s) for s in range(wanted.seats)]
        actions: list[Action] = []
        while not game.over and len(actions) < 400:
            found = wanted.finder(game)
            if found is not None and found[0]:
                accept, reject = found
                return Position(wanted.id, seed, tuple(f"random{s}" for s in range(wanted.seats)),
                                encode_actions(actions), game.current, tuple(accept), tuple(reject), wanted.comment,
                                f"seed {seed}, builtin:random in every seat (tests/support/shipped_suites.py)")
            seat = game.current
            action = players[seat].choose(SeatView(game, seat), game.legal_actions())
            actions.append(action)
            game.apply(action, rng)
    raise LookupError(f"no game of seeds {seeds} has the situation {wanted.id}")


def write(folder: str = SHIPPED) -> None:
    import os

    os.makedirs(folder, exist_ok=True)
    for ruleset in ("compact", "family", "arcade"):
        path = os.path.join(folder, f"{ruleset}.yaml")
        if os.path.exists(path):
            os.remove(path)
        for wanted in WANTED:
            if wanted.ruleset == ruleset:
                append_position(path, ruleset, {}, find(wanted))
        print(path, file=sys.stderr)


if __name__ == "__main__":
    write()
