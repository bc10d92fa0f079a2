"""``lastcard replay``: the all-seeing view, one seat's view (the referee's own messages), --verify."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from referee.cli.main import cli
from referee.engine.cardfaces import label, use_colour
from referee.engine.notation import decode_actions, rebuild
from referee.store.game_record import load
from tests.support.replaydata import small_results_dir
from tests.support.tiers import starts_processes


@pytest.fixture(scope="module")
@starts_processes
def results(tmp_path_factory):
    return small_results_dir(tmp_path_factory.mktemp("replay") / "out")


def run(*args: str):
    return CliRunner().invoke(cli, ["replay", *map(str, args)])


def games(results):
    return [json.loads(line) for line in open(results / "games.jsonl")]


@pytest.mark.parametrize("game_id", ["g0001", "g0002", "g0003"])
def test_all_seeing_view_shows_every_hand_before_every_action(results, game_id):
    out = run(results, game_id)
    assert out.exit_code == 0, out.output
    _, frames = rebuild(load(str(results), game_id).stored, frames=True)
    blocks = out.output.split("\nturn ")[1:]
    assert len(blocks) == len(frames) - 1  # one block per action
    for frame, block in zip(frames, blocks):
        assert block.startswith(f"{frame.turn} ·")
        hand_lines = [line for line in block.splitlines() if re.match(r"^  [ >]\d ", line)]
        assert len(hand_lines) == len(frame.hands)
        for seat, (line, hand) in enumerate(zip(hand_lines, frame.hands)):
            assert line.endswith(", ".join(label(c) for c in hand) or "(none)")
            assert line.startswith(f"  {'>' if seat == frame.seat else ' '}{seat} ")
    assert "game over" in out.output
    assert "\x1b[" not in out.output  # not a terminal: plain text


def test_seat_view_shows_only_that_seats_cards(results):
    out = run(results, "g0002", "--seat", "1")
    assert out.exit_code == 0, out.output
    stored = load(str(results), "g0002").stored
    _, frames = rebuild(stored, frames=True)
    mine = [f for f in frames if f.seat == 1]
    shown = [line.split("your hand: ", 1)[1] for line in out.output.splitlines() if "your hand: " in line]
    assert shown == [", ".join(label(c) for c in f.hands[1]) for f in mine]
    for line in out.output.splitlines():
        if " draws " in line and ": " in line.split(" draws ", 1)[1]:
            assert line.lstrip(" ·").startswith("seat 1 "), line  # only its own drawn cards are named


def test_raw_seat_view_is_what_the_bot_really_read(results):
    """--raw prints the lines the seat was sent, exactly: the record's (this game has a fault, so it kept one)."""
    record = [json.loads(line) for line in open(results / "records" / "g0007.jsonl")]
    told = [e["line"] for e in record if e["t"] == "out" and e["seat"] == 0 and '"type":"hello"' not in e["line"]]
    out = run(results, "g0007", "--seat", "0", "--raw")
    assert out.exit_code == 0, out.output
    # After its illegal answer the bot forfeited: it was asked nothing more but still told every event.
    assert len(told) > 20 and out.output.splitlines() == told


def test_raw_seat_view_of_a_game_without_a_record_is_rebuilt_by_the_relay(results, tmp_path):
    """Without a record, the lines are rebuilt (test_long_runs checks them byte for byte against recorded ones);
    a built-in player's seat shows what a bot sitting there would have been sent."""
    out = run(results, "g0001", "--seat", "0", "--raw")
    assert out.exit_code == 0, out.output
    sent = [json.loads(line) for line in out.output.splitlines()]
    assert sent[0]["type"] == "start" and sent[-1]["type"] == "game_end"
    turns = [m for m in sent if m["type"] == "turn"]
    assert turns and [m["id"] for m in turns] == list(range(1, len(turns) + 1))


def test_the_fault_turn_is_marked(results):
    line = next(g for g in games(results) if g["game"] == "g0007")
    first_stand_in = next(i for i, t in enumerate(line["actions"].split()) if t.endswith("!"))
    out = run(results, "g0007")
    marked = [block for block in out.output.split("\nturn ")[1:] if "<- FAULT: illegal" in block]
    assert len(marked) == 1 and marked[0].startswith(f"{first_stand_in} ·")
    seat_view = run(results, "g0007", "--seat", "0").output
    assert seat_view.count("<- FAULT: illegal") == 1


def test_strikes_mark_each_replaced_answer(results):
    line = next(g for g in games(results) if g["game"] == "g0008")
    out = run(results, "g0008")
    assert out.output.count("<- FAULT:") == len(line["faults"]) >= 2


@pytest.mark.parametrize("game_id", ["g0001", "g0003", "g0005", "g0007", "g0008"])
def test_verify_accepts_every_stored_game(results, game_id):
    out = run(results, game_id, "--verify")
    assert out.exit_code == 0, out.output
    assert "matches" in out.output


def test_verify_checks_a_record_event_by_event(results):
    out = run(results / "records" / "g0002.jsonl", "--verify")
    assert out.exit_code == 0 and "every recorded event" in out.output


def _tampered(results, tmp_path, game_id: str, change) -> str:
    lines = games(results)
    for line in lines:
        if line["game"] == game_id:
            change(line)
    target = tmp_path / "t"
    target.mkdir()
    (target / "games.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    (target / "results.json").write_text((results / "results.json").read_text())
    return str(target)


@pytest.mark.parametrize(("change", "expected"), [
    pytest.param(lambda g: g.update(moves=g["moves"] + 1), r"moves: stored \d+, replayed \d+", id="moves"),
    pytest.param(lambda g: g.update(scores=[s + 1 for s in g["scores"]]), "scores: stored", id="scores"),
    pytest.param(lambda g: g.update(seed=g["seed"] + 1), "is not legal", id="other-deal"),
    pytest.param(lambda g: g.update(actions=" ".join(g["actions"].split()[:-1])), "end before the game", id="cut"),
])
def test_verify_reports_the_first_difference_with_exit_1(results, tmp_path, change, expected):
    out = run(_tampered(results, tmp_path, "g0001", change), "g0001", "--verify")
    assert out.exit_code == 1
    assert re.search(expected, out.output), out.output


def test_verify_catches_a_changed_engine_event(results, tmp_path):
    record = [json.loads(line) for line in open(results / "records" / "g0002.jsonl")]
    events = next(e for e in record if e["t"] == "events")["events"]
    events[5]["seat"] = (events[5].get("seat", 0) + 1) % 3
    path = tmp_path / "g0002.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in record))
    out = run(path, "--verify")
    assert out.exit_code == 1 and "event 5: recorded" in out.output


def test_unknown_game_names_the_games_there(results):
    out = run(results, "g9999")
    assert out.exit_code == 2
    assert "no game 'g9999'" in out.output and "g0001" in out.output


def test_a_directory_without_a_game_id_suggests_one(results):
    out = run(results)
    assert out.exit_code == 2 and f"lastcard replay {results} g0001" in out.output


def test_a_seat_not_at_the_table_is_refused(results):
    out = run(results, "g0007", "--seat", "5")
    assert out.exit_code == 2 and "seats are 0 to 1" in out.output


def test_colour_only_on_a_terminal_without_no_color(monkeypatch):
    class Tty:
        def isatty(self):
            return True
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert use_colour(Tty())
    assert "\x1b[31m" in label("red:7", True) and "disc" not in label("red:7") and "●" in label("red:7")
    monkeypatch.setenv("NO_COLOR", "1")
    assert not use_colour(Tty())


def test_results_from_before_actions_were_kept_replay_from_their_records(results, tmp_path):
    lines = games(results)
    for line in lines:
        line.pop("actions")
    (tmp_path / "records").mkdir()
    (tmp_path / "games.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    (tmp_path / "records" / "g0003.jsonl").write_text((results / "records" / "g0003.jsonl").read_text())
    assert run(tmp_path, "g0003", "--verify").exit_code == 0
    out = run(tmp_path, "g0004")
    assert out.exit_code == 2 and "no actions" in out.output
    assert decode_actions(load(str(results), "g0003").stored.actions)
