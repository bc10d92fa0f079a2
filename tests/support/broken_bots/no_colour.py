"""Mistake: plays a wild without naming its colour (drops "colour" from the play)."""
from common import run


def turn(msg):
    answer = dict(msg["legal"][0])
    if answer["type"] == "play" and answer["cards"][-1] in ("wild", "wild4"):
        del answer["colour"]
    return answer


run(turn)
