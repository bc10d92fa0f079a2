"""A bot that writes down every byte it reads (to the file named by its first argument) and answers
the first legal move, or with ``last`` the last one; it says on stderr which request it answers."""

import json
import sys

tape = open(sys.argv[1], "ab") if len(sys.argv) > 1 and sys.argv[1] != "-" else None
pick = sys.argv[2] if len(sys.argv) > 2 else "first"

for line in sys.stdin.buffer:
    if tape is not None:
        tape.write(line)
        tape.flush()
    msg = json.loads(line)
    kind = msg["type"]
    if kind == "hello":
        print(json.dumps({"type": "ready", "name": "tape"}), flush=True)
    elif kind == "turn":
        print(f"tape: answering request {msg['id']} with the {pick} of {len(msg['legal'])}", file=sys.stderr,
              flush=True)
        answer = msg["legal"][-1 if pick == "last" else 0]
        print(json.dumps(answer), flush=True)
    elif kind == "quit":
        break
