"""A course platform's download, as unzipped, made into one folder per student: the submissions as they arrive.

``arrange`` takes what a ``submissions.path`` pattern matched and gives one ``Arrival`` per student:

- a plain folder is the student's folder, as before (unless it holds no bot but an archive: then it is unpacked);
- a plain zip or tar (``ada.zip``) is unpacked into a folder of its own (``builds/archives``: checked, capped);
- the files and folders a platform named (``builds/download_names``) are grouped by student into one folder,
  the platform's prefix taken off each file's name (``bensonben_4411_99812_bot.py`` -> ``bot.py``), each archive
  among them unpacked there;
- with several submissions of one name from one student (two ``bot.zip``, two ``bot.py``), the latest counts (the
  higher Canvas attachment id, else the newer file) and the others are listed as skipped, with why; a file that
  two of a student's files both give is taken from the later, and that is said.

The folders made are kept under a key of what they were made from (``LASTCARD_UNPACK_DIR``, else the user's cache:
``~/.cache/lastcard/downloads``), so ``validate``, ``arena`` and a ladder run find the same folder, never rebuilt
while the download is unchanged; a folder is made in a scratch folder and renamed into place whole, so nothing is
half-written, and an archive refused leaves nothing behind (the student is left out with the reason).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import stat
import tempfile
from dataclasses import dataclass, field, replace
from typing import Callable, Sequence

from referee.builds.archives import ArchiveRefused, archive_format, archive_stem, remove, unpack
from referee.builds.cache import TooBig, folder_digest
from referee.builds.download_names import DownloadName, canvas_slug, read_name

#: Where the folders made from downloads are kept unless this says otherwise.
ENV_VAR = "LASTCARD_UNPACK_DIR"
#: Bumped when a made folder's recipe changes (old ones are then never found).
LAYOUT = 1
#: The most a student's download (files and folders together) may weigh before it is read to be hashed.
MAX_SOURCE = 256 << 20
PLATFORM_NAMES = {"canvas": "Canvas", "moodle": "Moodle", "plain": "named folders and files"}


@dataclass(frozen=True)
class Skipped:
    """A file or folder of the download that is not part of any submission, and why."""

    shown: str
    why: str


@dataclass(frozen=True)
class Arrival:
    """One student's submission as it arrived, and the folder (or file) made of it that the arena runs."""

    label: DownloadName
    """Whose it is, as the download's names say (the first of the student's entries)."""
    name: str
    """The bot's name: the student's name as the download spells it (``bensonben``, ``Hana Ito``, ``ada``)."""
    student: str
    """The id a gradebook knows the student by without a roster: Canvas's user id, Moodle's worksheet identifier
    (``Participant 205``), a plain folder's name."""
    sources: tuple[str, ...]
    """The download's entries it was made of, as the arena file's folder shows them, oldest first."""
    path: str
    """What runs: the student's own folder or file, or the folder made (``""`` when refused)."""
    late: bool = False
    notes: tuple[str, ...] = ()
    """What was done to it: grouped, unpacked, the latest of several counting."""
    skipped: tuple[Skipped, ...] = ()
    problem: str | None = None
    """Why it cannot play (an archive refused): the student is left out with this reason."""

    @property
    def shown(self) -> str:
        """Its entries in one phrase: ``download/x.py`` or ``download/x.py and 2 more``."""
        more = len(self.sources) - 1
        return self.sources[0] + (f" and {more} more" if more else "")

    @property
    def keys(self) -> tuple[tuple[str, str], ...]:
        """What identifies the student to a roster, strongest first: the platform's id, then the name."""
        label = self.label
        if label.platform == "canvas":
            return (("canvas", label.student), ("slug", label.name))
        if label.platform == "moodle":
            return (("participant", label.student), ("name", label.name))
        return (("plain", self.name),)


@dataclass(frozen=True)
class Intake:
    """What a ``submissions.path`` pattern matched, made into arrivals, with everything not used listed."""

    arrivals: tuple[Arrival, ...]
    skipped: tuple[Skipped, ...] = ()
    platforms: tuple[str, ...] = ()
    """The platforms whose names the download holds (``canvas``, ``moodle``, ``plain``)."""

    def lines(self) -> list[str]:
        """What ``validate`` says about it: per student what was done, then every entry skipped with why."""
        out = []
        for a in self.arrivals:
            said = list(a.notes) + (["Canvas marked it LATE"] if a.late else [])
            if said:
                out.append(f"{a.name}: " + "; ".join(said))
            out.extend(f"skipped {s.shown}: {s.why}" for s in a.skipped)
        out.extend(f"skipped {s.shown}: {s.why}" for s in self.skipped)
        return out


def unpack_root() -> str:
    """The folder the made folders live in (made if missing)."""
    path = os.environ.get(ENV_VAR) or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "lastcard", "downloads")
    os.makedirs(path, mode=0o755, exist_ok=True)
    return os.path.realpath(path)


def arrange(matches: Sequence[str], base_dir: str, runnable: Callable[[str], bool]) -> Intake:
    """One arrival per student among ``matches`` (absolute paths, sorted); ``runnable(folder)`` says whether a
    folder holds a bot as it is (then it is used as it is)."""
    groups: dict[str, list[tuple[str, DownloadName]]] = {}
    skipped = []
    for path in matches:
        label = read_name(os.path.basename(path.rstrip(os.sep)))
        if label.platform != "plain" and os.path.islink(path.rstrip(os.sep)):
            skipped.append(Skipped(_shown(path, base_dir), "a link: only files and folders are taken from a "
                                                           "platform's download"))
            continue
        key = label.key if label.platform != "plain" else f"plain:{path}"
        groups.setdefault(key, []).append((path, label))
    arrivals = []
    for members in groups.values():
        label = members[0][1]
        if label.platform == "plain":
            arrivals.append(_plain(members[0][0], label, base_dir, runnable))
        else:
            arrivals.append(_grouped(members, base_dir, runnable))
    platforms = tuple(sorted({a.label.platform for a in arrivals}))
    return Intake(tuple(_distinct_names(arrivals)), tuple(skipped), platforms)


def _distinct_names(arrivals: list[Arrival]) -> list[Arrival]:
    """Two students a platform spells alike (two ``kimjun``) are told apart by their platform id."""
    count: dict[str, int] = {}
    for a in arrivals:
        count[a.name] = count.get(a.name, 0) + 1
    out = []
    for a in arrivals:
        if count[a.name] > 1 and a.label.platform != "plain":
            a = replace(a, name=f"{a.name} ({a.label.student})")
        out.append(a)
    return out


def _shown(path: str, base_dir: str) -> str:
    rel = os.path.relpath(path, base_dir)
    return path if rel.startswith("..") else rel


def _plain(path: str, label: DownloadName, base_dir: str, runnable: Callable[[str], bool]) -> Arrival:
    """A folder or file named after the student: used as it is, unless it is an archive (or a folder holding
    only archives), which is unpacked into a folder made for it."""
    shown = _shown(path, base_dir)
    base = os.path.basename(path.rstrip(os.sep))
    if os.path.isdir(path):
        archives = _top_archives(path)
        if not archives or runnable(path):
            return Arrival(label, base, base, (shown,), path)
        return _made(label, base, base, [(path, label)], base_dir, runnable)
    if archive_format(path) is not None:
        stem = archive_stem(base)
        return _made(label, stem, stem, [(path, label)], base_dir, runnable)
    stem = os.path.splitext(base)[0]
    return Arrival(label, stem, stem, (shown,), path)


def _top_archives(folder: str) -> list[str]:
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    return [n for n in names if archive_format(n) is not None
            and stat.S_ISREG(os.lstat(os.path.join(folder, n)).st_mode)]  # a link to an archive is no archive


def _grouped(members: list[tuple[str, DownloadName]], base_dir: str, runnable: Callable[[str], bool]) -> Arrival:
    """A student's files and folders as a platform named them: one folder made of them all."""
    label = members[0][1]
    student = f"Participant {label.student}" if label.platform == "moodle" else label.student
    return _made(label, label.name, student, members, base_dir, runnable)


@dataclass
class _Plan:
    """The sources of one made folder, the latest of each name kept, and what was said about them."""

    kept: list[tuple[str, DownloadName]] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def _age(item: tuple[str, DownloadName]) -> tuple[int, int, str]:
    path, label = item
    try:
        mtime = os.lstat(path).st_mtime_ns
    except OSError:
        mtime = 0
    return (label.order, mtime, path)


def _plan(members: list[tuple[str, DownloadName]], base_dir: str) -> _Plan:
    """Oldest first; of several entries that give one name (two ``bot.zip``), only the latest is kept."""
    plan = _Plan()
    ordered = sorted(members, key=_age)
    last: dict[str, tuple[str, DownloadName]] = {}
    for item in ordered:
        path, label = item
        if label.file:  # a Moodle folder has no name of its own: its files are compared as they are copied
            last[label.file.lower()] = item
    for item in ordered:
        path, label = item
        latest = last.get(label.file.lower()) if label.file else item
        if latest is not None and latest is not item:
            plan.skipped.append(Skipped(_shown(path, base_dir), f"an earlier submission of {label.file!r}; the "
                                        f"latest, {_shown(latest[0], base_dir)}, counts"))
            continue
        plan.kept.append(item)
    if plan.skipped:
        plan.notes.append(f"{len(plan.skipped) + len(plan.kept)} entries, {len(plan.skipped)} of them earlier "
                          "submissions of a name handed in again: the latest of each counts")
    return plan


def _digest(items: list[tuple[str, DownloadName]]) -> str:
    """The key of a made folder: its recipe and every source's name and content."""
    parts = []
    for path, label in items:
        content, _ = folder_digest(path, MAX_SOURCE)
        parts.append([os.path.basename(path.rstrip(os.sep)), label.file, content])
    recipe = {"layout": LAYOUT, "sources": parts}
    return hashlib.sha256(json.dumps(recipe).encode("utf-8", "surrogateescape")).hexdigest()[:16]


def _made(label: DownloadName, name: str, student: str, members: list[tuple[str, DownloadName]], base_dir: str,
          runnable: Callable[[str], bool]) -> Arrival:
    """The arrival of a folder made from ``members``: found under its key, or made now."""
    plan = _plan(members, base_dir) if label.platform != "plain" else _Plan(kept=list(members))
    sources = tuple(_shown(p, base_dir) for p, _ in sorted(members, key=_age))
    late = any(lb.late for _, lb in plan.kept)
    base = Arrival(label, name, student, sources, "", late, tuple(plan.notes), tuple(plan.skipped))
    try:
        key = _digest(plan.kept)
    except (TooBig, OSError) as exc:
        why = f"over {MAX_SOURCE >> 20} MiB" if isinstance(exc, TooBig) else f"cannot be read: {exc}"
        return replace(base, problem=f"{base.shown}: {why}")
    root = unpack_root()
    folder = os.path.join(root, f"{canvas_slug(name)[:40] or 'student'}-{key}")
    if not os.path.isdir(folder):
        problem = _make(folder, plan.kept, base_dir, runnable)
        if problem is not None:
            return replace(base, problem=problem)
    said, skipped = _read_notes(folder + NOTES)
    return replace(base, path=folder, notes=base.notes + said, skipped=base.skipped + skipped)


#: Beside each made folder: what making it said, so a run that finds the folder made says the same.
NOTES = ".notes.json"


def _make(folder: str, kept: list[tuple[str, DownloadName]], base_dir: str, runnable: Callable[[str], bool]
          ) -> str | None:
    """Make ``folder`` whole (in a scratch folder renamed into place) from ``kept``; why not, or None."""
    root = os.path.dirname(folder)
    scratch = tempfile.mkdtemp(prefix=".making-", dir=root)
    try:
        said, skipped = _fill(scratch, kept, base_dir, runnable)
    except ArchiveRefused as exc:
        remove(scratch)
        return str(exc.args[0])
    except OSError as exc:
        remove(scratch)
        return f"the download's files cannot be copied: {exc}"
    notes = scratch + NOTES
    with open(notes, "w", encoding="utf-8") as fh:
        json.dump({"notes": said, "skipped": [[s.shown, s.why] for s in skipped]}, fh)
    os.replace(notes, folder + NOTES)
    try:
        os.rename(scratch, folder)
    except OSError:  # another run made it meanwhile: the same folder, from the same files
        remove(scratch)
    return None


def _read_notes(path: str) -> tuple[tuple[str, ...], tuple[Skipped, ...]]:
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
        return (tuple(str(n) for n in data["notes"]),
                tuple(Skipped(str(s), str(w)) for s, w in data["skipped"]))
    except (OSError, ValueError, KeyError, TypeError):
        return (), ()


def _fill(folder: str, kept: list[tuple[str, DownloadName]], base_dir: str, runnable: Callable[[str], bool]
          ) -> tuple[list[str], list[Skipped]]:
    """Copy and unpack ``kept`` into ``folder``, oldest first (a later file replaces an earlier one of its path,
    and that is said); what was done, and what was skipped inside them."""
    said: list[str] = []
    skipped: list[Skipped] = []
    origin: dict[str, str] = {}
    for path, label in kept:
        shown = _shown(path, base_dir)
        if os.path.isdir(path):
            written = _copy_folder(path, folder, shown, skipped)
            if not runnable(path):  # a folder holding no bot as it is: its archives are the submission
                for name in _top_archives(path):
                    os.unlink(os.path.join(folder, name))
                    written.remove(name)
                    written += _unpack_into(os.path.join(path, name), folder, f"{shown}/{name}", said, skipped)
        elif archive_format(path) is not None:
            written = _unpack_into(path, folder, shown, said, skipped)
        else:
            target = label.file if label.platform != "plain" else os.path.basename(path)
            _copy_file(path, os.path.join(folder, target))
            written = [target]
        for rel in written:
            if rel in origin and origin[rel] != shown:
                said.append(f"{rel} is in {origin[rel]} and in {shown}: the later, {shown}, counts")
            origin[rel] = shown
    return said, skipped


def _unpack_into(path: str, folder: str, shown: str, said: list[str], skipped: list[Skipped]) -> list[str]:
    """Unpack the archive ``path`` beside what ``folder`` holds; the paths it wrote."""
    scratch = tempfile.mkdtemp(prefix=".archive-", dir=os.path.dirname(folder))
    try:
        try:
            done = unpack(path, scratch)
        except ArchiveRefused as exc:
            raise ArchiveRefused(f"{shown}: {exc.args[0]}; nothing of it was unpacked: ask the student to hand it "
                                 "in again as a plain zip of the bot's files") from None
        lifted = f", its one folder {done.lifted!r} as the submission's folder" if done.lifted else ""
        said.append(f"unpacked {shown}: {done.files} file{'s' if done.files != 1 else ''}{lifted}")
        skipped.extend(Skipped(f"{shown}: {m}", "not a submission's (what macOS or Windows add to an archive)")
                       for m in done.skipped)
        return _copy_folder(scratch, folder, shown, [])
    finally:
        remove(scratch)


def _copy_file(src: str, dest: str) -> None:
    """Copy the regular file ``src`` (never a link: the callers took only files) to ``dest``, replacing it."""
    mode = os.lstat(src).st_mode
    if not stat.S_ISREG(mode):
        raise OSError(f"{src!r} is not a regular file")
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    if os.path.lexists(dest):
        os.unlink(dest)
    shutil.copyfile(src, dest, follow_symlinks=False)
    os.chmod(dest, 0o755 if mode & stat.S_IXUSR else 0o644)


def _copy_folder(src: str, dest: str, shown: str, skipped: list[Skipped]) -> list[str]:
    """Copy the files and folders of ``src`` into ``dest`` (never a link or a device: those are listed as
    skipped); the relative paths of the files written."""
    written = []
    for root, dirs, files in os.walk(src):
        dirs.sort()
        for name in sorted(dirs + files):
            path = os.path.join(root, name)
            rel = os.path.relpath(path, src)
            mode = os.lstat(path).st_mode
            if stat.S_ISDIR(mode):
                os.makedirs(os.path.join(dest, rel), exist_ok=True)
            elif stat.S_ISREG(mode):
                _copy_file(path, os.path.join(dest, rel))
                written.append(rel)
            else:
                skipped.append(Skipped(f"{shown}/{rel}", "a link or a special file: only files and folders are "
                                                         "taken from a download"))
        dirs[:] = [d for d in dirs if not os.path.islink(os.path.join(root, d))]
    return written
