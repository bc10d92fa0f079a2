"""Mistake: says ready, then never answers a turn (stuck thinking, or waiting for input it already has)."""
from common import run

run(lambda msg: None)
