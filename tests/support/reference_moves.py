"""A slow, obviously correct legal-move generator written from the rule documents, not from ``referee/engine/game.py``.

It plays the part of python-chess's perft data: ``legal_actions()`` is fast, cached and inlined; this is
none of those. It reads only the position (the hand of the seat to act, the top card, the colour in play,
the phase, a pending penalty, the drawn card, the pile sizes) and the ruleset's options, and states each
rule where it is used, citing the document or ruling it comes from. Multi-card plays are found by trying
every ordering of every subset of the hand, then keeping one of each (first card, middle cards in any
order, last card), the form the referee lists.

An action is a tuple ``(kind, card codes, colour, call)``.
"""

from __future__ import annotations

from itertools import permutations
from typing import Any

Move = tuple[str, tuple[str, ...], Any, bool]


def _matches(code_rank: str, code_colour: str | None, colour: str | None, top_rank: str) -> bool:
    """Match the colour in play or the number or symbol of the top card (all three documents)."""
    return code_colour == colour or code_rank == top_rank


def _wild_draw_four_ok(ruleset: Any, hand: list[Any], colour: str | None) -> bool:
    """compact: 'A Wild Draw Four may only be played when you hold no card of the colour in play.'
    family/arcade: 'a Wild Draw Four may be played at any time'."""
    if ruleset.wild_draw_four == "any":
        return True
    return all(card.colour != colour for card in hand)


def _single_plays(game: Any, hand: list[Any], card: Any, after: int) -> list[Move]:
    """The plays of ``card`` alone; a wild names each of the deck's colours. ``after``: cards left after it."""
    call = _call(game, after)
    if card.rank in ("wild", "wild4"):
        return [("play", (card.code,), colour, call) for colour in game.colours]
    return [("play", (card.code,), None, call)]


def _call(game: Any, left: int) -> bool:
    """Ruling 9: with the call required, a play leaving exactly one card carries it (the legal form does)."""
    return game.ruleset.last_card_call == "required" and left == 1


def _can_draw(game: Any) -> bool:
    """A draw finds a card: the draw pile, or the discard but its top card reshuffled (ruling 6)."""
    return len(game.draw_pile) > 0 or len(game.discard) > 1


def reference_moves(game: Any) -> set[Move]:
    """Every legal action of the seat to act, worked out from the rules alone."""
    rules = game.ruleset
    phase = str(game.phase)
    if game.over or phase == "over":
        return set()
    hand = list(game.hands[game.current])
    if phase == "colour":
        # Ruling 13: the first player names the opening Wild's colour.
        return {("colour", (), colour, False) for colour in game.colours}
    moves: set[Move] = set()
    if phase == "drawn":
        # Ruling 5: after a draw only the drawn card may be played (alone), or kept with a pass.
        card = game.drawn
        if card.rank == "wild" or (card.rank == "wild4" and _wild_draw_four_ok(rules, hand, game.colour)) or \
                _matches(card.rank, card.colour, game.colour, game.top.rank):
            moves.update(_single_plays(game, hand, card, len(hand) - 1))
        moves.add(("pass", (), None, False))
        return moves
    pending = game.pending
    for card in hand:
        if pending:
            # Ruling 12: facing a stacked penalty, only the same rank answers it (any colour).
            ok = card.rank == game.pending_rank and (card.rank != "wild4"
                                                     or _wild_draw_four_ok(rules, hand, game.colour))
        elif card.rank == "wild":
            ok = True
        elif card.rank == "wild4":
            ok = _wild_draw_four_ok(rules, hand, game.colour)
        else:
            ok = _matches(card.rank, card.colour, game.colour, game.top.rank)
        if ok:
            moves.update(_single_plays(game, hand, card, len(hand) - 1))
    if rules.multi_play:
        moves |= _multi_plays(game, hand)
    if pending:
        moves.add(("draw", (), None, False))  # take the whole stack
    elif _can_draw(game) or rules.end == "tender":
        # Ruling 5: a player may always draw; in a tender game a draw that finds nothing ends the game.
        moves.add(("draw", (), None, False))
    elif not moves:
        moves.add(("pass", (), None, False))  # ruling 7: nothing plays and nothing to draw
    return moves


def _multi_plays(game: Any, hand: list[Any]) -> set[Move]:
    """arcade: several cards of one number or symbol, never a wild; the first plays on the table (ruling 10)."""
    out: set[Move] = set()
    by_rank: dict[str, list[Any]] = {}
    for card in hand:
        if card.rank not in ("wild", "wild4"):
            by_rank.setdefault(card.rank, []).append(card)
    for rank, group in by_rank.items():
        for size in range(2, len(group) + 1):
            for order in permutations(range(len(group)), size):
                laid = [group[i] for i in order]
                first = laid[0]
                if game.pending:
                    ok = rank == game.pending_rank
                else:
                    ok = _matches(first.rank, first.colour, game.colour, game.top.rank)
                if not ok:
                    continue
                middle = tuple(sorted(c.code for c in laid[1:-1]))
                codes = (first.code, *middle, laid[-1].code)
                out.add(("play", codes, None, _call(game, len(hand) - size)))
    return out


def engine_moves(legal: list[Any]) -> list[Move]:
    """``legal_actions()`` in the same form, the middle of a multi-card play in code order."""
    out = []
    for action in legal:
        codes = [c.code for c in action.cards]
        if len(codes) > 2:
            codes = [codes[0], *sorted(codes[1:-1]), codes[-1]]
        out.append((str(action.kind), tuple(codes), action.colour, action.call))
    return out
