"""referee.table.learner: the vector environment's compiled tables, read here directly.

``Catalogue`` finds an action's catalogue index from its fields (the fast path of every learner step): it must
give, for every action a game offers, the index the bot kit's encoding gives its wire form.
"""

from __future__ import annotations

import random

import pytest

from referee.botkit import Encoding
from referee.engine.actions import Action
from referee.engine.game import Game
from referee.engine.rules import Ruleset, get_ruleset
from referee.table.learner import Catalogue, Known

RULESETS = [("compact", {}), ("family", {}), ("family", {"target": "round"}), ("arcade", {})]


def catalogue_of(ruleset: Ruleset) -> Catalogue:
    """A catalogue as the vector env builds one (``Observer.index_of`` and its memo by id), on the bot kit's
    encoding alone: ``referee.table`` needs neither Gymnasium nor PettingZoo, so neither does this test."""
    encoding = Encoding.for_options(ruleset.options)
    known: Known = {}

    def index_of(action: Action) -> int:
        found = known.get(id(action))
        if found is None:
            found = known[id(action)] = (action, encoding.index_of(action.to_wire()))
        return found[1]
    return Catalogue(index_of, known)


@pytest.mark.parametrize(("name", "options"), RULESETS, ids=[f"{n}-{len(o)}" for n, o in RULESETS])
def test_the_catalogue_gives_every_offered_action_the_encodings_index(name, options):
    ruleset = get_ruleset(name, options)
    catalogue = catalogue_of(ruleset)
    fresh = Encoding.for_options(ruleset.options)  # the index from the wire form, not from a memo the catalogue filled
    kinds: set[str] = set()
    offered = 0
    for seed in range(12):
        rng = random.Random(seed)
        game = Game(ruleset, 2 + seed % 4, rng, log_events=False)
        while not game.over:
            legal = game.legal_actions()
            expected = [fresh.index_of(a.to_wire()) for a in legal]
            assert [catalogue.index(a) for a in legal] == expected
            assert catalogue.indices(legal) == expected
            # An equal action that is another object (as a bot's answer is) has the same index.
            assert catalogue.index(Action.from_wire(legal[0].to_wire())) == expected[0]
            kinds.update(f"{a.kind}{len(a.cards)}" for a in legal)
            offered += len(legal)
            game.apply(rng.choice(legal), rng)
    assert {"draw0", "play1"} <= kinds and offered > 1000
    if name == "arcade":
        assert any(kind.startswith("play") and kind != "play1" for kind in kinds)  # multi-plays, by index_of
    if name == "family":
        assert "colour0" in kinds or "pass0" in kinds
