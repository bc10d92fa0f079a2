"""``replay --ask`` and ``replay --from --play``: a bot of today put in a stored seat."""

from __future__ import annotations

import json
import shutil

import pytest
from click.testing import CliRunner

from referee.bots import sandbox
from referee.cli.main import cli
from referee.engine.notation import decode_actions
from referee.replay.record import read_record
from referee.replay.seat_lines import rebuilt, seat_script, stored_policy
from referee.store.game_record import load
from referee.store.results_dir import read_jsonl
from referee.table.policy import FaultPolicy
from tests.conftest import PY
from tests.support.askdata import GAMES, GOOD, TAPE, ask_results_dir
from tests.support.replaydata import FAST, MISBEHAVE

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    return ask_results_dir(tmp_path_factory.mktemp("ask") / "out")


def run(*args):
    return CliRunner().invoke(cli, ["replay", *map(str, args)])


def bot_seats():
    return [(g[0], seat) for g in GAMES for seat, bot in enumerate(g[3]) if not bot.startswith("builtin:")]


def recorded_out(results, game_id, seat) -> bytes:
    """The lines the seat's bot read in the game, as the record holds them."""
    return b"".join(e["line"].encode() + b"\n" for _, e in read_jsonl(str(results / "records" / f"{game_id}.jsonl"))
                    if e.get("t") == "out" and e.get("seat") == seat)


# ---------------------------------------------------------------------------------------- the lines
@pytest.mark.parametrize("game_id,seat", bot_seats())
def test_the_referee_rebuilds_the_recorded_bytes(results, game_id, seat):
    """Without the record, the referee's table builds the very bytes the seat read (faults and all)."""
    source = load(str(results), game_id)
    recorded = seat_script(source, seat)
    assert recorded.recorded
    first = recorded.requests[0].request_id if recorded.requests else 1
    again = rebuilt(source, seat, FAST, FaultPolicy.parse(stored_policy(source)), first)
    assert not again.recorded
    hello = recorded.hello or b""
    assert hello + again.lines() == recorded_out(results, game_id, seat)
    assert [(r.turn, r.request_id, r.action) for r in again.requests] == \
        [(r.turn, r.request_id, r.action) for r in recorded.requests]


def test_the_games_cover_stacking_multi_card_plays_and_faults(results):
    """The byte tests above mean something only if the games hold what they are said to."""
    seen = b"".join(recorded_out(results, game_id, seat) for game_id, seat in bot_seats())
    messages = [json.loads(line) for line in seen.splitlines()]
    assert any(m["type"] == "turn" and m["pending"] >= 4 for m in messages)  # a stacked Draw Two
    assert any(m["type"] == "event" and m.get("kind") == "play" and len(m["cards"]) > 1 for m in messages)
    assert {m["fault"] for m in messages if m["type"] == "error"} >= {"illegal", "schema", "non_json"}
    kinds = {f["kind"] for _, line in read_jsonl(str(results / "games.jsonl")) for f in line["faults"]}
    assert kinds >= {"illegal", "schema", "crash", "non_json", "startup", "early"}


@pytest.mark.parametrize("game_id,seat", [("g0002", 0), ("g0004", 0), ("g0005", 0), ("g0007", 0), ("g0009", 0)])
def test_an_asked_bot_reads_what_the_seat_read(results, tmp_path, game_id, seat):
    tape = tmp_path / "tape.log"
    # --sandbox none: the tape bot writes what it reads to a file outside its folder.
    out = run(results, game_id, "--seat", seat, "--all", "--ask", f"{PY} {TAPE} {tape}", "--sandbox", "none")
    assert out.exit_code == 0, out.output
    read = tape.read_bytes()
    assert read.endswith(b'{"type":"quit"}\n')  # asking over, the bot is told to quit (no game's record has it)
    read = read[:-len(b'{"type":"quit"}\n')]
    recorded = recorded_out(results, game_id, seat)
    if not recorded.startswith(b'{"type":"hello"'):  # not the process's first game: its hello is not in the record
        read = read.split(b"\n", 1)[1]
    assert read == recorded


def test_without_records_the_bot_reads_the_rebuilt_bytes(results, tmp_path):
    bare = tmp_path / "bare"
    shutil.copytree(results, bare, ignore=shutil.ignore_patterns("records"))
    tape = tmp_path / "tape.log"
    out = run(bare, "g0004", "--seat", 0, "--all", "--ask", f"{PY} {TAPE} {tape}", "--sandbox", "none")
    assert out.exit_code == 0, out.output
    assert "rebuilt by the referee" in out.output
    # g0004 was its bot's first game, so its request ids ran from 1 as a rebuild numbers them.
    assert tape.read_bytes() == recorded_out(results, "g0004", 0) + b'{"type":"quit"}\n'


# ---------------------------------------------------------------------------------------- answers
def test_the_same_bot_answers_as_it_did(results):
    out = run(results, "g0001", "--seat", 0, "--all", "--ask", GOOD, "--json")  # under the default sandbox
    assert out.exit_code == 0, out.output
    report = json.loads(out.stdout)  # the format line goes to stderr
    requests = len(seat_script(load(str(results), "g0001"), 0).requests)
    assert report == {"asked": requests, "differences": [], "faults": []} and requests > 10


@pytest.mark.skipif(not sandbox.machine().walls, reason="no sandbox walls on this machine")
def test_asking_under_strict_walls(results):
    out = run(results, "g0003", "--seat", 1, "--all", "--ask", GOOD, "--sandbox", "strict")
    assert out.exit_code == 0, out.output
    assert "0 answered otherwise than stored" in out.output


def test_another_bot_differs_and_a_turn_shows_both_answers(results):
    out = run(results, "g0001", "--seat", 0, "--all", "--ask", f"{PY} {TAPE} - last", "--json")
    assert out.exit_code == 0, out.output
    report = json.loads(out.stdout)  # the format line goes to stderr
    assert set(report) == {"asked", "differences", "faults"} and report["faults"] == []
    diffs = report["differences"]
    assert diffs and all(set(d) == {"turn", "request_id", "stored", "answered", "legal"} for d in diffs)
    script = seat_script(load(str(results), "g0001"), 0)
    for d in diffs:
        req = script.at_turn(d["turn"])
        assert d["request_id"] == req.request_id and d["stored"] == req.action.to_wire()
        assert d["answered"] == {k: v for k, v in req.request["legal"][-1].items() if k != "id"} and d["legal"]
    assert len(diffs) == sum(1 for r in script.requests if r.legal[-1].key != r.action.key)

    turn = diffs[0]["turn"]
    shown = run(results, "g0001", "--seat", 0, "--turn", turn, "--ask", f"{PY} {TAPE} - last")
    assert shown.exit_code == 0, shown.output
    req = script.at_turn(turn)
    assert f"turn {turn} (request {req.number}, id {req.request_id})" in shown.output
    stored = next(line for line in shown.output.splitlines() if line.strip().startswith("stored"))
    new = next(line for line in shown.output.splitlines() if line.strip().startswith("new"))
    assert stored != new and "(legal)" in new and "differs" in shown.output
    assert f"tape: answering request {req.request_id} with the last" in shown.output  # its stderr


def test_a_bot_that_crashes_while_asked_is_that_fault_at_that_turn(results):
    out = run(results, "g0001", "--seat", 0, "--all", "--ask", f"{PY} {MISBEHAVE} crash", "--json")
    assert out.exit_code == 0, out.output
    report = json.loads(out.stdout)  # the format line goes to stderr
    third = seat_script(load(str(results), "g0001"), 0).requests[2]  # misbehave fails at its third turn
    assert report["asked"] == 3
    assert [(f["turn"], f["request_id"], f["kind"]) for f in report["faults"]] == \
        [(third.turn, third.request_id, "crash")]
    text = run(results, "g0001", "--seat", 0, "--turn", third.turn, "--ask", f"{PY} {MISBEHAVE} crash")
    assert text.exit_code == 0 and "FAULT crash" in text.output


# ---------------------------------------------------------------------------------------- bad input
@pytest.mark.parametrize("args,words", [
    (["g9999", "--seat", 0, "--all", "--ask", GOOD], ["no game 'g9999'", "g0001"]),
    (["g0001", "--seat", 5, "--all", "--ask", GOOD], ["--seat", "5 is not a seat of game g0001", "0 to 2"]),
    (["g0001", "--seat", 0, "--turn", 100000, "--ask", GOOD], ["turn 100000 is past seat 0's last request", "last"]),
    (["g0001", "--seat", 0, "--turn", 0, "--ask", GOOD], ["seat 0 (good) was not asked at turn 0", "nearest"]),
    (["g0008", "--seat", 0, "--turn", 3, "--ask", GOOD], ["never asked for a move"]),
    (["g0001", "--seat", 0, "--ask", GOOD], ["--ask needs which requests", "--turn K", "--all"]),
    (["g0001", "--seat", 1, "--play", "x"], ["--play goes with --from"]),
    (["g0001", "--from", 3, "--play", "x"], ["give --seat N"]),
    (["g0001", "--from", 99999, "--seat", 0, "--play", GOOD], ["turn 99999 is not a turn of game g0001"]),
])
def test_bad_input_is_named(results, args, words):
    out = run(results, *args)
    assert out.exit_code == 2, out.output
    for word in words:
        assert word in out.output


def test_a_folder_without_records_nor_actions_says_so(results, tmp_path):
    bare = tmp_path / "old"
    bare.mkdir()
    lines = [line for _, line in read_jsonl(str(results / "games.jsonl"))]
    (bare / "games.jsonl").write_text("".join(json.dumps({k: v for k, v in line.items() if k != "actions"}) + "\n"
                                              for line in lines))
    out = run(bare, "g0001", "--seat", 0, "--all", "--ask", GOOD)
    assert out.exit_code == 2 and "cannot be replayed: it has no actions" in out.output


# ---------------------------------------------------------------------------------------- playing on
def played(out_dir, game_id):
    return next(line for _, line in read_jsonl(str(out_dir / "games.jsonl")) if line["game"] == game_id)


@pytest.mark.parametrize("game_id,seat,start,command", [
    ("g0001", 0, 10, GOOD),  # every seat deterministic: the same game, card for card
    ("g0004", 0, 2, f"bad-illegal={PY} {MISBEHAVE} illegal"),  # and the same fault at the same turn
])
def test_playing_on_with_the_original_players_gives_the_original_game(results, tmp_path, game_id, seat, start,
                                                                      command):
    out = run(results, game_id, "--from", start, "--seat", seat, "--play", command, "--out", tmp_path / "on")
    assert out.exit_code == 0, out.output
    then = played(results, game_id)
    now = played(tmp_path / "on", game_id)
    for key in ("actions", "placements", "scores", "reason", "forfeited", "seating"):
        assert now[key] == then[key], key
    assert [(f["kind"], f["seat"]) for f in now["faults"]] == [(f["kind"], f["seat"]) for f in then["faults"]]
    assert out.output.count(f"{then['reason']}, {then['decisions']} turns") == 2  # then and now, the same


def test_playing_on_with_another_bot_plays_a_legal_game_to_its_end(results, tmp_path):
    on = tmp_path / "on"
    out = run(results, "g0002", "--from", 20, "--seat", 0, "--play", f"{PY} {TAPE} - last", "--out", on)
    assert out.exit_code == 0, out.output
    assert "then:" in out.output and "now:" in out.output
    now, then = played(on, "g0002"), played(results, "g0002")
    assert now["actions"].split()[:20] == then["actions"].split()[:20]
    assert now["actions"] != then["actions"] and now["faults"] == [] and now["seating"][0] == "tape"
    verify = run(on, "g0002", "--verify")  # a normal game record: replayed through the engine, every action legal
    assert verify.exit_code == 0, verify.output
    assert read_record(str(on), "g0002") is not None  # kept in the folder's record file
    assert len(decode_actions(now["actions"])) == now["decisions"]


def test_a_process_bot_without_a_stored_command_is_asked_for(results, tmp_path):
    bare = tmp_path / "bare"
    shutil.copytree(results, bare, ignore=shutil.ignore_patterns("arena.json"))
    args = ["g0006", "--from", 3, "--seat", 0, "--play", "builtin:easy", "--out", tmp_path / "on"]
    out = run(bare, *args)
    assert out.exit_code == 2 and "--seat-cmd 1=COMMAND" in out.output
    out = run(bare, *args, "--seat-cmd", f"1={PY} {MISBEHAVE} crash")
    assert out.exit_code == 0, out.output
    assert played(tmp_path / "on", "g0006")["actions"] == played(results, "g0006")["actions"]


def test_a_bot_that_times_out_while_asked_is_that_fault_at_that_turn(results, tmp_path):
    quick = tmp_path / "quick"
    shutil.copytree(results, quick)
    arena = json.loads((quick / "arena.json").read_text())
    for bot in arena["arena"]["bots"]:
        bot["limits"]["move_ms"] = 150  # the stored seat's clock, which the asked bot gets
    (quick / "arena.json").write_text(json.dumps(arena))
    out = run(quick, "g0001", "--seat", 0, "--all", "--ask", f"{PY} {MISBEHAVE} timeout", "--json")
    assert out.exit_code == 0, out.output
    third = seat_script(load(str(quick), "g0001"), 0).requests[2]
    report = json.loads(out.stdout)  # the format line goes to stderr
    assert [(f["turn"], f["kind"]) for f in report["faults"]] == [(third.turn, "timeout")]
    assert "150 ms" in report["faults"][0]["message"] and report["asked"] == 3


def test_practice_takes_the_clocks_off_the_asked_bot(results, tmp_path):
    tape = tmp_path / "tape.log"
    # --sandbox none: the tape bot writes outside its folder.
    out = run(results, "g0003", "--seat", 1, "--turn", seat_script(load(str(results), "g0003"), 1).requests[0].turn,
              "--ask", f"{PY} {TAPE} {tape}", "--practice", "--sandbox", "none")
    assert out.exit_code == 0, out.output
    hello = json.loads(tape.read_bytes().split(b"\n", 1)[0])
    assert hello["type"] == "hello" and hello["limits"]["move_ms"] == FAST.practice().move_ms > FAST.move_ms


def test_a_seat_whose_bot_failed_to_start_is_asked_from_its_hello(results):
    """The --ask command a report gives for a startup fault (--all): the bot is started and says whether it is ready."""
    fine = run(results, "g0008", "--seat", 0, "--all", "--ask", GOOD, "--json")
    assert fine.exit_code == 0, fine.output
    assert json.loads(fine.stdout) == {"asked": 0, "differences": [], "faults": []}  # the format: stderr
    again = run(results, "g0008", "--seat", 0, "--all", "--ask", f"{PY} {MISBEHAVE} startup_crash", "--json")
    assert again.exit_code == 0, again.output
    faults = json.loads(again.stdout)["faults"]
    assert [(f["turn"], f["kind"]) for f in faults] == [(None, "startup")] and "exited" in faults[0]["message"]
    text = run(results, "g0008", "--seat", 0, "--all", "--ask", GOOD)
    assert "sent no request in this game" in text.output
