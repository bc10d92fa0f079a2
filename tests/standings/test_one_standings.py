"""One standings, told the same everywhere: an arena's (and a ladder's) standings rendered by every surface
(the terminal, standings.md, standings.csv, results.json, report.html, bots/NAME.md, ``ladder standings``)
give each bot the same rank range, the same "reached" round, and the same left-out entrants with reasons."""

from __future__ import annotations

import csv
import io
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli.main import cli
from tests.conftest import ROOT

pytestmark = pytest.mark.slow

RANDOM_BOT = ROOT / "sample_bots" / "python" / "random_bot.py"

ARENA = f"""
name: surfaces
seed: 5
seats: 2
bootstrap: 40
ruleset: arcade
bots:
  - builtin:hard
  - builtin:medium
  - builtin:easy
  - builtin:random
  - {{name: pyrand, command: "{{python}} {RANDOM_BOT}"}}
  - {{name: needs-tool, command: "no-such-tool-xyz --play", requires: no-such-tool-xyz}}
stages:
  - {{name: league, format: round_robin, games: 2}}
  - {{name: cup, format: knockout, games: 2, advance: 1}}
"""


class _Table(HTMLParser):
    """The rows of report.html's standings table: each row's cell texts."""

    def __init__(self) -> None:
        super().__init__()
        self.inside = False
        self.rows: list[list[str]] = []
        self.header: list[str] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag == "table" and ("class", "standings") in attrs:
            self.inside = True
        elif self.inside and tag == "tr":
            self.rows.append([])
        elif self.inside and tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "table" and self.inside:
            self.inside = False
        elif self.inside and tag in ("td", "th") and self._cell is not None:
            self.rows[-1].append("".join(self._cell).strip())
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def terminal_rows(text: str) -> tuple[dict[str, tuple[str, str]], dict[str, str]]:
    """bot -> (rank, reached) from the terminal table, and bot -> reason from its ``left out:`` lines."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.lstrip().startswith("rank  bot"))
    header = lines[start]
    reached_at = header.index("reached") if "reached" in header else None
    rows, left = {}, {}
    for line in lines[start + 2:]:
        if line.startswith("left out: "):
            bot, reason = re.match(r"left out: (\S+) \((.*)\)$", line).groups()
            left[bot] = reason
            continue
        if not line.strip() or not re.match(r"^\s*\d", line):
            break
        rank, bot = line.split()[:2]
        rows[bot] = (rank, line[reached_at:].strip() if reached_at is not None else "")
    return rows, left


def markdown_rows(text: str) -> tuple[dict[str, tuple[str, str]], dict[str, str]]:
    table = [line for line in text.splitlines() if line.startswith("| ")]
    header = [c.strip() for c in table[0].strip("|").split("|")]
    rows, left = {}, {}
    for line in table[1:]:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != len(header):
            break  # the next table (head to head)
        if cells[0] == "-":
            left[cells[1]] = cells[-1].removeprefix("left out: ")
        else:
            rows[cells[1]] = (cells[0], cells[header.index("reached")] if "reached" in header else "")
    return rows, left


def csv_rows(text: str) -> tuple[dict[str, tuple[str, str]], dict[str, str]]:
    rows, left = {}, {}
    for r in csv.DictReader(io.StringIO(text)):
        if not r["rank"]:
            left[r["bot"]] = r["left_out"]
            continue
        best, worst = r["rank_best"], r["rank_worst"]
        rows[r["bot"]] = (best if best == worst else f"{best}-{worst}", r.get("reached", ""))
    return rows, left


def json_rows(doc: dict) -> tuple[dict[str, tuple[str, str]], dict[str, str]]:
    ranges = doc["order"]["rank_ranges"]
    rows = {r["bot"]: ("{}".format(ranges[r["bot"]][0]) if ranges[r["bot"]][0] == ranges[r["bot"]][1]
                       else "{}-{}".format(*ranges[r["bot"]]), r.get("reached", "")) for r in doc["standings"]}
    return rows, {x["bot"]: x["reason"] for x in doc["left_out"]}


def html_rows(text: str) -> tuple[dict[str, tuple[str, str]], dict[str, str]]:
    parser = _Table()
    parser.feed(text)
    header, *body = parser.rows
    rows, left = {}, {}
    for cells in body:
        if cells[0] == "-":
            left[cells[1]] = cells[2].removeprefix("left out: ")
        else:
            rows[cells[1]] = (cells[0], cells[header.index("reached")] if "reached" in header else "")
    return rows, left


@pytest.fixture(scope="module")
def arena_run(tmp_path_factory) -> tuple[Path, str]:
    tmp = tmp_path_factory.mktemp("surfaces")
    (tmp / "arena.yaml").write_text(ARENA)
    res = CliRunner().invoke(cli, ["arena", str(tmp / "arena.yaml"), "--out", str(tmp / "out"), "--jobs", "2",
                                   "--quiet"])
    assert res.exit_code == 0, res.output
    return tmp / "out", res.stdout


def test_every_surface_of_an_arena_renders_the_same_standings(arena_run):
    out, terminal = arena_run
    doc = json.loads((out / "results.json").read_text())
    expected = json_rows(doc)
    rows, left = expected
    # The run is one that tests something: ranges shared, a knockout's rounds reached, an entrant left out.
    assert any("-" in rank for rank, _ in rows.values()), rows
    assert {reached for _, reached in rows.values()} >= {"cup final", "cup round 1"}, rows
    assert left == {"needs-tool": "needs 'no-such-tool-xyz', which is not on PATH"}
    assert terminal_rows(terminal) == expected
    assert markdown_rows((out / "standings.md").read_text()) == expected
    assert csv_rows((out / "standings.csv").read_text()) == expected
    assert terminal_rows((out / "standings.txt").read_text()) == expected
    assert html_rows((out / "report.html").read_text()) == expected
    report = (out / "bots" / "pyrand.md").read_text()
    assert f"place: **{rows['pyrand'][0]}** of" in report and f"reached {rows['pyrand'][1]}" in report
    assert "left out" in (out / "bots" / "needs-tool.md").read_text()
    index = (out / "bots" / "index.md").read_text()
    assert f"| {rows['pyrand'][0]} | pyrand |" in index


def test_the_report_breaks_the_games_down_by_stage(arena_run):
    out, _ = arena_run
    doc = json.loads((out / "results.json").read_text())
    league, cup = doc["stages"]
    assert league["played"] == 20 and sum(r["games"] for r in league["records"]) == 2 * 20
    assert cup["played"] == sum(rnd["games"] for rnd in cup["rounds"])
    page = (out / "report.html").read_text()
    assert "By stage" in page and "league (round_robin, 20 games)" in page
    assert "## By stage" in (out / "standings.md").read_text()


def test_a_ladder_tells_the_same_standings_in_its_run_its_files_and_ladder_standings(tmp_path):
    arena = tmp_path / "ladder.yaml"
    arena.write_text(f"name: lad\nseed: 3\nseats: 2\nbootstrap: 40\nruleset: arcade\nbots:\n"
                     f"  - builtin:hard\n  - builtin:medium\n  - builtin:random\n"
                     f"  - {{name: pyrand, command: \"{{python}} {RANDOM_BOT}\"}}\n"
                     f"  - {{name: needs-tool, command: \"no-such-tool-xyz\", requires: no-such-tool-xyz}}\n")
    db, out = tmp_path / "l.sqlite", tmp_path / "report"
    run = CliRunner().invoke(cli, ["ladder", "run", str(arena), "--db", str(db), "--out", str(out),
                                   "--games-per-bot", "6", "--quiet"])
    assert run.exit_code == 0, run.output
    expected = json_rows(json.loads((out / "results.json").read_text()))
    assert expected[1] == {"needs-tool": "needs 'no-such-tool-xyz', which is not on PATH"}
    assert any("-" in rank for rank, _ in expected[0].values()), expected  # ranges to keep: a test of something
    assert terminal_rows(run.stdout) == expected
    shown = CliRunner().invoke(cli, ["ladder", "standings", "--db", str(db)])
    assert shown.exit_code == 0, shown.output
    assert terminal_rows(shown.stdout) == expected
    assert markdown_rows((out / "standings.md").read_text()) == expected
    assert csv_rows((out / "standings.csv").read_text()) == expected
    assert terminal_rows((out / "standings.txt").read_text()) == expected
    assert html_rows((out / "report.html").read_text()) == expected
    assert (out / "bots" / "pyrand.md").exists() and (out / "bots" / "index.md").exists()
    assert f"place: **{expected[0]['pyrand'][0]}** of" in (out / "bots" / "pyrand.md").read_text()
