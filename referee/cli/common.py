"""What the commands share: the one error boundary, the progress display, the arena loader, cluster options.

Exit statuses, the same for every command (README, "Exit status"):
``0`` done; ``1`` the run could not do what was asked (a referee failure, a bot that never started,
a replay that differs, a check that failed); ``2`` bad input (a usage mistake, an arena file, an
option, an output directory, a game or folder that is not there); ``130`` interrupted (Ctrl-C or
SIGTERM), with what was played saved.
"""

from __future__ import annotations

import errno
import shlex
import signal
import sys
import time
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Callable, Iterator, NoReturn, Sequence, TextIO, TypedDict

import click

from referee.errors import BAD_INPUT, RUN_FAILED, LastcardError

if TYPE_CHECKING:
    from referee.arena.model import Arena
    from referee.arena.runner import Leader, NeverStarted
    from referee.run.executor import ExecutorFactory

F = Callable[..., Any]

#: Exit status of a run that was interrupted (the shell's for SIGINT).
INTERRUPTED = 130


class Failure(click.ClickException):
    """A message printed as it is, and an exit status (the subclass's)."""

    def format_message(self) -> str:
        return self.message


class InputError(Failure):
    """Bad input (an arena file, an option, a directory): the message as it is, exit status 2."""

    exit_code = BAD_INPUT


class RunError(Failure):
    """The run could not do what was asked: the message, exit status 1."""

    exit_code = RUN_FAILED


#: What a domain error becomes at the boundary, by its exit status.
FAILURES: dict[int, type[Failure]] = {BAD_INPUT: InputError, RUN_FAILED: RunError}


class LastcardGroup(click.Group):
    """The command group; its ``invoke`` is the one boundary where domain errors become messages and exit
    statuses (the rules code never imports click), and where an interrupt at any moment becomes one line.

    From the moment the command line is parsed to the exit, SIGTERM stops a run as Ctrl-C does; a
    ``KeyboardInterrupt`` that no command handled (during start-up, builds, workers spawning, the final
    fit, writing the reports) ends with ``interrupted``, the command that resumes (for commands with
    ``--resume``) and exit status 130, never a traceback.
    """

    def make_context(self, info_name: str | None, args: list[str], parent: click.Context | None = None,
                     **extra: Any) -> click.Context:
        argv = list(args)
        try:
            ctx = super().make_context(info_name, args, parent=parent, **extra)
        except KeyboardInterrupt:  # while the command line is read: nothing started
            interrupted()
        ctx.meta["lastcard.argv"] = argv  # what was typed, for the resume command
        return ctx

    def main(self, *args: Any, **kwargs: Any) -> Any:
        with sigterm_as_interrupt():
            return super().main(*args, **kwargs)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            interrupted(ctx)
        except LastcardError as exc:  # every domain error, whichever module raised it
            raise FAILURES[exc.exit_code](exc.cli_message()) from None
        except BrokenPipeError:
            raise
        except OSError as exc:  # a full disk, a folder made read-only, a file deleted under the run
            from referee.store.disk import os_error_text
            resume = resume_command(ctx)
            if resume and exc.errno == errno.ENOENT:  # deleted: what was in it is gone
                kept = f"\nwhat was deleted is lost; to play again what is missing: {resume}"
            elif resume:
                kept = f"\nthe games written so far are kept; once that is fixed, finish the run with: {resume}"
            else:
                kept = "".join(f"\n{note}" for note in [getattr(exc, "kept", None)] if note)
            raise RunError(os_error_text(exc) + kept) from None


def resume_command(ctx: click.Context | None = None) -> str | None:
    """The command line that finishes an interrupted run: the one typed, with --resume for --fresh; None for a
    command without --resume or a match without --out (whose games were never kept)."""
    ctx = ctx or click.get_current_context(silent=True)
    if ctx is None:
        return None
    command: click.Command | None = ctx.command
    while isinstance(command, click.Group) and ctx.invoked_subcommand:  # from the group's boundary
        command = command.get_command(ctx, ctx.invoked_subcommand)
    argv: Sequence[str] = ctx.find_root().meta.get("lastcard.argv", [])
    if command is None or not any(p.name == "resume" for p in command.params):
        return None
    if command.name == "match" and not any(w == "--out" or w.startswith("--out=") for w in argv):
        return None
    words = [w for w in argv if w != "--fresh"]
    if "--resume" not in words:
        words.append("--resume")
    return shlex.join(["lastcard", *words])


def interrupted(ctx: click.Context | None = None, games: str | None = None) -> NoReturn:
    """End an interrupted command: one line (the games kept, the resume command), exit status 130.

    ``games``: what was played, e.g. ``107 of 2,000 games``. Further Ctrl-Cs and SIGTERMs are ignored
    from here on: they must not cut this line short.
    """
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            signal.signal(sig, signal.SIG_IGN)
        except ValueError:  # not the main thread
            pass
    command = resume_command(ctx)
    if command:
        line = f"interrupted: {games or 'the games played'} saved; resume with: {command}"
    else:
        line = f"interrupted after {games}" if games else "interrupted"
    click.echo(line, err=True)
    sys.exit(INTERRUPTED)


def interrupt_on_sigterm(signum: int, frame: object) -> None:
    """A SIGTERM handler: stop as cleanly as Ctrl-C does (bots killed, standings so far printed)."""
    raise KeyboardInterrupt


@contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """``kill`` stops a run as cleanly as Ctrl-C while the block runs (off the main thread: nothing to do)."""
    try:
        previous = signal.signal(signal.SIGTERM, interrupt_on_sigterm)
    except ValueError:
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def load_arena_file(path: str, roster: str | None = None) -> Arena:
    """The arena of ``path`` (with ``--roster``'s file for its ``roster:``), or an ``InputError`` listing every
    mistake in it."""
    from referee.arena.config import ArenaFileError, load_arena  # the YAML reader and jsonschema: arena files only

    try:
        arena = load_arena(path, roster=roster)
        if arena.grading is not None and arena.grading.by == "benchmarks":
            from referee.benchmarks.plan import BenchmarkPlan  # its checks need the test's arithmetic

            BenchmarkPlan.of(arena)  # a band no bot can reach in the budget: the file's mistake, before any game
        return arena
    except ArenaFileError as exc:
        raise InputError(str(exc)) from None


def cluster_options(f: F) -> F:
    """``--cluster ADDRESS`` and the TLS files a ``tls://`` cluster needs."""
    f = click.option("--tls-key", type=click.Path(dir_okay=False), help="With a tls:// --cluster: its private key.")(f)
    f = click.option("--tls-cert", type=click.Path(dir_okay=False),
                     help="With a tls:// --cluster: this referee's certificate.")(f)
    f = click.option("--tls-ca-file", type=click.Path(dir_okay=False),
                     help="With a tls:// --cluster: the CA certificate.")(f)
    f = click.option("--cluster", metavar="tcp://HOST:PORT", help="Play the games on the Dask scheduler at this "
                                                               "address (the distributed extra; see "
                                                               "docs/distributed.md).")(f)
    return f


def cluster_executor(cluster: str | None, ca: str | None, cert: str | None, key: str | None,
                     build_on_workers: bool, arena: Arena) -> ExecutorFactory | None:
    """The executor factory for ``--cluster`` or the file's ``executor:`` (None for the local pool; Dask is
    imported only then)."""
    if not cluster:
        if ca or cert or key or build_on_workers:
            raise click.UsageError("--tls-ca-file, --tls-cert, --tls-key and --build-on-workers need --cluster")
        if arena.cluster is None:
            return None
    from referee.cluster.executor import cluster_factory
    from referee.cluster.options import ClusterOptions
    from referee.run.executor import ExecutorError

    options = ClusterOptions(cluster, ca, cert, key, build_on_workers) if cluster else arena.cluster
    assert options is not None
    try:
        return cluster_factory(options)
    except ExecutorError as exc:
        raise click.UsageError(str(exc)) from None


class ExecutorChoice(TypedDict, total=False):
    """A run's ``executor_factory=``, given only when a cluster's replaces the local pool."""

    executor_factory: ExecutorFactory


def executor_kwargs(factory: ExecutorFactory | None) -> ExecutorChoice:
    """``executor_factory=`` for a run, when a cluster's factory replaces the local pool."""
    return ExecutorChoice(executor_factory=factory) if factory else ExecutorChoice()


class TerminalProgress:
    """A progress bar on a terminal, a plain line every few seconds otherwise."""

    BAR = 28
    TTY_EVERY = 0.1
    LINE_EVERY = 10.0

    def __init__(self, stream: TextIO | None = None, quiet: bool = False) -> None:
        self.stream = stream or sys.stderr
        self.quiet = quiet
        self.tty = self.stream.isatty()
        self.t0 = time.monotonic()
        self.base = 0
        self.last = 0.0
        self.drawn = False

    def note(self, text: str) -> None:
        if self.drawn:
            self._clear()
        click.echo(text, err=True)

    def start(self, total: int, done: int) -> None:
        self.t0 = time.monotonic()
        self.base = done
        self.last = self.t0

    def update(self, done: int, total: int, leader: Leader) -> None:
        if self.quiet:
            return
        now = time.monotonic()
        finished = done >= total
        if now - self.last < (self.TTY_EVERY if self.tty else self.LINE_EVERY) and not (finished and self.tty):
            return
        self.last = now
        elapsed = now - self.t0
        rate = (done - self.base) / elapsed if elapsed > 0 else 0.0
        eta = (total - done) / rate if rate > 0 else None
        eta_text = duration(eta) if eta is not None else "?"
        if callable(leader):  # found only now: the fit is not paid for lines never drawn
            leader = leader()
        lead = f"  leader {leader}" if leader else ""
        if self.tty:
            filled = int(self.BAR * done / total) if total else self.BAR
            bar = "#" * filled + "." * (self.BAR - filled)
            self.stream.write(f"\r[{bar}] {done}/{total} games  {rate:.1f}/s  ETA {eta_text}{lead}\x1b[K")
            self.stream.flush()
            self.drawn = True
        else:
            click.echo(f"{done}/{total} games, {rate:.1f} games/s, ETA {eta_text}{lead}", err=True)

    def stop(self) -> None:
        if self.drawn:
            self._clear()

    def _clear(self) -> None:
        self.stream.write("\r\x1b[K")
        self.stream.flush()
        self.drawn = False


def duration(seconds: float) -> str:
    """``42 s``, ``3:05``, ``1:02:03``."""
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    minutes, secs = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes}:{secs:02d}"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}"


def warn_never_started(never: Sequence[NeverStarted]) -> list[str]:
    """The warning block naming each bot that could not start in any of its games, with its own words."""
    from referee.bots.walls_hint import walls_lines  # here: the sandbox's module is for runs that start bots

    lines = []
    for item in never:
        lines.append(f"warning: {item.bot} could not start in any of its {item.games} games:")
        lines += [f"    {line}" for line in item.message.splitlines()]
        if item.stderr:
            lines.append("  its stderr" + (f" (the end of {item.log})" if item.log else "") + ":")
            lines += [f"    | {line}" for line in item.stderr]
            lines += walls_lines(item.walls)
    if lines:
        lines.append("fix the bot's command (try it in a shell from its folder, then `lastcard check`)")
    return lines
