"""Zoé's bot: plays the most cards it can, drawing only when it must; debug text goes to stderr."""
import json
import sys

for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        print(json.dumps({"type": "ready", "name": "zoe"}), flush=True)
    elif msg["type"] == "turn":
        best = max(msg["legal"], key=lambda a: (len(a.get("cards", [])), a["type"] != "draw"))
        print(f"move {msg['move']}: {best}", file=sys.stderr)
        print(json.dumps(best), flush=True)
    elif msg["type"] == "quit":
        break
