"""Mistake: treats quit like a turn and crashes on it (a traceback and exit status 1 instead of a clean exit)."""
from common import run


def on_quit(msg):
    print(msg["legal"][0])  # KeyError: quit has no legal list


run(on_quit=on_quit)
