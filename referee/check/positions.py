"""Real engine positions for the scripted situations, built from card codes.

A position is a ``Game`` whose fields are set so that the situation holds; everything the bot is
then told (the ``start``, the events, the ``turn`` and its legal list) comes from the engine, so
the checker never states a rule of its own.
"""

from __future__ import annotations

import random
from typing import Mapping, Sequence

from referee.engine.actions import COLOUR, DRAW, PASS, PLAY, Action
from referee.engine.cards import DECKS, Card
from referee.engine.events import DealEvent
from referee.engine.game import PHASE_PLAY, Game, Phase
from referee.engine.rules import Ruleset


def cards(codes: Sequence[str]) -> list[Card]:
    return [Card.from_code(c) for c in codes]


def build(ruleset: Ruleset, *, seats: int, hands: Mapping[int, Sequence[str]], top: str, current: int,
          colour: str | None = None, draw: Sequence[str] = (), empty_pile: bool = False,
          sizes: Mapping[int, int] | None = None, phase: str = PHASE_PLAY, scores: Sequence[int] | None = None,
          dealer: int | None = None, round_: int = 1, seed: int = 0) -> Game:
    """A ``Game`` in the position described.

    ``hands`` gives some seats' cards; the others get ``sizes[seat]`` (default 7) cards from what is
    left of the deck. ``draw`` lists the next cards drawn, first first; the rest of the deck lies
    under them, unless ``empty_pile``, when nothing can be drawn (the leftovers are out of play).
    """
    deck = DECKS[ruleset.deck](seats)
    named = [c for h in hands.values() for c in h] + [top] + list(draw)
    for code in named:
        card = Card.from_code(code)
        if card not in deck:
            raise ValueError(f"position uses {code} more often than the {ruleset.deck} deck holds it")
        deck.remove(card)
    rng = random.Random(seed)
    rng.shuffle(deck)
    game = Game(ruleset, seats, random.Random(seed), dealer=(current - 1) % seats if dealer is None else dealer)
    game.hands = []
    for seat in range(seats):
        if seat in hands:
            game.hands.append(cards(hands[seat]))
        else:
            k = (sizes or {}).get(seat, 7)
            game.hands.append(deck[:k])
            del deck[:k]
    game.draw_pile = [] if empty_pile else deck + list(reversed(cards(draw)))
    top_card = Card.from_code(top)
    game.discard = [top_card]
    game.top = top_card
    game.colour = colour if colour is not None or top_card.is_wild else top_card.colour
    game.current = current
    game.direction = 1
    game.phase = Phase(phase)
    game.pending = 0
    game.pending_rank = None
    game.drawn = None
    game.move = 0
    game.passes = 0
    game.scores = list(scores) if scores is not None else [0] * seats
    game.round = round_
    game.over = False
    game.outcome = None
    game.events.clear()
    return game


def deal_event(game: Game, seat: int) -> DealEvent:
    """The ``deal`` event the position would have started from, for ``start_message``."""
    return {"kind": "deal", "round": game.round, "dealer": game.dealer, "top": game.top.code,
            "colour": game.colour, "first": game.current,
            "secret": {seat: {"hand": [c.code for c in game.hands[seat]]}}}


def action(text: str) -> Action:
    """``"play red:7 blue:7 call"``, ``"play wild teal"``, ``"draw"``, ``"pass"``, ``"colour red"``."""
    words = text.split()
    kind = words[0]
    if kind in (DRAW, PASS):
        return Action(kind)
    if kind == COLOUR:
        return Action(COLOUR, colour=words[1])
    if kind != PLAY:
        raise ValueError(f"unknown action {text!r}")
    played: list[Card] = []
    colour = None
    call = False
    for word in words[1:]:
        if word == "call":
            call = True
        elif ":" in word or word in ("wild", "wild4"):
            played.append(Card.from_code(word))
        else:
            colour = word
    return Action(PLAY, tuple(played), colour, call)


def example(legal: list[Action], request_id: int, **prefer: object) -> str:
    """One legal answer written out, preferring a given kind or a wild play, for ``expected`` texts."""
    from referee.protocol.wire import dumps

    pick = legal[0]
    if prefer.get("kind"):
        pick = next((a for a in legal if a.kind == prefer["kind"]), pick)
    if prefer.get("wild"):
        pick = next((a for a in legal if a.kind == PLAY and a.cards[-1].is_wild), pick)
    if prefer.get("call"):
        pick = next((a for a in legal if a.call), pick)
    return dumps(pick.to_wire(request_id)).decode()
