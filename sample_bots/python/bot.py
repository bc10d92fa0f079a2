#!/usr/bin/env python3
"""A Last Card bot in Python: the starting point of a student's folder (copy this folder, edit `choose`).

It speaks the protocol of protocol/PROTOCOL.md through botkit.py, the bot kit beside it (standard library
only, so the bot needs nothing installed and runs sandboxed): botkit answers `hello`, reads every message,
exits on `quit` or at the end of input, and asks `choose` at every `turn`.

`choose` gets the turn and returns one element of `turn.legal`: each element is a complete, legal answer,
written back as it came. The list has the plays first and `draw` or `pass` last, so the bot as it is plays
whenever it can. That is where your strategy goes; strong_bot.py beside it is a worked example.

What a turn holds (docs in protocol/PROTOCOL.md, "turn"):
  turn.hand      your cards, e.g. ["red:7", "wild", "blue:skip"]
  turn.top       the top card of the pile; turn.colour the colour in play (after a Wild, the one named)
  turn.hands     every seat's number of cards (turn.you is your seat); turn.direction 1 or -1
  turn.phase     "play", "drawn" (you drew: play the drawn card or pass) or "colour" (name a colour)
  turn.legal     the answers you may give: {"type": "play", "cards": [...], "colour": ..., "call": ...},
                 {"type": "draw"}, {"type": "pass"}, {"type": "colour", "colour": ...}
  turn.table.history   every message of this game before this turn (start, events), for counting cards

Debug output goes to stderr (print(..., file=sys.stderr)), never to stdout, which is the referee's.

Run:    python3 bot.py
Check:  lastcard check "python3 bot.py"     (from this folder, before handing it in)
"""
import sys

import botkit


def choose(turn):
    """The answer to one turn: an element of turn.legal, returned as it is."""
    # An idea to start from: keep Wilds for when nothing else plays (see strong_bot.py for more).
    #     plays = [a for a in turn.legal if a["type"] == "play" and a["cards"][-1] not in ("wild", "wild4")]
    #     if plays:
    #         return plays[0]
    return turn.legal[0]


if __name__ == "__main__":
    if "--help" in sys.argv[1:]:
        print(__doc__)
        sys.exit(0)
    botkit.run(choose, name="python-bot")
