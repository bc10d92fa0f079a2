"""The names course platforms give the files and folders of an assignment's download, read back: whose it is.

As each platform writes them (read from their sources, issue 48):

- **Canvas** ("Download Submissions"): ``{name}_{userid}_{attachmentid}_{file}``, where ``name`` is the student's
  sortable name ("Benson, Ben") lower-cased with everything but letters, digits and ``_`` removed (``bensonben``),
  ``LATE`` joins the parts before the user id when the submission was late (``bensonben_LATE_4411_99812_bot.py``),
  an anonymous assignment writes ``anon_{id}`` for the user id and no name, and a text entry or a URL is
  ``{name}_{userid}_text.html`` / ``_link.html``. The attachment id grows with each upload: the higher is the later.
- **Moodle** ("Download all submissions"): ``{Full Name}_{participant}_assignsubmission_{plugin}_`` as a folder
  holding the student's files, or as the prefix of each file when downloaded flat; the number is the
  participant identifier of the assignment's grading worksheet ("Participant 205"); blind marking writes
  ``Participant`` for the name, a team assignment ``{Group}-{Full Name}``.
- **GitHub Classroom**: a repository per student named ``{assignment}-{username}`` (a folder once cloned); the
  assignment's name may hold hyphens too, so the username is found against the roster (``grading/class_list``).

Anything else is a plain name: a folder or file named after the student. Pure functions of a name.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

#: Canvas: an optional LATE, the user id (or anon_ID), the attachment id, the file's own name.
CANVAS = re.compile(r"^(?:(?P<name>.*?)_)?(?P<late>LATE_)?(?P<uid>\d+|anon_[A-Za-z0-9]+)_(?P<att>\d+)_(?P<file>.+)$")
CANVAS_LEAD_LATE = re.compile(r"^LATE_(?P<rest>.+)$")
CANVAS_TEXT = re.compile(r"^(?:(?P<name>.*?)_)?(?P<late>LATE_)?(?P<uid>\d+|anon_[A-Za-z0-9]+)_(?P<file>text\.html|"
                         r"link\.html)$")
#: Moodle: the full name, the participant number, the plugin, then the file's name (flat) or nothing (a folder).
MOODLE = re.compile(r"^(?P<name>.+?)_(?P<num>\d+)_assign(?:submission|feedback)_(?P<plugin>[a-z0-9]+)_(?P<file>.*)$")


@dataclass(frozen=True)
class DownloadName:
    """What a download's file or folder name says: the platform, whose it is, and the file's own name."""

    platform: str
    """``canvas``, ``moodle`` or ``plain``."""
    student: str
    """The platform's id of the student: Canvas's user id, Moodle's participant number; the name for ``plain``."""
    name: str
    """The student's name as the download spells it (``bensonben``, ``Hana Ito``; ``plain``: the whole name)."""
    file: str
    """The file's own name, the platform's prefix taken off ("" for a Moodle folder, whose files are inside)."""
    late: bool = False
    """Canvas marked the submission LATE."""
    order: int = 0
    """Canvas's attachment id: the higher, the later uploaded (0 where the platform gives none)."""

    @property
    def key(self) -> str:
        """One key per student of one platform: a student's files share it."""
        return f"{self.platform}:{self.student}"


def read_name(name: str) -> DownloadName:
    """Whose the file or folder ``name`` (its base name) is, as its platform wrote it."""
    late = False
    rest = name
    lead = CANVAS_LEAD_LATE.match(name)
    if lead is not None and (CANVAS.match(lead["rest"]) or CANVAS_TEXT.match(lead["rest"])):
        late, rest = True, lead["rest"]
    for pattern in (CANVAS, CANVAS_TEXT):
        found = pattern.match(rest)
        if found is not None:
            order = int(found.groupdict().get("att") or 0)
            who = found["name"] or ""
            return DownloadName("canvas", found["uid"], who or found["uid"], found["file"],
                                late or bool(found["late"]), order)
    found = MOODLE.match(name)
    if found is not None:
        return DownloadName("moodle", found["num"], found["name"].strip(), found["file"])
    return DownloadName("plain", name, name, name)


def canvas_slug(name: str) -> str:
    """A name as Canvas writes it into download names: lower case, only letters, digits and ``_`` kept
    (``Benson, Ben`` -> ``bensonben``, ``Martin, Zoé`` -> ``martinzoé``)."""
    return re.sub(r"\W", "", unicodedata.normalize("NFC", name)).lower()


def plain_name(name: str) -> str:
    """A name as two spellings of it compare: case, accents' composition and runs of spaces set aside."""
    return " ".join(unicodedata.normalize("NFC", name).casefold().split())
