#!/usr/bin/env python3
"""A trained Last Card bot: a linear policy (policy.npz, made by examples/train_policy.py) picks every move.

botkit.py (the bot kit, a copy of referee/botkit.py) speaks the protocol and gives each turn the same
observation and action mask as referee.env, where the policy was trained; linear_policy.py scores the
legal actions and the bot plays the best. It needs numpy: run it with the Python that has lastcard
installed (an arena's `{python}`), e.g.

    lastcard match -r family ".venv/bin/python sample_bots/python/policy_bot.py" builtin:random
    lastcard check ".venv/bin/python sample_bots/python/policy_bot.py"

LASTCARD_POLICY names another policy file (inside the bot's folder when the bot runs sandboxed).
"""
import os

import numpy as np

import botkit
from linear_policy import LinearPolicy

HERE = os.path.dirname(os.path.abspath(__file__))
policy = LinearPolicy.load(os.environ.get("LASTCARD_POLICY") or os.path.join(HERE, "policy.npz"))


def choose(turn):
    index = policy.act(np.asarray(turn.observation, dtype=np.float32), np.asarray(turn.action_mask), turn.encoding)
    return turn.answer_for(index)


if __name__ == "__main__":
    botkit.run(choose, "python-policy", ready={"author": "lastcard", "version": str(policy.meta.get("episodes", ""))})
