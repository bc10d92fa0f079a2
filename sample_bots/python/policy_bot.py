#!/usr/bin/env python3
"""A trained Last Card bot: a linear policy (policy.npz, made by examples/train_policy.py) picks every move.

botkit.py (the bot kit, a copy of referee/botkit.py) speaks the protocol and gives each turn the same
observation and action mask as referee.env, where the policy was trained; linear_policy.py scores the
legal actions and the bot plays the best. It needs numpy: run it with the Python that has lastcard
installed (an arena's `{python}`), e.g.

    lastcard match -r family ".venv/bin/python sample_bots/python/policy_bot.py" builtin:random
    lastcard check ".venv/bin/python sample_bots/python/policy_bot.py"

Another policy file: `policy_bot.py FILE.npz` (examples/train_policy.py writes policy-trained.npz beside this
file; relative to the folder the bot is started in, else to this one), or LASTCARD_POLICY. Inside the bot's
folder, or a folder the sandbox shows, when the bot runs sandboxed.
"""
import os
import sys

import numpy as np

import botkit
from linear_policy import LinearPolicy

HERE = os.path.dirname(os.path.abspath(__file__))


def policy_file():
    """The file named on the command line (from where the bot started, else beside it), LASTCARD_POLICY, or the
    shipped policy.npz."""
    named = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("LASTCARD_POLICY")
    if not named:
        return os.path.join(HERE, "policy.npz")
    return named if os.path.exists(named) else os.path.join(HERE, named)


policy = LinearPolicy.load(policy_file())


def choose(turn):
    index = policy.act(np.asarray(turn.observation, dtype=np.float32), np.asarray(turn.action_mask), turn.encoding)
    return turn.answer_for(index)


if __name__ == "__main__":
    botkit.run(choose, "python-policy", ready={"author": "lastcard", "version": str(policy.meta.get("episodes", ""))})
