"""Built-in players asked in this process: seeded as the table seeds them, so asked first they make the stored
moves again; asked again with another seed, ``builtin:random`` answers differently and is named as random."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from referee.cli.main import cli
from referee.similar.asking import measure, plan
from referee.similar.builtin import builtin_answers

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> str:
    out = str(tmp_path_factory.mktemp("builtins") / "out")
    res = CliRunner().invoke(cli, ["match", "-n", "6", "--seed", "3", "--out", out, "--no-report", "builtin:random",
                                   "builtin:hard", "builtin:medium", "builtin:easy"])
    assert res.exit_code == 0, res.output
    return out


def test_asked_first_a_built_in_makes_the_moves_it_made_in_its_own_seat(played: str):
    p = plan(played, scripts=24, seed=1)
    checked = 0
    for script, stored in zip(p.scripts, p.games):
        name = stored.seating[script.seat]
        answers = builtin_answers(name, script, stored)
        stored_moves = {r.number: repr(r.action.key) for r in script.requests if len(r.legal) > 1}
        assert answers == stored_moves, (name, script.game, script.seat)
        checked += len(answers)
        if name == "random":  # asked again with another seed: not the same moves
            again = builtin_answers(name, script, stored, again=True)
            assert sum(again[n] == a for n, a in answers.items()) < len(answers)
    assert checked > 50


def test_built_ins_are_compared_and_builtin_random_is_named_as_random(played: str):
    result = measure(plan(played, scripts=12, seed=2), again=4)
    assert set(result.self_agreement) == {"random", "hard", "medium", "easy"}
    assert "random" in result.random_bots and result.self_agreement["random"] < 0.6
    assert result.self_agreement["hard"] == result.self_agreement["medium"] == 1.0  # they never draw
    pairs = {(p.a, p.b) for p in result.pairs}
    assert ("hard", "medium") in pairs and not any("random" in pair for pair in pairs)


def test_the_figures_do_not_depend_on_how_many_asks_run_at_once(played: str):
    p = plan(played, scripts=6, seed=5)
    assert measure(p, jobs=1) == measure(p, jobs=3)
