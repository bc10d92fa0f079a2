"""``lastcard check``: does a bot speak the protocol? A scripted suite of situations, fuzz games, a report."""

from __future__ import annotations

from referee.check.report import CheckResult, Report, Status
from referee.check.runner import CheckConfig, run_check

__all__ = ["CheckConfig", "CheckResult", "Report", "Status", "run_check"]
