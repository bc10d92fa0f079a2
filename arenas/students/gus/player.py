"""Gus's bot: a draw when it may, else the first legal move (a cautious player)."""
import json
import sys

for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        print(json.dumps({"type": "ready", "name": "gus"}), flush=True)
    elif msg["type"] == "turn":
        draws = [a for a in msg["legal"] if a["type"] == "draw"]
        print(json.dumps((draws or msg["legal"])[0]), flush=True)
    elif msg["type"] == "quit":
        break
