"""Token fingerprints by winnowing: a renamed copy matches whole, comments and names change nothing, the starter
code is left out (two unedited kits share nothing), programs in languages of one family share their common syntax,
and winnowing's guarantee holds (a shared run of W + K - 1 tokens is always found)."""

from __future__ import annotations

import random
from pathlib import Path

from referee.similar.fingerprints import K, Tok, W, base_prints, match, program, tokens_of, winnow

ROOT = Path(__file__).resolve().parents[2]
KITS = ROOT / "sample_bots"

C_BODY = """
int best(int *cards, int n, int top) {
    int pick = -1, most = 0;
    for (int i = 0; i < n; i++) {
        if (cards[i] % 10 == top % 10 && cards[i] > most) { most = cards[i]; pick = i; }
    }
    if (pick < 0) { return n - 1; }
    return pick;
}
"""
JS_BODY = """
function best(cards, n, top) {
    let pick = -1, most = 0;
    for (let i = 0; i < n; i++) {
        if (cards[i] % 10 == top % 10 && cards[i] > most) { most = cards[i]; pick = i; }
    }
    if (pick < 0) { return n - 1; }
    return pick;
}
"""


def test_names_comments_and_layout_change_nothing(tmp_path: Path):
    original = tmp_path / "a.py"
    original.write_text("def score(card, hand):\n    total = 0\n    for c in hand:\n        if c == card:\n"
                        "            total += 2\n        elif c[0] == card[0]:\n            total += 1\n"
                        "    return total * 3\n\n\ndef choose(turn):\n"
                        "    return max(turn['legal'], key=lambda a: score(a, turn['hand']))\n")
    renamed = tmp_path / "b.py"
    renamed.write_text("# my own bot!\ndef value(x, cards):\n    s = 0\n    for y in cards:  # each\n"
                       "        if y == x:\n"
                       "            s += 2\n        elif y[0] == x[0]:\n            s += 1\n    return s * 3\n\n\n"
                       "def choose(t):\n    return max(t['legal'], key=lambda z: value(z, t['hand']))\n")
    a, b = program("a", [str(original)]), program("b", [str(renamed)])
    assert a.prints and match(a, b).similarity == 1.0
    frags = match(a, b).fragments
    assert frags and frags[0].a_first == 1 and frags[0].b_first == 2  # the comment shifts the copy a line down


def test_unedited_kits_share_nothing_once_the_starter_code_is_left_out():
    base = base_prints(str(p) for p in KITS.rglob("*") if p.is_file() and p.suffix != ".md")
    ruby = [str(KITS / "ruby" / "bot.rb")]
    first, second = program("ada", ruby, base), program("bob", ruby, base)
    assert not first.prints and match(first, second).similarity == 0.0
    assert program("ada", ruby).prints  # without the base, the same files match whole
    python = [str(KITS / "python" / "strong_bot.py"), str(KITS / "python" / "botkit.py")]
    both = program("cy", python, base), program("dee", python, base)
    assert not both[0].prints and match(*both).similarity == 0.0  # no fingerprint spans two files of the kit


def test_languages_of_one_family_share_their_common_syntax(tmp_path: Path):
    (tmp_path / "bot.c").write_text(C_BODY)
    (tmp_path / "bot.js").write_text(JS_BODY)
    c, js = program("c", [str(tmp_path / "bot.c")]), program("js", [str(tmp_path / "bot.js")])
    found = match(c, js)
    assert found.shared >= 3 and found.similarity > 0.4  # the loop and the tests: token for token


def test_a_shared_run_of_w_plus_k_minus_1_tokens_is_always_found():
    rng = random.Random(3)
    words = [f"w{i}" for i in range(40)]
    for _ in range(30):
        run = [Tok(rng.choice(words), "x", 1) for _ in range(W + K - 1)]
        a = [Tok(rng.choice(words), "a", 1) for _ in range(rng.randint(0, 50))] + run
        b = run + [Tok(rng.choice(words), "b", 1) for _ in range(rng.randint(0, 50))]
        assert set(winnow(a)) & set(winnow(b))


def test_a_file_no_lexer_knows_has_no_tokens():
    assert tokens_of("notes.unknownext", "anything at all") == []
