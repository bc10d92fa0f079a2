"""report.html's section for a tune: every parameter's value after each iteration, as a share of its range (SVG).

Drawn from results.json's ``tune`` block alone; a run without one gets no section.
"""

from __future__ import annotations

import html
from typing import Sequence

from referee.html_report.sprt_chart import COLOURS
from referee.store.results_shapes import TuneBlockJson

WIDTH, HEIGHT, PAD = 640, 240, 36
#: Room on the right for the parameters' names.
RIGHT = 110


def trajectory_svg(iterations: Sequence[int], lines: Sequence[tuple[str, Sequence[float], float, float]]) -> str:
    """One line per parameter (name, values, min, max), each drawn from its min (bottom) to its max (top)."""
    last = max([*iterations, 1])

    def x(k: float) -> float:
        return PAD + (WIDTH - PAD - RIGHT) * k / last

    def y(share: float) -> float:
        return HEIGHT - PAD - (HEIGHT - 2 * PAD) * min(1.0, max(0.0, share))

    parts = [f"<line x1={x(0):.1f} x2={x(last):.1f} y1={y(v):.1f} y2={y(v):.1f} stroke='#ddd'/>"
             f"<text x=4 y={y(v) + 4:.1f} font-size=11 fill='#777'>{int(100 * v)}%</text>" for v in (0, 0.5, 1)]
    for i, (name, values, low, high) in enumerate(lines):
        colour = COLOURS[i % len(COLOURS)]
        span = (high - low) or 1.0
        points = " ".join(f"{x(k):.1f},{y((v - low) / span):.1f}" for k, v in zip(iterations, values))
        end = y((values[-1] - low) / span) if values else y(0)
        parts.append(f"<polyline fill=none stroke='{colour}' stroke-width=1.5 points='{points}'/>"
                     f"<text x={x(last) + 4:.1f} y={end + 4:.1f} font-size=11 fill='{colour}'>"
                     f"{html.escape(name)}</text>")
    parts.append(f"<text x={x(0):.1f} y={HEIGHT - 8} font-size=11>iteration 0</text>"
                 f"<text x={x(last) - 60:.1f} y={HEIGHT - 8} font-size=11>iteration {last}</text>")
    return (f"<svg class=tune-trace viewBox='0 0 {WIDTH} {HEIGHT}' width={WIDTH} height={HEIGHT} role=img "
            f"aria-label='each parameter after every iteration, as a share of its range'>" + "".join(parts)
            + "</svg>")


def tune_section(block: TuneBlockJson | None) -> str:
    """The tune's section: the tuned command, a table of each parameter (start, tuned, range), the chart."""
    if not block:
        return ""
    tuned = block.get("tuned") or {}
    given = block.get("given") or {}  # as the bot is given it: the command's text (older files: theta, rounded)
    trends = {str(t.get("name")): t for t in block.get("convergence") or []}
    params = block.get("params") or []

    def settled(name: str) -> str:
        t = trends.get(name)
        if t is None:
            return ""
        word = "settled" if t.get("settled") else "still moving"
        return f"{word} (moved {float(t.get('moved', 0)):+.3g}, noise ±{float(t.get('noise', 0)):.3g})"

    rows = "".join(f"<tr><th>{html.escape(p['name'])}</th><td>{p['kind']}</td><td>{p['start']:g}</td>"
                   f"<td>{html.escape(given.get(p['name']) or format(tuned.get(p['name'], p['start']), '.4g'))}</td>"
                   f"<td>{tuned.get(p['name'], p['start']):.6g}</td><td>[{p['min']:g}, {p['max']:g}]</td>"
                   f"<td>{p['c_end']:g}</td><td>{p['r_end']:g}</td><td>{html.escape(settled(p['name']))}</td></tr>"
                   for p in params)
    trajectory = block.get("trajectory") or {}
    values = trajectory.get("values") or {}
    chart = trajectory_svg(trajectory.get("iteration") or [],
                           [(p["name"], values.get(p["name"], []), p["min"], p["max"]) for p in params])
    spsa = block.get("spsa") or {}
    return (f"<section id=tune><h2>Tune: {block.get('iterations_done', 0)} iterations, {block.get('games', 0)} "
            f"games</h2><p>Tuned command: <code>{html.escape(str(block.get('tuned_command', '')))}</code></p>"
            f"<p class=sub>{spsa.get('pairs')} twin pairs per iteration"
            f"{' (independent games, no twins)' if block.get('independent') else ''}; alpha {spsa.get('alpha')}, "
            f"gamma {spsa.get('gamma')}, A-ratio {spsa.get('a_ratio')}. Each line is a parameter as a share of its "
            f"range: a line that levels off has settled, one still climbing wants more iterations.</p>"
            f"<table><tr><th>parameter</th><th>type</th><th>start</th><th>tuned (as the bot is given it)</th>"
            f"<th>theta</th><th>range</th><th>c_end</th><th>r_end</th><th>over the last iterations</th></tr>{rows}"
            f"</table>{chart}</section>")
