"""A fixed vector-env workload for instruction counts: repeatable where timed runs on a shared machine are not.

    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/tmp/v.out python bench/vector_callgrind.py
    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/tmp/v.0 python bench/vector_callgrind.py --steps 0

``VectorSingleAgentEnv`` (family, 2 seats, ``builtin:random`` opponents, ``--tables`` tables, seeded) stepped
``--steps`` times with the same uniformly random legal picks as ``bench/env_bench.py``. The difference of the
two runs' "I refs" is the steps' share (the second run is start-up, imports and the first deal). Run it once
more with ``--digest`` (not under valgrind: hashing every observation costs more than the steps): the digest
covers every observation, mask and reward, so two versions that print the same digest stepped the same games
to the same numbers, and their instruction counts compare like for like. issue 40's figures (docs/rl.md,
"Later" and "Later still") came from this script: 1,608 million instructions for 300 steps of 256 tables,
then 1,329, then 1,004 with the observations written in place.
Run it once without valgrind first (``__pycache__``), and on a compiled tree to measure the compiled build.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from referee import build  # noqa: E402
from referee.env import VectorSingleAgentEnv  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=256)
    ap.add_argument("--steps", type=int, default=300)
    ap.add_argument("--digest", action="store_true", help="hash every observation, mask and reward (slow)")
    args = ap.parse_args()
    env = VectorSingleAgentEnv(args.tables, "family", 2, opponents=["builtin:random"], seat=0)
    obs, _ = env.reset(seed=0)
    picks = np.random.default_rng(0)
    digest = hashlib.sha256()
    for _ in range(args.steps):
        mask = obs["action_mask"]
        obs, rewards, _, _, _ = env.step(np.argmax(picks.random(mask.shape, dtype=np.float32) + mask, axis=1))
        if args.digest:
            digest.update(obs["observation"].tobytes())
            digest.update(obs["action_mask"].tobytes())
            digest.update(rewards.tobytes())
    said = f", digest {digest.hexdigest()[:16]}" if args.digest else ""
    print(f"{args.steps} steps of {args.tables} tables ({build()}){said}")


if __name__ == "__main__":
    main()
