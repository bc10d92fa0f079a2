#!/usr/bin/env python3
"""A bot that takes its time at each game's end (``PACE_MS``, its first argument), then plays the first legal
answer: an arena of it lasts seconds on either build, so a live page sees its standings change."""
import json
import sys
import time

pace = float(sys.argv[1]) / 1000 if len(sys.argv) > 1 else 0.02
for line in sys.stdin:
    msg = json.loads(line)
    kind = msg.get("type")
    if kind == "hello":
        print(json.dumps({"type": "ready", "name": "pacer"}), flush=True)
    elif kind == "game_end":  # once a game (a game has many rounds, each with its start)
        time.sleep(pace)
    elif kind == "turn":
        print(json.dumps(msg["legal"][0]), flush=True)
    elif kind == "quit":
        break
