"""Mistake: the answer is valid JSON but not an object (the action's name as a JSON string)."""
import json
import sys

from loop import run


def name_only(obj):
    sys.stdout.write(json.dumps(obj["type"]) + "\n")
    sys.stdout.flush()


run(answer=name_only)
