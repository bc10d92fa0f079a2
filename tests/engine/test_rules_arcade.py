"""Rule cases for ``arcade`` (seeds/003_*.txt): every rule sentence of the document, as a table."""

from __future__ import annotations

import random
from collections import Counter

from referee.engine.cards import STANDARD_COLOURS, standard_deck
from referee.engine.game import Game, event_for
from referee.engine.rules import RulesetError, get_ruleset
from tests.support.rulecases import (
    A,
    R,
    act,
    all_cards,
    case,
    deck_of,
    find_opening,
    make_state,
    opening_top,
    run,
    show,
    table,
)


def st(**kw):
    return {"ruleset": "arcade", **kw}


WILDS = ["play wild red", "play wild yellow", "play wild green", "play wild blue"]
WILD4S = ["play wild4 red", "play wild4 yellow", "play wild4 green", "play wild4 blue"]


def deck_facts() -> dict:
    deck = Counter(c.code for c in standard_deck(4))
    return {"size": sum(deck.values()), "wild": deck["wild"], "wild4": deck["wild4"],
            "colour": {col: (deck[f"{col}:0"], {deck[f"{col}:{n}"] for n in range(1, 10)}, deck[f"{col}:skip"],
                             deck[f"{col}:reverse"], deck[f"{col}:draw2"]) for col in STANDARD_COLOURS}}


def deal_facts() -> dict:
    out = {"hand": set(), "whole deck": set(), "top wild": set(), "discard": set(), "buried": set()}
    for n in range(2, 7):
        for seed in range(40):
            g = Game(get_ruleset("arcade"), n, random.Random(seed))
            deal = next(e for e in g.events if e["kind"] == "deal")
            out["hand"] |= {len(s["hand"]) for s in deal["secret"].values()}
            out["whole deck"].add(all_cards(g) == deck_of("arcade", n))
            out["top wild"].add(g.top.is_wild or g.colour is None)
            out["discard"].add(len(g.discard))
            out["buried"] |= {e["card"] for e in g.events if e["kind"] == "bury"}
    return out


def inert_opening(rank: str) -> dict:
    g = find_opening("arcade", 4, lambda g: opening_top(g).rank == rank, dealer=1)
    return {"current": g.current, "direction": g.direction, "hands": [len(h) for h in g.hands],
            "kinds": [e["kind"] for e in g.events if e["kind"] != "bury"], "colour": g.colour == g.top.colour}


INERT = {"current": 2, "direction": 1, "hands": [7, 7, 7, 7], "kinds": ["deal"], "colour": True}


@table(
    case("deck-108", [A("One hundred and eight cards."),
                      A("Red, yellow, green and blue each have one 0, two each of 1 to 9, two skips, two reverses and "
                        "two draw twos."),
                      A("On top of those are four wilds and four wild draw fours.")],
         probe=deck_facts, value={"size": 108, "wild": 4, "wild4": 4,
                                  "colour": {c: (1, {2}, 2, 2, 2) for c in STANDARD_COLOURS}}),
    case("deal", [A("Four colors, seven cards each."), A("Everyone gets seven cards."), A("The rest is the draw pile."),
                  A("One card is turned face up to start the discard, and it is never a wild, so the game always opens "
                    "on a color."),
                  R(3, "This repeats until a legal opening card shows.")],
         probe=deal_facts, value={"hand": {7}, "whole deck": {True}, "top wild": {False}, "discard": {1},
                                  "buried": {"wild", "wild4"}}),
    case("opening-skip-does-nothing", [A("If that first card is a skip, a reverse or a draw two, it does nothing."),
                                       A("It is only a card to match.")],
         probe=lambda: inert_opening("skip"), value=INERT),
    case("opening-reverse-does-nothing", A("If that first card is a skip, a reverse or a draw two, it does nothing."),
         probe=lambda: inert_opening("reverse"), value=INERT),
    case("opening-draw2-does-nothing", A("If that first card is a skip, a reverse or a draw two, it does nothing."),
         probe=lambda: inert_opening("draw2"), value=INERT),
    case("preset", [A("Two common house rules are not played at our tables: you cannot answer a draw two with one of "
                      "your own, and nobody can challenge a wild draw four."),
                    A("One that is played: every copy of a value can go down in a single turn.")],
         probe=lambda: {k: v for k, v in get_ruleset("arcade").options.items() if k != "deck"},
         value={"wild_draw_four": "any", "opening": "arcade", "multi_play": True, "stacking": False,
                "draw_until_playable": False, "last_card_call": "required", "end": "tender", "target": "round",
                "move_limit": 500}),
)
def test_deck_and_deal(c):
    run(c)


OPENING_DRAW2_MATCH = st(hands=[["red:draw2", "blue:draw2", "blue:3"], ["green:1"]], top="green:draw2",
                         draw=["yellow:1"])
EX1 = st(hands=[["red:7", "blue:7", "yellow:2", "blue:9", "green:3"], ["yellow:5", "yellow:6"], ["blue:1", "blue:2"]],
         top="green:7", draw=["yellow:1", "yellow:3"])
EX2 = st(hands=[["green:draw2", "yellow:draw2", "blue:4"], ["red:5", "red:6"], ["blue:1", "blue:2"]],
         top="green:5", draw=["yellow:1", "yellow:2", "yellow:3", "yellow:4", "red:9"])


@table(
    case("opening-action-only-to-match", A("It is only a card to match."),
         OPENING_DRAW2_MATCH, legal=["play red:draw2", "play blue:draw2", "play red:draw2 blue:draw2"],
         not_legal=["play blue:3"]),
    case("match-colour-number-symbol", [A("On your turn, play a card with the same color as the top card, or the same "
                                          "number, or the same symbol."),
                                        A("Match the card on the table by color or by value, get rid of every card you "
                                          "hold, and say so when you are down to one.")],
         st(hands=[["blue:2", "green:7", "red:skip", "yellow:1"], ["green:1"]], top="blue:7", draw=["yellow:1"]),
         legal_exactly=["play blue:2", "play green:7", "draw"]),
    case("blue7-on-blue2", A("A blue 7 goes on a blue 2 or on a green 7."),
         st(hands=[["blue:7", "red:1"], ["green:1"]], top="blue:2"), "play blue:7", top="blue:7", colour="blue"),
    case("blue7-on-green7", A("A blue 7 goes on a blue 2 or on a green 7."),
         st(hands=[["blue:7", "red:1"], ["green:1"]], top="green:7"), "play blue:7", top="blue:7", colour="blue"),
    case("red-skip-on-yellow-skip", A("A red skip goes on a yellow skip."),
         st(hands=[["red:skip", "red:1", "red:2"], ["green:1"], ["green:2"]], top="yellow:skip"), "play red:skip",
         colour="red", current=2),
    case("wild4-any-time", A("A wild or a wild draw four can be played on any card, at any time."),
         st(hands=[["wild4", "red:1", "red:2"], ["green:1"], ["green:2"]], top="red:7",
            draw=["yellow:1", "yellow:2", "yellow:3", "yellow:4"]), "play wild4 green", colour="green", current=2,
         sizes=[2, 5, 1]),
    case("wild-any-time", A("A wild or a wild draw four can be played on any card, at any time."),
         st(hands=[["wild", "red:1", "red:2"], ["green:1"]], top="red:skip"), "play wild blue", colour="blue",
         current=1),
    case("wild-calls-a-colour", A("When you play one you call a color."),
         st(hands=[["wild", "red:1", "red:2"], ["green:1"]], top="red:7"), "play wild", illegal="needs a named colour"),
    case("after-wild-that-colour-or-wild", [A("The next card has to be that color, or another wild."),
                                            A("Nobody can follow a wild by matching its symbol.")],
         st(hands=[["blue:5", "red:5", "wild4", "red:skip"], ["green:1"]], top="wild", colour="red",
            draw=["yellow:1"]),
         legal_exactly=["play red:5", "play red:5 blue:5", "play red:skip", *WILD4S, "draw"]),
    case("after-wild4-no-symbol-match", A("Nobody can follow a wild by matching its symbol."),
         st(hands=[["blue:5", "wild"], ["green:1"]], top="wild4", colour="red", draw=["yellow:1"]),
         "play blue:5", illegal="matches neither the colour in play (red)"),
)
def test_matching(c):
    run(c)


@table(
    case("example1-green7-what-plays", [A("The top card is the green 7, so the color is green."),
                                        A("You need green, a 7, or a wild.")],
         EX1, legal_exactly=["play red:7", "play blue:7", "play green:3", "play red:7 blue:7", "play blue:7 red:7",
                             "draw"]),
    case("example1-two-sevens", [A("The play that sheds the most is the two 7s together."),
                                 A("Lay the red 7 and then the blue 7: you are down to three cards, and because the "
                                   "blue one went down last, the color is now blue.")],
         EX1, "play red:7 blue:7", sizes=[3, 2, 2], colour="blue", top="blue:7", current=1,
         hands={0: ["yellow:2", "blue:9", "green:3"]}, events=["play"],
         discard=["green:7", "red:7", "blue:7"]),
    case("example1-order-sets-colour", A("The last card you lay is the one the next player answers, and it sets the "
                                         "color."),
         EX1, "play blue:7 red:7", colour="red", top="red:7"),
    case("multi-same-number", A("You can put down more than one card in a turn if they all have the same number or "
                                "the same symbol."),
         st(hands=[["green:3", "red:3", "yellow:3", "blue:1"], ["green:1"]], top="green:7"),
         "play green:3 red:3 yellow:3 call", sizes=[1, 1], colour="yellow", top="yellow:3"),
    case("multi-first-must-match-table", A("The first one has to match the table and the others ride on it."),
         st(hands=[["green:3", "red:3", "blue:1"], ["green:1"]], top="green:7"), "play red:3 green:3",
         illegal="red:3 matches neither"),
    case("multi-others-ride-on-first", A("The first one has to match the table and the others ride on it."),
         st(hands=[["green:3", "red:3", "blue:1"], ["green:1"]], top="green:7"), "play green:3 red:3 call",
         colour="red", sizes=[1, 1], events=["play", "call"]),
    case("multi-mixed-values-refused", A("You can put down more than one card in a turn if they all have the same "
                                         "number or the same symbol."),
         st(hands=[["green:3", "green:4", "blue:1"], ["green:1"]], top="green:7"), "play green:3 green:4",
         illegal="must all have one number or symbol"),
    case("multi-two-identical-cards", A("Two identical cards count: the deck has two of most cards, so two red 7s can "
                                        "go down together."),
         st(hands=[["red:7", "red:7", "blue:1", "blue:2"], ["green:1"]], top="red:2"), "play red:7 red:7",
         sizes=[2, 1], top="red:7", colour="red", current=1),
    case("multi-wilds-refused", [A("Wilds cannot be played this way."), A("A wild goes down alone.")],
         st(hands=[["wild", "wild", "blue:1"], ["green:1"]], top="red:2"), "play wild wild blue",
         illegal="a wild goes down alone"),
    case("multi-wild4s-refused", A("Wilds cannot be played this way."),
         st(hands=[["wild4", "wild4", "blue:1"], ["green:1"]], top="red:2"), "play wild4 wild4 blue",
         illegal="a wild goes down alone"),
    case("every-copy-in-one-turn", A("One that is played: every copy of a value can go down in a single turn."),
         st(hands=[["red:5", "red:5", "blue:5", "blue:5", "green:5", "green:5", "yellow:5", "yellow:5", "blue:9"],
                   ["green:1"]], top="red:2"),
         "play red:5 red:5 blue:5 blue:5 green:5 green:5 yellow:5 yellow:5 call", sizes=[1, 1], colour="yellow"),
    case("stack-multiplies-skip", [A("A stack is several cards of one value laid in the same turn."),
                                   A("It multiplies the card.")],
         st(hands=[["red:skip", "blue:skip", "green:1", "green:2"], ["green:3"], ["green:4"], ["green:5"]],
            top="red:7"), "play red:skip blue:skip", current=3, events=["play", "skip", "skip"],
         event_has=[{"kind": "skip", "seat": 1}, {"kind": "skip", "seat": 2}]),
    case("stack-multiplies-draw2", A("It multiplies the card."),
         st(hands=[["red:draw2", "blue:draw2", "green:1", "green:2"], ["green:3"], ["green:4"]], top="red:7",
            draw=["yellow:1", "yellow:2", "yellow:3", "yellow:4", "yellow:5"]), "play red:draw2 blue:draw2",
         current=2, sizes=[2, 5, 1], event_has=[{"kind": "penalty", "seat": 1, "count": 4}]),
    case("stack-multiplies-reverse", A("It multiplies the card."),
         st(hands=[["red:reverse", "blue:reverse", "green:reverse", "green:2", "green:9"], ["green:3"], ["green:4"]],
            top="red:7"), "play red:reverse blue:reverse green:reverse", direction=-1, current=2),
)
def test_multi_play(c):
    run(c)


def drawn_forms():
    g = make_state(**EX2)
    return sorted((show(a), a.call) for a in g.legal_actions() if a.kind == "play")


def forfeit_public():
    g = make_state(**EX2)
    g.apply(act("play green:draw2 yellow:draw2"), random.Random(0))
    forfeit = next(e for e in g.events if e["kind"] == "forfeit")
    draw = next(e for e in g.events if e["kind"] == "draw" and e["reason"] == "forfeit")
    return ("secret" not in forfeit, event_for(draw, None).get("cards"), event_for(draw, 0).get("cards"),
            event_for(draw, 2).get("count"))


@table(
    case("example2-green-is-colour", [A("A later turn."),
                                      A("Green is the color and you hold a green draw two, a yellow draw two and a "
                                        "blue 4."),
                                      A("Lay both draw twos, green first.")],
         EX2, legal_exactly=["play green:draw2 yellow:draw2", "play green:draw2", "draw"]),
    case("example2-with-call", [A("The next player draws four and loses their turn, the color is now yellow, and you "
                                  "are holding one card, so that play has to carry your last card call."),
                                A("A play that takes you down to exactly one card has to carry the call."),
                                A("The name is the one thing you have to say before you win.")],
         EX2, "play green:draw2 yellow:draw2 call", colour="yellow", top="yellow:draw2", current=2, sizes=[1, 6, 2],
         hands={0: ["blue:4"], 1: ["red:5", "red:6", "yellow:1", "yellow:2", "yellow:3", "yellow:4"]},
         events=["play", "call", "penalty", "draw", "skip"],
         event_has=[{"kind": "call", "seat": 0, "by": "player"}, {"kind": "penalty", "seat": 1, "count": 4}]),
    case("example2-without-call-draw-one", [A("Without it you draw one."),
                                            A("Forget it and the play still stands, but you draw one card from the "
                                              "pile as the forfeit."),
                                            A("Nobody needs to catch you.")],
         EX2, "play green:draw2 yellow:draw2", colour="yellow", top="yellow:draw2", current=2, sizes=[2, 6, 2],
         events=["play", "forfeit", "draw", "penalty", "draw", "skip"],
         event_has=[{"kind": "forfeit", "seat": 0, "count": 1}, {"kind": "draw", "seat": 0, "reason": "forfeit"}]),
    case("example2-legal-form-carries-call", A("so that play has to carry your last card call"),
         probe=drawn_forms, check=lambda forms: ("play green:draw2 yellow:draw2", True) in forms
         and ("play green:draw2", False) in forms),
    case("forfeit-told-to-table", A("Either way, the whole table is told."),
         probe=forfeit_public, value=(True, None, ["yellow:1"], 1)),
    case("call-told-to-table", A("Either way, the whole table is told."),
         st(hands=[["red:1", "red:2"], ["green:1"]], top="red:7"), "play red:1 call",
         event_has=[{"kind": "call", "seat": 0, "by": "player"}], no_events=["forfeit"]),
    case("last-card-needs-no-call", [A("The first player to empty their hand wins."),
                                     A("The last card itself needs no call.")],
         st(hands=[["red:1"], ["green:1", "green:9"], ["blue:4"]], top="red:7"), "play red:1", over=True,
         no_events=["forfeit", "call"], result={"reason": "out", "winner": 0}, placements=[1, 3, 2]),
    case("going-out-on-a-stack-needs-no-call", A("The last card itself needs no call."),
         st(hands=[["red:1", "blue:1"], ["green:1", "green:9"], ["blue:4"]], top="red:7"), "play red:1 blue:1",
         over=True, no_events=["forfeit"], result={"reason": "out", "winner": 0}),
    case("out-on-draw2-next-still-draws", A("If it is a draw two or a wild draw four, the next player still draws "
                                            "before the game ends."),
         st(hands=[["red:draw2"], ["green:1"], ["blue:4"]], top="red:7", draw=["yellow:5", "yellow:6"]),
         "play red:draw2", over=True, events=["play", "penalty", "draw", "round_end", "game_end"],
         event_has=[{"kind": "round_end", "points": [0, 12, 4], "winner": 0}], result={"winner": 0},
         placements=[1, 3, 2]),
    case("out-on-wild4-next-still-draws", A("If it is a draw two or a wild draw four, the next player still draws "
                                            "before the game ends."),
         st(hands=[["wild4"], ["green:1"], ["blue:4"]], top="red:7", draw=["yellow:5", "yellow:6", "red:1", "red:2"]),
         "play wild4 red", over=True, sizes=[0, 5, 1], result={"winner": 0, "points": [0, 15, 4]}),
)
def test_last_card_and_going_out(c):
    run(c)


@table(
    case("draw-when-cannot-play", A("If you cannot play, or would rather not, draw one card from the pile."),
         st(hands=[["blue:3", "green:4"], ["green:1"]], top="red:7", draw=["yellow:9", "red:2"]), "draw",
         current=1, sizes=[3, 1], draw=["red:2"]),
    case("draw-when-would-rather-not", A("If you cannot play, or would rather not, draw one card from the pile."),
         st(hands=[["red:3", "green:4"], ["green:1"]], top="red:7", draw=["yellow:9", "red:2"]), "draw",
         current=1, sizes=[3, 1], hands={0: ["red:3", "green:4", "yellow:9"]}),
    case("drawn-card-alone-or-keep", A("If that card can be played, you may play it straight away, on its own, or "
                                       "keep it and pass."),
         st(hands=[["red:3", "green:4", "blue:7"], ["green:1"]], top="red:7", draw=["yellow:7"]), "draw",
         phase="drawn", drawn="yellow:7", legal_exactly=["play yellow:7", "pass"]),
    case("drawn-card-not-with-others", A("If that card can be played, you may play it straight away, on its own, or "
                                         "keep it and pass."),
         st(hands=[["red:3", "green:4", "blue:7"], ["green:1"]], top="red:7", draw=["yellow:7"]),
         ["draw", "play yellow:7 blue:7"], illegal="only the drawn card yellow:7"),
    case("drawn-card-played", A("you may play it straight away, on its own"),
         st(hands=[["red:3", "green:4", "blue:7"], ["green:1"]], top="red:7", draw=["yellow:7"]),
         ["draw", "play yellow:7"], colour="yellow", current=1, sizes=[3, 1], move=1),
    case("drawn-card-kept", A("or keep it and pass"),
         st(hands=[["red:3", "green:4", "blue:7"], ["green:1"]], top="red:7", draw=["yellow:7"]),
         ["draw", "pass"], top="red:7", current=1, sizes=[4, 1], move=1),
    case("drawn-card-unplayable-turn-ends", A("If it cannot be played, your turn ends."),
         st(hands=[["red:3", "green:4"], ["green:1"]], top="red:7", draw=["yellow:9"]), "draw",
         current=1, phase="play", sizes=[3, 1]),
    case("no-pass-without-drawing", A("You cannot pass without drawing first."),
         st(hands=[["blue:3", "green:4"], ["green:1"]], top="red:7"), "pass", illegal="'pass' is not allowed now"),
    case("draw2-is-not-a-debt", [A("A draw two or a wild draw four is not a debt."),
                                 A("The next player draws the cards at once and loses their turn."),
                                 A("They never get a turn in which to answer it, so they cannot pass it on with a draw "
                                   "card of their own.")],
         st(hands=[["red:draw2", "red:1", "red:2"], ["blue:draw2", "green:1"], ["green:2"]], top="red:7",
            draw=["yellow:1", "yellow:2"]), "play red:draw2", current=2, pending=0, sizes=[2, 4, 1],
         events=["play", "penalty", "draw", "skip"]),
    case("wild4-is-not-a-debt", A("The next player draws the cards at once and loses their turn."),
         st(hands=[["wild4", "red:1", "red:2"], ["wild4", "green:1"], ["green:2"]], top="red:7",
            draw=["yellow:1", "yellow:2", "yellow:3", "yellow:4"]), "play wild4 blue", current=2, pending=0,
         sizes=[2, 6, 1]),
    case("reshuffle", A("When the draw pile is empty, the discard is shuffled back in, all but its top card."),
         st(hands=[["blue:3", "green:4"], ["green:1"]], top="red:7", discard=["yellow:1", "yellow:2"]), "draw",
         discard=["red:7"], sizes=[3, 1], over=False, event_has=[{"kind": "reshuffle", "count": 2}]),
)
def test_draw(c):
    run(c)


TENDER = st(hands=[["blue:1", "blue:5"], ["red:3"], ["yellow:9", "yellow:8"]], top="green:7")


@table(
    case("tender-draw-finds-nothing", [A("If someone has to draw and there is still nothing there, or the game reaches "
                                         "500 moves, it goes to tender."),
                                       A("Everyone adds up their hand."), A("The lowest total wins, and equal lowest "
                                                                            "totals are a draw.")],
         TENDER, "draw", over=True, result={"reason": "tender", "winner": 1, "points": [6, 3, 17]},
         placements=[2, 1, 3], events=["draw", "round_end", "game_end"]),
    case("tender-equal-lowest-is-a-draw", A("The lowest total wins, and equal lowest totals are a draw."),
         st(hands=[["blue:1", "blue:2"], ["red:3"], ["yellow:9", "yellow:8"]], top="green:7"), "draw", over=True,
         result={"reason": "tender", "winner": None}, placements=[1, 1, 3]),
    case("tender-card-values", A("Number cards count their number, a skip, reverse or draw two counts 20, and a wild "
                                 "of either kind counts 50."),
         st(hands=[["red:skip", "wild"], ["wild4", "red:reverse"], ["red:0", "blue:9", "blue:draw2"]], top="green:7"),
         "draw", over=True, result={"points": [70, 70, 29], "winner": 2}, placements=[2, 2, 1]),
    case("tender-at-500-moves", A("or the game reaches 500 moves, it goes to tender."),
         st(hands=[["green:1", "blue:5"], ["red:3"], ["yellow:9", "yellow:8"]], top="green:7", move=499,
            draw=["red:1"]), "play green:1 call", over=True, move=500,
         result={"reason": "tender", "winner": 1, "points": [5, 3, 17]},
         event_has=[{"kind": "round_end", "reason": "move_limit"}]),
    case("no-tender-before-500-moves", A("or the game reaches 500 moves"),
         st(hands=[["green:1", "blue:5"], ["red:3"], ["yellow:9", "yellow:8"]], top="green:7", move=498,
            draw=["red:1"]), "play green:1 call", over=False, move=499, current=1),
    case("tender-when-a-penalty-finds-nothing", [A("If someone has to draw and there is still nothing there"),
                                                 R(6, "In `arcade` a draw that finds nothing ends the game in tender "
                                                      "instead.")],
         st(hands=[["green:draw2", "blue:4"], ["red:3"], ["yellow:9"]], top="green:7"),
         "play green:draw2", over=True, result={"reason": "tender", "winner": 1, "points": [11, 3, 9]},
         events=["play", "forfeit", "reshuffle", "draw", "penalty", "draw", "round_end", "game_end"]),
)
def test_tender(c):
    run(c)


@table(
    case("targets", R(14, "an arcade game by the game's own result"),
         probe=lambda: [get_ruleset("arcade", {"target": t}).target for t in ("round", "100", 1000)],
         value=["round", 100, 1000]),
    case("target-250-refused", A("or the game reaches 500 moves"),
         probe=lambda: get_ruleset("arcade", {"target": 250}),
         raises=(RulesetError, "option target=250 is not allowed in arcade; allowed: round, 100, 200")),
)
def test_arcade_options(c):
    run(c)


def _reference_multi_plays(hand, colour, top_rank, call_allowed):
    """Brute force: every ordered pick of 2+ same-rank coloured cards whose first matches, in canonical form."""
    from itertools import permutations

    found = set()
    for rank in {c.rank for c in hand if not c.is_wild}:
        group = [c for c in hand if c.rank == rank and not c.is_wild]
        for size in range(2, len(group) + 1):
            for cards in permutations(group, size):
                first, *middle, last = cards
                if first.colour != colour and first.rank != top_rank:
                    continue
                canon = (first, *sorted(middle, key=lambda c: c.code), last)
                found.add((tuple(c.code for c in canon), call_allowed and len(hand) - size == 1))
    return found


def test_multi_plays_match_brute_force_in_random_games():
    """Every multi-card play the engine offers, and only those, once each, with the call where it leaves one card."""
    rules = get_ruleset("arcade")
    checked = 0
    for seed in range(40):
        rng = random.Random(seed)
        game = Game(rules, 2 + seed % 3, rng)
        while not game.over:
            legal = game.legal_actions()
            hand = game.hands[game.current]
            if game.phase == "play" and not game.pending:
                multi = [(tuple(c.code for c in a.cards), a.call) for a in legal if len(a.cards) > 1]
                assert len(multi) == len(set(multi)), "a multi-card play is offered twice"
                assert set(multi) == _reference_multi_plays(hand, game.colour, game.top.rank, True)
                checked += len(multi)
            game.apply(legal[rng.randrange(len(legal))], rng)
    assert checked > 200  # the games really did offer multi-card plays
