"""Mistake: hangs once a game is a few moves old (an endless loop in code the scripted situations never reach;
the fuzz games find it)."""
import time

from common import first_legal, run


def turn(msg):
    if msg["move"] >= 10:
        while True:
            time.sleep(1)
    return first_legal(msg)


run(turn)
