"""A bot that plays correctly until it makes one chosen mistake (the first argument names it)."""

import json
import os
import sys
import time

MODE = sys.argv[1] if len(sys.argv) > 1 else "good"
turns = 0
game = None


def send(obj):
    sys.stdout.write(json.dumps(obj, separators=(",", ":")) + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    msg = json.loads(line)
    kind = msg["type"]
    if kind == "hello":
        if MODE == "no_ready":
            time.sleep(60)
        if MODE == "never_ready":  # longer than any test waits
            time.sleep(600)
        if MODE == "startup_crash":
            sys.exit(3)
        if MODE == "startup_long_line":
            sys.stdout.write("x" * 70000 + "\n")
            sys.stdout.flush()
        if MODE == "startup_no_newline":  # ready, unended, then waits for the start
            sys.stdout.write(json.dumps({"type": "ready", "name": "unended"}))
            sys.stdout.flush()
            time.sleep(60)
        if MODE == "bad_version":
            send({"type": "ready", "name": "v9", "protocol": 9})
            continue
        send({"type": "ready", "name": "misbehave-" + MODE})
    elif kind == "start":
        game = msg["game"]
    elif kind == "game_end" and MODE == "log_after_end":
        send({"type": "log", "text": "that was game " + str(game)})
    elif kind == "turn":
        turns += 1
        answer = dict(msg["legal"][0])
        if turns < 3 or MODE == "good" or (MODE == "slow_once" and turns > 3):
            send(answer)
            continue
        if MODE == "timeout":
            time.sleep(60)
        elif MODE == "stall":  # says so on stderr (the referee's log of it), then never answers
            sys.stderr.write("stalling\n")
            sys.stderr.flush()
            time.sleep(600)
        elif MODE == "crash":
            os._exit(7)
        elif MODE == "non_json":
            print("thinking about", msg["hand"])
            sys.stdout.flush()
        elif MODE == "schema":
            send({"type": "play", "id": msg["id"], "cards": "red:7"})
        elif MODE == "illegal":
            send({"type": "play", "id": msg["id"], "cards": ["wild4", "wild4", "wild4"], "colour": "red"})
        elif MODE == "stale_id":
            answer["id"] = msg["id"] - 1
            send(answer)
        elif MODE == "missing_id":
            del answer["id"]
            send(answer)
        elif MODE == "line_too_long":
            sys.stdout.write("x" * 70000 + "\n")
            sys.stdout.flush()
        elif MODE in ("slow", "slow_once"):  # over the move limit, within the bank (slow_once: its third turn only)
            time.sleep(0.3)
            send(answer)
        elif MODE == "log_flood":
            for _ in range(2000):
                send({"type": "log", "text": "y" * 200})
            send(answer)
        elif MODE == "early":  # answers, and in the same write answers the next request before it comes
            line = json.dumps(answer) + "\n" + json.dumps({"type": "draw", "id": msg["id"] + 1}) + "\n"
            sys.stdout.write(line)
            sys.stdout.flush()
        elif MODE == "orphan_stdout":  # leaves a child holding stdout, then exits
            import subprocess
            subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
            os._exit(5)
        elif MODE == "flood":  # in its first game only: many copies of a valid answer at once
            copies = 500 if game == "g0" else 1
            sys.stdout.write((json.dumps(answer) + "\n") * copies)
            sys.stdout.flush()
        elif MODE == "log_after_end":
            send(answer)
        elif MODE == "spawn_and_hang":
            import subprocess
            subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
            time.sleep(60)
    elif kind == "quit":
        break
