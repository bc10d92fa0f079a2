"""The live page's now-playing view: the report's replay viewer with no game of its own, given the game being
played turn by turn (``live.now``; ``live/now.js`` asks for it and hands it to the viewer's ``follow``).

For the projector: the viewer alone (no games list), its cards larger; a game that is still being played
ends in a frame where the seat to act is thinking (the tape's ``?SEAT`` step).
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any, cast

from referee.engine.cardfaces import CSS, MARKS, WILD_MARK
from referee.engine.notation import StoredGame
from referee.engine.rules import RuleOptions
from referee.html_report.markup import esc, replay_command
from referee.html_report.tape import tape
from referee.live.now import NowJson

TITLE = "now playing"
#: The viewer alone, larger: the page is for a room.
_PROJECTOR = ("#games,#v-meta .cmd{display:none}.card{width:50px;height:70px;font-size:17px}.card i{font-size:22px}"
              ".pile .card{width:62px;height:86px;font-size:19px}#v-action{font-size:20px}"
              "#now-status{color:#666;margin:4px 0}")


def now_tape(game: NowJson) -> str:
    """The viewer's tape of the followed game so far (``InvalidReplayError`` if the engine refuses it)."""
    options = cast(RuleOptions, dict(game["options"]))  # the followed game's own, as its job carried them
    stored = StoredGame(game["game"], int(game["seed"]), game["ruleset"], options, tuple(game["seating"]),
                        game["actions"])
    return tape(stored)


def now_page() -> str:
    """The now-playing page: the report's viewer with no games, its script, and ``/now.js`` that feeds it."""
    data = {"title": TITLE, "bots": [], "colours": CSS, "marks": {c: m for c, (_, m) in MARKS.items()},
            "wild": WILD_MARK, "games": [], "replay": replay_command(), "problems": [], "stages": [], "total": 0,
            "shards": [], "untaped": ""}
    return (f"<!doctype html>\n<html lang=en><head><meta charset=utf-8>"
            f"<meta name=viewport content='width=device-width, initial-scale=1'><title>{esc(TITLE)} · lastcard live"
            f"</title><link rel=icon href='/favicon.ico'><style>{_asset('report.css')}{_PROJECTOR}</style></head>\n"
            f"<body>\n<header><h1>Now playing</h1><p id=now-status role=status>waiting for a game to start…</p>"
            f"<p class=sub><a href='/'>the live page</a></p></header>\n{_asset('games.html')}\n"
            f"<script type='application/json' id=lc-data>{_json(data)}</script>\n"
            "<script type='text/plain' id=lc-tapes></script>\n<script type='text/plain' id=lc-notes></script>\n"
            f"<script>{_asset('report.js')}</script>\n<script src='/now.js'></script>\n</body></html>\n")


def _asset(name: str) -> str:
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":")).replace("<", "\\u003c")
