"""The scripted suite: situations built as real engine positions, each a named check.

Every situation is a position of ``referee.engine.game.Game`` (see ``positions.build``). The bot gets the
``start`` of that round, the events that lead to its turn, and a ``turn`` whose legal list the engine
wrote; its answer is checked for the echoed id, the schema, legality (``Action.from_wire`` and
``Game.check``), the situation's own expectation and the time. Then the answer (or, after a wrong
one, the draw or pass that replaces it) is played on the engine and the bot is told what happened,
as at a real table, so the next situation follows a conversation the bot can believe.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Mapping

from referee.bots.hints import stderr_hint
from referee.bots.pipes.client import UNASKED_FIX
from referee.check.positions import action, build, deal_event, example
from referee.check.probe import Probe, Reply, Stray
from referee.check.report import CheckResult, Report, Status, clip
from referee.check.schema import from_bot_problem, ready_problem
from referee.engine.actions import PLAY, Action, IllegalActionError, InvalidActionError
from referee.engine.cards import DECK_COLOURS
from referee.engine.game import PHASE_COLOUR, PHASE_DRAWN, Game
from referee.engine.rules import get_ruleset
from referee.protocol.messages import start_message, turn_request
from referee.protocol.relay import EndPatch, Relay
from referee.protocol.wire import dumps
from referee.table.policy import FaultPolicy, replacement_action

# The checks, in the order they run. Names are stable: tests, CI and autograders key on them.
HANDSHAKE_TIME = "handshake: ready within the startup limit"
HANDSHAKE_READY = "handshake: ready is valid"
C_DRAW = "compact: a turn where only drawing is legal"
C_DRAWN = "compact: a drawn card that plays: play it or pass"
C_DEAD_DRAW = "compact: a drawn card that does not play ends the turn (no answer)"
C_WD4 = "compact: Wild Draw Four only without the colour in play"
C_PASS = "compact: a turn where only passing is legal (nothing to draw)"
F_OPENING = "family: name the colour of an opening Wild, then play"
F_WILD = "family: a wild play names its colour"
F_STACK = "family: answer a stacked Draw Two (stacking)"
F_PENALTY = "family: a pending penalty that cannot be answered: take it"
A_MULTI = "arcade: several cards in one play"
A_CALL = "arcade: the last-card call"
NEW_GAME = "a new game in the same process"
QUIT = "quit: the bot exits promptly"
NO_DEBUG = "no debug output on stdout"
NO_ANSWER = "no answer to start, events and results"

BLOCKS: dict[str, tuple[str, ...]] = {
    "compact": (C_DRAW, C_DRAWN, C_DEAD_DRAW, C_WD4, C_PASS),
    "family": (F_OPENING, F_WILD, F_STACK, F_PENALTY),
    "arcade": (A_MULTI, A_CALL),
}

def debug_hint(language: str | None) -> str:
    """What a debug print on stdout should be instead, in the bot's language."""
    return "only protocol JSON lines on stdout: " + stderr_hint(language)


def check_names(rulesets: list[str]) -> list[tuple[str, str]]:
    """Every scripted check as ``(name, group)``, in running order, for the chosen rulesets."""
    names = [(HANDSHAKE_TIME, "handshake"), (HANDSHAKE_READY, "handshake")]
    for house in rulesets:
        names += [(n, house) for n in BLOCKS[house]]
    names += [(NEW_GAME, "protocol"), (QUIT, "protocol"), (NO_DEBUG, "protocol"), (NO_ANSWER, "protocol")]
    return names


def fault_cost(policy: str) -> str:
    """What a fault costs the bot under ``policy``, in words (the checker's messages follow the contest)."""
    parsed = FaultPolicy.parse(policy)
    if parsed.mode == "strikes":
        return (f"under {policy} the answer is replaced by a draw (a strike), and strike {parsed.strikes + 1} in "
                "a game forfeits it")
    return "the bot loses the game (policy forfeit)"


#: How much of the problem that stopped the suite each skipped check repeats (the failed check shows it all).
STOP_SHOWN = 100


class Stop(Exception):
    """The bot is dead, hung or refused: the rest of the suite cannot run."""


@dataclass(frozen=True)
class Settings:
    """Limits the suite runs with."""

    move_ms: int = 1000
    quiet_ms: int = 200
    quit_ms: int = 2000
    seed: int = 1
    #: The fault policy in force, for saying what a fault costs.
    policy: str = "forfeit"


class Suite:
    """Runs the scripted situations against one ``Probe``, filling in the report's checks."""

    def __init__(self, probe: Probe, report: Report, settings: Settings) -> None:
        self.probe = probe
        self.report = report
        self.settings = settings
        self.rng = random.Random(settings.seed)
        self.next_id = 1
        self.current: CheckResult | None = None
        self.stopped: str | None = None
        self.results_checked = False
        self.bot = report.bot

    # ------------------------------------------------------------------ running
    def begin(self, name: str) -> CheckResult:
        check = self.report.get(name)
        check.status, check.problem = Status.PASSED, None
        self.current = check
        return check

    def run(self, rulesets: list[str]) -> None:
        """Run every check; once the bot is dead or hung the rest stay skipped with the reason."""
        try:
            self.handshake()
            blocks = {"compact": self.block_compact, "family": self.block_family, "arcade": self.block_arcade}
            for house in rulesets:
                blocks[house]()
            self.new_game(rulesets[0])
            self.quit()
        except Stop as stop:
            self.stopped = str(stop)
        self.finish()

    def finish(self) -> None:
        """The checks over the whole conversation: stray output and answers to information."""
        probe = self.probe
        debug = self.report.get(NO_DEBUG)
        if probe.stray:
            first = probe.stray[0]
            fault = "startup" if (first.after or "").startswith('{"type":"hello"') else "non_json"
            debug.fail(f"{len(probe.stray)} line(s) on stdout that are not protocol JSON, the first "
                       f"{clip(first.line, 120)!r}: {first.reason}; the arena takes the first as the fault {fault}: "
                       f"{fault_cost(self.settings.policy)}", sent=first.after, received=first.line,
                       expected=debug_hint(probe.language))
            debug.details += [f"also: {clip(s.line, 200)!r}" for s in probe.stray[1:5]]
        no_answer = self.report.get(NO_ANSWER)
        self.drain()
        for check in (debug, no_answer):
            if not check.failed:
                if self.stopped:
                    check.skip(f"not run to the end: {self.stopped}")
                else:
                    check.status, check.problem = Status.PASSED, None
        for check in self.report.checks:
            if check.status is Status.SKIPPED and check.problem is None:
                check.problem = f"not run: {self.stopped}" if self.stopped else "not run"

    def drain(self) -> None:
        """File the answers nobody asked for that the probe found while reading for a request, in order."""
        pending, self.probe.unsolicited = self.probe.unsolicited, []
        for stray in pending:
            self._unsolicited(self.report.get(NO_ANSWER), stray)

    def _unsolicited(self, check: CheckResult, stray: Stray) -> None:
        if check.failed:
            check.note(f"also {clip(stray.line, 100)} after {clip(stray.after, 100)}")
            return
        check.fail(f"{stray.reason}: {UNASKED_FIX}", sent=stray.after, received=stray.line,
                   expected="no answer: read information (or ignore it) and wait for the next turn request")

    def stop(self, why: str) -> Stop:
        self.probe.close()
        return Stop(why)

    # ------------------------------------------------------------------ handshake
    def handshake(self) -> None:
        probe = self.probe
        timed = self.begin(HANDSHAKE_TIME)
        try:
            probe.launch()
        except (OSError, ValueError) as exc:
            timed.fail(f"cannot start {self.report.command!r}: {exc}",
                       expected="a command that starts the bot (check the path and the interpreter)")
            raise self.stop("the bot did not start") from None
        reply = probe.handshake(seat=0)
        timed.elapsed_ms = reply.elapsed_ms
        hello = dumps(reply.request).decode()
        expected = f'{{"type":"ready","name":"..."}} within {probe.spec.limits.startup_ms} ms of hello'
        if reply.fatal:
            timed.fail(reply.fatal, sent=hello, received=reply.line, expected=reply.fix or expected)
            timed.details += probe.stderr_details()
            raise self.stop(f"no ready ({clip(reply.fatal, STOP_SHOWN)})")
        if reply.problems:
            timed.fail("; ".join(text for _, text in reply.problems), sent=hello, received=reply.line,
                       expected=expected)
            raise self.stop("no ready in answer to hello")
        valid = self.begin(HANDSHAKE_READY)
        assert reply.answer is not None
        self.report.ready = reply.answer
        problem = from_bot_problem(reply.answer) or ready_problem(reply.answer)
        if problem:
            valid.fail(problem, sent=hello, received=reply.line,
                       expected='{"type":"ready","name":"<string>"} with optional string author and version and '
                                'an optional protocol from hello\'s versions')
            raise self.stop("the arena refuses this ready")

    # ------------------------------------------------------------- one scripted round
    def scripted_round(self, game: Game, game_id: str, seat: int) -> ScriptedRound:
        names = [self.bot if s == seat else ("random", "easy", "medium", "hard")[s % 4] for s in range(game.n)]
        return ScriptedRound(self, game, game_id, seat, names)

    def quiet(self, check: CheckResult, expected: str) -> None:
        """Wait a moment while no answer is due; anything that comes is a failure of ``check``."""
        for stray in self.probe.listen(self.settings.quiet_ms / 1000):
            check.fail(f"{stray.reason}", sent=stray.after, received=stray.line, expected=expected)
        self.alive()

    def quiet_information(self) -> None:
        """Wait a moment after events; anything that comes fails the check of answers to information."""
        self.drain()
        for stray in self.probe.listen(self.settings.quiet_ms / 1000):
            self._unsolicited(self.report.get(NO_ANSWER), stray)
        self.alive()

    def quiet_results(self) -> None:
        """After the first round_end and game_end, wait and see that nothing answers them (later results are
        caught when the next request finds an answer nobody asked for before its own)."""
        if not self.results_checked:
            self.results_checked = True
            self.quiet_information()

    def alive(self) -> None:
        if self.probe.dead:
            if self.current is not None and not self.current.failed:
                self.current.fail(self.probe.dead, sent=clip(self.probe.last_line))
                self.current.details += self.probe.stderr_details()
            raise self.stop(self.probe.dead)

    # ------------------------------------------------------------------ compact
    def block_compact(self) -> None:
        rules = get_ruleset("compact")
        seed = self.settings.seed
        # A draw is the only answer; the card drawn plays, so the bot is asked again (phase "drawn").
        check = self.begin(C_DRAW)
        g = build(rules, seats=3, hands={1: ["amber:5", "violet:9", "coral:2"]}, top="teal:7", draw=["teal:4"],
                  current=1, seed=seed)
        t = self.scripted_round(g, "check-compact", 1)
        t.start()
        t.turn(check, "the only legal answer: a draw (nothing in the hand matches teal or 7)")
        assert g.phase == PHASE_DRAWN and g.current == 1, "script: the drawn teal:4 plays"
        t.turn(self.begin(C_DRAWN), "one element of legal: play the drawn teal:4, or pass")

        # The card drawn does not play: the turn is over and nothing may be answered.
        check = self.begin(C_DEAD_DRAW)
        g = build(rules, seats=3, hands={1: ["amber:4", "violet:10", "coral:3"]}, top="teal:6", draw=["coral:9"],
                  current=1, round_=2, seed=seed + 1)
        t = self.scripted_round(g, "check-compact", 1)
        t.start()
        t.turn(check, "the only legal answer: a draw")
        assert g.current != 1, "script: the drawn coral:9 does not play"
        self.quiet(check, "no answer: the drawn coral:9 does not play, so the turn is over; wait for the next "
                          "turn request")

        # Wild Draw Four restricted: the colour in play is coral (named with a Wild), and the bot holds coral.
        check = self.begin(C_WD4)
        g = build(rules, seats=3, hands={0: ["wild", "violet:2", "amber:10", "teal:10"],
                                         1: ["wild4", "coral:3", "amber:5"]},
                  top="teal:8", current=0, round_=3, seed=seed + 2)
        t = self.scripted_round(g, "check-compact", 1)
        t.start()
        t.others("play wild coral")
        t.turn(check, "the colour in play is coral and the hand holds coral:3, so the Wild Draw Four may not be "
                      "played: play coral:3 or draw")

        # Blocked: nothing plays and nothing can be drawn; the bot's pass ends the round and the match.
        check = self.begin(C_PASS)
        g = build(rules, seats=3, hands={0: ["amber:2", "coral:4"], 1: ["amber:5", "violet:9"],
                                         2: ["violet:3", "coral:10", "amber:8"]},
                  top="teal:7", empty_pile=True, current=2, scores=[480, 0, 0], round_=4, seed=seed + 3)
        t = self.scripted_round(g, "check-compact", 1)
        t.start()
        t.others("pass", "pass")
        self.quiet_information()  # two pass events
        t.turn(check, "the only legal answer: a pass (the draw pile and the discard are empty and nothing plays)")
        assert g.over, "script: the blocked round ends the match"
        self.quiet_results()

    # ------------------------------------------------------------------ family
    def block_family(self) -> None:
        rules = get_ruleset("family", {"stacking": True})
        seed = self.settings.seed
        # The opening card is a Wild: the first player (the bot) names its colour, then takes the turn.
        check = self.begin(F_OPENING)
        g = build(rules, seats=4, hands={2: ["red:3", "red:8", "blue:5", "green:skip", "yellow:1", "red:reverse",
                                             "blue:9"]},
                  top="wild", phase=PHASE_COLOUR, current=2, dealer=1, seed=seed + 4)
        t = self.scripted_round(g, "check-family", 2)
        t.start()
        t.turn(check, 'a colour answer, e.g. {"type":"colour","id":N,"colour":"red"}')
        if g.current == 2 and not g.over:
            t.turn(check, "after naming the colour the turn goes on: one element of legal")

        # Only wilds play and nothing can be drawn: the play must name a colour.
        check = self.begin(F_WILD)
        g = build(rules, seats=4, hands={2: ["wild", "red:3", "yellow:5"]}, top="blue:8", empty_pile=True,
                  current=2, round_=2, seed=seed + 5)
        t = self.scripted_round(g, "check-family", 2)
        t.start()
        t.turn(check, "a play of the wild that names its colour, e.g. "
               + example(g.legal_actions(), self.next_id, wild=True))

        # Stacking: a Draw Two is pending on the bot; only a Draw Two answers it (not the red:9).
        check = self.begin(F_STACK)
        g = build(rules, seats=4,
                  hands={1: ["red:draw2", "green:6", "blue:1"], 2: ["yellow:draw2", "red:9", "green:4"]},
                  top="red:5", current=1, round_=3, seed=seed + 6)
        t = self.scripted_round(g, "check-family", 2)
        t.start()
        t.others("play red:draw2")
        t.turn(check, "facing a pending Draw Two: answer with a Draw Two (yellow:draw2) or take the penalty with a "
                      "draw")

        # A pending Wild Draw Four the bot cannot answer: it must draw (take the 4) and the turn is over.
        check = self.begin(F_PENALTY)
        g = build(rules, seats=4, hands={1: ["wild4", "blue:2", "yellow:7"], 2: ["green:3", "green:draw2", "blue:5"],
                                         3: ["green:7"]},
                  top="blue:6", current=1, scores=[0, 0, 0, 290], round_=4, seed=seed + 7)
        t = self.scripted_round(g, "check-family", 2)
        t.start()
        t.others("play wild4 green")
        t.turn(check, "the only legal answer: a draw, which takes the 4 pending cards")
        assert g.current == 3, "script: the penalty ends the bot's turn"
        self.quiet(check, "no answer: taking a penalty ends the turn")
        t.others("play green:7")  # seat 3 goes out and reaches the target
        assert g.over, "script: seat 3 goes out and wins the match"
        self.quiet_results()

    # ------------------------------------------------------------------ arcade
    def block_arcade(self) -> None:
        rules = get_ruleset("arcade")
        seed = self.settings.seed
        # Three 7s, one of them red on a red 4: a stack must start with a card that plays.
        check = self.begin(A_MULTI)
        g = build(rules, seats=2, hands={0: ["blue:7", "red:7", "green:7", "yellow:2", "blue:9"], 1: ["wild"]},
                  top="red:4", draw=["yellow:8"], current=0, seed=seed + 8)
        t = self.scripted_round(g, "check-arcade-1", 0)
        t.start()
        t.turn(check, "one element of legal: red:7 alone, or a stack of 7s that starts with red:7")
        t.others(f"play wild {g.colours[0]}")  # the opponent goes out: the game ends
        self.quiet_results()

        # A play leaving one card must carry the call.
        check = self.begin(A_CALL)
        g = build(rules, seats=2, hands={0: ["red:7", "blue:9"], 1: ["wild"]}, top="red:3", draw=["yellow:8"],
                  current=0, seed=seed + 9)
        t = self.scripted_round(g, "check-arcade-2", 0)
        t.start()
        t.turn(check, 'a play that leaves one card carries "call":true, e.g. '
               + example(g.legal_actions(), self.next_id, call=True))
        t.others(f"play wild {g.colours[0]}")

    # ------------------------------------------------------------------ the rest
    def new_game(self, house: str) -> None:
        """A fourth game in the same process, with another table size and seat."""
        rules = get_ruleset(house)
        a, b, c = DECK_COLOURS[rules.deck][:3]
        g = build(rules, seats=4, hands={3: [f"{a}:5", f"{b}:9", "wild", f"{c}:3"]}, top=f"{a}:2", current=3,
                  dealer=2, seed=self.settings.seed + 10)
        t = self.scripted_round(g, "check-new", 3)
        t.start()
        t.turn(self.begin(NEW_GAME), "one element of legal, in a new game with 4 seats where the bot sits in seat 3")

    def quit(self) -> None:
        check = self.begin(QUIT)
        limit = self.settings.quit_ms
        code, elapsed, came = self.probe.quit(limit / 1000)
        check.elapsed_ms = elapsed
        self.drain()
        for stray in came:  # most likely the answer to an event sent just before quit
            self._unsolicited(self.report.get(NO_ANSWER), stray)
        expected = f"exit status 0 within {limit} ms of quit"
        if code is None:
            check.fail(f"still running {limit} ms after quit (it is killed)", sent='{"type":"quit"}',
                       expected=expected + ": on quit, stop reading and exit")
        elif code != 0:
            from referee.bots.pipes.transport import describe_exit

            check.fail(f"the bot ended with {describe_exit(code)} after quit", sent='{"type":"quit"}',
                       expected=expected, elapsed_ms=elapsed)
            check.details += self.probe.stderr_details()
        self.probe.close()


class ScriptedRound:
    """One scripted round: the engine position, the bot's seat, and what the bot has been told so far."""

    def __init__(self, suite: Suite, game: Game, game_id: str, seat: int, names: list[str]) -> None:
        self.suite = suite
        self.game = game
        self.game_id = game_id
        self.seat = seat
        self.names = names
        self.relay = Relay(seat, game_id, names)

    def tell(self, msg: Mapping[str, object] | bytes) -> None:
        if self.suite.probe.tell(msg):
            self.suite.alive()

    def start(self) -> None:
        self.tell(start_message(self.game, deal_event(self.game, self.seat), self.seat, self.game_id, self.names))

    def forward(self) -> None:
        """Tell the bot the new events, exactly as the table does (``Relay``: a draw's cards only to its seat)."""
        outcome = self.game.outcome
        end: EndPatch | None = None
        if outcome is not None:
            end = {"forfeited": [], "game_placements": list(outcome.placements)}
        for msg in self.relay.catch_up(self.game, end=end):
            self.tell(msg)

    def others(self, *moves: str) -> None:
        """Other seats play ``moves`` (checked against the engine, so the script cannot cheat)."""
        g = self.game
        for text in moves:
            assert g.current != self.seat, f"script: {text!r} is not the bot's move"
            act = action(text)
            g.check(act)
            g.apply(act, self.suite.rng)
        self.forward()

    def turn(self, check: CheckResult, expected: str) -> Action:
        """Ask the bot for its move in the current position and check the answer; the move played is returned."""
        suite = self.suite
        g = self.game
        assert g.current == self.seat and not g.over, "script: not the bot's turn"
        legal = g.legal_actions()
        req_id = suite.next_id
        suite.next_id += 1
        move_ms = suite.settings.move_ms
        request = turn_request(g, self.seat, legal, req_id, move_ms, 0)
        sent = dumps(request).decode()
        reply = suite.probe.request(request, move_ms)
        if check.elapsed_ms is None or reply.elapsed_ms > check.elapsed_ms:
            check.elapsed_ms = reply.elapsed_ms
        if reply.fatal:
            check.fail(reply.fatal, sent=sent, received=reply.line, expected=reply.fix or expected,
                       elapsed_ms=reply.elapsed_ms)
            check.details += suite.probe.stderr_details()
            raise suite.stop(clip(reply.fatal, STOP_SHOWN) or "")
        played, problems = judge(g, reply, legal)
        if problems:
            check.fail("; ".join(text for _, text in problems), sent=sent, received=reply.line, expected=expected,
                       elapsed_ms=reply.elapsed_ms)
            faults = [(kind, text) for kind, text in problems if kind != "call"]
            if faults:  # as the arena does: tell the bot what was wrong (the checker carries on)
                self.tell({"type": "error", "fault": faults[0][0], "message": faults[0][1], "request_id": req_id})
        if played is None:
            played = replacement_action(legal)
        suite.drain()
        g.apply(played, suite.rng)
        self.forward()
        return played


def judge(game: Game, reply: Reply, legal: list[Action]) -> tuple[Action | None, list[tuple[str, str]]]:
    """The action a reply stands for (when it parses and is legal) and everything wrong with it, as
    ``(fault kind, text)`` pairs; pure, so it tests without a process."""
    problems = list(reply.problems)
    answer = reply.answer
    assert answer is not None
    schema = from_bot_problem(answer)
    if schema:
        problems.append(("schema", f"schema: {schema}"))
    try:
        act = Action.from_wire(answer)
        game.check(act, legal)
    except InvalidActionError as exc:
        if not schema:
            problems.append(("schema", f"not a valid action: {exc}"))
        return None, problems
    except IllegalActionError as exc:
        problems.append(("illegal", f"illegal: {exc}"))
        return None, problems
    missing_call = _missing_call(game, act)
    if missing_call:
        problems.append(("call", missing_call))
    return act, problems


def _missing_call(game: Game, act: Action) -> str | None:
    """Arcade: a play leaving exactly one card must carry the call (legal without it, but it costs a card)."""
    if act.kind != PLAY or game.ruleset.last_card_call != "required" or act.call:
        return None
    if len(game.hands[game.current]) - len(act.cards) == 1:
        return ('no last-card call: a play that leaves one card must carry "call":true, or the bot draws one '
                "card as the forfeit")
    return None


__all__ = ["BLOCKS", "Settings", "Stop", "ScriptedRound", "Suite", "check_names", "judge"]
