"""The pipe transport against real subprocesses: framing, a closed or full pipe, a bot that exits early.

Each bot is a few lines of Python given with ``-c``, so what it does to its pipes is plain to read.
"""

from __future__ import annotations

import os
import shlex
import textwrap
import threading
import time

import pytest

from referee.bots.pipes.client import BotClient
from referee.bots.pipes.transport import Closed, LineTooLong, PipeTransport, ReadTimeout, WriteTimeout
from referee.bots.pool import BotPool
from referee.bots.reaper import reaper_pid
from referee.bots.spec import BotSpec, TimeLimits, parse_bot
from referee.engine.rules import get_ruleset
from referee.protocol.faults import BotFault
from referee.table.table import play_game, seat_for
from tests.conftest import PY, ROOT, _children
from tests.support.procs import group_members, wait_group_gone, wait_until

pytestmark = pytest.mark.slow

MISBEHAVE = ROOT / "tests" / "support" / "fault_bots" / "misbehave.py"
#: A ceiling for reads that should succeed at once: generous, so a loaded machine is never a failure.
SOON = 30.0


def bot(source: str, line_limit: int = 65536) -> PipeTransport:
    """A bot process running ``source`` (dedented) with Python."""
    return PipeTransport([PY, "-c", textwrap.dedent(source)], line_limit=line_limit)


def read(transport: PipeTransport) -> bytes:
    return transport.read_line(time.monotonic() + SOON)


@pytest.fixture
def closing():
    """Transports made in a test, closed at its end whatever happens."""
    made: list[PipeTransport] = []
    yield made
    for transport in made:
        transport.close(0)


def test_the_rest_of_an_over_long_line_is_skipped_across_reads(closing):
    # 200 KB in one line: more than one read (and more than the pipe holds), then a good line.
    t = bot("""
        import sys
        sys.stdout.write("x" * 200_000 + "\\n" + '{"ok":1}\\n')
        sys.stdout.flush()
        sys.stdin.read()
    """, line_limit=100)
    closing.append(t)
    with pytest.raises(LineTooLong) as info:
        read(t)
    assert info.value.head.startswith(b"xxx") and len(info.value.head) <= 300
    assert read(t) == b'{"ok":1}'


def test_an_over_long_line_among_short_ones_keeps_their_order(closing):
    # One write, well under the pipe's atomic size: the three lines arrive in one read.
    t = bot("""
        import sys
        sys.stdout.write("first\\n" + "y" * 500 + "\\nlast\\n")
        sys.stdout.flush()
        sys.stdin.read()
    """, line_limit=100)
    closing.append(t)
    assert read(t) == b"first"
    with pytest.raises(LineTooLong):
        read(t)
    assert read(t) == b"last"


def test_a_last_line_without_a_newline_still_counts(closing):
    t = bot("""
        import sys
        sys.stdout.write('{"type":"draw","id":1}')
    """)
    closing.append(t)
    assert read(t) == b'{"type":"draw","id":1}'
    with pytest.raises(Closed):
        read(t)
    assert t.exit_description() == "exit code 0"


def test_a_bot_that_closed_its_input_is_closed_not_an_os_error(closing):
    t = bot("""
        import os, sys, time
        os.close(0)
        sys.stdout.write("closed\\n")
        sys.stdout.flush()
        time.sleep(60)
    """)
    closing.append(t)
    assert read(t) == b"closed"
    with pytest.raises(Closed):
        t.write(b'{"type":"quit"}\n' * 1000, time.monotonic() + SOON)
    with pytest.raises(Closed):
        t.write_some(b'{"type":"quit"}\n')


def test_a_blocked_write_gives_up_at_its_deadline(closing):
    t = bot("""
        import time
        time.sleep(60)  # never reads: the pipe to it fills
    """)
    closing.append(t)
    data = b"z" * (4 << 20)
    t0 = time.monotonic()
    with pytest.raises(WriteTimeout) as info:
        t.write(data, t0 + 0.3)
    assert 0 < info.value.written < len(data)  # the pipe took some, then the deadline held
    assert time.monotonic() - t0 < SOON


def test_a_request_to_a_bot_that_stopped_reading_is_a_timeout():
    # The bot answers hello, then never reads again; a large send fills the pipe before the request.
    source = textwrap.dedent("""
        import sys, time
        sys.stdin.readline()
        print('{"type":"ready","name":"deaf"}', flush=True)
        time.sleep(60)
    """)
    spec = BotSpec("deaf", shlex.join([PY, "-c", source]), limits=TimeLimits(startup_ms=int(SOON * 1000), move_ms=300))
    client = BotClient(spec)
    try:
        client.start()
        client.send(b'{"type":"event","kind":"noise"}\n' * 200_000)
        with pytest.raises(BotFault) as info:
            client.request({"type": "turn", "id": client.new_request_id()})
        assert info.value.fault.kind.value == "timeout"
        assert "did not read its input" in info.value.fault.message
    finally:
        client.kill()


def test_after_a_write_timeout_the_rest_is_written_first_and_every_line_arrives_whole():
    # Deaf for a while, then reads on: it answers each turn with draw, or with pass once a line was broken.
    source = textwrap.dedent("""
        import json, sys, time
        sys.stdin.readline()
        print('{"type":"ready","name":"slow-reader"}', flush=True)
        time.sleep(1.0)
        broken = 0
        for line in sys.stdin:
            try:
                msg = json.loads(line)
            except ValueError:
                broken += 1
                continue
            if msg["type"] == "turn":
                print(json.dumps({"type": "pass" if broken else "draw", "id": msg["id"]}), flush=True)
    """)
    spec = BotSpec("slow-reader", shlex.join([PY, "-c", source]),
                   limits=TimeLimits(startup_ms=int(SOON * 1000), move_ms=100))
    client = BotClient(spec)
    try:
        client.start()
        client.send(b'{"type":"event","kind":"noise"}\n' * 100_000)  # 3 MB: far more than the pipe holds
        first = client.new_request_id()
        with pytest.raises(BotFault) as info:
            client.request({"type": "turn", "id": first})
        assert "did not read its input" in info.value.fault.message
        client.expect_late(first)
        second = client.new_request_id()
        answer, _ = client.request({"type": "turn", "id": second}, move_ms=SOON * 1000)
    finally:
        client.kill()
    assert answer == {"type": "draw", "id": second}
    assert client.late_answers == 1


def test_exit_while_a_child_holds_stdout_ends_the_output(closing):
    t = bot("""
        import subprocess, sys, os
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
        sys.stdout.write("bye\\n")
        sys.stdout.flush()
        os._exit(4)
    """)
    closing.append(t)
    assert read(t) == b"bye"
    with pytest.raises(Closed):
        read(t)  # without the exit watch: a ReadTimeout after SOON seconds
    assert t.exit_description().startswith("exit code 4, leaving processes")
    assert len(group_members(t.pgid)) == 1  # the child still runs, holding the pipe
    t.close(0)
    assert wait_group_gone(t.pgid) == []


def test_a_write_to_a_bot_that_exited_while_a_child_holds_its_input_is_closed(closing):
    t = bot("""
        import subprocess, sys, os
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
        print("bye", flush=True)
        os._exit(6)
    """)
    closing.append(t)
    assert read(t) == b"bye"
    with pytest.raises(Closed):  # without the exit watch: a WriteTimeout after SOON seconds
        t.write(b"z" * (4 << 20), time.monotonic() + SOON)
    assert t.exit_description().startswith("exit code 6, leaving processes")


def test_pending_says_whether_anything_waits_to_be_read(closing):
    t = bot("""
        import sys
        sys.stdin.readline()
        print("one", flush=True)
        sys.stdin.readline()
    """)
    closing.append(t)
    assert not t.pending()
    t.write(b"go\n", time.monotonic() + SOON)
    assert wait_until(t.pending, within=SOON)
    assert t.read_line(time.monotonic()) == b"one"  # a past deadline still takes what is there
    assert not t.pending()
    with pytest.raises(ReadTimeout):
        t.read_line(time.monotonic())
    t.write(b"end\n", time.monotonic() + SOON)
    assert wait_until(t.pending, within=SOON)  # the end of the output is something to read too
    with pytest.raises(Closed):
        read(t)


@pytest.mark.parametrize("restart", [True, False], ids=["restart_each_game", "kept"])
def test_restart_each_game_starts_a_new_process_per_game(restart):
    spec = parse_bot(f"{PY} {MISBEHAVE} good", TimeLimits(startup_ms=int(SOON * 1000), move_ms=5000))
    spec = BotSpec(spec.name, spec.command, limits=spec.limits, restart_each_game=restart)
    pids = []
    with BotPool() as pool:
        for g in range(3):
            seats = [seat_for(spec, pool), seat_for(parse_bot("builtin:random"), pool)]
            result = play_game(get_ruleset("arcade"), seats, g, f"g{g}")
            assert result["faults"] == []
            client = seats[0].client
            pids.append(client.last_pid)
            assert client.alive is not restart
            if restart:  # the process of this game is gone before the next starts
                assert wait_group_gone(client.last_pid) == []
    assert len(set(pids)) == (3 if restart else 1)


@pytest.mark.parametrize("interrupted", [True, False], ids=["after-ctrl-c", "on-its-own"])
def test_a_ctrl_c_that_cpython_hides_in_thread_start_comes_out_as_the_interrupt(monkeypatch, interrupted):
    """CI once saw Ctrl-C land in ``Thread.start``'s wait: CPython then raised "release unlocked lock", which no
    caller handles. The transport raises the KeyboardInterrupt behind it; any other RuntimeError stays as it is."""

    def start(self):
        if interrupted:
            try:
                raise KeyboardInterrupt
            except KeyboardInterrupt:
                raise RuntimeError("release unlocked lock") from None  # ``from None`` keeps the context
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(threading.Thread, "start", start)
    before = _children()
    with pytest.raises(KeyboardInterrupt if interrupted else RuntimeError):
        PipeTransport(["true"], sandbox=None)
    # A transport cut while it sets up leaves its process to the watchdog (which kills its group when the referee
    # ends): here the test ends it itself.
    for pid in _children() - before - {reaper_pid()}:
        os.waitpid(pid, 0)


# A whole message, then (after the bot has ``done`` something) its newline: the R kit's old two writes, apart.
UNENDED = """
    import sys, time
    sys.stdout.write('{"type":"ready"}')
    sys.stdout.flush()
    {done}
    sys.stdout.write("\\n")
    sys.stdout.flush()
    sys.stdin.read()
"""
#: Running, as a bot preempted between its two writes is (``R``), for twice the no-newline rule's time.
BUSY = "end = time.monotonic() + 2 * NO_NEWLINE_S\n    while time.monotonic() < end: pass"


@pytest.mark.parametrize("walled", [False, True], ids=["bare", "sandboxed"])
def test_a_bot_running_between_a_message_and_its_newline_is_not_named(closing, walled):
    """On a busy machine a bot can be preempted between writing a message and its newline for longer than the
    no-newline rule's time; it is running (or runnable), not waiting for an answer: its line is read whole."""
    from referee.bots.pipes.transport import NO_NEWLINE_S
    from referee.bots.sandbox import SandboxSettings, machine

    if walled and not machine().walls:
        pytest.skip("no bubblewrap walls here: the sandboxed process tree is tested where they are (CI installs them)")
    source = textwrap.dedent(UNENDED.replace("{done}", BUSY.replace("NO_NEWLINE_S", str(NO_NEWLINE_S))))
    t = PipeTransport([PY, "-c", source], sandbox=SandboxSettings() if walled else None)
    closing.append(t)
    assert t.sandbox_level in (("walls", "full") if walled else ("none",))
    started = time.monotonic()
    assert read(t) == b'{"type":"ready"}'
    assert time.monotonic() - started >= 2 * NO_NEWLINE_S  # the newline came after the rule's time


@pytest.mark.parametrize("walled", [False, True], ids=["bare", "sandboxed"])
def test_a_bot_asleep_after_a_whole_message_without_its_newline_is_named_at_once(closing, walled):
    from referee.bots.pipes.transport import NoNewline
    from referee.bots.sandbox import SandboxSettings, machine

    if walled and not machine().walls:
        pytest.skip("no bubblewrap walls here: the sandboxed process tree is tested where they are (CI installs them)")
    t = PipeTransport([PY, "-c", textwrap.dedent(UNENDED.replace("{done}", "sys.stdin.read()"))],
                      sandbox=SandboxSettings() if walled else None)
    closing.append(t)
    started = time.monotonic()
    with pytest.raises(NoNewline):
        read(t)
    assert time.monotonic() - started < SOON / 2  # named by the rule, not at the read's deadline
