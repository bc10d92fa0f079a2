"""Mistake: two messages on one line (a log and the answer, written without a newline between them)."""
import json
import sys

from loop import run


def two(obj):
    sys.stdout.write(json.dumps({"type": "log", "text": "my move"}) + json.dumps(obj) + "\n")
    sys.stdout.flush()


run(answer=two)
