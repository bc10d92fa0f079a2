"""The checks of an arena that depend on which bots are in its pool: the file's, and again once builds
have left some bots out (``runner.prepare_bots``), which is why they are not in ``config``: a match between
built-ins runs them without importing the YAML reader and jsonschema.
"""

from __future__ import annotations

import difflib
from typing import Iterable, Sequence

from referee.arena.formats import Gauntlet
from referee.arena.model import Arena, Stage
from referee.inputs.problems import Problem

#: The most games an arena may plan: more is a mistake (a round robin of a whole school), not a contest.
MAX_GAMES = 1_000_000


def pool_problems(arena: Arena, names: list[str], left_out: Iterable[str] = ()) -> list[Problem]:
    """Mistakes that depend on which bots are in the pool (checked again once builds have left some out)."""
    problems: list[Problem] = []
    gone = list(left_out)
    after = f" after leaving out {', '.join(gone)}" if gone else ""
    for stage in arena.stages:
        label = f"stage {stage.name!r}" if len(arena.stages) > 1 else "the arena"
        problems.extend(_seat_problems(stage, label, names, after))
        if isinstance(stage.format, Gauntlet):
            problems.extend(_gauntlet_problems(stage, stage.format, names, gone, after))
    if not problems:
        problems.extend(_size_problems(arena, names))
    return problems


def _seat_problems(stage: Stage, label: str, names: Sequence[str], after: str) -> list[Problem]:
    entrants = min(stage.entrants or len(names), len(names))
    if entrants >= stage.seats:
        return []
    path, line = stage.locate("seats")
    return [Problem(path, f"{stage.seats} seats, but {label} has {entrants} bot{'s' if entrants != 1 else ''}"
                          f"{after}; a table needs {stage.seats}", line)]


def _gauntlet_problems(stage: Stage, fmt: Gauntlet, names: Sequence[str], gone: Sequence[str], after: str
                       ) -> list[Problem]:
    cpath, cline = stage.locate("challengers")
    if not fmt.challengers:
        return [Problem(cpath, "missing: a gauntlet needs the names of its challengers", cline)]
    known = set(names)
    present = [c for c in fmt.challengers if c in known]
    if not present and all(c in gone for c in fmt.challengers):
        return [Problem(cpath, f"every challenger was left out ({', '.join(fmt.challengers)}); "
                               "the gauntlet has nobody to run it", cline)]
    problems = []
    for i, c in enumerate(fmt.challengers):
        if c not in known and c not in gone:  # a challenger left out by its build is reported already
            close = difflib.get_close_matches(c, list(names), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            problems.append(Problem(f"{cpath}[{i}]", f"{c!r} is not a bot{after}{hint}; the bots are: "
                                                     + ", ".join(names), cline))
    entrants = min(stage.entrants or len(names), len(names))
    field_size = entrants - len(present)
    if field_size < stage.seats - 1 and entrants >= stage.seats:
        problems.append(Problem(cpath, f"the field (the bots that are not challengers) has {field_size}"
                                       f"{after}; a table of {stage.seats} needs {stage.seats - 1}", cline))
    return problems


def _size_problems(arena: Arena, names: Sequence[str]) -> list[Problem]:
    """Refuse a plan too large to hold (planning it would exhaust memory).

    A round robin or gauntlet holds only its tables (its games are a formula of their index), so any
    number of games per table is fine; ``sampled`` and ``knockout`` see all their games at once.
    """
    known = set(names)
    total = 0
    for i, stage in enumerate(arena.stages):
        fmt = stage.format
        held = fmt.held(stage, i, len(names), known)
        total += held
        if held > MAX_GAMES:
            path, line = stage.locate("format")
            described = fmt.describe(stage, fmt.entrants(stage, i, len(names)))
            if fmt.lazy:
                return [Problem(path, f"{held:,} tables ({described}); format {fmt.name} holds all its tables at "
                                      f"once, at most {MAX_GAMES:,}: use format: sampled, where games is the number "
                                      "each bot plays (e.g. games: 30)", line)]
            fix = ("lower games (the number each bot plays), or use format: round_robin, whose games are planned "
                   "as they are played" if fmt.name == "sampled" else
                   "lower games and final_games, or use format: round_robin or sampled")
            return [Problem(path, f"{held:,} games ({described}); format {fmt.name} plans all its games at "
                                  f"once, at most {MAX_GAMES:,}: {fix}", line)]
    if total > MAX_GAMES:
        return [Problem("stages", f"{total:,} games and tables to plan over {len(arena.stages)} stages; at most "
                                  f"{MAX_GAMES:,} can be held: use fewer games in the sampled and knockout stages, "
                                  "or fewer bots", None)]
    return []
