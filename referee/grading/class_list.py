"""The roster and the submissions side by side: whose is each submission, who handed in nothing, and what matches
no one or two (``ClassList``), decided once, before any game.

A submission is matched by the strongest evidence that names exactly one student: the platform's own id
(Canvas's user id against the export's ``ID``, Moodle's participant number against the worksheet's
``Identifier``), then an id or an e-mail (a folder named ``ada@uni.edu``, ``s1234567`` or after a SIS login), then
the name as the platform spells it (Canvas's ``bensonben`` for "Benson, Ben"; Moodle's "Hana Ito"), then a
GitHub Classroom repository's ``assignment-username`` against a login or id. A kind of evidence that names two
students is an ambiguity; two submissions on one student are one too; both stop the arena before any game, each
with its fix. A submission no one matches plays, and is listed (it has no gradebook row); a student no
submission matches gets the grade for missing work.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

from referee.builds.download_names import canvas_slug, plain_name
from referee.grading.roster import Roster, RosterStudent


@dataclass(frozen=True)
class Candidate:
    """An entrant as matching sees it: its bot's name, where it came from, and what identifies its student."""

    bot: str
    shown: str
    keys: tuple[tuple[str, str], ...]
    """``(kind, value)``, strongest first: ``canvas``, ``participant``, ``slug``, ``name``, ``plain``."""


@dataclass(frozen=True)
class Enrolled:
    """A student of the roster and the bot that is theirs (``bot`` None: no submission)."""

    student: RosterStudent
    bot: str | None = None
    by: str = ""
    """The evidence: ``Canvas ID``, ``name``, ..."""
    shown: str = ""


@dataclass(frozen=True)
class ClassList:
    """Every roster student with their submission or none, the submissions on no row, and the ambiguities."""

    roster: Roster
    placed: tuple[Enrolled, ...]
    strangers: tuple[Candidate, ...] = ()
    problems: tuple[str, ...] = ()
    """Ambiguities: each stops the arena before any game (the message holds the fix)."""

    def bot_of(self, bot: str) -> Enrolled | None:
        """The placed student whose bot is ``bot``, or None."""
        return next((p for p in self.placed if p.bot == bot), None)

    def missing(self) -> list[Enrolled]:
        """The students with no submission."""
        return [p for p in self.placed if p.bot is None]

    def lines(self, missing_points: str | None) -> list[str]:
        """What ``validate`` and ``arena`` say: the roster, how its students were matched, who has no submission
        and which submissions are on no row, each with the fix."""
        roster = self.roster
        matched = [p for p in self.placed if p.bot is not None]
        by: dict[str, int] = {}
        for p in matched:
            by[p.by] = by.get(p.by, 0) + 1
        how = ", ".join(f"{n} by {k}" for k, n in sorted(by.items(), key=lambda kv: -kv[1]))
        out = [f"roster {roster.describe()}: {len(matched)} matched to a submission" + (f" ({how})" if how else "")]
        out += [f"matched by {p.by}, check it: {p.shown} is {p.student.described(roster.id_label)}"
                for p in matched if p.by in WEAK]
        gets = (f"gets {missing_points} (grading.missing)" if missing_points is not None
                else "gets no grade (the file has no grading: block)")
        out += [f"no submission: {p.student.described(roster.id_label)} {gets}; if they handed one in, name its "
                "folder after their id or name" for p in self.missing()]
        out += [f"on no roster row: {c.shown} (bot {c.bot}) plays, but has no gradebook row; add the student to "
                f"{roster.path}, name the folder after their {roster.id_label}, or leave it out with exclude"
                for c in self.strangers]
        return out


#: Evidence a teacher should glance at: two people can share a name.
WEAK = ("name",)


def _index(students: Sequence[RosterStudent], values: Callable[[RosterStudent], list[str]]) -> dict[str, list[int]]:
    index: dict[str, list[int]] = {}
    for i, s in enumerate(students):
        for v in {v for v in values(s) if v}:
            index.setdefault(v, []).append(i)
    return index


def _names(s: RosterStudent) -> list[str]:
    """A student's name as compared: as written, and turned round when it is "Last, First"."""
    out = [plain_name(s.name)]
    if "," in s.name:
        last, _, first = s.name.partition(",")
        out.append(plain_name(f"{first} {last}"))
    return out


def _slugs(s: RosterStudent) -> list[str]:
    """The name as Canvas writes it into download names (its sortable "Last, First"), either way round."""
    words = s.name.replace(",", " ").split()
    out = [canvas_slug(s.name)]
    if len(words) > 1 and "," not in s.name:
        out.append(canvas_slug(" ".join(words[-1:] + words[:-1])))
    return out


def _ids(s: RosterStudent) -> list[str]:
    return [v.casefold() for v in (s.id, *(v for _, v in s.ids))]


class _Matcher:
    """The roster's students indexed by each kind of evidence."""

    def __init__(self, roster: Roster) -> None:
        students = roster.students
        self.students = students
        plain = roster.shape == "plain"
        self.by: dict[str, dict[str, list[int]]] = {
            "canvas": _index(students, lambda s: [s.other("canvas")] + ([s.id] if plain else [])),
            "participant": _index(students, lambda s: [s.other("participant")] + ([s.id] if plain else [])),
            "id": _index(students, _ids),
            "email": _index(students, lambda s: [s.email.casefold()]),
            "name": _index(students, _names),
            "slug": _index(students, _slugs),
            "login": _index(students, lambda s: [v.casefold() for v in (s.other("login"), s.other("sis_login"),
                                                                        s.id)]),
        }

    def find(self, candidate: Candidate) -> tuple[str, list[int]]:
        """The evidence that decided and the students it names (one: matched; two or more: ambiguous)."""
        for kind, value in candidate.keys:
            for label, index, key in self._tries(kind, value):
                found = index.get(key, [])
                if found:
                    return label, sorted(set(found))
        return "", []

    def _tries(self, kind: str, value: str) -> list[tuple[str, dict[str, list[int]], str]]:
        by = self.by
        if kind == "canvas":
            return [("Canvas ID", by["canvas"], value)]
        if kind == "participant":
            return [("Moodle participant", by["participant"], value)]
        if kind == "slug":
            return [("name", by["slug"], value)]
        if kind == "name":
            return [("name", by["name"], plain_name(value))]
        folded = value.casefold()
        tries = [("id", by["id"], folded), ("e-mail", by["email"], folded), ("name", by["name"], plain_name(value)),
                 ("name", by["slug"], canvas_slug(value))]
        # GitHub Classroom: assignment-username, the assignment's name itself perhaps hyphenated: each tail.
        tails = [folded[i + 1:] for i, c in enumerate(folded) if c == "-"]
        tries += [("GitHub Classroom name", by["login"], tail) for tail in tails]
        return tries


def match_class(roster: Roster, candidates: Sequence[Candidate]) -> ClassList:
    """Each candidate matched to the roster's students (see the module's docstring)."""
    matcher = _Matcher(roster)
    problems: list[str] = []
    strangers: list[Candidate] = []
    taken: dict[int, tuple[Candidate, str]] = {}
    label = roster.id_label
    for c in candidates:
        by, found = matcher.find(c)
        if not found:
            strangers.append(c)
        elif len(found) > 1:
            who = " and ".join(roster.students[i].described(label) for i in found)
            problems.append(f"{c.shown} matches {len(found)} students of {roster.path} by {by}: {who}; name the folder "
                            f"after one student's {label}, or give them distinct names in the roster")
        elif found[0] in taken:
            other, _ = taken[found[0]]
            problems.append(f"{other.shown} and {c.shown} both match {roster.students[found[0]].described(label)} "
                            f"of {roster.path}; keep one submission per student (remove or exclude the other), or "
                            "name each folder after its student's id")
        else:
            taken[found[0]] = (c, by)
    placed = tuple(Enrolled(s, taken[i][0].bot, taken[i][1], taken[i][0].shown) if i in taken else Enrolled(s)
                   for i, s in enumerate(roster.students))
    return ClassList(roster, placed, tuple(strangers), tuple(problems))
