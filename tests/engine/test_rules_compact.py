"""Rule cases for ``compact`` (seeds/000_*.txt): every rule sentence of the document, as a table."""

from __future__ import annotations

import random
from collections import Counter

from referee.engine.actions import KINDS
from referee.engine.cards import COMPACT_COLOURS, compact_deck
from referee.engine.game import Game, card_count
from referee.engine.rules import RulesetError, get_ruleset
from tests.support.rulecases import C, R, all_cards, case, deck_of, find_opening, opening_top, players_ok, run, table


def st(**kw):
    return {"ruleset": "compact", **kw}


# The document's worked example: coral 7 on the table.
EXAMPLE_HAND = ["coral:3", "teal:7", "wild", "violet:draw2", "violet:9"]
EXAMPLE = st(hands=[EXAMPLE_HAND, ["amber:5", "amber:6"], ["teal:2", "teal:4"]], top="coral:7",
             draw=["amber:8", "teal:9", "violet:2", "violet:3", "coral:10"])
EXAMPLE_W4 = st(hands=[EXAMPLE_HAND + ["wild4"], ["amber:5", "amber:6"], ["teal:2", "teal:4"]], top="coral:7",
                draw=["amber:8", "teal:9", "violet:2", "violet:3", "coral:10"])
NO_CORAL = st(hands=[["teal:7", "wild4", "violet:9"], ["amber:5", "amber:6"], ["teal:2", "teal:4"]], top="coral:7",
              draw=["amber:8", "teal:9", "violet:2", "violet:3", "coral:10"])
WILDS = ["play wild teal", "play wild coral", "play wild amber", "play wild violet"]


@table(
    case("example-which-cards-play", [C("Which cards can you play on the coral 7?"),
                                      C("The top card is the coral 7, so coral is in play."),
                                      C("Your hand is coral 3, teal 7, Wild, violet Draw Two and violet 9."),
                                      C("| Card | Result |")],
         EXAMPLE, legal_exactly=["play coral:3", "play teal:7", *WILDS, "draw"]),
    case("example-coral3-matches-colour", [C("| coral 3 | Plays: it matches the colour in play |"),
                                           C("The coral 3 plays because it matches the colour")],
         EXAMPLE, "play coral:3", top="coral:3", colour="coral", current=1, events=["play"],
         hands={0: ["teal:7", "wild", "violet:draw2", "violet:9"]}),
    case("example-teal7-matches-number", [C("| teal 7 | Plays: it matches the number of the top card |"),
                                          C("the teal 7 because it matches the number")],
         EXAMPLE, "play teal:7", top="teal:7", colour="teal", current=1, events=["play"]),
    case("example-wild-names-colour", [C("| Wild | Plays on anything and names the colour |"),
                                       C("and the Wild plays on anything and names a colour")],
         EXAMPLE, "play wild violet", top="wild", colour="violet", current=1, events=["play", "colour"]),
    case("example-violet-draw2-refused", [C("| violet Draw Two | Does not play: neither the colour nor the number |"),
                                          C("The violet Draw Two and the violet 9 do not play: neither the colour "
                                            "nor the number matches.")],
         EXAMPLE, "play violet:draw2", illegal="matches neither the colour in play (coral)"),
    case("example-violet9-refused", C("The violet Draw Two and the violet 9 do not play"),
         EXAMPLE, "play violet:9", illegal="matches neither"),
    case("example-wild4-refused-holding-coral", [C("| Wild Draw Four | Only if you hold no coral |"),
                                                 C("A Wild Draw Four may only be played when you hold no card of "
                                                   "the colour in play — here, no coral.")],
         EXAMPLE_W4, "play wild4 teal", illegal="may only be played when you hold no coral card",
         not_legal=["play wild4 teal", "play wild4 coral", "play wild4 amber", "play wild4 violet"]),
    case("example-wild4-allowed-without-coral", [C("| Wild Draw Four | Only if you hold no coral |"),
                                                 C("A Wild Draw Four may only be played when you hold no card of the "
                                                   "colour in play."),
                                                 C("Only when you hold no card of the colour in play."),
                                                 C("When can I play a Wild Draw Four in Last Card!?")],
         NO_CORAL, "play wild4 amber", top="wild4", colour="amber", current=2, sizes=[2, 6, 2],
         events=["play", "colour", "penalty", "draw", "skip"],
         event_has=[{"kind": "penalty", "seat": 1, "count": 4}]),
    case("wild4-restricted-by-colour-in-play-after-wild", C("A Wild Draw Four may only be played when you hold "
                                                            "no card of the colour in play."),
         st(hands=[["coral:3", "wild4"], ["amber:5"]], top="wild", colour="teal"), "play wild4 coral",
         top="wild4", colour="coral"),
)
def test_worked_example(c):
    run(c)


def deck_summary(players: int) -> dict:
    deck = compact_deck(players)
    counts = Counter(c.code for c in deck)
    per_colour = {col: sorted({c.rank for c in deck if c.colour == col}, key=lambda r: (not r.isdigit(),
                  int(r) if r.isdigit() else 0, r)) for col in COMPACT_COLOURS}
    return {"size": len(deck), "wild": counts["wild"], "wild4": counts["wild4"],
            "colours": sorted({c.colour for c in deck if c.colour}),
            "per_colour": per_colour, "copies": set(counts[c.code] for c in deck if not c.is_wild)}


RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "draw2", "reverse", "skip"]


def game_cards(players: int) -> Counter:
    return all_cards(Game(get_ruleset("compact"), players, random.Random(players)))


def opening_totals() -> set:
    """Every fresh compact game (2-6 players, many seeds) holds exactly its deck and opens on a coloured card."""
    seen = set()
    for n in range(2, 7):
        for seed in range(60):
            g = Game(get_ruleset("compact"), n, random.Random(seed))
            assert all_cards(g) == deck_of("compact", n)
            assert not opening_top(g).is_wild and not g.top.is_wild
            seen.add(card_count(g))
    return seen


def buried_opening():
    g = find_opening("compact", 4, lambda g: any(e["kind"] == "bury" for e in g.events))
    buried = [e["card"] for e in g.events if e["kind"] == "bury"]
    return (all(b in ("wild", "wild4") for b in buried), g.top.is_wild, card_count(g),
            all(any(c.code == b for c in g.draw_pile) for b in buried))


def deal_sizes() -> set:
    sizes = set()
    for n in range(2, 7):
        for seed in range(10):
            g = Game(get_ruleset("compact"), n, random.Random(seed))
            deal = next(e for e in g.events if e["kind"] == "deal")
            sizes |= {len(s["hand"]) for s in deal["secret"].values()}
    return sizes


@table(
    case("deck-four-colours", [C("Last Card! uses its own deck in four colours — teal, coral, amber and violet."),
                               C("Last Card! has its own four-colour deck: teal, coral, amber and violet.")],
         probe=lambda: deck_summary(4)["colours"], value=sorted(COMPACT_COLOURS)),
    case("deck-54-cards", [C("Each colour has the numbers 2–10 plus Skip, Reverse and Draw Two; a 54-card deck also "
                             "holds 4 Wilds and 2 Wild Draw Fours."),
                           C("Each colour holds the numbers 2–10 plus Skip, Reverse and Draw Two, and the 54-card "
                             "deck adds 4 Wilds and 2 Wild Draw Fours."),
                           C("Each deck holds 4 Wilds and 2 Wild Draw Fours."),
                           C("What is in the Last Card! deck?")],
         probe=lambda: {k: v for k, v in deck_summary(4).items() if k in ("size", "wild", "wild4", "copies")},
         value={"size": 54, "wild": 4, "wild4": 2, "copies": {1}}),
    case("deck-every-colour-2-to-10-and-actions", [C("The deck comes in four colours — teal, coral, amber and violet — "
                                                     "and every colour runs from 2 to 10."),
                                                   C("Skip, Reverse and Draw Two are the action cards, and every "
                                                     "colour has them.")],
         probe=lambda: deck_summary(4)["per_colour"], value={c: RANKS for c in COMPACT_COLOURS}),
    case("deck-one-deck-up-to-4-players", C("Up to 4 players share one 54-card deck"),
         probe=lambda: [sum(game_cards(n).values()) for n in (2, 3, 4)], value=[54, 54, 54]),
    case("deck-two-decks-5-6-players", [C("With 5 or 6 players the app shuffles two decks together (108 cards, 8 "
                                          "Wilds and 4 Wild Draw Fours)."),
                                        C("with 5 or 6 players the app shuffles two decks together (108 cards)."),
                                        C("With 5 or 6 players the app shuffles two decks together, 108 cards.")],
         probe=lambda: [(sum(game_cards(n).values()), game_cards(n)["wild"], game_cards(n)["wild4"],
                         set(v for k, v in game_cards(n).items() if ":" in k)) for n in (5, 6)],
         value=[(108, 8, 4, {2}), (108, 8, 4, {2})]),
    case("deal-7-cards", [C("Everyone gets 7 cards."), C("Everyone is dealt 7 cards.")],
         probe=deal_sizes, value={7}),
    case("players-2-to-6", [C("Last Card! is played with 2–6 players."), C("for 2–6 players"),
                            C("How many players do you need for Last Card!?"), C("pick 2–6 seats")],
         probe=lambda: [n for n in range(0, 9) if players_ok(n)], value=[2, 3, 4, 5, 6]),
    case("opening-never-a-wild", [C("The first card of the draw pile is turned up to start the discard pile; a Wild "
                                    "turned up is buried and the next card turned.")],
         probe=opening_totals, check=lambda s: s <= {54, 108}),
    case("opening-wild-buried", C("The top card of the draw pile is turned up to open the discard pile; a Wild "
                                  "turned up is buried and the next card turned."),
         probe=buried_opening, value=(True, False, 54, True)),
)
def test_deck_and_deal(c):
    run(c)




def _opening(rank: str, players: int = 4, dealer: int = 1) -> Game:
    return find_opening("compact", players, lambda g: opening_top(g).rank == rank, dealer=dealer)


def opening_effect(rank: str, players: int = 4, dealer: int = 1):
    g = _opening(rank, players, dealer)
    first = (dealer + 1) % players
    return {"current": g.current, "direction": g.direction, "first_hand": len(g.hands[first]),
            "kinds": [e["kind"] for e in g.events if e["kind"] != "bury"]}


@table(
    case("opening-number-first-after-dealer", C("The player after the dealer goes first"),
         probe=lambda: opening_effect("5"), value={"current": 2, "direction": 1, "first_hand": 7, "kinds": ["deal"]}),
    case("opening-skip-skips-first", C("If the opening card is a Skip, the first player is skipped"),
         probe=lambda: opening_effect("skip"),
         value={"current": 3, "direction": 1, "first_hand": 7, "kinds": ["deal", "skip"]}),
    case("opening-reverse-dealer-first", C("a Reverse sends play the other way and the dealer plays first"),
         probe=lambda: opening_effect("reverse"),
         value={"current": 1, "direction": -1, "first_hand": 7, "kinds": ["deal", "reverse"]}),
    case("opening-reverse-2p-dealer-first", [C("a Reverse sends play the other way and the dealer plays first"),
                                             R(4, "Reverse with two players is a Skip")],
         probe=lambda: opening_effect("reverse", players=2, dealer=1)["current"], value=1),
    case("opening-draw2-first-draws-two-skipped", C("a Draw Two makes the first player draw two and skips them."),
         probe=lambda: opening_effect("draw2"),
         value={"current": 3, "direction": 1, "first_hand": 9, "kinds": ["deal", "penalty", "draw", "skip"]}),
)
def test_opening(c):
    run(c)


THREE = dict(hands=[["coral:3", "coral:skip", "coral:reverse", "coral:draw2", "teal:9"], ["amber:5", "coral:draw2"],
                    ["teal:2"]], top="coral:7", draw=["violet:2", "violet:3", "violet:4", "violet:5"])


@table(
    case("match-colour-or-number", [C("Match the colour or the number, and be first to play your last card."),
                                    C("On your turn, play one card that matches the colour in play or the number or "
                                      "symbol of the top card — or play a Wild at any time."),
                                    C("Play one card that matches the colour in play or the number or symbol of the "
                                      "top card, or play a Wild at any time.")],
         st(hands=[["coral:2", "teal:7", "teal:2", "wild"], ["amber:5"]], top="coral:7", draw=["violet:2"]),
         legal_exactly=["play coral:2", "play teal:7", *WILDS, "draw"]),
    case("action-matches-by-symbol", C("They match by colour or by symbol, just as a number card matches by colour or "
                                       "by number."),
         st(hands=[["teal:skip", "teal:reverse", "amber:9"], ["amber:5"]], top="coral:skip", draw=["violet:2"]),
         legal_exactly=["play teal:skip", "draw"]),
    case("action-matches-by-colour", C("They match by colour or by symbol"),
         st(hands=[["teal:skip", "coral:draw2"], ["amber:5"]], top="teal:3", draw=["violet:2"]),
         legal_exactly=["play teal:skip", "draw"]),
    case("one-card-per-play", C("play one card that matches"),
         st(hands=[["coral:3", "teal:3", "amber:4"], ["amber:5"]], top="coral:7"), "play coral:3 teal:3",
         illegal="one card per play"),
    case("only-top-card-matters", C("Only the colour in play and the number or symbol of the top card matter."),
         st(hands=[["teal:5", "coral:6"], ["amber:5"]], top="coral:7", discard=["teal:5", "amber:6"]),
         "play teal:5", illegal="matches neither"),
    case("after-wild-named-colour", C("After a Wild, the colour in play is the one that was named."),
         st(hands=[["amber:4", "coral:4", "wild"], ["amber:5"]], top="wild", colour="amber", draw=["violet:2"]),
         legal_exactly=["play amber:4", *WILDS, "draw"]),
    case("wild-plays-on-anything", [C("They have no colour of their own: they play on anything (with one restriction "
                                      "on the Wild Draw Four), and you name the colour that follows."),
                                    C("or play a Wild at any time")],
         st(hands=[["wild", "coral:3"], ["amber:5"]], top="coral:7"), "play wild teal", colour="teal", top="wild"),
    case("wild-must-name-colour", [C("Wild: name the colour."), C("Wild: you name the colour.")],
         st(hands=[["wild", "coral:3"], ["amber:5"]], top="coral:7"), "play wild", illegal="needs a named colour"),
    case("wild-names-a-colour-of-this-deck", C("Wild: name the colour."),
         st(hands=[["wild", "coral:3"], ["amber:5"]], top="coral:7"), "play wild red", illegal="not in this deck"),
    case("draw-one-unplayable-turn-ends", [C("Or draw one card from the pile."),
                                           C("If it can be played you may play it at once or keep it and pass; if not, "
                                             "your turn ends.")],
         st(hands=[["teal:2"], ["amber:5"]], top="coral:7", draw=["violet:3", "coral:9"]), "draw",
         hands={0: ["teal:2", "violet:3"]}, current=1, phase="play", events=["draw"], draw=["coral:9"]),
    case("draw-playable-play-at-once", C("If it can be played you may play it at once or keep it and pass"),
         st(hands=[["teal:2", "teal:3"], ["amber:5"]], top="coral:7", draw=["coral:9"]), ["draw", "play coral:9"],
         hands={0: ["teal:2", "teal:3"]}, top="coral:9", current=1, events=["draw", "play"]),
    case("draw-playable-keep-and-pass", C("If it can be played you may play it at once or keep it and pass"),
         st(hands=[["teal:2"], ["amber:5"]], top="coral:7", draw=["coral:9"]), ["draw", "pass"],
         hands={0: ["teal:2", "coral:9"]}, top="coral:7", current=1, events=["draw", "pass"],
         event_has=[{"kind": "pass", "seat": 0, "kept": True}]),
    case("draw-offers-play-or-pass", C("If it can be played you may play it at once or keep it and pass"),
         st(hands=[["teal:2"], ["amber:5"]], top="coral:7", draw=["coral:9"]), "draw",
         phase="drawn", drawn="coral:9", current=0, legal_exactly=["play coral:9", "pass"]),
    case("draw-when-could-play", C("You may draw even when you could have played."),
         EXAMPLE, "draw", sizes=[6, 2, 2], current=1),
    case("skip-next-loses-turn", C("Skip: the next player loses their turn."),
         st(**THREE), "play coral:skip", current=2, events=["play", "skip"], event_has=[{"kind": "skip", "seat": 1}]),
    case("reverse-turns-round", [C("Reverse: play turns round."),
                                 C("Reverse: play turns round — with two players it works like a Skip, so you play "
                                   "again.")],
         st(**THREE), "play coral:reverse", current=2, direction=-1, events=["play", "reverse"]),
    case("reverse-2p-play-again", [C("With two players it works like a Skip — you play again."),
                                   C("with two players it works like a Skip, so you play again.")],
         st(hands=[["coral:reverse", "teal:9", "teal:8"], ["amber:5"]], top="coral:7"), "play coral:reverse",
         current=0, events=["play", "skip"]),
    case("draw2-next-draws-two", [C("Draw Two: the next player draws two and loses their turn."),
                                  C("Draw Two: the next player draws two cards and loses their turn.")],
         st(**THREE), "play coral:draw2", current=2, hands={1: ["amber:5", "coral:draw2", "violet:2", "violet:3"]},
         events=["play", "penalty", "draw", "skip"]),
    case("draw2-two-players-play-again", C("Draw Two: the next player draws two and loses their turn."),
         st(hands=[["coral:draw2", "teal:9", "teal:8"], ["amber:5"]], top="coral:7", draw=["violet:2", "violet:3"]),
         "play coral:draw2", current=0, sizes=[2, 3], events=["play", "penalty", "draw", "skip"]),
    case("wild4-next-draws-four", [C("Wild Draw Four: name the colour, and the next player draws four and loses "
                                     "their turn."),
                                   C("Wild Draw Four: you name the colour and the next player draws four and loses "
                                     "their turn.")],
         st(hands=[["wild4", "teal:9"], ["amber:5"], ["amber:6"]], top="coral:7",
            draw=["violet:2", "violet:3", "violet:4", "violet:5"]), "play wild4 teal",
         colour="teal", current=2, sizes=[1, 5, 1]),
    case("no-stacking-draw2", [C("There is no challenge rule, and Draw cards do not stack."),
                               C("There is no challenge rule and no stacking: the player hit by a Draw Two or Wild "
                                 "Draw Four draws and is skipped, and cannot pass the penalty on with a Draw card of "
                                 "their own."),
                               C("Do Draw Two and Wild Draw Four cards stack in Last Card!?"), C("No."),
                               C("The player hit by a Draw Two or Wild Draw Four draws the cards and loses their turn; "
                                 "they cannot pass the penalty on with a Draw card of their own.")],
         st(**THREE), "play coral:draw2", current=2, pending=0, sizes=[4, 4, 1]),
    case("no-challenge", [C("There is no challenge rule in the app."), C("There is no challenge rule")],
         st(hands=[["wild4", "teal:9"], ["amber:5"], ["amber:6"]], top="coral:7",
            draw=["violet:2", "violet:3", "violet:4", "violet:5"]), "play wild4 teal", current=2,
         no_events=["challenge"]),
    case("reshuffle-discard-but-top", C("When the draw pile runs out, the discard pile except its top card is "
                                        "shuffled into a new draw pile."),
         st(hands=[["violet:9"], ["amber:5"]], top="coral:7", discard=["teal:2", "amber:3"]), "draw",
         discard=["coral:7"], sizes=[2, 1], events=["reshuffle", "draw"],
         event_has=[{"kind": "reshuffle", "count": 2}]),
    case("last-card-called-for-you", [C("When you are down to one card the app calls \"Last card!\" for you — there "
                                        "is no penalty for forgetting."),
                                      C("When you are down to one card the app calls \"Last card!\" for you — there "
                                        "is no penalty for forgetting to call it."),
                                      C("What happens if I forget to call \"Last card\"?"), C("Nothing."),
                                      C("When you are down to one card the app calls \"Last card!\" for you, so there "
                                        "is no penalty for forgetting.")],
         st(hands=[["coral:3", "teal:9"], ["amber:5"]], top="coral:7", draw=["violet:2"]), "play coral:3",
         sizes=[1, 1], events=["play", "call"], event_has=[{"kind": "call", "seat": 0, "by": "referee"}]),
)
def test_turn(c):
    run(c)


OUT = dict(hands=[["coral:3"], ["teal:skip", "amber:9"], ["wild", "wild4", "violet:10"]], top="coral:7",
           draw=["violet:2", "violet:3", "violet:4", "violet:5"], dealer=2)


@table(
    case("going-out-scores-others-hands", [C("The first player to play their last card wins the round and scores "
                                             "every point left in the other hands: number cards face value, Skip, "
                                             "Reverse and Draw Two 20 each, Wild and Wild Draw Four 50 each."),
                                           C("The first player to play their last card wins the round and scores every "
                                             "point left in the other hands: number cards face value (2–10), Skip, "
                                             "Reverse and Draw Two 20 each, Wild and Wild Draw Four 50 each."),
                                           C("Be the first to play your last card each round and score the cards left "
                                             "in the other hands.")],
         st(**OUT), "play coral:3", gained=[139, 0, 0], winner=0, scores=[139, 0, 0], round=2, over=False,
         event_has=[{"kind": "round_end", "reason": "out", "points": [0, 29, 110]}]),
    case("going-out-on-draw2-counts", [C("If the last card played is a Draw Two or Wild Draw Four, the next player "
                                         "still draws those cards, and they count towards the winner's score."),
                                       C("If the last card played is a Draw Two or Wild Draw Four, the next player "
                                         "still draws those cards and they count.")],
         st(hands=[["coral:draw2"], ["teal:5"], ["amber:4"]], top="coral:7", draw=["violet:7", "violet:8"]),
         "play coral:draw2", gained=[24, 0, 0], winner=0, round=2,
         event_has=[{"kind": "round_end", "points": [0, 20, 4]}]),
    case("going-out-on-wild4-counts", C("If the last card played is a Draw Two or Wild Draw Four, the next player "
                                        "still draws those cards"),
         st(hands=[["wild4"], ["teal:5"], ["amber:4"]], top="coral:7",
            draw=["violet:2", "violet:3", "violet:4", "violet:5"]),
         "play wild4 teal", gained=[23, 0, 0], winner=0,
         event_has=[{"kind": "round_end", "points": [0, 19, 4]}]),
    case("next-round-deal-moves-clockwise", C("and the deal moves one seat clockwise each round."),
         st(**OUT), "play coral:3", dealer=0, round=2, event_has=[{"kind": "deal", "round": 2, "dealer": 0}]),
    case("target-reached-ends-match", [C("The match ends when a total reaches the target score."),
                                       C("The match ends as soon as a player's total reaches it."),
                                       C("The first player whose total reaches the target score — 500 by default — "
                                         "wins the match.")],
         st(**OUT, scores=[400, 450, 0]), "play coral:3", over=True, scores=[539, 450, 0],
         result={"reason": "target", "winner": 0}, placements=[1, 2, 3]),
    case("below-target-match-goes-on", C("The match ends when a total reaches the target score."),
         st(**OUT, scores=[300, 450, 0]), "play coral:3", over=False, scores=[439, 450, 0], round=2),
    case("target-exactly-reached-ends", C("The match ends as soon as a player's total reaches it."),
         st(hands=[["coral:3"], ["teal:5", "amber:5"]], top="coral:7", scores=[490, 0]), "play coral:3",
         over=True, scores=[500, 0], result={"winner": 0}),
    case("blocked-round-lowest-hand-scores", C("If nobody can play and nothing is left to draw, a full table of passes "
                                               "ends the round and the lowest hand scores the others' points."),
         st(hands=[["teal:2"], ["teal:3", "amber:4"], ["violet:9"]], top="coral:7"), ["pass", "pass", "pass"],
         winner=0, gained=[16, 0, 0], scores=[16, 0, 0], round=2,
         event_has=[{"kind": "round_end", "reason": "blocked"}]),
)
def test_scoring_and_match(c):
    run(c)


@table(
    case("target-default-500", [C("Set the target score: 500 by default"), C("500 by default")],
         probe=lambda: get_ruleset("compact").target, value=500),
    case("target-100-to-1000-step-100", [C("Set the target score: 500 by default, anywhere from 100 to 1000 in steps "
                                           "of 100."),
                                         C("The match ends when a total reaches the target score — 500 by default, "
                                           "adjustable from 100 to 1000 in steps of 100 on the setup page.")],
         probe=lambda: [get_ruleset("compact", {"target": t}).target for t in range(100, 1001, 100)],
         value=list(range(100, 1001, 100))),
    case("target-150-refused", C("anywhere from 100 to 1000 in steps of 100"),
         probe=lambda: get_ruleset("compact", {"target": 150}),
         raises=(RulesetError, "option target=150 is not allowed in compact; allowed: 100, 200")),
    case("target-1100-refused", C("anywhere from 100 to 1000 in steps of 100"),
         probe=lambda: get_ruleset("compact", {"target": "1100"}), raises=(RulesetError, "not allowed in compact")),
    case("target-round-refused", C("anywhere from 100 to 1000 in steps of 100"),
         probe=lambda: get_ruleset("compact", {"target": "round"}), raises=(RulesetError, "not allowed in compact")),
    case("preset-options", [C("A Wild Draw Four may only be played when you hold no card of the colour in play."),
                            C("Draw cards do not stack"), C("the app calls \"Last card!\" for you")],
         probe=lambda: {k: v for k, v in get_ruleset("compact").options.items()
                        if k in ("deck", "wild_draw_four", "opening", "multi_play", "stacking", "last_card_call",
                                 "end")},
         value={"deck": "compact", "wild_draw_four": "restricted", "opening": "compact", "multi_play": False,
                "stacking": False, "last_card_call": "auto", "end": "match"}),
    case("no-challenge-action-exists", C("There is no challenge rule in the app."),
         probe=lambda: "challenge" in KINDS, value=False),
)
def test_compact_options(c):
    run(c)
