"""``seat_names: hidden``: the bots are told neutral labels (``seat1``...) instead of names, in ``hello``, in
``start.seats`` and everywhere else; the records and reports keep the names. Every line sent to every bot is
scanned (the records keep them all), and the same run with the names shown is the control that the scan sees
names where they are."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.arena.config import parse_arena
from referee.cli.main import cli
from referee.replay.record import read_record
from referee.replay.seat_lines import seat_script
from referee.store.game_record import load

ROOT = Path(__file__).resolve().parents[2]
PAL = ROOT / "tests" / "support" / "collusion_bots" / "pal.py"
#: Names no card, option or message field contains, so that finding one in a line means a name was told.
NAMES = ("alicebot", "bobbot", "zedbot")
BOTS = (f"alicebot={sys.executable} {PAL} bobbot", f"bobbot={sys.executable} {PAL} alicebot", "zedbot=builtin:hard")


def _sent(out: Path) -> list[str]:
    """Every line the referee sent to any bot in the run (its records keep them all)."""
    games = [json.loads(line)["game"] for line in (out / "games.jsonl").read_text().splitlines()]
    lines = []
    for game in games:
        record = read_record(str(out), game)
        assert record is not None, game
        lines += [entry["line"] for entry in record if entry.get("t") == "out"]
    return lines


def _match(out: Path, *extra: str) -> None:
    # --sandbox none: the scan needs no walls, and a shared CI machine starts the bots faster without them.
    res = CliRunner().invoke(cli, ["match", "-n", "3", "-r", "family", "-o", "target=round", "--seed", "4", "--out",
                                   str(out), "--records", "--no-report", "--sandbox", "none", *extra, *BOTS])
    assert res.exit_code == 0, res.output


@pytest.mark.slow
def test_hidden_names_are_never_told_to_any_bot_and_the_results_keep_them(tmp_path: Path):
    _match(tmp_path / "hidden", "--seat-names", "hidden")
    sent = _sent(tmp_path / "hidden")
    assert len(sent) > 100 and any('"type":"start"' in line for line in sent)
    assert not [line for line in sent if any(name in line for name in NAMES)]
    hellos = [json.loads(line) for line in sent if '"type":"hello"' in line]
    assert hellos and all(h["name"] == f"seat{h['seat'] + 1}" for h in hellos)
    starts = [json.loads(line) for line in sent if '"type":"start"' in line]
    assert all([s["name"] for s in start["seats"]] == ["seat1", "seat2", "seat3"] for start in starts)
    games = [json.loads(line) for line in (tmp_path / "hidden" / "games.jsonl").read_text().splitlines()]
    assert all(g["seat_names"] == "hidden" and set(g["seating"]) == set(NAMES) for g in games)
    results = json.loads((tmp_path / "hidden" / "results.json").read_text())
    assert set(NAMES) <= set(json.dumps(results).split('"'))


@pytest.mark.slow
def test_shown_names_are_told_as_before(tmp_path: Path):
    """The control: the same scan finds every name when they are shown, and the games.jsonl line is as it was."""
    _match(tmp_path / "shown")
    sent = _sent(tmp_path / "shown")
    assert all(any(name in line for line in sent) for name in NAMES)
    games = (tmp_path / "shown" / "games.jsonl").read_text()
    assert "seat_names" not in games


@pytest.mark.slow
def test_a_hidden_game_rebuilt_for_replay_tells_the_labels_too(tmp_path: Path):
    """A game whose record was not kept is rebuilt for ``replay --ask`` and ``similar``: with the labels the bots
    were told, so a bot asked again sees what it saw."""
    out = tmp_path / "norecords"
    res = CliRunner().invoke(cli, ["match", "-n", "1", "-r", "family", "-o", "target=round", "--seed", "4", "--out",
                                   str(out), "--no-report", "--seat-names", "hidden", "builtin:medium", "builtin:hard"])
    assert res.exit_code == 0, res.output
    script = seat_script(load(str(out), "g0001"), 0)
    assert not script.recorded and script.hidden and script.hello_name == "seat1"
    text = script.lines().decode()
    assert '"seats":[{"seat":0,"name":"seat1"},{"seat":1,"name":"seat2"}]' in text
    assert "medium" not in text and "hard" not in text


@pytest.mark.slow
def test_compare_hides_the_names_when_asked(tmp_path: Path):
    out = tmp_path / "cmp"
    res = CliRunner().invoke(cli, ["compare", BOTS[0], BOTS[1], "--field", "zedbot=builtin:hard", "--games", "2",
                                   "-r", "family", "-o", "target=round", "--out", str(out), "--records", "--no-report",
                                   "--sandbox", "none", "--seat-names", "hidden", "--quiet"])
    assert res.exit_code == 0, res.output
    sent = _sent(out)
    assert sent and not [line for line in sent if any(name in line for name in NAMES)]
    assert json.loads((out / "arena.json").read_text())["arena"]["seat_names"] == "hidden"


def test_a_class_contest_hides_the_names_unless_its_file_shows_them(tmp_path: Path):
    (tmp_path / "students" / "ada").mkdir(parents=True)
    (tmp_path / "students" / "ada" / "bot.py").write_text("print('x')\n")
    base = "name: c\nseats: 2\nbots:\n  - submissions: {path: 'students/*'}\n  - builtin:hard\n"
    assert parse_arena(base, base_dir=str(tmp_path)).hide_names
    assert not parse_arena(base + "seat_names: shown\n", base_dir=str(tmp_path)).hide_names
    two = "name: c\nseats: 2\nbots: [builtin:hard, builtin:easy]\n"
    assert not parse_arena(two, base_dir=str(tmp_path)).hide_names
    hidden = parse_arena("seat_names: hidden\n" + two, base_dir=str(tmp_path))
    assert hidden.hide_names and hidden.to_json()["seat_names"] == "hidden"
    assert "seat_names" not in parse_arena(two, base_dir=str(tmp_path)).to_json()
