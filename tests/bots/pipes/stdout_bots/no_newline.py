"""Mistake: the answer is written and flushed without its newline; then the bot waits for the next message."""
import json
import sys

from loop import run


def bare(obj):
    sys.stdout.write(json.dumps(obj))
    sys.stdout.flush()


run(answer=bare)
