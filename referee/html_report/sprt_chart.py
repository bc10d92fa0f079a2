"""report.html's section for a comparison: the LLR after every pair drawn against the test's bounds (inline SVG).

Drawn from results.json's ``sprt`` block alone; a run without one (an arena, a match) gets no section.
"""

from __future__ import annotations

import html
from typing import Sequence

from referee.store.results_shapes import CandidatesBlockJson, CandidateTestJson, SprtBlockJson

#: Points drawn at most: a long test's trace is thinned to this many (every k-th pair, the last kept).
MAX_POINTS = 1000
WIDTH, HEIGHT, PAD = 640, 220, 36
#: Room on the right for the bounds' labels.
RIGHT = 72


def _thin(trace: Sequence[float]) -> list[tuple[int, float]]:
    """(pair number, LLR) pairs, at most ``MAX_POINTS``, the first and the last kept."""
    step = max(1, -(-len(trace) // MAX_POINTS))
    points = [(i + 1, trace[i]) for i in range(0, len(trace), step)]
    if points and points[-1][0] != len(trace):
        points.append((len(trace), trace[-1]))
    return points


def verdict_text(block: SprtBlockJson | CandidateTestJson) -> str:
    """``H1 accepted after 72 pairs (144 games)``, ``inconclusive after 144 games``, or the fixed-length words."""
    games, pairs = block.get("games", 0), block.get("pairs", 0)
    if block.get("upper") is None:
        return f"{games} games played (fixed length, no test)"
    if block.get("result"):
        return f"{block['result']} accepted after {pairs} pairs ({games} games)"
    return f"inconclusive after {games} games"


def llr_svg(trace: Sequence[float], lower: float, upper: float) -> str:
    """The trace as a line, the bounds as dashed lines (H0 below, H1 above), zero as a thin line."""
    points = _thin(trace)
    low = min([lower, *trace]) * 1.1
    high = max([upper, *trace]) * 1.1
    n = max(len(trace), 1)

    def x(i: float) -> float:
        return PAD + (WIDTH - PAD - RIGHT) * i / n

    def y(v: float) -> float:
        return HEIGHT - PAD + (v - low) / (high - low) * (2 * PAD - HEIGHT)

    def hline(v: float, colour: str, label: str, dash: str = "6 4") -> str:
        return (f"<line x1={x(0):.1f} x2={x(n):.1f} y1={y(v):.1f} y2={y(v):.1f} stroke='{colour}' "
                f"stroke-dasharray='{dash}'/><text x={x(n) + 4:.1f} y={y(v) + 4:.1f} font-size=11 "
                f"fill='{colour}'>{html.escape(label)}</text>")

    line = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in [(0, 0.0), *points])
    return (f"<svg class=llr-trace viewBox='0 0 {WIDTH} {HEIGHT}' width={WIDTH} height={HEIGHT} role=img "
            f"aria-label='LLR after every pair against the bounds'>"
            + hline(upper, "#2a7d2a", f"H1 {upper:.2f}") + hline(lower, "#b03030", f"H0 {lower:.2f}")
            + hline(0.0, "#999", "0", "2 3")
            + f"<polyline fill=none stroke='#2456a6' stroke-width=1.5 points='{line}'/>"
            + f"<text x={x(0):.1f} y={HEIGHT - 8} font-size=11>pair 0</text>"
            + f"<text x={x(n) - 40:.1f} y={HEIGHT - 8} font-size=11>pair {len(trace)}</text></svg>")


def sprt_section(block: SprtBlockJson | None) -> str:
    """The comparison's section: the verdict, the counts and estimates, the LLR chart ("" without a block)."""
    if not block:
        return ""
    elo, nelo = block.get("elo") or {}, block.get("nelo") or {}
    rows = [("NEW vs BASE", f"{block.get('new')} vs {block.get('base')}"),
            ("Ptnml(0-2)", str(block.get("ptnml"))),
            ("Elo", f"{elo.get('value', 0):.2f} ± {elo.get('error', 0):.2f}"),
            ("nElo", f"{nelo.get('value', 0):.2f} ± {nelo.get('error', 0):.2f}"),
            ("LOS", f"{100 * block.get('los', 0):.2f} %")]
    if block.get("upper") is not None:
        rows.append(("Test", f"{block.get('model')} Elo [{block['elo0']:g}, {block['elo1']:g}], alpha "
                             f"{block['alpha']:g}, beta {block['beta']:g}; LLR {block['llr']:.2f} in "
                             f"({block['lower']:.2f}, {block['upper']:.2f})"))
    table = "".join(f"<tr><th>{html.escape(k)}</th><td>{html.escape(v)}</td></tr>" for k, v in rows)
    lower, upper = block.get("lower"), block.get("upper")
    chart = llr_svg(block.get("llr_trace") or [], lower, upper) if lower is not None and upper is not None else ""
    return (f"<section id=sprt><h2>Comparison: {html.escape(verdict_text(block))}</h2>"
            f"<table>{table}</table>{chart}</section>")


#: Line colours of the candidates' traces, in the order given (then round again).
COLOURS = ("#2456a6", "#d9730d", "#7b3fa0", "#1b8a8a", "#c2185b", "#6d6d00", "#5d4037", "#455a64")


def traces_svg(traces: Sequence[tuple[str, Sequence[float]]], lower: float, upper: float) -> str:
    """Every candidate's LLR after each of its pairs on one chart, against the (shared) bounds, with a legend."""
    longest = max([len(t) for _, t in traces] + [1])
    values = [v for _, t in traces for v in t]
    low, high = min([lower, *values]) * 1.1, max([upper, *values]) * 1.1
    right = WIDTH - RIGHT

    def x(i: float) -> float:
        return PAD + (right - PAD) * i / longest

    def y(v: float) -> float:
        return HEIGHT - PAD + (v - low) / (high - low) * (2 * PAD - HEIGHT)

    def hline(v: float, colour: str, label: str, dash: str = "6 4") -> str:
        return (f"<line x1={x(0):.1f} x2={x(longest):.1f} y1={y(v):.1f} y2={y(v):.1f} stroke='{colour}' "
                f"stroke-dasharray='{dash}'/><text x={x(longest) + 4:.1f} y={y(v) + 4:.1f} font-size=11 "
                f"fill='{colour}'>{html.escape(label)}</text>")

    lines, legend = [], []
    for n, (name, trace) in enumerate(traces):
        colour = COLOURS[n % len(COLOURS)]
        points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in [(0, 0.0), *_thin(trace)])
        lines.append(f"<polyline class=trace data-candidate='{html.escape(name, quote=True)}' fill=none "
                     f"stroke='{colour}' stroke-width=1.5 points='{points}'/>")
        legend.append(f"<text x={PAD + 8:.1f} y={PAD - 20 + 13 * n:.1f} font-size=11 fill='{colour}'>"
                      f"{html.escape(name)}</text>")
    height = HEIGHT
    return (f"<svg class=llr-traces viewBox='0 0 {WIDTH} {height}' width={WIDTH} height={height} role=img "
            f"aria-label='Each candidate&#39;s LLR after every pair against the bounds'>"
            + hline(upper, "#2a7d2a", f"H1 {upper:.2f}") + hline(lower, "#b03030", f"H0 {lower:.2f}")
            + hline(0.0, "#999", "0", "2 3") + "".join(lines) + "".join(legend)
            + f"<text x={x(0):.1f} y={HEIGHT - 8} font-size=11>pair 0</text>"
            + f"<text x={x(longest) - 40:.1f} y={HEIGHT - 8} font-size=11>pair {longest}</text></svg>")


def candidates_section(block: CandidatesBlockJson | None) -> str:
    """A candidates run's section: the winner, a row per candidate (status, estimates), every LLR on one chart."""
    if not block:
        return ""
    tests = block.get("tests") or []
    winner = block.get("winner")
    title = f"Candidates against {block.get('base')}: " + (f"winner {winner}" if winner else "no candidate accepted")
    head = "<tr><th>candidate</th><th>status</th><th>Ptnml(0-2)</th><th>Elo</th><th>nElo</th><th>LLR</th></tr>"
    rows = "".join(
        f"<tr><td>{html.escape(str(t.get('new')))}</td><td>{html.escape(str(t.get('status')))}</td>"
        f"<td>{html.escape(str(t.get('ptnml')))}</td>"
        f"<td>{(t.get('elo') or {}).get('value', 0):.2f} ± {(t.get('elo') or {}).get('error', 0):.2f}</td>"
        f"<td>{(t.get('nelo') or {}).get('value', 0):.2f} ± {(t.get('nelo') or {}).get('error', 0):.2f}</td>"
        f"<td>{t.get('llr', 0):.2f}</td></tr>" for t in tests)
    note = (f"<p>Each test at alpha {tests[0]['alpha']:g}, beta {tests[0]['beta']:g} (Bonferroni: family-wise "
            f"{block.get('alpha'):g} and {block.get('beta'):g}); "
            f"{block.get('games')} games in all.</p>") if tests else ""
    chart = (traces_svg([(str(t.get("new")), t.get("llr_trace") or []) for t in tests], tests[0]["lower"],
                        tests[0]["upper"]) if tests else "")
    return (f"<section id=sprt><h2>{html.escape(title)}</h2>{note}<table>{head}{rows}</table>{chart}</section>")
