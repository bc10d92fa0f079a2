"""The similarity figures, computed exactly on small answer tables."""

from __future__ import annotations

import pytest

from referee.similar.agreement import chance_agreement, similarity


def test_chance_is_the_probability_that_two_of_the_class_agree():
    assert chance_agreement(["a", "a", "b", "c"]) == pytest.approx(2 / 12)  # one pair of a's among 4 * 3 ordered
    assert chance_agreement(["a", "a", "a"]) == 1.0
    assert chance_agreement(["a", None]) is None


def test_identical_play_is_kappa_one_and_independent_play_near_zero():
    # Four bots, eight points: x copies y; z and w each do their own thing.
    answers = {"x": list("abababab"), "y": list("abababab"), "z": list("aabbaabb"), "w": list("babaabba")}
    s = similarity(answers, {b: a[:2] for b, a in answers.items()})
    pair = {(p.a, p.b): p for p in s.pairs}
    assert pair[("x", "y")].agree == 1.0 and pair[("x", "y")].kappa == 1.0
    # At each point the class splits 2-2 or 3-1: chance is (2 + 2) / 12 or 6 / 12, the mean over the points.
    chances = [chance_agreement([answers[b][i] for b in "xyzw"]) for i in range(8)]
    assert pair[("x", "y")].baseline == pytest.approx(sum(chances) / 8)  # type: ignore[arg-type]
    assert s.pairs[0].a == "x" and s.pairs[0].b == "y"  # closest first
    assert all(p.kappa < 0.6 for p in s.pairs if (p.a, p.b) != ("x", "y"))


def test_a_bot_that_answers_differently_when_asked_again_is_random_and_left_out_of_the_pairs():
    answers = {"x": list("abab"), "y": list("abab"), "r": list("aabb")}
    s = similarity(answers, {"x": list("ab"), "y": list("ab"), "r": list("ba")})
    assert s.random_bots == ["r"]
    assert {(p.a, p.b) for p in s.pairs} == {("x", "y")}


def test_bots_asked_different_points_are_refused():
    with pytest.raises(ValueError, match="the same points"):
        similarity({"x": ["a"], "y": ["a", "b"]}, {})
