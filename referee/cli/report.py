"""``lastcard report RESULTS_DIR``: write the self-contained report.html of a results directory."""

from __future__ import annotations

import os
import time

import click

from referee.html_report import ReportError, write_report


@click.command("report")
@click.argument("results_dir", type=click.Path(file_okay=False))
@click.option("--output", "-o", type=click.Path(dir_okay=False),
              help="Where to write the page (default: RESULTS_DIR/report.html).")
def report_cmd(results_dir: str, output: str | None) -> None:
    """Write RESULTS_DIR/report.html: standings with rating intervals, head to head, each bot's faults,
    and a replay viewer for every game. One file, nothing loaded from the network: open it in a browser.
    """
    if not os.path.isdir(results_dir):
        raise click.BadParameter(f"no such directory: {results_dir!r} (give the output directory of "
                                 "`lastcard arena` or `lastcard match --out`)", param_hint="RESULTS_DIR")
    t0 = time.monotonic()
    try:
        path = write_report(results_dir, output)
    except ReportError as exc:
        raise click.ClickException(str(exc)) from None
    size = os.path.getsize(path)
    click.echo(f"report: {path} ({size / 1e6:.1f} MB, {time.monotonic() - t0:.1f} s)")
