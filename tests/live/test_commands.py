"""``--live`` on ``compare`` and ``ladder run``, over the event stream: what each shows, and how it ends."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from tests.support.live_runs import close_page, events_until_the_end, start_live

pytestmark = pytest.mark.slow

LADDER = """\
name: live-ladder
seed: 3
ruleset: compact
seats: 3
bootstrap: 20
bots: [builtin:hard, builtin:random, builtin:medium, builtin:easy]
"""


def test_compare_shows_its_block_and_the_llr_trace_against_the_bounds(tmp_path: Path) -> None:
    proc, url = start_live("compare", "builtin:medium", "builtin:easy", "--elo0", "0", "--elo1", "5",
                           "--max-games", "400", "--out", str(tmp_path / "out"))
    states = events_until_the_end(url)
    assert close_page(proc)[0] == 0
    last = states[-1]
    block = last["comparison"]
    assert block["lower"] < 0 < block["upper"]
    assert len(block["trace"]) * 2 == last["progress"]["done"] > 0  # a point per pair, the last pair included
    assert block["lines"][0].startswith("Results of medium vs easy")
    assert any(line.startswith("LLR:") for line in block["lines"])
    assert last["phase"] == "finished"
    assert [r["bot"] for r in last["standings"]["rows"]] == ["medium", "easy"]
    assert last["replay"] is True and last["games"]


def test_ladder_run_shows_the_standings_of_the_kept_games(tmp_path: Path) -> None:
    arena = tmp_path / "ladder.yaml"
    arena.write_text(LADDER)
    proc, url = start_live("ladder", "run", str(arena), "--db", str(tmp_path / "l.sqlite"), "--jobs", "1",
                           "--games-per-bot", "150")
    states = events_until_the_end(url)
    assert close_page(proc)[0] == 0
    last = states[-1]
    assert last["phase"] == "finished" and "every bot has its share" in last["message"]
    assert sorted(r["bot"] for r in last["standings"]["rows"]) == ["easy", "hard", "medium", "random"]
    assert last["standings_games"] == last["progress"]["done"] == 200
    assert last["replay"] is True  # its games, read from the ladder file when one is opened


def test_match_without_out_shows_its_games_but_offers_no_replays() -> None:
    proc, url = start_live("match", "builtin:medium", "builtin:random", "-n", "300")
    states = events_until_the_end(url)
    assert close_page(proc)[0] == 0
    last = states[-1]
    assert last["phase"] == "finished" and last["progress"]["done"] == 300
    assert [r["bot"] for r in last["standings"]["rows"]] == ["medium", "random"]
    assert last["replay"] is False and len(last["games"]) == 25  # the latest few, not every game


def test_a_bad_address_and_a_taken_port_stop_the_command_before_it_plays(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from referee.cli.main import cli

    bad = CliRunner().invoke(cli, ["match", "builtin:easy", "builtin:random", "--live", "80a"])
    assert bad.exit_code == 2 and "'80a' is not [HOST:]PORT" in bad.output
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        busy = CliRunner().invoke(cli, ["match", "builtin:easy", "builtin:random", "--live", str(port),
                                        "--out", str(tmp_path / "out")])
    assert busy.exit_code == 2 and f"port {port} is in use" in busy.output and "Traceback" not in busy.output
    assert not (tmp_path / "out" / "games.jsonl").exists()
