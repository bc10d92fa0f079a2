"""The live page after its run and while a game is played: it stays up (the final state, the replays, a favicon)
until Ctrl-C and says so in the terminal and on the page; the ladder's page opens its games; and the now-playing
view follows a game turn by turn, its table advancing as the turns are played (headless Chromium)."""

from __future__ import annotations

import json
import sys
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from referee.engine.notation import rebuild
from referee.store.game_record import load
from tests.support.browser import chromium, errors
from tests.support.live_runs import STAYS_UP, close_page, events_until_the_end, start_live, until
from tests.support.notedata import NOTES_BOT

pytestmark = pytest.mark.slow  # every test here starts a process

MOVER = Path(__file__).resolve().parents[1] / "support" / "live_bots" / "mover.py"
LADDER = """\
name: live-ladder
seed: 3
ruleset: compact
seats: 3
bootstrap: 20
bots: [builtin:hard, builtin:random, builtin:medium, builtin:easy]
"""


@pytest.fixture(scope="module")
def browser() -> Any:
    yield from chromium()


def _get(url: str) -> tuple[int, str, bytes]:
    with urllib.request.urlopen(url, timeout=60) as reply:
        return reply.status, reply.headers.get("Content-Type", ""), reply.read()


def test_the_page_stays_up_after_the_run_with_its_replays_until_ctrl_c(tmp_path: Path) -> None:
    proc, url = start_live("match", f"{sys.executable} {NOTES_BOT}", "builtin:random", "-n", "20", "--out",
                           str(tmp_path / "out"))
    try:
        last = events_until_the_end(url)[-1]
        assert last["phase"] == "finished"
        staying = until(lambda: (s := json.loads(_get(url + "state.json")[2]))["staying"] and s, "the page stays up")
        assert staying["replay"] is True and staying["progress"]["done"] == 20
        status, kind, body = _get(url + "report.html")
        assert status == 200 and b"id=lc-data" in body and b'"g0020"' in body  # the replays of every game
        status, kind, page = _get(url + "bots/notes.html")  # the bot's page, as the published report has it
        assert status == 200 and b"../report.html#game=g0001&amp;turn=" in page and b"request 1: &lt;b&gt;hand" in page
        status, kind, icon = _get(url + "favicon.ico")
        assert status == 200 and kind == "image/x-icon" and icon[:4] == b"\0\0\1\0"
        code, said = close_page(proc)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert code == 0 and STAYS_UP in said and "live page: closed" in said


def test_the_ladders_page_offers_the_replays_of_its_games(tmp_path: Path) -> None:
    arena = tmp_path / "ladder.yaml"
    arena.write_text(LADDER)
    proc, url = start_live("ladder", "run", str(arena), "--db", str(tmp_path / "l.sqlite"), "--jobs", "1",
                           "--games-per-bot", "30")
    try:
        last = events_until_the_end(url)[-1]
        assert last["replay"] is True
        shown = [g["game"] for g in last["games"]]
        status, _, body = _get(url + "report.html")
        assert status == 200 and all(f'"{game}"'.encode() in body for game in shown)
        assert close_page(proc)[0] == 0
    finally:
        if proc.poll() is None:
            proc.kill()


def test_the_now_playing_view_follows_a_game_turn_by_turn(browser: Any, tmp_path: Path) -> None:
    proc, url = start_live("match", f"{sys.executable} {MOVER} 40", "builtin:random", "-n", "3", "--sandbox", "none",
                           "--out", str(tmp_path / "out"))
    try:
        browser.get(url + "now.html")

        def now() -> tuple[str, int] | None:
            mark = browser.execute_script("return document.body.dataset.now || null")
            return (mark.split()[0], int(mark.split()[1])) if mark else None

        game, first = until(lambda: (seen := now()) and seen[1] >= 2 and seen, "the view showed a game's turns")
        until(lambda: (seen := now()) and seen[0] == game and seen[1] > first, "the view's table advanced")
        status = browser.find_element("id", "now-status").text
        assert status.startswith(f"game {game} · turn ")
        frames = browser.execute_script("return window.lastcard.framesOf(arguments[0])"
                                        ".map(f => [f.hands, f.top, f.seat])", game)
        assert errors(browser) == []
        assert close_page(proc)[0] == 0
    finally:
        if proc.poll() is None:
            proc.kill()
    _, expected = rebuild(load(str(tmp_path / "out"), game).stored, frames=True)
    assert len(frames) >= 3
    for turn, (got, want) in enumerate(zip(frames[:-1], expected)):  # the last may be the seat still thinking
        assert got == [[list(h) for h in want.hands], want.top, want.seat], f"turn {turn}"
