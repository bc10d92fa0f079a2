"""A bot that plays legal moves and, on its third turn, attacks (the first argument names the attack).

Every attack is bounded so that a broken sandbox cannot hurt the machine running the tests. The bot
writes one line per attempt to stderr, ``ATTACK name: blocked (why)`` or ``ATTACK name: SUCCEEDED``,
and exits with status 66 as soon as an attack succeeds (the tests see a crash with exit code 66).
Targets come from the environment, not the command line, so the sandbox does not bind them:
HOSTILE_PID (the referee), HOSTILE_SECRET (a file of the user's), HOSTILE_SOURCE (the referee's
source), HOSTILE_PORT (a port listening on 127.0.0.1), HOSTILE_OUT (where to write a big file).
"""

import json
import os
import signal
import socket
import sys
import time

MODE = sys.argv[1] if len(sys.argv) > 1 else "good"
ENV = os.environ
MIB = 1 << 20


def say(text):
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def outcome(name, attempt):
    """Run one attempt: it returns normally on success, raises when the sandbox stopped it."""
    try:
        attempt()
    except Exception as exc:  # noqa: BLE001 - any refusal counts as blocked
        say(f"ATTACK {name}: blocked ({type(exc).__name__}: {exc})")
        return False
    say(f"ATTACK {name}: SUCCEEDED")
    sys.exit(66)


def read(path):
    with open(path, "rb") as fh:
        if not fh.read(64):
            raise OSError("empty")


def peek():
    pid = ENV.get("HOSTILE_PID", "1")
    outcome("shadow", lambda: read("/etc/shadow"))
    outcome("environ", lambda: read(f"/proc/{pid}/environ"))

    def mem():
        with open(f"/proc/{pid}/maps") as fh:
            start = int(fh.readline().split("-")[0], 16)
        with open(f"/proc/{pid}/mem", "rb") as fh:
            fh.seek(start)
            if not fh.read(16):
                raise OSError("nothing read")

    outcome("mem", mem)
    outcome("secret", lambda: read(ENV["HOSTILE_SECRET"]))

    def rewrite():
        with open(ENV["HOSTILE_SOURCE"], "a") as fh:
            fh.write("# owned\n")

    outcome("source", rewrite)

    def fill_root():  # the sandbox's root is a tmpfs of no set size: memory, for a bot that may write there
        os.makedirs("/lastcard-fill", exist_ok=True)
        with open("/lastcard-fill/f", "wb") as fh:
            fh.write(b"\0" * MIB)

    outcome("rootfs", fill_root)
    with open("/tmp/hostile-scratch", "w") as fh:  # the private scratch folder is writable
        fh.write("x")
    say("ATTACK peek: done, scratch writable")


def show_env():
    say("ENV " + json.dumps(sorted(os.environ)))
    say(f"UID {os.getuid()} PIDS {sorted(int(p) for p in os.listdir('/proc') if p.isdigit())}")


def tcp():
    def connect():
        with socket.create_connection(("127.0.0.1", int(ENV["HOSTILE_PORT"])), timeout=1) as sock:
            sock.sendall(b"hostile\n")

    outcome("tcp", connect)


def stop_rivals():
    def stop():
        me = os.getpid()
        found = []
        for entry in os.listdir("/proc"):
            if not entry.isdigit() or int(entry) == me:
                continue
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as fh:
                    if b"hostile-rival" in fh.read():
                        found.append(int(entry))
            except OSError:
                continue
        if not found:
            raise ProcessLookupError("no rival visible")
        for pid in found:
            os.kill(pid, signal.SIGSTOP)
        say(f"ATTACK sigstop: SUCCEEDED, stopped {found}")  # now: the referee may end us for being slow
        time.sleep(0.5)  # long enough for the rival's turn to time out
        for pid in found:
            os.kill(pid, signal.SIGCONT)

    outcome("sigstop", stop)


def kill_parent():
    def attempt():
        parent = os.getppid()
        os.kill(parent, signal.SIGKILL)
        time.sleep(0.2)
        try:
            os.kill(parent, 0)
        except ProcessLookupError:
            return  # gone: the attack worked
        raise PermissionError(f"parent {parent} survived SIGKILL")

    outcome("kill-parent", attempt)


def linger():
    """Double fork and setsid: a grandchild in its own session that outlives the bot."""
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(120)", "hostile-linger"])
        os._exit(0)
    os.wait()
    say("ATTACK linger: started")


def fork_bomb():
    """Up to 300 sleeping children; say how many were made."""
    made = 0
    for _ in range(300):
        try:
            pid = os.fork()
        except OSError as exc:
            say(f"ATTACK forkbomb: stopped at {made} ({exc})")
            break
        if pid == 0:
            time.sleep(60)
            os._exit(0)
        made += 1
    say(f"ATTACK forkbomb: made {made}")


def memory_bomb():
    """Up to 3 GiB, touched, in 64 MiB steps; say how far it got before the limit."""
    hoard = []
    try:
        for _ in range(48):
            hoard.append(bytearray(64 * MIB))  # zero-filled: every page is touched
            say(f"ATTACK membomb: holding {len(hoard) * 64} MiB")
    except MemoryError:
        say(f"ATTACK membomb: MemoryError at {len(hoard) * 64} MiB")
        raise SystemExit(70) from None


def big_file():
    """Up to 2 GiB into a file (the working folder, else /tmp); say how much was written."""
    written = 0
    chunk = b"\0" * (4 * MIB)
    for folder in (ENV.get("HOSTILE_OUT", "."), "/tmp"):
        path = os.path.join(folder, "hostile-big.bin")
        try:
            with open(path, "wb") as fh:
                while written < 2048 * MIB:
                    fh.write(chunk)
                    fh.flush()
                    written += len(chunk)
                    if written % (64 * MIB) == 0:
                        say(f"ATTACK bigfile: {written // MIB} MiB in {path}")
            break
        except OSError as exc:
            say(f"ATTACK bigfile: {path} refused after {written // MIB} MiB ({exc})")
    say(f"ATTACK bigfile: wrote {written // MIB} MiB")


ATTACKS = {"peek": peek, "env": show_env, "tcp": tcp, "sigstop": stop_rivals, "kill_parent": kill_parent,
           "linger": linger, "forkbomb": fork_bomb, "membomb": memory_bomb, "bigfile": big_file}


def send(obj):
    sys.stdout.write(json.dumps(obj, separators=(",", ":")) + "\n")
    sys.stdout.flush()


turns = 0
for line in sys.stdin:
    msg = json.loads(line)
    kind = msg["type"]
    if kind == "hello":
        send({"type": "ready", "name": "hostile-" + MODE})
    elif kind == "turn":
        turns += 1
        if turns == 3 and MODE in ATTACKS:
            ATTACKS[MODE]()
        send(dict(msg["legal"][0]))
    elif kind == "quit":
        break
