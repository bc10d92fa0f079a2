"""How long the checked bot's answers took in the fuzz games, wall and CPU, against the contest's limit."""

from __future__ import annotations

from referee.bots.cpuclock import Clock
from referee.bots.spec import TimeLimits
from referee.check.report import CheckResult
from referee.store.results import GameResultJson

#: The check's name in the report.
CHECK_NAME = "time per move"
#: Above this share of the limit, the report warns: a contest machine may be slower than this one.
CLOSE_SHARE = 0.5


class MoveTimes:
    """The checked seat's answer times over the fuzz games (from each game's ``time_ms``)."""

    def __init__(self) -> None:
        self.decisions = self.cpu_decisions = 0
        self.total_ms = self.max_ms = self.cpu_total_ms = self.cpu_max_ms = 0.0

    def add(self, result: GameResultJson, seat: int) -> None:
        """Count the answers of ``seat`` in one game's result (``GameResult.to_json``)."""
        times = result["time_ms"]
        if not times.get("decisions"):
            return
        self.decisions += times["decisions"][seat]
        self.total_ms += times["total"][seat]
        self.max_ms = max(self.max_ms, times["max"][seat])
        if times.get("cpu_decisions"):
            self.cpu_decisions += times["cpu_decisions"][seat]
            self.cpu_total_ms += times["cpu_total"][seat]
            self.cpu_max_ms = max(self.cpu_max_ms, times["cpu_max"][seat])

    def check(self, limits: TimeLimits) -> CheckResult:
        """A check: passed while the charged time of every answer stayed within the move limit."""
        result = CheckResult(CHECK_NAME, "fuzz")
        if not self.decisions:
            result.skip("no answer was timed (no fuzz game played)")
            return result
        limit = limits.move_ms
        wall = f"wall clock {self.total_ms / self.decisions:.1f} ms on average, {self.max_ms:.1f} ms at most"
        on_cpu = limits.clock is Clock.CPU and self.cpu_decisions > 0
        if self.cpu_decisions:
            cpu = (f"CPU time {self.cpu_total_ms / self.cpu_decisions:.1f} ms on average, {self.cpu_max_ms:.1f} ms "
                   f"at most")
            result.details.append(f"{cpu} ({self.cpu_decisions} answers)")
        result.details.append(f"{wall} ({self.decisions} answers)")
        charged = self.cpu_max_ms if on_cpu else self.max_ms
        what = "CPU time" if on_cpu else "wall time"
        average = (self.cpu_total_ms / self.cpu_decisions) if on_cpu else self.total_ms / self.decisions
        result.summary = (f"{average:.1f} ms of {what} on average, {charged:.1f} ms at most; the limit is "
                          f"{limit} ms")
        if limits.clock is Clock.CPU and not self.cpu_decisions:
            result.details.append("CPU time could not be read here: the limit was checked on the wall clock")
        result.details.append(f"the contest's limit: {limit} ms of {what} a move")
        if charged > limit:
            result.fail(f"the slowest answer took {charged:.1f} ms of {what}, over the limit of {limit} ms")
        elif charged > CLOSE_SHARE * limit:
            result.details.append(f"close to the limit: the slowest answer used {charged / limit:.0%} of it; a "
                                  "slower or busier contest machine may put it over")
        return result
