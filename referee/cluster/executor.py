"""Running an arena's games on a Dask cluster: the ``LocalExecutor`` interface, with workers on other machines.

Needs the ``distributed`` extra (``pip install 'lastcard[distributed]'``); this module imports it only when
an executor starts, so the rest of the referee never does. The bots' folders are packed once
(``shipping.py``) and travel to every worker inside a worker plugin, which the scheduler also hands to
workers that join later. Jobs travel as ``GameJob.to_json()``; each comes back once: a game lost with a
dying worker is run again elsewhere by Dask, and a result that arrives twice is yielded once.
"""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, Any, Iterable, Iterator

from referee.builds.shipping import BotBundle, ShippingError, pack_bots
from referee.cluster.options import ClusterOptions
from referee.run.executor import ExecutorError, ExecutorFactory, RunContest, lost_game, write_record
from referee.run.jobs import GameJob, GameJobJson
from referee.run.lead import Lead
from referee.store.results import GameResult

if TYPE_CHECKING:
    from distributed import Future

#: Games handed to the scheduler ahead of those finished, per worker thread (at least ``MIN_WINDOW``):
#: enough that no worker waits, few enough that Ctrl-C has little to cancel and memory stays flat.
AHEAD_PER_THREAD = 4
MIN_WINDOW = 64
#: Seconds to wait for the scheduler to answer, and for a first worker to join it.
CONNECT_TIMEOUT_S = 20.0
WORKER_WAIT_S = 60.0

INSTALL_HINT = "install it with: pip install 'lastcard[distributed]' (on the referee and on every worker)"


def require_distributed() -> None:
    """Raise ``ExecutorError`` saying how to install the extra when Dask's distributed is missing."""
    try:
        import distributed  # noqa: F401
    except ImportError as exc:
        raise ExecutorError(f"--cluster needs Dask's distributed package ({exc}); {INSTALL_HINT}") from None


class ClusterExecutor:
    """Games on the Dask cluster at ``options.address``; ``run`` yields ``(game_id, result)`` as they finish."""

    def __init__(self, options: ClusterOptions, bundle: BotBundle, *, records_dir: str | None = None) -> None:
        self.options = options
        self.bundle = bundle
        self.records_dir = records_dir
        self.plugin = f"lastcard-{bundle.key}-{uuid.uuid4().hex[:8]}"
        self._client: Any = None
        self._futures: dict[str, Future[Any]] = {}
        self._closed = False
        self.threads = 0

    def start(self) -> None:
        """Connect, ship the bots to every worker and check that each can run them (``run`` does it when needed)."""
        if self._client is not None or self._closed:
            return
        require_distributed()
        from distributed import Client

        from referee.cluster.worker import ArenaPlugin, report

        address = self.options.address
        try:
            self._client = Client(address, security=self.options.security(), timeout=CONNECT_TIMEOUT_S,
                                  set_as_default=False)
        except (OSError, TimeoutError) as exc:
            raise ExecutorError(f"cannot reach the Dask scheduler at {address}: {exc}; start one with "
                                f"`dask scheduler` and check the address (docs/distributed.md)") from None
        try:
            self._client.wait_for_workers(1, timeout=WORKER_WAIT_S)
        except TimeoutError:
            self.close()
            raise ExecutorError(f"the Dask scheduler at {address} has no workers after {WORKER_WAIT_S:g} s; start "
                                f"some with `dask worker {address} --nthreads 1` (docs/distributed.md)") from None
        self._client.register_plugin(ArenaPlugin(self.bundle, self.options.build_on_workers), name=self.plugin)
        found = self._client.run(report, self.plugin)
        problems = [(worker, bot, why) for worker, bots in sorted(found.items()) for bot, why in sorted(bots.items())]
        if problems:
            self.close()
            lines = [f"  worker {w}: " + (why if bot == "*" else f"bot {bot!r} cannot run there: {why}")
                     for w, bot, why in problems]
            raise ExecutorError("the cluster's workers cannot run every bot:\n" + "\n".join(lines) +
                                "\ninstall what is missing on every worker (docs/distributed.md, What each worker "
                                "must have), or leave those bots out of the arena")
        self.threads = sum(self._client.nthreads().values())

    def run(self, jobs: Iterable[GameJob | None], *, lead: int | None = None) -> Iterator[tuple[str, GameResult]]:
        """Play ``jobs`` (read lazily, a window ahead) on the cluster; yield each game's id and result as it
        finishes, each game once. With ``lead``, never more than that ahead of the earliest unfinished game."""
        if self._closed:
            raise RuntimeError("the executor is closed")
        self.start()
        from distributed import as_completed

        from referee.cluster.worker import play

        upcoming = iter(jobs)
        by_id: dict[str, GameJob] = {}  # the games handed to the scheduler and not yet back
        seen: set[str] = set()
        # Results are fetched as each game finishes, in the background: a worker that dies after finishing a
        # game then loses nothing, and no round trip waits in this loop.
        done = as_completed([], with_results=True, raise_errors=False, loop=self._client.loop)
        window = max(MIN_WINDOW, AHEAD_PER_THREAD * self.threads)
        ahead = Lead(lead) if lead is not None else None

        def top_up() -> None:
            batch: list[GameJobJson] = []
            while len(self._futures) + len(batch) < window and (ahead is None or ahead.may_read()):
                job = next(upcoming, None)
                if job is None:  # the end (a cluster is never given a None for "not ready yet": Executor.run)
                    break
                if ahead is not None:
                    ahead.read(job.game_id)
                by_id[job.game_id] = job
                batch.append(job.to_json())
            if not batch:
                return
            # One key per game and run: a game is computed once however many workers ask, and never mixed
            # up with another arena's game of the same id.
            keys = [f"{self.plugin}-{job['game']}" for job in batch]
            futures = self._client.map(play, batch, plugin=self.plugin, key=keys, pure=False)
            for sent, future in zip(batch, futures):
                self._futures[sent["game"]] = future
            done.update(futures)

        top_up()
        for future, value in done:
            game_id = future.key[len(self.plugin) + 1:]
            # A game's own outcome is ("done" | "error" | "unavailable", ...); anything else is Dask's error
            # triple (type, exception, traceback). The status cannot say which: a finished game whose worker
            # died just after is "lost" again by the time it is read here, its result already in hand.
            played = isinstance(value, tuple) and bool(value) and value[0] in ("done", "error", "unavailable")
            if not played:
                value = value[1] if isinstance(value, tuple) else value
                if type(value).__name__ == "KilledWorker":
                    # Dask ran it again after each worker that died playing it, up to the scheduler's
                    # allowed-failures: a game that keeps killing workers is lost, as the local executor records it.
                    outcome: tuple[Any, ...] = ("done", lost_game(by_id[game_id], f"every worker that played this "
                                                                                  f"game died ({value})"), None)
                else:
                    raise ExecutorError(f"game {game_id} failed on the cluster: {type(value).__name__}: {value}")
            else:
                outcome = value
            self._futures.pop(game_id, None)
            job = by_id.pop(game_id, None)
            future.release()
            if outcome[0] == "unavailable":
                raise ExecutorError(outcome[1])
            if outcome[0] == "error":
                raise ExecutorError(f"the referee failed on game {game_id}:\n{outcome[1]}")
            if game_id in seen:
                continue
            seen.add(game_id)
            _, result, lines = outcome
            if self.records_dir and (job is None or job.keeps(result)):
                write_record(self.records_dir, game_id, lines, job)
            if ahead is None:  # topped up first, so no worker waits on the caller
                top_up()
            yield game_id, result
            if ahead is not None:  # a game counts as finished for the lead once the caller has taken it
                ahead.finished(game_id)
                top_up()

    def close(self, kill: bool = False) -> None:
        """Cancel the games not finished and quit the bots on the workers (a game already running there is
        finished by its worker and dropped); ``kill`` is accepted for the executor interface."""
        if self._closed:
            return
        self._closed = True
        client, self._client = self._client, None
        if client is None:
            return
        try:
            if self._futures:
                client.cancel(list(self._futures.values()), force=True)
            self._futures.clear()
            client.unregister_worker_plugin(self.plugin)  # quits this arena's bots on every worker
        except Exception:  # noqa: BLE001 - a scheduler already gone must not hide why the arena stopped
            pass
        finally:
            client.close()

    def __enter__(self) -> ClusterExecutor:
        return self

    def __exit__(self, exc_type: object, *rest: object) -> None:
        self.close(kill=exc_type is not None)


def cluster_factory(options: ClusterOptions) -> ExecutorFactory:
    """An executor factory for ``run_arena``: pack the arena's bots and run its games on the cluster."""
    problems = options.problems()
    if problems:
        raise ExecutorError("; ".join(problems))
    require_distributed()

    def make(arena: RunContest, *, jobs: int, stderr_dir: str | None, records_dir: str | None,
             pin: bool | None) -> ClusterExecutor:
        try:
            bundle = pack_bots(arena.bots, arena.base_dir)
        except (ShippingError, OSError) as exc:
            raise ExecutorError(f"cannot pack the bots for the cluster: {exc}") from None
        return ClusterExecutor(options, bundle, records_dir=records_dir)
    return make
