"""``lastcard check`` without processes: line classification, judging answers, positions, the fuzz plan, the
report's renderings, and the scripted suite against scripted fake bots."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from typing import Any, Callable

import pytest

from referee.bots.pipes.lines import judge
from referee.bots.pipes.transport import FakeTransport
from referee.bots.spec import parse_bot
from referee.check import suite as S
from referee.check.fuzz import VARIANTS, plan, split_games
from referee.check.output import format_text, to_junit
from referee.check.positions import action, build
from referee.check.probe import Probe, Reply
from referee.check.report import Report, Status, clip
from referee.check.runner import CheckConfig, new_report, settings
from referee.engine.actions import Action
from referee.engine.rules import get_ruleset
from referee.protocol.schemas import validate_message
from referee.protocol.wire import encode

ALL = ("compact", "family", "arcade")


# ---------------------------------------------------------------------------------------- lines
@pytest.mark.parametrize("line, kind", [
    pytest.param(b'{"type":"draw","id":3}', "message", id="answer"),
    pytest.param(b'{"id":3,  "type":"draw"}  ', "message", id="keys-in-another-order-and-trailing-spaces"),
    pytest.param(b'{"type":"log","text":"thinking"}', "message", id="log"),
    pytest.param(b'{"type":"log","text":7}', "bad_log", id="log-without-text"),
    pytest.param(b"thinking about turn 3...", "debug", id="debug-text"),
    pytest.param(b"7", "not_object", id="a-printed-number-is-json-but-not-a-message"),
    pytest.param(b'"draw"', "not_object", id="a-string"),
    pytest.param(b"{'type': 'draw'}", "debug", id="python-repr"),
    pytest.param(b'{"id":3}', "no_type", id="object-without-type"),
    pytest.param(b"", "debug", id="empty-line"),
    pytest.param(b"\xef\xbb\xbf{\"type\":\"ready\",\"name\":\"b\"}", "bom", id="byte-order-mark"),
    pytest.param(b'{"type":"draw","id":3}{"type":"draw","id":3}', "several", id="two-on-one-line"),
    pytest.param(b'{"type":"draw","id":3} {"type":"pass","id":3}', "several", id="two-with-a-space"),
    pytest.param(b'Your move: {"type":"draw","id":3}', "text_before", id="a-prompt-before"),
    pytest.param(b"{", "fragment", id="first-line-of-a-pretty-print"),
    pytest.param(b'  "type": "ready",', "fragment", id="middle-line-of-a-pretty-print"),
])
def test_lines_are_judged_by_the_shared_rules(line: bytes, kind: str) -> None:
    got = judge(line)
    assert ("message" if isinstance(got, dict) else got.mistake.value) == kind


# ---------------------------------------------------------------------------------------- judging
def _judge(game: Any, answer: dict[str, Any], problems: list[tuple[str, str]] | None = None):
    reply = Reply({"type": "turn", "id": 1}, answer=answer, problems=list(problems or []))
    return S.judge(game, reply, game.legal_actions())


def _family_wild_only():
    return build(get_ruleset("family"), seats=2, hands={0: ["wild", "red:3"]}, top="blue:8", empty_pile=True,
                 current=0)


def test_judge_accepts_any_legal_element() -> None:
    game = _family_wild_only()
    for a in game.legal_actions():
        played, problems = _judge(game, a.to_wire(1))
        assert played == a and problems == []


@pytest.mark.parametrize("answer, kind, text", [
    pytest.param({"type": "play", "id": 1, "cards": ["wild"]}, "illegal", "needs a named colour", id="no-colour"),
    pytest.param({"type": "play", "id": 1, "cards": ["red:3"]}, "illegal", "matches neither", id="no-match"),
    pytest.param({"type": "draw", "id": 1}, "illegal", "'draw' is not allowed", id="nothing-to-draw"),
    pytest.param({"type": "play", "id": 1, "cards": ["wild"], "colour": "teal"}, "illegal", "not in this deck",
                 id="other-deck-colour"),
    pytest.param({"type": "play", "id": 1, "cards": "wild", "colour": "red"}, "schema", "cards", id="cards-not-list"),
    pytest.param({"type": "play", "id": 1, "cards": ["wild"], "colour": "red", "x": 1}, "schema", "x",
                 id="unknown-field"),
    pytest.param({"type": "fold", "id": 1}, "schema", "fold", id="unknown-type"),
])
def test_judge_names_what_is_wrong(answer: dict[str, Any], kind: str, text: str) -> None:
    played, problems = _judge(_family_wild_only(), answer)
    kinds = [k for k, _ in problems]
    assert kind in kinds, problems
    assert any(text in t for _, t in problems), problems
    if kind == "illegal":
        assert played is None


def test_judge_keeps_wire_problems_and_plays_a_legal_answer() -> None:
    game = _family_wild_only()
    played, problems = _judge(game, {"type": "play", "id": 0, "cards": ["wild"], "colour": "red"},
                              [("stale_id", "the answer's id 0 is not the request's id 1")])
    assert played == action("play wild red")
    assert [k for k, _ in problems] == ["stale_id"]


def test_arcade_play_leaving_one_card_needs_the_call() -> None:
    game = build(get_ruleset("arcade"), seats=2, hands={0: ["red:7", "blue:9"]}, top="red:3", current=0)
    played, problems = _judge(game, {"type": "play", "id": 1, "cards": ["red:7"]})
    assert played == action("play red:7") and [k for k, _ in problems] == ["call"]
    assert _judge(game, {"type": "play", "id": 1, "cards": ["red:7"], "call": True})[1] == []
    assert _judge(game, {"type": "draw", "id": 1})[1] == []


def test_compact_never_needs_the_call() -> None:
    game = build(get_ruleset("compact"), seats=2, hands={0: ["teal:7", "amber:9"]}, top="teal:3", current=0)
    assert _judge(game, {"type": "play", "id": 1, "cards": ["teal:7"]})[1] == []


# ---------------------------------------------------------------------------------------- positions
def test_build_refuses_cards_the_deck_does_not_hold() -> None:
    with pytest.raises(ValueError, match="teal:7 more often"):
        build(get_ruleset("compact"), seats=2, hands={0: ["teal:7"], 1: ["teal:7"]}, top="teal:3", current=0)


def test_build_keeps_every_card_in_play() -> None:
    game = build(get_ruleset("compact"), seats=3, hands={1: ["amber:5"]}, top="teal:7", draw=["teal:4", "coral:9"],
                 current=1)
    assert sum(map(len, game.hands)) + len(game.draw_pile) + len(game.discard) == 54
    assert [c.code for c in game.draw_pile[-2:]] == ["coral:9", "teal:4"]  # the next card drawn is last


def test_action_text() -> None:
    assert action("play wild4 green") == Action("play", (action("play wild4 red").cards[0],), "green")
    assert action("play red:7 blue:7 call").call
    assert action("pass").kind == "pass"


# ---------------------------------------------------------------------------------------- fuzz plan
def test_games_spread_over_rulesets() -> None:
    assert split_games(50, list(ALL)) == {"compact": 17, "family": 17, "arcade": 16}
    assert split_games(2, list(ALL)) == {"compact": 1, "family": 1, "arcade": 0}
    assert split_games(5, ["family"]) == {"family": 5}


def test_fuzz_plan_rotates_tables_and_is_seeded() -> None:
    games = plan(list(ALL), 30, seed=7)
    assert plan(list(ALL), 30, seed=7) == games
    assert plan(list(ALL), 30, seed=8) != games
    assert {g.seats for g in games} == {2, 3, 4}
    assert all(0 <= g.bot_seat < g.seats and len(set(g.opponents)) == g.seats - 1 for g in games)
    for house in ALL:
        mine = [g for g in games if g.house == house]
        assert {g.bot_seat for g in mine} >= {0, 1}
        assert {dict(g.options).get("stacking", False) for g in mine} == {d.get("stacking", False)
                                                                          for d in VARIANTS[house]}
    assert len({g.seed for g in games}) == len(games)


# ---------------------------------------------------------------------------------------- renderings
def _report() -> Report:
    report = Report("alice", "python3 alice.py", ["compact"], elapsed_s=1.25)
    report.add("handshake: ready within the startup limit", "handshake").elapsed_ms = 12.0
    bad = report.add("compact: a turn", "compact")
    bad.fail("illegal: \x00 \x1b[31m ünïcode", sent='{"type":"turn","id":1}', received="garbage \x07 line",
             expected="one element of legal")
    bad.note("also \ud800 surrogate")
    report.add("quit: the bot exits promptly", "protocol").skip("not run: the bot died")
    return report


def test_text_report_marks_and_summary() -> None:
    text = format_text(_report())
    assert "✓ handshake" in text and "✗ compact: a turn" in text and "- quit" in text
    assert "received: garbage" in text and "expected: one element of legal" in text
    assert text.splitlines()[-1] == "FAILED: 1 passed, 1 failed, 1 skipped in 1.2 s"


@pytest.mark.parametrize("announced, second", [
    ("Alice 2.0", "  it calls itself 'Alice 2.0'; standings show it as 'alice' (its name on the command line, "
                  "NAME=COMMAND, or in the arena file)"),
    ("alice", ""),
    (None, ""),
], ids=["another-name", "the-same-name", "never-ready"])
def test_the_report_is_headed_by_the_name_standings_use(announced: str | None, second: str) -> None:
    report = _report()
    report.ready = {"type": "ready", "name": announced} if announced else None
    head = format_text(report).splitlines()
    assert head[:2] == ["lastcard check: alice: python3 alice.py", second]


def test_text_report_ascii_fallback() -> None:
    text = format_text(_report(), unicode=False)
    text.encode("ascii")  # nothing a plain terminal cannot show
    assert "ok   handshake" in text and "FAIL compact: a turn" in text and "skip quit" in text


def test_junit_is_valid_xml_even_with_control_characters() -> None:
    root = ET.fromstring(to_junit(_report()))
    assert root.tag == "testsuite"
    assert (root.get("tests"), root.get("failures"), root.get("skipped")) == ("3", "1", "1")
    cases = root.findall("testcase")
    assert [c.get("name") for c in cases] == [c.name for c in _report().checks]
    failure = cases[1].find("failure")
    assert failure is not None and "illegal" in failure.get("message", "")
    assert "expected: one element of legal" in (failure.text or "")
    assert cases[2].find("skipped") is not None
    assert cases[0].find("failure") is None and cases[0].get("time") == "0.012"


def test_json_report() -> None:
    doc = json.loads(json.dumps(_report().to_json()))
    assert doc["ok"] is False and doc["summary"] == {"passed": 1, "failed": 1, "skipped": 1}
    assert [c["status"] for c in doc["checks"]] == ["passed", "failed", "skipped"]
    assert doc["checks"][1]["received"].startswith("garbage")


def test_clip() -> None:
    assert clip("x" * 10, 5) == "xxxxx... (10 chars)"
    assert clip(b"ab\n") == "ab"


# ---------------------------------------------------------------------------------------- fake bots
Respond = Callable[[dict], list]


def line(obj: dict) -> bytes:
    return encode(obj).rstrip(b"\n")


def fake_bot(turn: Callable[[dict], list] | None = None, info: Callable[[dict], list] | None = None,
             on_quit: list | None = None) -> Respond:
    """A scripted bot: ready, legal[0] (or ``turn``), nothing to information (or ``info``), exit on quit."""
    def respond(msg: dict) -> list:
        kind = msg["type"]
        if kind == "hello":
            return [line({"type": "ready", "name": "fake"})]
        if kind == "turn":
            return turn(msg) if turn else [line(msg["legal"][0])]
        if kind == "quit":
            return on_quit if on_quit is not None else [None]
        return info(msg) if info else []
    return respond


def run_fake(respond: Respond, rulesets: tuple[str, ...] = ALL, exit_code: int = 0) -> tuple[Report, FakeTransport]:
    config = CheckConfig(rulesets=rulesets, games=0, quiet_ms=5, quit_ms=300)
    spec = parse_bot("python3 fake.py", config.limits())
    report = new_report(spec.name, spec.command, config)
    transport = FakeTransport(respond, exit_code=exit_code)
    S.Suite(Probe(spec, transport=transport), report, settings(config)).run(list(rulesets))
    return report, transport


def test_fake_correct_bot_passes_every_scripted_check() -> None:
    report, transport = run_fake(fake_bot())
    assert [c.name for c in report.checks] == [n for n, _ in S.check_names(list(ALL))]
    assert report.failed_names == [] and report.count(Status.SKIPPED) == 0
    # Every message the checker sent is a valid protocol message, strictly (every field documented).
    for msg in transport.sent:
        assert validate_message("to_bot", msg, strict=True) == [], msg


def test_every_scripted_situation_asks_what_its_name_says() -> None:
    seen: list[dict] = []
    run_fake(fake_bot(turn=lambda msg: (seen.append(msg), [line(msg["legal"][0])])[1]))
    by_phase = {m["phase"] for m in seen}
    assert by_phase == {"play", "drawn", "colour"}
    kinds = [sorted({a["type"] for a in m["legal"]}) for m in seen]
    assert ["draw"] in kinds and ["pass"] in kinds and ["colour"] in kinds
    assert any(m["pending"] == 2 for m in seen) and any(m["pending"] == 4 and len(m["legal"]) == 1 for m in seen)
    assert any(all(a["type"] == "play" and a["cards"] == ["wild"] for a in m["legal"]) for m in seen)
    assert any(len(a.get("cards", [])) == 3 for m in seen for a in m["legal"])  # an arcade stack
    assert any(a.get("call") for m in seen for a in m["legal"])
    assert any("wild4" in m["hand"] and not any("wild4" in a.get("cards", []) for a in m["legal"]) for m in seen)


def test_fake_answers_to_events_are_told_apart_from_the_turn_answers() -> None:
    report, _ = run_fake(fake_bot(info=lambda msg: [line({"type": "draw"})] if msg["type"] == "start" else []))
    assert report.failed_names == [S.NO_ANSWER]
    assert "start" in (report.get(S.NO_ANSWER).sent or "")


def test_fake_debug_lines_are_reported_and_the_answer_still_counts() -> None:
    report, _ = run_fake(fake_bot(turn=lambda msg: [b"my hand is bad", line(msg["legal"][0])]))
    assert report.failed_names == [S.NO_DEBUG]
    assert report.get(S.NO_DEBUG).received == "my hand is bad"
    assert "stderr" in (report.get(S.NO_DEBUG).expected or "")


def test_fake_crash_stops_the_suite() -> None:
    report, _ = run_fake(fake_bot(turn=lambda msg: [None] if msg["phase"] == "colour" else [line(msg["legal"][0])]),
                         exit_code=3)
    assert report.failed_names == [S.F_OPENING]
    assert "exit code 3" in (report.get(S.F_OPENING).problem or "")
    after = [c for c in report.checks[[c.name for c in report.checks].index(S.F_OPENING) + 1:]]
    assert all(c.status is Status.SKIPPED for c in after)


def test_fake_exit_status_after_quit() -> None:
    report, _ = run_fake(fake_bot(), rulesets=("compact",), exit_code=2)
    assert report.failed_names == [S.QUIT]
    assert "exit code 2" in (report.get(S.QUIT).problem or "")
    report, _ = run_fake(fake_bot(on_quit=[]), rulesets=("compact",))  # stays after quit
    assert report.failed_names == [S.QUIT]
    assert "still running" in (report.get(S.QUIT).problem or "")


def test_only_the_chosen_rulesets_run() -> None:
    report, transport = run_fake(fake_bot(), rulesets=("arcade",))
    assert {c.group for c in report.checks} == {"handshake", "arcade", "protocol"}
    assert {m["ruleset"] for m in transport.sent if m["type"] == "start"} == {"arcade"}
