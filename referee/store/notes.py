"""A game's debug notes: what each bot wrote on stderr and in ``log`` messages, kept with the turn it came at.

The turn is the game's action index, as every replay numbers turns (``lastcard replay``, the viewer, the
``--- game ID (seat N) turn T ---`` lines of a bot's stderr log); a note written before the bot's first request
has none. Each bot keeps up to a budget a game (``NoteTaker``); where it ran out, a ``Cut`` says how much more
was dropped. The text is the bot's: readers show it as text, never as markup.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, TypedDict

from referee.bots.pipes.notes import BEFORE, LOG, STDERR, NoteTaker

#: How a note's source is written in the notes file.
_CODES = {STDERR: "e", LOG: "l"}
_SOURCES = {code: source for source, code in _CODES.items()}


@dataclass(frozen=True, slots=True)
class Note:
    """One stretch of a bot's stderr, or one of its log messages, at a turn."""

    seat: int
    turn: int | None
    """The game's action index of the request it followed (``None``: written before the bot's first request)."""
    source: str
    """``stderr`` or ``log``."""
    text: str


@dataclass(frozen=True, slots=True)
class Cut:
    """Where a seat's notes reached the budget, and the bytes dropped from there on."""

    seat: int
    turn: int | None
    dropped: int


class GameNotesJson(TypedDict):
    """A game's notes as the notes file keeps them: ``notes`` as ``[seat, turn, "e" | "l", text]`` (e: stderr,
    l: log), ``cuts`` as ``[seat, turn, bytes dropped]``, ``budget`` the bytes each bot could keep."""

    game: str
    budget: int
    notes: list[list[object]]
    cuts: list[list[object]]


@dataclass(frozen=True, slots=True)
class GameNotes:
    """Every bot's notes of one game, in the order each bot wrote them, seat by seat."""

    game: str
    budget: int
    notes: tuple[Note, ...]
    cuts: tuple[Cut, ...] = ()

    @classmethod
    def of(cls, game: str, taken: Iterable[tuple[int, NoteTaker]]) -> GameNotes | None:
        """The notes of ``game`` from each seat's ``NoteTaker``; ``None`` when no bot wrote any."""
        notes: list[Note] = []
        cuts: list[Cut] = []
        budget = 0
        for seat, taker in taken:
            budget = max(budget, taker.budget)
            notes += [Note(seat, _turn(turn), source, text) for turn, source, text in taker.entries]
            if taker.dropped:
                cuts.append(Cut(seat, _turn(taker.cut_at), taker.dropped))
        if not notes and not cuts:
            return None
        return cls(game, budget, tuple(notes), tuple(cuts))

    def of_seat(self, seat: int) -> GameNotes:
        """Only ``seat``'s notes (what its bot's own view shows)."""
        return GameNotes(self.game, self.budget, tuple(n for n in self.notes if n.seat == seat),
                         tuple(c for c in self.cuts if c.seat == seat))

    def at(self, turn: int | None) -> list[Note]:
        """The notes of ``turn`` (``None``: those before any request)."""
        return [n for n in self.notes if n.turn == turn]

    def to_json(self) -> GameNotesJson:
        return {"game": self.game, "budget": self.budget,
                "notes": [[n.seat, n.turn, _CODES[n.source], n.text] for n in self.notes],
                "cuts": [[c.seat, c.turn, c.dropped] for c in self.cuts]}

    @classmethod
    def from_json(cls, data: GameNotesJson) -> GameNotes:
        return cls(str(data["game"]), int(data.get("budget", 0)),
                   tuple(Note(int(str(seat)), _read_turn(turn), _SOURCES.get(str(code), STDERR), str(text))
                         for seat, turn, code, text in data.get("notes") or ()),
                   tuple(Cut(int(str(seat)), _read_turn(turn), int(str(dropped)))
                         for seat, turn, dropped in data.get("cuts") or ()))


def cut_text(cut: Cut, budget: int) -> str:
    """The mark where a seat's notes stop: what was dropped, and why."""
    return (f"[lastcard: the notes reached their budget of {budget:,} bytes for this game here; "
            f"{cut.dropped:,} more bytes of stderr and log were dropped]")


def _turn(turn: int | None) -> int | None:
    return None if turn is None or turn == BEFORE else turn


def _read_turn(value: object) -> int | None:
    return None if value is None else int(str(value))
