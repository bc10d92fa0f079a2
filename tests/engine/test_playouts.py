"""Seeded random playouts of whole games with the built-in players, checking invariants after every action.

Every ruleset, a spread of option overrides and 2-6 players. After each action: the cards in hands, draw pile and
discard are exactly the deck; the action was among ``legal_actions()`` and passed ``check()``; the position is
well formed. Every ``round_end`` is scored as the documents say, every game ends within a step bound, and the same
seed gives the same event log while another seed gives another.

``LASTCARD_SOAK=1`` runs the soak test over many more seeds; by default it runs a bounded number.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from itertools import chain
from operator import attrgetter
from typing import Any

import pytest

from referee.engine.actions import PASS, PLAY, Action, IllegalActionError
from referee.engine.cards import DECKS
from referee.engine.game import PHASE_COLOUR, PHASE_DRAWN, PHASE_OVER, PHASE_PLAY, Game, event_for, placements, shuffle
from referee.engine.rules import Ruleset, get_ruleset
from referee.players import BUILTINS, SeatView, make_player

SOAK = os.environ.get("LASTCARD_SOAK") == "1"

#: (ruleset, overrides): every preset, and each option that changes play switched on or off.
CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("compact", {"target": 100}),
    ("compact", {"target": 100, "stacking": True}),
    ("compact", {"target": 100, "draw_until_playable": True}),
    ("compact", {"target": 100, "multi_play": True, "last_card_call": "required"}),
    ("compact", {"end": "tender"}),
    ("compact", {"target": 100, "opening": "family", "wild_draw_four": "any"}),
    ("compact", {"target": 200, "opening": "arcade", "move_limit": 60}),
    ("family", {"target": "round"}),
    ("family", {"target": 200, "stacking": True}),
    ("family", {"target": 200, "draw_until_playable": True, "stacking": True}),
    ("family", {"target": "round", "wild_draw_four": "restricted", "multi_play": True, "stacking": True}),
    ("family", {"target": 200, "last_card_call": "required", "deck": "compact"}),
    ("family", {"target": "round", "end": "tender", "move_limit": 40}),
    ("arcade", {}),
    ("arcade", {"stacking": True}),
    ("arcade", {"draw_until_playable": True}),
    ("arcade", {"multi_play": False, "last_card_call": "auto"}),
    ("arcade", {"end": "match", "target": 100}),
    ("arcade", {"opening": "compact", "wild_draw_four": "restricted"}),
    ("arcade", {"opening": "family", "stacking": True, "draw_until_playable": True, "move_limit": 30}),
]

BOT_MIXES = [("random", "random", "random", "random", "random", "random"),
             ("easy", "medium", "hard", "random", "hard", "medium"),
             ("hard", "hard", "hard", "hard", "hard", "hard")]

_CODE = attrgetter("code")

#: No game may need more actions than this (a round is capped by its move limit; draws and passes are bounded).
MAX_STEPS = 60_000


def config_id(cfg: tuple[str, dict[str, Any]]) -> str:
    name, opts = cfg
    return name + "".join(f"-{k}={v}" for k, v in opts.items())


class Playout:
    """One game between built-in players, with every invariant checked as it goes."""

    def __init__(self, ruleset: Ruleset, players: int, seed: int, bots: tuple[str, ...] = BOT_MIXES[0], *,
                 starve: bool = False, forgetful: bool = False) -> None:
        self.rs = ruleset
        self.n = players
        self.rng = random.Random(seed)
        self.game = Game(ruleset, players, self.rng)
        self.bots = [make_player(bots[i % len(bots)], seed * 7919 + i) for i in range(players)]
        self.forgetful = random.Random(seed) if forgetful else None
        if starve:
            self.starve(seed % 3)
        self.deck = Counter(map(_CODE, DECKS[ruleset.deck](players)))
        self.deck_size = sum(self.deck.values())
        self.steps = 0
        self.seen = 0
        self.scores = [0] * players
        self.rounds = 0
        self.check_state()
        self.check_events()

    def starve(self, keep: int) -> None:
        """Start from an end-game: all but ``keep`` cards of the draw pile go round the hands (still the whole deck),
        so blocked rounds, short penalty draws and draws that find nothing actually happen."""
        g = self.game
        seat = g.current
        while len(g.draw_pile) > keep:
            g.hands[seat].append(g.draw_pile.pop())
            seat = (seat + 1) % g.n

    def run(self) -> Playout:
        g = self.game
        while not g.over:
            legal = g.legal_actions()
            assert legal, "a seat to act must always have a legal action"
            action = self.bots[g.current].choose(SeatView(g, g.current), legal)
            assert any(a.key == action.key for a in legal), f"{action} is not in legal_actions()"
            if self.forgetful is not None and action.call and self.forgetful.random() < 0.5:
                action = Action(action.kind, action.cards, action.colour, False)  # forgets the last-card call
            g.check(action)
            if self.steps % 29 == 0:
                self.probe_legality(legal)
            g.apply(action, self.rng)
            self.steps += 1
            assert self.steps < MAX_STEPS, f"no end after {self.steps} actions"
            self.check_state()
            self.check_events()
        self.check_result()
        return self

    # -------------------------------------------------------------------- invariants of a position
    def check_state(self) -> None:
        g = self.game
        everything = Counter(map(_CODE, chain(*g.hands, g.draw_pile, g.discard)))
        # dict equality (C speed; Counter's own == walks keys in Python): same cards, same copies
        assert dict.__eq__(everything, self.deck), "cards in hands + draw pile + discard differ from the deck"
        assert g.discard and g.top is g.discard[-1], "the top card is the last card of the discard"
        assert g.phase in (PHASE_PLAY, PHASE_DRAWN, PHASE_COLOUR, PHASE_OVER)
        assert 0 <= g.current < g.n and g.direction in (1, -1)
        if g.phase == PHASE_COLOUR:
            assert self.rs.opening == "family" and g.top.rank == "wild" and g.colour is None
        else:
            assert g.colour in g.colours, f"colour in play {g.colour!r}"
            if not g.top.is_wild:
                assert g.colour == g.top.colour
        if g.pending:
            assert self.rs.stacking and g.pending_rank in ("draw2", "wild4")
            assert g.top.rank == g.pending_rank
            # A stack still pending when the move limit ends the round is left undrawn (see the report).
            assert g.phase == PHASE_PLAY or g.over
        else:
            assert g.pending_rank is None
        if g.phase == PHASE_DRAWN:
            assert g.drawn is not None and g.drawn in g.hands[g.current]
        assert g.move <= self.rs.move_limit
        if not g.over:
            assert all(g.hands), "nobody holds no cards while the game goes on"

    def probe_legality(self, legal: list[Action]) -> None:
        """Every legal action passes check(); a card the seat does not hold, or a pass before drawing, does not."""
        g = self.game
        for a in legal[:40]:
            g.check(a)
        hand = g.hands[g.current]
        foreign = next((c for h in g.hands for c in h if c not in hand), None)
        if foreign is not None and g.phase != PHASE_COLOUR:
            with pytest.raises(IllegalActionError):
                g.check(Action(PLAY, (foreign,), g.colours[0] if foreign.is_wild else None))
        if g.phase == PHASE_PLAY and any(a.kind == "draw" for a in legal):
            with pytest.raises(IllegalActionError):
                g.check(Action(PASS))

    # -------------------------------------------------------------------- invariants of the event log
    def check_events(self) -> None:
        g = self.game
        new = g.events[self.seen:]
        self.seen = len(g.events)
        for i, e in enumerate(new):
            kind = e["kind"]
            public = event_for(e, None)
            assert "secret" not in public
            if "secret" in e:
                for seat in range(self.n):
                    mine = event_for(e, seat)
                    assert set(mine) - set(public) <= set(e["secret"].get(seat, {}))
            if kind == "draw":
                assert e["count"] == len(e["secret"][e["seat"]]["cards"])
            elif kind == "deal":
                self.rounds += 1
                assert all(len(s["hand"]) == 7 for s in e["secret"].values())
            elif kind == "forfeit":
                assert self.rs.last_card_call == "required"
                last_play = next(x for x in reversed(new[:i]) if x["kind"] == "play")
                assert last_play["call"] is False, "a forfeit follows only a play without the call"
            elif kind == "call":
                assert self.rs.last_card_call == "auto" or e["by"] == "player"
            elif kind == "round_end":
                self.check_round_end(e)

    def check_round_end(self, e: dict[str, Any]) -> None:
        points = [sum(_points(c) for c in hand) for hand in e["hands"]]
        assert e["points"] == points
        winner, reason, gained = e["winner"], e["reason"], e["gained"]
        if reason == "out":
            assert winner is not None and points[winner] == 0 and e["hands"][winner] == []
        if self.rs.end == "tender":
            assert gained == [0] * self.n
            if reason != "out":
                low = min(points)
                assert winner == (points.index(low) if points.count(low) == 1 else None)
            return
        if reason == "out":
            # The winner gains the points left in every other hand, nobody else scores.
            assert gained == [sum(points) if s == winner else 0 for s in range(self.n)]
        else:
            assert reason in ("blocked", "move_limit")
            low = min(points)
            if points.count(low) == 1:
                assert winner == points.index(low)
                assert gained == [sum(points) - low if s == winner else 0 for s in range(self.n)]
            else:
                assert winner is None and gained == [0] * self.n
        self.scores = [s + d for s, d in zip(self.scores, gained)]
        assert e["scores"] == self.scores

    def check_result(self) -> None:
        g = self.game
        res = g.result
        assert res is not None and g.phase == PHASE_OVER and g.legal_actions() == []
        assert g.events[-1]["kind"] == "game_end"
        places = res["placements"]
        assert len(places) == self.n and min(places) == 1
        if res["winner"] is not None:
            assert places[res["winner"]] == 1 and places.count(1) == 1
        else:
            assert places.count(1) >= 2
        if res["reason"] == "target":
            assert max(g.scores) >= int(self.rs.target)
            assert places == placements(g.scores, lower_is_better=False)
        else:
            assert self.rs.single_round
            points = res["points"]
            key = [-1 if s == res["winner"] else p for s, p in enumerate(points)]
            assert places == placements(key, lower_is_better=True)
        with pytest.raises(IllegalActionError, match="the game is over"):
            g.check(Action(PASS))


def _points(code: str) -> int:
    rank = code.split(":")[-1]
    return 50 if rank in ("wild", "wild4") else 20 if rank in ("skip", "reverse", "draw2") else int(rank)


def play(cfg: tuple[str, dict[str, Any]], players: int, seed: int, bots=BOT_MIXES[0], **kw: Any) -> Playout:
    return Playout(get_ruleset(cfg[0], cfg[1]), players, seed, bots, **kw).run()


# ------------------------------------------------------------------------------------------ the tests

@pytest.mark.parametrize("cfg", CONFIGS, ids=config_id)
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_playout_invariants(cfg, players):
    seed = 1000 * players + CONFIGS.index(cfg)
    p = play(cfg, players, seed, BOT_MIXES[seed % len(BOT_MIXES)], forgetful=seed % 2 == 0)
    assert p.game.over and p.rounds >= 1


@pytest.mark.parametrize("cfg", CONFIGS, ids=config_id)
@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_starved_playout_invariants(cfg, players):
    """The same invariants from an end-game position: the draw pile all but empty, the hands full."""
    seed = 2000 * players + CONFIGS.index(cfg)
    p = play(cfg, players, seed, BOT_MIXES[seed % len(BOT_MIXES)], starve=True, forgetful=True)
    assert p.game.over


@pytest.mark.parametrize("ruleset", ["compact", "family", "arcade"])
@pytest.mark.parametrize("players", [2, 4, 6])
def test_default_presets_play_to_the_end(ruleset, players):
    """The presets as published (compact to 500, family to 300, arcade tender) finish, scored as documented."""
    p = play((ruleset, {}), players, 77 + players, BOT_MIXES[1])
    rs = get_ruleset(ruleset)
    if rs.end == "match":
        assert p.game.result["reason"] == "target" and max(p.game.scores) >= rs.target
    else:
        assert p.game.result["reason"] in ("out", "tender") and p.game.move <= 500


@pytest.mark.parametrize("cfg", [CONFIGS[0], CONFIGS[8], CONFIGS[13], CONFIGS[14], CONFIGS[15]], ids=config_id)
def test_same_seed_same_log(cfg):
    a = play(cfg, 4, 5, BOT_MIXES[1]).game.events
    b = play(cfg, 4, 5, BOT_MIXES[1]).game.events
    assert a == b


@pytest.mark.parametrize("cfg", [CONFIGS[0], CONFIGS[8], CONFIGS[13]], ids=config_id)
def test_other_seed_other_log(cfg):
    logs = [play(cfg, 4, seed, BOT_MIXES[0]).game.events for seed in (1, 2, 3)]
    assert logs[0] != logs[1] and logs[1] != logs[2] and logs[0] != logs[2]
    deals = [next(e for e in log if e["kind"] == "deal")["secret"] for log in logs]
    assert deals[0] != deals[1] and deals[1] != deals[2]


def test_every_builtin_player_plays_every_ruleset():
    for name in BUILTINS:
        for ruleset in ("compact", "family", "arcade"):
            p = play((ruleset, {"target": "round"} if ruleset != "compact" else {"target": 100}), 3, 3,
                     (name,) * 3)
            assert p.game.over


def test_make_player_unknown():
    with pytest.raises(ValueError, match="unknown built-in player 'genius'; built-ins: random, easy, medium, hard"):
        make_player("genius")


@pytest.mark.soak
@pytest.mark.parametrize("ruleset", ["compact", "family", "arcade"])
def test_soak(ruleset):
    """Many more seeds when ``LASTCARD_SOAK=1``; a bounded sample otherwise."""
    seeds = range(400) if SOAK else range(8)
    cfgs = [c for c in CONFIGS if c[0] == ruleset]
    for seed in seeds:
        cfg = cfgs[seed % len(cfgs)]
        play(cfg, 2 + seed % 5, 100_000 + seed, BOT_MIXES[seed % len(BOT_MIXES)], starve=seed % 4 == 0,
             forgetful=seed % 3 == 0)


#: Every value of every option that changes play (the target aside): 384 combinations.
OPTION_SPACE = {"deck": ["compact", "standard"], "wild_draw_four": ["restricted", "any"],
                "opening": ["compact", "family", "arcade"], "multi_play": [False, True],
                "stacking": [False, True], "draw_until_playable": [False, True],
                "last_card_call": ["auto", "required"], "end": ["match", "tender"]}


def _every_combination() -> list[dict[str, Any]]:
    from itertools import product
    keys = list(OPTION_SPACE)
    return [dict(zip(keys, values, strict=True)) for values in product(*(OPTION_SPACE[k] for k in keys))]


def test_every_option_combination_plays_out():
    """Each of the 384 combinations, one single-round game each (every table size in turn; all five
    per combination under LASTCARD_SOAK=1), with the move limit kept short so the run stays bounded."""
    combos = _every_combination()
    assert len(combos) == 384
    for i, opts in enumerate(combos):
        for players in ([2, 3, 4, 5, 6] if SOAK else [2 + i % 5]):
            cfg = ("arcade", {**opts, "target": "round", "move_limit": 60})
            p = play(cfg, players, 50_000 + i, BOT_MIXES[i % len(BOT_MIXES)], forgetful=i % 2 == 0)
            assert p.game.over and p.game.move <= 60


@pytest.mark.parametrize("size", [0, 1, 2, 3, 54, 108, 216])
def test_engine_shuffle_is_rng_shuffle(size):
    """The engine's inlined shuffle gives rng.shuffle's permutation and leaves the generator in the same state."""
    for seed in range(40):
        ours, theirs = random.Random(seed), random.Random(seed)
        a, b = list(range(size)), list(range(size))
        shuffle(a, ours)
        theirs.shuffle(b)
        assert a == b
        assert ours.getstate() == theirs.getstate()


def test_engine_shuffle_defers_to_a_random_subclass():
    """A generator subclass may draw differently, so the engine leaves the shuffle to it."""

    class Reversing(random.Random):
        def shuffle(self, x, *args):  # type: ignore[override]
            x.reverse()

    pile = list(range(10))
    shuffle(pile, Reversing(1))
    assert pile == list(range(9, -1, -1))
