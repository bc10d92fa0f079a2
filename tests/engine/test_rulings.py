"""Rule cases for RULINGS.md: every ruling (1-14), and the project's accepted engine decisions."""

from __future__ import annotations

import random

from referee.engine.game import Game, placements
from referee.engine.rules import get_ruleset
from referee.players import SeatView, make_player
from tests.support.rulecases import D, R, act, case, find_opening, make_state, opening_top, run, show, table


def st(ruleset, **kw):
    return {"ruleset": ruleset, **kw}


def fam_stack(**kw):
    return {"ruleset": "family", "options": {"stacking": True}, **kw}


# ------------------------------------------------------------------------------------------ 1: seats, dealer

def first_dealers():
    a = [Game(get_ruleset("compact"), 4, random.Random(s)).dealer for s in range(40)]
    b = [Game(get_ruleset("compact"), 4, random.Random(s)).dealer for s in range(40)]
    return a == b, set(a)


def first_after_dealer(ruleset: str, players: int, dealer: int) -> int:
    g = find_opening(ruleset, players, lambda g: opening_top(g).rank.isdigit(), dealer=dealer)
    return g.current


@table(
    case("r1-seats-clockwise", R(1, "Seats are numbered 0..N-1 clockwise."),
         st("compact", hands=[["amber:9"], ["amber:5"], ["teal:2", "teal:3", "teal:4"]], top="teal:7", current=2),
         "play teal:2", current=0),
    case("r1-player-after-dealer-wraps", R(1, "\"The player after the dealer\" is the next seat in the current "
                                              "direction."),
         probe=lambda: [first_after_dealer(r, 6, 5) for r in ("compact", "family", "arcade")], value=[0, 0, 0]),
    case("r1-first-dealer-from-seed", R(1, "The first dealer is chosen from the game's seed"),
         probe=first_dealers, value=(True, {0, 1, 2, 3})),
    case("r1-deal-moves-clockwise", R(1, "the deal then moves one seat clockwise each round."),
         st("family", hands=[["blue:9"], ["green:9"], ["red:1"]], top="red:7", current=2, dealer=2),
         "play red:1", dealer=0, round=2, event_has=[{"kind": "deal", "dealer": 0}]),
)
def test_ruling_1(c):
    run(c)


# ------------------------------------------------------------------------------------------ 2: one seeded generator

def playout_events(ruleset: str, players: int, seed: int, options=None) -> list:
    rs = get_ruleset(ruleset, options or {})
    rng = random.Random(seed)
    g = Game(rs, players, rng)
    bots = [make_player("random", seed * 10 + i) for i in range(players)]
    for _ in range(20000):
        if g.over:
            break
        g.apply(bots[g.current].choose(SeatView(g, g.current), g.legal_actions()), rng)
    return g.events


@table(
    case("r2-same-seed-same-game", R(2, "the same seed, seating and bot moves give the same game, card for card."),
         probe=lambda: all(playout_events(r, 4, 7) == playout_events(r, 4, 7) for r in ("compact", "family", "arcade")),
         value=True),
    case("r2-other-seed-other-game", R(2, "Every random choice (shuffles, reshuffles, where a buried card goes) comes "
                                          "from one seeded random generator per game"),
         probe=lambda: all(playout_events(r, 4, 7) != playout_events(r, 4, 8) for r in ("compact", "family", "arcade")),
         value=True),
)
def test_ruling_2(c):
    run(c)


# ------------------------------------------------------------------------------------------ 3: burying

def bury_facts():
    positions = set()
    repeated = False
    for seed in range(400):
        g = Game(get_ruleset("compact"), 4, random.Random(seed))
        buried = [e["card"] for e in g.events if e["kind"] == "bury"]
        if not buried:
            continue
        assert not g.top.is_wild
        assert sum(map(len, g.hands)) + len(g.draw_pile) + len(g.discard) == 54
        repeated |= len(buried) >= 2
        for code in set(buried):
            idx = [i for i, c in enumerate(g.draw_pile) if c.code == code]
            assert idx, f"buried {code} is not back in the draw pile"
            positions.update(idx)
    return repeated, len(positions) > 5


@table(
    case("r3-buried-back-at-random-place-repeat", R(3, "the card is put back at a random position in the draw pile and "
                                                       "the next card is turned. This repeats until a legal opening "
                                                       "card shows."),
         probe=bury_facts, value=(True, True)),
)
def test_ruling_3(c):
    run(c)


# ------------------------------------------------------------------------------------------ 4: reverse with two players

@table(
    case("r4-compact", R(4, "Reverse with two players is a Skip, in every ruleset"),
         st("compact", hands=[["coral:reverse", "teal:1", "teal:2"], ["amber:5"]], top="coral:7"),
         "play coral:reverse", current=0, events=["play", "skip"]),
    case("r4-family", R(4, "Reverse with two players is a Skip, in every ruleset"),
         st("family", hands=[["red:reverse", "blue:1", "blue:2"], ["green:5"]], top="red:skip"),
         "play red:reverse", current=0, events=["play", "skip"]),
    case("r4-arcade", R(4, "Reverse with two players is a Skip, in every ruleset"),
         st("arcade", hands=[["red:reverse", "blue:1", "blue:2"], ["green:5"]], top="red:0"),
         "play red:reverse", current=0, events=["play", "skip"]),
    case("r4-arcade-multi-2", R(4, "and inside multi-card plays."),
         st("arcade", hands=[["red:reverse", "blue:reverse", "blue:1", "blue:2"], ["green:5"]], top="red:0"),
         "play red:reverse blue:reverse", current=0, colour="blue", events=["play", "skip"]),
    case("r4-arcade-multi-3", R(4, "and inside multi-card plays."),
         st("arcade", hands=[["red:reverse", "blue:reverse", "green:reverse", "blue:1", "blue:2"], ["green:5"]],
            top="red:0"),
         "play red:reverse blue:reverse green:reverse", current=0, colour="green"),
)
def test_ruling_4(c):
    run(c)


# ------------------------------------------------------------------------------------------ 5: draw, pass, drawn card

@table(
    case("r5-draw-instead-of-playing", R(5, "A player may always draw instead of playing."),
         st("compact", hands=[["coral:3", "wild"], ["amber:5"]], top="coral:7", draw=["teal:2"]),
         "draw", current=1, sizes=[3, 1]),
    case("r5-arcade-draw-even-with-nothing", R(5, "A player may always draw instead of playing."),
         st("arcade", hands=[["red:3", "wild"], ["green:5"]], top="red:7"), legal=["draw"]),
    case("r5-no-pass-before-draw-compact", R(5, "Passing is only allowed after drawing."),
         st("compact", hands=[["teal:3", "teal:4"], ["amber:5"]], top="coral:7", draw=["teal:2"]),
         "pass", illegal="'pass' is not allowed now (phase play); allowed: draw"),
    case("r5-no-pass-before-draw-family", R(5, "Passing is only allowed after drawing."),
         st("family", hands=[["red:3", "blue:4"], ["green:5"]], top="red:7", draw=["blue:2"]),
         "pass", illegal="'pass' is not allowed now"),
    case("r5-pass-after-draw", R(5, "Passing is only allowed after drawing."),
         st("family", hands=[["red:3", "blue:4"], ["green:5"]], top="red:7", draw=["red:2"]),
         ["draw", "pass"], current=1, sizes=[3, 1]),
    case("r5-only-drawn-card", R(5, "After a draw, only the drawn card may be played that turn"),
         st("compact", hands=[["coral:3", "teal:4"], ["amber:5"]], top="coral:7", draw=["coral:9"]),
         ["draw", "play coral:3"], illegal="only the drawn card coral:9"),
    case("r5-draw-until-playable-last-card-drawn", R(5, "(with draw-until-playable: the last card drawn)"),
         st("family", options={"draw_until_playable": True}, hands=[["red:2", "blue:1"], ["green:5"]], top="red:7",
            draw=["blue:3", "green:4", "yellow:7"]),
         "draw", phase="drawn", drawn="yellow:7", legal_exactly=["play yellow:7", "pass"]),
    case("r5-draw-until-playable-other-card-refused", R(5, "(with draw-until-playable: the last card drawn)"),
         st("family", options={"draw_until_playable": True}, hands=[["red:2", "blue:1"], ["green:5"]], top="red:7",
            draw=["blue:3", "green:4", "yellow:7"]),
         ["draw", "play red:2"], illegal="only the drawn card yellow:7"),
    case("d-nothing-to-draw-no-draw-action", D("in compact/family when nothing can be drawn the 'draw' action is not "
                                               "legal and 'pass' is legal only for a player with no legal play"),
         st("compact", hands=[["coral:3", "teal:4"], ["amber:5"]], top="coral:7"), legal_exactly=["play coral:3"]),
    case("d-nothing-to-draw-pass-when-stuck", D("'pass' is legal only for a player with no legal play"),
         st("family", hands=[["blue:3", "green:4"], ["green:5"]], top="red:7"), legal_exactly=["pass"]),
)
def test_ruling_5(c):
    run(c)


# ---------------------------------------------------------------------------------- 6: penalty draws take what they can

@table(
    case("r6-penalty-reshuffles", R(6, "if the draw pile runs out, the discard pile but its top card is shuffled into "
                                       "a new draw pile"),
         st("compact", hands=[["coral:draw2", "teal:1", "teal:2"], ["amber:5"], ["amber:6"]], top="coral:7",
            draw=["teal:9"], discard=["amber:2", "amber:3"]),
         "play coral:draw2", sizes=[2, 3, 1], current=2, discard=["coral:draw2"],
         events=["play", "penalty", "reshuffle", "draw", "skip"],
         event_has=[{"kind": "draw", "seat": 1, "count": 2, "reason": "penalty"}]),
    case("r6-penalty-takes-what-there-is", R(6, "if that is still not enough, the player takes what there is."),
         st("compact", hands=[["coral:draw2", "teal:1", "teal:2"], ["amber:5"], ["amber:6"]], top="coral:7"),
         "play coral:draw2", sizes=[2, 2, 1], current=2, hands={1: ["amber:5", "coral:7"]}, over=False,
         event_has=[{"kind": "penalty", "seat": 1, "count": 2}, {"kind": "draw", "seat": 1, "count": 1}]),
    case("r6-wild4-takes-what-there-is", R(6, "the player takes what there is"),
         st("family", hands=[["wild4", "red:1", "red:2"], ["green:5"], ["green:6"]], top="red:7", draw=["blue:1"]),
         "play wild4 blue", sizes=[2, 3, 1], current=2, hands={1: ["green:5", "blue:1", "red:7"]}),
    case("r6-stacked-penalty-takes-what-there-is", R(6, "A penalty draw (Draw Two, Wild Draw Four, the arcade forfeit) "
                                                        "takes what it can"),
         fam_stack(hands=[["red:1", "red:2"], ["green:5", "blue:2"], ["green:6"]], top="red:draw2", pending=6,
                   pending_rank="draw2", draw=["blue:1", "blue:3"], discard=["yellow:4"]),
         "draw", sizes=[5, 2, 1], current=1, pending=0, hands={0: ["red:1", "red:2", "blue:1", "blue:3", "yellow:4"]}),
    case("r6-forfeit-reshuffles", R(6, "the arcade forfeit"),
         st("arcade", hands=[["red:1", "red:2"], ["green:5"]], top="red:7", discard=["yellow:4", "yellow:5"]),
         "play red:1", sizes=[2, 1], over=False, events=["play", "forfeit", "reshuffle", "draw"]),
    case("r6-arcade-penalty-nothing-tender", R(6, "In `arcade` a draw that finds nothing ends the game in tender "
                                                  "instead."),
         st("arcade", hands=[["green:draw2", "blue:4"], ["red:3"], ["yellow:9"]], top="green:7"),
         "play green:draw2", over=True, result={"reason": "tender"}),
    case("r6-arcade-stacked-penalty-nothing-tender", R(6, "In `arcade` a draw that finds nothing ends the game in "
                                                          "tender instead."),
         st("arcade", options={"stacking": True}, hands=[["green:1", "blue:4"], ["red:3"]], top="green:draw2",
            pending=2, pending_rank="draw2"),
         "draw", over=True, result={"reason": "tender", "winner": 1, "points": [5, 3]}),
    case("r6-arcade-turn-draw-nothing-tender", R(6, "In `arcade` a draw that finds nothing ends the game in tender "
                                                    "instead."),
         st("arcade", hands=[["green:1", "blue:4"], ["red:3"]], top="yellow:7"),
         "draw", over=True, result={"reason": "tender", "winner": 1}),
    case("r6-compact-takes-nothing-goes-on", R(6, "if that is still not enough, the player takes what there is."),
         st("compact", options={"stacking": True}, hands=[["teal:1", "teal:2"], ["amber:5"]], top="coral:draw2",
            pending=2, pending_rank="draw2"),
         "draw", over=False, current=1, sizes=[2, 1], event_has=[{"kind": "draw", "seat": 0, "count": 0}]),
)
def test_ruling_6(c):
    run(c)


# ------------------------------------------------------------------------------------------ 7: blocked rounds

BLOCKED = dict(hands=[["teal:2"], ["teal:3", "amber:4"], ["violet:9"]], top="coral:7")


@table(
    case("r7-pass-when-blocked", R(7, "when the draw pile and the reshuffle are both empty, a player who cannot play "
                                      "passes."),
         st("compact", **BLOCKED), "pass", current=1, over=False, round=1, legal_exactly=["pass"],
         event_has=[{"kind": "pass", "seat": 0, "kept": False}]),
    case("r7-not-every-player-yet", R(7, "When every player in turn has passed without a play, the round ends"),
         st("compact", **BLOCKED), ["pass", "pass"], current=2, round=1, no_events=["round_end"]),
    case("r7-full-table-ends-lowest-scores", R(7, "the lowest hand total scores the sum of the other hands."),
         st("compact", **BLOCKED), ["pass", "pass", "pass"], round=2, winner=0, gained=[16, 0, 0],
         scores=[16, 0, 0], event_has=[{"kind": "round_end", "reason": "blocked", "points": [2, 7, 9]}]),
    case("r7-family-blocked", R(7, "Blocked round (`compact`, `family`)"),
         st("family", hands=[["blue:9"], ["blue:3", "green:4"], ["green:1"]], top="red:7"),
         ["pass", "pass", "pass"], round=2, winner=2, gained=[0, 0, 16], scores=[0, 0, 16]),
    case("r7-tie-nobody-scores", R(7, "If two or more hands tie for lowest, nobody scores and the round counts as "
                                      "drawn."),
         st("compact", hands=[["teal:2"], ["amber:2"], ["violet:9"]], top="coral:7"), ["pass", "pass", "pass"],
         round=2, winner=None, gained=[0, 0, 0], scores=[0, 0, 0], dealer=0, over=False),
    case("r7-tie-single-round", R(7, "nobody scores and the round counts as drawn."),
         st("family", options={"target": "round"}, hands=[["blue:2"], ["green:2"], ["blue:9"]], top="red:7"),
         ["pass", "pass", "pass"], over=True, result={"winner": None, "reason": "blocked"}, placements=[1, 1, 3],
         scores=[0, 0, 0]),
    case("r7-a-play-restarts-the-count", R(7, "When every player in turn has passed without a play"),
         st("compact", hands=[["teal:2"], ["coral:3", "amber:4"], ["violet:9"]], top="coral:7"),
         ["pass", "play coral:3"], round=1, over=False, passes=0, current=2, legal=["draw"], not_legal=["pass"]),
    case("d-move-limit-scored-like-blocked", D("compact/family have move_limit 1000 per round and a round reaching it "
                                               "is scored like a blocked round"),
         st("compact", hands=[["teal:2", "coral:3"], ["amber:4", "amber:5"], ["violet:9"]], top="coral:7", move=999,
            draw=["teal:9"]),
         "play coral:3", round=2, winner=0, gained=[18, 0, 0],
         event_has=[{"kind": "round_end", "reason": "move_limit", "points": [2, 9, 9]}]),
    case("d-move-limit-1000", D("compact/family have move_limit 1000 per round"),
         probe=lambda: [get_ruleset(r).move_limit for r in ("compact", "family", "arcade")], value=[1000, 1000, 500]),
)
def test_ruling_7(c):
    run(c)


# ------------------------------------------------------------------------------------------ 8: going out on a penalty

@table(
    case("r8-out-on-draw2", R(8, "Going out on a Draw Two or Wild Draw Four"),
         st("family", hands=[["red:draw2"], ["green:1"], ["blue:2"]], top="red:7", draw=["yellow:3", "yellow:4"]),
         "play red:draw2", winner=0, gained=[10, 0, 0],
         events=["play", "penalty", "draw", "round_end", "deal"]),
    case("r8-out-on-wild4", R(8, "the next player still draws the whole penalty before the round is scored, and "
                                 "those cards count to the winner."),
         st("compact", hands=[["wild4"], ["teal:2"], ["amber:2"]], top="coral:7",
            draw=["violet:2", "violet:3", "violet:4", "violet:5"]),
         "play wild4 teal", winner=0, gained=[18, 0, 0]),
    case("r8-out-on-a-stack", R(8, "(and, with stacking, on a stack)"),
         fam_stack(hands=[["blue:draw2"], ["green:1"], ["blue:2"]], top="red:draw2", pending=2, pending_rank="draw2",
                   draw=["yellow:1", "yellow:2", "yellow:3", "yellow:4"]),
         "play blue:draw2", winner=0, gained=[1 + 1 + 2 + 3 + 4 + 2, 0, 0], pending=0,
         event_has=[{"kind": "draw", "seat": 1, "count": 4, "reason": "penalty"}]),
    case("r8-arcade-out-on-multi-draw2", R(8, "the next player still draws the whole penalty"),
         st("arcade", hands=[["red:draw2", "blue:draw2"], ["green:1"]], top="red:7",
            draw=["yellow:1", "yellow:2", "yellow:3", "yellow:4"]),
         "play red:draw2 blue:draw2", over=True, result={"winner": 0, "points": [0, 11]}),
)
def test_ruling_8(c):
    run(c)


# ------------------------------------------------------------------------------------------ 9: the last-card call

def arcade_drawn_call_form():
    g = make_state(**st("arcade", hands=[["red:3"], ["green:5"]], top="red:7", draw=["red:9"]))
    g.apply(act("draw"), random.Random(0))
    return [(show(a), a.call) for a in g.legal_actions()]


@table(
    case("r9-compact-referee-calls", R(9, "`compact` and `family`: the referee makes the call itself and tells every "
                                          "seat"),
         st("compact", hands=[["coral:3", "teal:4"], ["amber:5"]], top="coral:7"), "play coral:3",
         events=["play", "call"], event_has=[{"kind": "call", "seat": 0, "by": "referee"}]),
    case("r9-compact-bot-call-ignored", R(9, "a bot's own call is accepted and ignored."),
         st("compact", hands=[["coral:3", "teal:4"], ["amber:5"]], top="coral:7"), "play coral:3 call",
         events=["play", "call"], event_has=[{"kind": "call", "seat": 0, "by": "referee"}]),
    case("r9-family-bot-call-on-other-play", R(9, "a bot's own call is accepted and ignored."),
         st("family", hands=[["red:3", "blue:4", "blue:5"], ["green:5"]], top="red:7"), "play red:3 call",
         events=["play"], sizes=[2, 1]),
    case("r9-arcade-call-carried", R(9, "`arcade`: a play that leaves the player with exactly one card must carry the "
                                        "call"),
         st("arcade", hands=[["red:3", "blue:4"], ["green:5"]], top="red:7", draw=["yellow:1"]), "play red:3 call",
         events=["play", "call"], sizes=[1, 1], draw=["yellow:1"]),
    case("r9-arcade-missed-call-forfeit", R(9, "without it the play stands and the player then draws one card as the "
                                               "forfeit; the table is told either way."),
         st("arcade", hands=[["red:3", "blue:4"], ["green:5"]], top="red:7", draw=["yellow:1"]), "play red:3",
         top="red:3", events=["play", "forfeit", "draw"], hands={0: ["blue:4", "yellow:1"]}, current=1),
    case("r9-arcade-call-on-other-play-ignored", R(9, "A call on any other play is ignored, never punished."),
         st("arcade", hands=[["red:3", "blue:4", "blue:5"], ["green:5"]], top="red:7", draw=["yellow:1"]),
         "play red:3 call", events=["play"], sizes=[2, 1], draw=["yellow:1"]),
    case("r9-arcade-going-out-no-call", R(9, "Going out needs no call."),
         st("arcade", hands=[["red:3"], ["green:5"]], top="red:7", draw=["yellow:1"]), "play red:3",
         over=True, no_events=["forfeit", "call"], result={"reason": "out", "winner": 0}),
    case("r9-arcade-going-out-with-call-ignored", R(9, "A call on any other play is ignored, never punished."),
         st("arcade", hands=[["red:3"], ["green:5"]], top="red:7", draw=["yellow:1"]), "play red:3 call",
         over=True, no_events=["forfeit", "call"], result={"winner": 0}),
    case("r9-arcade-drawn-card-needs-call", R(9, "a play that leaves the player with exactly one card must carry the "
                                                 "call"),
         st("arcade", hands=[["red:3"], ["green:5"]], top="red:7", draw=["red:9", "yellow:1"]),
         ["draw", "play red:9"], events=["draw", "play", "forfeit", "draw"], sizes=[2, 1]),
    case("r9-arcade-drawn-card-legal-form-calls", R(9, "must carry the call"),
         probe=arcade_drawn_call_form, value=[("play red:9", True), ("pass", False)]),
    case("r9-family-forced-compact-call-off", R(9, "`compact` and `family`: the referee makes the call itself"),
         st("family", options={"last_card_call": "required"}, hands=[["red:3", "blue:4"], ["green:5"]], top="red:7",
            draw=["yellow:1"]), "play red:3", events=["play", "forfeit", "draw"]),
)
def test_ruling_9(c):
    run(c)


# ------------------------------------------------------------------------------------------ 10: multi-card plays

@table(
    case("r10-one-symbol", R(10, "all cards of one number or one symbol (Skip, Reverse, Draw Two)"),
         st("arcade", hands=[["red:skip", "green:skip", "blue:1", "blue:2"], ["green:5"], ["green:6"]], top="red:7"),
         "play red:skip green:skip", current=0, colour="green"),
    case("r10-never-a-wild", R(10, "never a Wild"),
         st("arcade", hands=[["red:1", "wild", "blue:1"], ["green:5"]], top="red:7"), "play red:1 wild green",
         illegal="a wild goes down alone"),
    case("r10-first-on-table", R(10, "the first must play on the table"),
         st("arcade", hands=[["blue:1", "red:1", "blue:2"], ["green:5"]], top="red:7"), "play blue:1 red:1",
         illegal="blue:1 matches neither"),
    case("r10-order-given-last-sets-colour", R(10, "the rest follow in the order given, and the last one sets the "
                                                   "colour."),
         st("arcade", hands=[["red:1", "blue:1", "green:1", "yellow:1", "blue:2"], ["green:5"]], top="red:7"),
         "play red:1 yellow:1 green:1 blue:1 call", colour="blue", top="blue:1",
         discard=["red:7", "red:1", "yellow:1", "green:1", "blue:1"]),
    case("r10-k-draw2", R(10, "k Draw Twos make the next player draw 2k and lose their turn"),
         st("arcade", hands=[["red:draw2", "blue:draw2", "green:draw2", "blue:1", "blue:2"], ["green:5"], ["green:6"]],
            top="red:7", draw=["yellow:1"] * 6 + ["yellow:2"]),
         "play red:draw2 blue:draw2 green:draw2", current=2, sizes=[2, 7, 1], draw=["yellow:2"],
         event_has=[{"kind": "penalty", "seat": 1, "count": 6}]),
    case("r10-k-skips", R(10, "k Skips take the turn from the next k other players"),
         st("arcade", hands=[["red:skip", "blue:skip", "blue:1", "blue:2"], ["green:1"], ["green:6"],
                             ["green:7"], ["green:8"]], top="red:7"),
         "play red:skip blue:skip", current=3, event_has=[{"kind": "skip", "seat": 1}, {"kind": "skip", "seat": 2}]),
    case("r10-skips-at-most-everyone-else", R(10, "(at most everyone else: the player then plays again)"),
         st("arcade", hands=[["red:skip", "blue:skip", "green:skip", "yellow:skip", "blue:1", "blue:2"], ["green:5"],
                             ["green:6"]], top="red:7"),
         "play red:skip blue:skip green:skip yellow:skip", current=0, events=["play", "skip", "skip"]),
    case("r10-skips-everyone-else-exactly", R(10, "the player then plays again"),
         st("arcade", hands=[["red:skip", "blue:skip", "blue:1", "blue:2"], ["green:5"], ["green:6"]], top="red:7"),
         "play red:skip blue:skip", current=0),
    case("r10-skips-counterclockwise", R(10, "k Skips take the turn from the next k other players"),
         st("arcade", hands=[["red:skip", "blue:skip", "blue:1", "blue:2"], ["green:5"], ["green:6"], ["green:7"],
                             ["green:8"]], top="red:7", direction=-1),
         "play red:skip blue:skip", current=2, event_has=[{"kind": "skip", "seat": 4}, {"kind": "skip", "seat": 3}]),
    case("r10-k-reverses-even", R(10, "k Reverses turn the direction k times"),
         st("arcade", hands=[["red:reverse", "blue:reverse", "blue:1", "blue:2"], ["green:5"], ["green:6"],
                             ["green:7"]], top="red:7"),
         "play red:reverse blue:reverse", direction=1, current=1),
    case("r10-k-reverses-odd", R(10, "k Reverses turn the direction k times"),
         st("arcade", hands=[["red:reverse", "blue:reverse", "green:reverse", "blue:1", "blue:2"], ["green:5"],
                             ["green:6"], ["green:7"]], top="red:7"),
         "play red:reverse blue:reverse green:reverse", direction=-1, current=3),
    case("r10-two-players-each-reverse-a-skip", R(10, "(with two players, each is a Skip)"),
         st("arcade", hands=[["red:reverse", "blue:reverse", "blue:1", "blue:2"], ["green:5"]], top="red:7"),
         "play red:reverse blue:reverse", current=0),
)
def test_ruling_10(c):
    run(c)


# ------------------------------------------------------------------------------------------ 11: arcade moves

MOVES = dict(hands=[["red:1", "red:skip", "blue:4", "blue:5"], ["green:5", "green:6"], ["red:9", "red:8"]],
             top="red:7", draw=["yellow:1", "red:2", "yellow:3", "yellow:4"])


@table(
    case("r11-play-one-move", R(11, "every turn a player takes (a play, or a draw with or without playing the drawn "
                                    "card) counts one move"),
         st("arcade", **MOVES), "play red:1", move=1),
    case("r11-draw-one-move", R(11, "a draw with or without playing the drawn card"),
         st("arcade", **MOVES), "draw", move=1, current=1),
    case("r11-draw-and-play-one-move", R(11, "a draw with or without playing the drawn card"),
         st("arcade", **MOVES) | {"draw": ["red:2", "yellow:3"]}, ["draw", "play red:2"], move=1, current=1),
    case("r11-draw-and-keep-one-move", R(11, "a draw with or without playing the drawn card"),
         st("arcade", **MOVES) | {"draw": ["red:2", "yellow:3"]}, ["draw", "pass"], move=1, current=1),
    case("r11-multi-play-one-move", R(11, "every turn a player takes"),
         st("arcade", hands=[["red:1", "blue:1", "blue:4", "blue:5"], ["green:5"]], top="red:7"), "play red:1 blue:1",
         move=1),
    case("r11-skipped-turn-no-move", R(11, "turns lost to a Skip or a penalty do not."),
         st("arcade", **MOVES), ["play red:skip", "play red:9"], move=2, current=0),
    case("r11-penalty-turn-no-move", R(11, "turns lost to a Skip or a penalty do not."),
         st("arcade", hands=[["red:draw2", "blue:4", "blue:5"], ["green:5"], ["red:9", "red:8"]], top="red:7",
            draw=["yellow:1", "yellow:2"]), ["play red:draw2", "play red:9"], move=2, current=0),
    case("r11-tender-at-limit", R(11, "When the count reaches 500 the game ends in tender."),
         st("arcade", **MOVES, move=499), "play red:1", over=True, move=500, result={"reason": "tender"}),
    case("r11-tender-after-draw-at-limit", R(11, "When the count reaches 500 the game ends in tender."),
         st("arcade", **MOVES, move=499) | {"draw": ["red:2"]}, ["draw", "pass"], over=True, move=500),
    case("r11-tender-lowest-wins", R(11, "Tender: lowest hand total wins"),
         st("arcade", **MOVES, move=499), "play red:1", over=True,
         result={"winner": 1, "points": [29, 11, 17]}, placements=[3, 1, 2]),
    case("r11-tender-equal-lowest-draw", R(11, "equal lowest totals are a draw between them."),
         st("arcade", hands=[["red:1", "red:5", "blue:4"], ["green:4", "green:5"], ["red:9", "green:0"]], top="red:7",
            move=499), "play red:1", over=True, result={"winner": None, "points": [9, 9, 9]}, placements=[1, 1, 1]),
    case("r11-custom-move-limit", R(11, "When the count reaches 500"),
         st("arcade", options={"move_limit": 10}, **MOVES, move=9), "play red:1", over=True, move=10),
)
def test_ruling_11(c):
    run(c)


# ------------------------------------------------------------------------------------------ 12: stacking

@table(
    case("r12-draw2-only-with-draw2", R(12, "a Draw Two may be answered only with a Draw Two (any colour)"),
         fam_stack(hands=[["blue:draw2", "red:3", "wild4", "wild", "red:draw2"], ["green:5"]], top="red:draw2",
                   pending=2, pending_rank="draw2", draw=["yellow:1"]),
         legal_exactly=["play blue:draw2", "play red:draw2", "draw"]),
    case("r12-wild4-only-with-wild4", R(12, "a Wild Draw Four only with a Wild Draw Four"),
         fam_stack(hands=[["blue:draw2", "red:3", "wild4", "wild"], ["green:5"]], top="wild4", colour="red",
                   pending=4, pending_rank="wild4", draw=["yellow:1"]),
         legal_exactly=["play wild4 red", "play wild4 yellow", "play wild4 green", "play wild4 blue", "draw"]),
    case("r12-only-answer-or-take", R(12, "A player facing a pending penalty may only answer or take it."),
         fam_stack(hands=[["blue:draw2", "red:3", "red:4"], ["green:5"]], top="red:draw2", pending=2,
                   pending_rank="draw2", draw=["yellow:1"]),
         "play red:3", illegal="facing a pending draw2 penalty of 2, you may only answer with a draw2 or draw"),
    case("r12-penalties-add-up", R(12, "the penalties add up"),
         fam_stack(hands=[["blue:draw2", "red:3", "red:4"], ["green:draw2", "green:1"], ["yellow:draw2", "red:1"]],
                   top="red:draw2", pending=2, pending_rank="draw2", draw=["yellow:1"] * 8),
         ["play blue:draw2", "play green:draw2", "play yellow:draw2"], pending=8, current=0),
    case("r12-will-not-answer-takes-all", R(12, "whoever cannot or will not answer draws them all and loses the "
                                                "turn."),
         fam_stack(hands=[["blue:draw2", "red:3", "red:4"], ["green:5"], ["green:6"]], top="red:draw2", pending=4,
                   pending_rank="draw2", draw=["yellow:1", "yellow:2", "yellow:3", "yellow:4", "yellow:5"]),
         "draw", current=1, pending=0, sizes=[7, 1, 1], move=0, events=["draw", "skip"],
         event_has=[{"kind": "draw", "seat": 0, "count": 4, "reason": "penalty"}]),
    case("r12-after-taking-next-plays-normally", R(12, "whoever cannot or will not answer draws them all and loses "
                                                       "the turn."),
         fam_stack(hands=[["blue:draw2", "red:3", "red:4"], ["green:5", "red:5"], ["green:6"]], top="red:draw2",
                   pending=2, pending_rank="draw2", draw=["yellow:1", "yellow:2", "yellow:3"]),
         "draw", current=1, legal=["play red:5", "draw"], not_legal=["play green:5"]),
    case("d-opening-draw2-with-stacking-taken-at-once", D("an opening Draw Two with stacking on is taken at once"),
         probe=lambda: (lambda g: (g.pending, g.current, len(g.hands[2])))(
             find_opening("family", 4, lambda g: opening_top(g).rank == "draw2", dealer=1,
                          options={"stacking": True})),
         value=(0, 3, 9)),
)
def test_ruling_12(c):
    run(c)


# ------------------------------------------------------------------------------------------ 13: family opening Wild

def opening_wild_then_turn():
    g = find_opening("family", 3, lambda g: opening_top(g).rank == "wild", dealer=2)
    refused = None
    try:
        g.check(act("play " + g.hands[0][0].code + (" red" if g.hands[0][0].is_wild else "")))
    except Exception as exc:  # noqa: BLE001 - the reason is what is compared
        refused = str(exc)
    g.apply(act("colour yellow"), random.Random(0))
    legal = g.legal_actions()
    hand = g.hands[0]
    ok = all(a.kind == "draw" or a.cards[0].is_wild or a.cards[0].colour == "yellow" for a in legal)
    wants = {c.code for c in hand if c.colour == "yellow"} <= {a.cards[0].code for a in legal if a.kind == "play"}
    return refused is not None and "'play' is not allowed now (phase colour)" in refused, g.current, ok, wants


@table(
    case("r13-name-colour-then-turn", R(13, "`family` opening Wild: the first player names its colour, then takes the "
                                            "turn as usual."),
         probe=opening_wild_then_turn, value=(True, 0, True, True)),
    case("r13-colour-of-this-deck", R(13, "the first player names its colour"),
         st("family", hands=[["red:1"], ["blue:1"]], top="wild", colour=None, phase="colour"), "colour teal",
         illegal="colour teal is not legal here"),
    case("r13-named-colour-sets-play", R(13, "then takes the turn as usual."),
         st("family", hands=[["red:1", "blue:2"], ["blue:1"]], top="wild", colour=None, phase="colour",
            draw=["yellow:1"]), "colour blue", colour="blue", current=0, phase="play",
         legal_exactly=["play blue:2", "draw"], events=["colour"]),
)
def test_ruling_13(c):
    run(c)


# ------------------------------------------------------------------------------------------ 14: placements

@table(
    case("r14-equal-values-share-a-place", R(14, "equal hands share a place."),
         probe=lambda: placements([0, 5, 5, 9], lower_is_better=True), value=[1, 2, 2, 4]),
    case("r14-totals-higher-is-better", R(14, "A match to a target score is ranked by the final totals"),
         probe=lambda: placements([300, 120, 120, 40], lower_is_better=False), value=[1, 2, 2, 4]),
    case("r14-single-round-winner-then-fewest", R(14, "the winner first; the others by the points left in their hands, "
                                                      "fewest first; equal hands share a place."),
         st("family", options={"target": "round"}, hands=[["red:1"], ["blue:9"], ["green:4", "green:5"],
                                                          ["yellow:1"]], top="red:7"),
         "play red:1", over=True, placements=[1, 3, 3, 2]),
    case("r14-winner-first-even-against-zero-points", R(14, "the winner first"),
         st("arcade", hands=[["red:1"], ["blue:0"], ["green:4"]], top="red:7"),
         "play red:1", over=True, placements=[1, 2, 3], result={"points": [0, 0, 4], "winner": 0}),
    case("r14-match-ranked-by-totals", R(14, "A match to a target score is ranked by the final totals"),
         st("compact", hands=[["coral:3"], ["teal:9"], ["amber:9"], ["violet:2"]], top="coral:7",
            scores=[490, 100, 100, 300]),
         "play coral:3", over=True, scores=[510, 100, 100, 300], placements=[1, 3, 3, 2],
         result={"reason": "target", "winner": 0}),
    case("r14-arcade-by-game-result", R(14, "an arcade game by the game's own result."),
         st("arcade", hands=[["red:1", "red:9"], ["blue:2"], ["green:4"]], top="red:7"),
         "draw", over=True, placements=[3, 1, 2], result={"winner": 1, "reason": "tender"}),
)
def test_ruling_14(c):
    run(c)
