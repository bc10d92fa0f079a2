"""``lastcard play --browser`` refusing what it cannot do (said before anything starts, exit status 2), and the
table's server refusing what only its own page may send: a move without the page's token, a request made
under another host name, a move too long, a version that is not a number."""

from __future__ import annotations

import json
import socket
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli.main import cli
from referee.live.address import LiveAddress
from referee.play.desk import Desk
from referee.play.server import MOVE_BYTES, PlayServer
from tests.support.replaydata import small_results_dir


def play(*args: str):
    return CliRunner().invoke(cli, ["play", *args])


@pytest.mark.parametrize(("args", "says"), [
    (["--out", "somewhere", "builtin:easy"], "--out is for --browser: in the terminal, --save FILE keeps the game"),
    (["--port", "8000", "builtin:easy"], "--port is for --browser"),
    (["--browser", "--save", "g.jsonl", "builtin:easy"], "--save is for the terminal: with --browser the game is "
                                                         "stored in --out"),
    (["--browser"], "give the bots to play against: --vs BOT (1 to 5), or --arena FILE for a contest's; or name "
                    "them as arguments (lastcard play builtin:hard)"),
    (["--browser", *["builtin:easy"] * 6], "6 opponents given: play against 1 to 5 bots"),
])
def test_what_play_browser_refuses_before_it_starts(args, says):
    out = play(*args)
    assert out.exit_code == 2 and says in " ".join(out.output.split()), out.output


def test_a_results_folder_that_holds_games_is_not_mixed_into(tmp_path: Path):
    folder = small_results_dir(tmp_path / "run", faulty=False)
    out = play("--browser", "--out", str(folder), "builtin:easy")
    assert out.exit_code == 2
    assert "already holds games: give another --out (or none: the game goes to a new folder under results/)" in \
        " ".join(out.output.split())


@pytest.mark.slow  # opens a socket
def test_a_taken_port_is_said_with_the_fix():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        out = play("--browser", "--port", str(port), "builtin:easy")
    assert out.exit_code == 2
    assert f"--port {port}: the port is in use on 127.0.0.1" in out.output and "--port 0 for any free one" in \
        " ".join(out.output.split())


def request(url: str, data: bytes | None = None, headers: dict[str, str] | None = None) -> tuple[int, str]:
    req = urllib.request.Request(url, data=data, headers=headers or {}, method="POST" if data is not None else "GET")
    try:
        with urllib.request.urlopen(req, timeout=10) as reply:
            return reply.status, reply.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


@pytest.mark.slow  # opens a socket
def test_the_server_takes_moves_only_from_its_own_page():
    desk = Desk(token="page-token")
    desk.show({"phase": "waiting"})
    with PlayServer(LiveAddress("127.0.0.1", 0), desk) as server:
        base = server.url.rstrip("/")
        status, page = request(base + "/")
        assert status == 200 and "<script src=\"/play.js\"></script>" in page
        status, body = request(base + "/state.json")
        assert status == 200 and json.loads(body)["token"] == "page-token"
        move = json.dumps({"turn": 0, "choice": 0}).encode()
        status, said = request(base + "/move", move, {"Content-Type": "application/json"})
        assert status == 403 and "its token is missing or wrong" in said
        token = {"X-Lastcard-Token": "page-token"}
        status, said = request(base + "/move", move, token)
        assert status == 409 and json.loads(said) == {"error": "it is not your turn: wait for the other players",
                                                       "stale": True}
        status, said = request(base + "/move", b"x" * (MOVE_BYTES + 1), token)
        assert status == 400 and f"at most {MOVE_BYTES} bytes" in said
        status, said = request(base + "/move", b"[1]", token)
        assert status == 400 and "the move is a JSON object" in said
        status, said = request(base + "/state.json?since=abc")
        assert status == 400 and "since='abc' is not a whole number" in said
        status, said = request(base + "/state.json", headers={"Host": f"evil.example:{server.port}"})
        assert status == 421 and "this table answers only at" in said
        status, said = request(base + "/report.html")
        assert status == 404 and "the replay is here once the game is over" in said
