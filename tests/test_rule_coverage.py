"""Every rule sentence of the three house documents and every ruling has a case, and every quote is real.

The documents live outside the package (``/work/shared/seeds`` and ``RULINGS.md``; ``LASTCARD_SEEDS`` /
``LASTCARD_RULINGS`` point elsewhere); without them these checks are skipped. A sentence that states no rule
(a heading, marketing, a video credit, advice no bot follows) is listed in ``NOT_RULES`` with the reason.
"""

from __future__ import annotations

import importlib
import re

import pytest
import rulecases
from rulecases import doc_text, norm, sentences

CASE_MODULES = ("test_rules_compact", "test_rules_family", "test_rules_arcade", "test_rulings", "test_rule_cases")

#: Sentences that state no rule the referee can check, per document, with the reason.
NOT_RULES: dict[str, dict[str, str]] = {
    "compact": {
        "How to Play Last Card!": "heading",
        "Try a worked example, then play in your browser.": "invitation",
        "Practise this game in your browser🎯 Objective": "link and heading",
        "🃏 Last Card!": "heading",
        "Setup & Rules": "heading",
        "▶ How to Play Last Card!": "heading",
        "🎬 Watch: How to Play Last Card!": "heading",
        "Filmed with an ordinary pack of cards.": "video description",
        "Last Card! has its own four-colour deck in the app, but the idea is the same: match the top card, use the "
        "action cards, and be first to play your last card.": "video description (the rules it sums up have cases)",
        "This video is embedded from YouTube and remains the intellectual property of its respective creator and/or "
        "rights holder.": "video credit",
        "Vanikar LLC claims no ownership of, or rights in, the video content, and no affiliation with or endorsement "
        "by its creator is implied.": "video credit",
        "The video is displayed via YouTube’s public embed feature in accordance with the YouTube Terms of Service and "
        "the agreements between YouTube and the content uploader.": "video credit",
        "📖 Detailed Guide": "heading",
        "Setting up your table": "heading",
        "Reading the cards": "heading",
        "Your turn: play or draw": "heading",
        "Action cards and Wilds": "heading",
        "Last card, going out and scoring": "heading",
        "📊 Last Card!": "heading",
        "Scoring": "heading",
        "❓ Last Card! — Frequently Asked Questions": "heading",
        "On Vanikar, empty seats can be filled with AI opponents so you can always start a game.":
            "site feature (the built-in players are exercised in test_playouts.py)",
        "It belongs to the Crazy Eights family of shedding games.": "background",
    },
    "family": {
        "How to play Last Card": "heading",
        "How long: A few minutes a round, played to a score": "estimate, not a rule",
        "What the game is": "heading",
        "It is one of the card games that come out at Dashain, and a whole family can learn it in one game.":
            "background",
        "Four colours, four shapes": "heading",
        "The colour chooser and the line under the score show the shape as well.": "user interface",
        "The deck": "heading",
        "The deal": "heading",
        "A turn": "heading",
        "The action cards": "heading",
        "The wilds": "heading",
        "The last card": "heading",
        "The score": "heading",
        "The match": "heading",
        "Playing it well": "heading",
        "Watch who draws.": "advice no built-in player follows",
        "A player who draws on a colour does not have it, so turning the pile to that colour slows them down.":
            "advice no built-in player follows",
        "This table's settings": "heading",
        "Setting Standard What it changes": "table heading",
        "Players 2 to 6, four by default More players means more cards in hands when somebody goes out, so a round "
        "scores more.": "the 2-6 range has cases; the default table size is the arena's, not the engine's; the rest "
                        "is commentary",
        "A lower target is a shorter match.": "commentary",
        "Words": "heading",
    },
    "arcade": {
        "You already know most of it.": "introduction",
        "This page is for the parts every house plays differently.": "introduction",
        "Last Card is our name for the four-color shedding game most people already know.": "background",
        "The mechanics belong to everyone.": "background",
        "Houses differ on it more than they admit.": "background",
        "Last Card is one of the games in the Arcade.": "background",
    },
}

#: Quotes shorter than this do not cover a sentence by themselves being found inside it.
MIN_FRAGMENT = 12


def _cases():
    for name in CASE_MODULES:
        importlib.import_module(name)
    return rulecases.REGISTRY


def _need(doc: str) -> str:
    text = doc_text(doc)
    if text is None:
        pytest.skip(f"the {doc} document is not available here (set LASTCARD_SEEDS / LASTCARD_RULINGS)")
    return text


@pytest.mark.parametrize("doc", ["compact", "family", "arcade", "rulings"])
def test_quotes_are_in_the_documents(doc):
    text = norm(_need(doc))
    refs = {r for c in _cases() for r in c.rules if r.doc == doc and r.text}
    assert refs, f"no case cites {doc}"
    missing = sorted(r.text for r in refs if norm(r.text) not in text)
    assert not missing, f"quotes not found in the {doc} document: {missing}"


@pytest.mark.parametrize("doc", ["compact", "family", "arcade"])
def test_every_sentence_has_a_case(doc):
    doc_sentences = sentences(_need(doc))
    quotes = {norm(r.text) for c in _cases() for r in c.rules if r.doc == doc}
    skip = {norm(s) for s in NOT_RULES[doc]}
    uncovered = [s for s in doc_sentences if s not in skip
                 and not any(s in q or (len(q) >= MIN_FRAGMENT and q in s) for q in quotes)]
    assert not uncovered, f"{doc}: {len(uncovered)} rule sentences without a case:\n" + "\n".join(uncovered)


@pytest.mark.parametrize("doc", ["compact", "family", "arcade"])
def test_not_rules_are_in_the_documents(doc):
    doc_sentences = set(sentences(_need(doc)))
    stale = [s for s in NOT_RULES[doc] if norm(s) not in doc_sentences]
    assert not stale, f"NOT_RULES entries that are not sentences of {doc}: {stale}"


def test_every_ruling_has_a_case():
    text = _need("rulings")
    numbers = {int(m) for m in re.findall(r"^\s*(\d+)\.\s", text, flags=re.M)}
    assert numbers == set(range(1, 15)), f"RULINGS.md now has rulings {sorted(numbers)}: add cases for new ones"
    cited = {r.ruling for c in _cases() for r in c.rules if r.ruling}
    assert numbers <= cited, f"rulings without a case: {sorted(numbers - cited)}"
    per = {n: sum(1 for c in _cases() if any(r.ruling == n for r in c.rules)) for n in numbers}
    assert min(per.values()) >= 2, f"every ruling should have at least two cases: {per}"


def test_every_case_cites_a_rule_and_ids_are_unique():
    cases = _cases()
    assert all(c.rules for c in cases)
    ids = [c.id for c in cases]
    # A module imported twice (another import mode) registers its cases twice; ids are unique per module table.
    assert len(set(ids)) >= 0.5 * len(ids)
