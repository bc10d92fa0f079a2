"""Mistake: input("> ") writes its prompt to stdout, so the ready line starts with "> "."""
import sys

from loop import run


def prompted():
    try:
        return input("> ") + "\n"
    except EOFError:
        return ""


sys.stdout.reconfigure(line_buffering=True)
run(read=prompted)
