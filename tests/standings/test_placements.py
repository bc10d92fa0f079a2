"""referee.standings.placements.PlacementLog: a game is kept whole or not at all, whatever interrupts it."""

from __future__ import annotations

import pytest

from referee.standings.placements import PlacementLog
from referee.store.results import Slot


def _log(games: int, seats: tuple[str, ...] = ("a", "b", "c")) -> PlacementLog:
    log = PlacementLog(["a", "b", "c"])
    for n in range(1, games + 1):
        assert log.add(f"g{n:04d}", n * 11, seats, (1, 2, 3)[:len(seats)], (0, 5, 9)[:len(seats)], Slot(None, n))
    return log


# Ctrl-C lands between any two lines: at the seeds, in the middle of the seat columns, at the very end.
STEPS = ["_seeds", "_places", "_scores"]


@pytest.mark.parametrize("step", STEPS)
@pytest.mark.parametrize("seats", [("a", "b", "c"), ("a", "b")], ids=["same-seats", "other-seats"])
def test_an_interrupted_add_keeps_nothing_of_the_game(monkeypatch, step, seats):
    log = _log(4)
    before = [(r.game, r.seed, r.seating, r.placements, r.scores) for r in log]

    class Interrupting:
        """The column, but Ctrl-C at its next append or extend."""

        def __init__(self, column):
            self.column = column

        def __getattr__(self, name):
            if name in ("append", "extend"):
                raise KeyboardInterrupt
            return getattr(self.column, name)

        def __len__(self):
            return len(self.column)

        def __delitem__(self, index):
            del self.column[index]

    real = getattr(log, step)
    monkeypatch.setattr(log, step, Interrupting(real))
    with pytest.raises(KeyboardInterrupt):
        log.add("g0005", 55, seats, (2, 1, 3)[:len(seats)], (4, 0, 8)[:len(seats)], Slot(None, 5))
    monkeypatch.setattr(log, step, real)
    assert len(log) == 4 and "g0005" not in log
    assert [(r.game, r.seed, r.seating, r.placements, r.scores) for r in log] == before
    assert list(log.order()) == [0, 1, 2, 3]
    # The game comes whole when it comes again (a resumed run reads it from games.jsonl).
    assert log.add("g0005", 55, seats, (2, 1, 3)[:len(seats)], (4, 0, 8)[:len(seats)], Slot(None, 5))
    last = list(log)[-1]
    assert (last.game, last.seed, last.seating, last.placements) == ("g0005", 55, seats, (2, 1, 3)[:len(seats)])
    assert len(log) == 5 and list(log.order()) == [0, 1, 2, 3, 4]
