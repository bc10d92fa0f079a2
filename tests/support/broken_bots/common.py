"""The loop every broken bot shares: a correct bot (answer legal[0]) unless a hook changes one thing.

Each bot in this folder is one classic mistake, for ``lastcard check`` to find (tests/check/test_bots.py).
Run one as ``python3 tests/support/broken_bots/NAME.py``.
"""
import json
import os
import sys

# Tests set this to keep every line the referee wrote (to check those messages against the schemas).
TRANSCRIPT = os.environ.get("LASTCARD_TRANSCRIPT")


def send(obj):
    print(json.dumps(obj, separators=(",", ":")), flush=True)


def first_legal(msg):
    return msg["legal"][0]


def run(turn=first_legal, info=None, on_quit=None, ready=None):
    """Answer hello with ``ready``, each turn with ``turn(msg)``; ``info(msg)`` sees everything else."""
    for line in sys.stdin:
        if TRANSCRIPT:
            with open(TRANSCRIPT, "a") as fh:
                fh.write(line)
        line = line.strip()
        if not line:
            continue
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "hello":
            send(ready or {"type": "ready", "name": "broken"})
        elif kind == "turn":
            answer = turn(msg)
            if answer is not None:
                send(answer)
        elif kind == "quit":
            if on_quit is not None:
                on_quit(msg)
            return
        elif info is not None:
            info(msg)


if __name__ == "__main__":
    run()  # no mistake: the control that passes every check
