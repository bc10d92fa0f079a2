"""Mistake: never answers hello (as a bot that forgets to flush its ready looks to the referee)."""
import sys

for _line in sys.stdin:
    pass
