"""Ada's bot: plays a random legal move (seeded by the game, so a game replays exactly)."""
import json
import random
import sys

rng = random.Random(0)
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        print(json.dumps({"type": "ready", "name": "ada"}), flush=True)
    elif msg["type"] == "start":
        rng = random.Random(f"{msg.get('game')}:{msg.get('you')}")
    elif msg["type"] == "turn":
        print(json.dumps(rng.choice(msg["legal"])), flush=True)
    elif msg["type"] == "quit":
        break
