"""A bot with one deliberate mistake for the position suites: it lays the legal play with the most cards (a
sound rule) but never makes the last-card call, so it misses every position where the call counts."""

import json
import sys

for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        print(json.dumps({"type": "ready", "name": "most_cards"}), flush=True)
    elif msg["type"] == "turn":
        answer = dict(max(msg["legal"], key=lambda a: len(a.get("cards") or [])))
        answer.pop("call", None)
        answer["id"] = msg["id"]
        print(json.dumps(answer), flush=True)
    elif msg["type"] == "quit":
        break
