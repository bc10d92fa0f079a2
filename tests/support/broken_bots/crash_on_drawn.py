"""Mistake: crashes when asked to play or keep a card it has just drawn (phase "drawn")."""
from common import first_legal, run


def turn(msg):
    if msg["phase"] == "drawn":
        raise RuntimeError("a second turn request in one turn? (phase 'drawn' not handled)")
    return first_legal(msg)


run(turn)
