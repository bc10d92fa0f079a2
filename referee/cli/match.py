"""``lastcard match``: games between 2-6 bots, seats rotating, a standings table and results files."""

from __future__ import annotations

import json
import os
import signal
import sys
import time

import click

from ..arena.ratings import fit_ratings
from ..arena.report import (RESULTS_FORMAT, RESULTS_VERSION, head_to_head, rating_info, results_rows, timing,
                            write_reports)
from ..bots.spec import TimeLimits, parse_bot, unique_names
from ..jobs import GameJob, game_seed, run_job
from ..rules import MAX_PLAYERS, MIN_PLAYERS
from ..standings import compute_standings, format_table
from ..bots.pool import BotPool
from ..policy import FaultPolicy
from .options import build_ruleset, interrupt_on_sigterm, ruleset_options, seed_option, time_options

#: Bootstrap samples for the rating interval.
BOOTSTRAP = 200


@click.command("match")
@ruleset_options
@click.option("--games", "-n", type=click.IntRange(1), default=10, show_default=True, help="Games to play.")
@seed_option
@click.option("--out", type=click.Path(file_okay=False), help="Write results.json, games.jsonl, records and logs here.")
@click.option("--policy", default="forfeit", show_default=True, metavar="forfeit|strikes:N",
              help="What a bot fault costs: the game, or a draw in its place up to N times a game.")
@click.option("--record/--no-record", default=True, show_default=True, help="With --out, write every game's record.")
@time_options
@click.argument("bots", nargs=-1, required=True, metavar="BOT BOT [BOT ...]")
def match_cmd(ruleset: str, options: tuple[str, ...], games: int, seed: int, out: str | None, policy: str,
              record: bool, move_ms: int, bank_ms: int, startup_ms: int, bots: tuple[str, ...]) -> None:
    """Play GAMES games between BOTs, rotating the seats, and print the standings.

    A BOT is builtin:NAME (random, easy, medium, hard) or a command line in quotes, e.g.
    "python3 sample_bots/python/strong_bot.py"; NAME=COMMAND gives it a name.
    """
    rules = build_ruleset(ruleset, options)
    if not MIN_PLAYERS <= len(bots) <= MAX_PLAYERS:
        raise click.UsageError(f"{len(bots)} bots given: a table seats {MIN_PLAYERS} to {MAX_PLAYERS}")
    try:
        fault_policy = FaultPolicy.parse(policy)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--policy") from None
    limits = TimeLimits(startup_ms=startup_ms, move_ms=move_ms, bank_ms=bank_ms)
    try:
        specs = unique_names([parse_bot(b, limits) for b in bots])
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="BOT") from None
    if out:
        os.makedirs(os.path.join(out, "logs"), exist_ok=True)
        if record:
            os.makedirs(os.path.join(out, "records"), exist_ok=True)
    n = len(specs)
    results = []
    t0 = time.monotonic()
    games_file = open(os.path.join(out, "games.jsonl"), "w") if out else None
    interrupted = False
    previous = signal.signal(signal.SIGTERM, interrupt_on_sigterm)  # `kill` stops as cleanly as Ctrl-C
    try:
        with BotPool(stderr_dir=os.path.join(out, "logs") if out else None) as pool:
            for g in range(games):
                k = g % n  # rotate the seats so nobody keeps the advantage of position
                seating = tuple(specs[k:] + specs[:k])
                job = GameJob(f"g{g + 1:04d}", game_seed(seed, g), rules.house, tuple(rules.options.items()),
                              seating, fault_policy.to_json(), bool(out and record))
                result, lines = run_job(job, pool)
                results.append(result)
                if games_file:
                    games_file.write(json.dumps(_game_line(result)) + "\n")
                    games_file.flush()
                if lines is not None and out:
                    with open(os.path.join(out, "records", f"{job.game_id}.jsonl"), "w") as fh:
                        for line in lines:
                            fh.write(json.dumps(line) + "\n")
                if sys.stderr.isatty():
                    click.echo(f"\r{g + 1}/{games} games", nl=False, err=True)
    except KeyboardInterrupt:
        interrupted = True
        click.echo(f"\ninterrupted after {len(results)} games; standings so far:", err=True)
    finally:
        signal.signal(signal.SIGTERM, previous)
        if games_file:
            games_file.close()
    if sys.stderr.isatty() and not interrupted:
        click.echo("\r", nl=False, err=True)
    elapsed = time.monotonic() - t0
    names = [s.name for s in specs]
    ratings = fit_ratings(results, names, bootstrap=BOOTSTRAP, seed=seed)
    standings = compute_standings(results, names, ratings=ratings)
    click.echo(f"{rules.house}, {len(results)} games, {n} seats, seed {seed}, {elapsed:.1f} s")
    click.echo(format_table(standings))
    if out:
        # The same results.json as ``lastcard arena`` writes (docs/arena.md), through the same report code.
        doc = {"format": RESULTS_FORMAT, "version": RESULTS_VERSION, "kind": "match", "ruleset": rules.house,
               "options": rules.options, "seed": seed, "games": len(results), "seats": n,
               "policy": fault_policy.to_json(), "bots": [s.to_json() for s in specs],
               "rating": rating_info(BOOTSTRAP, seed), "standings": results_rows(standings),
               "head_to_head": head_to_head(results, [r["bot"] for r in standings]), "complete": not interrupted}
        write_reports(out, doc, standings, timing(standings, results, wall_s=elapsed, played_now=len(results), jobs=1),
                      title=f"Match: {rules.house}")
        click.echo(f"results: {os.path.join(out, 'results.json')}")
    if interrupted:
        sys.exit(130)



def _game_line(result: dict) -> dict:
    """One line of games.jsonl: who sat where, how they placed, scores, faults, moves."""
    keys = ("game", "seed", "seating", "placements", "scores", "points", "reason", "winner", "rounds", "moves",
            "decisions", "faults", "forfeited", "time_ms")
    return {k: result.get(k) for k in keys}
