"""Live states for the tests: games with a hostile bot's name and fault message, standings over them."""

from __future__ import annotations

from referee.live.state import LiveState
from referee.standings.model import LeftOutEntry, Standings, Tally
from referee.store.results import GameLine, GameResult, Slot

#: A bot name and a fault message that would run script if a page ever took them as HTML.
HOSTILE = "<img src=x onerror=\"window.pwned=1\">&amp;</td><script>window.pwned=2</script>"
MESSAGE = "unparseable line: </pre><b onmouseover=alert(1)>bold?</b> \u2028 \"quotes\" 'too'"


def line(k: int, seating: tuple[str, ...], placements: tuple[int, ...], fault: bool = False) -> GameLine:
    """Game ``k``: ``seating`` placed as given; with ``fault``, the first seat sent garbage (``MESSAGE``)."""
    faults = [{"kind": "non_json", "message": MESSAGE, "seat": 0, "bot": seating[0]}] if fault else []
    result = GameResult.from_json({"game": f"g{k:06d}", "seed": k, "ruleset": "compact", "seating": list(seating),
                                   "placements": list(placements), "scores": [0] * len(seating), "faults": faults})
    return GameLine(result, Slot("league", 1, 0, k))


def hostile_state(games: int = 3) -> LiveState:
    """A running state whose games, faults, standings and left-out entrant all carry hostile text."""
    state = LiveState(f"arena {HOSTILE}", "arena")
    state.start(10, 0)
    tally = Tally([HOSTILE, "plain"])
    for k in range(1, games + 1):
        game = line(k, (HOSTILE, "plain"), (1, 2) if k % 2 else (2, 1), fault=k == 1)
        state.game(game)
        tally.add(game.result)
        state.progress(k, 10)
    standings = Standings(tuple(tally.rows()), (LeftOutEntry(f"late{HOSTILE}", MESSAGE),), "by average place")
    state.set_standings(standings, games)
    return state
