"""report.html's "Bots that play alike": the matrix read from similarity.csv (a cell a pair: its kappa, marked
when the pair stands out, every figure in its title), the random bots named, and no section without the file."""

from __future__ import annotations

import csv
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli.main import cli
from referee.html_report import write_report
from referee.html_report.similarity import play_alike, play_alike_section
from referee.store.similarity_file import BotRow, PairRow, read_similarity, write_similarity
from tests.support.tiers import starts_processes


class Matrix(HTMLParser):
    """The similar table's cells: (row bot, column bot) -> (text, attributes)."""

    def __init__(self) -> None:
        super().__init__()
        self.inside = False
        self.columns: list[str] = []
        self.row: str | None = None
        self.column = 0
        self.cells: dict[tuple[str, str], tuple[str, dict[str, str | None]]] = {}
        self._text: list[str] = []
        self._cell: dict[str, str | None] | None = None
        self._head = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "table" and "similar" in (a.get("class") or ""):
            self.inside = True
        if not self.inside:
            return
        if tag == "thead":
            self._head = True
        elif tag == "tr":
            self.row, self.column = None, 0
        elif tag in ("th", "td"):
            self._text, self._cell = [], a if tag == "td" else None

    def handle_endtag(self, tag: str) -> None:
        if not self.inside:
            return
        text = "".join(self._text).strip()
        if tag == "table":
            self.inside = False
        elif tag == "thead":
            self._head = False
        elif tag == "th" and self._head and text:
            self.columns.append(text)
        elif tag == "th":
            self.row = text
        elif tag == "td" and self.row is not None and self._cell is not None:
            self.cells[(self.row, self.columns[self.column])] = (text, self._cell)
            self.column += 1

    def handle_data(self, data: str) -> None:
        self._text.append(data)


@pytest.fixture(scope="module")
@starts_processes
def compared(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("alike") / "out"
    runner = CliRunner()
    res = runner.invoke(cli, ["match", "-n", "6", "--seed", "4", "--out", str(out), "--no-report", "builtin:random",
                              "builtin:hard", "builtin:medium", "builtin:easy"])
    assert res.exit_code == 0, res.output
    res = runner.invoke(cli, ["similar", str(out), "--scripts", "6", "--jobs", "1"])
    assert res.exit_code == 0, res.output
    write_report(str(out))
    return out


def test_the_matrix_shows_each_pairs_kappa_from_the_csv_and_marks_those_that_stand_out(compared: Path):
    rows = list(csv.DictReader((compared / "similarity.csv").open()))
    assert rows
    page = (compared / "report.html").read_text()
    assert "<section id=similar><h2>Bots that play alike</h2>" in page and "href='#similar'" in page
    parsed = Matrix()
    parsed.feed(page)
    bots = sorted({r["bot_a"] for r in rows} | {r["bot_b"] for r in rows})
    assert parsed.columns == bots
    for r in rows:
        for a, b in ((r["bot_a"], r["bot_b"]), (r["bot_b"], r["bot_a"])):  # both halves of the matrix
            text, attrs = parsed.cells[(a, b)]
            assert text == f"{float(r['kappa']):.2f}"
            assert (attrs.get("class") == "stands") == (r["stands_out"] == "yes")
            title = attrs["title"] or ""
            assert f"{float(r['agreement']):.0%} of {r['points']} decision points" in title
            assert f"chance (the class's play) predicts {float(r['baseline']):.0%}" in title
            assert f"{float(r['z']):.1f} standard errors above chance" in title
    assert all(parsed.cells[(b, b)][0] == "" for b in bots)
    randoms = [r["bot"] for r in csv.DictReader((compared / "similarity_bots.csv").open())
               if r["plays_at_random"] == "yes"]
    assert "random" in randoms
    for bot in randoms:
        assert f"<li>{bot} plays at random" in page
    assert "evidence to look at, not a verdict" in page


def test_no_section_without_similarity_csv(compared: Path, tmp_path: Path):
    res = CliRunner().invoke(cli, ["match", "-n", "2", "--out", str(tmp_path / "out"), "--no-report", "builtin:easy",
                                   "builtin:hard"])
    assert res.exit_code == 0, res.output
    page = Path(write_report(str(tmp_path / "out"))).read_text()
    assert "id=similar" not in page and "Bots that play alike" not in page and "#similar" not in page


def test_names_and_figures_are_escaped(tmp_path: Path):
    hostile = "<script>alert('x')</script>"
    write_similarity(str(tmp_path), [PairRow(hostile, "b&c", 40, 0.9, 0.5, 0.8, 5.0, 2.0, True)],
                     [BotRow(hostile, 1.0, False), BotRow("b&c", 1.0, False), BotRow("<i>", 0.2, True)])
    found = read_similarity(str(tmp_path))  # written and read back: the names go through the csv as they are
    assert found is not None and found.pairs[0].bot_a == hostile
    html = play_alike_section(play_alike(found))
    assert "<script>" not in html and "<i>" not in html
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in html and "b&amp;c" in html
