"""The report of a class with debug notes, in headless Chromium, from a copy of the results folder opened as files:
the viewer shows each bot's notes at their turn (every bot's in the all-seeing view, the seat's own in its view)
as text, never markup; a crash turn shows the traceback; each bot's page lists its games (a link opens the viewer
at its first fault or first turn, in its seat's view), its faults, what it wrote and its grade explained; and
nothing handed out names a path of the teacher's machine."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from referee.cli.main import cli
from tests.support.browser import chromium, errors, open_page
from tests.support.notedata import NOTES_BOT

pytestmark = pytest.mark.slow  # every test here starts a process

ARENA = """name: notes class
seed: 5
ruleset: compact
seats: 3
policy: forfeit
limits: {move_ms: 3000, startup_ms: 10000}
grading: {by: rank, best: 100, worst: 60}
bots:
  - submissions: {path: "subs/*"}
  - builtin:easy
stages:
  - {name: league, format: round_robin, games: 2}
"""


@pytest.fixture(scope="module")
def browser() -> Any:
    yield from chromium()


@pytest.fixture(scope="module")
def copied(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The class's results folder, run where the teacher keeps it, then copied elsewhere (the original gone)."""
    contest = tmp_path_factory.mktemp("teachers-machine")
    for name, manifest in (("nina", None), ("cole", 'run: "{python} bot.py crash 3"\n')):
        (contest / "subs" / name).mkdir(parents=True)
        shutil.copy(NOTES_BOT, contest / "subs" / name / "bot.py")
        if manifest:
            (contest / "subs" / name / "lastcard.yaml").write_text(manifest)
    (contest / "class.yaml").write_text(ARENA)
    ran = CliRunner().invoke(cli, ["arena", str(contest / "class.yaml"), "--out", str(contest / "results"),
                                   "--check-games", "0", "-q"])
    assert ran.exit_code == 0, ran.output
    handed = tmp_path_factory.mktemp("students-copy") / "results"
    shutil.copytree(contest / "results", handed)
    shutil.rmtree(contest)
    (handed / "teachers-machine").write_text(str(contest))  # for the test below: the path that must not appear
    return handed


def test_nothing_handed_out_names_a_path_of_the_teachers_machine(copied: Path) -> None:
    teacher = (copied / "teachers-machine").read_text()
    bots = copied / "bots"
    handed = [copied / "report.html", *sorted(bots.glob("*.md")), *sorted(bots.glob("*.html"))]
    assert {p.name for p in handed} >= {"report.html", "nina.md", "cole.md", "nina.html", "cole.html", "index.md"}
    for path in handed:
        text = path.read_text()
        assert teacher not in text and "/tmp/" not in text and "/root/" not in text, path.name
    assert "lastcard replay . g" in (copied / "report.html").read_text()


def test_the_viewer_shows_the_notes_at_their_turn_as_text(browser: Any, copied: Path) -> None:
    open_page(browser, copied / "report.html")
    game = browser.execute_script("return [...document.querySelectorAll('#g-rows tr')].map(r => r.dataset.game)"
                                  ".find(g => g)")
    browser.execute_script(f"window.lastcard.openGame('{game}', 0, 'push')")
    browser.find_element("id", "v-note-next").click()
    first = browser.execute_script("return window.lastcard.state().turn")
    texts = browser.execute_script("return [...document.querySelectorAll('#v-notes-list .bot-note')]"
                                   ".map(d => [d.querySelector('b').textContent, d.querySelector('pre') && "
                                   "d.querySelector('pre').textContent])")
    assert any(head.endswith("stderr (before its first turn)") and body.startswith("starting <script>alert(1)")
               for head, body in texts)
    assert any(body and body.startswith("request 1: <b>hand") for _, body in texts)
    injected = browser.execute_script("return document.querySelectorAll('#v-notes-list script, #v-notes-list i, "
                                      "#v-notes-list pre b').length")
    assert injected == 0  # a bot's markup is text
    browser.find_element("id", "v-note-next").click()
    assert browser.execute_script("return window.lastcard.state().turn") > first
    assert errors(browser) == []


def test_a_bots_page_opens_its_games_at_its_first_fault_in_its_own_view(browser: Any, copied: Path) -> None:
    open_page(browser, copied / "bots" / "cole.html")
    assert browser.find_element("css selector", "#grade h2").text.startswith("Grade: ")
    assert "by rank" in browser.find_element("id", "grade").text
    fault = browser.find_element("css selector", "#faults li a")
    href = fault.get_attribute("href")
    assert href.startswith("file://") and "/report.html#game=" in href and "&seat=" in href
    fault.click()
    state = browser.execute_script("return window.lastcard.state()")
    assert f"game={state['game']}&turn={state['turn']}&seat={state['seat']}" in href
    assert browser.execute_script("return document.getElementById('v-view').value") == str(state["seat"])
    action = browser.find_element("id", "v-action")
    assert "FAULT: crash" in action.text
    notes = browser.find_element("id", "v-notes").text
    assert "Traceback (most recent call last)" in notes and "boom at request 3" in notes
    assert errors(browser) == []


def test_a_bots_page_lists_what_it_wrote_with_links_to_the_turns(browser: Any, copied: Path) -> None:
    open_page(browser, copied / "bots" / "nina.html")
    games = browser.execute_script("return [...document.querySelectorAll('#games tbody tr')].map(r => r.dataset.game)")
    played = [json.loads(line)["game"] for line in (copied / "games.jsonl").read_text().splitlines()]
    assert games == sorted(played)  # every game it played, in id order (the three bots sat at one table)
    browser.execute_script("document.querySelector('#notes details').open = true")
    link = browser.find_element("css selector", "#notes details a")
    turn = int(link.text.split()[1])
    link.click()
    assert browser.execute_script("return window.lastcard.state().turn") == turn
    assert "request" in browser.find_element("id", "v-notes").text
    assert errors(browser) == []
