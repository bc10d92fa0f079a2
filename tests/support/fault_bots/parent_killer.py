"""A bot that kills its parent (the referee's worker) with SIGKILL at its third turn.

With a marker file as the first argument it does so only once (the marker remembers), then plays fairly:
a worker that died, not a game that always kills.
"""

import json
import os
import signal
import sys

MARKER = sys.argv[1] if len(sys.argv) > 1 else None
turns = 0

for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        print(json.dumps({"type": "ready", "name": "parent-killer"}), flush=True)
    elif msg["type"] == "turn":
        turns += 1
        if turns == 3 and not (MARKER and os.path.exists(MARKER)):
            if MARKER:
                open(MARKER, "w").close()
            os.kill(os.getppid(), signal.SIGKILL)
        print(json.dumps(msg["legal"][0]), flush=True)
    elif msg["type"] == "quit":
        break
