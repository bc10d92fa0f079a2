"""Mistake: does slow set-up work on its first turn, over the move limit (do it before sending ready)."""
import time

from common import first_legal, run

state = {"ready": False}


def turn(msg):
    if not state["ready"]:
        time.sleep(0.6)  # building tables lazily
        state["ready"] = True
    return first_legal(msg)


run(turn)
