"""Mistake: every message pretty-printed over several lines (json.dumps(msg, indent=2))."""
import json

from loop import run


def pretty(obj):
    print(json.dumps(obj, indent=2), flush=True)


run(ready=pretty, answer=pretty)
