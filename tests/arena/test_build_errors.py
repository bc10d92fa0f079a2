"""Build errors where the teacher looks: a failed build's first error lines (the cause), not its last lines (for
a C submission, warnings after the error), in the terminal, the live page's notes, ``validate --build`` and
``check --arena --json``."""

from __future__ import annotations

import html
import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.builds.steps import LeftOut, first_errors
from referee.cli.main import cli

#: A syntax error on line 3, then code gcc and clang warn about by default.
BAD_C = """#include <stdio.h>
int main(void) {
    int x = 1
    return 0;
}
unsigned char a = 300;
unsigned char b = 301;
int d = 1 << 40;
int e = 1 << 41;
"""
ARENA = """name: builds
seed: 1
seats: 2
bots:
  - submissions: {path: "subs/*"}
  - builtin:easy
  - builtin:random
stages:
  - {name: s, format: round_robin, games: 1}
"""
ERROR_LINE = re.compile(r"bot\.c:[34]:\d+: error: expected")
needs_cc = pytest.mark.skipif(shutil.which("cc") is None, reason="needs a C compiler (cc) for the build step")


def test_the_first_error_is_shown_with_its_context_and_not_the_warnings_after_it() -> None:
    output = "\n".join([
        "bot.c: In function 'main':", "bot.c:3:5: error: expected ',' or ';' before 'return'",
        "    3 |     return 0;", "      |     ^~~~~~", "bot.c: At top level:",
        "bot.c:6:19: warning: unsigned conversion changes value from '300' to '44' [-Woverflow]",
        "    6 | unsigned char a = 300;", "      |                   ^~~"])
    assert first_errors(output).splitlines() == ["bot.c: In function 'main':",
                                                 "bot.c:3:5: error: expected ',' or ';' before 'return'",
                                                 "    3 |     return 0;", "      |     ^~~~~~"]
    assert LeftOut("fred", "build failed", first_errors(output)).first_error.startswith("bot.c:3:5: error:")


def test_output_without_an_error_line_shows_its_last_lines() -> None:
    output = "\n".join(f"line {i}" for i in range(20))
    assert first_errors(output).splitlines() == [f"line {i}" for i in range(14, 20)]


def _contest(tmp_path: Path) -> Path:
    (tmp_path / "subs" / "carl").mkdir(parents=True)
    (tmp_path / "subs" / "carl" / "bot.c").write_text(BAD_C)
    path = tmp_path / "builds.yaml"
    path.write_text(ARENA)
    return path


@pytest.mark.slow
@needs_cc
def test_validate_build_and_check_arena_json_show_the_compilers_first_error(tmp_path: Path) -> None:
    arena = _contest(tmp_path)
    validated = CliRunner().invoke(cli, ["validate", "--build", str(arena)])
    assert validated.exit_code == 0, validated.output
    said = validated.output.split("would be left out: carl (build failed (exit code 1))\n")[1]
    assert ERROR_LINE.search(said)  # gcc: bot.c:4:5 (before the return), clang: bot.c:3:14
    assert "warning" not in said and "Woverflow" not in said
    checked = CliRunner().invoke(cli, ["check", "--arena", str(arena), "--json"])
    doc = json.loads(checked.stdout)
    [left] = doc["not_checked"]
    assert left["bot"] == "carl" and ERROR_LINE.search(left["detail"])
    assert "warning" not in left["detail"]


@pytest.mark.slow
@needs_cc
def test_the_run_shows_the_first_error_in_the_terminal_and_the_bots_pages(tmp_path: Path) -> None:
    arena = _contest(tmp_path)
    ran = CliRunner().invoke(cli, ["arena", str(arena), "--out", str(tmp_path / "out"), "--check-games", "0"])
    assert ran.exit_code == 0, ran.output
    said = ran.output.split("left out carl: build failed (exit code 1)")[1].split("\narena builds")[0]
    assert "error: expected" in said and "warning" not in said
    report = (tmp_path / "out" / "bots" / "carl.md").read_text()
    assert "Log: `logs/carl.build.log` in the results folder" in report and str(tmp_path) not in report
    page = (tmp_path / "out" / "bots" / "carl.html").read_text()  # the student's page: why it played no game
    build = page.split("<section id=build>")[1].split("</section>")[0]
    assert ERROR_LINE.search(html.unescape(build)) and "warning" not in build and str(tmp_path) not in page
