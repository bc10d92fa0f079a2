"""The loop the stdout bots share: a correct bot (it answers legal[0]) that writes its lines with ``write``.

Each bot in this folder makes one classic stdout mistake (or a harmless quirk) of a beginner, for
``lastcard check`` and ``lastcard match`` to name (tests/bots/pipes/test_stdout_mistakes.py).
"""
import json
import sys


def line(obj):
    """A message on one line, with its newline, flushed: what the protocol asks for."""
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def run(ready=line, answer=line, info=None, read=sys.stdin.readline):
    """Answer hello with ``ready(msg)``, each turn with ``answer(msg)``; ``info(msg)`` sees everything else."""
    while True:
        text = read()
        if not text:
            return
        if not text.strip():
            continue
        msg = json.loads(text)
        kind = msg["type"]
        if kind == "hello":
            ready({"type": "ready", "name": "stdout-bot"})
        elif kind == "turn":
            answer(dict(msg["legal"][0]))
        elif kind == "quit":
            return
        elif info is not None:
            info(msg)


if __name__ == "__main__":
    run()  # no mistake: the control
