"""Rule cases that cut across the houses: card codes and points, ruleset options, overrides and their errors.

The per-house tables are in ``test_rules_compact.py``, ``test_rules_family.py`` and ``test_rules_arcade.py``, the
rulings in ``test_rulings.py``; ``test_rule_coverage.py`` checks that every rule sentence and ruling has a case.
"""

from __future__ import annotations

import random

import pytest

from referee.engine.actions import Action, InvalidActionError
from referee.engine.cards import ALL_COLOURS, DECKS, Card, InvalidCardError, hand_points, standard_deck
from referee.engine.rules import PRESETS, RulesetError, check_players, get_ruleset, parse_option
from tests.support.rulecases import A, C, F, R, case, find_opening, opening_top, run, table

BUNDLE = R(0, "The rulesets are bundles of options, not three engines: every difference above is one named option")
OVERRIDE = R(0, "so an arena can take a ruleset and override any option.")


# ------------------------------------------------------------------------------------------ cards

def every_deck_card():
    for _name, make in DECKS.items():
        for n in (2, 5):
            yield from make(n)


def round_trip() -> bool:
    for c in every_deck_card():
        again = Card.from_code(c.code)
        assert again is c and str(c) == c.code and eval(repr(c)) is c  # noqa: S307 - repr is Card.from_code(...)
        assert Card.from_code(Card(c.colour, c.rank).code) == c
    return True


def all_codes() -> set[str]:
    return {c.code for c in every_deck_card()}


def points_table() -> dict[str, int]:
    codes = ["red:0", "red:1", "teal:2", "blue:9", "coral:10", "red:skip", "amber:reverse", "green:draw2", "wild",
             "wild4"]
    return {code: Card.from_code(code).points for code in codes}


@table(
    case("codes-round-trip", [C("Each colour has the numbers 2–10 plus Skip, Reverse and Draw Two"),
                              F("In each colour there is one 0, two of every number from 1 to 9")],
         probe=round_trip, value=True),
    case("codes-shape", [C("Last Card! uses its own deck in four colours"), F("The deck has four colours")],
         probe=lambda: all(c in ("wild", "wild4") or c.split(":")[0] in ALL_COLOURS for c in all_codes())
                       and {"wild", "wild4", "teal:10", "red:0", "blue:draw2"} <= all_codes(),
         value=True),
    case("codes-invalid-refused", C("Each colour has the numbers 2–10"),
         probe=lambda: [_refused(code) for code in ("teal:11", "purple:3", "wild:red", "", "teal:", "7", "Red:7",
                                                   None, "red:draw4")],
         value=[True] * 9),
    case("card-needs-colour-unless-wild", F("Then there are eight wilds, which have no colour of their own"),
         probe=lambda: Card(None, "5"), raises=(InvalidCardError, "wilds and only wilds have no colour")),
    case("wild-has-no-colour", [C("They have no colour of their own"), F("which have no colour of their own")],
         probe=lambda: Card("red", "wild"), raises=(InvalidCardError, "wilds and only wilds have no colour")),
    case("points", [C("number cards face value, Skip, Reverse and Draw Two 20 each, Wild and Wild Draw Four 50 each."),
                    F("A number card is worth its number, a Skip, Reverse or Draw Two 20, and a wild 50."),
                    A("Number cards count their number, a skip, reverse or draw two counts 20, and a wild of either "
                      "kind counts 50.")],
         probe=points_table, value={"red:0": 0, "red:1": 1, "teal:2": 2, "blue:9": 9, "coral:10": 10, "red:skip": 20,
                                    "amber:reverse": 20, "green:draw2": 20, "wild": 50, "wild4": 50}),
    case("hand-points-79", F("Left in a hand: 9 for the number, 20 for the Skip and 50 for the wild."),
         probe=lambda: hand_points([Card.from_code(c) for c in ("red:9", "blue:skip", "wild")]), value=79),
    case("standard-deck-points", F("There are 108 cards."),
         probe=lambda: hand_points(standard_deck()), value=4 * (0 + 2 * 45 + 6 * 20) + 8 * 50),
    case("describe", [C("Skip, Reverse and Draw Two are the action cards"), F("A Skip, a Reverse and a Draw Two")],
         probe=lambda: [Card.from_code(c).describe()
                        for c in ("teal:7", "red:draw2", "amber:reverse", "wild", "wild4")],
         value=["teal 7", "red Draw Two", "amber Reverse", "Wild", "Wild Draw Four"]),
)
def test_cards(c):
    run(c)


def _refused(code) -> bool:
    try:
        Card.from_code(code)
    except InvalidCardError as exc:
        return "invalid card code" in str(exc)
    return False


def wire_round_trip() -> bool:
    actions = [Action("play", (Card.from_code("red:7"), Card.from_code("blue:7")), None, True),
               Action("play", (Card.from_code("wild"),), "green", False), Action("draw"), Action("pass"),
               Action("colour", colour="yellow")]
    return all(Action.from_wire(a.to_wire(3)) == a for a in actions)


@table(
    case("action-wire-round-trip", A("You can put down more than one card in a turn"),
         probe=wire_round_trip, value=True),
    case("action-wire-bad-card", A("You can put down more than one card in a turn"),
         probe=lambda: Action.from_wire({"type": "play", "cards": ["red:77"]}),
         raises=(InvalidActionError, "invalid card code 'red:77'")),
    case("action-wire-empty-play", A("You can put down more than one card in a turn"),
         probe=lambda: Action.from_wire({"type": "play", "cards": []}),
         raises=(InvalidActionError, "a play needs a non-empty list 'cards'")),
    case("action-wire-bad-call", A("A play that takes you down to exactly one card has to carry the call."),
         probe=lambda: Action.from_wire({"type": "play", "cards": ["red:7"], "call": "yes"}),
         raises=(InvalidActionError, "'call' must be true or false")),
    case("action-wire-colour-of-coloured-card-dropped", A("it sets the color"),
         probe=lambda: Action.from_wire({"type": "play", "cards": ["red:7"], "colour": "red"}).colour, value=None),
)
def test_actions(c):
    run(c)


# ------------------------------------------------------------------------------------------ options

ALL_OPTIONS = "deck, wild_draw_four, opening, multi_play, stacking, draw_until_playable, last_card_call, end, " \
              "target, move_limit"


@table(
    case("presets", BUNDLE, probe=lambda: sorted(PRESETS), value=["arcade", "compact", "family"]),
    case("unknown-ruleset", BUNDLE, probe=lambda: get_ruleset("uno"),
         raises=(RulesetError, "unknown ruleset 'uno'; the rulesets are: compact, family, arcade")),
    case("unknown-option", OVERRIDE, probe=lambda: get_ruleset("compact", {"colour": "red"}),
         raises=(RulesetError, f"unknown option 'colour'; the options are: {ALL_OPTIONS}")),
    case("bad-choice", OVERRIDE, probe=lambda: get_ruleset("family", {"deck": "tiny"}),
         raises=(RulesetError, "option deck='tiny' is not allowed; allowed: compact, standard")),
    case("bad-choice-call", OVERRIDE, probe=lambda: get_ruleset("arcade", {"last_card_call": "never"}),
         raises=(RulesetError, "option last_card_call='never' is not allowed; allowed: auto, required")),
    case("bad-bool", OVERRIDE, probe=lambda: get_ruleset("family", {"stacking": "maybe"}),
         raises=(RulesetError, "option stacking='maybe' must be true or false")),
    case("bool-spellings", OVERRIDE,
         probe=lambda: [get_ruleset("family", {"stacking": v}).stacking
                        for v in (True, "true", "YES", "on", "1", False, "false", "no", "Off", "0")],
         value=[True] * 5 + [False] * 5),
    case("target-compact-bad", [OVERRIDE, C("anywhere from 100 to 1000 in steps of 100")],
         probe=lambda: get_ruleset("compact", {"target": 150}),
         raises=(RulesetError, "option target=150 is not allowed in compact; allowed: 100, 200, 300, 400, 500, 600, "
                               "700, 800, 900, 1000")),
    case("target-family-bad", [OVERRIDE, F("One round, 200, 300 or 500.")],
         probe=lambda: get_ruleset("family", {"target": 1000}),
         raises=(RulesetError, "option target=1000 is not allowed in family; allowed: round, 200, 300, 500")),
    case("target-family-values", F("You can also play a single round, or to 200 or 500."),
         probe=lambda: [get_ruleset("family", {"target": t}).target for t in ("round", 200, "300", " 500 ")],
         value=["round", 200, 300, 500]),
    case("target-arcade-bad", OVERRIDE, probe=lambda: get_ruleset("arcade", {"target": "0"}),
         raises=(RulesetError, "option target='0' is not allowed in arcade; allowed: round, 100")),
    case("target-bool-refused", OVERRIDE, probe=lambda: get_ruleset("compact", {"target": True}),
         raises=(RulesetError, "option target=True is not allowed in compact")),
    case("move-limit-bad", OVERRIDE, probe=lambda: get_ruleset("arcade", {"move_limit": 5}),
         raises=(RulesetError, "option move_limit=5 must be a whole number from 10 to 100000")),
    case("move-limit-text-bad", OVERRIDE, probe=lambda: get_ruleset("arcade", {"move_limit": "many"}),
         raises=(RulesetError, "option move_limit='many' must be a whole number from 10 to 100000")),
    case("move-limit-bool-bad", OVERRIDE, probe=lambda: get_ruleset("arcade", {"move_limit": True}),
         raises=(RulesetError, "must be a whole number from 10 to 100000")),
    case("move-limit-ok", OVERRIDE, probe=lambda: [get_ruleset("arcade", {"move_limit": v}).move_limit
                                                   for v in ("10", 100000)], value=[10, 100000]),
    case("parse-option", OVERRIDE, probe=lambda: parse_option(" stacking = true "), value=("stacking", "true")),
    case("parse-option-bad", OVERRIDE, probe=lambda: parse_option("stacking"),
         raises=(RulesetError, "option 'stacking' is not KEY=VALUE; e.g. --option stacking=true")),
    case("parse-option-no-key", OVERRIDE, probe=lambda: parse_option("=1"), raises=(RulesetError, "is not KEY=VALUE")),
    case("players-error", [C("Last Card! is played with 2–6 players."), F("Players: 2 to 6")],
         probe=lambda: check_players(7), raises=(RulesetError, "7 players: Last Card is played by 2 to 6 players")),
    case("override-keeps-house", OVERRIDE,
         probe=lambda: (get_ruleset("compact", {"stacking": "on"}).house,
                        get_ruleset("compact", {"stacking": "on"}).options["stacking"],
                        get_ruleset("compact").stacking),
         value=("compact", True, False)),
    case("single-round", [BUNDLE, F("You can also play a single round")],
         probe=lambda: [get_ruleset("arcade").single_round, get_ruleset("family").single_round,
                        get_ruleset("family", {"target": "round"}).single_round, get_ruleset("compact").single_round],
         value=[True, False, True, False]),
)
def test_options(c):
    run(c)


# ------------------------------------------------------------------------------------------ overrides change play

def st(ruleset, options, **kw):
    return {"ruleset": ruleset, "options": options, **kw}


def compact_opening_as_arcade():
    g = find_opening("compact", 4, lambda g: opening_top(g).rank == "skip", dealer=0, options={"opening": "arcade"})
    return g.current, [e["kind"] for e in g.events if e["kind"] != "bury"]


@table(
    case("compact-wild4-any", OVERRIDE,
         st("compact", {"wild_draw_four": "any"}, hands=[["wild4", "coral:3"], ["teal:1"]], top="coral:7",
            draw=["amber:2"] * 4), "play wild4 teal", colour="teal"),
    case("family-wild4-restricted", OVERRIDE,
         st("family", {"wild_draw_four": "restricted"}, hands=[["wild4", "red:3"], ["blue:1"]], top="red:7"),
         "play wild4 blue", illegal="may only be played when you hold no red card"),
    case("compact-multi-play", OVERRIDE,
         st("compact", {"multi_play": True}, hands=[["coral:3", "teal:3", "amber:4"], ["teal:1"]], top="coral:7"),
         "play coral:3 teal:3", colour="teal", sizes=[1, 1]),
    case("arcade-single-play", OVERRIDE,
         st("arcade", {"multi_play": False}, hands=[["red:3", "blue:3", "blue:4"], ["green:1"]], top="red:7"),
         "play red:3 blue:3", illegal="option multi_play is off"),
    case("arcade-auto-call", OVERRIDE,
         st("arcade", {"last_card_call": "auto"}, hands=[["red:3", "blue:4"], ["green:1"]], top="red:7",
            draw=["yellow:1"]), "play red:3", events=["play", "call"], sizes=[1, 1]),
    case("compact-opening-arcade", OVERRIDE, probe=compact_opening_as_arcade, value=(1, ["deal"])),
    case("compact-tender", OVERRIDE,
         st("compact", {"end": "tender"}, hands=[["teal:1", "teal:2"], ["amber:9"]], top="coral:7"),
         legal_exactly=["draw"]),
    case("compact-tender-ends", OVERRIDE,
         st("compact", {"end": "tender"}, hands=[["teal:1", "teal:2"], ["amber:9"]], top="coral:7"), "draw",
         over=True, result={"reason": "tender", "winner": 0}),
    case("arcade-match", OVERRIDE,
         st("arcade", {"end": "match", "target": 200}, hands=[["red:3"], ["green:1", "wild"]], top="red:7"),
         "play red:3", over=False, round=2, scores=[51, 0]),
    case("family-compact-deck", OVERRIDE,
         st("family", {"deck": "compact"}, hands=[["wild", "teal:3"], ["amber:1"]], top="teal:7", draw=["coral:2"]),
         legal_exactly=["play teal:3", "play wild teal", "play wild coral", "play wild amber", "play wild violet",
                        "draw"]),
    case("compact-draw-until-playable", OVERRIDE,
         st("compact", {"draw_until_playable": True}, hands=[["teal:1", "teal:2"], ["amber:9"]], top="coral:7",
            draw=["amber:2", "wild4", "coral:9"]),
         "draw", drawn="wild4", phase="drawn", sizes=[4, 1]),
    case("compact-draw-until-playable-restricted-wild4", [OVERRIDE, C("A Wild Draw Four may only be played when you "
                                                                      "hold no card of the colour in play.")],
         st("compact", {"draw_until_playable": True}, hands=[["coral:1", "teal:2"], ["amber:9"]], top="coral:skip",
            draw=["amber:2", "wild4", "coral:9"]),
         ["draw", "play coral:1"], illegal="only the drawn card coral:9"),
)
def test_overrides(c):
    run(c)


def test_seeded_games_differ_by_seed_only():
    """Ruling 2 in small: the deal is a function of the seed."""
    from referee.engine.game import Game

    a = Game(get_ruleset("family"), 4, random.Random(11)).events
    b = Game(get_ruleset("family"), 4, random.Random(11)).events
    c = Game(get_ruleset("family"), 4, random.Random(12)).events
    assert a == b and a != c


@pytest.mark.parametrize("ruleset", ["compact", "family", "arcade"])
def test_every_option_is_listed(ruleset):
    assert list(get_ruleset(ruleset).options) == [o.strip() for o in ALL_OPTIONS.split(",")]
