"""The standings' rating chart: each bot's rating and its interval, as inline SVG."""

from __future__ import annotations

from typing import Sequence

from referee.html_report.markup import esc
from referee.standings.model import StandingRow
from referee.standings.render import format_rating


def rating_chart(rows: Sequence[StandingRow]) -> str:
    """Each bot's rating as a dot and its interval as a bar, one row per bot, as inline SVG."""
    rated = [r for r in rows if r.rating is not None]
    if not rated:
        return "<p>No ratings (too few games).</p>"
    values = [v for r in rated for v in (r.rating, r.rating_low, r.rating_high) if v is not None]
    lo, hi = min(values), max(values)
    span = (hi - lo) or 100.0
    lo, hi = lo - span * 0.05, hi + span * 0.05
    left, width, row_h = 160, 560, 22
    height = row_h * len(rated) + 30

    def x(v: float) -> float:
        return left + (v - lo) / (hi - lo) * width

    parts = [f"<svg class=chart role=img aria-label='ratings with 95% intervals' viewBox='0 0 {left + width + 20} "
             f"{height}' width='{left + width + 20}' height='{height}'>"]
    for tick in _ticks(lo, hi):
        parts.append(f"<line x1='{x(tick):.1f}' x2='{x(tick):.1f}' y1='0' y2='{height - 20}' class=grid />"
                     f"<text x='{x(tick):.1f}' y='{height - 6}' class=tick>{tick:.0f}</text>")
    for i, r in enumerate(rated):
        y = i * row_h + 12
        low = r.rating_low if r.rating_low is not None else lo
        high = r.rating_high if r.rating_high is not None else hi
        assert r.rating is not None
        parts.append(f"<text x='{left - 8}' y='{y + 4}' class=name>{esc(r.bot)}</text>"
                     f"<line x1='{x(low):.1f}' x2='{x(high):.1f}' y1='{y}' y2='{y}' class=interval>"
                     f"<title>{esc(r.bot)}: {esc(format_rating(r))}</title></line>"
                     f"<circle cx='{x(r.rating):.1f}' cy='{y}' r='5' class=rating />")
    parts.append("</svg>")
    return "<figure><figcaption>Rating (Elo scale) with its 95% interval</figcaption>" + "".join(parts) + "</figure>"


def _ticks(lo: float, hi: float) -> list[float]:
    step = 10 ** len(str(int(max(1.0, (hi - lo) / 5)))) / 10
    for mult in (1, 2, 5, 10):
        if (hi - lo) / (step * mult) <= 6:
            step *= mult
            break
    first = (lo // step + 1) * step
    return [first + k * step for k in range(int((hi - first) // step) + 1)]
