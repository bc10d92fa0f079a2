"""The ``grading:`` block of an arena file: how a student's standing becomes points for the gradebook.

``Grading`` is the checked block as plain data, with the rule that turns a rank or a rating into
points; ``grading_from`` resolves it from the arena file's data (the schema has checked each value,
this checks what spans keys: a rule's own keys, pairs in rising order). ``grades`` applies it to a
run's standings.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Mapping

from referee.inputs.problems import Path, Problems

#: The keys each rule needs, and the keys only that rule reads.
RULE_KEYS: dict[str, tuple[str, ...]] = {"rank": ("best", "worst"), "rating": ("rating",), "table": ("table", "rest")}
#: How a rank range counts under ``by: rank`` and ``by: table``.
SHARED_RANK = ("best", "mean", "worst", "rank")
SHARED_WORDS = {"best": "its best rank", "mean": "the mean of its ranks' points", "worst": "its worst rank",
                "rank": "the rank of the order"}
#: What a rule looks like, for the error that a key is missing.
EXAMPLES = {"best": "best: 100", "worst": "worst: 60", "rating": "rating: [[1300, 60], [1700, 100]]",
            "table": "table: [[1, 100], [3, 90], [10, 80]]", "rest": "rest: 70"}


@dataclass(frozen=True)
class Grading:
    """A checked ``grading:`` block: the rule (``by``) with its numbers, and what every student's row holds."""

    by: str
    best: float = 0.0
    worst: float = 0.0
    rating: tuple[tuple[float, float], ...] = ()
    table: tuple[tuple[int, float], ...] = ()
    rest: float = 0.0
    shared_rank: str = "best"
    left_out: float = 0.0
    missing: float = 0.0
    """The points of a roster student with no submission at all (``roster:``)."""
    round: float = 1.0
    id_column: str = "student"
    points_column: str = "points"
    details: bool = True

    def rank_points(self, rank: int, field: int) -> float:
        """The points of ``rank`` out of ``field`` ranked bots (``by: rank`` or ``by: table``)."""
        if self.by == "table":
            return next((points for upto, points in self.table if rank <= upto), self.rest)
        if field <= 1:
            return self.best
        return self.best + (self.worst - self.best) * (rank - 1) / (field - 1)

    def rating_points(self, rating: float) -> float:
        """The points of ``rating`` (``by: rating``): a straight line between the pairs, flat beyond them."""
        pairs = self.rating
        if rating <= pairs[0][0]:
            return pairs[0][1]
        for (r0, p0), (r1, p1) in zip(pairs, pairs[1:]):
            if rating <= r1:
                return p0 + (p1 - p0) * (rating - r0) / (r1 - r0)
        return pairs[-1][1]

    def rounded(self, points: float) -> str:
        """``points`` rounded half up to a multiple of ``round``, written with the step's decimals."""
        step = Decimal(str(self.round))
        value = (Decimal(repr(points)) / step).quantize(Decimal(1), rounding=ROUND_HALF_UP) * step
        places = max(0, -int(step.normalize().as_tuple().exponent))
        return f"{value:.{places}f}"

    def summary(self) -> str:
        """The block in one line, for ``lastcard validate``."""
        rule = self.describe(0).replace(" over the 0 ranked", "").replace("rank 0 (the last)", "the last rank")
        shared = f", a rank range counts as {SHARED_WORDS[self.shared_rank]}" if self.by != "rating" else ""
        return (f"{rule}{shared}; left out: {points_text(self.left_out)}; rounded to a multiple of "
                f"{points_text(self.round)}")

    def describe(self, field: int) -> str:
        """The rule in words, for a student's report."""
        if self.by == "rank":
            return (f"by rank over the {field} ranked: rank 1 gets {points_text(self.best)}, rank {field} (the last) "
                    f"gets {points_text(self.worst)}, in a straight line between")
        if self.by == "rating":
            pairs = "; ".join(f"{points_text(r)}: {points_text(p)}" for r, p in self.rating)
            return (f"by rating, in a straight line through these ratings and points ({pairs}); flat below the first "
                    "and above the last")
        rows = "; ".join(f"up to rank {upto}: {points_text(p)}" for upto, p in self.table)
        return f"by a table of ranks ({rows}; below: {points_text(self.rest)})"


def grading_from(section: Mapping[str, Any] | None, problems: Problems) -> Grading | None:
    """The ``grading:`` block (already checked value by value by the schema), or None without one."""
    if not section:
        return None
    by = str(section["by"])
    ok = True
    for rule, keys in RULE_KEYS.items():
        for key in keys:
            if rule != by and key in section and key not in RULE_KEYS[by]:
                problems.add(("grading", key), f"only means something with by: {rule}; this block grades by {by} "
                                               f"(give {_needs(by)}, or by: {rule})")
                ok = False
            if rule == by and key not in section:
                problems.add(("grading", key), f"missing: by: {by} needs {_needs(by)}")
                ok = False
    if "shared_rank" in section and by == "rating":
        problems.add(("grading", "shared_rank"), "only means something by rank or by table: a rating is not a range")
        ok = False
    rating = tuple((float(r), float(p)) for r, p in section.get("rating") or ())
    table = tuple((int(r), float(p)) for r, p in section.get("table") or ())
    ok &= _rising(("grading", "rating"), [r for r, _ in rating], "ratings", problems)
    ok &= _rising(("grading", "table"), [float(r) for r, _ in table], "ranks", problems)
    if not ok:
        return None
    return Grading(by=by, best=float(section.get("best", 0)), worst=float(section.get("worst", 0)), rating=rating,
                   table=table, rest=float(section.get("rest", 0)), shared_rank=str(section.get("shared_rank", "best")),
                   left_out=float(section.get("left_out", 0)), missing=float(section.get("missing", 0)),
                   round=float(section.get("round", 1)),
                   id_column=str(section.get("id_column", "student")),
                   points_column=str(section.get("points_column", "points")),
                   details=bool(section.get("details", True)))


def _rising(path: Path, values: list[float], what: str, problems: Problems) -> bool:
    for i, (a, b) in enumerate(zip(values, values[1:]), 1):
        if b <= a:
            problems.add(path + (i,), f"{points_text(b)} comes after {points_text(a)}; the {what} must rise from pair "
                                      "to pair: list the pairs in rising order, each once")
            return False
    return True


def _needs(by: str) -> str:
    return " and ".join(EXAMPLES[k] for k in RULE_KEYS[by])


def points_text(value: float) -> str:
    """``90`` for 90.0, ``92.5`` for 92.5."""
    return f"{value:g}" if abs(value) < 1e15 else str(value)
