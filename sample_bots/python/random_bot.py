#!/usr/bin/env python3
"""A random Last Card bot: the smallest correct bot, and a starting point.

The protocol (protocol/PROTOCOL.md) is spoken by botkit.py, the bot kit beside this file (a copy of
referee/botkit.py, so the bot needs nothing installed and runs sandboxed): on each `turn` the bot
answers with one element of `legal`, chosen uniformly at random and written back unchanged.

The random generator is seeded from the environment variable LASTCARD_SEED
(default 1) and the game's id and seat at the start of every game, so the same
seed and the same game give the same moves, whatever games this process
played before (an arena with several workers hands games out in any order).

Run:  python3 sample_bots/python/random_bot.py
Only JSON protocol lines may go to stdout; debugging goes to stderr.
"""
import os
import random

import botkit

rng = random.Random(os.environ.get("LASTCARD_SEED", "1"))


def game_seed(msg):
    """A seed made of LASTCARD_SEED, the game's id and our seat (a string seeds deterministically)."""
    return f"{os.environ.get('LASTCARD_SEED', '1')}:{msg.get('game')}:{msg.get('you')}"


def on_message(msg, table):
    if msg.get("type") == "start" and msg.get("round") == 1:
        rng.seed(game_seed(msg))  # a new game: moves depend on this game only


def choose(turn):
    # Every element of `legal` is a complete answer carrying the id.
    return rng.choice(turn.legal)


if __name__ == "__main__":
    botkit.run(choose, "python-random", ready={"author": "lastcard", "version": "1"}, on_message=on_message)
