"""report.html in a real browser (headless Chromium through Selenium and Debian's chromium-driver):
no console errors, the standings shown, and the replay viewer showing the same cards as ``lastcard replay``.
"""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from referee.cli.main import cli
from referee.engine.cardfaces import label
from referee.engine.notation import rebuild
from referee.html_report import write_report
from referee.store.game_record import load
from tests.support.browser import chromium, errors, open_page
from tests.support.replaydata import small_results_dir, write_results_dir

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def browser():
    yield from chromium()


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    out = small_results_dir(tmp_path_factory.mktemp("browser") / "out")
    write_report(str(out))
    return out


def dom_hands(browser) -> list[list[str | None]]:
    return browser.execute_script(
        "return [...document.querySelectorAll('#v-table .seat')].map(s => "
        "[...s.querySelectorAll('.card')].map(c => c.dataset.code || null))")


def test_page_loads_without_console_errors_and_shows_the_standings(browser, results):
    open_page(browser, results / "report.html")
    rows = browser.execute_script("return [...document.querySelectorAll('table.standings tbody tr')]"
                                  ".map(r => r.cells[1].textContent)")
    doc = json.load(open(results / "results.json"))
    assert rows == [r["bot"] for r in doc["standings"]]
    assert browser.find_element("css selector", "svg.chart").is_displayed()
    listed = browser.execute_script("return [...document.querySelectorAll('#g-rows tr')].map(r => r.dataset.game)")
    assert listed == [json.loads(line)["game"] for line in open(results / "games.jsonl")]
    assert errors(browser) == []


@pytest.mark.parametrize("game_id", ["g0001", "g0002", "g0003", "g0004", "g0005", "g0006", "g0007", "g0008"])
def test_viewer_frames_equal_the_engine_replay(browser, results, game_id):
    """Every frame the page computes (hands, top, colour, pile, seat to act) is the engine's."""
    open_page(browser, results / "report.html")
    frames = browser.execute_script(f"return window.lastcard.framesOf('{game_id}')"
                                    ".map(f => [f.hands, f.top, f.colour, f.pile, f.seat, f.direction])")
    _, expected = rebuild(load(str(results), game_id).stored, frames=True)
    assert len(frames) == len(expected)
    for got, want in zip(frames, expected):
        assert got == [[list(h) for h in want.hands], want.top, want.colour, want.draw_pile, want.seat,
                       want.direction], f"turn {want.turn}"
    assert errors(browser) == []


def test_stepping_through_a_game_shows_the_cards_of_lastcard_replay(browser, results):
    open_page(browser, results / "report.html")
    browser.find_element("css selector", "#g-rows tr[data-game='g0002'] button.open").click()
    text = CliRunner().invoke(cli, ["replay", str(results), "g0002"]).output
    blocks = text.split("\nturn ")[1:]

    def cli_hands(turn: int) -> list[str]:
        lines = [line for line in blocks[turn].splitlines() if re.match(r"^  [ >]\d ", line)]
        return [line.split(") ", 1)[1] for line in lines]

    def page_hands() -> list[str]:
        return [", ".join(label(code) for code in hand) or "(none)" for hand in dom_hands(browser)]

    assert browser.execute_script("return window.lastcard.state()") == {"game": "g0002", "turn": 0, "seat": -1}
    assert page_hands() == cli_hands(0)
    for turn in range(1, 6):
        browser.find_element("id", "v-next").click()
        assert page_hands() == cli_hands(turn)
    browser.find_element("id", "v-prev").click()
    assert page_hands() == cli_hands(4)
    box = browser.find_element("id", "v-turn")
    box.clear()
    box.send_keys("40")
    browser.find_element("id", "v-go").click()
    assert browser.execute_script("return window.lastcard.state().turn") == 40
    assert page_hands() == cli_hands(40)
    assert errors(browser) == []


def test_one_seats_view_hides_the_other_hands(browser, results):
    open_page(browser, results / "report.html", "#game=g0005&turn=10")
    from selenium.webdriver.support.ui import Select

    Select(browser.find_element("id", "v-view")).select_by_value("1")
    hands = dom_hands(browser)
    _, frames = rebuild(load(str(results), "g0005").stored, frames=True)
    assert hands[1] == list(frames[10].hands[1])
    assert all(code is None for seat, hand in enumerate(hands) if seat != 1 for code in hand)
    assert [len(h) for h in hands] == [len(h) for h in frames[10].hands]
    assert errors(browser) == []


def test_the_fault_turn_is_marked_and_reachable(browser, results):
    open_page(browser, results / "report.html")
    browser.find_element("css selector", "#g-rows tr[data-game='g0007'] button.open").click()
    button = browser.find_element("css selector", "#v-faults button.fault-turn")
    button.click()
    turn = int(button.get_attribute("data-turn"))
    assert browser.execute_script("return window.lastcard.state().turn") == turn
    action = browser.find_element("id", "v-action")
    assert "FAULT: illegal" in action.text and action.get_attribute("class") == "fault"
    # From the faults section, the game's link opens the viewer at the same turn.
    open_page(browser, results / "report.html")
    browser.find_element("css selector", "#faults summary").click()
    browser.find_element("css selector", "#faults a.open-game[data-game='g0007']").click()
    assert browser.execute_script("return window.lastcard.state()") == {"game": "g0007", "turn": turn, "seat": -1}
    assert errors(browser) == []


def test_many_games_are_listed_a_page_at_a_time(browser, results, tmp_path):
    lines = [json.loads(line) for line in open(results / "games.jsonl")]
    many = [{**lines[i % len(lines)], "game": f"x{i:04d}"} for i in range(130)]
    out = write_results_dir(tmp_path / "many", many)
    write_report(str(out))
    open_page(browser, out / "report.html")

    def listed():
        return browser.execute_script("return [...document.querySelectorAll('#g-rows tr')].map(r => r.dataset.game)")

    def scripts():
        return browser.execute_script("return [...document.querySelectorAll('script[src]')]"
                                      ".map(s => s.getAttribute('src'))")

    assert listed() == [f"x{i:04d}" for i in range(50)]
    assert browser.find_element("id", "g-page").text == "page 1 of 3 (130 games)"
    browser.find_element("id", "g-next").click()
    browser.find_element("id", "g-next").click()
    assert listed() == [f"x{i:04d}" for i in range(100, 130)]
    browser.find_element("id", "g-faults").click()
    assert all(many[int(g[1:])]["faults"] for g in listed()) and listed()
    browser.find_element("id", "g-faults").click()
    browser.find_element("id", "g-filter").send_keys("misbeh")
    assert len(listed()) == sum("misbehave" in g["seating"] for g in many)
    # Nothing of a game is decoded before it is opened.
    assert browser.execute_script("return document.querySelectorAll('#v-table .card').length") == 0
    assert errors(browser) == []


VARIANTS = [("compact", {}), ("family", {}), ("arcade", {}),
            ("family", {"stacking": True, "draw_until_playable": True}),
            ("arcade", {"stacking": True}), ("compact", {"wild_draw_four": "any", "target": 200}),
            ("family", {"move_limit": 60})]


def test_viewer_follows_the_engine_in_every_ruleset_and_table_size(browser, tmp_path):
    """Stacked penalties, draw-until-playable, reshuffles at six seats, move limits:
    the page's table is the engine's."""
    from referee.bots.pool import BotPool
    from tests.support.replaydata import play_stored

    lines = []
    with BotPool() as pool:
        for number, ((ruleset, options), seats) in enumerate(
                ((v, n) for v in VARIANTS for n in (2, 3, 6)), 1):
            bots = [f"p{i}=builtin:{kind}" for i, kind in enumerate(["random", "easy", "hard", "medium"] * 2)][:seats]
            line, _ = play_stored(ruleset, bots, 1000 + number, f"v{number:03d}", pool, options=options)
            lines.append(line)
    out = write_results_dir(tmp_path / "variants", lines)
    write_report(str(out))
    open_page(browser, out / "report.html")
    for line in lines:
        got = browser.execute_script(f"return window.lastcard.framesOf('{line['game']}').map(f => "
                                     "[f.hands, f.top, f.colour, f.pile, f.seat, f.direction, f.pending, f.scores])")
        _, frames = rebuild(load(str(out), line["game"]).stored, frames=True)
        want = [[[list(h) for h in f.hands], f.top, f.colour, f.draw_pile, f.seat, f.direction, f.pending,
                 list(f.scores)] for f in frames]
        assert got == want, line["game"]
    assert errors(browser) == []


@pytest.mark.parametrize("table", ["table.standings", "table.games"])
def test_each_column_header_is_aligned_as_its_cells(browser, results, table):
    """A header sits over its cells: text columns read from the left, numbers from the right (the games list had
    its text headers right-aligned over left-aligned cells, and its turns left-aligned)."""
    open_page(browser, results / "report.html")
    columns = browser.execute_script(
        "const t = document.querySelector(arguments[0]);"
        "const head = [...t.tHead.rows[0].cells].map(c => getComputedStyle(c).textAlign);"
        "const row = [...t.tBodies[0].rows].find(r => r.cells.length === head.length);"
        "return [head, [...row.cells].map(c => getComputedStyle(c).textAlign),"
        "        [...t.tHead.rows[0].cells].map(c => c.textContent)];", table)
    head, cells, names = columns
    assert head == cells, dict(zip(names, zip(head, cells)))
    if table == "table.games":
        assert cells[names.index("turns (whole game)")] == "right" and cells[names.index("seats (place)")] == "left"


def test_a_long_run_page_loads_its_other_games_from_the_shards_beside_it(browser, results, tmp_path):
    """Past ``inline_games`` the page carries a sample; paging on and opening a later game load the shard files
    (by <script src>, which a file:// page may do), and a game from a shard replays as the engine does."""
    lines = [json.loads(line) for line in open(results / "games.jsonl")]
    many = [{**lines[i % 6], "game": f"x{i:04d}"} for i in range(130)]  # the six built-in games, fault-free
    out = write_results_dir(tmp_path / "long", many)
    write_report(str(out), inline_games=50, sample_games=20, shard_games=40)
    shard_files = sorted(p.name for p in (out / "report_files").iterdir())
    assert shard_files == ["games-00001.js", "games-00002.js", "games-00003.js"]
    page = (out / "report.html").read_text()
    assert '"x0019"' in page and '"x0021"' not in page  # the sample only (x0020 starts the first shard's entry)
    open_page(browser, out / "report.html")

    def listed():
        return browser.execute_script("return [...document.querySelectorAll('#g-rows tr')].map(r => r.dataset.game)")

    def scripts():
        return browser.execute_script("return [...document.querySelectorAll('script[src]')]"
                                      ".map(s => s.getAttribute('src'))")

    assert listed() == [f"x{i:04d}" for i in range(20)]
    assert "20 of 130 loaded" in browser.find_element("id", "g-page").text
    browser.find_element("id", "g-next").click()  # past the sample: the first shard loads
    assert wait(lambda: listed() == [f"x{i:04d}" for i in range(50, 60)])  # page 2 of the 60 loaded
    # An address naming a game of the last shard loads that shard alone (not the 500 before it of a million-game
    # page) and opens it.
    browser.get("about:blank")  # a new document, not a jump within the page: no shard loaded yet
    open_page(browser, out / "report.html", "#game=x0125&turn=3")
    assert wait(lambda: browser.execute_script("return window.lastcard.state()")["game"] == "x0125")
    assert browser.execute_script("return window.lastcard.state()")["turn"] == 3
    assert scripts() == ["report_files/games-00003.js"]
    frames = browser.execute_script("return window.lastcard.framesOf('x0125').map(f => [f.hands, f.top, f.seat])")
    _, expected = rebuild(load(str(out), "x0125").stored, frames=True)
    assert [[list(h) for h in f.hands] for f in expected] == [f[0] for f in frames]
    # The list still pages through every game in order, and the shard loaded ahead is not loaded again.
    assert "20 of 130 loaded" in browser.find_element("id", "g-page").text
    for _ in range(5):  # to the end: the shards before the one loaded ahead load in order
        if not browser.find_element("id", "g-next").is_enabled():
            break
        before = listed()
        browser.find_element("id", "g-next").click()
        assert wait(lambda: listed() != before)  # noqa: B023 - called at once, in this iteration
    assert "page 3 of 3 (130 games)" in browser.find_element("id", "g-page").text
    pages = [listed()]
    while browser.find_element("id", "g-prev").is_enabled():
        browser.find_element("id", "g-prev").click()
        pages.insert(0, listed())
    assert sum(pages, []) == [f"x{i:04d}" for i in range(130)]
    assert scripts() == [f"report_files/games-0000{k}.js" for k in (3, 1, 2)]
    # An address of a game the page does not have says so at once: the shards' id ranges rule it out.
    for missing in ("x0130", "x00205", "w1", "x0019b"):
        browser.get("about:blank")
        open_page(browser, out / "report.html", f"#game={missing}&turn=0")
        assert wait(lambda: "has no game" in browser.find_element("id", "g-note").text)
        assert scripts() == [], missing
    assert errors(browser) == []



def test_a_game_the_page_did_not_replay_says_how_to_replay_it(browser, results, tmp_path):
    """Past ``taped_games`` a game's row is listed but its replay is not in the page: opening it says so, with the
    terminal command that replays it."""
    lines = [json.loads(line) for line in open(results / "games.jsonl")]
    many = [{**lines[i % 6], "game": f"x{i:04d}"} for i in range(60)]
    out = write_results_dir(tmp_path / "long", many)
    write_report(str(out), inline_games=50, sample_games=20, shard_games=40, taped_games=10)
    open_page(browser, out / "report.html", "#game=x0012&turn=0")
    assert wait(lambda: "x0012" in browser.find_element("id", "v-meta").text)
    meta = browser.find_element("id", "v-meta").text
    assert "cannot be replayed here: the page replays the first 10 games" in meta and "x0012" in meta, meta
    assert errors(browser) == []

def wait(check, seconds: float = 10.0) -> bool:
    import time

    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():
            return True
        time.sleep(0.05)
    return check()
