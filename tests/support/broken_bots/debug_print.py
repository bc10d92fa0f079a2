"""Mistake: a debug print on stdout before each answer (it belongs on stderr, or in a log message)."""
from common import first_legal, run


def turn(msg):
    print(f"thinking about turn {msg['id']}...", flush=True)
    return first_legal(msg)


run(turn)
