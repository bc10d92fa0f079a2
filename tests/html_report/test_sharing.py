"""report.html tells the truth and can be shared, asserted in headless Chromium on reports of real small runs.

Exact seeds, the whole game's turns, games in id order, an address per game and turn (back and forward
too), no heading over nothing, a title that names the match, and the stages of a multi-stage arena.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli.main import cli
from referee.html_report import write_report
from tests.support.browser import chromium, errors, open_page

pytestmark = pytest.mark.slow

MATCH_BOTS = ["builtin:hard", "builtin:medium", "builtin:random"]
CUP = """\
name: cupsmall
seed: 7
ruleset: family
options: {target: 200}
seats: 3
bots: [builtin:random, builtin:easy, builtin:medium, builtin:hard, "easy2=builtin:easy", "hard2=builtin:hard"]
stages:
  - {name: league, format: sampled, games: 3}
  - {name: cup, format: knockout, entrants: 6, games: 3, advance: 1, final_games: 3}
"""


@pytest.fixture(scope="module")
def browser():
    yield from chromium()


@pytest.fixture(scope="module")
def match_dir(tmp_path_factory) -> Path:
    """``lastcard match --out`` of three built-ins in family (games of several rounds), with its report."""
    out = tmp_path_factory.mktemp("share") / "match"
    res = CliRunner().invoke(cli, ["match", "-r", "family", "-n", "4", "--seed", "5", "--out", str(out), *MATCH_BOTS])
    assert res.exit_code == 0, res.output
    return out


@pytest.fixture(scope="module")
def cup_dir(tmp_path_factory) -> Path:
    """A two-stage arena of built-ins (a sampled league, then a knockout of two rounds), with its report."""
    base = tmp_path_factory.mktemp("share")
    (base / "cup.yaml").write_text(CUP)
    res = CliRunner().invoke(cli, ["arena", str(base / "cup.yaml"), "--out", str(base / "cup"), "-q", "-j", "1"])
    assert res.exit_code == 0, res.output
    return base / "cup"


def lines_of(out: Path) -> list[dict]:
    return [json.loads(line) for line in open(out / "games.jsonl", encoding="utf-8")]


def listed(browser) -> list[str]:
    return browser.execute_script("return [...document.querySelectorAll('#g-rows tr')].map(r => r.dataset.game)")


def state(browser) -> dict:
    return browser.execute_script("return window.lastcard.state()")


def wait_for(browser, script: str, want, timeout: float = 5.0):
    """Wait until ``script`` returns ``want`` (the address is rewritten a moment after the last step)."""
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.support.ui import WebDriverWait

    try:
        WebDriverWait(browser, timeout).until(lambda b: b.execute_script(script) == want)
    except TimeoutException:
        pytest.fail(f"{script} is {browser.execute_script(script)!r}, not {want!r}")


def reload(browser, path: Path, fragment: str = "") -> None:
    """A fresh load of the page (not a jump inside the one already open), as a shared link is opened."""
    browser.get("about:blank")
    open_page(browser, path, fragment)


# ------------------------------------------------------------------ exact numbers
def test_every_seed_is_shown_exactly(browser, cup_dir):
    lines = lines_of(cup_dir)
    assert any(line["seed"] > 2**53 for line in lines), "the test needs seeds past 2^53"
    reload(browser, cup_dir / "report.html")
    # No number of the page's data is an integer JavaScript holds inexactly.
    unsafe = browser.execute_script(
        "const bad = []; const walk = (v) => { if (typeof v === 'number' && Number.isInteger(v) && "
        "!Number.isSafeInteger(v)) bad.push(v); else if (v && typeof v === 'object') Object.values(v).forEach(walk); };"
        "walk(JSON.parse(document.getElementById('lc-data').textContent)); return bad;")
    assert unsafe == []
    for line in lines[:4]:
        browser.execute_script(f"window.lastcard.openGame('{line['game']}', 0, 'push')")
        meta = browser.find_element("id", "v-meta").text
        assert f" · seed {line['seed']} · " in meta, meta
    assert errors(browser) == []


def test_the_turns_column_counts_every_turn_of_the_game(browser, match_dir):
    lines = {line["game"]: line for line in lines_of(match_dir)}
    assert any(line["rounds"] > 1 and line["moves"] < len(line["actions"].split()) for line in lines.values())
    reload(browser, match_dir / "report.html")
    header = browser.execute_script("return document.querySelectorAll('table.games th')[3].textContent")
    assert header == "turns (whole game)"
    rows = browser.execute_script("return [...document.querySelectorAll('#g-rows tr')].map(r => "
                                  "[r.dataset.game, Number(r.cells[3].textContent)])")
    assert len(rows) == len(lines)
    for game, turns in rows:
        replay_turns = browser.execute_script(f"return window.lastcard.framesOf('{game}').length - 1")
        assert turns == replay_turns == len(lines[game]["actions"].split()), game
    assert errors(browser) == []


def test_games_are_listed_in_id_order_not_finishing_order(browser, cup_dir, tmp_path):
    target = tmp_path / "shuffled"
    shutil.copytree(cup_dir, target)
    lines = lines_of(cup_dir)
    with open(target / "games.jsonl", "w", encoding="utf-8") as fh:  # as if they had finished last first
        fh.writelines(json.dumps(line) + "\n" for line in reversed(lines))
    write_report(str(target))
    reload(browser, target / "report.html")
    ids = sorted(line["game"] for line in lines)
    assert [line["game"] for line in reversed(lines)] != ids
    assert listed(browser) == ids
    assert errors(browser) == []


# ------------------------------------------------------------------ the address
def test_opening_a_game_gives_an_address_that_reopens_it_at_its_turn(browser, match_dir):
    reload(browser, match_dir / "report.html")
    browser.find_element("css selector", "#g-rows tr[data-game='g0002'] button.open").click()
    wait_for(browser, "return location.hash", "#game=g0002&turn=0")
    for _ in range(3):
        browser.find_element("id", "v-next").click()
    wait_for(browser, "return location.hash", "#game=g0002&turn=3")
    address = browser.current_url
    hands = browser.execute_script("return document.getElementById('v-table').innerText")
    browser.get("about:blank")
    browser.get(address)
    assert state(browser) == {"game": "g0002", "turn": 3, "seat": -1}
    assert browser.find_element("id", "viewer").is_displayed()
    assert browser.execute_script("return document.getElementById('v-table').innerText") == hands
    assert errors(browser) == []


def test_back_and_forward_move_between_the_games_opened(browser, match_dir):
    reload(browser, match_dir / "report.html")
    browser.find_element("css selector", "#g-rows tr[data-game='g0001'] button.open").click()
    browser.find_element("css selector", "#g-rows tr[data-game='g0003'] button.open").click()
    assert state(browser)["game"] == "g0003"
    browser.back()
    wait_for(browser, "return window.lastcard.state().game", "g0001")
    browser.back()
    wait_for(browser, "return document.getElementById('viewer').hidden", True)
    assert browser.execute_script("return location.hash") == ""
    browser.forward()
    wait_for(browser, "return window.lastcard.state().game", "g0001")
    assert browser.find_element("id", "viewer").is_displayed()
    assert errors(browser) == []


@pytest.mark.parametrize("fragment, note_in, says", [
    pytest.param("#game=g9999", "g-note", 'This report has no game "g9999"', id="unknown-game"),
    pytest.param("#game=", "g-note", "The address names no game", id="no-game"),
    pytest.param("#game=%E0%A4%A&turn=2", "g-note", "This report has no game", id="bad-escape"),
    pytest.param("#game=g0002&turn=abc", "v-note", 'Turn "abc" is not a number', id="turn-not-a-number"),
    pytest.param("#game=g0002&turn=999999", "v-note", "it opens at the last", id="turn-past-the-end"),
])
def test_a_bad_address_shows_the_page_with_a_short_note(browser, match_dir, fragment, note_in, says):
    reload(browser, match_dir / "report.html", fragment)
    note = browser.find_element("id", note_in)
    assert note.is_displayed() and says in note.text
    assert len(listed(browser)) == len(lines_of(match_dir))  # the list is there: never a blank page
    if note_in == "v-note":
        frames = browser.execute_script("return window.lastcard.framesOf('g0002').length")
        assert state(browser)["game"] == "g0002" and state(browser)["turn"] in (0, frames - 1)
        wait_for(browser, "return location.hash", f"#game=g0002&turn={state(browser)['turn']}")
    else:
        assert not browser.find_element("id", "viewer").is_displayed()
    assert errors(browser) == []


# ------------------------------------------------------------------ headings and title
EMPTY_HEADINGS = """
return [...document.querySelectorAll('h1, h2, h3')]
  .filter((h) => h.getClientRects().length)
  .filter((h) => h.parentElement.innerText.replace(h.innerText, '').trim() === '')
  .map((h) => h.innerText);
"""


@pytest.mark.parametrize("which", ["match_dir", "cup_dir"])
def test_no_heading_stands_over_nothing(browser, request, which):
    out = request.getfixturevalue(which)
    reload(browser, out / "report.html")
    assert browser.execute_script(EMPTY_HEADINGS) == []
    game = lines_of(out)[0]["game"]
    browser.execute_script(f"window.lastcard.openGame('{game}', 0, 'push')")
    frames = browser.execute_script(f"return window.lastcard.framesOf('{game}').map(f => f.events.length)")
    assert 0 in frames and any(frames), "the game needs turns with and without news"
    for turn, news in enumerate(frames[:60]):
        browser.execute_script(f"window.lastcard.show({turn})")
        assert browser.execute_script(EMPTY_HEADINGS) == [], f"turn {turn}"
        shown = browser.find_element("id", "v-news").is_displayed()
        assert shown == bool(news), f"turn {turn}"
    assert errors(browser) == []


def test_a_match_is_titled_by_its_ruleset_and_bots_and_an_arena_by_its_name(browser, match_dir, cup_dir):
    reload(browser, match_dir / "report.html")
    want = "Match: family, hard vs medium vs random"
    assert browser.title == want and browser.find_element("tag name", "h1").text == want
    reload(browser, cup_dir / "report.html")
    assert browser.title == "Arena cupsmall" and browser.find_element("tag name", "h1").text == "Arena cupsmall"


def test_six_long_names_make_a_short_title(browser, tmp_path):
    names = [f"{kind}-player-with-a-rather-long-name-{i}" for i, kind in enumerate(["random", "easy"] * 3)]
    out = tmp_path / "six"
    res = CliRunner().invoke(cli, ["match", "-r", "arcade", "-n", "1", "--out", str(out),
                                   *(f"{name}=builtin:{name.split('-')[0]}" for name in names)])
    assert res.exit_code == 0, res.output
    reload(browser, out / "report.html")
    title = browser.find_element("tag name", "h1").text
    assert title == "Match: arcade, 6 bots: random-p…-name-0, easy-pla…-name-1 and 4 more"
    assert browser.title == title


# ------------------------------------------------------------------ stages
def test_each_stage_and_round_is_listed_with_who_went_through(browser, cup_dir):
    doc = json.load(open(cup_dir / "results.json"))
    lines = lines_of(cup_dir)
    reload(browser, cup_dir / "report.html")
    rows = browser.execute_script(
        "return [...document.querySelectorAll('#stages tbody tr')].map(r => [r.dataset.stage, Number(r.dataset.round),"
        " [...r.querySelectorAll('td')].map(td => td.innerText)])")
    want = [(stage["name"], r) for stage in doc["stages"] for r in stage["rounds"]]
    assert [(stage, number) for stage, number, _ in rows] == [(name, r["round"]) for name, r in want]
    cup_rounds = [r for name, r in want if name == "cup"]
    assert len(cup_rounds) == 2 and cup_rounds[0]["advanced"]
    for (_, _, cells), (name, r) in zip(rows, want):
        label, tables, games, played, through = cells
        games_here = [g for g in lines if g["stage"] == name and g["round"] == r["round"]]
        assert int(games) == len(games_here) == r["games"] and int(tables) == r["tables"]
        assert played.startswith(f"{len({n for g in games_here for n in g['seating']})}: ")
        if r.get("advanced"):
            assert through == f"{len(r['advanced'])}: " + ", ".join(
                sorted(r["advanced"], key=[row["bot"] for row in doc["standings"]].index))
        if name == "cup":
            assert label == r["label"]
    assert errors(browser) == []


def test_the_games_list_filters_by_stage_and_round(browser, cup_dir):
    lines = lines_of(cup_dir)
    reload(browser, cup_dir / "report.html")
    final = browser.find_element("css selector", "#stages a.stage-filter[data-filter='cup|2']")
    final.click()
    assert sorted(listed(browser)) == sorted(g["game"] for g in lines if (g["stage"], g["round"]) == ("cup", 2))
    from selenium.webdriver.support.ui import Select

    Select(browser.find_element("id", "g-stage")).select_by_value("league")
    assert sorted(listed(browser)) == sorted(g["game"] for g in lines if g["stage"] == "league")
    Select(browser.find_element("id", "g-stage")).select_by_value("")
    assert len(listed(browser)) == len(lines)
    assert browser.find_element("css selector", "#g-rows tr[data-game] td:nth-child(2)").text
    assert errors(browser) == []


def test_a_match_has_no_stage_breakdown(browser, match_dir):
    reload(browser, match_dir / "report.html")
    assert browser.find_elements("id", "stages") == []
    assert not browser.find_element("id", "g-stage-box").is_displayed()
