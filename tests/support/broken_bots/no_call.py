"""Mistake: never makes the arcade last-card call (drops "call" from its plays)."""
from common import run


def turn(msg):
    answer = dict(msg["legal"][0])
    answer.pop("call", None)
    return answer


run(turn)
