"""The planned games are the same number in `validate`, the run's banner and its end (a range in `validate`
when build steps may leave bots out, the exact number with `validate --build`); a bot that never starts ends
an arena with a warning naming it."""

from __future__ import annotations

import json
import re
import shutil

import pytest
from click.testing import CliRunner

from referee.cli.main import cli

pytestmark = pytest.mark.slow

needs_gcc = pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc for the build steps")

ARENA = """
name: counts
seed: 4
seats: 2
bootstrap: 0
ruleset: arcade
bots:
  - builtin:hard
  - builtin:medium
  - builtin:easy
  - builtin:random
  - {name: builds, command: ./bot, cwd: good, build: "gcc -o bot bot.c"}
  - {name: broken, command: ./bot, cwd: bad, build: "gcc -o bot bot.c"}
stages:
  - {name: league, format: round_robin, games: 1}
  - {name: cup, format: knockout, games: 2, advance: 1, entrants: 4}
"""

GOOD_C = r"""
#include <stdio.h>
#include <string.h>
int main(void) {
    char line[65536];
    setvbuf(stdout, NULL, _IOLBF, 0);
    while (fgets(line, sizeof line, stdin)) {
        if (strstr(line, "\"type\":\"hello\"")) puts("{\"type\":\"ready\",\"name\":\"builds\"}");
        else if (strstr(line, "\"type\":\"turn\"")) {
            char *legal = strstr(line, "\"legal\":[");
            char *id = strstr(line, "\"id\":");
            if (!legal || !id) continue;
            legal += 9;
            char *end = strchr(legal, '}');
            printf("{\"type\":\"action\",\"id\":%ld,\"action\":%.*s}\n", strtol(id + 5, NULL, 10),
                   (int)(end - legal + 1), legal);
        } else if (strstr(line, "\"type\":\"quit\"")) return 0;
    }
    return 0;
}
"""


def _setup(tmp_path):
    (tmp_path / "good").mkdir()
    (tmp_path / "good" / "bot.c").write_text("#include <stdlib.h>\n" + GOOD_C)
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "bot.c").write_text("int main(void) { return 0 }\n")  # does not compile
    (tmp_path / "arena.yaml").write_text(ARENA)
    return tmp_path / "arena.yaml"


def _planned(text: str) -> int:
    return int(re.search(r"(\d+) games planned", text).group(1))


@needs_gcc
def test_validate_the_banner_and_the_end_state_the_same_planned_games(tmp_path):
    path = _setup(tmp_path)
    runner = CliRunner()
    plain = runner.invoke(cli, ["validate", str(path)])
    assert plain.exit_code == 0, plain.output
    low, high = (int(x) for x in re.search(r"(\d+) games planned if all 2 build step\(s\) succeed; from (\d+)",
                                           plain.output).group(2, 1))
    built = runner.invoke(cli, ["validate", "--build", str(path)])
    assert built.exit_code == 0, built.output
    exact = _planned(built.output)
    assert low <= exact < high  # one of the two builds fails
    assert "would be left out: broken (build failed" in built.output
    run = runner.invoke(cli, ["arena", str(path), "--out", str(tmp_path / "out"), "--quiet", "--sandbox", "none"])
    assert run.exit_code == 0, run.output
    # Built first, the banner says validate --build's count; built beside the first games (where that leaves a core
    # free: runner.builds_beside_pays), it first counts the games of every bot, then, once the bad bot's build has
    # failed, those played again without it.
    banners = [int(n) for n in re.findall(r"(\d+) games planned", run.stderr)]
    assert banners in ([exact], [high, exact]), run.stderr
    assert f": {exact} of {exact} games" in run.stdout


def test_an_arena_leaves_out_a_bot_that_cannot_start_with_its_own_error(tmp_path):
    """Started twice before the games, failing alike both times: left out with that reason, not tried at every game."""
    (tmp_path / "arena.yaml").write_text(
        "name: never\nseats: 2\ngames: 2\nbootstrap: 0\nruleset: arcade\n"
        "bots: [builtin:hard, builtin:random, {name: ghost, command: '{python} no_such_bot.py'}]\n")
    res = CliRunner().invoke(cli, ["arena", str(tmp_path / "arena.yaml"), "--out", str(tmp_path / "out"), "--quiet"])
    assert res.exit_code == 0, res.output  # the contest went on without it
    assert "left out ghost: could not start (twice, the same way): the bot exited during startup" in res.stderr
    doc = json.loads((tmp_path / "out" / "results.json").read_text())
    assert [r["bot"] for r in doc["standings"]] == ["hard", "random"] and doc["games"] == 2
    assert any(x["bot"] == "ghost" and "exited during startup" in x["reason"] for x in doc["left_out"])
    games = [json.loads(x) for x in (tmp_path / "out" / "games.jsonl").read_text().splitlines()]
    assert all("ghost" not in g["seating"] for g in games)
