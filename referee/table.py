"""One game between seats (built-in players or bot processes): the referee's per-move loop.

A bot's fault never escapes this module: it becomes a recorded ``Fault`` and the fault policy
decides what happens to the seat.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any

from .actions import Action, IllegalActionError, InvalidActionError
from .bots.pool import BotPool
from .policy import FaultPolicy, fallback_action, replacement_action
from .bots.client import BotClient
from .bots.faults import BotFault, Fault, FaultKind, snippet
from .bots.messages import event_message, start_message, turn_request
from .bots.spec import BotSpec
from .bots.wire import encode
from .game import Game, placements
from .players import SeatView, make_player
from .players.base import Player
from .rules import Ruleset

#: Faults after which the process cannot be trusted to be in step: it is killed (and restarted next game).
KILL_KINDS = frozenset({FaultKind.TIMEOUT, FaultKind.CRASH, FaultKind.NON_JSON, FaultKind.LINE_TOO_LONG,
                        FaultKind.STARTUP})


class BuiltinSeat:
    """A built-in player in a seat."""

    is_bot = False

    def __init__(self, spec: BotSpec) -> None:
        self.spec = spec
        self.name = spec.name
        assert spec.builtin is not None
        self.player: Player = make_player(spec.builtin)

    def begin(self, seed: int, seat: int) -> None:
        self.player.reseed(seed * 7 + seat)
        self._view: SeatView | None = None

    def decide(self, game: Game, seat: int, legal: list[Action]) -> Action:
        view = self._view
        if view is None:  # a view is live: one per game serves every turn
            view = self._view = SeatView(game, seat)
        return self.player.choose(view, legal)


class BotSeat:
    """A bot process in a seat (the process outlives the game: see ``BotPool``)."""

    is_bot = True

    def __init__(self, client: BotClient) -> None:
        self.client = client
        self.spec = client.spec
        self.name = client.spec.name


@dataclass
class _SeatStats:
    decisions: int = 0
    total_ms: float = 0.0
    max_ms: float = 0.0
    strikes: int = 0

    def add(self, ms: float) -> None:
        """One answer (or timeout) that took ``ms``."""
        self.decisions += 1
        self.total_ms += ms
        if ms > self.max_ms:
            self.max_ms = ms


@dataclass
class Recorder:
    """Collects a game record: every message both ways (with answer times), every action and event."""

    lines: list[dict[str, Any]] = field(default_factory=list)

    def add(self, entry: dict[str, Any]) -> None:
        self.lines.append(entry)


def play_game(ruleset: Ruleset, seats: list[BuiltinSeat | BotSeat], seed: int, game_id: str = "g1",
              policy: FaultPolicy = FaultPolicy(), recorder: Recorder | None = None) -> dict[str, Any]:
    """Play one game to its end and return its result as plain data."""
    n = len(seats)
    names = [s.name for s in seats]
    rng = random.Random(seed)
    faults: list[Fault] = []
    forfeited: set[int] = set()
    stats = [_SeatStats() for _ in range(n)]
    bots = [i for i, seat_obj in enumerate(seats) if seat_obj.is_bot]
    wall0 = time.monotonic()
    if recorder is not None:
        recorder.add({"t": "game", "game": game_id, "seed": seed, "seating": names, "ruleset": ruleset.house,
                      "options": ruleset.options, "policy": policy.to_json()})

    def record_fault(seat: int, fault: Fault) -> None:
        fault = fault.with_context(seat=seat, bot=names[seat])
        faults.append(fault)
        if recorder is not None:
            recorder.add({"t": "fault", **fault.to_json()})

    def forfeit(seat: int, fault: Fault) -> None:
        forfeited.add(seat)
        seat_obj = seats[seat]
        if isinstance(seat_obj, BotSeat):
            client = seat_obj.client
            client.send_error(fault.kind.value, fault.message, (fault.request or {}).get("id"))
            if fault.kind in KILL_KINDS:
                client.kill()

    # Start (or reuse) the bot processes.
    for i in bots:
        seat_obj = seats[i]
        assert isinstance(seat_obj, BotSeat)
        client = seat_obj.client
        client.new_game()
        if recorder is not None:
            client.recorder = _message_recorder(recorder, i)
        if not client.alive:
            try:
                client.start(i)
            except BotFault as bf:
                record_fault(i, bf.fault)
                forfeited.add(i)
                client.kill()
    for i, seat_obj in enumerate(seats):
        if isinstance(seat_obj, BuiltinSeat):
            seat_obj.begin(seed, i)

    game = Game(ruleset, n, rng)
    sent = 0
    end_patch: dict[str, Any] = {}  # the referee's final word on placements (forfeits) joins game_end
    listeners = [i for i in bots if i not in forfeited]

    def flush() -> None:
        nonlocal sent
        events = game.events
        new, sent = events[sent:], len(events)
        # A killed bot has no transport; one that died on its own shows up at its next request.
        live = [i for i in listeners if seats[i].client.transport is not None]  # type: ignore[union-attr]
        if not live:
            return
        for ev in new:
            kind = ev["kind"]
            if kind == "deal":
                for i in live:
                    _send(seats[i], start_message(game, ev, i, game_id, names))
            elif kind == "game_end":
                for i in live:
                    _send(seats[i], {**event_message(ev, i), **end_patch})
            elif "secret" in ev or kind == "round_end":
                for i in live:
                    _send(seats[i], event_message(ev, i))
            else:
                data = encode({"type": "event", **ev})  # the same bytes for every seat: encode once
                for i in live:
                    _send(seats[i], data)

    def _send(seat_obj: Any, msg: Any) -> None:
        try:
            seat_obj.client.send(msg)
        except Exception:  # noqa: BLE001 - a dead pipe shows up as a crash at the next request
            pass

    decisions = 0
    while not game.over:
        if listeners:
            flush()
        s = game.current
        legal = game.legal_actions()
        seat_obj = seats[s]
        by = "builtin"
        ms = None
        if s in forfeited:
            action, by = fallback_action(legal), "fallback"
        elif isinstance(seat_obj, BuiltinSeat):
            action = seat_obj.decide(game, s, legal)
        else:
            client = seat_obj.client
            req_id = client.next_id
            client.next_id += 1
            limits = seat_obj.spec.limits
            request = turn_request(game, s, legal, req_id, int(limits.move_ms + client.bank_ms), int(client.bank_ms))
            by = "bot"
            try:
                answer, ms = client.request(request)
                stats[s].add(ms)
                try:
                    action = Action.from_wire(answer)
                    game.check(action, legal)
                except (InvalidActionError, IllegalActionError) as exc:
                    raise BotFault(Fault(FaultKind.ILLEGAL, str(exc), snippet(_snip(answer)), request, ms)) from None
            except BotFault as bf:
                fault = bf.fault
                record_fault(s, fault)
                st = stats[s]
                if fault.kind is FaultKind.TIMEOUT:
                    st.add(fault.elapsed_ms or 0.0)
                st.strikes += 1
                if (policy.mode == "strikes" and st.strikes <= policy.strikes
                        and fault.kind not in (FaultKind.CRASH, FaultKind.STARTUP)):
                    client.send_error(fault.kind.value, fault.message + f" (strike {st.strikes} of {policy.strikes}; "
                                      "replaced by a draw)", req_id)
                    client.expect_late(req_id)
                    action, by = replacement_action(legal), "replacement"
                else:
                    # A forfeited bot that can still listen sees the game to its end; a killed one is
                    # dropped by ``flush`` (it has no transport any more).
                    forfeit(s, fault)
                    action, by = fallback_action(legal), "fallback"
        if recorder is not None:
            recorder.add({"t": "action", "seat": s, "action": action.to_wire(), "by": by,
                          "ms": None if ms is None else round(ms, 3)})
        game.apply(action, rng)
        decisions += 1
    if listeners:
        # The final game_end carries the placements after forfeits.
        result = game.result
        assert result is not None
        final = _final_placements(result["placements"], forfeited)
        end_patch.update(placements=final, forfeited=sorted(forfeited), game_placements=result["placements"])
        flush()
    for i in bots:
        client = seats[i].client  # type: ignore[union-attr]
        client.recorder = None
        if client.alive:
            try:
                client.flush(time.monotonic() + 1.0)  # deliver game_end before the next game
            except Exception:  # noqa: BLE001 - a bot that does not read is killed, restarted next game
                client.kill()
        if client.spec.restart_each_game:
            client.quit()
    result = dict(game.result or {})
    engine_places = result.pop("placements")
    out = {
        "game": game_id, "seed": seed, "ruleset": ruleset.house, "options": ruleset.options, "seating": names,
        "placements": _final_placements(engine_places, forfeited), "game_placements": engine_places,
        **result, "decisions": decisions, "moves": game.move,
        "faults": [f.to_json() for f in faults], "forfeited": sorted(forfeited),
        "time_ms": {"decisions": [st.decisions for st in stats], "total": [round(st.total_ms, 3) for st in stats],
                    "max": [round(st.max_ms, 3) for st in stats]},
        "wall_ms": round((time.monotonic() - wall0) * 1000, 3),
    }
    if recorder is not None:
        recorder.add({"t": "events", "events": game.events})
        recorder.add({"t": "result", **{k: v for k, v in out.items() if k != "wall_ms"}})
    return out


def _final_placements(places: list[int], forfeited: set[int]) -> list[int]:
    """Forfeited seats are placed after every other seat; the rest keep their order from the game."""
    if not forfeited:
        return places
    # Game places run 1..6, so 100 sorts every forfeited seat after them (sharing the last place).
    return placements([100 if s in forfeited else p for s, p in enumerate(places)], lower_is_better=True)


def _snip(answer: dict[str, Any]) -> bytes:
    return encode(answer).rstrip(b"\n")


def _message_recorder(recorder: Recorder, seat: int) -> Any:
    t0 = time.monotonic()

    def rec(direction: str, data: bytes, _ms: float | None) -> None:
        recorder.add({"t": direction, "seat": seat, "at_ms": round((time.monotonic() - t0) * 1000, 3),
                      "line": data.decode("utf-8", "replace").rstrip("\n")})
    return rec
