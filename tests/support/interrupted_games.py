"""Plays games while a timer raises ``KeyboardInterrupt`` wherever the game is, as a Ctrl-C would (a script).

    python tests/support/interrupted_games.py GAMES INTERVAL_S [BOT_COMMAND SANDBOX]

With no bot, four built-in seats; with one, that bot and three built-ins. Prints ``interrupted N of GAMES``.
An interrupt that lands in compiled code where mypyc does not expect an exception aborts the process.
"""

from __future__ import annotations

import signal
import sys
from dataclasses import replace

from referee.bots.pool import BotPool
from referee.bots.sandbox import Mode, SandboxSettings
from referee.bots.spec import TimeLimits, parse_bot, unique_names
from referee.engine.rules import get_ruleset
from referee.run.jobs import GameJob, run_job
from referee.run.seeds import game_seed

armed = False


def _interrupt(signum: int, frame: object) -> None:
    global armed
    if armed:  # once per game, and only inside it: the script itself must not be cut
        armed = False
        raise KeyboardInterrupt


def main() -> None:
    global armed
    games, interval = int(sys.argv[1]), float(sys.argv[2])
    seats = [parse_bot("builtin:easy", TimeLimits()) for _ in range(4)]
    if len(sys.argv) > 3:
        bot = parse_bot(sys.argv[3], TimeLimits(move_ms=60_000))
        seats[0] = replace(bot, sandbox=SandboxSettings(mode=Mode(sys.argv[4])))
    rules = get_ruleset("family", {})
    jobs = [GameJob(f"g{n}", game_seed(1, n), rules, tuple(unique_names(seats))) for n in range(games)]
    pool = BotPool()
    hits = 0
    signal.signal(signal.SIGALRM, _interrupt)
    signal.setitimer(signal.ITIMER_REAL, interval, interval)
    for job in jobs:
        armed = True
        try:
            run_job(job, pool)
        except KeyboardInterrupt:
            hits += 1
        armed = False
    signal.setitimer(signal.ITIMER_REAL, 0)
    pool.kill_all()
    print(f"interrupted {hits} of {games}")


if __name__ == "__main__":
    main()
