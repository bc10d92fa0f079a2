"""A built-in player asked the decision points of a stored seat, in this process (it is no program to start).

The stored game is replayed through the engine, and at each of the seat's turns the player is given the
seat's view and the legal actions, as ``BuiltinSeat`` gives them in a game; its answers never change the
game. Its generator is seeded as the table seeds it (the game's seed times 7 plus the seat): asked first,
``builtin:random`` in a seat it played makes the stored moves again.

*Asked twice.* A process that draws from its own unseeded generator answers differently when asked again; one
seeded by the game (``sample_bots/python/random_bot.py``) answers alike. A built-in player's generator is the
referee's, seeded per game seat, so asking it again with the same seed only repeats the referee's arithmetic.
Its second asking is therefore as another game would seed it (``AGAIN_SEED`` added to the seed): what its
answers owe to its generator then shows, and ``builtin:random`` is recognised as playing at random, as a
student's random bot is. ``builtin:easy`` draws only for the colour it names with a wild, so it answers
alike nearly always.
"""

from __future__ import annotations

from referee.engine.notation import StoredGame, walk
from referee.players import SeatView, make_player
from referee.replay.seat_lines import SeatScript
from referee.similar.agreement import Answer

#: Added to the table's seed for a built-in player's second asking (a seed no table of the run gives the seat).
AGAIN_SEED = 1_000_003


def seat_seed(stored: StoredGame, seat: int) -> int:
    """The seed a table gives a built-in player in ``seat`` of the stored game (``BuiltinSeat.begin``)."""
    return stored.seed * 7 + seat


def builtin_answers(name: str, script: SeatScript, stored: StoredGame, *, again: bool = False) -> dict[int, Answer]:
    """The built-in player's answer at each request of the script with two legal answers or more."""
    points = {r.turn: r.number for r in script.requests if len(r.legal) > 1}
    out: dict[int, Answer] = dict.fromkeys(points.values())
    player = make_player(name, seat_seed(stored, script.seat) + (AGAIN_SEED if again else 0))
    view: SeatView | None = None
    for turn, game, action, _ in walk(stored):
        if action is None or game.current != script.seat:
            continue
        view = view or SeatView(game, script.seat)  # the view reads the live game: one serves every turn
        # Asked at every turn of the seat, as the table asks it: its generator advances as in a game.
        chosen = player.choose(view, game.legal_actions())
        if turn in points:
            out[points[turn]] = repr(chosen.key)
    return out
