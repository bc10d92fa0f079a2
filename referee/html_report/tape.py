"""A game as the report's viewer reads it: per action, the seat to act, the action and what happened before it.

The viewer in the page does not know the rules: it applies these steps to a table (hands, top card,
pile) and shows the result, so the page needs no second engine. One game is one string, about
nine bytes an action, built by replaying the compact actions through the engine:

    step   := SEAT ACTION ("~" EVENT)*          one per action ("-" and no action once the game is over, "?" SEAT
                                                for a game still being played: that seat is to act)
    EVENT  := "D" round "," dealer "," first "," top "," pile ("|" hand)*   a deal; hands as cards joined by "."
            | "W" seat reason cards             draws (reason t turn, p penalty, f forfeit; cards joined by ".")
            | "S" seat | "R+" | "R-"            skipped; play goes clockwise / anticlockwise
            | "Y" seat "," count "," card "," 0|1    a penalty (1: pending, stacked)
            | "L" seat | "F" seat | "A" seat 0|1     calls last card; missed the call; passes (1: kept the drawn card)
            | "H" count | "B" card              reshuffle into a pile of count; a turned-up card buried
            | "P" count                         the draw pile now holds count (only where counting draws is not
                                                enough: a reshuffle in the middle of a draw)
            | "E" round "," winner "," reason "," points "," gained "," scores     numbers joined by ":"
            | "G" reason "," winner "," places "," scores
Cards and actions use the compact codes of ``referee.engine.notation``. The events of a step are those since the
previous action (its consequences), so the table before action k is steps 0..k applied, less action k.
"""

from __future__ import annotations

from typing import Final, Sequence

from referee.engine.cards import DECKS
from referee.engine.events import Event
from referee.engine.notation import _TOKENS, StoredGame, ruleset_of, walk

_CARD: Final = {card.code: token for card, token in _TOKENS.items()}
_SKIP_KINDS: Final = frozenset({"play", "colour"})  # the action itself says these


def _cards(codes: list[str]) -> str:
    return ".".join(_CARD[c] for c in codes)


def _nums(values: Sequence[int | None]) -> str:
    return ":".join("" if v is None else str(v) for v in values)


def _event(ev: Event, pile: int) -> str | None:
    if ev["kind"] in _SKIP_KINDS:
        return None
    if ev["kind"] == "draw":
        secret = ev["secret"][ev["seat"]]
        return f"W{ev['seat']}{ev['reason'][0]}{_cards(secret['cards'])}"
    if ev["kind"] == "skip":
        return f"S{ev['seat']}"
    if ev["kind"] == "deal":
        hands = "|".join(_cards(ev["secret"][s]["hand"]) for s in sorted(ev["secret"]))
        return f"D{ev['round']},{ev['dealer']},{ev['first']},{_CARD[ev['top']]},{pile}|{hands}"
    if ev["kind"] == "reverse":
        return "R+" if ev["direction"] == 1 else "R-"
    if ev["kind"] == "penalty":
        return f"Y{ev['seat']},{ev['count']},{_CARD[ev['card']]},{int(bool(ev['pending']))}"
    if ev["kind"] == "call":
        return f"L{ev['seat']}"
    if ev["kind"] == "forfeit":
        return f"F{ev['seat']}"
    if ev["kind"] == "pass":
        return f"A{ev['seat']}{int(bool(ev['kept']))}"
    if ev["kind"] == "reshuffle":
        return f"H{ev['count']}"
    if ev["kind"] == "bury":
        return f"B{_CARD[ev['card']]}"
    if ev["kind"] == "round_end":
        return (f"E{ev['round']},{'' if ev['winner'] is None else ev['winner']},{ev['reason']},{_nums(ev['points'])},"
                f"{_nums(ev['gained'])},{_nums(ev['scores'])}")
    if ev["kind"] == "game_end":
        return (f"G{ev['reason']},{'' if ev['winner'] is None else ev['winner']},{_nums(ev['placements'])},"
                f"{_nums(ev['scores'])}")
    raise ValueError(f"the report's tape has no code for event kind {ev['kind']!r}")


def tape(stored: StoredGame) -> str:
    """The viewer's steps for ``stored`` (replayed through the engine, every action checked)."""
    n = len(stored.seating)
    dealt = len(DECKS[ruleset_of(stored).deck](n)) - 7 * n - 1  # the pile after a deal, whatever was buried
    steps = []
    seen = 0
    pile = dealt  # what the viewer will count: draws take from it, a reshuffle or a deal sets it
    tokens = stored.actions.split()
    for i, game, action, _stand_in in walk(stored):
        events = game.events
        head = f"{game.current}{tokens[i]}" if action is not None else "-" if game.over else f"?{game.current}"
        parts = [head]
        for index in range(seen, len(events)):
            ev = events[index]
            code = _event(ev, dealt)
            if code is None:
                continue
            parts.append(code)
            if ev["kind"] == "deal":
                pile = dealt
            elif ev["kind"] == "reshuffle":
                pile = ev["count"]
            elif ev["kind"] == "draw":
                pile -= ev["count"]
        seen = len(events)
        if pile != len(game.draw_pile):
            pile = len(game.draw_pile)
            parts.append(f"P{pile}")
        steps.append("~".join(parts))
    return "\n".join(steps)
