"""Last Card as reinforcement-learning environments over the referee's own engine (docs/rl.md).

``env()`` / ``raw_env()``: a PettingZoo AEC environment, every seat an agent, shaped like PettingZoo's
classic games. ``SingleAgentEnv``: a Gymnasium environment for one learner against bot specs;
``VectorSingleAgentEnv``: N of those stepped together, in numpy batches (Gymnasium's vector API). Both give
``{"observation": ..., "action_mask": ...}`` encoded by ``referee.botkit``, as a bot in a match sees it.
Needs the ``rl`` extra's two packages: ``pip install 'pettingzoo>=1.24' 'gymnasium>=1.0'`` into the referee's
environment (that keeps the build installed; ``pip install -e '.[rl]'`` would reinstall the referee itself, as
the pure-Python build).
"""

from __future__ import annotations

try:
    import gymnasium
    import pettingzoo  # noqa: F401
except ImportError as exc:  # pragma: no cover - depends on the installation
    raise ModuleNotFoundError(f"referee.env needs PettingZoo and Gymnasium ({exc}): pip install 'pettingzoo>=1.24' "
                              f"'gymnasium>=1.0' (the rl extra's packages; this keeps the referee as installed, "
                              f"compiled or not)", name=exc.name) from None

from referee.botkit import Encoding
from referee.env.aec import env, raw_env
from referee.env.single import SingleAgentEnv
from referee.env.vector import VectorSingleAgentEnv
from referee.env.view import Observer, place_rewards, seat_fields

#: ``gymnasium.make(GYM_ID, ruleset=..., seats=..., opponents=[...])`` builds a ``SingleAgentEnv``.
GYM_ID = "lastcard/LastCard-v0"
if GYM_ID not in gymnasium.registry:
    gymnasium.register(id=GYM_ID, entry_point="referee.env.single:SingleAgentEnv")

__all__ = ["GYM_ID", "Encoding", "Observer", "SingleAgentEnv", "VectorSingleAgentEnv", "env", "place_rewards",
           "raw_env", "seat_fields"]
