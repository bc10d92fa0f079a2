"""Helpers for the rule-case tables: build a position from card codes, parse actions, run one case.

A *case* is one row of a table: the rule sentence(s) it checks, a position (``state``), the actions
taken in it, and what is expected. The tables live in ``test_rules_*.py`` / ``test_rulings.py`` /
``test_rule_cases.py``; ``test_rule_coverage.py`` checks that every sentence of the three house
documents and every ruling of ``RULINGS.md`` is cited by at least one case.

Positions are built from card codes::

    make_state("compact", hands=[["coral:3", "teal:7"], ["amber:5"]], top="coral:7",
               draw=["teal:2", "amber:9"], discard=["violet:4"])

``draw`` lists the draw pile in drawing order (the first code is the next card drawn); ``discard``
lists the cards *under* the top card, bottom first. Everything else left out gets a plain default:
seat 0 to act, clockwise, the dealer the seat before the one to act, no pending penalty, move 0.

Actions are written as text::

    "play coral:3"          "play wild teal"         "play red:7 blue:7"
    "play green:draw2 yellow:draw2 call"             "draw"   "pass"   "colour red"
"""

from __future__ import annotations

import os
import random
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

import pytest

from referee.engine.actions import COLOUR, DRAW, PASS, PLAY, Action, IllegalActionError
from referee.engine.cards import ALL_COLOURS, DECKS, Card
from referee.engine.game import Game, Phase, card_count
from referee.engine.rules import Ruleset, RulesetError, check_players, get_ruleset

# ---------------------------------------------------------------------------------------- citations

#: The three house documents and the rulings page, by the name cases cite them with.
DOCS = ("compact", "family", "arcade", "rulings")


@dataclass(frozen=True)
class Ref:
    """One cited rule: a sentence (or a telling fragment of one) of a house document, or a ruling."""

    doc: str
    text: str
    ruling: int | None = None

    def __str__(self) -> str:
        if self.ruling is not None:
            return f"ruling {self.ruling}" + (f": {self.text}" if self.text else "")
        return f"{self.doc}: {self.text}"


def C(text: str) -> Ref:
    """A sentence of the ``compact`` document (seeds/000_*.txt)."""
    return Ref("compact", text)


def F(text: str) -> Ref:
    """A sentence of the ``family`` document (seeds/001_*.txt)."""
    return Ref("family", text)


def A(text: str) -> Ref:
    """A sentence of the ``arcade`` document (seeds/003_*.txt)."""
    return Ref("arcade", text)


def R(number: int, text: str = "") -> Ref:
    """Ruling ``number`` of RULINGS.md, optionally with the fragment of it the case checks."""
    return Ref("rulings", text, number)


#: Decisions of this project that are not in the documents (accepted as given, see the brief).
def D(text: str) -> Ref:
    return Ref("decision", text)


# ---------------------------------------------------------------------------------------- documents

def _first_existing(*candidates: Path | None) -> Path | None:
    for p in candidates:
        if p is not None and p.exists():
            return p
    return None


_REPO = Path(__file__).resolve().parents[2]


def seeds_dir() -> Path | None:
    """Where the three house documents are (``LASTCARD_SEEDS`` overrides), or ``None``."""
    env = os.environ.get("LASTCARD_SEEDS")
    # shared/ sits beside the checkout (in CI too); /work/shared is this workplace's own copy.
    return _first_existing(Path(env) if env else None, _REPO.parent / "shared" / "seeds",
                           Path("/work/shared/seeds"), _REPO / "seeds",
                           _REPO / "docs" / "seeds")


def rulings_path() -> Path | None:
    env = os.environ.get("LASTCARD_RULINGS")
    seeds = seeds_dir()
    return _first_existing(Path(env) if env else None, seeds.parent / "RULINGS.md" if seeds else None,
                           _REPO / "RULINGS.md", _REPO / "docs" / "RULINGS.md")


DOC_FILES = {"compact": "000_*.txt", "family": "001_*.txt", "arcade": "003_*.txt"}


def doc_text(doc: str) -> str | None:
    if doc == "rulings":
        p = rulings_path()
        return p.read_text(encoding="utf-8") if p else None
    d = seeds_dir()
    if d is None:
        return None
    found = sorted(d.glob(DOC_FILES[doc]))
    return found[0].read_text(encoding="utf-8") if found else None


def norm(text: str) -> str:
    """Compare text loosely: typographic quotes and dashes, case and runs of white space do not matter."""
    text = (text.replace("\u2019", "'").replace("\u2018", "'").replace("\u201c", '"').replace("\u201d", '"')
            .replace("\u2013", "-").replace("\u2014", "-"))
    return re.sub(r"\s+", " ", text).strip().lower()


def sentences(text: str) -> list[str]:
    """A house document cut into sentences (table rows count as one sentence each), normalised."""
    out: list[str] = []
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        line = re.sub(r"^[-*] ", "", line)
        if line.startswith("|"):
            if not set(line) <= set("|-: "):
                out.append(norm(line))
            continue
        for s in re.split(r"(?<=[.!?])\s+(?=[A-Z\"'\u201c(])", line):
            s = norm(s)
            if s:
                out.append(s)
    return list(dict.fromkeys(out))


# ---------------------------------------------------------------------------------------- positions

def card(code: str) -> Card:
    return Card.from_code(code)


def cards(codes: Iterable[str]) -> list[Card]:
    return [Card.from_code(c) for c in codes]


def codes(cs: Iterable[Card]) -> list[str]:
    return [c.code for c in cs]


def ruleset_of(ruleset: str | Ruleset, options: dict[str, Any] | None = None) -> Ruleset:
    if isinstance(ruleset, Ruleset):
        return ruleset.with_options(options or {})
    return get_ruleset(ruleset, options or {})


def make_state(ruleset: str | Ruleset = "compact", *, hands: Sequence[Sequence[str]], top: str,
               colour: str | None = None, draw: Sequence[str] = (), discard: Sequence[str] = (),
               current: int = 0, direction: int = 1, phase: str = "play", pending: int = 0,
               pending_rank: str | None = None, drawn: str | None = None, move: int = 0,
               scores: Sequence[int] | None = None, dealer: int | None = None, passes: int = 0,
               options: dict[str, Any] | None = None, seed: int = 0, round: int = 1) -> Game:
    """A ``Game`` in exactly the position described (see the module doc for the conventions)."""
    rs = ruleset_of(ruleset, options)
    n = len(hands)
    game = Game(rs, n, random.Random(seed), dealer=(current - direction) % n if dealer is None else dealer)
    game.hands = [cards(h) for h in hands]
    game.draw_pile = list(reversed(cards(draw)))  # the engine draws from the end of the list
    top_card = card(top)
    game.discard = cards(discard) + [top_card]
    game.top = top_card
    game.colour = colour if colour is not None else top_card.colour
    game.current = current
    game.direction = direction
    game.phase = Phase(phase)
    game.pending = pending
    game.pending_rank = pending_rank
    game.drawn = card(drawn) if drawn else None
    game.move = move
    game.passes = passes
    game.scores = list(scores) if scores is not None else [0] * n
    game.round = round
    game.over = False
    game.outcome = None
    game.events.clear()
    if drawn:
        assert game.drawn in game.hands[current], "the drawn card must be in the hand of the seat to act"
    return game


def draw_order(game: Game) -> list[str]:
    """The draw pile as ``make_state`` takes it: next card first."""
    return codes(reversed(game.draw_pile))


def act(text: str) -> Action:
    """Parse ``"play red:7 blue:7 call"``, ``"play wild teal"``, ``"draw"``, ``"pass"``, ``"colour red"``."""
    words = text.split()
    kind = words[0]
    if kind in (DRAW, PASS):
        assert len(words) == 1, text
        return Action(kind)
    if kind == COLOUR:
        return Action(COLOUR, colour=words[1])
    assert kind == PLAY, text
    played: list[Card] = []
    colour = None
    call = False
    for w in words[1:]:
        if w == "call":
            call = True
        elif w in ALL_COLOURS:
            colour = w
        else:
            played.append(card(w))
    return Action(PLAY, tuple(played), colour, call)


def show(action: Action) -> str:
    """The text form ``act`` reads (the call is left out: it never changes legality)."""
    if action.kind == PLAY:
        return " ".join(["play", *codes(action.cards)] + ([action.colour] if action.colour else []))
    if action.kind == COLOUR:
        return f"colour {action.colour}"
    return action.kind


def legal_texts(game: Game) -> set[str]:
    return {show(a) for a in game.legal_actions()}


def is_legal(game: Game, action: Action) -> bool:
    return any(a.key == action.key for a in game.legal_actions())


# ---------------------------------------------------------------------------------------- cases

@dataclass
class Case:
    """One row of a rule table. Either a position + actions + expectations, or a ``probe``."""

    id: str
    rules: tuple[Ref, ...]
    state: dict[str, Any] | None = None
    actions: tuple[str, ...] = ()
    expect: dict[str, Any] = field(default_factory=dict)
    probe: Callable[[], Any] | None = None
    seed: int = 0

    def param(self) -> Any:
        return pytest.param(self, id=self.id)


#: Every case built, for the coverage check.
REGISTRY: list[Case] = []


def case(id: str, rules: Ref | Sequence[Ref], state: dict[str, Any] | None = None,
         actions: str | Sequence[str] = (), *, probe: Callable[[], Any] | None = None, seed: int = 0,
         **expect: Any) -> Any:
    """Build a case and return it as a ``pytest.param`` with ``id`` as its test id."""
    refs = (rules,) if isinstance(rules, Ref) else tuple(rules)
    acts = (actions,) if isinstance(actions, str) else tuple(actions)
    c = Case(id, refs, state, acts, expect, probe, seed)
    REGISTRY.append(c)
    return c.param()


def table(*params: Any) -> Any:
    """``@table(case(...), ...)``: parametrize a test over cases (argument name ``c``)."""
    ids = [p.id for p in params]
    dup = {i for i in ids if ids.count(i) > 1}
    assert not dup, f"duplicate case ids: {dup}"
    return pytest.mark.parametrize("c", params)


_KNOWN = {"illegal", "legal", "not_legal", "legal_exactly", "hands", "sizes", "top", "colour", "current",
          "direction", "phase", "pending", "pending_rank", "move", "scores", "over", "result", "events",
          "event_has", "no_events", "draw", "discard", "dealer", "round", "drawn", "passes", "value", "check",
          "raises", "gained", "winner", "placements"}


def _matches(event: dict[str, Any], want: dict[str, Any]) -> bool:
    return all(event.get(k) == v for k, v in want.items())


def run(c: Case) -> Game | None:
    """Run one case; fails with a message naming the rule."""
    unknown = set(c.expect) - _KNOWN
    assert not unknown, f"{c.id}: unknown expectation keys {unknown}"
    rule = "; ".join(str(r) for r in c.rules)
    exp = c.expect
    if c.probe is not None:
        if "raises" in exp:
            err, text = exp["raises"]
            with pytest.raises(err) as info:
                c.probe()
            assert text in str(info.value), f"[{rule}] message {str(info.value)!r} lacks {text!r}"
            return None
        value = c.probe()
        if "value" in exp:
            assert value == exp["value"], f"[{rule}] got {value!r}, expected {exp['value']!r}"
        if "check" in exp:
            assert exp["check"](value), f"[{rule}] check failed for {value!r}"
        return None
    assert c.state is not None, c.id
    game = make_state(**c.state)
    before = card_count(game)
    rng = random.Random(c.seed)
    actions = [act(t) for t in c.actions]
    last = len(actions) - 1
    for i, action in enumerate(actions):
        if i == last and "illegal" in exp:
            assert not is_legal(game, action), f"[{rule}] {c.actions[i]!r} should be illegal"
            with pytest.raises(IllegalActionError) as info:
                game.check(action)
            assert exp["illegal"] in str(info.value), (
                f"[{rule}] reason {str(info.value)!r} lacks {exp['illegal']!r}")
            break
        assert is_legal(game, action), (
            f"[{rule}] {c.actions[i]!r} should be legal; legal: {sorted(legal_texts(game))}")
        game.check(action)
        round_before = game.round
        game.apply(action, rng)
        if game.round == round_before:
            assert card_count(game) == before, f"[{rule}] cards not conserved"
    _expect_after(game, exp, rule)
    return game


def _expect_after(game: Game, exp: dict[str, Any], rule: str) -> None:
    def eq(name: str, got: Any, want: Any) -> None:
        assert got == want, f"[{rule}] {name}: got {got!r}, expected {want!r}"

    if "legal_exactly" in exp:
        eq("legal actions", legal_texts(game), set(exp["legal_exactly"]))
    for t in exp.get("legal", ()):
        assert show(act(t)) in legal_texts(game), f"[{rule}] {t!r} not legal; legal: {sorted(legal_texts(game))}"
    for t in exp.get("not_legal", ()):
        assert show(act(t)) not in legal_texts(game), f"[{rule}] {t!r} is legal but should not be"
    if "hands" in exp:
        for seat, want in exp["hands"].items():
            eq(f"hand of seat {seat}", Counter(codes(game.hands[seat])), Counter(want))
    if "sizes" in exp:
        eq("hand sizes", [len(h) for h in game.hands], list(exp["sizes"]))
    if "top" in exp:
        eq("top", game.top.code, exp["top"])
    for name in ("colour", "current", "direction", "phase", "pending", "pending_rank", "move", "dealer", "round",
                 "over", "passes"):
        if name in exp:
            eq(name, getattr(game, name), exp[name])
    if "drawn" in exp:
        eq("drawn", game.drawn.code if game.drawn else None, exp["drawn"])
    if "scores" in exp:
        eq("scores", game.scores, list(exp["scores"]))
    if "draw" in exp:
        eq("draw pile", draw_order(game), list(exp["draw"]))
    if "discard" in exp:
        eq("discard", codes(game.discard), list(exp["discard"]))
    kinds = [e["kind"] for e in game.events]
    if "events" in exp:
        eq("event kinds", kinds, list(exp["events"]))
    for kind in exp.get("no_events", ()):
        assert kind not in kinds, f"[{rule}] unexpected {kind!r} event: {kinds}"
    for want in exp.get("event_has", ()):
        assert any(_matches(e, want) for e in game.events), f"[{rule}] no event like {want}; events: {game.events}"
    ends = [e for e in game.events if e["kind"] == "round_end"]
    if "gained" in exp:
        assert ends, f"[{rule}] no round_end event"
        eq("gained", ends[-1]["gained"], list(exp["gained"]))
    if "winner" in exp:
        assert ends, f"[{rule}] no round_end event"
        eq("winner", ends[-1]["winner"], exp["winner"])
    if "result" in exp:
        assert game.result is not None, f"[{rule}] the game is not over"
        for k, v in exp["result"].items():
            eq(f"result[{k!r}]", game.result.get(k), v)
    if "placements" in exp:
        assert game.result is not None, f"[{rule}] the game is not over"
        eq("placements", game.result["placements"], list(exp["placements"]))


# ---------------------------------------------------------------------------------------- openings

def find_opening(ruleset: str, players: int, want: Callable[[Game], bool], *, options: dict[str, Any] | None = None,
                 dealer: int | None = None, limit: int = 5000) -> Game:
    """The first fresh game (seeds 0, 1, ...) whose deal satisfies ``want``: how opening cases get their deal."""
    rs = ruleset_of(ruleset, options)
    for seed in range(limit):
        game = Game(rs, players, random.Random(seed), dealer=dealer)
        if want(game):
            return game
    raise AssertionError(f"no seed below {limit} gives the wanted opening")


def opening_top(game: Game) -> Card:
    deal = next(e for e in game.events if e["kind"] == "deal")
    return Card.from_code(deal["top"])


def deck_of(ruleset: str, players: int) -> Counter[str]:
    return Counter(codes(DECKS[get_ruleset(ruleset).deck](players)))


def all_cards(game: Game) -> Counter[str]:
    return Counter(codes([c for h in game.hands for c in h] + game.draw_pile + game.discard))


def players_ok(n: int) -> bool:
    """Whether the engine accepts a table of ``n`` players."""
    try:
        check_players(n)
        return True
    except RulesetError:
        return False
