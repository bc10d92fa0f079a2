"""Rule cases for ``family`` (seeds/001_*.txt): every rule sentence of the document, as a table."""

from __future__ import annotations

import random
from collections import Counter

from referee.engine.cards import SHAPES, STANDARD_COLOURS, Card, standard_deck
from referee.engine.game import Game, event_for
from referee.engine.rules import RulesetError, get_ruleset
from referee.players import SeatView, make_player
from tests.support.rulecases import (
    F,
    R,
    act,
    all_cards,
    case,
    deck_of,
    find_opening,
    make_state,
    opening_top,
    players_ok,
    run,
    show,
    table,
)


def st(**kw):
    return {"ruleset": "family", **kw}


def stk(**kw):
    return {"ruleset": "family", "options": {"stacking": True}, **kw}


def dup(**kw):
    return {"ruleset": "family", "options": {"draw_until_playable": True}, **kw}


WILDS = ["play wild red", "play wild yellow", "play wild green", "play wild blue"]
WILD4S = ["play wild4 red", "play wild4 yellow", "play wild4 green", "play wild4 blue"]


def deck_summary() -> dict:
    deck = standard_deck(4)
    counts = Counter(c.code for c in deck)
    per_colour = {}
    for col in STANDARD_COLOURS:
        per_colour[col] = {r: counts[f"{col}:{r}"] for r in [str(i) for i in range(10)] + ["skip", "reverse", "draw2"]}
    return {"size": len(deck), "wild": counts["wild"], "wild4": counts["wild4"],
            "colours": sorted({c.colour for c in deck if c.colour}), "per_colour_total":
            {col: sum(per_colour[col].values()) for col in STANDARD_COLOURS}, "per_colour": per_colour}


ONE_COLOUR = {"0": 1, **{str(i): 2 for i in range(1, 10)}, "skip": 2, "reverse": 2, "draw2": 2}


def shapes_match_colours() -> bool:
    """Two cards share a shape exactly when they share a colour; wilds have none."""
    deck = set(standard_deck(4))
    return all((a.shape == b.shape) == (a.colour == b.colour) for a in deck for b in deck
               if not a.is_wild and not b.is_wild) and all(c.shape is None for c in deck if c.is_wild)


def fresh_games(players=(2, 3, 4, 5, 6), seeds=range(40)):
    for n in players:
        for seed in seeds:
            yield n, Game(get_ruleset("family"), n, random.Random(seed))


def deal_facts() -> dict:
    hand_sizes, totals, tops, buried, piles = set(), set(), set(), set(), set()
    for n, g in fresh_games():
        deal = next(e for e in g.events if e["kind"] == "deal")
        hand_sizes |= {len(s["hand"]) for s in deal["secret"].values()}
        totals.add(all_cards(g) == deck_of("family", n))
        tops.add(opening_top(g).rank)
        buried |= {e["card"] for e in g.events if e["kind"] == "bury"}
        piles.add(len(g.draw_pile) + sum(map(len, g.hands)) + len(g.discard) == 108 and len(g.discard) == 1)
    return {"hand": hand_sizes, "whole deck": totals, "wild4 top": "wild4" in tops, "wild top": "wild" in tops,
            "buried": buried, "pile": piles}


def opening(rank: str, players: int = 4, dealer: int = 2) -> dict:
    g = find_opening("family", players, lambda g: opening_top(g).rank == rank, dealer=dealer)
    first = (dealer + 1) % players
    return {"current": g.current, "direction": g.direction, "first_hand": len(g.hands[first]), "phase": g.phase,
            "kinds": [e["kind"] for e in g.events if e["kind"] != "bury"]}


def opening_wild() -> dict:
    g = find_opening("family", 4, lambda g: opening_top(g).rank == "wild", dealer=0)
    out = {"before": (g.phase, g.current, g.colour, sorted(show(a) for a in g.legal_actions()))}
    g.check(act("colour green"))
    g.apply(act("colour green"), random.Random(0))
    out["after"] = (g.phase, g.current, g.colour, g.move)
    out["plays"] = all(a.kind in ("play", "draw") for a in g.legal_actions())
    return out


OPEN_WILD = {"before": ("colour", 1, None, ["colour blue", "colour green", "colour red", "colour yellow"]),
             "after": ("play", 1, "green", 0), "plays": True}


@table(
    case("deck-108", [F("What you need: Its own deck of 108 cards"), F("There are 108 cards."),
                      F("In each colour there is one 0, two of every number from 1 to 9, and two each of the three "
                        "action cards: Skip, Reverse and Draw Two."),
                      F("That is 25 cards a colour."),
                      F("Then there are eight wilds, which have no colour of their own: four Wilds and four Wild Draw "
                        "Fours."),
                      F("One colour's kinds of card: a number, and the three action cards."),
                      F("A Skip, a Reverse and a Draw Two, in red."), F("A Wild and a Wild Draw Four.")],
         probe=lambda: {k: v for k, v in deck_summary().items() if k != "colours"},
         value={"size": 108, "wild": 4, "wild4": 4, "per_colour_total": {c: 25 for c in STANDARD_COLOURS},
                "per_colour": {c: ONE_COLOUR for c in STANDARD_COLOURS}}),
    case("deck-four-colours", [F("The deck has four colours: red, yellow, green and blue."),
                               F("Last Card is the shedding game played with a deck of coloured cards.")],
         probe=lambda: deck_summary()["colours"], value=sorted(STANDARD_COLOURS)),
    case("shapes", [F("Here each colour also has its own shape: red is a disc, yellow a triangle, green a square and "
                      "blue a diamond."),
                    F("Each colour has a shape of its own, printed in the corner and large in the middle."),
                    F("The shape is in the corner of every card, under its number, and large in the middle.")],
         probe=lambda: {c: Card(c, "5").shape for c in STANDARD_COLOURS} | {"wild": Card(None, "wild").shape},
         value={"red": "disc", "yellow": "triangle", "green": "square", "blue": "diamond", "wild": None}),
    case("shape-match-is-colour-match", F("So a player who cannot tell red from green can still play: match the shape "
                                          "and you have matched the colour."),
         probe=shapes_match_colours, value=True),
    case("shape-of-the-colour-in-play", F("match the shape and you have matched the colour"),
         probe=lambda: (SHAPES["red"], Card.from_code("red:2").shape, Card.from_code("green:7").shape),
         value=("disc", "disc", "square")),
    case("players-2-to-6", [F("Players: 2 to 6"), F("Players\t2 to 6")],
         probe=lambda: [n for n in range(0, 9) if players_ok(n)], value=[2, 3, 4, 5, 6]),
    case("deal", [F("Everybody holds seven cards, and there is one pile in the middle."),
                  F("Shuffle the whole deck and deal seven cards to each player, one at a time."),
                  F("Put the rest face down as the draw pile."), F("Turn the top card over to start the pile."),
                  F("The draw pile face down, and one card turned up to start the pile."),
                  F("A Wild Draw Four never starts the pile."),
                  F("It goes back into the draw pile and another card is turned."),
                  R(3, "the card is put back at a random position in the draw pile")],
         probe=deal_facts, value={"hand": {7}, "whole deck": {True}, "wild4 top": False, "wild top": True,
                                  "buried": {"wild4"}, "pile": {True}}),
)
def test_deck_and_deal(c):
    run(c)




@table(
    case("opening-number-player-after-dealer", F("The player after the dealer goes first."),
         probe=lambda: opening("5"), value={"current": 3, "direction": 1, "first_hand": 7, "phase": "play",
                                            "kinds": ["deal"]}),
    case("opening-skip", F("If the card turned up is an action card, it acts on the first player: a Skip skips them"),
         probe=lambda: opening("skip"), value={"current": 0, "direction": 1, "first_hand": 7, "phase": "play",
                                               "kinds": ["deal", "skip"]}),
    case("opening-reverse", F("a Reverse means the dealer goes first and play runs the other way"),
         probe=lambda: opening("reverse"), value={"current": 2, "direction": -1, "first_hand": 7, "phase": "play",
                                                  "kinds": ["deal", "reverse"]}),
    case("opening-draw2", F("and a Draw Two makes them take two and miss their turn."),
         probe=lambda: opening("draw2"), value={"current": 0, "direction": 1, "first_hand": 9, "phase": "play",
                                                "kinds": ["deal", "penalty", "draw", "skip"]}),
    case("opening-wild-first-player-names-colour", [F("A Wild lets the first player choose its colour."),
                                                    R(13, "the first player names its colour, then takes the turn "
                                                          "as usual")],
         probe=opening_wild, value=OPEN_WILD),
)
def test_opening(c):
    run(c)


ACTS = dict(hands=[["red:skip", "red:reverse", "red:draw2", "blue:9", "red:3"], ["green:5", "red:draw2"], ["blue:2"]],
            top="red:7", draw=["yellow:2", "yellow:3", "yellow:4", "yellow:5"])


@table(
    case("red7-any-red-or-any-7", [F("A red 7 on the pile."), F("Any red card goes on it, and so does any 7."),
                                   F("On your turn you put one card on the pile, and it has to match the card on "
                                     "top: the same colour, the same number or the same symbol."),
                                   F("Match the card on the pile by its colour, its number or its symbol")],
         st(hands=[["red:2", "blue:7", "blue:2", "green:skip"], ["green:1"]], top="red:7", draw=["yellow:1"]),
         legal_exactly=["play red:2", "play blue:7", "draw"]),
    case("blue-skip-another-skip-or-blue", [F("A blue Skip on the pile."),
                                            F("Another Skip goes on it, and so does any blue card."),
                                            F("Each action card matches its colour, and any card with the same "
                                              "symbol.")],
         st(hands=[["red:skip", "blue:4", "red:4", "green:draw2"], ["green:1"]], top="blue:skip", draw=["yellow:1"]),
         legal_exactly=["play red:skip", "play blue:4", "draw"]),
    case("play-one-matching-card-or-wild", F("Play one card that matches the top of the pile by colour, number or "
                                             "symbol, or play a wild."),
         st(hands=[["wild", "green:3", "yellow:8"], ["green:1"]], top="yellow:3", draw=["yellow:1"]),
         legal_exactly=["play green:3", "play yellow:8", *WILDS, "draw"]),
    case("one-card-per-turn", F("On your turn you put one card on the pile"),
         st(hands=[["red:3", "red:3", "blue:1"], ["green:1"]], top="red:7", draw=["yellow:1"]), "play red:3 red:3",
         illegal="one card per play"),
    case("nothing-matches-draw", [F("If you have nothing that matches, you draw."),
                                  F("If you cannot play, draw one card.")],
         st(hands=[["blue:3", "green:4"], ["green:1"]], top="red:7", draw=["yellow:1"]), legal_exactly=["draw"]),
    case("drawn-card-plays-straight-away", [F("If that card plays, you may play it straight away or keep it."),
                                            F("Either way, play then passes to the next player.")],
         st(hands=[["blue:3", "green:4"], ["green:1"], ["blue:1"]], top="red:7", draw=["red:9"]),
         ["draw", "play red:9"], top="red:9", current=1, hands={0: ["blue:3", "green:4"]}),
    case("drawn-card-kept", [F("If that card plays, you may play it straight away or keep it."),
                             F("Either way, play then passes to the next player.")],
         st(hands=[["blue:3", "green:4"], ["green:1"], ["blue:1"]], top="red:7", draw=["red:9"]),
         ["draw", "pass"], top="red:7", current=1, hands={0: ["blue:3", "green:4", "red:9"]}),
    case("drawn-card-unplayable-turn-passes", F("Either way, play then passes to the next player."),
         st(hands=[["blue:3", "green:4"], ["green:1"], ["blue:1"]], top="red:7", draw=["yellow:9"]),
         "draw", current=1, phase="play", hands={0: ["blue:3", "green:4", "yellow:9"]}),
    case("draw-though-a-card-plays", F("You may draw even when you have a card that plays."),
         st(hands=[["red:3", "green:4"], ["green:1"]], top="red:7", draw=["yellow:9"]), "draw",
         current=1, sizes=[3, 1]),
    case("keep-a-drawn-wild", F("Keeping a card back is a real choice, most often a wild you would rather save."),
         st(hands=[["red:3", "green:4"], ["green:1"]], top="red:7", draw=["wild"]), "draw",
         phase="drawn", drawn="wild", legal_exactly=[*WILDS, "pass"]),
    case("after-drawing-only-the-drawn-card", F("After drawing, only the card you drew may be played that turn."),
         st(hands=[["red:3", "green:4"], ["green:1"]], top="red:7", draw=["red:9"]), ["draw", "play red:3"],
         illegal="after drawing, only the drawn card red:9 may be played"),
    case("draw-pile-runs-out-reshuffle", F("If the draw pile runs out, the pile is shuffled back in under its top "
                                           "card, and play goes on."),
         st(hands=[["blue:3", "green:4"], ["green:1"]], top="red:7", discard=["yellow:2", "yellow:5", "yellow:6"]),
         "draw", discard=["red:7"], sizes=[3, 1], current=1, event_has=[{"kind": "reshuffle", "count": 3}]),
    case("skip", [F("A Skip makes the next player miss their turn."), F("Skip: The next player misses their turn.")],
         st(**ACTS), "play red:skip", current=2, events=["play", "skip"]),
    case("reverse", [F("A Reverse sends play the other way round the table."),
                     F("Reverse: Play goes the other way round the table.")],
         st(**ACTS), "play red:reverse", current=2, direction=-1, events=["play", "reverse"]),
    case("reverse-two-players", F("With two players it works like a Skip, so you play again."),
         st(hands=[["red:reverse", "blue:9", "blue:8"], ["green:5"]], top="red:7"), "play red:reverse",
         current=0, direction=1, events=["play", "skip"]),
    case("draw2", [F("A Draw Two makes the next player take two cards and miss their turn."),
                   F("Draw Two: The next player takes two cards and misses their turn.")],
         st(**ACTS), "play red:draw2", current=2, hands={1: ["green:5", "red:draw2", "yellow:2", "yellow:3"]},
         pending=0, events=["play", "penalty", "draw", "skip"]),
    case("wild-goes-on-anything", [F("A Wild goes on anything."), F("They go on any card."),
                                   F("Wild: A card with no colour, which goes on anything and names the next colour.")],
         st(hands=[["wild", "red:3"], ["green:1"]], top="blue:skip"), "play wild yellow", top="wild",
         colour="yellow"),
    case("after-wild-match-named-colour-or-wild", F("When you play one you choose the colour that comes next, and "
                                                    "the next player has to match that colour or play a wild of their "
                                                    "own."),
         st(hands=[["green:3", "red:3", "wild4", "blue:skip"], ["green:1"]], top="wild", colour="green",
            draw=["yellow:1"]),
         legal_exactly=["play green:3", *WILD4S, "draw"]),
    case("wild4-next-takes-four", F("A Wild Draw Four does the same, and the next player also takes four cards and "
                                    "misses their turn."),
         st(hands=[["wild4", "red:3"], ["green:1"], ["blue:1"]], top="red:7",
            draw=["yellow:1", "yellow:2", "yellow:3", "yellow:4"]), "play wild4 blue",
         colour="blue", current=2, hands={1: ["green:1", "yellow:1", "yellow:2", "yellow:3", "yellow:4"]}),
    case("wild4-at-any-time", [F("This table has no challenge: a Wild Draw Four may be played at any time."),
                               F("Some tables let a player challenge a Wild Draw Four played while the player held a "
                                 "card of the colour on the pile.")],
         st(hands=[["wild4", "red:3", "red:4"], ["green:1"], ["blue:1"]], top="red:7",
            draw=["yellow:1", "yellow:2", "yellow:3", "yellow:4"]), "play wild4 blue",
         current=2, no_events=["challenge"]),
    case("last-card-said-for-you", [F("When a player is down to one card, everybody at the table has to know."),
                                    F("Here the table says it for you, in the log and on your seat, every time."),
                                    F("Nobody is ever caught out for forgetting."),
                                    F("At a real table you say so out loud, and a player who forgets can be made to "
                                      "draw.")],
         st(hands=[["red:3", "blue:9"], ["green:1", "green:2"]], top="red:7", draw=["yellow:1"]), "play red:3",
         events=["play", "call"], sizes=[1, 2], draw=["yellow:1"],
         event_has=[{"kind": "call", "seat": 0, "by": "referee"}], no_events=["forfeit"]),
)
def test_turn(c):
    run(c)


def call_is_public() -> bool:
    g = make_state(**st(hands=[["red:3", "blue:9"], ["green:1"]], top="red:7"))
    g.apply(act("play red:3"), random.Random(0))
    call = next(e for e in g.events if e["kind"] == "call")
    return all(event_for(call, seat) == call for seat in (None, 0, 1)) and "secret" not in call


OUT = dict(hands=[["red:3"], ["red:9", "blue:skip", "wild"], ["green:4"]], top="red:7",
           draw=["yellow:1", "yellow:2"], dealer=2)


@table(
    case("call-told-to-everybody", F("When a player is down to one card, everybody at the table has to know."),
         probe=call_is_public, value=True),
    case("goes-out-scores-others-79", [F("The player who goes out scores the cards left in everybody else's hand."),
                                       F("Whatever is left in everybody else's hand is your score."),
                                       F("A number card is worth its number, a Skip, Reverse or Draw Two 20, and a "
                                         "wild 50."),
                                       F("Left in a hand: 9 for the number, 20 for the Skip and 50 for the wild."),
                                       F("That is 79 to the winner."), F("Nobody else scores anything that round."),
                                       F("The first player to play their last card takes the round."),
                                       F("Going out: Playing your last card, which takes the round."),
                                       F("A wild played early is a card you will miss later, and fifty points if "
                                         "somebody else goes out.")],
         st(**OUT), "play red:3", winner=0, gained=[83, 0, 0], scores=[83, 0, 0],
         event_has=[{"kind": "round_end", "points": [0, 79, 4]}]),
    case("goes-out-on-draw2-next-still-takes", F("If the last card played is a Draw Two or a Wild Draw Four, the next "
                                                 "player still takes the cards, and they count to the winner."),
         st(hands=[["red:draw2"], ["green:4"], ["blue:3"]], top="red:7", draw=["yellow:1", "yellow:2"]),
         "play red:draw2", winner=0, gained=[10, 0, 0], event_has=[{"kind": "round_end", "points": [0, 7, 3]}]),
    case("goes-out-on-wild4-next-still-takes", F("If the last card played is a Draw Two or a Wild Draw Four, the next "
                                                 "player still takes the cards"),
         st(hands=[["wild4"], ["green:4"], ["blue:3"]], top="red:7",
            draw=["yellow:1", "yellow:2", "yellow:3", "yellow:4"]),
         "play wild4 red", winner=0, gained=[17, 0, 0], event_has=[{"kind": "round_end", "points": [0, 14, 3]}]),
    case("scores-carry-over", F("Scores carry over from round to round, and the first player to reach the target wins "
                                "the match."),
         st(**OUT, scores=[100, 150, 20]), "play red:3", scores=[183, 150, 20], round=2, over=False),
    case("first-to-target-wins", F("Scores carry over from round to round, and the first player to reach the target "
                                   "wins the match."),
         st(**OUT, scores=[250, 150, 20]), "play red:3", scores=[333, 150, 20], over=True,
         result={"reason": "target", "winner": 0}, placements=[1, 2, 3]),
    case("dealer-moves-each-round", F("The dealer moves one seat round the table every round."),
         st(**OUT), "play red:3", dealer=0, round=2, event_has=[{"kind": "deal", "dealer": 0, "first": 1}]),
    case("single-round", [F("You can also play a single round, or to 200 or 500."),
                          F("Play to\t500 published, 300 here\tOne round, 200, 300 or 500.")],
         {**st(**OUT), "options": {"target": "round"}}, "play red:3", over=True, round=1, scores=[83, 0, 0],
         result={"reason": "out", "winner": 0}, placements=[1, 3, 2]),
    case("target-200-match", F("You can also play a single round, or to 200 or 500."),
         {**st(**OUT, scores=[120, 0, 0]), "options": {"target": "200"}}, "play red:3", over=True,
         result={"reason": "target", "winner": 0}),
)
def test_scoring_and_match(c):
    run(c)


@table(
    case("default-target-300", F("This table plays to 300 unless you choose otherwise, which is about seven rounds "
                                 "and eleven minutes at four players."),
         probe=lambda: get_ruleset("family").target, value=300),
    case("published-target-500-allowed", [F("The published target is 500."), F("500 published")],
         probe=lambda: get_ruleset("family", {"target": 500}).target, value=500),
    case("targets-round-200-300-500", F("One round, 200, 300 or 500."),
         probe=lambda: [get_ruleset("family", {"target": t}).target for t in ("round", "200", 300, "500")],
         value=["round", 200, 300, 500]),
    case("target-400-refused", F("One round, 200, 300 or 500."),
         probe=lambda: get_ruleset("family", {"target": 400}),
         raises=(RulesetError, "option target=400 is not allowed in family; allowed: round, 200, 300, 500")),
    case("target-100-refused", F("One round, 200, 300 or 500."),
         probe=lambda: get_ruleset("family", {"target": "100"}), raises=(RulesetError, "not allowed in family")),
    case("defaults-published-rules", [F("The defaults are the published rules."),
                                      F("Stacking and drawing until a card plays are the two house rules tables most "
                                        "often add, and both are here."),
                                      F("Stacking\tOff")],
         probe=lambda: {k: get_ruleset("family").options[k] for k in ("stacking", "draw_until_playable",
                                                                       "wild_draw_four", "deck", "last_card_call")},
         value={"stacking": False, "draw_until_playable": False, "wild_draw_four": "any", "deck": "standard",
                "last_card_call": "auto"}),
    case("house-rules-can-be-switched-on", [F("Change any of them on the game's own page before you start."),
                                            F("Every rule on this page is the one the app plays by.")],
         probe=lambda: (get_ruleset("family", {"stacking": "on", "draw_until_playable": "yes"}).stacking,
                        get_ruleset("family", {"stacking": "on", "draw_until_playable": "yes"}).draw_until_playable),
         value=(True, True)),
)
def test_family_options(c):
    run(c)


@table(
    case("stacking-off-no-answer", F("Stacking\tOff"),
         st(**ACTS), "play red:draw2", current=2, pending=0, sizes=[4, 4, 1]),
    case("stacking-answer-draw2-with-draw2", [F("A Draw Two can be answered with another Draw Two and a Wild Draw Four "
                                                "with another Wild Draw Four."),
                                              F("Stacking: Answering a Draw card with the same Draw card, so the cards "
                                                "pass on to the next player.")],
         stk(**ACTS), "play red:draw2", current=1, pending=2, pending_rank="draw2", sizes=[4, 2, 1],
         legal_exactly=["play red:draw2", "draw"], events=["play", "penalty"],
         event_has=[{"kind": "penalty", "seat": 1, "count": 2, "pending": True}]),
    case("stacking-cards-add-up", F("The cards add up, and whoever cannot answer takes them all and misses a turn."),
         stk(**ACTS), ["play red:draw2", "play red:draw2"], current=2, pending=4, sizes=[4, 1, 1],
         event_has=[{"kind": "penalty", "seat": 2, "count": 4, "pending": True}]),
    case("stacking-cannot-answer-takes-all", F("The cards add up, and whoever cannot answer takes them all and misses "
                                               "a turn."),
         stk(**ACTS), ["play red:draw2", "play red:draw2", "draw"], current=0, pending=0, sizes=[4, 1, 5],
         events=["play", "penalty", "play", "call", "penalty", "draw", "skip"]),
    case("stacking-answer-wild4-with-wild4", F("A Draw Two can be answered with another Draw Two and a Wild Draw Four "
                                               "with another Wild Draw Four."),
         stk(hands=[["wild4", "red:3"], ["wild4", "red:draw2", "blue:1"], ["blue:2"]], top="red:7",
             draw=["yellow:1"] * 8),
         ["play wild4 green", "play wild4 blue"], current=2, pending=8, colour="blue",
         legal_exactly=["draw"]),
    case("stacking-wild4-not-answered-by-draw2", R(12, "a Wild Draw Four only with a Wild Draw Four"),
         stk(hands=[["wild4", "red:3"], ["red:draw2", "green:draw2", "blue:1"], ["blue:2"]], top="red:7"),
         "play wild4 green", current=1, legal_exactly=["draw"]),
)
def test_stacking(c):
    run(c)


@table(
    case("draw-until-playable", F("Keep drawing until a card plays, then play it or keep it."),
         dup(hands=[["blue:1", "green:1"], ["green:2"]], top="red:7", draw=["blue:3", "green:4", "red:9", "red:2"]),
         "draw", phase="drawn", drawn="red:9", current=0,
         hands={0: ["blue:1", "green:1", "blue:3", "green:4", "red:9"]},
         legal_exactly=["play red:9", "pass"], draw=["red:2"], event_has=[{"kind": "draw", "count": 3}]),
    case("draw-until-playable-play-it", F("Keep drawing until a card plays, then play it or keep it."),
         dup(hands=[["blue:1", "green:1"], ["green:2"]], top="red:7", draw=["blue:3", "red:9"]),
         ["draw", "play red:9"], top="red:9", current=1, sizes=[3, 1]),
    case("draw-until-playable-keep-it", [F("Keep drawing until a card plays, then play it or keep it."),
                                         F("Hands grow faster and rounds last longer.")],
         dup(hands=[["blue:1", "green:1"], ["green:2"]], top="red:7", draw=["blue:3", "red:9"]),
         ["draw", "pass"], top="red:7", current=1, sizes=[4, 1]),
    case("draw-until-playable-pile-runs-dry", F("Keep drawing until a card plays"),
         dup(hands=[["blue:1", "green:1"], ["green:2"]], top="red:7", draw=["blue:3", "green:4"]),
         "draw", current=1, phase="play", sizes=[4, 1], draw=[]),
    case("draw-one-by-default", F("With nothing to play\tDraw one"),
         st(hands=[["blue:1", "green:1"], ["green:2"]], top="red:7", draw=["blue:3", "red:9"]),
         "draw", current=1, sizes=[3, 1], draw=["red:9"]),
)
def test_draw_until_playable(c):
    run(c)


def choose(name: str, state: dict) -> str:
    g = make_state(**state)
    return show(make_player(name, 0).choose(SeatView(g, g.current), g.legal_actions()))


@table(
    case("easy-plays-whatever-matches", F("Easy plays whatever matches."),
         probe=lambda: choose("easy", st(hands=[["blue:3", "red:3", "wild"], ["green:1"]], top="red:7",
                                         draw=["yellow:1"])), value="play red:3"),
    case("easy-draws-when-nothing-matches", F("Easy plays whatever matches."),
         probe=lambda: choose("easy", st(hands=[["blue:3", "green:3"], ["green:1"]], top="red:7", draw=["yellow:1"])),
         value="draw"),
    case("hard-keeps-wilds", [F("Hard keeps its wilds, chooses its colours and saves its action cards for the player "
                                "who is close."),
                              F("Keep your wilds for when nothing else plays.")],
         probe=lambda: choose("hard", st(hands=[["wild", "red:3", "blue:9", "blue:8"], ["green:1"] * 5], top="red:7",
                                         draw=["yellow:1"])), value="play red:3"),
    case("hard-names-colour-held-most", [F("When you choose a colour, choose the one you hold most of."),
                                         F("chooses its colours")],
         probe=lambda: choose("hard", st(hands=[["wild", "blue:3", "blue:4", "green:5"], ["green:1"] * 5], top="red:7",
                                         draw=["yellow:1"])), value="play wild blue"),
    case("hard-saves-skip-when-next-not-close", [F("Save a Skip or a Draw Two for the player after you when they are "
                                                   "down to one or two cards."),
                                                 F("saves its action cards for the player who is close")],
         probe=lambda: choose("hard", st(hands=[["red:skip", "red:3", "blue:5", "blue:6"], ["green:1"] * 5,
                                                ["green:2"] * 5], top="red:7", draw=["yellow:1"])), value="play red:3"),
    case("hard-skips-next-when-close", F("Save a Skip or a Draw Two for the player after you when they are down to one "
                                         "or two cards."),
         probe=lambda: choose("hard", st(hands=[["red:skip", "red:3", "blue:5", "blue:6"], ["green:1"],
                                                ["green:2"] * 5], top="red:7", draw=["yellow:1"])),
         value="play red:skip"),
    case("hard-sheds-heaviest-when-someone-close", [F("Once anybody is close to going out, play your heaviest cards "
                                                      "first."),
                                                    F("What you are holding is what they will score.")],
         probe=lambda: choose("hard", st(hands=[["red:3", "red:9", "blue:5"], ["green:1"] * 5, ["green:2"]],
                                         top="red:7", draw=["yellow:1"])), value="play red:9"),
)
def test_difficulty(c):
    run(c)
