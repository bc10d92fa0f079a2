"""A bot's name as a file name: one rule, so the logs a pool writes are the ones reports and replays read."""

from __future__ import annotations

import pytest

from referee.bots.logs import build_log, safe_name, stderr_log
from referee.bots.pool import BotPool
from referee.bots.spec import BotSpec
from referee.store.game_source import stderr_path


@pytest.mark.parametrize("name, safe", [
    ("random#2", "random#2"), ("js-bot", "js-bot"), ("zoé martin", "zoé_martin"), ("../../etc/x", ".._.._etc_x"),
    ("a/b\\c:d", "a_b_c_d"),
], ids=["suffix-kept", "plain", "space", "no-climbing-out", "separators"])
def test_a_name_becomes_a_file_name_without_separators(name: str, safe: str) -> None:
    assert safe_name(name) == safe and "/" not in safe_name(name)


def test_the_pool_writes_the_log_every_reader_looks_for(tmp_path) -> None:
    logs = tmp_path / "logs"
    spec = BotSpec("zoé martin", "python3 bot.py")
    with BotPool(stderr_dir=str(logs)) as pool:
        client = pool.client(spec)
        assert client.stderr_path == stderr_log(str(logs), "zoé martin") == stderr_path(str(tmp_path), "zoé martin")
    assert build_log(str(logs), "zoé martin") == str(logs / "zoé_martin.build.log")
