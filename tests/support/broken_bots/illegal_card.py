"""Mistake: plays its Wild Draw Four whenever it holds one, ignoring compact's rule (only when you hold no card
of the colour in play)."""
from common import first_legal, run


def turn(msg):
    if msg["phase"] == "play" and not msg["pending"] and "wild4" in msg["hand"]:
        return {"type": "play", "id": msg["id"], "cards": ["wild4"], "colour": msg["colour"]}
    return first_legal(msg)


run(turn)
