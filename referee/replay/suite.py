"""Position suites: stored positions a bot must answer right, and a bot asked each one as ``replay --ask`` asks.

A suite (``protocol/schemas/positions.schema.json``, docs/positions.md) names its ruleset and options and
lists positions; a position is a game's seed, seating and actions up to one seat's turn, with the answers
accepted there (or rejected). The bot is put in the seat as ``replay --ask`` puts it: started as a match
starts it, sent every line the seat would have read from the deal on (rebuilt by the referee's ``Table``,
``seat_lines.rebuilt``), each earlier request asked so a bot that keeps state has the history it would
have had; only its answer at the position's turn is judged. A built-in player is asked in process.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Iterable, Mapping, NotRequired, TypedDict, cast
from xml.etree import ElementTree

from referee.bots.spec import BotSpec
from referee.engine.actions import Action
from referee.engine.game import Game
from referee.engine.notation import InvalidReplayError, StoredGame, code_of, decode_action, walk
from referee.engine.rules import RuleOptions, Ruleset, RulesetError, get_ruleset
from referee.errors import BAD_INPUT, LastcardError
from referee.inputs.files import read_text
from referee.inputs.kinds import SUITE
from referee.players import SeatView, make_player
from referee.protocol.messages import TurnMessage
from referee.replay.ask import ask
from referee.replay.seat_lines import SeatRequest, rebuilt
from referee.store.game_source import SourceGame
from referee.table.policy import FaultPolicy

if TYPE_CHECKING:
    from referee.inputs.reader import LineMap

FORMAT = "lastcard-positions"
VERSION = 1
#: Where the shipped suites are (one per ruleset): ``referee/data/suites/RULESET.yaml``.
SHIPPED = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "suites")


class SuiteError(LastcardError):
    """A suite that cannot be read or used as asked (bad file, another ruleset, an illegal accepted answer)."""

    exit_code = BAD_INPUT


class PositionJson(TypedDict):
    """``Position.to_json``: a position as a suite file lists it (``protocol/schemas/positions.schema.json``)."""

    id: str
    seed: int
    seating: list[str]
    actions: str
    seat: int
    accept: NotRequired[list[str]]
    reject: NotRequired[list[str]]
    comment: NotRequired[str]
    origin: NotRequired[str]
    game: NotRequired[str]


@dataclass(frozen=True, slots=True)
class Position:
    """One position: the game up to the seat's turn, and the answers accepted or rejected there."""

    id: str
    seed: int
    seating: tuple[str, ...]
    actions: str
    seat: int
    accept: tuple[str, ...] = ()
    reject: tuple[str, ...] = ()
    comment: str = ""
    origin: str | None = None
    game: str | None = None
    """The stored game's id, as the bot is told it (default: the position's id)."""

    @property
    def turn(self) -> int:
        """The position's turn: how many actions came before it (as ``replay --seat`` numbers turns)."""
        return len(self.actions.split())

    def judge(self, action: Action | None, calls: bool) -> bool:
        """Whether ``action`` (``None``: no legal answer) passes; ``calls``: the last-card call counts (arcade)."""
        if action is None:
            return False

        def key(a: Action) -> tuple[object, bool]:
            return (a.key, calls and a.call)

        if self.accept and key(action) not in {key(decode_action(c)) for c in self.accept}:
            return False
        return key(action) not in {key(decode_action(c)) for c in self.reject}

    def to_json(self) -> PositionJson:
        out: PositionJson = {"id": self.id, "seed": self.seed, "seating": list(self.seating),
                             "actions": self.actions, "seat": self.seat}
        if self.accept:
            out["accept"] = list(self.accept)
        if self.reject:
            out["reject"] = list(self.reject)
        if self.comment:
            out["comment"] = self.comment
        if self.origin:
            out["origin"] = self.origin
        if self.game:
            out["game"] = self.game
        return out


@dataclass(frozen=True, slots=True)
class PositionSuite:
    """A suite's ruleset and options, and its positions in order."""

    ruleset: str
    options: RuleOptions
    positions: tuple[Position, ...]
    name: str = ""
    path: str = ""

    def calls(self) -> bool:
        """Whether the last-card call is part of an answer (``last_card_call: required``), else ignored."""
        return self.rules().last_card_call == "required"

    def rules(self) -> Ruleset:
        try:
            return get_ruleset(self.ruleset, self.options)
        except RulesetError as exc:
            raise SuiteError(f"{self.path}: {exc}") from None

    def stored(self, position: Position, extra: str = "") -> StoredGame:
        """The position's game as a stored game (its actions, then ``extra``)."""
        return StoredGame(position.game or position.id, position.seed, self.ruleset, self.options.copy(),
                          position.seating,
                          f"{position.actions} {extra}".strip())

    def at(self, position: Position) -> Game:
        """The game at the position's turn (the seat to move), or ``SuiteError`` saying what is wrong."""
        game: Game | None = None
        try:
            for _, game, _action, _stand_in in walk(self.stored(position)):  # noqa: B007 - the last one is wanted
                pass
        except InvalidReplayError as exc:
            raise SuiteError(f"{self.path}: position {position.id}: {exc}") from None
        assert game is not None
        if game.over:
            raise SuiteError(f"{self.path}: position {position.id}: the game is over after its actions")
        if game.current != position.seat:
            raise SuiteError(f"{self.path}: position {position.id}: seat {game.current} is to move at turn "
                             f"{position.turn}, not seat {position.seat}")
        return game

    def check_rules(self, ruleset: str | None, options: Mapping[str, object] | None) -> None:
        """Refuse to run under a ruleset or options other than the suite's, naming both."""
        if ruleset is None and not options:
            return
        try:
            wanted = get_ruleset(ruleset or self.ruleset, options or {})
        except RulesetError as exc:
            raise SuiteError(str(exc)) from None
        if wanted != self.rules():
            raise SuiteError(f"{self.path} is a suite for {describe_rules(self.ruleset, self.options)}: it does not "
                             f"run under {describe_rules(ruleset or self.ruleset, options or {})}; use a suite made "
                             "for those rules (lastcard replay ... --save-position makes one)")


def overrides(ruleset: str, options: Mapping[str, object]) -> RuleOptions:
    """The options that differ from the ruleset's preset (a stored game keeps them all), with their values."""
    try:
        full, preset = get_ruleset(ruleset, options), get_ruleset(ruleset)
    except RulesetError as exc:
        raise SuiteError(str(exc)) from None
    return cast(RuleOptions, {k: getattr(full, k) for k in options if getattr(full, k) != getattr(preset, k)})


def describe_rules(ruleset: str, options: Mapping[str, object]) -> str:
    """``arcade (its preset options)`` or ``family with stacking=True``."""
    extra = ", ".join(f"{k}={v!r}" for k, v in sorted(overrides(ruleset, options).items()))
    return f"{ruleset} with {extra}" if extra else f"{ruleset} (its preset options)"


# ---------------------------------------------------------------------------------------- reading and writing
def load_suite(path: str) -> PositionSuite:
    """The suite in ``path`` (YAML), read through the guarded reader and checked against its schema and position by
    position; ``InputFileError`` or ``SuiteError`` (both exit status 2) saying what is wrong, and where."""
    from referee.inputs.reader import LineMap, load_yaml
    from referee.protocol.schemas import validator

    lines = LineMap()
    data, early = load_yaml(read_text(path, SUITE), lines, SUITE)
    if early:
        raise SuiteError(f"{path}: " + "; ".join((f"{p.path}: " if p.path else "") + p.located() for p in early[:5]))
    if data is None:
        raise SuiteError(f"{path} is empty: a position suite names its ruleset and lists positions (docs/positions.md;"
                         " lastcard replay ... --save-position makes one)")
    errors = validator("positions.schema").iter_errors(data)
    problems = [_schema_problem(e.absolute_path, e.message, lines) for e in errors]
    if problems:
        raise SuiteError(f"{path} is not a position suite (protocol/schemas/positions.schema.json): "
                         + "; ".join(problems[:5]))
    positions = tuple(Position(str(p["id"]), int(p["seed"]), tuple(p["seating"]), str(p["actions"]), int(p["seat"]),
                               tuple(p.get("accept") or ()), tuple(p.get("reject") or ()), str(p.get("comment", "")),
                               p.get("origin"), p.get("game")) for p in data["positions"])
    options = cast(RuleOptions, dict(data.get("options") or {}))  # checked by ``rules()`` below
    suite = PositionSuite(str(data["ruleset"]), options, positions, str(data.get("name", "")), path)
    suite.rules()
    seen: set[str] = set()
    for position in positions:
        if position.id in seen:
            raise SuiteError(f"{path}: two positions are named {position.id!r}: each needs its own id")
        seen.add(position.id)
        check_answers(suite, position, suite.at(position))
    return suite


def _schema_problem(path: Iterable[str | int], message: str, lines: LineMap) -> str:
    """A schema error at its key path (``$.positions[0].seed``) and line."""
    keys = list(path)
    line = lines.line(keys)
    where = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in keys)
    return f"{where}: {message}" + (f" (line {line})" if line else "")


def check_answers(suite: PositionSuite, position: Position, game: Game) -> None:
    """Every accepted or rejected code parses; every accepted one is legal at the position."""
    legal = game.legal_actions()
    keys = {a.key for a in legal}
    for code in position.accept + position.reject:
        try:
            action = decode_action(code)
        except InvalidReplayError as exc:
            raise SuiteError(f"{suite.path or 'suite'}: position {position.id}: {exc}") from None
        if code in position.accept and action.key not in keys:
            raise SuiteError(f"{suite.path or 'suite'}: position {position.id}: {code!r} is not legal at turn "
                             f"{position.turn}, so no bot could give it; the legal answers are "
                             f"{' '.join(code_of(a) for a in legal)}")


def new_suite_text(ruleset: str, options: Mapping[str, object], name: str) -> str:
    """The head of a new suite file; positions are appended after it."""
    import yaml

    head = {"format": FORMAT, "version": VERSION, "name": name, "ruleset": ruleset, "options": options}
    return ("# A lastcard position suite (docs/positions.md): lastcard puzzles THIS_FILE BOT\n"
            + yaml.safe_dump(head, sort_keys=False) + "positions:\n")


def append_position(path: str, ruleset: str, given: Mapping[str, object], position: Position) -> PositionSuite:
    """Add ``position`` to the suite in ``path`` (made if missing); the text already there is kept as it is.
    ``given``: the stored game's options (checked as a ruleset's: ``PositionSuite.rules``).

    A suite for other rules, or one that already has the position's id, is refused.
    """
    import yaml

    options = cast(RuleOptions, dict(given))
    if os.path.exists(path):
        suite = load_suite(path)
        if suite.rules() != PositionSuite(ruleset, options, ()).rules():
            raise SuiteError(f"{path} is a suite for {describe_rules(suite.ruleset, suite.options)}; this game was "
                             f"played under {describe_rules(ruleset, options)}: save it to another suite")
        if any(p.id == position.id for p in suite.positions):
            raise SuiteError(f"{path} already has a position {position.id!r}: give it another --position-id")
        text = read_text(path, SUITE)
        if not text.endswith("\n"):
            text += "\n"
        if "positions: []" in text:
            text = text.replace("positions: []", "positions:")
    else:
        options = overrides(ruleset, options)
        suite = PositionSuite(ruleset, options, (), path=path)
        text = new_suite_text(ruleset, options, os.path.splitext(os.path.basename(path))[0])
    draft = replace(suite, positions=(position,))
    check_answers(draft, position, draft.at(position))
    item = yaml.safe_dump([position.to_json()], sort_keys=False, width=120)
    text += "".join(f"  {line}\n" for line in item.splitlines())
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    return load_suite(path)


# ---------------------------------------------------------------------------------------- asking a bot
@dataclass(frozen=True, slots=True)
class Verdict:
    """What the bot answered at one position, and whether it passes."""

    position: Position
    legal: tuple[Action, ...]
    request: TurnMessage | None
    """The request as the bot read it (``None`` for a built-in player: it reads no lines)."""
    action: Action | None
    """The legal answer given (``None``: an illegal answer, a fault, or asking stopped before the turn)."""
    answered: str
    """The answer as text: its compact code, the bot's line when illegal, or the fault."""
    passed: bool
    seconds: float
    fault: str | None = None

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"id": self.position.id, "turn": self.position.turn, "seat": self.position.seat,
                                  "passed": self.passed, "answered": self.answered,
                                  "accept": list(self.position.accept), "reject": list(self.position.reject),
                                  "legal": [code_of(a) for a in self.legal], "seconds": round(self.seconds, 4)}
        if self.fault is not None:
            out["fault"] = self.fault
        if self.position.comment:
            out["comment"] = self.position.comment
        return out


@dataclass(frozen=True, slots=True)
class SuiteRun:
    suite: PositionSuite
    bot: str
    verdicts: tuple[Verdict, ...] = field(default_factory=tuple)

    @property
    def misses(self) -> list[Verdict]:
        return [v for v in self.verdicts if not v.passed]

    def to_json(self) -> dict[str, object]:
        passed = sum(v.passed for v in self.verdicts)
        return {"suite": self.suite.name or self.suite.path, "ruleset": self.suite.ruleset,
                "options": self.suite.options, "bot": self.bot, "positions": len(self.verdicts), "passed": passed,
                "failed": len(self.verdicts) - passed, "results": [v.to_json() for v in self.verdicts]}

    def junit(self) -> str:
        """The run as JUnit XML: one test suite, one test case per position, a failure per miss."""
        cases = ElementTree.Element("testsuite", name=f"lastcard positions: {self.suite.name or self.suite.path}",
                                    tests=str(len(self.verdicts)), failures=str(len(self.misses)), errors="0",
                                    time=f"{sum(v.seconds for v in self.verdicts):.3f}")
        for v in self.verdicts:
            case = ElementTree.SubElement(cases, "testcase", classname=f"{self.suite.ruleset}.{self.bot}",
                                          name=v.position.id, time=f"{v.seconds:.3f}")
            if not v.passed:
                failure = ElementTree.SubElement(case, "failure", message=miss_summary(v), type="miss")
                failure.text = v.position.comment
        root = ElementTree.Element("testsuites")
        root.append(cases)
        return ElementTree.tostring(root, encoding="unicode", xml_declaration=True)


def miss_summary(v: Verdict) -> str:
    want = (f"accepted: {' '.join(v.position.accept)}" if v.position.accept else "") + (
        ("; " if v.position.accept else "") + f"rejected: {' '.join(v.position.reject)}" if v.position.reject else "")
    return f"answered {v.answered}; {want}"


def run_suite(suite: PositionSuite, spec: BotSpec, bot: str) -> SuiteRun:
    """Ask the bot every position of the suite, in order; a fresh bot (or player) for each."""
    return SuiteRun(suite, bot, tuple(ask_position(suite, p, spec) for p in suite.positions))


def ask_position(suite: PositionSuite, position: Position, spec: BotSpec) -> Verdict:
    """Put the bot in the position's seat with the history it would have had, and judge its answer."""
    game = suite.at(position)
    legal = tuple(game.legal_actions())
    started = time.perf_counter()
    if spec.builtin is not None:
        player = make_player(spec.builtin, position.seed)
        action = player.choose(SeatView(game, position.seat), list(legal))
        return Verdict(position, legal, None, action, code_of(action), position.judge(action, suite.calls()),
                       time.perf_counter() - started)
    # The seat's lines up to and including the request at the turn: the game played on with a stand-in answer.
    source = SourceGame(suite.stored(position, code_of(legal[0])), {}, None, None, suite.path)
    script = rebuilt(source, position.seat, spec.limits, FaultPolicy.parse("forfeit"), stop=position.turn + 1)
    run = ask(script, replace(spec, name=position.seating[position.seat]), until_turn=position.turn)
    seconds = time.perf_counter() - started
    request = _request_at(script.requests, position.turn)
    if run.startup is not None:
        fault = f"the bot did not start: {run.startup.kind.value}: {run.startup.message}"
        return Verdict(position, legal, request, None, fault, False, seconds, fault)
    last = run.asked[-1] if run.asked else None
    if last is None or last.request.turn != position.turn:
        fault = (f"asking stopped at turn {last.request.turn}: {last.fault.kind.value}: {last.fault.message}"
                 if last is not None and last.fault is not None else "the bot was not asked")
        return Verdict(position, legal, request, None, fault, False, seconds, fault)
    if last.fault is not None:
        fault = f"{last.fault.kind.value}: {last.fault.message}"
        return Verdict(position, legal, request, None, f"FAULT {fault}", False, seconds, fault)
    if last.action is None:
        import json

        return Verdict(position, legal, request, None, f"{json.dumps(last.answered_wire())} (ILLEGAL)", False, seconds)
    # The bot's own action: the legal list's has the same key, but maybe not the bot's last-card call.
    given = Action.from_wire(last.answered_wire() or {})
    return Verdict(position, legal, request, given, code_of(given), position.judge(given, suite.calls()), seconds)


def _request_at(requests: Iterable[SeatRequest], turn: int) -> TurnMessage | None:
    return next((r.request for r in requests if r.turn == turn), None)


def position_of(found: SourceGame, seat: int, turn: int, accept: Iterable[str], reject: Iterable[str],
                comment: str = "", position_id: str | None = None) -> Position:
    """The position of a stored game at ``turn``, for ``seat`` (the seat to move there), with its answers."""
    stored = found.stored
    tokens = [t.removesuffix("!") for t in stored.actions.split()]
    if not 0 <= turn < len(tokens):
        raise SuiteError(f"turn {turn} is not a turn of game {stored.game}: its turns are 0 to {len(tokens) - 1}")
    position = Position(position_id or f"{stored.game}-t{turn}-s{seat}", stored.seed, stored.seating,
                        " ".join(tokens[:turn]), seat, tuple(accept), tuple(reject), comment,
                        f"{found.where}, turn {turn}", stored.game)
    suite = PositionSuite(stored.ruleset, stored.options.copy(), (position,), path=found.where)
    game = suite.at(position)
    check_answers(suite, position, game)
    return position
