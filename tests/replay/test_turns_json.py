"""``lastcard replay DIR GAME --json``: each turn, what the seat was told, the legal answers, its answer and its notes
(referee/replay/turns_json.py), driven as a user runs it."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from referee.cli.main import cli
from referee.engine.notation import decode_action
from tests.support.notedata import play_notes, seat_turns, store_game

pytestmark = pytest.mark.slow  # the notes bot is a process


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[int], str]:
    folder = tmp_path_factory.mktemp("json")
    result = play_notes(folder, game="g1", seed=11, opponents=("builtin:easy", "builtin:hard"))
    store_game(folder, result)
    return folder, seat_turns(result, 0), result.actions


def replay_json(folder: Path, *args: str) -> dict[str, Any]:
    res = CliRunner().invoke(cli, ["replay", str(folder), "g1", "--json", *args])
    assert res.exit_code == 0, res.output
    return json.loads(res.output)  # type: ignore[no-any-return]


def test_every_turn_has_its_request_legal_answers_and_answer(stored: tuple[Path, list[int], str]) -> None:
    folder, _, actions = stored
    doc = replay_json(folder)
    tokens = actions.split()
    assert doc["game"] == "g1" and doc["seating"] == ["notes", "easy", "hard"] and doc["format"] == 1
    assert [t["turn"] for t in doc["turns"]] == list(range(len(tokens)))  # every action was an answer to a request
    for turn in doc["turns"]:
        request = turn["request"]
        assert request["type"] == "turn" and request["you"] == turn["seat"]
        assert turn["bot"] == doc["seating"][turn["seat"]]
        assert turn["answer"]["code"] == tokens[turn["turn"]]
        assert turn["answer"]["code"] in turn["legal"]
        # the legal answers in the compact notation are the request's own, one for one
        assert [decode_action(c).to_wire(request["id"]) for c in turn["legal"]] == request["legal"]
        assert decode_action(turn["answer"]["code"]).to_wire() == turn["answer"]["wire"]
        assert all(m["type"] != "turn" for m in turn["told"])
    first = next(t for t in doc["turns"] if t["seat"] == 0)
    assert first["told"][0]["type"] == "start"  # the game's start, told before the seat's first request
    later = [t for t in doc["turns"] if t["seat"] == 0][1:]
    assert any(m["type"] == "event" for t in later for m in t["told"])  # what the others did in between


def test_the_notes_are_at_their_turn(stored: tuple[Path, list[int], str]) -> None:
    folder, turns, _ = stored
    doc = replay_json(folder, "--seat", "0")
    assert [t["turn"] for t in doc["turns"]] == turns
    for number, turn in enumerate(doc["turns"], 1):
        assert turn["request_number"] == number == turn["request"]["id"]
        texts = {(n["source"], n["text"].strip()) for n in turn["notes"]}
        assert ("stderr", f"request {number}: <b>hand {len(turn['request']['hand'])}</b>") in texts
        assert ("log", f"<i>log {number}</i>") in texts
    assert any("starting <script>" in n["text"] for n in doc["early_notes"])
    others = replay_json(folder, "--seat", "1")
    assert others["turns"] and all(t["seat"] == 1 and t["notes"] == [] for t in others["turns"])


def test_each_turn_carries_ready_commands(stored: tuple[Path, list[int], str], tmp_path: Path) -> None:
    folder, _, _ = stored
    turn = replay_json(folder, "--seat", "0")["turns"][2]
    ask = shlex.split(turn["ask"])
    assert ask[:3] == ["lastcard", "replay", str(folder)] and ask[ask.index("--turn") + 1] == str(turn["turn"])
    save = shlex.split(turn["save_position"].replace("positions.yaml", str(tmp_path / "s.yaml")))
    res = CliRunner().invoke(cli, save[1:])
    assert res.exit_code == 0, res.output
    assert f"--reject {turn['answer']['code']}" in turn["save_position"]
    assert (tmp_path / "s.yaml").exists()


@pytest.mark.parametrize("extra", [["--raw", "--seat", "0"], ["--verify"]])
def test_json_does_not_go_with_the_text_views(stored: tuple[Path, list[int], str], extra: list[str]) -> None:
    folder, _, _ = stored
    res = CliRunner().invoke(cli, ["replay", str(folder), "g1", "--json", *extra])
    assert res.exit_code == 2 and "--json writes the stored game as JSON" in res.output
