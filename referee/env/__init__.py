"""Last Card as reinforcement-learning environments over the referee's own engine (docs/rl.md).

``env()`` / ``raw_env()``: a PettingZoo AEC environment, every seat an agent, shaped like PettingZoo's
classic games. ``SingleAgentEnv``: a Gymnasium environment for one learner against bot specs. Both give
``{"observation": ..., "action_mask": ...}`` encoded by ``referee.botkit``, as a bot in a match sees it.
Needs the ``rl`` extra: ``pip install -e '.[rl]'``.
"""

from __future__ import annotations

try:
    import gymnasium  # noqa: F401
    import pettingzoo  # noqa: F401
except ImportError as exc:  # pragma: no cover - depends on the installation
    raise ImportError(f"referee.env needs PettingZoo and Gymnasium ({exc}): pip install -e '.[rl]'") from None

from ..botkit import Encoding
from .aec import env, raw_env
from .single import SingleAgentEnv
from .view import Observer, place_rewards, seat_fields

__all__ = ["Encoding", "Observer", "SingleAgentEnv", "env", "place_rewards", "raw_env", "seat_fields"]
