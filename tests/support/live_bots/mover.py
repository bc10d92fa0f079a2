#!/usr/bin/env python3
"""A bot that takes ``PACE_MS`` (its first argument) over each move, then plays the first legal answer: a game of it
is played slowly enough for the live page's now-playing view to follow it turn by turn."""
import json
import sys
import time

pace = float(sys.argv[1]) / 1000 if len(sys.argv) > 1 else 0.05
for line in sys.stdin:
    msg = json.loads(line)
    kind = msg.get("type")
    if kind == "hello":
        print(json.dumps({"type": "ready", "name": "mover"}), flush=True)
    elif kind == "turn":
        time.sleep(pace)
        print(json.dumps(msg["legal"][0]), flush=True)
    elif kind == "quit":
        break
