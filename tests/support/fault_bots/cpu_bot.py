"""A bot for the clock tests: every turn it burns CPU, has a child burn it, or sleeps, then draws.

    cpu_bot.py MODE MS [CORE]
    MODE  burn: use MS ms of CPU time itself; fork: a forked child uses MS ms of CPU while the bot waits
          for it; sleep: sleep MS ms (no CPU)
    CORE  pin the bot (and its child) to this CPU, where the test's burners run
"""

import json
import os
import sys
import time

MODE, MS = sys.argv[1], float(sys.argv[2])
if len(sys.argv) > 3:
    os.sched_setaffinity(0, {int(sys.argv[3])})


def burn(ms: float) -> None:
    end = time.process_time() + ms / 1000  # CPU time, not wall: the same work whatever shares the core
    while time.process_time() < end:
        pass


for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        print(json.dumps({"type": "ready", "name": "cpu"}), flush=True)
    elif msg["type"] == "turn":
        if MODE == "burn":
            burn(MS)
        elif MODE == "fork":
            pid = os.fork()
            if pid == 0:
                burn(MS)
                os._exit(0)
            os.waitpid(pid, 0)
        elif MODE == "sleep":
            time.sleep(MS / 1000)
        print(json.dumps({"type": "draw", "id": msg["id"]}), flush=True)
    elif msg["type"] == "quit":
        break
