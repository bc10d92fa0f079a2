"""Answers its third turn with two JSON messages on one line (the second a log), then plays on correctly."""
import json
import sys

turns = 0
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        out = {"type": "ready", "name": "two-on-a-line"}
    elif msg["type"] == "turn":
        turns += 1
        out = dict(msg["legal"][0])
        if turns == 3:
            sys.stdout.write(json.dumps(out) + json.dumps({"type": "log", "text": "hi"}) + "\n")
            sys.stdout.flush()
            continue
    elif msg["type"] == "quit":
        break
    else:
        continue
    sys.stdout.write(json.dumps(out) + "\n")
    sys.stdout.flush()
