"""``lastcard collusion`` on a results folder: its stored games read (``store``), the measured bots probed, the
games played again with one seat taken by the reference player (``replays``, on the run loop), the moves counted
(``moves``), the collusion table made (``evidence``) and collusion.csv written beside the games."""

from __future__ import annotations

import shlex
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass
from typing import Callable, Sequence

from referee.bots.spec import BotSpec, parse_bot
from referee.collusion.evidence import MIN_TABLES, Observations, PairEvidence, collusion_table
from referee.collusion.moves import count_chances
from referee.collusion.replays import Replay, gains, plan, stored_game
from referee.errors import LastcardError
from referee.run.executor import LocalExecutor
from referee.run.jobs import GameJob
from referee.run.loop import RunLoop
from referee.run.startups import CannotStart, probe
from referee.run.workers import Workers, resolve_workers
from referee.similar.asking import run_bots
from referee.store.collusion_file import CollusionRow, write_collusion
from referee.store.results import GameResult
from referee.store.results_dir import ResultsDir
from referee.table.policy import FaultPolicy

DEFAULT_REFERENCE = "builtin:medium"
DEFAULT_ALPHA = 0.05


class CollusionError(LastcardError):
    """A results folder whose bots cannot be measured (fewer than two programs, a reference that is one)."""


@dataclass(frozen=True)
class Measured:
    """The collusion table, what it cost, and what the folder lacked (each with what to run)."""

    pairs: tuple[PairEvidence, ...]
    bots: tuple[str, ...]
    reference: str
    alpha: float
    stored: int
    """Stored games read."""
    replayed: int
    """Games played again."""
    workers: Workers
    wall_s: float
    path: str
    missing: tuple[str, ...] = ()
    """Lines naming what could not be measured and what to run to get the evidence."""


def measure_folder(out_dir: str, *, reference: str = DEFAULT_REFERENCE, most: int | None = None,
                   alpha: float = DEFAULT_ALPHA, jobs: int | None = None, bots: Sequence[str] | None = None,
                   note: Callable[[str], None] | None = None) -> Measured:
    """The collusion table of ``out_dir``'s bots, written to its collusion.csv."""
    t0 = time.monotonic()
    folder = ResultsDir(out_dir)
    if not folder.has_games():
        raise folder.missing_games()
    stored = [line.result for line in folder.games_log if line.result.reason != "lost"]
    specs = run_bots(out_dir)
    measured = _measured(out_dir, stored, specs, bots)
    ref = _reference(reference)
    with tempfile.TemporaryDirectory(prefix="lastcard-collusion-") as logs:
        cannot = probe([specs[n] for n in measured], logs)
        replays = [r for r in plan(stored, specs, measured, ref, _policy(folder), most)
                   if not any(s.name in cannot for s in r.job.seats)]
        workers = resolve_workers(jobs, at_once=max(1, len(replays)))
        if note is not None:
            note(f"collusion: {len(measured)} bots, {len(stored)} stored games; playing {len(replays)} of them "
                 f"again with one seat taken by {reference} on {workers}...")
        played = _play(replays, workers, logs)
    seen = _observations(stored, replays, played, measured)
    notes = {frozenset((a, b)): f"{a if a in cannot else b} no longer starts" for a in measured for b in measured
             if a < b and (a in cannot or b in cannot)}
    table = collusion_table(measured, seen, count_chances(stored_game(r) for r in stored), notes)
    path = write_collusion(out_dir, [row_of(p, alpha) for p in table])
    return Measured(tuple(table), tuple(measured), reference, alpha, len(stored), len(played), workers,
                    time.monotonic() - t0, path, tuple(_missing(out_dir, table, cannot, specs)))


def _measured(out_dir: str, stored: Sequence[GameResult], specs: dict[str, BotSpec],
              bots: Sequence[str] | None) -> list[str]:
    """The bots whose pairs are measured: the run's programs that played (``bots``: only these); at least two."""
    seated = {n for r in stored for n in r.seating}
    measured = sorted(n for n, s in specs.items() if s.builtin is None and n in seated and (not bots or n in bots))
    if len(measured) < 2:
        raise CollusionError(f"{out_dir}: {len(measured)} bot(s) to measure; collusion measures pairs of the run's "
                             "programs (built-in players do not collude): give the results folder of a run with two or "
                             "more (arena.json lists its bots)" + (f", or --bot names among {', '.join(sorted(seated))}"
                                                                   if bots else ""))
    return measured


def _reference(text: str) -> BotSpec:
    try:
        spec = parse_bot(text)
    except ValueError as exc:
        raise CollusionError(f"--reference {text!r}: {exc}") from None
    if spec.builtin is None:
        raise CollusionError(f"--reference {text!r}: the reference must be a built-in player (builtin:NAME), which "
                             "never favours anyone; a program of the class could itself be a friend of a bot")
    return spec


def _policy(folder: ResultsDir) -> FaultPolicy:
    results = folder.read_results()
    text = results.get("policy") if results else None
    return FaultPolicy.parse(str(text)) if text else FaultPolicy()


def _play(replays: Sequence[Replay], workers: Workers, logs: str) -> dict[str, GameResult]:
    """Each replay's result by its job's id (Ctrl-C: ``KeyboardInterrupt``, nothing is written)."""
    found: dict[str, GameResult] = {}

    def keep(job: GameJob, result: GameResult) -> None:
        found[job.game_id] = result

    with RunLoop(lambda: LocalExecutor(workers.count, stderr_dir=logs)) as loop:
        if not loop.play_jobs((r.job for r in replays), keep):
            raise KeyboardInterrupt
    return found


def _observations(stored: Sequence[GameResult], replays: Sequence[Replay], played: dict[str, GameResult],
                  measured: Sequence[str]) -> Observations:
    by_id = {r.game: r for r in stored}
    found: dict[tuple[str, str], dict[str, float]] = defaultdict(dict)
    for replay in replays:
        again = played.get(replay.job.game_id)
        if again is None:
            continue
        game = by_id[replay.game]
        for seat, gain in gains(game, again, replay.seat).items():
            found[(game.seating[seat], replay.giver)][replay.game] = gain
    tables: dict[frozenset[str], int] = defaultdict(int)
    wanted = set(measured)
    for game in stored:
        for pair in {frozenset((a, b)) for a in game.seating for b in game.seating if a != b and {a, b} <= wanted}:
            tables[pair] += 1
    return Observations(dict(found), dict(tables))


def row_of(p: PairEvidence, alpha: float) -> CollusionRow:
    """The pair's row of collusion.csv."""
    a, b = p.a_from_b, p.b_from_a
    return CollusionRow(p.bot_a, p.bot_b, p.tables, len(p.joint), p.joint_gain, a.gain, b.gain, p.p_joint,
                        b.chances, b.taken, b.others_chances, b.others_taken, b.p_spared,
                        a.chances, a.taken, a.others_chances, a.others_taken, a.p_spared,
                        p.p_adjusted, p.look(alpha), p.note)


def _missing(out_dir: str, table: Sequence[PairEvidence], cannot: dict[str, CannotStart],
             specs: dict[str, BotSpec]) -> list[str]:
    """What the folder lacked for some pairs, and what to run to get the evidence."""
    lines = []
    for name, why in sorted(cannot.items()):
        first = why.message.splitlines()[0] if why.message else "it did not start"
        lines.append(f"{name} no longer starts ({first}): its tables were not played again, so its pairs have the "
                     f"stored moves only; fix its command (try `lastcard check {shlex.quote(specs[name].command)}`), "
                     f"then run `lastcard collusion {shlex.quote(out_dir)}` again")
    never = [p for p in table if p.tables == 0]
    few = [p for p in table if 0 < p.tables < MIN_TABLES]
    for kind, pairs in (("never seated together", never), (f"seated together fewer than {MIN_TABLES} times", few)):
        if not pairs:
            continue
        shown = ", ".join(f"{p.bot_a} / {p.bot_b}" + (f" ({p.tables})" if p.tables else "") for p in pairs[:6])
        more = f" and {len(pairs) - 6} more" if len(pairs) > 6 else ""
        a, b = pairs[0].bot_a, pairs[0].bot_b
        match = " ".join(shlex.quote(f"{n}={specs[n].command}") for n in (a, b))
        lines.append(f"{kind}: {shown}{more}. More games that seat them together give the evidence: raise "
                     "`games:` in the arena file and run it again (`lastcard arena FILE --fresh`); or, for one pair, "
                     f"`lastcard match {match} builtin:medium builtin:hard --games 40 --out DIR` then "
                     "`lastcard collusion DIR`")
    return lines
