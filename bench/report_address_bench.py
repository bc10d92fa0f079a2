"""How long a long run's page takes, in headless Chromium, to open a game named by its address.

    .venv/bin/python bench/report_address_bench.py                          # 50,000 games in 500 shards
    .venv/bin/python bench/report_address_bench.py --before 102663a         # and the page's script of that commit

It plays ``--games`` games between four built-ins (``lastcard match ... --no-report``, once, into ``--dir``),
writes the page with ``--shard-games`` games a shard (the real page has 2,000: 500 shards are a million
games), then opens, each in a new document, ``report.html#game=ID&turn=0`` for the second game, the one in
the middle and the last, and times until the viewer shows it (``window.lastcard.state()``). With
``--before REV`` the same page is opened again with the script (``report.js``) of that commit inlined
instead, side by side. Needs Debian's chromium and chromium-driver and selenium (the test extra).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee.html_report import write_report  # noqa: E402


def play(out: Path, games: int) -> None:
    if (out / "games.jsonl").is_file() and sum(1 for _ in open(out / "games.jsonl")) == games:
        return
    subprocess.run([sys.executable, "-m", "referee.cli.main", "match", *["builtin:easy"] * 4, "-r", "family",
                    "-o", "target=round", "-n", str(games), "--out", str(out), "--fresh", "--no-report",
                    "--jobs", "2"], check=True, cwd=ROOT, stdout=subprocess.DEVNULL)


def browser():  # type: ignore[no-untyped-def]
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(arg)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def open_seconds(driver, page: Path, game: str, limit: float) -> float:  # type: ignore[no-untyped-def]
    driver.get("about:blank")
    t0 = time.monotonic()
    driver.get(f"file://{page}#game={game}&turn=0")
    while time.monotonic() - t0 < limit:
        state = driver.execute_script("return window.lastcard && window.lastcard.state()")
        meta = driver.execute_script("const m = document.getElementById('v-meta'); return m ? m.textContent : ''")
        if (state and state["game"] == game) or game in meta:  # replayed, or its row and replay command shown
            return time.monotonic() - t0
        time.sleep(0.02)
    return float("nan")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=50_000)
    ap.add_argument("--shard-games", type=int, default=100)
    ap.add_argument("--dir", default="/tmp/lastcard-address-bench")
    ap.add_argument("--before", help="a commit whose report.js is timed beside this tree's")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--limit", type=float, default=120.0, help="seconds to wait for one game")
    args = ap.parse_args()
    out = Path(args.dir)
    play(out, args.games)
    page = Path(write_report(str(out), shard_games=args.shard_games, jobs=2))
    ids = [json.loads(line)["game"] for line in open(out / "games.jsonl")]
    ids.sort(key=lambda g: int("".join(c for c in g if c.isdigit()) or 0))
    shards = len(os.listdir(out / "report_files"))
    pages = {"now": page}
    if args.before:
        old = subprocess.run(["git", "show", f"{args.before}:referee/html_report/report.js"], cwd=ROOT, check=True,
                             capture_output=True, text=True).stdout
        new = (ROOT / "referee" / "html_report" / "report.js").read_text()
        html = page.read_text()
        assert new in html, "the page does not inline this tree's report.js as it is"
        pages[args.before] = page.with_name("report-before.html")
        pages[args.before].write_text(html.replace(new, old))
    targets = {"second": ids[1], "middle": ids[len(ids) // 2], "last": ids[-1]}
    print(f"{len(ids):,} games, {shards} shards of {args.shard_games}; load average {os.getloadavg()[0]:.1f}")
    driver = browser()
    try:
        for name, path in pages.items():
            for where, game in targets.items():
                times = [open_seconds(driver, path, game, args.limit) for _ in range(args.reps)]
                print(f"{name:>10}: {where} game ({game}) by its address: median {statistics.median(times):.2f} s "
                      f"(runs {', '.join(f'{t:.2f}' for t in times)})", flush=True)
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
