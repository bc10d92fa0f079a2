"""Mistake: answers with the id of the previous request instead of echoing the request's own id."""
from common import run


def turn(msg):
    return {**msg["legal"][0], "id": msg["id"] - 1}


run(turn)
