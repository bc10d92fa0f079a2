"""The loop from training to the arena: the example trainer, the policy it saves, the policy bot built on botkit.

The bot runs sandboxed (the default), importing botkit.py and linear_policy.py from its own folder.
"""

from __future__ import annotations

import importlib.util
import math
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from referee.check import CheckConfig, Status, run_check
from referee.cli.main import cli
from referee.engine.rules import PRESETS
from tests.conftest import PY, ROOT, SAMPLES

POLICY_BOT = f"{PY} {SAMPLES}/python/policy_bot.py"
GAMES = 200
#: A uniformly random seat of four wins a quarter of the games; four standard errors of N games above that.
BEATS_RANDOM = 0.25 + 4 * math.sqrt(0.25 * 0.75 / GAMES)


def trainer():
    pytest.importorskip("referee.env", reason="the rl extra (PettingZoo, Gymnasium) is not installed")
    spec = importlib.util.spec_from_file_location("train_policy", ROOT / "examples" / "train_policy.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
@pytest.mark.parametrize("house", list(PRESETS))
def test_the_policy_bot_passes_lastcard_check(house: str) -> None:
    report = run_check(POLICY_BOT, CheckConfig(rulesets=(house,), games=4, quiet_ms=100))
    assert report.failed_names == [] and report.count(Status.SKIPPED) == 0, report.failed_names


@pytest.mark.slow
def test_the_policy_bot_plays_a_match() -> None:
    result = CliRunner().invoke(cli, ["match", "-r", "arcade", "-n", "3", "--seed", "4", POLICY_BOT, "builtin:random"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    header = next(line for line in lines if line.startswith("rank"))
    row = next(line for line in lines if "policy_bot" in line)
    assert row.split()[2] == "3"  # three games
    at = header.index("faults")  # a left-aligned column: its cell starts under its header
    assert row[at:].split()[0] == "-"  # no faults


def test_a_short_training_run_learns_to_beat_random_and_saves_what_the_bot_loads(tmp_path: Path) -> None:
    train = trainer()
    out = tmp_path / "policy.npz"
    got = train.train(train.parse_args(["--episodes", "300", "--eval", str(GAMES), "--seed", "3", "--out", str(out)]))
    assert got["win_rate"] > BEATS_RANDOM > got["uniform_win_rate"]
    sys.path.insert(0, str(SAMPLES / "python"))
    try:
        from linear_policy import LinearPolicy
    finally:
        sys.path.remove(str(SAMPLES / "python"))
    loaded = LinearPolicy.load(str(out))
    assert loaded.meta["episodes"] == 300 and loaded.meta["eval_win_rate"] == got["win_rate"]
    assert np.count_nonzero(loaded.weights) > 1000  # it learned something in most weights


def test_the_shipped_policy_beats_random() -> None:
    train = trainer()
    sys.path.insert(0, str(SAMPLES / "python"))
    try:
        from linear_policy import LinearPolicy
    finally:
        sys.path.remove(str(SAMPLES / "python"))
    policy = LinearPolicy.load(str(SAMPLES / "python" / "policy.npz"))
    env = train.make_env(train.parse_args([]), "builtin:random")
    _, win = train.evaluate(env, policy, GAMES, seed=5)
    env.close()
    assert win > BEATS_RANDOM


def test_training_writes_a_new_file_by_default_never_the_shipped_policy() -> None:
    train = trainer()
    out = Path(train.parse_args([]).out)
    assert out.name == "policy-trained.npz" and out != SAMPLES / "python" / "policy.npz"
    assert out.parent == SAMPLES / "python"  # beside the bot: policy_bot.py policy-trained.npz plays it


@pytest.mark.slow
def test_the_policy_bot_plays_the_file_it_is_given(tmp_path: Path) -> None:
    mine = tmp_path / "mine.npz"
    shutil.copy(SAMPLES / "python" / "policy.npz", mine)
    # --sandbox none: the file is in a temporary folder the walls would hide (what they show is issue 52's item 4)
    args = ["match", "-r", "family", "-o", "target=round", "-n", "1", "--seed", "2", "--sandbox", "none"]
    played = CliRunner().invoke(cli, [*args, f"{POLICY_BOT} {mine}", "builtin:random"])
    assert played.exit_code == 0, played.output
    missing = CliRunner().invoke(cli, [*args, f"{POLICY_BOT} {tmp_path / 'none.npz'}", "builtin:random"])
    assert missing.exit_code == 1 and "none.npz" in missing.output  # it read the argument: no such file
