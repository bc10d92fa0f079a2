"""``report.html``: one self-contained page for a results directory (standings, head to head, faults, replays).

``write_report(out_dir)`` is what ``lastcard report``, ``lastcard arena`` and ``match --out`` call.
"""

from __future__ import annotations

from referee.html_report.page import ReportError, write_report

__all__ = ["ReportError", "write_report"]
