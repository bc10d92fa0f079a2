"""A bot that writes debug notes: at each request, ``request ID`` and some markup on stderr and a log message.

    python notes.py              each turn: stderr "request ID: <b>hand N</b>" and a log "<i>log ID</i>"
    python notes.py flood        each turn also 40 KB of stderr and 10 log messages of 4 KB (past any budget)
    python notes.py crash K      raises at its K-th request: its traceback goes to stderr, then it dies
Before ``ready`` it writes "starting <script>" on stderr (a note from before its first turn).
"""

import json
import sys

mode = sys.argv[1] if len(sys.argv) > 1 else ""
crash_at = int(sys.argv[2]) if mode == "crash" else -1
asked = 0
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        print("starting <script>alert(1)</script>", file=sys.stderr, flush=True)
        print(json.dumps({"type": "ready", "name": "notes"}), flush=True)
    elif msg["type"] == "turn":
        asked += 1
        print(f"request {msg['id']}: <b>hand {len(msg['hand'])}</b>", file=sys.stderr, flush=True)
        print(json.dumps({"type": "log", "text": f"<i>log {msg['id']}</i>"}), flush=True)
        if mode == "flood":
            sys.stderr.write("x" * 40000 + "\n")
            sys.stderr.flush()
            for _ in range(10):
                print(json.dumps({"type": "log", "text": "y" * 4000}), flush=True)
        if asked == crash_at:
            raise RuntimeError(f"boom at request {msg['id']}")
        print(json.dumps(msg["legal"][0]), flush=True)
    elif msg["type"] == "quit":
        break
