#!/usr/bin/env python3
"""A random Last Card bot: the smallest correct bot, and a starting point.

It speaks the line-based JSON protocol of protocol/PROTOCOL.md on stdin/stdout:
  - `hello`  -> answer `ready` once;
  - `turn`   -> answer with one element of `legal`, chosen uniformly at random
                and written back unchanged;
  - `quit`   -> exit at once (so does end of input);
  - anything else (`start`, `event`, `round_end`, `game_end`, `error`, ...) is
    information only and is never answered.

The random generator is seeded from the environment variable LASTCARD_SEED
(default 1) and the game's id and seat at the start of every game, so the same
seed and the same game give the same moves, whatever games this process
played before (an arena with several workers hands games out in any order).

Run:  python3 sample_bots/python/random_bot.py
Only JSON protocol lines may go to stdout; debugging goes to stderr.
"""
import json
import os
import random
import sys


def send(obj):
    """Write one JSON object as one line and flush it at once."""
    print(json.dumps(obj, separators=(",", ":")), flush=True)


def debug(text):
    """Debug output goes to stderr: the referee keeps it for you to read."""
    print(text, file=sys.stderr, flush=True)


def game_seed(msg):
    """A seed made of LASTCARD_SEED, the game's id and our seat (a string seeds deterministically)."""
    return f"{os.environ.get('LASTCARD_SEED', '1')}:{msg.get('game')}:{msg.get('you')}"


def main():
    sys.stdin.reconfigure(encoding="utf-8", errors="replace")
    sys.stdout.reconfigure(encoding="utf-8")
    rng = random.Random(os.environ.get("LASTCARD_SEED", "1"))
    while True:
        line = sys.stdin.readline()
        if not line:  # end of input: the referee has gone
            return
        line = line.strip()  # drops "\n" and a trailing "\r"
        if not line:
            continue
        try:
            msg = json.loads(line)
        except ValueError:
            debug(f"ignoring a line that is not JSON: {line[:80]!r}")
            continue
        if not isinstance(msg, dict):
            continue
        kind = msg.get("type")
        if kind == "hello":
            send({"type": "ready", "name": "python-random",
                  "author": "lastcard", "version": "1"})
        elif kind == "start" and msg.get("round") == 1:
            rng.seed(game_seed(msg))  # a new game: moves depend on this game only
        elif kind == "turn":
            legal = msg.get("legal") or []
            if legal:
                # Every element of `legal` is a complete answer carrying the id.
                send(rng.choice(legal))
            else:
                debug(f"turn {msg.get('id')} came with no legal answers")
        elif kind == "quit":
            return
        # start / event / round_end / game_end / error: information, never answered.


if __name__ == "__main__":
    main()
    sys.exit(0)
