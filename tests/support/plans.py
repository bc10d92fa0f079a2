"""Every arena's full plan as plain data: game ids, seeds, deals, seatings, tables, rounds, stages, counts.

The schedule must plan exactly the same games whatever shape its code takes. This module plans every
arena in ``arenas/`` and a set of test arenas covering each format, duplicate deals, byes, later
stages with entrants, and a gauntlet field, with made-up results (a seeded function of the game's
seed and seating) where a knockout needs them, and dumps the lot. ``tests/support/data/arena_plans.json``
holds the digests taken before the formats became objects; ``tests/arena/test_plans.py`` compares.

    python tests/support/plans.py            # print each arena's digest and game count
    python tests/support/plans.py --full F   # write every plan in full to F (to diff two versions)
    python tests/support/plans.py --golden   # rewrite tests/support/data/arena_plans.json (only when a change is meant)
"""

from __future__ import annotations

import hashlib
import json
import random
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any, Mapping, Sequence

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).resolve().parent / "data" / "arena_plans.json"

if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from referee.arena.config import Arena, load_arena, parse_arena  # noqa: E402
from referee.arena.schedule import Planner, count_games, stage_game_counts  # noqa: E402
from referee.standings.model import Tally  # noqa: E402
from referee.store.results import GameLine, GameResult  # noqa: E402

#: Test arenas: (name, YAML without bots, number of bots).
CASES: list[tuple[str, str, int]] = [
    ("rr-2-of-4", "seats: 2\ngames: 2\n", 4),
    ("rr-3-of-7-one-game", "seats: 3\ngames: 1\n", 7),
    ("rr-4-of-6-dup", "seats: 4\ngames: 8\nduplicate: true\n", 6),
    ("rr-6-of-6", "seats: 6\ngames: 12\n", 6),
    ("rr-4-of-5-odd-games", "seats: 4\ngames: 7\n", 5),
    ("gauntlet", "seats: 3\ngames: 3\nformat: gauntlet\nchallengers: [b0, b5]\n", 6),
    ("gauntlet-dup", "seats: 4\ngames: 8\nformat: gauntlet\nchallengers: [b2]\nduplicate: true\n", 7),
    ("sampled", "seats: 4\nformat: sampled\ngames: 40\n", 10),
    ("sampled-big", "seats: 4\nformat: sampled\ngames: 7\n", 61),
    ("sampled-dup", "seats: 3\nformat: sampled\ngames: 6\nduplicate: true\n", 7),
    ("knockout-16", "seats: 4\nformat: knockout\ngames: 4\nadvance: 2\nfinal_games: 8\n", 16),
    ("knockout-byes", "seats: 2\nformat: knockout\ngames: 3\nadvance: 1\n", 11),
    ("knockout-10-dup", "seats: 4\nformat: knockout\ngames: 4\nduplicate: true\nfinal_games: 12\n", 10),
    ("knockout-3-seats", "seats: 3\nformat: knockout\ngames: 2\n", 14),
    ("league-then-cup", "seats: 3\nstages:\n  - {name: league, format: sampled, games: 3}\n"
                        "  - {name: cup, format: knockout, entrants: 6, games: 3, advance: 1}\n", 9),
    ("two-stages", "seats: 2\ngames: 2\nstages:\n  - {name: a}\n  - {name: b, ruleset: arcade}\n", 3),
    ("rr-then-gauntlet", "seats: 3\ngames: 3\nstages:\n  - {name: rr}\n"
                         "  - {name: g, format: gauntlet, challengers: [b1], entrants: 4}\n", 7),
    ("sampled-then-rr", "seats: 4\nstages:\n  - {name: s, format: sampled, games: 5, duplicate: true}\n"
                        "  - {name: top, entrants: 5, games: 4}\n  - {name: ko, format: knockout, seats: 2, "
                        "entrants: 4, games: 2}\n", 12),
    ("seed-7", "seed: 7\nseats: 4\nformat: knockout\ngames: 2\n", 9),
]


def fake_game(game_id: str, seed: int, seating: Sequence[str]) -> GameLine:
    """A made-up result: placings a seeded shuffle of the seats (the same game gives the same result)."""
    places = list(range(1, len(seating) + 1))
    random.Random(f"{seed}:{','.join(seating)}").shuffle(places)
    return GameLine(GameResult.from_json({"game": game_id, "seed": seed, "ruleset": "compact", "seating": list(seating),
                                          "placements": places}))


def order(games: Sequence[GameLine], names: Sequence[str]) -> list[str]:
    """Best first by average place, then wins, then name: simple and deterministic."""
    rows = Tally(names).extend(g.result for g in games).rows()
    rows.sort(key=lambda r: (r.avg_place is None, r.avg_place or 0, -r.wins, r.bot))
    return [r.bot for r in rows]


def plan(arena: Arena) -> dict[str, Any]:
    """The arena's whole plan, round by round, as JSON-ready data."""
    names = [b.spec.name for b in arena.bots]
    planner = Planner(arena, names, order)
    games: list[dict[str, Any]] = []
    rounds = []
    current = planner.first()
    while current is not None:
        rounds.append({"stage_index": current.stage_index, "stage": current.stage.name, "number": current.number,
                       "label": current.label, "knockout": current.knockout, "final": current.final,
                       "tables": [list(t) for t in current.tables],
                       "games": [[p.game_id, p.index, p.stage, p.round, p.table, p.deal, p.seed, list(p.seating)]
                                 for p in current.games]})
        games.extend(fake_game(p.game_id, p.seed, p.seating) for p in current.games)
        current = planner.next(current, games)
    return {"bots": names, "total": planner.total, "count": count_games(arena, len(names)),
            "stage_counts": stage_game_counts(arena, len(names)), "rounds": rounds,
            "stage_rounds": {str(k): v for k, v in sorted(planner.stage_rounds.items())},
            "final_order": planner.final_order(games), "all_reached_end": planner.all_reached_end(),
            "reached": dict(sorted(planner.reached_label.items())),
            "stages": [s.to_json() for s in arena.stages]}


def arenas(workdir: Path) -> dict[str, Arena]:
    """The shipped arenas (classroom beside 23 made-up submissions) and the test arenas."""
    out: dict[str, Arena] = {}
    for path in sorted((ROOT / "arenas").glob("*.yaml")):
        if path.name == "classroom.yaml":
            shutil.copy(path, workdir / path.name)
            for i in range(23):
                folder = workdir / "students" / f"student{i:02d}"
                folder.mkdir(parents=True, exist_ok=True)
                (folder / "bot.py").write_text("")
            path = workdir / path.name
        arena = load_arena(str(path))
        if arena.contest:  # a file that grades by benchmarks without a contest (graded.yaml) plans no stage games
            out[f"arenas/{path.name}"] = arena
    for name, text, bots in CASES:
        entries = "".join(f"  - {{name: b{i}, command: builtin:random}}\n" for i in range(bots))
        out[name] = parse_arena(text + "bots:\n" + entries, source=f"<{name}>", base_dir=str(workdir))
    return out


def digest(data: Any) -> str:
    """A short hash of JSON data."""
    return hashlib.sha256(json.dumps(data, sort_keys=True, separators=(",", ":")).encode()).hexdigest()[:24]


def all_plans() -> dict[str, dict[str, Any]]:
    """Every arena's plan, by name."""
    with tempfile.TemporaryDirectory() as tmp:
        return {name: plan(a) for name, a in arenas(Path(tmp)).items()}


def summary(plans: Mapping[str, Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """Name -> games planned and the plan's digest: what the golden file keeps."""
    return {name: {"games": p["total"], "digest": digest(p)} for name, p in plans.items()}


def main(argv: Sequence[str]) -> int:
    plans = all_plans()
    if "--full" in argv:
        Path(argv[argv.index("--full") + 1]).write_text(json.dumps(plans, indent=1, sort_keys=True))
    if "--golden" in argv:
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(json.dumps(summary(plans), indent=2, sort_keys=True) + "\n")
    for name, item in summary(plans).items():
        print(f"{name:32} {item['games']:6} games  {item['digest']}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
