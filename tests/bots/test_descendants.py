"""A bot's processes are found from the kernel's children lists (its own tree only) as from every process's stat."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from referee.bots import cpuclock

pytestmark = pytest.mark.slow  # starts processes

# A child that starts a grandchild, and a second child: three descendants, two levels deep.
TREE = "import subprocess, sys, time\n" \
       "kids = [subprocess.Popen(['sleep', '30']), subprocess.Popen(['sh', '-c', 'sleep 30 & wait'])]\n" \
       "print('up', flush=True); time.sleep(30)\n"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc is Linux's")
def test_the_children_lists_find_what_the_stat_walk_finds():
    proc = subprocess.Popen([sys.executable, "-c", TREE], stdout=subprocess.PIPE)
    try:
        assert proc.stdout is not None and proc.stdout.readline() == b"up\n"
        deadline = time.monotonic() + 10
        while len(cpuclock._stat_walk(proc.pid)) < 3 and time.monotonic() < deadline:  # sh starts its sleep
            time.sleep(0.02)
        walked = sorted(cpuclock._stat_walk(proc.pid))
        listed = cpuclock._children_lists(proc.pid)
        assert len(walked) == 3
        assert listed is not None and sorted(listed) == walked  # every kernel this runs on keeps the lists
        assert sorted(cpuclock.descendants(proc.pid)) == walked
    finally:
        proc.kill()
        proc.wait()


def test_a_process_that_is_gone_has_no_descendants():
    proc = subprocess.Popen(["true"])
    proc.wait()
    assert cpuclock.descendants(proc.pid) == []
