"""Mistake: answers information (start, event, round_end, game_end) that needs no answer."""
from common import run, send

run(info=lambda msg: send({"type": "draw"}))
