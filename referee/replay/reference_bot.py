"""A bot's command as ``lastcard blunders --against "COMMAND"``'s reference: started once a game and asked every
request the seat was sent there, as ``replay --ask --all`` asks it (``ask``)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Mapping

from referee.bots.spec import BotSpec
from referee.engine.actions import Action
from referee.engine.notation import StoredGame
from referee.replay.ask import ask
from referee.replay.play_on import seat_terms
from referee.replay.seat_lines import seat_script
from referee.store.game_record import load


@dataclass(frozen=True)
class CommandReference:
    """A bot asked again in the seat; an answer that is illegal, or a fault, is no answer (the turn is not
    compared)."""

    spec: BotSpec

    @property
    def name(self) -> str:
        return self.spec.name

    def answers(self, stored: StoredGame, seat: int, where: str) -> Mapping[int, Action]:
        source = load(where, stored.game)
        limits, line_limit = seat_terms(source, seat)
        script = seat_script(source, seat, limits=limits)
        spec = replace(self.spec, limits=limits, line_limit=line_limit, name=script.name)
        run = ask(script, spec)
        return {a.request.turn: a.action for a in run.asked if a.action is not None}
