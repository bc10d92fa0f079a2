"""``--live [HOST:]PORT`` for ``arena``, ``ladder run``, ``compare`` and ``match``: the live page, started before
the run and given its end (the final standings, or after Ctrl-C how to resume). A run that ends (not by Ctrl-C)
leaves its page up, with the final state and the replays, until Ctrl-C."""

from __future__ import annotations

import tempfile
import time
from typing import TYPE_CHECKING, Any, Callable, TypeVar

import click

from referee.cli.common import InputError, resume_command
from referee.live.address import LiveAddress, LiveAddressError
from referee.standings.model import Standings

if TYPE_CHECKING:
    from referee.live.progress import ProgressShown
    from referee.live.state import LiveState

F = TypeVar("F", bound=Callable[..., object])


class AddressType(click.ParamType):
    """``[HOST:]PORT``, read by ``LiveAddress.parse``."""

    name = "[HOST:]PORT"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> LiveAddress:
        if isinstance(value, LiveAddress):
            return value
        try:
            return LiveAddress.parse(str(value))
        except LiveAddressError as exc:
            self.fail(str(exc), param, ctx)


def live_option(f: F) -> F:
    """The ``--live`` option (``None`` when not given: no page, no server, nothing added to the run)."""
    return click.option("--live", "live", type=AddressType(), default=None, metavar="[HOST:]PORT",
                        help="Serve a live page of the run (progress, standings, latest games, faults) at "
                             "http://127.0.0.1:PORT/; 0.0.0.0:PORT lets other machines (a projector) open it. "
                             "Read-only; 0 picks a free port.")(f)


def start_live(address: LiveAddress | None, title: str, kind: str, out_dir: str | None = None,
               report: Callable[[str], str] | None = None) -> LiveState | None:
    """Start the live page when ``--live`` was given and say where it is; None otherwise. ``out_dir``: a folder
    whose games.jsonl the run writes, for opening games in the report's replay viewer; ``report``: instead, what
    writes the viewer over the games so far into the scratch folder it is given (the ladder's, from its file).

    When the command ends the server stops, after giving open pages the last state (they keep showing it); a run
    that finished (or stopped early) first leaves it up until Ctrl-C, and says so.
    """
    if address is None:
        return None
    from referee.live.now import NowPlaying
    from referee.live.server import LiveServer, LiveServerError  # http.server: only for a run with --live
    from referee.live.state import LiveState, RunPhase  # a run without --live need not import the page's state

    state = LiveState(title, kind)
    scratch = tempfile.TemporaryDirectory(prefix="lastcard-live-")
    state.now = NowPlaying(scratch.name)
    if report is None and out_dir is not None:
        folder = out_dir

        def report(where: str) -> str:
            from referee.html_report import write_report  # the report's modules: only when a game is opened

            return write_report(folder, path=f"{where}/report.html")
    maker = None
    if report is not None:
        state.replay = True
        made = report

        def maker() -> str:
            return made(scratch.name)
    try:
        server = LiveServer(address, state, maker, _now_views())
    except LiveServerError as exc:
        scratch.cleanup()
        raise InputError(str(exc)) from None
    where = f"live page: {server.url}"
    if address.everywhere:
        where += f" (listening on every interface, port {server.port}: open this address on the projector's machine)"
    click.echo(where, err=True)

    def close() -> None:
        try:
            if state.phase in (RunPhase.FINISHED, RunPhase.STOPPED):
                _stay_up(state, server.url)
        finally:
            server.flush()
            server.close()
            scratch.cleanup()

    click.get_current_context().call_on_close(close)
    return state


#: How often a page's wait for Ctrl-C wakes up to take it (``_stay_up``; ``play --browser``'s too).
WAKE_S = 0.2


def _stay_up(state: LiveState, url: str) -> None:
    """The run has ended: its page stays up (the final state, the replays) until Ctrl-C (or SIGTERM), saying so."""
    try:  # a Ctrl-C from the moment the terminal says so closes the page
        state.stay()
        click.echo(f"live page: the run has ended; {url} stays up with the final standings and the replays until "
                   "Ctrl-C", err=True)
        while True:
            # Ctrl-C (or SIGTERM, which the command line makes one) raises KeyboardInterrupt at the next wake-up.
            # Not signal.pause(): the kernel may hand the signal to another thread (the page's server), and
            # pause() in this one would never return (a CI run waited 120 s for a page closed by Ctrl-C).
            time.sleep(WAKE_S)
    except KeyboardInterrupt:
        click.echo("live page: closed", err=True)


def _now_views() -> Any:
    """The now-playing view's page and tapes, from the report's package (the live page does not import it); imported
    when first asked for, so a run nobody watches does not load it."""
    from referee.live.now import NowJson
    from referee.live.server import NowViews

    def page() -> str:
        from referee.html_report.now import now_page

        return now_page()

    def tape(game: NowJson) -> str:
        from referee.html_report.now import now_tape

        return now_tape(game)

    return NowViews(page, tape)


def with_live(progress: ProgressShown, state: LiveState | None) -> Any:
    """``progress``, also writing the live page when there is one."""
    if state is None:
        return progress
    from referee.live.progress import LiveProgress

    return LiveProgress(progress, state)


def end_live(state: LiveState | None, *, complete: bool, standings: Standings | None, games: int | None = None,
             message: str = "", stopped: bool = False, resume: str | None = None) -> None:
    """The run ended: the final standings (or those so far, and how to resume after Ctrl-C) on the page.
    ``resume``: the command that goes on (default: the one typed, with --resume, for commands that have it)."""
    if state is None:
        return
    from referee.live.state import RunPhase  # imported by start_live already: --live only

    if complete:
        state.finish(RunPhase.FINISHED, message, standings, games)
    elif stopped:
        state.finish(RunPhase.STOPPED, message, standings, games)
    else:
        state.finish(RunPhase.INTERRUPTED, message or "the games played so far are saved", standings, games,
                     resume=resume if resume is not None else resume_command() or "")
