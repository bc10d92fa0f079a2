"""A planted colluder for the collusion tests: it spares its friend (named on the command line) the cards that
hurt the next player (Draw Two, Wild Draw Four, Skip) and throws them at everyone else; otherwise it plays the
most cards it can. It finds its friend by the names in ``start.seats``: at a table whose names are hidden it
cannot, and plays as an honest bot of the same style (``aggro``)."""
import json
import sys

FRIEND = sys.argv[1] if len(sys.argv) > 1 else None
HURTS = (":draw2", ":skip")


def hurts(action):
    return action["type"] == "play" and any(c == "wild4" or c.endswith(HURTS) for c in action.get("cards") or [])


def choose(turn, names):
    legal = turn["legal"]
    seats = len(turn["hands"])
    following = (turn["you"] + turn["direction"]) % seats
    spare = FRIEND is not None and names.get(following) == FRIEND
    plays = [a for a in legal if a["type"] == "play"]
    if spare:
        gentle = [a for a in plays if not hurts(a)]
        if gentle or any(a["type"] != "play" for a in legal):
            plays = gentle  # rather draw than hit the friend
    elif any(hurts(a) for a in plays):
        plays = [a for a in plays if hurts(a)]
    if plays:
        return max(plays, key=lambda a: (len(a.get("cards") or []), json.dumps(a, sort_keys=True)))
    others = [a for a in legal if a["type"] != "play"]
    return others[0] if others else legal[0]


def main():
    names = {}
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "hello":
            print(json.dumps({"type": "ready", "name": "pal"}), flush=True)
        elif kind == "start":
            names = {s["seat"]: s["name"] for s in msg["seats"]}
        elif kind == "turn":
            print(json.dumps(choose(msg, names)), flush=True)
        elif kind == "quit":
            return


main()
