"""A student's zip or tar from a course platform's download, unpacked into that student's folder, or refused whole.

Students' archives are handed in by people the referee does not trust, so each member is checked before anything
is written, with our own checks on every Python from 3.11.0 (tarfile's extraction filters arrived in 3.11.4, and
zipfile has none):

- its path stays inside the folder: an absolute path, a drive (``C:``) or a ``..`` is refused (zip-slip);
  a backslash is read as the folder separator it is in archives made on Windows;
- no links of either kind and no devices, FIFOs or sockets: a bot's sources need none, and a link is how an
  archive writes or reads outside its folder;
- no password-protected members, no name twice, nothing deeper than ``ARCHIVE_DEPTH`` folders;
- at most ``ARCHIVE_MEMBERS`` members and ``ARCHIVE_UNPACKED`` bytes in all, the bytes counted as they are
  written, so an archive whose headers understate its sizes (a zip bomb) stops at the cap as well;
- the archive file itself at most ``ARCHIVE.max_bytes``, looked at before it is opened.

A refusal is an ``ArchiveRefused`` naming the member and the reason; the caller unpacks into a fresh folder and
removes it on refusal, so nothing is half-written. macOS's ``__MACOSX/`` forks and ``.DS_Store`` files are not a
submission's: they are skipped, and listed. An archive holding one folder (a student zipped ``ada/``) has that
folder's content unpacked, so the bot's files land at the top, where its language is recognised.
"""

from __future__ import annotations

import os
import shutil
import stat
import tarfile
import zipfile
from dataclasses import dataclass
from typing import IO, Iterator

from referee.inputs.kinds import ARCHIVE, ARCHIVE_DEPTH, ARCHIVE_MEMBERS, ARCHIVE_UNPACKED, size_text

#: The endings of the archives unpacked, longest first (``.tar.gz`` before ``.gz`` would be tried).
TAR_SUFFIXES = (".tar.gz", ".tar.bz2", ".tar.xz", ".tgz", ".tbz2", ".txz", ".tar")
ZIP_SUFFIXES = (".zip",)
#: What an archive made on a Mac or Windows carries beside the files: never a submission's.
JUNK_FOLDERS = ("__MACOSX",)
JUNK_FILES = (".DS_Store", "Thumbs.db", "desktop.ini")
#: Bytes copied at a time (the cap is checked after each).
CHUNK = 1 << 16


class ArchiveRefused(Exception):
    """An archive not unpacked, and why (the member and the rule it breaks)."""


@dataclass(frozen=True)
class Member:
    """One member as the checks see it, whatever the archive's format."""

    name: str
    """As the archive spells it (for messages)."""
    parts: tuple[str, ...]
    """Its path inside the folder, checked."""
    kind: str
    """``file`` or ``folder`` (a link or device never gets this far)."""
    size: int
    executable: bool = False


@dataclass(frozen=True)
class Unpacked:
    """What ``unpack`` wrote: the files and bytes, the members skipped (with why) and a top folder lifted."""

    files: int
    bytes: int
    skipped: tuple[str, ...] = ()
    lifted: str = ""
    """The archive's one top folder whose content was unpacked (``ada/``), or ""."""


def archive_format(path: str) -> str | None:
    """``zip`` or ``tar`` for a file whose name ends as an archive's does, else None."""
    lower = path.lower()
    if lower.endswith(ZIP_SUFFIXES):
        return "zip"
    if lower.endswith(TAR_SUFFIXES):
        return "tar"
    return None


def archive_stem(name: str) -> str:
    """``bot`` for ``bot.tar.gz`` or ``bot.zip``: the name without the archive's ending."""
    lower = name.lower()
    for suffix in ZIP_SUFFIXES + TAR_SUFFIXES:
        if lower.endswith(suffix):
            return name[:-len(suffix)]
    return name


def unpack(path: str, dest: str) -> Unpacked:
    """Unpack the archive ``path`` into the existing, empty folder ``dest``; ``ArchiveRefused`` (with ``dest`` left
    for the caller to remove) when a rule above is broken."""
    fmt = archive_format(path)
    size = os.path.getsize(path)
    if size > ARCHIVE.max_bytes:
        raise ArchiveRefused(f"the archive is {size_text(size)}, over the {size_text(ARCHIVE.max_bytes)} "
                             f"{ARCHIVE.name}s may be, far more than {ARCHIVE.real}")
    if fmt == "zip":
        return _unpack_zip(path, dest)
    if fmt == "tar":
        return _unpack_tar(path, dest)
    raise ArchiveRefused("not an archive this referee unpacks (zip, tar, tar.gz, tar.bz2, tar.xz)")


def _checked_parts(name: str) -> tuple[str, ...]:
    """The path of a member named ``name`` inside the folder, or ``ArchiveRefused`` when it would leave it."""
    text = name.replace("\\", "/")
    if text.startswith("/") or (len(text) > 1 and text[1] == ":"):
        raise ArchiveRefused(f"{name!r} is an absolute path, which would be written outside the student's folder "
                             "(zip-slip); the archive must hold paths relative to its own folder")
    parts = tuple(p for p in text.split("/") if p not in ("", "."))
    if ".." in parts:
        raise ArchiveRefused(f"{name!r} climbs out of the student's folder with '..' (zip-slip); the archive must hold "
                             "paths inside its own folder")
    if len(parts) > ARCHIVE_DEPTH:
        raise ArchiveRefused(f"{name!r} lies {len(parts)} folders deep, more than the {ARCHIVE_DEPTH} a bot's sources "
                             "need")
    return parts


def _special(name: str, mode: int) -> str | None:
    """Why a member of file type ``mode`` (``st_mode`` bits) is refused, or None for a file or folder."""
    if stat.S_ISLNK(mode):
        return (f"{name!r} is a symbolic link; links are not unpacked (a link can reach outside the student's "
                "folder): the archive must hold the files themselves")
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return f"{name!r} is a device file, which no bot's sources hold"
    if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode):
        return f"{name!r} is a FIFO or a socket, which no bot's sources hold"
    return None


def _junk(parts: tuple[str, ...]) -> bool:
    return bool(parts) and (parts[0] in JUNK_FOLDERS or parts[-1] in JUNK_FILES)


def _zip_members(zf: zipfile.ZipFile) -> Iterator[tuple[Member, zipfile.ZipInfo]]:
    for info in zf.infolist():
        parts = _checked_parts(info.filename)
        mode = info.external_attr >> 16 if info.create_system == 3 else 0  # 3: made on Unix, the mode is there
        if mode and (problem := _special(info.filename, mode)):
            raise ArchiveRefused(problem)
        if info.flag_bits & 0x1:
            raise ArchiveRefused(f"{info.filename!r} is password-protected; the archive must be unencrypted")
        kind = "folder" if info.is_dir() else "file"
        yield Member(info.filename, parts, kind, info.file_size, bool(mode & stat.S_IXUSR)), info


def _unpack_zip(path: str, dest: str) -> Unpacked:
    try:
        zf = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError, EOFError, ValueError) as exc:
        raise ArchiveRefused(f"not a readable zip archive ({exc}); ask for the archive again") from None
    with zf:
        if len(zf.infolist()) > ARCHIVE_MEMBERS:
            raise ArchiveRefused(f"the archive holds {len(zf.infolist()):,} members, more than the "
                                 f"{ARCHIVE_MEMBERS:,} a bot's sources need")
        members = list(_zip_members(zf))
        declared = sum(m.size for m, _ in members)
        if declared > ARCHIVE_UNPACKED:
            raise ArchiveRefused(_too_big(declared))
        writer = _Writer(dest, [m for m, _ in members])
        for member, info in members:
            if writer.wants(member):
                try:
                    with zf.open(info) as src:
                        writer.write(member, src)
                except (zipfile.BadZipFile, OSError, EOFError, ValueError) as exc:  # a CRC or a header that lies
                    raise ArchiveRefused(f"{member.name!r} cannot be read ({exc}); ask for the archive again") from None
        return writer.done()


def _tar_member(info: tarfile.TarInfo) -> Member:
    parts = _checked_parts(info.name)
    if info.issym() or info.islnk():
        raise ArchiveRefused(f"{info.name!r} is a {'symbolic' if info.issym() else 'hard'} link (to "
                             f"{info.linkname!r}); links are not unpacked (a link can reach outside the student's "
                             "folder): the archive must hold the files themselves")
    if info.ischr() or info.isblk():
        raise ArchiveRefused(f"{info.name!r} is a device file, which no bot's sources hold")
    if not (info.isreg() or info.isdir()):
        raise ArchiveRefused(f"{info.name!r} is a FIFO or another special file, which no bot's sources hold")
    kind = "folder" if info.isdir() else "file"
    return Member(info.name, parts, kind, info.size, bool(info.mode & stat.S_IXUSR))


def _unpack_tar(path: str, dest: str) -> Unpacked:
    try:
        tar = tarfile.open(path, "r:*")
    except (tarfile.TarError, OSError, EOFError) as exc:
        raise ArchiveRefused(f"not a readable tar archive ({exc}); ask for the archive again") from None
    with tar:
        # Every header is checked, and the sizes added up, before any byte is written: a tar's sizes are its data.
        members: list[tuple[Member, tarfile.TarInfo]] = []
        declared = 0
        try:
            for info in tar:
                if len(members) >= ARCHIVE_MEMBERS:
                    raise ArchiveRefused(f"the archive holds more than the {ARCHIVE_MEMBERS:,} members a bot's "
                                         "sources need")
                member = _tar_member(info)
                declared += member.size
                if declared > ARCHIVE_UNPACKED:
                    raise ArchiveRefused(_too_big(declared))
                members.append((member, info))
            writer = _Writer(dest, [m for m, _ in members])
            for member, info in members:
                if writer.wants(member):
                    src = tar.extractfile(info)
                    if src is not None:
                        with src:
                            writer.write(member, src)
        except (tarfile.TarError, OSError, EOFError) as exc:
            raise ArchiveRefused(f"the archive cannot be read to its end ({exc}); ask for the archive again") from None
        return writer.done()


def _too_big(size: int) -> str:
    return (f"the archive unpacks to {size_text(size)} or more, over the {size_text(ARCHIVE_UNPACKED)} a submission "
            "may unpack to (a zip bomb, or a folder of data the bot does not need)")


class _Writer:
    """Writes checked members under ``dest``: junk skipped, a lone top folder lifted, the bytes counted."""

    def __init__(self, dest: str, members: list[Member]) -> None:
        self.dest = dest
        kept = [m for m in members if not _junk(m.parts) and m.parts]
        tops = {m.parts[0] for m in kept}
        lone = len(tops) == 1 and any(len(m.parts) > 1 for m in kept) \
            and all(len(m.parts) > 1 or m.kind == "folder" for m in kept)
        self.lift = 1 if lone else 0
        self.lifted = f"{next(iter(tops))}/" if lone else ""
        self.skipped = tuple(sorted({f"{m.parts[0]}/" if m.parts[0] in JUNK_FOLDERS else m.name
                                     for m in members if _junk(m.parts)}))
        self.seen: set[tuple[str, ...]] = set()
        self.files = 0
        self.bytes = 0

    def wants(self, member: Member) -> bool:
        """Whether ``member`` is written (not junk, not the lifted folder itself); a name twice is refused."""
        if _junk(member.parts) or len(member.parts) <= self.lift:
            return False
        parts = member.parts[self.lift:]
        if parts in self.seen and member.kind == "file":
            raise ArchiveRefused(f"the archive holds {member.name!r} twice; which one is the submission's cannot be "
                                 "told: ask for the archive again")
        self.seen.add(parts)
        if member.kind == "folder":
            self._mkdir(member, parts)
            return False
        return True

    def _mkdir(self, member: Member, parts: tuple[str, ...]) -> None:
        try:
            os.makedirs(os.path.join(self.dest, *parts), mode=0o755, exist_ok=True)
        except OSError:
            raise ArchiveRefused(f"{member.name!r} is a folder where the archive also holds a file") from None

    def write(self, member: Member, src: IO[bytes]) -> None:
        """Copy ``member``'s bytes from ``src``, counting them against the cap."""
        parts = member.parts[self.lift:]
        if len(parts) > 1:
            self._mkdir(member, parts[:-1])
        target = os.path.join(self.dest, *parts)
        try:
            out = open(target, "xb")  # never through anything already there: a name twice was refused above
        except OSError:
            raise ArchiveRefused(f"{member.name!r} is a file where the archive also holds a folder") from None
        with out:
            while chunk := src.read(CHUNK):
                self.bytes += len(chunk)
                if self.bytes > ARCHIVE_UNPACKED:
                    raise ArchiveRefused(_too_big(self.bytes))
                out.write(chunk)
        os.chmod(target, 0o755 if member.executable else 0o644)
        self.files += 1

    def done(self) -> Unpacked:
        return Unpacked(self.files, self.bytes, self.skipped, self.lifted)


def remove(folder: str) -> None:
    """Remove a folder an archive was (partly) unpacked into: nothing half-written stays."""
    shutil.rmtree(folder, ignore_errors=True)
