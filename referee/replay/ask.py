"""``replay --ask``: put a bot in a stored seat and ask it again, the game following the stored moves.

The bot is started as a match starts it (``BotClient``: hello, the seat's limits, the sandbox), then
sent the seat's lines (``seat_lines.seat_script``) in order. Every request is asked, so a bot that keeps
state gets the history it had; its answers are judged against the request's legal list and compared
with the stored move, but never change the game. A fault (a crash, a timeout, an answer the protocol
refuses) is reported at its turn; after one that leaves the bot out of step, asking stops there.
"""

from __future__ import annotations

import os
import tempfile
import time
from dataclasses import dataclass

from referee.bots.logs import log_size, read_log
from referee.bots.pipes.client import BotClient
from referee.bots.spec import BotSpec
from referee.engine.actions import Action
from referee.protocol.faults import KILL_KINDS, BotFault, Fault, FaultKind
from referee.replay.seat_lines import SeatRequest, SeatScript

#: Faults after which the bot cannot be asked further: those the referee stops a bot for, and an answer
#: sent ahead of its request (every later request would find one waiting).
STOPS = KILL_KINDS | {FaultKind.EARLY}


@dataclass(frozen=True, slots=True)
class Asked:
    """One request put to the bot again and what came back."""

    request: SeatRequest
    answer: dict[str, object] | None
    """The answer as the bot wrote it, unchecked (``None`` after a fault)."""
    action: Action | None
    """The legal action the answer names (``None``: illegal, or a fault)."""
    fault: Fault | None = None
    stderr: str | None = None
    """What the bot wrote on stderr from this request on (``--turn`` only)."""

    @property
    def legal(self) -> bool:
        return self.action is not None

    @property
    def differs(self) -> bool:
        """Whether the new answer is not the stored move (an illegal one always is)."""
        return self.action is None or self.action.key != self.request.action.key

    def answered_wire(self) -> dict[str, object] | None:
        """The answer without its id, comparable with the stored move's wire form."""
        if self.answer is None:
            return None
        return {k: v for k, v in self.answer.items() if k != "id"}


@dataclass(frozen=True, slots=True)
class AskRun:
    """The requests asked, in order; ``startup`` when the bot did not even start."""

    script: SeatScript
    asked: tuple[Asked, ...]
    startup: Fault | None = None

    @property
    def differences(self) -> list[Asked]:
        return [a for a in self.asked if a.fault is None and a.differs]

    @property
    def faults(self) -> list[Asked]:
        return [a for a in self.asked if a.fault is not None]

    def to_json(self) -> dict[str, object]:
        """``{"asked", "differences", "faults"}`` as ``replay --ask --json`` prints it."""
        faults = [_fault_json(a.request, a.fault) for a in self.faults if a.fault is not None]
        if self.startup is not None:
            faults.insert(0, {"turn": None, "request_id": None, "kind": self.startup.kind.value,
                              "message": self.startup.message})
        return {"asked": len(self.asked),
                "differences": [{"turn": a.request.turn, "request_id": a.request.request_id,
                                 "stored": a.request.action.to_wire(), "answered": a.answered_wire(),
                                 "legal": a.legal} for a in self.differences],
                "faults": faults}


def _fault_json(request: SeatRequest, fault: Fault) -> dict[str, object]:
    out: dict[str, object] = {"turn": request.turn, "request_id": request.request_id, "kind": fault.kind.value,
                           "message": fault.message}
    if fault.line is not None:
        out["line"] = fault.line
    return out


def ask(script: SeatScript, spec: BotSpec, *, until_turn: int | None = None) -> AskRun:
    """Start the bot for ``spec`` in the script's seat and ask it every request (up to ``until_turn``)."""
    with tempfile.TemporaryDirectory(prefix="lastcard-ask-") as scratch:
        log = os.path.join(scratch, "stderr.log")
        client = BotClient(spec, stderr_path=log)
        asked: list[Asked] = []
        offset = 0
        try:
            try:
                client.start(script.seat, script.hello_name)
            except BotFault as bf:
                return AskRun(script, (), bf.fault)
            for req in script.requests:
                last = until_turn is not None and req.turn >= until_turn
                if last:
                    offset = log_size(log)
                try:
                    answer, _ms = client.request({"id": req.request_id}, encoded=req.line, before=req.before)
                except BotFault as bf:
                    asked.append(Asked(req, None, None, bf.fault))
                    if bf.fault.kind in STOPS or not client.alive:
                        break
                else:
                    asked.append(Asked(req, answer, req.judge(answer)))
                if last:
                    break
            else:
                _tell_the_end(client, script.tail)
        finally:
            client.quit()  # ends the process; its stderr is then all in the log
        if until_turn is not None and asked and asked[-1].request.turn >= until_turn:
            final = asked[-1]
            asked[-1] = Asked(final.request, final.answer, final.action, final.fault, read_log(log, offset) or None)
        return AskRun(script, tuple(asked))


def _tell_the_end(client: BotClient, tail: bytes) -> None:
    if tail and client.alive:
        try:
            client.send(tail)
            client.flush(time.monotonic() + 1.0)
        except Exception:  # noqa: BLE001 - a bot that stopped reading at the end has answered all it was asked
            pass
