"""Mistake: it answers start, which is information, not a request."""
from loop import line, run

run(info=lambda msg: line({"type": "draw"}) if msg["type"] == "start" else None)
