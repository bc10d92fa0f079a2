"""report.html's section for the benchmark tests: a row per student (the bands reached, whether the grade is
certain, the games), and each student's tests as LLR traces against the bounds (inline SVG).

Drawn from results.json's ``benchmarks`` block alone; a run without one gets no section.
"""

from __future__ import annotations

import html

from referee.html_report.sprt_chart import traces_svg
from referee.store.results_shapes import BenchmarksBlockJson, BenchmarkStudentJson


def benchmarks_section(block: BenchmarksBlockJson | None) -> str:
    """The students' benchmark tests ("" without a block)."""
    if not block:
        return ""
    bands = block.get("bands") or []
    names = ", ".join(f"{b.get('bot')} ({b.get('points')})".replace(".0)", ")") for b in bands)
    note = (f"<p>Bands, weakest benchmark first: {html.escape(names)}. Each test: twin games at {block['seats']} "
            f"seats, {html.escape(block['model'])} Elo H0 {block['elo0']:g} against H1 {block['elo1']:g}, alpha "
            f"{block['alpha']:g}, beta {block['beta']:g}; at most {block['budget']} games a student.</p>")
    head = "<tr><th>student</th><th>stronger than</th><th>certain</th><th>games</th><th>faults</th></tr>"
    rows = "".join(_row(s) for s in block.get("students") or [])
    details = "".join(_student(s, block) for s in block.get("students") or [])
    return (f"<section id=benchmarks><h2>Benchmark tests</h2>{note}<table>{head}{rows}</table>{details}</section>")


def _passed(student: BenchmarkStudentJson) -> str:
    won = [t["benchmark"] for t in student["tests"] if t["verdict"] == "H1"]
    return ", ".join(won) or "none"


def _row(student: BenchmarkStudentJson) -> str:
    return (f"<tr><td>{html.escape(student['student'])}</td><td>{html.escape(_passed(student))}</td>"
            f"<td>{'yes' if student['decided'] else 'no (the band below the undecided test)'}</td>"
            f"<td>{student['games']}</td><td>{student['faults']}</td></tr>")


def _student(student: BenchmarkStudentJson, block: BenchmarksBlockJson) -> str:
    tests = student["tests"]
    if not tests:
        return ""
    lines = "".join(
        f"<li>{html.escape(t['benchmark'])}: "
        f"{ {'H1': 'stronger', 'H0': 'not stronger'}.get(str(t['verdict']), 'undecided') } after {t['games']} games, "
        f"LLR {t['llr']:.2f}, Elo {t['elo']:+.0f} ({t['elo_low']:+.0f} to {t['elo_high']:+.0f})</li>" for t in tests)
    chart = traces_svg([(t["benchmark"], t["llr_trace"]) for t in tests], block["lower"], block["upper"])
    return (f"<details class=benchmark-student><summary>{html.escape(student['student'])}</summary>"
            f"<ul>{lines}</ul>{chart}</details>")
