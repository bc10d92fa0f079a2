"""``lastcard check --arena FILE.yaml [--bot NAME ...]``: each bot of a contest checked as the contest runs it."""

from __future__ import annotations

import json
import sys
from typing import Sequence

import click

from referee.arena.model import Arena
from referee.bots.entry import BotEntry
from referee.builds.steps import LeftOut, check_requires, run_builds
from referee.check.contest import contest_bots, contest_config, describe_contest
from referee.check.output import format_text, to_junit
from referee.check.report import Report
from referee.check.runner import run_check_spec
from referee.cli.common import load_arena_file


def check_arena(arena_file: str, bot_names: Sequence[str] = (), *, games: int, seed: int, quiet_ms: int,
                as_json: bool, junit: str | None, verbose: bool, records_dir: str | None, unicode: bool) -> None:
    """Build and check the arena's bots (or those named, in the order given); print each report; exit 0 only
    when all passed."""
    arena = load_arena_file(arena_file)
    kept, left = _built(_picked(arena, bot_names), quiet=as_json)
    reports: list[Report] = []
    for entry in kept:
        config = contest_config(arena, entry, games=games, seed=seed, quiet_ms=quiet_ms, records_dir=records_dir)
        if not as_json:
            click.echo(f"{entry.spec.name}: checking {describe_contest(arena, config)}", err=True)
        reports.append(run_check_spec(entry.spec, config))
    if as_json:
        _print_json(arena.source, reports, left, single=len(bot_names) == 1)
    else:
        for report in reports:
            click.echo(format_text(report, unicode=unicode, style=click.style, verbose=verbose))
        for item in left:
            detail = "".join(f"\n    {line}" for line in item.detail.splitlines())
            click.echo(f"not checked: {item.bot}: {item.reason}{detail}")
    if junit:
        with open(junit, "w", encoding="utf-8") as fh:
            fh.write("".join(to_junit(r) for r in reports[:1]) if len(reports) == 1 else _junit_many(reports))
        if not as_json:
            click.echo(f"JUnit XML: {junit}")
    sys.exit(0 if not left and reports and all(r.ok for r in reports) else 1)


def _picked(arena: Arena, bot_names: Sequence[str]) -> list[BotEntry]:
    """The bot programs to check: those named (each once, in the order given), or every one."""
    try:
        if bot_names:
            return [e for name in dict.fromkeys(bot_names) for e in contest_bots(arena, name)]
        return contest_bots(arena)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--bot" if bot_names else "--arena") from None


def _built(entries: list[BotEntry], *, quiet: bool) -> tuple[list[BotEntry], list[LeftOut]]:
    """The entries whose tools are there and whose build steps (if any) succeed; the others, with the reason."""
    kept, left = check_requires(entries)
    if any(e.build for e in kept):
        def built(entry: BotEntry, failure: LeftOut | None, seconds: float) -> None:
            if not quiet:
                how = "" if entry.built is None else (", from the cache" if entry.built.cached else "") + \
                    f", sandbox {entry.built.level}"
                click.echo(f"built {entry.spec.name} ({seconds:.1f} s{how})" if failure is None
                           else f"{entry.spec.name}: {failure.reason}", err=True)
        kept, failed = run_builds(kept, None, 1, built)
        left += failed
    return kept, left


def _print_json(source: str, reports: list[Report], left: list[LeftOut], *, single: bool) -> None:
    """One bot asked for: its report itself; else the arena's document with every report and the bots not checked."""
    docs = [r.to_json() for r in reports]
    if single and len(docs) == 1:
        click.echo(json.dumps(docs[0], indent=2, ensure_ascii=False))
        return
    failed_out = [{"bot": x.bot, "reason": x.reason, "detail": x.detail} for x in left]
    click.echo(json.dumps({"format": "lastcard-check-arena", "version": 1, "arena": source,
                           "ok": not failed_out and all(r.ok for r in reports),
                           "reports": docs, "not_checked": failed_out}, indent=2, ensure_ascii=False))


def _junit_many(reports: list[Report]) -> str:
    """Several reports' ``<testsuite>`` elements inside one ``<testsuites>``."""
    suites = [to_junit(r).split("\n", 1)[1].rstrip("\n") for r in reports]
    return '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n' + "\n".join(suites) + "\n</testsuites>\n"
