"""The live page in headless Chromium: the standings change while an arena runs, the final page shows
report.html's standings, Ctrl-C shows how to resume, and a hostile bot's name and message stay text."""

from __future__ import annotations

import signal
import urllib.error
import urllib.request
from typing import Any

import pytest

from referee.live.address import LiveAddress
from referee.live.server import LiveServer
from tests.live.livedata import HOSTILE, MESSAGE, hostile_state
from tests.support.browser import chromium, errors, open_page
from tests.support.live_runs import close_page, start_arena, until, write_arena

pytestmark = pytest.mark.slow

STANDINGS = ("return [...document.querySelectorAll('#standings-body tr')]"
             ".map(tr => [...tr.children].map(td => td.textContent))")


@pytest.fixture(scope="module")
def browser() -> Any:
    yield from chromium()


def _viewer(url: str) -> str | None:
    """The live server's report.html, or None while it cannot be made (a games line half written)."""
    try:
        with urllib.request.urlopen(url + "report.html", timeout=60) as reply:
            return str(reply.read().decode())
    except urllib.error.HTTPError:
        return None


def phase(browser: Any) -> str | None:
    value: str | None = browser.execute_script("return document.body.dataset.phase || null")
    return value


def test_hostile_names_and_messages_are_shown_as_text(browser: Any) -> None:
    with LiveServer(LiveAddress("127.0.0.1", 0), hostile_state()) as server:
        browser.get(server.url)
        until(lambda: phase(browser) == "running", "the page drew the state")
        rows = browser.execute_script(STANDINGS)
        assert rows[0][1] == HOSTILE  # the bot column, character for character
        assert rows[-1][1] == f"late{HOSTILE}" and rows[-1][2] == f"left out: {MESSAGE}"
        fault = browser.execute_script("return document.querySelector('#faults-list li').textContent")
        assert HOSTILE in fault and MESSAGE in fault
        assert browser.execute_script("return document.title").startswith("arena <img")
        made = browser.execute_script("return [window.pwned, document.querySelectorAll('img, script:not([src]), "
                                      "b[onmouseover]').length]")
        assert made == [None, 0]
        assert errors(browser) == []


def test_standings_change_while_the_arena_runs_and_end_as_report_html_has_them(browser: Any, tmp_path: Any) -> None:
    # The pacer waits 15 ms at the end of each of its 300 league games: 4.5 s or more of play, whatever the build
    # (built-in players alone finished 900 games within one of the page's half-second refreshes, compiled).
    proc, url = start_arena(write_arena(tmp_path, league=100, pace_ms=15), tmp_path / "out")
    try:
        browser.get(url)
        seen_running: set[tuple[tuple[str, ...], ...]] = set()

        def ended() -> bool:
            now = phase(browser)
            if now == "running":
                rows = browser.execute_script(STANDINGS)
                if rows:
                    seen_running.add(tuple(tuple(r) for r in rows))
            return now in ("finished", "interrupted", "stopped")

        until(ended, "the page said the run ended", limit_s=240)
        assert phase(browser) == "finished"
        final = browser.execute_script(STANDINGS)
        bracket = browser.execute_script("return document.querySelectorAll('#bracket .ktable').length")
        assert close_page(proc)[0] == 0
    finally:
        if proc.poll() is None:
            proc.kill()
    assert len(seen_running) >= 2, "the standings never changed on the page while the arena ran"
    assert bracket >= 2  # the knockout's tables, as they filled
    open_page(browser, tmp_path / "out" / "report.html")
    report = browser.execute_script("return [...document.querySelectorAll('#standings table.standings tbody tr')]"
                                    ".map(tr => [...tr.children].map(td => td.textContent))")
    assert final == report


def test_ctrl_c_says_how_to_resume(browser: Any, tmp_path: Any) -> None:
    proc, url = start_arena(write_arena(tmp_path, league=3000), tmp_path / "out", "--no-report")
    try:
        browser.get(url)
        until(lambda: browser.execute_script(STANDINGS), "standings on the page")
        viewer = until(lambda: _viewer(url), "the replay viewer over the games so far")
        proc.send_signal(signal.SIGINT)
        until(lambda: phase(browser) == "interrupted", "the page said the run was interrupted")
        resume = browser.execute_script("return document.getElementById('resume').textContent")
        assert proc.wait(timeout=120) == 130
    finally:
        if proc.poll() is None:
            proc.kill()
    assert resume.startswith("resume with: lastcard arena ") and resume.endswith("--resume")
    assert "id=lc-data" in viewer  # report.html's viewer, made mid-run from the games so far
    assert browser.execute_script(STANDINGS)  # the standings so far stay on the page
