"""The live page's server over plain HTTP: the JSON snapshot, the event stream, the page's headers, a taken
port, and a hostile bot's name and message kept as data (never HTML)."""

from __future__ import annotations

import json
import socket
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Iterator

import pytest

from referee.live import server as live_server
from referee.live.address import LiveAddress
from referee.live.server import LiveServer, LiveServerError
from referee.live.state import LiveState, RunPhase
from tests.live.livedata import HOSTILE, MESSAGE, hostile_state, line
from tests.support.tiers import starts_processes

LIVE = Path(live_server.__file__).parent


@pytest.fixture
@starts_processes
def served() -> Iterator[tuple[LiveServer, LiveState]]:
    state = hostile_state()
    with LiveServer(LiveAddress("127.0.0.1", 0), state) as server:
        yield server, state


def get(server: LiveServer, path: str) -> tuple[int, dict[str, str], bytes]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{server.port}{path}", timeout=10) as reply:
            return reply.status, dict(reply.headers), reply.read()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read()


def test_state_json_carries_the_bots_words_as_data(served: tuple[LiveServer, LiveState]) -> None:
    server, _ = served
    status, headers, body = get(server, "/state.json")
    assert status == 200 and headers["Content-Type"] == "application/json"
    state: dict[str, Any] = json.loads(body)
    assert state["phase"] == RunPhase.RUNNING
    assert state["progress"]["done"] == 3 and state["progress"]["total"] == 10
    assert state["games"][0]["game"] == "g000003"  # the latest first
    assert state["faults"] == [{"game": "g000001", "bot": HOSTILE, "kind": "non_json", "message": MESSAGE}]
    assert [r["bot"] for r in state["standings"]["rows"]] == [HOSTILE, "plain"]
    bot_column = [c["header"] for c in state["standings"]["columns"]].index("bot")
    assert state["standings"]["rows"][0]["cells"][bot_column] == HOSTILE
    assert state["standings"]["left_out"] == [{"bot": f"late{HOSTILE}", "reason": MESSAGE}]


def test_the_page_is_static_and_may_run_no_inline_script(served: tuple[LiveServer, LiveState]) -> None:
    server, _ = served
    status, headers, body = get(server, "/")
    assert status == 200
    assert "script-src 'self'" in headers["Content-Security-Policy"]
    assert b"onerror" not in body and b"plain" not in body  # nothing of the run is in the HTML itself
    script = (LIVE / "page.js").read_text()
    for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval("):
        assert sink not in script, f"page.js uses {sink}: bot text must go in with textContent"


def test_events_send_each_new_version(served: tuple[LiveServer, LiveState]) -> None:
    server, state = served
    with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/events", timeout=10) as stream:
        assert stream.headers["Content-Type"] == "text/event-stream"
        first = _event(stream)
        state.game(line(4, ("plain", HOSTILE), (1, 2)))
        second = _event(stream)
        assert state.watchers == 1  # an open stream counts as someone watching: the standings are kept fresh
    assert second["version"] > first["version"]
    assert second["games"][0]["game"] == "g000004"
    assert first["games"][0]["game"] == "g000003"


def _event(stream: Any) -> dict[str, Any]:
    """The next ``data:`` event (comments skipped)."""
    while True:
        raw = stream.readline()
        if raw.startswith(b"data: "):
            assert stream.readline() == b"\n"
            event: dict[str, Any] = json.loads(raw[len(b"data: "):])
            return event


def test_the_end_and_how_to_resume(served: tuple[LiveServer, LiveState]) -> None:
    server, state = served
    state.finish(RunPhase.INTERRUPTED, "3 of 10 games saved", resume="lastcard arena a.yaml --resume")
    ended = json.loads(get(server, "/state.json")[2])
    assert ended["phase"] == "interrupted"
    assert ended["resume"] == "lastcard arena a.yaml --resume"
    assert ended["progress"]["eta_s"] is None


def test_no_replay_viewer_without_the_games_and_nothing_else_served(served: tuple[LiveServer, LiveState]) -> None:
    server, _ = served
    status, _, body = get(server, "/report.html")
    assert status == 404 and b"--out" in body
    assert get(server, "/../../etc/passwd")[0] == 404
    assert get(server, "/report_files/../../etc/passwd")[0] == 404


@pytest.mark.slow
def test_a_taken_port_is_a_clear_error() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(LiveServerError) as err:
            LiveServer(LiveAddress("127.0.0.1", port), LiveState("t", "arena"))
    message = str(err.value)
    assert f"port {port} is in use" in message and "give another port" in message


def test_standings_are_recomputed_only_when_watched_and_not_too_often() -> None:
    state = LiveState("t", "arena")
    calls: list[int] = []

    def standings() -> Any:
        calls.append(1)
        return hostile_state().standings

    state.refresh(standings, 1)
    assert calls == []  # nobody watches: nothing computed
    state.snapshot()  # a page asked
    state.refresh(standings, 2)
    state.refresh(standings, 3)  # within REFRESH_MIN_S of the last: skipped
    assert len(calls) == 1 and state.standings_games == 2
