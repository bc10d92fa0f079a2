"""The replay viewer shows, for the frame on screen, the ``replay --ask`` and ``--save-position`` commands (issue 52),
and they run as written in the results folder."""

from __future__ import annotations

import os
import shlex
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from referee.cli.main import cli
from referee.engine.notation import walk
from referee.html_report import write_report
from referee.store.game_record import load
from tests.support.browser import chromium, errors, open_page
from tests.support.replaydata import small_results_dir

pytestmark = pytest.mark.slow  # a browser


@pytest.fixture(scope="module")
def browser() -> Any:
    yield from chromium()


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = small_results_dir(tmp_path_factory.mktemp("viewer-cmds") / "out")
    write_report(str(out))
    return out


def shown(browser: Any) -> tuple[bool, str, str]:
    return browser.execute_script(  # type: ignore[no-any-return]
        "return [document.getElementById('v-cmds').hidden, document.getElementById('v-ask').textContent, "
        "document.getElementById('v-save').textContent]")


def test_the_frame_on_screen_has_its_commands(browser: Any, results: Path, tmp_path: Path) -> None:
    stored = load(str(results), "g0005").stored
    seat = next(game.current for i, game, _, _ in walk(stored) if i == 10)
    token = stored.actions.split()[10].rstrip("!")
    open_page(browser, results / "report.html", "#game=g0005&turn=10")
    hidden, ask, save = shown(browser)
    assert not hidden
    assert ask == f'lastcard replay . g0005 --seat {seat} --turn 10 --ask "YOUR BOT COMMAND"'
    assert save == f"lastcard replay . g0005 --seat {seat} --turn 10 --save-position positions.yaml --reject {token}"
    browser.find_element("id", "v-next").click()
    assert "--turn 11" in shown(browser)[1]
    # The command runs as written, in the results folder.
    words = shlex.split(save.replace("positions.yaml", str(tmp_path / "suite.yaml")))
    old = os.getcwd()
    os.chdir(results)
    try:
        res = CliRunner().invoke(cli, words[1:])
    finally:
        os.chdir(old)
    assert res.exit_code == 0, res.output
    assert "g0005-t10" in (tmp_path / "suite.yaml").read_text()
    assert errors(browser) == []


def test_the_end_of_the_game_has_none(browser: Any, results: Path) -> None:
    count = len(load(str(results), "g0005").stored.actions.split())
    open_page(browser, results / "report.html", f"#game=g0005&turn={count}")
    assert shown(browser)[0] is True


def test_a_stand_in_turn_asks_what_passes(browser: Any, results: Path) -> None:
    open_page(browser, results / "report.html")
    browser.find_element("css selector", "#g-rows tr[data-game='g0007'] button.open").click()
    browser.find_element("css selector", "#v-faults button.fault-turn").click()
    hidden, ask, save = shown(browser)
    assert not hidden and "--ask" in ask and save.endswith("--accept ACTION")
    assert errors(browser) == []
