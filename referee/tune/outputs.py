"""What a tune leaves: the trajectory as CSV, the tuned values as a parameter file and as a command line, the
live lines (each parameter's value and its recent trend)."""

from __future__ import annotations

import csv
import io
from typing import Sequence

from referee.store.results_dir import ResultsDir
from referee.tune.convergence import trend_lines, trends
from referee.tune.model import Step, TuneRun, TuneSettings
from referee.tune.params import Param, with_starts

#: Iterations the trend is read over, at least (or a twentieth of the run).
TREND_MIN = 5


def trajectory_rows(run: TuneRun) -> list[list[str]]:
    """A header, the start, then one row per iteration: its games, result, and per parameter theta after it, the
    plus and minus values the games ran with, c_k and r_k."""
    params = run.settings.params
    head = ["iteration", "games", "result"]
    for p in params:
        head += [p.name, f"{p.name}_plus", f"{p.name}_minus", f"{p.name}_c", f"{p.name}_r"]
    rows = [head, ["0", "", ""] + [c for p in params for c in (_g(p.start), "", "", "", "")]]
    for st in run.steps:
        first, last = st.first_pair + 1, st.first_pair + st.pairs
        row = [str(st.plan.k), f"p{first:06d}a-p{last:06d}b", _g(st.result)]
        for i, p in enumerate(params):
            row += [_g(st.theta[i]), p.shown(st.plan.plus[i]), p.shown(st.plan.minus[i]), _g(st.plan.c[i]),
                    _g(st.plan.r[i])]
        rows.append(row)
    return rows


def _g(value: float) -> str:
    return f"{value:.6g}"


def tuned_lines(run: TuneRun) -> list[str]:
    """The parameter file of the tuned values: OpenBench's lines, each starting where this tune ended."""
    return [p.line() for p in with_starts(run.settings.params, run.tuned)]


def write_tune(out_dir: str, run: TuneRun) -> list[str]:
    """trajectory.csv and tuned.txt in ``out_dir``; their paths."""
    trajectory = io.StringIO()
    csv.writer(trajectory).writerows(trajectory_rows(run))
    tuned = (f"# tuned by lastcard tune: {len(run.steps)} iterations, {run.games} games, seed {run.settings.seed}\n"
             f"# command: {run.settings.command(run.theta)}\n" + "\n".join(tuned_lines(run)) + "\n")
    folder = ResultsDir(out_dir)
    return [folder.write(ResultsDir.TRAJECTORY, trajectory.getvalue()), folder.write(ResultsDir.TUNED, tuned)]


def trend(start: float, steps: Sequence[Step], index: int, span: int) -> tuple[float, int]:
    """How far parameter ``index`` moved over the last ``span`` iterations (fewer at the start: counted from
    ``start``), and over how many."""
    values = [start, *(st.theta[index] for st in steps)]
    back = min(span, len(values) - 1)
    return values[-1] - values[-1 - back], back


def live_lines(settings: TuneSettings, steps: Sequence[Step], elapsed_s: float) -> list[str]:
    """The live block: progress, then per parameter its value, start, bounds, trend and this iteration's c and r."""
    n = settings.spsa.iterations
    games = 2 * settings.spsa.pairs * len(steps)
    span = max(TREND_MIN, n // 20)
    lines = [f"tune {settings.bot.name}: iteration {len(steps)}/{n}, {games} games, {elapsed_s:.1f} s"]
    width = max(len(p.name) for p in settings.params)
    theta = steps[-1].theta if steps else settings.starts
    for i, p in enumerate(settings.params):
        moved, over = trend(p.start, steps, i, span)
        arrow = "=" if abs(moved) < 1e-9 else "+" if moved > 0 else "-"
        scale = (p.max - p.min) or 1.0
        bar = _spark([st.theta[i] for st in steps[-24:]], p.min, scale)
        c_r = f"c {steps[-1].plan.c[i]:.3g} r {steps[-1].plan.r[i]:.3g}" if steps else ""
        lines.append(f"  {p.name:<{width}} {theta[i]:>10.4g}  start {p.shown(p.start):>6} "
                     f"[{p.shown(p.min)}, {p.shown(p.max)}]  {arrow}{abs(moved):.3g} over {over} it  {bar}  {c_r}")
    return lines


_BARS = "▁▂▃▄▅▆▇█"


def _spark(values: Sequence[float], low: float, scale: float) -> str:
    """Recent values as a sparkline over the parameter's whole range."""
    return "".join(_BARS[min(7, max(0, int((v - low) / scale * 8)))] for v in values)


def value_note(p: Param, value: float) -> str:
    """Beside a tuned value as the bot is given it: the start, and for an int what it was before rounding."""
    if p.is_float:
        return f"start {p.shown(p.start)}"
    return f"start {p.shown(p.start)}, {value:.4g} before rounding"


def result_lines(run: TuneRun) -> list[str]:
    """The end: the tuned values as the bot is given them (the same text as the command line, tuned.txt and
    report.html), the command line, the parameter file, and whether each parameter settled."""
    s = run.settings
    lines = [f"tuned after {len(run.steps)} iterations ({run.games} games), seed {s.seed}:"]
    width = max(len(p.name) for p in s.params)
    for p, v in zip(s.params, run.theta):
        lines.append(f"  {p.name:<{width}} {p.shown(v):>10}  ({value_note(p, v)})")
    lines += ["command:", f"  {s.command(run.theta)}", "parameter file (OpenBench's format):"]
    lines += [f"  {line}" for line in tuned_lines(run)]
    lines += trend_lines(trends(s.params, s.starts, run.steps))
    return lines
