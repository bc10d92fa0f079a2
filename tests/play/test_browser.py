"""``lastcard play --browser`` in headless Chromium: whole games played by clicks in each ruleset (a Wild's colour
named, the last-card call made) and by keys; each game stored as a results folder and opened in the replay viewer
from the page's link; a bot's markup shown as text; leaving from the page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from referee.cli.main import cli
from referee.engine.jsondata import JsonObject
from referee.engine.notation import StoredGame, walk
from referee.store.games_log import GamesLog
from referee.store.results_dir import ResultsDir
from tests.conftest import PY
from tests.support.browser import chromium, errors
from tests.support.live_runs import until
from tests.support.play_runs import Moves, play_out, start_play, stop

pytestmark = pytest.mark.slow  # each test starts lastcard play and a browser

#: A bot process that writes markup on stderr and in log messages at every turn (the viewer shows them as text).
NOTES = Path(__file__).resolve().parents[1] / "support" / "note_bots" / "notes.py"
#: A name of markup that the command line takes (no space, slash or equals sign before the command).
MARKUP_NAME = "<u>under<em>em<marquee>m<script>x"


@pytest.fixture(scope="module")
def browser() -> Any:
    yield from chromium()


def stored(out: Path) -> tuple[JsonObject, StoredGame]:
    """The one game of the results folder (its line, and the game it rebuilds)."""
    games = [line for _, line in GamesLog(ResultsDir(str(out)).games).lines()]
    assert len(games) == 1
    return games[0], StoredGame.from_json(games[0])


def person_turns(game: StoredGame, seat: int) -> int:
    """The person's actions in the stored game, every action of it checked again by the engine."""
    return sum(1 for _, table, action, _stand_in in walk(game) if action is not None and table.current == seat)


def finish_and_replay(browser: Any, proc: Any, out: Path, seat: int, moves: Moves) -> JsonObject:
    """The page's end (places, the replay link), the viewer opened from it at the person's seat; the game stored."""
    until(lambda: browser.execute_script("return !document.getElementById('end').hidden"), "the game's end")
    places = browser.execute_script("return [...document.querySelectorAll('#places li')].map(li => li.textContent)")
    assert len(places) >= 2 and any("— you" in p for p in places)
    link = browser.find_element("id", "replay-link")
    assert link.get_attribute("href").endswith(f"/report.html#game=play&turn=0&seat={seat}")
    line, game = stored(out)
    assert person_turns(game, seat) == moves.turns  # every move made on the page, and only those, was played
    link.click()
    until(lambda: browser.execute_script("return window.lastcard && window.lastcard.state().game === 'play'"),
          "the replay viewer opened at the game")
    assert browser.execute_script("return window.lastcard.state()") == {"game": "play", "turn": 0, "seat": seat}
    assert errors(browser) == []
    status, said = stop(proc)
    assert status == 0 and "closed" in said
    name = line["seating"][seat]
    shown = CliRunner().invoke(cli, ["replay", str(out), "play", "--verify"])  # stored as any game: it replays
    assert shown.exit_code == 0, shown.output
    seen = CliRunner().invoke(cli, ["replay", str(out), "play", "--seat", str(seat)])
    assert seen.exit_code == 0 and f"seat {seat} ({name})" in seen.output, seen.output
    return line


@pytest.mark.parametrize(("ruleset", "options", "seed", "bots"), [
    pytest.param("compact", ["--option", "target=100"], "5", ["builtin:hard"], id="compact"),
    pytest.param("family", ["--option", "target=round"], "8", ["builtin:hard", "builtin:medium"], id="family"),
    pytest.param("arcade", [], "2", ["builtin:hard", "builtin:medium"], id="arcade"),
])
def test_a_whole_game_by_clicks(browser: Any, tmp_path: Path, ruleset: str, options: list[str], seed: str,
                                bots: list[str]) -> None:
    out = tmp_path / "game"
    proc, url = start_play("--ruleset", ruleset, *options, "--seed", seed, "--out", str(out), *bots)
    try:
        browser.get(url)
        browser.get_log("browser")
        moves, last = play_out(browser)
        assert last["phase"] == "over"
        assert moves.turns >= 5 and moves.colours >= 1 and moves.cards >= 1, moves
        if ruleset == "arcade":
            assert moves.calls >= 1, moves  # the call is the person's to make only in arcade
        line = finish_and_replay(browser, proc, out, 0, moves)
        assert line["ruleset"] == ruleset and line["seating"][0] == "you"
    finally:
        if proc.poll() is None:
            proc.kill()


def test_a_whole_game_by_keys_with_a_call_declined(browser: Any, tmp_path: Path) -> None:
    """Digits pick a move, a colour's first letter names it, n declines the call (and costs a card), l makes it."""
    out = tmp_path / "keys"
    proc, url = start_play("--ruleset", "arcade", "--seed", "3", "--seat", "1", "--name", "ada", "--out", str(out),
                           "builtin:hard", "builtin:medium")
    try:
        browser.get(url)
        browser.get_log("browser")
        moves, last = play_out(browser, keys=True, decline=1)
        assert last["phase"] == "over" and moves.declined == 1 and moves.colours >= 1, moves
        assert any("ada" in text and "for the missed call" in text for text in last["log"])
        finish_and_replay(browser, proc, out, 1, moves)
    finally:
        if proc.poll() is None:
            proc.kill()


def test_a_bots_markup_is_text_on_the_table_and_in_the_replay(browser: Any, tmp_path: Path) -> None:
    out = tmp_path / "markup"
    proc, url = start_play("--ruleset", "compact", "--option", "target=100", "--seed", "4", "--out", str(out),
                           f"{MARKUP_NAME}={PY} {NOTES}")
    try:
        browser.get(url)
        browser.get_log("browser")
        until(lambda: browser.execute_script("return document.querySelectorAll('#seats li').length === 2"),
              "the table drawn")
        name = browser.execute_script("return document.querySelector('#seats li[data-seat=\"1\"] .name').textContent")
        assert name == MARKUP_NAME
        injected = "return document.querySelectorAll('main u, main em, main marquee, main script').length"
        assert browser.execute_script(injected) == 0
        moves, last = play_out(browser)
        assert last["phase"] == "over"
        assert any(MARKUP_NAME in text for text in last["log"])
        assert browser.execute_script(injected) == 0
        finish_and_replay(browser, proc, out, 0, moves)
        browser.execute_script("document.getElementById('v-view').value = '1';"
                               "document.getElementById('v-view').dispatchEvent(new Event('change'))")
        browser.find_element("id", "v-note-next").click()  # the bot's first turn with notes
        notes = browser.execute_script("return document.getElementById('v-notes-list').textContent")
        assert "starting <script>alert(1)" in notes and "<b>hand" in notes  # the bot's notes at its turn, as text
        assert browser.execute_script("return document.querySelectorAll('#v-notes-list script, u, em, marquee')"
                                      ".length") == 0
        assert browser.execute_script("return window.pwned === undefined")
    finally:
        if proc.poll() is None:
            proc.kill()


def test_leaving_from_the_page_stops_the_game_and_stores_nothing(browser: Any, tmp_path: Path) -> None:
    out = tmp_path / "left"
    proc, url = start_play("--seed", "1", "--out", str(out), "builtin:easy")
    try:
        browser.get(url)
        until(lambda: browser.execute_script("return document.body.dataset.phase === 'your_turn'"), "the first turn")
        browser.find_element("id", "leave").click()
        browser.switch_to.alert.accept()
        said, _ = proc.communicate(timeout=60)
        assert proc.returncode == 130 and "You left the game; the bots were stopped." in said
        assert not ResultsDir(str(out)).has_games()
    finally:
        if proc.poll() is None:
            proc.kill()
