"""The protocol's JSON Schemas: valid themselves, installed, obeyed by the referee and by PROTOCOL.md.

- every schema is a valid draft 2020-12 schema and every ``$ref`` resolves offline;
- the examples and the transcript in protocol/PROTOCOL.md validate;
- every message the referee sends in real games (each ruleset, 2-6 seats, stacking,
  draw-until-playable, faults under both policies) validates in strict mode, so every field it
  sends is documented; every answer the bots send validates too;
- ``wire.answer_problem`` (the referee's fast answer check) agrees with ``schemas/answer.json``.
"""

from __future__ import annotations

import copy
import json
import random
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any, Iterator

import pytest
from jsonschema import Draft202012Validator
from referencing.jsonschema import DRAFT202012

from referee import PROTOCOL_VERSIONS
from referee.bots.pipes.transport import FakeTransport
from referee.bots.pool import BotPool
from referee.bots.spec import BotSpec, TimeLimits, parse_bot
from referee.engine.game import Game
from referee.engine.rules import get_ruleset
from referee.protocol.schemas import (
    ANSWERS,
    BASE_URI,
    FROM_BOT,
    TO_BOT,
    load_schema,
    registry,
    schema_names,
    validate_message,
    validator,
)
from referee.protocol.wire import answer_problem
from referee.table.policy import FaultPolicy
from referee.table.table import Recorder, play_game, seat_for

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "protocol" / "PROTOCOL.md"
#: The protocol's own schema files (the folder may hold others, e.g. the arena file's schema).
PROTOCOL_SCHEMAS = sorted({f"{t}.json" for t in TO_BOT + FROM_BOT} | {"answer.json", "defs.json", "message.json"})
EVENT_KINDS = ("bury", "play", "colour", "call", "forfeit", "penalty", "draw", "skip", "reverse", "pass", "reshuffle")


# ----------------------------------------------------------------------------------- the schemas

def _refs(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref":
                yield value
            elif key not in ("const", "enum"):
                yield from _refs(value)
    elif isinstance(node, list):
        for x in node:
            yield from _refs(x)


def test_one_schema_per_message_type_and_the_shared_ones():
    assert set(PROTOCOL_SCHEMAS) <= set(schema_names())


@pytest.mark.parametrize("name", schema_names())
def test_every_installed_schema_is_valid_with_a_unique_id(name):
    schema = load_schema(name)
    Draft202012Validator.check_schema(schema)
    ids = [load_schema(n).get("$id") for n in schema_names()]
    assert ids.count(schema["$id"]) == 1


@pytest.mark.parametrize("name", PROTOCOL_SCHEMAS)
def test_schema_is_valid_and_its_refs_resolve(name):
    schema = load_schema(name)
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == BASE_URI + name
    resolver = registry().resolver(base_uri=schema["$id"])
    for ref in _refs(schema):
        resolved = resolver.lookup(ref)  # raises when the target does not exist
        assert isinstance(resolved.contents, (dict, bool)), ref
    if name not in ("defs.json", "message.json", "answer.json"):
        assert schema["properties"]["type"]["const"] == name.removesuffix(".json")


def test_answers_refuse_unknown_fields_and_referee_messages_allow_them():
    for kind in ANSWERS:
        assert load_schema(kind)["additionalProperties"] is False
    for kind in TO_BOT:
        assert "additionalProperties" not in load_schema(kind), kind
    extra = {"type": "quit", "later": 1}
    assert validate_message("to_bot", extra) == []
    assert validate_message("to_bot", extra, strict=True)


def test_schemas_are_found_through_the_installed_package():
    from importlib import resources
    folder = resources.files("protocol").joinpath("schemas")
    assert sorted(p.name for p in folder.iterdir() if p.name.endswith(".json")) == schema_names()
    assert all(folder.joinpath(name).is_file() for name in PROTOCOL_SCHEMAS)
    assert resources.files("protocol").joinpath("PROTOCOL.md").is_file()
    # by file name, bare name or $id
    assert load_schema("turn") == load_schema("turn.json") == load_schema(BASE_URI + "turn.json")
    with pytest.raises(KeyError, match="no schema 'nope.json'"):
        load_schema("nope")


def test_validate_message_reports_problems_by_path():
    assert validate_message("from_bot", {"type": "draw", "id": 3}) == []
    assert validate_message("from_bot", {"type": "turn"}) == [
        "$.type: 'turn' is not a message type a bot sends; expected one of " + ", ".join(FROM_BOT)]
    assert validate_message("out", [1]) == ["$: expected a JSON object, got list"]
    errors = validate_message("in", {"type": "play", "id": 3, "cards": ["red:7"], "colour": "pink"})
    assert errors == ["$.colour: 'pink' is not one of ['teal', 'coral', 'amber', 'violet', 'red', 'yellow', "
                      "'green', 'blue']"]
    turn = {"type": "turn", "id": 1, "hand": ["red:1"], "top": "red:2", "colour": "red", "direction": 1,
            "hands": [1, 1], "scores": [0, 0], "draw_pile": 3, "pending": 0, "move": 0, "time_left_ms": 1000,
            "bank_ms": 0, "has_drawn": False, "drawn": None, "phase": "play",
            "legal": [{"type": "play", "id": 1, "cards": ["red:1"]}, {"type": "draw"}]}
    assert validate_message("to_bot", turn) == ["$.legal[1]: 'id' is a required property"]
    with pytest.raises(ValueError, match="direction"):
        validate_message("sideways", {})


def test_hello_version_matches_the_referee():
    hello_schema = validator("hello")
    msg = {"type": "hello", "protocol": PROTOCOL_VERSIONS[-1], "versions": list(PROTOCOL_VERSIONS), "name": "a",
           "seat": 0, "limits": {"startup_ms": 10000, "move_ms": 1000, "bank_ms": 0, "line_bytes": 65536}}
    assert hello_schema.is_valid(msg)


# ----------------------------------------------------------------------------------- PROTOCOL.md

def _doc_blocks() -> list[tuple[str, str]]:
    """Every fenced code block of PROTOCOL.md: (info string, text)."""
    text = DOC.read_text(encoding="utf-8")
    return [(m.group(1).strip(), m.group(2)) for m in re.finditer(r"^```([^\n]*)\n(.*?)^```", text, re.M | re.S)]


def _direction(msg: dict[str, Any]) -> str:
    return "to_bot" if msg.get("type") in TO_BOT else "from_bot"


def _doc_examples() -> list[dict[str, Any]]:
    """The ```json blocks: each one JSON value, or one JSON object per line."""
    out = []
    for info, body in _doc_blocks():
        if info != "json":
            continue
        try:
            out.append(json.loads(body))
        except json.JSONDecodeError:
            out.extend(json.loads(line) for line in body.splitlines() if line.strip())
    return out


def _doc_transcript() -> list[tuple[str, dict[str, Any]]]:
    """The ``ref> ``/``bot> `` lines of the transcript blocks, in order."""
    out = []
    for _, body in _doc_blocks():
        for line in body.splitlines():
            m = re.match(r"^(ref|bot)> (\{.*\})$", line)
            if m:
                out.append(("to_bot" if m.group(1) == "ref" else "from_bot", json.loads(m.group(2))))
    return out


def test_the_doc_examples_validate():
    examples = _doc_examples()
    assert len(examples) >= 20
    seen = Counter()
    for msg in examples:
        assert validate_message(_direction(msg), msg, strict=True) == [], msg
        seen[msg["type"]] += 1
        if msg["type"] == "event":
            seen["event:" + msg["kind"]] += 1
    missing = [t for t in TO_BOT + FROM_BOT if not seen[t]] + [k for k in EVENT_KINDS if not seen["event:" + k]]
    assert not missing, f"PROTOCOL.md has no example of {missing}"


def test_the_doc_transcript_validates_and_answers_come_from_legal():
    lines = _doc_transcript()
    assert len(lines) >= 40
    last_turn = None
    for direction, msg in lines:
        assert validate_message(direction, msg, strict=True) == [], msg
        if msg["type"] == "turn":
            last_turn = msg
        elif msg["type"] in ANSWERS:
            assert last_turn is not None and msg in last_turn["legal"], msg
            last_turn = None
    types = {m["type"] for _, m in lines}
    assert {"hello", "ready", "start", "turn", "event", "round_end", "game_end", "quit"} <= types


@pytest.mark.slow
def test_the_doc_minimal_bot_plays_a_real_game(tmp_path):
    """The "minimal bot" section's Python program, run as a real bot process, plays to the end."""
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("## A minimal bot"):]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    assert len(code.strip().splitlines()) <= 15
    path = tmp_path / "minimal.py"
    path.write_text(code)
    results, record = _subprocess_game(f"{sys.executable} {path}", "arcade", seed=5)
    assert results["faults"] == [] and results["forfeited"] == []
    _validate_record(record)


def test_the_documented_legal_length_bounds_are_the_exact_worst_cases():
    """PROTOCOL.md's "How long legal can get" quotes bench/legal_size.py; recompute its worst cases."""
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import legal_size
    finally:
        sys.path.remove(str(ROOT / "bench"))
    text = DOC.read_text(encoding="utf-8")
    rows = {}
    for house, label in (("family", "`family`"), ("compact", "`compact` (2-4 players)"), ("arcade", "`arcade`")):
        worst = legal_size.worst_case(get_ruleset(house), 2)
        rows[house] = worst
        sizes = worst["sizes"]
        row = f"| {label} | " + " | ".join(f"{sizes[k]:,}" for k in (1, 2, 3, 5, 7, 10, 15, 20, 30)) + \
            f" | {worst['max']:,} |"
        assert row in text, f"PROTOCOL.md should have the row {row}"
    assert "= **25** entries" in text and rows["family"]["max"] == 25
    assert "= **19** entries" in text and rows["compact"]["max"] == 19
    assert f"**{rows['arcade']['max']:,} entries**" in text
    assert f"about **{round(rows['arcade']['turn_line_bytes'] / 1000)} KB**" in text


# ----------------------------------------------------------------------------------- real games

class FakeBot:
    """A scripted bot over ``FakeTransport``: answers turns from ``legal`` (seeded), sometimes its own way.

    ``misbehave`` maps request ids to a fault to commit on that request.
    """

    def __init__(self, seed: int, misbehave: dict[int, str] | None = None) -> None:
        self.rng = random.Random(seed)
        self.misbehave = misbehave or {}
        self.sent: list[dict[str, Any]] = []  # what the referee wrote
        self.answers: list[Any] = []  # what this bot wrote back, decoded

    def respond(self, msg: dict[str, Any]) -> list[bytes | float | None]:
        self.sent.append(msg)
        if msg["type"] == "hello":
            return [self._line({"type": "ready", "name": "fake", "author": "tests", "version": "1", "protocol": 1}),
                    self._line({"type": "log", "text": "ready to play"})]
        if msg["type"] != "turn":
            return []
        answer = self._choose(msg)
        fault = self.misbehave.get(msg["id"])
        if fault == "timeout":  # stall past the deadline; the answer arrives late, at the next request
            return [3600.0, self._line(answer)]
        if fault == "schema":
            answer = {**answer, "cards": "red:7"} if answer["type"] == "play" else {**answer, "extra": 1}
        elif fault == "illegal":
            answer = {"type": "play", "id": msg["id"], "cards": ["wild4", "wild4"], "colour": "red"}
        elif fault == "stale_id":
            answer = {**answer, "id": msg["id"] + 1000}
        elif fault == "missing_id":
            answer = {k: v for k, v in answer.items() if k != "id"}
        elif fault == "non_json":
            return [b"thinking about " + json.dumps(answer).encode()]
        return [self._line({"type": "log", "text": f"turn {msg['id']}"}), self._line(answer)]

    def _choose(self, turn: dict[str, Any]) -> dict[str, Any]:
        legal = turn["legal"]
        plays = [a for a in legal if a["type"] == "play"]
        r = self.rng.random()
        answer = self.rng.choice(plays) if plays and r < 0.8 else self.rng.choice(legal)
        answer = copy.deepcopy(answer)
        if answer.get("call") and self.rng.random() < 0.3:
            del answer["call"]  # forget the last-card call (arcade: a forfeit draw)
        cards = answer.get("cards", [])
        if len(cards) > 3 and self.rng.random() < 0.5:  # any order of the middle cards is the same play
            middle = cards[1:-1]
            self.rng.shuffle(middle)
            answer["cards"] = [cards[0], *middle, cards[-1]]
        return answer

    def _line(self, msg: dict[str, Any]) -> bytes:
        self.answers.append(msg)
        return json.dumps(msg).encode()


def _fake_game(house: str, options: dict[str, Any], fakes: int, builtins: tuple[str, ...] = (), *, seed: int,
               policy: str = "forfeit", misbehave: dict[int, str] | None = None,
               limits: TimeLimits = TimeLimits()) -> tuple[dict[str, Any], list[FakeBot]]:
    bots: list[FakeBot] = []

    def factory(spec: BotSpec) -> FakeTransport:
        bot = FakeBot(seed * 31 + len(bots), misbehave if not bots else None)
        bots.append(bot)
        return FakeTransport(bot.respond)

    specs = [BotSpec(f"fake{i}", f"fake {i}", limits=limits) for i in range(fakes)]
    specs += [parse_bot(f"builtin:{b}") for b in builtins]
    with BotPool(transport_factory=factory) as pool:
        result = play_game(get_ruleset(house, options), [seat_for(s, pool) for s in specs], seed, f"g{seed}",
                           FaultPolicy.parse(policy))
    return result, bots


def _opening_seed(house: str, players: int, top: str) -> int:
    """A seed whose first round opens on ``top``'s rank (e.g. a Wild, a Reverse)."""
    rs = get_ruleset(house, {"target": "round"})
    for seed in range(10_000):
        game = Game(rs, players, random.Random(seed))
        deal = next(e for e in game.events if e["kind"] == "deal")
        if deal["top"].split(":")[-1] == top:
            return seed
    raise AssertionError(f"no {house} opening on {top}")  # pragma: no cover


# (id, ruleset, options, fake bots, built-ins, seed)
GAMES = [
    ("compact-2", "compact", {"target": 100}, 1, ("medium",), 1),
    ("compact-3", "compact", {"target": 100}, 2, ("easy",), 2),
    ("compact-6-two-decks", "compact", {"target": 100}, 3, ("random", "medium", "hard"), 3),
    ("family-2-match", "family", {"target": 200}, 1, ("hard",), 4),
    ("family-4-stacking", "family", {"target": "round", "stacking": True}, 3, ("hard",), 5),
    ("family-3-stacking", "family", {"target": 200, "stacking": True}, 1, ("medium", "hard"), 6),
    ("family-3-draw-until-playable", "family", {"target": "round", "draw_until_playable": True}, 2, ("medium",), 7),
    ("family-5-move-limit", "family", {"target": "round", "move_limit": 10}, 5, (), 8),
    ("arcade-2", "arcade", {}, 2, (), 9),
    ("arcade-3", "arcade", {}, 2, ("hard",), 10),
    ("arcade-4", "arcade", {}, 4, (), 11),
    ("arcade-3-stacking", "arcade", {"stacking": True}, 3, (), 12),
    ("arcade-2-move-limit", "arcade", {"move_limit": 10}, 2, (), 13),
    ("arcade-compact-deck", "arcade", {"deck": "compact", "wild_draw_four": "restricted"}, 2, ("easy",), 14),
]


@pytest.fixture(scope="module")
def played() -> dict[str, tuple[dict[str, Any], list[FakeBot]]]:
    out = {}
    for gid, house, options, fakes, builtins, seed in GAMES:
        out[gid] = _fake_game(house, options, fakes, builtins, seed=seed)
    # Openings that act: a family Wild (phase colour, colour null), a Reverse (count 1), a Draw Two.
    for top in ("wild", "reverse", "draw2", "skip"):
        seed = _opening_seed("family", 3, top)
        out[f"family-opening-{top}"] = _fake_game("family", {"target": "round"}, 3, seed=seed)
    # Faults: each one under strikes (the bot is told, and plays on), then one past the strikes.
    kinds = ["schema", "illegal", "stale_id", "missing_id", "non_json", "timeout"]
    out["strikes"] = _fake_game("family", {"target": "round"}, 2, seed=20, policy=f"strikes:{len(kinds)}",
                                misbehave={1 + 2 * i: k for i, k in enumerate(kinds + ["illegal"])})
    for kind in kinds:
        out[f"forfeit-{kind}"] = _fake_game("arcade", {}, 2, seed=21, misbehave={2: kind})
    return out


def _all_sent(played) -> Iterator[tuple[str, dict[str, Any]]]:
    for gid, (_, bots) in played.items():
        for bot in bots:
            for msg in bot.sent:
                yield gid, msg


def test_every_message_the_referee_sends_validates_strictly(played):
    seen: Counter[str] = Counter()
    problems = []
    done: set[str] = set()
    for gid, msg in _all_sent(played):
        text = json.dumps(msg, sort_keys=True)
        if text not in done:  # the same event is sent to every seat: check it once (jsonschema is slow)
            done.add(text)
            errors = validate_message("to_bot", msg, strict=True)
            if errors:
                problems.append((gid, msg, errors))
        seen[msg["type"]] += 1
        if msg["type"] == "event":
            seen["event:" + msg["kind"]] += 1
    assert not problems, problems[:5]
    missing = [t for t in TO_BOT if not seen[t]] + [k for k in EVENT_KINDS if not seen["event:" + k]]
    assert not missing, f"no {missing} in the test games: add a game that produces them"


def test_every_answer_and_log_the_bots_send_validates(played):
    count = 0
    for gid, (_, bots) in played.items():
        for bot in bots:
            for msg in bot.answers:
                expect_ok = not gid.startswith(("forfeit-", "strikes")) or msg["type"] in ("ready", "log")
                if expect_ok:
                    assert validate_message("from_bot", msg, strict=True) == [], (gid, msg)
                    count += 1
    assert count > 1000


def test_the_messages_say_what_the_doc_says(played):
    """Facts the schemas cannot say: ids, legal answers' ids, draw cards only to the drawer, phases."""
    phases: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    for _gid, (_, bots) in played.items():
        for bot in bots:
            last_id = 0
            you = None
            for msg in bot.sent:
                t = msg["type"]
                if t == "start":
                    you = msg["you"]
                    assert len(msg["hand"]) == 7
                elif t == "turn":
                    assert msg["id"] > last_id
                    last_id = msg["id"]
                    assert all(a["id"] == msg["id"] for a in msg["legal"])
                    assert all(answer_problem(a) is None for a in msg["legal"])
                    assert len({json.dumps(a, sort_keys=True) for a in msg["legal"]}) == len(msg["legal"])
                    kinds = [a["type"] for a in msg["legal"]]
                    assert kinds == sorted(kinds, key=lambda k: k != "play"), "plays come first"
                    assert sum(k in ("draw", "pass") for k in kinds) <= 1 or msg["phase"] == "drawn"
                    assert msg["hands"][you] == len(msg["hand"])
                    phases[msg["phase"]] += 1
                elif t == "event" and msg["kind"] == "draw":
                    assert ("cards" in msg) == (msg["seat"] == you), msg
                    if "cards" in msg:
                        assert len(msg["cards"]) == msg["count"]
                elif t == "event" and msg["kind"] == "reverse":
                    assert msg["count"] >= 1
                    reasons["reverse"] += 1
                elif t == "event" and msg["kind"] == "penalty":
                    reasons["penalty pending" if msg.get("pending") else "penalty"] += 1
                elif t in ("round_end", "game_end"):
                    reasons[f"{t}:{msg['reason']}"] += 1
                elif t == "error":
                    reasons[f"error:{msg['fault']}"] += 1
    assert set(phases) == {"play", "drawn", "colour"}
    for want in ("reverse", "penalty pending", "penalty", "round_end:out",
                 "round_end:move_limit", "game_end:out", "game_end:target",
                 "game_end:tender", "game_end:move_limit", "error:schema", "error:illegal", "error:stale_id",
                 "error:missing_id", "error:non_json", "error:timeout"):
        assert reasons[want], f"no {want!r} in the test games"


def test_the_v1_additions_say_what_the_doc_says(played):
    """turn.discard_pile counts the cards under the top card, turn.pending_kind names a pending stack's rank, and
    a play event carries ``drawn: true`` exactly when the seat played the card it had just drawn."""
    seen: Counter[str] = Counter()
    for gid, (_, bots) in played.items():
        for bot in bots:
            you, deck, last_turn = None, 0, None
            for msg in bot.sent:
                t = msg["type"]
                if t == "start":
                    you, players = msg["you"], len(msg["seats"])
                    deck = 54 * (2 if players >= 5 else 1) if msg["options"]["deck"] == "compact" else 108
                elif t == "turn":
                    # every card is in a hand, the draw pile, under the top card or on top
                    assert sum(msg["hands"]) + msg["draw_pile"] + msg["discard_pile"] + 1 == deck, (gid, msg)
                    if msg["pending"]:
                        assert msg["pending_kind"] == msg["top"].split(":")[-1] in ("draw2", "wild4"), (gid, msg)
                        seen["pending_kind:" + msg["pending_kind"]] += 1
                    else:
                        assert msg["pending_kind"] is None, (gid, msg)
                    if msg["draw_pile"] == 0:
                        seen["empty draw pile"] += 1
                    last_turn = msg
                elif t == "event" and msg["kind"] == "play":
                    assert msg.get("drawn", True) is True, "drawn is present only when true"
                    # In the fault games the referee may draw or play for the seat without a turn message.
                    if msg["seat"] == you and not gid.startswith(("strikes", "forfeit-")):
                        after_draw = last_turn is not None and last_turn["phase"] == "drawn"
                        assert ("drawn" in msg) == after_draw, (gid, msg, last_turn)
                        if after_draw:
                            assert msg["cards"] == [last_turn["drawn"]]
                    seen["drawn play, " + ("own" if msg["seat"] == you else "other")] += "drawn" in msg
    for want in ("pending_kind:draw2", "pending_kind:wild4", "empty draw pile", "drawn play, own",
                 "drawn play, other"):
        assert seen[want], f"no {want!r} in the test games"


def test_a_late_answer_to_a_timed_out_request_is_skipped(played):
    result, bots = played["strikes"]
    kinds = [f["kind"] for f in result["faults"]]
    assert kinds == ["schema", "illegal", "stale_id", "missing_id", "non_json", "timeout", "illegal"]
    assert result["forfeited"] == [0]  # the seventh fault is one past strikes:6
    errors = [m for m in bots[0].sent if m["type"] == "error"]
    assert [e["fault"] for e in errors] == kinds
    assert "(strike 1 of 6; replaced by a draw)" in errors[0]["message"]
    assert "strike" not in errors[-1]["message"]


# ----------------------------------------------------------------------------------- real processes

def _subprocess_game(command: str, house: str, seed: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    recorder = Recorder()
    with BotPool() as pool:
        seats = [seat_for(parse_bot(command), pool), seat_for(parse_bot("builtin:medium"), pool)]
        options = {"target": 100} if house == "compact" else {"target": "round"} if house == "family" else {}
        result = play_game(get_ruleset(house, options), seats, seed,
                           "g1", recorder=recorder)
    return result, recorder.lines


def _validate_record(lines: list[dict[str, Any]]) -> None:
    count = 0
    for entry in lines:
        if entry["t"] in ("out", "in"):
            msg = json.loads(entry["line"])
            assert validate_message(entry["t"], msg, strict=True) == [], msg
            count += 1
    assert count > 10


@pytest.mark.slow
@pytest.mark.parametrize("house", ["compact", "family", "arcade"])
def test_the_python_sample_bot_and_the_referee_speak_the_schemas(house):
    result, lines = _subprocess_game(f"{sys.executable} {ROOT / 'sample_bots' / 'python' / 'random_bot.py'}",
                                     house, seed=3)
    assert result["faults"] == []
    _validate_record(lines)


@pytest.mark.slow
def test_the_cli_transcript_command_of_the_doc_validates(tmp_path):
    """The command PROTOCOL.md's transcript was made with still runs, and its record validates."""
    from click.testing import CliRunner

    from referee.cli.main import cli

    out = tmp_path / "tx"
    bot = f"{sys.executable} {ROOT / 'sample_bots' / 'python' / 'random_bot.py'}"
    run = CliRunner().invoke(cli, ["match", "-r", "arcade", "-n", "1", "--seed", "368", "--out", str(out), "--records",
                                   bot, "builtin:hard"])
    assert run.exit_code == 0, run.output
    from referee.replay.record import read_record

    lines = read_record(str(out), "g0001")
    _validate_record(lines)
    record = [json.loads(e["line"]) for e in lines if e["t"] in ("out", "in")]
    doc = [m for _, m in _doc_transcript()]
    # the transcript is this game, trimmed: every line it shows is a line of the record, in order
    it = iter(record)
    for msg in doc:
        if msg["type"] == "quit":
            continue  # sent at the end of the match, after the record closes
        assert any(msg == m for m in it), f"the transcript line {msg} is not in the record (in order)"


# ----------------------------------------------------------------------------------- answer_problem

def _referee_accepts(msg: Any) -> bool:
    """What the referee accepts as a well-formed answer: an id (else missing_id) and no answer_problem."""
    return isinstance(msg, dict) and "id" in msg and answer_problem(msg) is None


def _unhashable_colour(msg: Any) -> bool:
    """answer_problem raises TypeError on these (see test_answer_problem_never_raises)."""
    return isinstance(msg, dict) and isinstance(msg.get("colour"), (list, dict)) and (
        msg.get("type") == "colour" or (msg.get("type") == "play" and isinstance(msg.get("cards"), list)
                                        and msg["cards"] and all(isinstance(c, str) for c in msg["cards"])))


def _mutations(answer: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    wrong_values = ["", "x", 7, -1, 1.5, True, None, [], ["red:7"], {}, {"a": 1}]
    for key in list(answer):
        yield f"without {key}", {k: v for k, v in answer.items() if k != key}
        for value in wrong_values:
            yield f"{key}={value!r}", {**answer, key: value}
    for extra in ("extra", "card", "Colour", "ID", "kind"):
        yield f"+{extra}", {**answer, extra: 1}
    for kind in ("play", "draw", "pass", "colour", "Play", "log", "ready", "turn", ""):
        yield f"type={kind}", {**answer, "type": kind}
    for colour in ("red", "teal", "purple", "RED", "Red", "", None):
        yield f"colour={colour!r}", {**answer, "colour": colour}
    yield "call=true", {**answer, "call": True}
    yield "call=1", {**answer, "call": 1}
    yield "call='true'", {**answer, "call": "true"}
    yield "id=0", {**answer, "id": 0}
    yield "id=-4", {**answer, "id": -4}
    yield "id=2**40", {**answer, "id": 2 ** 40}
    yield "id='1'", {**answer, "id": "1"}
    if "cards" in answer:
        yield "cards empty", {**answer, "cards": []}
        yield "cards not a list", {**answer, "cards": "red:7"}
        yield "cards of numbers", {**answer, "cards": [7]}
        yield "cards nested", {**answer, "cards": [["red:7"]]}
        yield "cards null", {**answer, "cards": [None]}


# Card codes the schema's pattern refuses but answer_problem lets through (the referee then reports
# them as the fault "illegal", "invalid card code ..."); and integral floats, which JSON Schema's
# "integer" accepts (1.0 is the integer 1) while answer_problem refuses them ("schema"). See PROTOCOL.md.
BAD_CODES = ["red:11", "purple:3", "wild:red", "Wild", "red:7 ", "red", "", "red:Skip", "10"]


def _corpus(played) -> list[dict[str, Any]]:
    seen, out = set(), []
    for _, msg in _all_sent(played):
        if msg["type"] == "turn":
            for a in msg["legal"]:
                key = json.dumps(a, sort_keys=True)
                if key not in seen:
                    seen.add(key)
                    out.append(a)
    return out


def test_answer_problem_agrees_with_the_schema(played):
    schema = validator("answer")
    corpus = _corpus(played)
    assert len(corpus) > 500 and {a["type"] for a in corpus} == set(ANSWERS)
    for answer in corpus:  # every legal answer of every test game
        assert schema.is_valid(answer) and _referee_accepts(answer), answer
    rng = random.Random(0)
    checked = Counter()
    for answer in rng.sample(corpus, 60) + [a for a in corpus if a["type"] in ("pass", "colour")][:10]:
        for label, mutant in _mutations(answer):
            if _unhashable_colour(mutant) and set(mutant) <= {"type", "id", "cards", "colour", "call"}:
                continue  # a known crash, tested below
            schema_ok = schema.is_valid(mutant)
            assert schema_ok == _referee_accepts(mutant), (label, mutant, schema_ok)
            checked[schema_ok] += 1
    for value in (None, 1, "draw", ["draw"], [{"type": "draw", "id": 1}], {}, {"id": 1}):
        assert not schema.is_valid(value) and not _referee_accepts(value)
    assert checked[True] > 50 and checked[False] > 2000


@pytest.mark.parametrize("code", BAD_CODES)
def test_answer_problem_refuses_what_the_card_pattern_refuses(code):
    msg = {"type": "play", "id": 1, "cards": [code]}
    assert not validator("answer").is_valid(msg)
    assert answer_problem(msg) is not None


@pytest.mark.parametrize("msg", [
    {"type": "colour", "id": 1, "colour": ["red"]},
    {"type": "colour", "id": 1, "colour": {}},
    {"type": "play", "id": 1, "cards": ["wild"], "colour": []},
    {"type": "play", "id": 1, "cards": ["wild"], "colour": {"red": 1}},
], ids=["colour-list", "colour-object", "play-colour-list", "play-colour-object"])
def test_answer_problem_never_raises(msg):
    assert not validator("answer").is_valid(msg)
    assert answer_problem(msg) is not None


def test_answer_problem_accepts_an_integral_float_id_like_the_schema():
    msg = {"type": "draw", "id": 1.0}
    assert validator("answer").is_valid(msg)
    assert answer_problem(msg) is None


def test_the_answer_schema_is_what_message_json_says_a_bot_sends():
    whole = validator("message")
    for msg in ({"type": "draw", "id": 1}, {"type": "ready", "name": "x"}, {"type": "log", "text": ""},
                {"type": "quit"}, {"type": "event", "kind": "skip", "seat": 1}):
        assert whole.is_valid(msg), msg
    for msg in ({"type": "draw"}, {"type": "ready"}, {"type": "nope"}, {"type": "event", "kind": "skip"}):
        assert not whole.is_valid(msg), msg
    assert DRAFT202012.id_of(load_schema("message")) == BASE_URI + "message.json"


def test_the_engine_enums_are_the_schemas_vocabularies():
    """Phases, action kinds and end reasons are enums whose values are exactly the wire strings."""
    from referee.engine.actions import ActionKind
    from referee.engine.game import Phase
    from referee.engine.outcome import EndReason

    assert {p.value for p in Phase} - {"over"} == set(load_schema("defs")["$defs"]["phase"]["enum"])
    assert {k.value for k in ActionKind} == set(ANSWERS)
    round_reasons = set(load_schema("round_end")["properties"]["reason"]["enum"])
    game_reasons = set(load_schema("game_end")["properties"]["reason"]["enum"])
    assert {r.value for r in EndReason} == round_reasons | game_reasons
