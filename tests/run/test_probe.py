"""An arena's probe starts its bots side by side, not one after another: a start mostly waits (a JVM, an
interpreter loading), so the probe takes about the slowest start instead of the sum."""

from __future__ import annotations

import sys
from dataclasses import replace

import pytest

from referee.bots.sandbox import Mode, SandboxSettings
from referee.bots.spec import BotSpec, TimeLimits
from referee.run.startups import PROBE_AT_ONCE, probe

pytestmark = pytest.mark.slow

# Each bot marks that it has started, then answers hello only once its partner has started too: started
# one after the other, the first never sees the second and gives up (exit 3) before its start-up limit.
MEETING = r"""
import json, os, sys, time
me, other, where = sys.argv[1:4]
open(os.path.join(where, me), "w").close()
deadline = time.monotonic() + 4
while not os.path.exists(os.path.join(where, other)):
    if time.monotonic() > deadline:
        sys.exit(3)
    time.sleep(0.01)
for line in sys.stdin:
    if json.loads(line).get("type") == "hello":
        print(json.dumps({"type": "ready", "name": me}), flush=True)
"""


def _specs(tmp_path, n: int) -> list[BotSpec]:
    script = tmp_path / "meeting.py"
    script.write_text(MEETING)
    names = [f"b{i}" for i in range(n)]
    # sandbox none: the bots meet through files outside their own folder.
    return [BotSpec(name, f"{sys.executable} {script} {name} {names[(i + 1) % n]} {tmp_path}",
                    limits=replace(TimeLimits(), startup_ms=20_000), sandbox=SandboxSettings(mode=Mode.NONE))
            for i, name in enumerate(names)]


def test_the_probe_starts_its_bots_side_by_side_even_with_one_worker(tmp_path):
    assert probe(_specs(tmp_path, 2), None, workers=1) == {}


def test_bots_that_must_start_together_fail_the_probe_one_at_a_time(tmp_path, monkeypatch):
    """The check above can fail: with one start at a time each bot waits for its partner in vain."""
    import referee.run.startups as startups

    monkeypatch.setattr(startups, "PROBE_AT_ONCE", 1)
    broken = probe(_specs(tmp_path, 2), None, workers=1)
    # b0 starts first and waits for b1 in vain, twice (b1 then finds b0's mark and starts).
    assert set(broken) == {"b0"} and "exited" in broken["b0"].message


def test_more_bots_than_the_probe_starts_at_once_all_start(tmp_path):
    hello = tmp_path / "hello.py"
    hello.write_text("import json, sys\nfor line in sys.stdin:\n    print(json.dumps({'type': 'ready', 'name': 'x'}), "
                     "flush=True)\n")
    specs = [replace(s, command=f"{sys.executable} {hello}") for s in _specs(tmp_path, PROBE_AT_ONCE + 2)]
    assert probe(specs, None, workers=1) == {}
