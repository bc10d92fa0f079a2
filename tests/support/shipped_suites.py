"""The shipped position suites (``referee/data/suites/RULESET.yaml``), found in seeded games of built-in players.

Each position is a lesson of the rule documents (``seeds/``, ``RULINGS.md``): one of their worked examples, a rule
that decides the answer, or a tactic of the family document's "Playing it well", met in a real game. A lesson is a
finder: given the game before a seat's turn, the answers that pass there (and those rejected), or None when the
lesson does not hold. The positions are the first seeded games (of ``builtin:random`` in every seat, so the
situations come up unsteered) where it holds and is worth asking: at most half of the legal answers pass, so a
bot that answers at random misses it more often than not. Nothing here looks at what a built-in player answers.
Run as a script to write the suites again:

    python -m tests.support.shipped_suites
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Mapping

from referee.engine.actions import COLOUR, PASS, PLAY, Action
from referee.engine.cardfaces import colour_label, label
from referee.engine.cards import Card
from referee.engine.game import Game
from referee.engine.notation import code_of, encode_actions
from referee.engine.rules import get_ruleset
from referee.players import SeatView, make_player
from referee.replay.suite import SHIPPED, Position, append_position

RULESETS = ("compact", "family", "arcade")
#: A lesson's answer at a position: the accepted codes, the rejected codes, the words its comment is filled with.
Found = tuple[list[str], list[str], dict[str, object]]
Finder = Callable[[Game], "Found | None"]
#: Stoppers: what takes the next player's turn (a Reverse too at a table of two; RULINGS 4).
STOPPERS = ("skip", "draw2", "wild4")


@dataclass(frozen=True)
class Lesson:
    """A rule or tactic, and how many positions of it each ruleset's suite holds."""

    id: str
    rulesets: tuple[str, ...]
    finder: Finder
    comment: str
    """The position's comment: ``str.format`` fields from the finder."""
    tables: tuple[int, ...] = (3, 2, 4)
    """The table sizes its instances are found at, in turn."""
    count: int = 3
    worth: Fraction | None = Fraction(1, 3)
    """Only positions where at most this share of the legal answers pass, so that a bot answering at random misses
    most (None: any; the four first lessons predate the rule)."""


# ---------------------------------------------------------------------------------------------------- helpers
def _hand(game: Game) -> list[Card]:
    return game.hands[game.current]


def _plays(game: Game) -> list[Action]:
    return [a for a in game.legal_actions() if a.kind == PLAY]


def _next(game: Game) -> int:
    return (game.current + game.direction) % game.n


def _stops(action: Action, players: int) -> bool:
    rank = action.cards[-1].rank
    return rank in STOPPERS or (rank == "reverse" and players == 2)


def _counts(cards: list[Card]) -> dict[str, int]:
    out: dict[str, int] = {}
    for card in cards:
        if card.colour is not None:
            out[card.colour] = out.get(card.colour, 0) + 1
    return out


def _most(cards: list[Card], colours: tuple[str, ...]) -> str | None:
    """The colour held most of, when one colour is ahead of every other (else None: no lesson there)."""
    counts = _counts(cards)
    ranked = sorted(colours, key=lambda c: -counts.get(c, 0))
    if counts.get(ranked[0], 0) == 0 or counts.get(ranked[0], 0) == counts.get(ranked[1], 0):
        return None
    return ranked[0]


def _cards(cards: list[Card] | tuple[Card, ...]) -> str:
    return ", ".join(label(c) for c in cards)


def _others_close(game: Game, within: int = 2) -> list[int]:
    me = game.current
    return [s for s in range(game.n) if s != me and len(game.hands[s]) <= within]


def _top(game: Game) -> str:
    """The top card, with the colour its Wild named."""
    return label(game.top) + (f" ({colour_label(game.colour)} in play)" if game.top.is_wild else "")


def _codes(actions: list[Action]) -> list[str]:
    return [code_of(a) for a in actions]


# ---------------------------------------------------------------------------------------------------- the first four
def coral_seven(game: Game) -> Found | None:
    """compact: the coral 7 on top, the seat holds the colour in play, a 7 of another colour and a Wild Draw Four."""
    hand = _hand(game)
    top = game.top
    if game.phase != "play" or top.code != "coral:7" or game.colour != "coral":
        return None
    if not (any(c.colour == game.colour for c in hand) and any(c.rank == "7" for c in hand)
            and any(c.rank == "wild4" for c in hand)):
        return None
    return _codes(_plays(game)), [f"w4{c[0]}" for c in game.colours], {}


def two_sevens(game: Game) -> Found | None:
    """arcade: the seat can lay two 7s together (and can play something else too): shed the most."""
    plays = _plays(game)
    sevens = [a for a in plays if len(a.cards) >= 2 and all(c.rank == "7" for c in a.cards)]
    if game.phase != "play" or not sevens or len(_hand(game)) < 4:
        return None
    most = max(len(a.cards) for a in plays)
    if max(len(a.cards) for a in sevens) != most or len([a for a in plays if len(a.cards) == 1]) < 2:
        return None
    return [code_of(a) for a in plays if len(a.cards) == most], [], {}


def draw_two_pair(game: Game) -> Found | None:
    """arcade: three cards, two of them Draw Twos that go down together: lay both, with the call."""
    if game.phase != "play" or len(_hand(game)) != 3:
        return None
    pairs = [a for a in _plays(game) if len(a.cards) == 2 and all(c.rank == "draw2" for c in a.cards)]
    if not pairs:
        return None
    return ([code_of(a) for a in pairs if a.call],
            [code_of(Action(PLAY, a.cards, a.colour, False)) for a in pairs if a.call], {})


def save_the_draw_two(game: Game) -> Found | None:
    """family: the next player is down to one card and the seat can play a Draw Two or a Skip on them."""
    nxt = _next(game)
    if game.phase != "play" or len(game.hands[nxt]) != 1 or len(_hand(game)) < 3:
        return None
    plays = _plays(game)
    stoppers = [a for a in plays if a.cards[-1].rank in ("draw2", "skip", "wild4")]
    if not stoppers or len(stoppers) == len(plays):
        return None
    return _codes(stoppers), [], {}


# ---------------------------------------------------------------------------------------------------- the lessons
def match_before_wild(game: Game) -> Found | None:
    """A coloured card plays, and so does a Wild: play the coloured card, keep the Wild (nobody is close, so a Skip
    or a Draw Two is kept too: another lesson)."""
    if game.phase != "play" or _others_close(game):
        return None
    plays = _plays(game)
    plain = [a for a in plays if not a.cards[-1].is_wild and a.cards[-1].rank not in ("skip", "draw2")]
    wilds = [a for a in plays if a.cards[-1].is_wild]
    if not plain or not wilds:
        return None
    held = sorted({c.code: c for c in _hand(game) if c.is_wild}.values(), key=lambda c: c.code)
    firsts = sorted({a.cards[0].code: a.cards[0] for a in plain}.values(), key=lambda c: c.code)
    return _codes(plain), [], {"wilds": ("your " if len(held) == 1 else "your wilds, ") + _cards(held),
                               "top": _top(game), "plain": _cards(firsts),
                               "plays": "plays" if len(firsts) == 1 else "play", "it": "it" if len(firsts) == 1
                               else "one of them"}


def name_your_colour(game: Game) -> Found | None:
    """Only a Wild plays: play it naming the colour held most of."""
    if game.phase != "play":
        return None
    plays = _plays(game)
    if not plays or any(not a.cards[-1].is_wild for a in plays):
        return None
    best = _most(_hand(game), game.colours)
    if best is None:
        return None
    return [code_of(a) for a in plays if a.colour == best], [], {
        "colour": colour_label(best), "held": _counts(_hand(game))[best], "top": _top(game)}


def opening_colour(game: Game) -> Found | None:
    """family: the round opened on a Wild; the first player names its colour: the one held most of."""
    if game.phase != "colour":
        return None
    best = _most(_hand(game), game.colours)
    if best is None:
        return None
    legal = game.legal_actions()
    return [code_of(a) for a in legal if a.kind == COLOUR and a.colour == best], [], {
        "colour": colour_label(best), "held": _counts(_hand(game))[best]}


def stop_the_last_card(game: Game) -> Found | None:
    """The next player holds one card and a Skip or a Draw Two of the seat's plays: it takes their turn."""
    nxt = _next(game)
    if game.phase != "play" or len(game.hands[nxt]) != 1:
        return None
    plays = _plays(game)
    stoppers = [a for a in plays if _stops(a, game.n)]
    if not any(a.cards[-1].rank in ("skip", "draw2") for a in stoppers) or len(stoppers) == len(plays):
        return None
    return _codes(stoppers), [], {"next": nxt, "stoppers": _cards(sorted(
        {a.cards[-1].code: a.cards[-1] for a in stoppers}.values(), key=lambda c: c.code))}


def reverse_is_a_skip(game: Game) -> Found | None:
    """Two players, the other one holds one card, and the seat's only stopper is a Reverse (a Skip at two)."""
    if game.phase != "play" or game.n != 2 or len(game.hands[_next(game)]) != 1:
        return None
    plays = _plays(game)
    stoppers = [a for a in plays if _stops(a, game.n)]
    if not stoppers or any(a.cards[-1].rank != "reverse" for a in stoppers) or len(stoppers) == len(plays):
        return None
    return _codes(stoppers), [], {"reverse": label(stoppers[0].cards[-1])}


def save_the_action_card(game: Game) -> Found | None:
    """Nobody is close to going out (three cards or more each), at a table of three or more: a Skip or a Draw Two
    plays, and so does another coloured card: play that one, keep the action card for later."""
    if game.phase != "play" or game.n < 3 or _others_close(game):
        return None
    plays = [a for a in _plays(game) if not a.cards[-1].is_wild]
    actions = [a for a in plays if a.cards[-1].rank in ("skip", "draw2")]
    others = [a for a in plays if a.cards[-1].rank not in ("skip", "draw2")]
    if not actions or not others or any(len(a.cards) > 1 for a in actions):
        return None  # (several Skips laid together in arcade take several turns: another lesson)
    return _codes(others), [], {"actions": _cards(sorted({a.cards[-1].code: a.cards[-1] for a in actions}.values(),
                                                          key=lambda c: c.code))}


def heaviest_first(game: Game) -> Found | None:
    """Someone holds one or two cards, the seat cannot stop the next player, holds no Wild, and its plays are
    single number cards, the heaviest at least 4 points above the next: play it (what is kept is what the winner
    scores)."""
    close = _others_close(game)
    if game.phase != "play" or not close or any(c.is_wild for c in _hand(game)):
        return None
    plays = _plays(game)
    if len(plays) < 2 or any(len(a.cards) > 1 or a.cards[0].rank not in [str(n) for n in range(11)] for a in plays):
        return None
    top = max(a.cards[0].points for a in plays)
    heavy = [a for a in plays if a.cards[0].points == top]
    if top - max((a.cards[0].points for a in plays if a.cards[0].points < top), default=top) < 4:
        return None  # a point or two apart, the colour left in play may matter more: no clear lesson
    held = len(game.hands[close[0]])
    return _codes(heavy), [], {"close": close[0], "held": f"{held} card{'s' if held > 1 else ''}",
                               "card": label(heavy[0].cards[0])}


def go_out(game: Game) -> Found | None:
    """The seat's whole hand goes down in one play (not a Wild): play it, the round is won."""
    if game.phase != "play":
        return None
    size = len(_hand(game))
    out = [a for a in _plays(game) if len(a.cards) == size and not a.cards[-1].is_wild]
    if not out:
        return None
    return _codes(out), [], {"cards": _cards(list(out[0].cards))}


def keep_the_drawn_wild(game: Game) -> Found | None:
    """The seat drew a Wild and nobody is close to going out: keep it (pass), for when nothing else plays."""
    if game.phase != "drawn" or game.drawn is None or not game.drawn.is_wild or _others_close(game):
        return None
    legal = game.legal_actions()
    return [code_of(a) for a in legal if a.kind == PASS], [], {"wild": label(game.drawn)}


def shed_the_most(game: Game) -> Found | None:
    """arcade: several cards of one number go down together: the play that sheds the most (nobody close)."""
    if game.phase != "play" or _others_close(game) or len(_hand(game)) < 4:
        return None
    plays = [a for a in _plays(game) if not a.cards[-1].is_wild]
    if not plays:
        return None
    most = max(len(a.cards) for a in plays)
    if most < 2 or any(len(a.cards) > 1 and a.cards[0].rank not in [str(n) for n in range(11)] for a in plays):
        return None
    best = [a for a in plays if len(a.cards) == most]
    return _codes(best), [], {"n": {2: "two", 3: "three", 4: "four"}.get(most, str(most)),
                              "rank": best[0].cards[0].rank}


def pair_then_call(game: Game) -> Found | None:
    """arcade: three cards, two of one number that go down together: lay both, which leaves one card, with the
    call."""
    if game.phase != "play" or len(_hand(game)) != 3:
        return None
    pairs = [a for a in _plays(game) if len(a.cards) == 2 and a.cards[0].rank in [str(n) for n in range(11)]]
    if not pairs:
        return None
    return ([code_of(a) for a in pairs if a.call],
            [code_of(Action(PLAY, a.cards, a.colour, False)) for a in pairs if a.call],
            {"pair": _cards(list(pairs[0].cards))})


def last_card_sets_the_colour(game: Game) -> Found | None:
    """arcade: the longest play is of cards of different colours (nobody close): lay last the colour you will hold
    most of after it, since the last card laid sets the colour."""
    if game.phase != "play" or _others_close(game):
        return None
    plays = [a for a in _plays(game) if not a.cards[-1].is_wild]
    if not plays:
        return None
    most = max(len(a.cards) for a in plays)
    longest = [a for a in plays if len(a.cards) == most]
    if most < 2 or len({a.cards[-1].colour for a in longest}) < 2:
        return None
    hand = list(_hand(game))
    for card in longest[0].cards:
        hand.remove(next(c for c in hand if c.code == card.code))
    after = _counts(hand)
    best = max(after.get(a.cards[-1].colour or "", 0) for a in longest)
    if best == 0:
        return None
    keep = [a for a in longest if after.get(a.cards[-1].colour or "", 0) == best]
    if len({a.cards[-1].colour for a in keep}) != 1:
        return None
    colour = keep[0].cards[-1].colour
    return _codes(keep), [], {"colour": colour_label(colour), "n": most,
                              "held": f"{best} {colour_label(colour)} card{'s' if best > 1 else ''}"}


LESSONS = (
    Lesson("coral-7", ("compact",), coral_seven,
           "seeds/000 worked example: on the coral 7 coral matches, any 7 matches, a Wild plays on anything; "
           "the Wild Draw Four only when you hold no card of the colour in play, and here you hold one",
           tables=(3,), count=1, worth=None),
    Lesson("7s-together", ("arcade",), two_sevens,
           "seeds/003 worked example: the play that sheds the most is the 7s together; the last one laid sets "
           "the colour", tables=(3,), count=1, worth=None),
    Lesson("draw-two-pair-calls", ("arcade",), draw_two_pair,
           "seeds/003 worked example: lay both Draw Twos and you hold one card, so the play has to carry the "
           "last-card call (without it you draw one)", tables=(2,), count=1, worth=None),
    Lesson("stop-the-last-card", ("family",), save_the_draw_two,
           "seeds/001 tip: save a Skip or a Draw Two for the player after you when they are down to one card",
           tables=(3,), count=1, worth=None),
    Lesson("match-before-wild", RULESETS, match_before_wild,
           "seeds/001 tip: keep your wilds for when nothing else plays. On the {top}, your {plain} {plays}: "
           "play {it} and keep {wilds} (a wild played early is a card you will miss later, and 50 points if somebody "
           "else goes out)", count=4),
    Lesson("name-your-colour", RULESETS, name_your_colour,
           "seeds/001 tip: when you choose a colour, choose the one you hold most of. Nothing but a wild plays on "
           "the {top}: play it and name {colour}, your {held} cards of it", count=3),
    Lesson("opening-wild-colour", ("family",), opening_colour,
           "seeds/001 (the deal): a Wild turned up lets the first player choose its colour (RULINGS 13); choose "
           "the one you hold most of, {colour} ({held} cards)", count=3),
    Lesson("next-holds-one", RULESETS, stop_the_last_card,
           "seeds/001 tip: save a Skip or a Draw Two for the player after you when they are down to one card. "
           "Seat {next} holds one: your {stoppers} takes their turn; anything else lets them go out",
           count=4),
    Lesson("reverse-is-a-skip", RULESETS, reverse_is_a_skip,
           "seeds/000 and seeds/001: with two players a Reverse works like a Skip, so you play again (RULINGS 4). "
           "Your opponent holds one card: your {reverse} takes their turn", tables=(2,), count=2),
    Lesson("keep-the-action-card", ("compact", "family"), save_the_action_card,
           "seeds/001 tip: save a Skip or a Draw Two for when the player after you is down to one or two cards; "
           "nobody is close now, so play another card than a wild and keep your {actions}", tables=(3, 4), count=4),
    Lesson("keep-the-action-card", ("arcade",), save_the_action_card,
           "seeds/001 tip (in arcade too): save a Skip or a Draw Two for when the player after you is down to one "
           "or two cards; nobody is close now, so play another card than a wild and keep your {actions}",
           tables=(3, 4),
           count=3),
    Lesson("heaviest-first", RULESETS, heaviest_first,
           "seeds/001 tip: once anybody is close to going out, play your heaviest cards first: what you are "
           "holding is what they will score. Seat {close} holds {held}: play the {card}", count=4),
    Lesson("go-out", RULESETS, go_out,
           "seeds/000, seeds/001, seeds/003: the first to play their last card wins (the round, or in arcade the "
           "game; going out needs no call). Your {cards} goes down: play it rather than draw", count=3,
           worth=Fraction(1, 2)),
    Lesson("keep-the-drawn-wild", RULESETS, keep_the_drawn_wild,
           "seeds/001: after a draw you may play the card drawn or keep it; 'keeping a card back is a real choice, "
           "most often a wild you would rather save'. Nobody is close: keep the {wild} and pass", count=3),
    Lesson("shed-the-most", ("arcade",), shed_the_most,
           "seeds/003: every copy of a value can go down in one turn; the play that sheds the most is the {n} "
           "{rank}s together", count=4),
    Lesson("pair-then-call", ("arcade",), pair_then_call,
           "seeds/003 (RULINGS 9): lay the {pair} together and you hold one card, so the play has to carry the "
           "last-card call; without it the play stands and you draw one", count=3),
    Lesson("last-sets-the-colour", ("arcade",), last_card_sets_the_colour,
           "seeds/003: the last card you lay is the one the next player answers, and it sets the colour. Lay the "
           "{n} cards with {colour} last: you will still hold {held}", count=4),
)


# ---------------------------------------------------------------------------------------------------- finding them
def worth_asking(position: Position, legal: list[Action], calls: bool, share: Fraction) -> bool:
    """At most ``share`` of the legal answers pass (and one at least)."""
    return 0 < random_pass_chance(position, legal, calls) <= share


def random_pass_chance(position: Position, legal: list[Action], calls: bool) -> Fraction:
    """The chance that ``builtin:random`` (uniform over the legal answers, as listed) passes the position: exact."""
    return Fraction(sum(position.judge(a, calls) for a in legal), len(legal))


def _search(lesson: Lesson, ruleset: str, seats: int, seed: int) -> Position | None:
    """The lesson in the game of ``seed`` (random players at a table of ``seats``), at its first turn worth asking."""
    rules = get_ruleset(ruleset)
    calls = rules.last_card_call == "required"
    rng = random.Random(seed)
    game = Game(rules, seats, rng)
    players = [make_player("random", seed * 10 + s) for s in range(seats)]
    actions: list[Action] = []
    while not game.over and len(actions) < 400:
        found = lesson.finder(game)
        if found is not None and found[0]:
            accept, reject, fields = found
            suffix = "" if lesson.count == 1 else f"-{seats}p-s{seed}"
            position = Position(f"{lesson.id}{suffix}", seed, tuple(f"random{s}" for s in range(seats)),
                                encode_actions(actions), game.current, tuple(accept), tuple(reject),
                                lesson.comment.format(**fields),
                                f"seed {seed}, builtin:random in every seat (tests/support/shipped_suites.py)")
            if lesson.worth is None or worth_asking(position, game.legal_actions(), calls, lesson.worth):
                return position
        seat = game.current
        action = players[seat].choose(SeatView(game, seat), game.legal_actions())
        actions.append(action)
        game.apply(action, rng)
    return None


def find_lesson(lesson: Lesson, ruleset: str, seeds: range = range(1, 5000)) -> list[Position]:
    """The lesson's positions for ``ruleset``: one a game, from the first seeds where it comes up, at its table
    sizes in turn."""
    found: list[Position] = []
    for seed in seeds:
        seats = lesson.tables[len(found) % len(lesson.tables)]
        position = _search(lesson, ruleset, seats, seed)
        if position is not None:
            found.append(position)
            if len(found) == lesson.count:
                return found
    raise LookupError(f"no {lesson.count} games of seeds {seeds} have the situation {lesson.id} in {ruleset}")


def suite_positions(ruleset: str) -> list[Position]:
    """Every position of the shipped suite of ``ruleset``, in its order."""
    return [p for lesson in LESSONS if ruleset in lesson.rulesets for p in find_lesson(lesson, ruleset)]


def lessons_by_id() -> Mapping[str, Lesson]:
    return {lesson.id: lesson for lesson in LESSONS}


def write(folder: str = SHIPPED) -> None:
    import os

    os.makedirs(folder, exist_ok=True)
    for ruleset in RULESETS:
        path = os.path.join(folder, f"{ruleset}.yaml")
        if os.path.exists(path):
            os.remove(path)
        for position in suite_positions(ruleset):
            append_position(path, ruleset, {}, position)
        print(path, file=sys.stderr)


if __name__ == "__main__":
    write()
