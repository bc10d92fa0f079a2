"""The worker side of a Dask arena: a plugin that unpacks the bots and keeps their processes between games.

Imported by Dask workers (and by ``cluster.py`` once ``--cluster`` is given), never by the rest of the
referee: it needs the ``distributed`` extra. One plugin per arena run; on each worker it unpacks the bot
bundle in a directory named after its content hash, builds there if asked, checks each bot's programs,
and gives every worker thread its own ``BotPool`` (a bot process serves one game at a time).
"""

from __future__ import annotations

import asyncio
import os
import sys
import threading
import traceback
from collections import OrderedDict
from dataclasses import replace
from typing import Any, cast

from distributed import get_worker
from distributed.diagnostics.plugin import WorkerPlugin

from referee import __version__
from referee.bots.entry import BotEntry
from referee.bots.pool import BotPool
from referee.bots.sandbox import Mode
from referee.bots.spec import BotSpec
from referee.builds.shipping import BotBundle, relocate, relocate_build, runtime_problem, unpack
from referee.builds.steps import run_builds
from referee.run.jobs import GameJob, GameJobJson, run_job

#: Bot processes one worker thread keeps alive between games; the least recently used beyond this are quit.
IDLE_BOTS = 48
#: What a task returns: ("done", result, record lines), ("unavailable", message) or ("error", traceback).
TaskReply = tuple[Any, ...]


class ArenaPlugin(WorkerPlugin):
    """Per worker: the unpacked bots, what keeps any of them from running here, and one ``BotPool`` per thread."""

    def __init__(self, bundle: BotBundle, build_on_workers: bool = False, idle_bots: int = IDLE_BOTS) -> None:
        self.bundle = bundle
        self.build_on_workers = build_on_workers
        self.idle_bots = idle_bots

    async def setup(self, worker: Any) -> None:
        self.address = worker.address
        self.home = ""
        self.specs: dict[BotSpec, BotSpec] = {}
        self.problems: dict[str, str] = {}
        self._local = threading.local()
        self._pools: list[BotPool] = []
        self._lock = threading.Lock()
        # Unpacking and building take seconds: off the worker's event loop, which must keep answering the scheduler.
        await asyncio.to_thread(self._prepare, os.path.join(worker.local_directory, "lastcard"))

    def _prepare(self, root: str) -> None:
        bundle = self.bundle
        if bundle.version != __version__:
            self.problems["*"] = (f"this worker has lastcard {__version__}, the referee {bundle.version}; install the "
                                  "same version on both (results must not depend on the machine)")
            return
        try:
            self.home = unpack(bundle, root)
        except (OSError, ValueError) as exc:
            self.problems["*"] = f"cannot unpack the bots under {root!r}: {exc}"
            return
        folders = bundle.folders
        entries = []
        for bot in bundle.bots:
            spec = relocate(bot.spec, folders, self.home, bundle.python, sys.executable)
            self.specs[bot.spec] = spec
            problem = runtime_problem(spec, bot.requires)
            if problem is not None:
                self.problems[bot.spec.name] = problem
            elif self.build_on_workers and bot.build:
                build = relocate_build(bot.build, folders, self.home, bundle.python, sys.executable)
                entries.append(BotEntry(spec, bot.spec.name, build=build, build_timeout_s=bot.build_timeout_s))
        if entries:
            marker = os.path.join(self.home, ".lastcard-built")
            # A worker restarted on the same scratch space built these already (in place); a walled build is
            # asked again: its build cache answers at once, with the built copy the bot runs from.
            walled = any(e.spec.sandbox.mode is not Mode.NONE for e in entries)
            if walled or not os.path.exists(marker):
                kept, failed = run_builds(entries, os.path.join(self.home, "logs"), jobs=1)
                built = {e.spec.name: e.spec for e in kept}
                for bot in bundle.bots:
                    if bot.spec.name in built:
                        self.specs[bot.spec] = built[bot.spec.name]
                for item in failed:
                    first = item.first_error
                    tail = f": {first}" if first else ""  # the first error: the cause
                    self.problems[item.bot] = f"its build {item.reason} there{tail} (log: {item.log})"
                if not failed:
                    open(marker, "w").close()

    def report(self) -> dict[str, str]:
        """What keeps each bot from running on this worker (bot name, or "*" for all of them -> the reason)."""
        return dict(self.problems)

    def play(self, job_json: GameJobJson) -> TaskReply:
        """Play one game with this thread's pool; an unavailable bot or a referee bug comes back as a value."""
        job = GameJob.from_json(job_json)
        if "*" in self.problems:
            return ("unavailable", f"worker {self.address}: {self.problems['*']}")
        seats = []
        for spec in job.seats:
            if spec.builtin is None:
                problem = self.problems.get(spec.name)
                here = self._here(spec)
                if here is None:
                    problem = problem or "it is not in the bundle this arena shipped (a referee bug)"
                if problem is not None or here is None:
                    return ("unavailable", f"bot {spec.name!r} cannot run on worker {self.address}: {problem}")
                spec = here
            seats.append(spec)
        pool = self._pool()
        try:
            result, lines = run_job(replace(job, seats=tuple(seats)), pool)
        except Exception:  # noqa: BLE001 - a referee bug: reported with the game, as the local executor does
            return ("error", traceback.format_exc())
        self._trim(pool, seats)
        return ("done", result, lines if job.keeps(result) else None)  # a record not kept does not travel

    def _here(self, spec: BotSpec) -> BotSpec | None:
        """``spec`` as it runs on this worker: a shipped bot relocated, or a filled-in variant of one (``lastcard
        tune`` ships its bot's command with placeholders and plays it with values filled in: same name, folder,
        environment and settings, another command line), relocated the same way; None for any other."""
        found = self.specs.get(spec)
        if found is not None:
            return found
        for shipped in self.specs:
            if shipped.name == spec.name and replace(spec, command=shipped.command) == shipped:
                b = self.bundle
                return relocate(spec, b.folders, self.home, b.python, sys.executable)
        return None

    def _pool(self) -> BotPool:
        pool = getattr(self._local, "pool", None)
        if pool is None:
            pool = BotPool(stderr_dir=os.path.join(self.home, "logs"))
            os.makedirs(pool.stderr_dir or ".", exist_ok=True)
            self._local.pool = pool
            self._local.recent = OrderedDict()
            with self._lock:
                self._pools.append(pool)
        return pool

    def _trim(self, pool: BotPool, seats: list[BotSpec]) -> None:
        recent: OrderedDict[BotSpec, None] = self._local.recent
        for spec in seats:
            if spec.builtin is None:
                recent[spec] = None
                recent.move_to_end(spec)
        while len(recent) > self.idle_bots:
            old, _ = recent.popitem(last=False)
            client = pool.clients.pop(old, None)
            if client is not None:
                client.quit()

    def teardown(self, worker: Any) -> None:
        with self._lock:
            pools, self._pools = self._pools, []
        for pool in pools:
            pool.close()


def play(job_json: GameJobJson, plugin: str) -> TaskReply:
    """The task: play ``job_json`` on this worker with the arena's plugin named ``plugin``."""
    return cast(ArenaPlugin, get_worker().plugins[plugin]).play(job_json)


def report(plugin: str, dask_worker: Any = None) -> dict[str, str]:
    """For ``Client.run``: this worker's problems with the arena's bots."""
    worker = dask_worker or get_worker()
    found = cast("ArenaPlugin | None", worker.plugins.get(plugin))
    if found is None:
        return {"*": "the arena's plugin is not set up on this worker"}
    return found.report()
