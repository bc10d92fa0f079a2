"""Train a Last Card player with REINFORCE (numpy only), then enter it in a match.

    .venv/bin/python examples/train_policy.py                 # family, 4 seats, against builtin:random
    .venv/bin/python examples/train_policy.py --episodes 200 --out /tmp/policy.npz
    lastcard match -r family ".venv/bin/python sample_bots/python/policy_bot.py policy-trained.npz" \
        builtin:random builtin:random builtin:random

It writes ``sample_bots/python/policy-trained.npz`` by default: a new file beside the policy bot, never the
shipped ``policy.npz`` (give ``--out sample_bots/python/policy.npz`` to replace that on purpose).

The learner trains on ``referee.env.VectorSingleAgentEnv`` (``--envs`` tables at once, each a
``SingleAgentEnv`` game: the referee's own engine and seats) against the opponent, single rounds
(``target=round``) so that every episode is short; the reward is the placement (+1 first, -1 last). The policy is ``sample_bots/python/linear_policy.py``'s, and the policy bot there
plays the saved file unchanged; evaluation plays seeded games in ``SingleAgentEnv``. See docs/rl.md.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
#: The file a training run writes unless told otherwise: beside the policy bot, never the shipped policy.npz.
TRAINED = "policy-trained.npz"
sys.path.insert(0, str(ROOT / "sample_bots" / "python"))  # linear_policy.py and the bot kit it imports

from linear_policy import LinearPolicy  # noqa: E402

from referee.env import SingleAgentEnv, VectorSingleAgentEnv  # noqa: E402


class Adam:
    """The Adam step for one array of parameters (ascending: the gradient is of the expected reward)."""

    def __init__(self, shape: tuple[int, ...], lr: float) -> None:
        self.lr = lr
        self.m = np.zeros(shape)
        self.v = np.zeros(shape)
        self.t = 0

    def step(self, params: np.ndarray, grad: np.ndarray) -> None:
        self.t += 1
        self.m = 0.9 * self.m + 0.1 * grad
        self.v = 0.999 * self.v + 0.001 * grad * grad
        m = self.m / (1 - 0.9 ** self.t)
        v = self.v / (1 - 0.999 ** self.t)
        params += self.lr * m / (np.sqrt(v) + 1e-8)


def make_env(args: argparse.Namespace, opponent: str) -> SingleAgentEnv:
    options = {"target": "round"} if args.ruleset != "compact" else {}
    return SingleAgentEnv(args.ruleset, args.seats, opponents=[opponent], options=options)


def episode(env: SingleAgentEnv, policy: LinearPolicy, seed: int,
            rng: np.random.Generator | None) -> tuple[float, list[tuple[np.ndarray, np.ndarray]], bool]:
    """One game; its reward, each decision's (features minus their expectation, inputs), and whether it won."""
    obs, _ = env.reset(seed=seed)
    encoding = env.observer.encoding
    steps = []
    total, done, info = 0.0, False, {}
    while not done:
        legal, probs, feats, x = policy.probabilities(obs["observation"], obs["action_mask"], encoding)
        pick = int(np.argmax(probs)) if rng is None else int(rng.choice(len(legal), p=probs))
        steps.append((feats[pick] - probs @ feats, x))
        obs, reward, done, _, info = env.step(int(legal[pick]))
        total += reward
    won = info["result"]["placements"][env.learner] == 1
    return total, steps, won


def evaluate(env: SingleAgentEnv, policy: LinearPolicy, games: int, seed: int,
             rng: np.random.Generator | None = None) -> tuple[float, float]:
    """Mean reward and win rate over ``games`` seeded games: the greedy policy, or sampling from it with ``rng``."""
    rewards, wins = 0.0, 0
    for g in range(games):
        reward, _, won = episode(env, policy, seed + g, rng)
        rewards += reward
        wins += won
    return rewards / games, wins / games


def train(args: argparse.Namespace) -> dict[str, Any]:
    """Train on ``--envs`` tables at once, evaluate against the opponent (and the untrained policy), save."""
    options = {"target": "round"} if args.ruleset != "compact" else {}
    tables = VectorSingleAgentEnv(args.envs, args.ruleset, args.seats, opponents=[args.opponent], options=options)
    policy = LinearPolicy(meta={"ruleset": args.ruleset, "seats": args.seats, "opponent": args.opponent,
                                "episodes": args.episodes, "seed": args.seed})
    adam = Adam(policy.weights.shape, args.lr)
    rng = np.random.default_rng(args.seed)
    baseline = 0.0
    grad = np.zeros_like(policy.weights)
    steps: list[list[tuple[np.ndarray, np.ndarray]]] = [[] for _ in range(args.envs)]
    totals = np.zeros(args.envs)
    obs, _ = tables.reset(seed=args.seed * 1_000_003)
    dealing = np.zeros(args.envs, dtype=bool)  # a slot whose game ended: the next step deals it again
    encoding, ep, t0 = tables.observer.encoding, 0, time.monotonic()
    while ep < args.episodes:
        actions = np.zeros(args.envs, dtype=np.int64)
        for i in np.flatnonzero(~dealing & obs["action_mask"].any(axis=1)):
            legal, probs, feats, x = policy.probabilities(obs["observation"][i], obs["action_mask"][i], encoding)
            pick = int(rng.choice(len(legal), p=probs))
            steps[i].append((feats[pick] - probs @ feats, x))
            actions[i] = legal[pick]
        obs, rewards, terminated, truncated, _ = tables.step(actions)
        totals += rewards
        dealing = terminated | truncated
        for i in np.flatnonzero(dealing)[:args.episodes - ep]:
            ep += 1
            advantage = totals[i] - baseline
            baseline += 0.02 * (totals[i] - baseline)
            for dpsi, x in steps[i]:  # the score function's gradient, weighted by how much better than usual it went
                grad += advantage * np.outer(dpsi, x)
            steps[i], totals[i] = [], 0.0
            if ep % args.batch == 0:
                adam.step(policy.weights, grad / args.batch)
                grad[:] = 0.0
            if args.verbose and ep % 500 == 0:
                print(f"episode {ep}: running mean reward {baseline:+.3f} ({time.monotonic() - t0:.0f} s)",
                      file=sys.stderr)
    tables.close()
    train_s = time.monotonic() - t0
    policy.meta["train_seconds"] = round(train_s, 1)
    env = make_env(args, args.opponent)
    mean, win = evaluate(env, policy, args.eval, seed=10**9)
    # All weights 0, sampled: a uniformly random legal action, as builtin:random plays.
    random_mean, random_win = evaluate(env, LinearPolicy(), args.eval, seed=10**9, rng=np.random.default_rng(0))
    env.close()
    policy.meta.update(eval_games=args.eval, eval_win_rate=win, eval_mean_reward=mean)
    if args.out:
        policy.save(args.out)
    return {"episodes": args.episodes, "train_seconds": train_s, "win_rate": win, "mean_reward": mean,
            "uniform_win_rate": random_win, "uniform_mean_reward": random_mean, "eval_games": args.eval}


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ruleset", default="family", choices=("compact", "family", "arcade"))
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--opponent", default="builtin:random", help="a bot spec for every other seat")
    parser.add_argument("--episodes", type=int, default=6000)
    parser.add_argument("--batch", type=int, default=20, help="episodes per update")
    parser.add_argument("--envs", type=int, default=16, help="tables played at once (VectorSingleAgentEnv)")
    parser.add_argument("--lr", type=float, default=0.02)
    parser.add_argument("--eval", type=int, default=1000, help="greedy games to evaluate the result on")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default=str(ROOT / "sample_bots" / "python" / TRAINED),
                        help=f"where to save the policy (default sample_bots/python/{TRAINED}: a new file, never the "
                             "shipped policy.npz; policy_bot.py FILE plays it)")
    parser.add_argument("--verbose", "-v", action="store_true")
    return parser.parse_args(argv)


def main() -> None:
    args = parse_args()
    got = train(args)
    n = got["eval_games"]
    se = math.sqrt(got["win_rate"] * (1 - got["win_rate"]) / n)
    print(f"{args.ruleset}, {args.seats} seats against {args.opponent}: {got['episodes']} episodes in "
          f"{got['train_seconds']:.0f} s")
    print(f"trained policy: wins {got['win_rate']:.1%} (+-{1.96 * se:.1%}) of {n} games, mean reward "
          f"{got['mean_reward']:+.3f}; untrained (uniform): wins {got['uniform_win_rate']:.1%}, "
          f"mean reward {got['uniform_mean_reward']:+.3f}")
    if args.out:
        saved = Path(args.out)
        where = "" if saved.parent == ROOT / "sample_bots" / "python" else f" (from {saved.parent})"
        print(f"saved {args.out}: play it with policy_bot.py {saved.name}{where}")


if __name__ == "__main__":
    main()
