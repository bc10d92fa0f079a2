#!/usr/bin/env python3
"""The live page's cost to a run: games/s of an arena without ``--live``, with it and nobody watching, and with
a headless Chromium watching (standings refreshed, an event per change); and the page's update delay.

``stream`` is watched by a client that reads the event stream and draws nothing (the referee's own cost);
``watched`` by headless Chromium on the same machine (the browser's too).

Run by hand (not part of the test suite; needs chromium, chromedriver and selenium)::

    python bench/live_bench.py ARENA.yaml [--reps 3] [--jobs 2] [--shots DIR]

Runs are interleaved (off, on, stream, watched, off, ...) and each figure is the median over ``--reps``; games/s is
the arena's own figure (played games over the games phase's wall time). The update delay is, for each
state the page drew, the time from the change on the referee (``changed_at``) to the drawing (the page's
``lcDelays``; the server sends at most an event every 0.25 s). ``--shots DIR`` saves ``live-mid.png``
(past half the games) and ``live-end.png`` (the final page) of the first watched run.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import signal
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from typing import Any

RATE = re.compile(r"([0-9.]+) games/s")


def browser() -> Any:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1300,1600"):
        options.add_argument(arg)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def run(arena: str, mode: str, jobs: int, driver: Any, shots: str | None) -> tuple[float, list[float]]:
    """One run: its games/s and (watched) the page's update delays."""
    command = [sys.executable, "-m", "referee.cli.entry", "arena", arena, "--fresh", "--no-report", "--jobs",
               str(jobs), "--quiet"] + (["--live", "0"] if mode != "off" else [])
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stderr is not None
    delays: list[float] = []
    if mode != "off":
        for line in proc.stderr:
            if line.startswith("live page: "):
                url = line.split()[2]
                break
        if mode == "stream":  # a page that draws nothing: what watching costs the referee alone
            reader = threading.Thread(target=_read_events, args=(url,), daemon=True)
            reader.start()
        if mode == "watched":
            driver.get(url)
            mid = False
            while proc.poll() is None:
                state = driver.execute_script("return [document.body.dataset.phase, "
                                              "document.getElementById('progress-text').textContent]")
                done = re.match(r"(\d+) / (\d+)", state[1] or "")
                if shots and not mid and done and 0 < int(done.group(2)) <= 2 * int(done.group(1)):
                    driver.save_screenshot(os.path.join(shots, "live-mid.png"))
                    mid = True
                if state[0] in ("finished", "interrupted", "stopped"):
                    break
                time.sleep(0.2)
            while driver.execute_script("return document.body.dataset.phase") not in ("finished", "interrupted"):
                time.sleep(0.1)
            if shots:
                driver.save_screenshot(os.path.join(shots, "live-end.png"))
            delays = driver.execute_script("return window.lcDelays")
            refresh.append(driver.execute_script("return window.lcLast.refresh_s"))
        for line in proc.stderr:  # the page stays up after the run until Ctrl-C: close it once it says so
            if "stays up" in line:
                proc.send_signal(signal.SIGINT)
                break
    out, _ = proc.communicate()
    found = RATE.search(out)
    assert proc.returncode == 0 and found, out
    return float(found.group(1)), delays


def _read_events(url: str) -> None:
    try:
        with urllib.request.urlopen(url + "events", timeout=600) as stream:
            for _ in stream:
                pass
    except OSError:
        pass


#: The time the last standings refresh took, in each watched run (seconds).
refresh: list[float] = []


def cpu() -> float:
    """CPU seconds of every finished child process tree so far (the arena, its workers and bots)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("arena")
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--shots", default=None)
    args = parser.parse_args()
    driver = browser()
    rates: dict[str, list[float]] = {"off": [], "on": [], "stream": [], "watched": []}
    cpus: dict[str, list[float]] = {mode: [] for mode in rates}
    delays: list[float] = []
    try:
        for rep in range(args.reps):
            for mode in rates:
                before = cpu()
                rate, seen = run(args.arena, mode, args.jobs, driver, args.shots if rep == 0 else None)
                cpus[mode].append(cpu() - before)
                rates[mode].append(rate)
                delays += seen[1:]  # the first is the page's load, not an update
                print(f"rep {rep + 1} {mode:8s} {rate:7.1f} games/s  {cpus[mode][-1]:6.2f} CPU s", flush=True)
    finally:
        driver.quit()
    for mode, values in rates.items():
        runs = ", ".join(f"{v:.1f}" for v in values)
        print(f"{mode:8s} median {statistics.median(values):7.1f} games/s  (runs: {runs}); CPU s of the run "
              f"(referee, workers, bots) median {statistics.median(cpus[mode]):.2f}")
    if refresh:
        shown = ", ".join(f"{1000 * r:.0f} ms" for r in refresh)
        print(f"standings refresh (CPU): {shown} (the last of each watched run)")
    if delays:
        delays.sort()
        print(f"update delay: median {1000 * statistics.median(delays):.0f} ms, 90th percentile "
              f"{1000 * delays[int(0.9 * (len(delays) - 1))]:.0f} ms, max {1000 * delays[-1]:.0f} ms "
              f"over {len(delays)} updates")


if __name__ == "__main__":
    main()
