"""Unpacking a tar the referee did not write itself: the one definition of a safe member, on every Python.

Two tars come from elsewhere: a build's folder packed inside its sandbox (``walled``: the student's build
controls every byte of it) and the bundle of bot folders a cluster worker unpacks (``shipping``). Both go
through ``extract``, which checks each member with ``safe_member`` just before it is written, so the links
an earlier member left are seen by the later ones.

A safe member, as tarfile's ``data`` filter (Python 3.11.4 and later, PEP 706) defines it, made stricter
where that was cheap, and written here so Python 3.11.0 to 3.11.3 (Debian 12's is 3.11.2) make the same
checks rather than none:

- its name stays inside the folder: a leading ``/`` is dropped, a ``..`` is refused;
- nothing is written through a link: no folder on its way, and not the path itself, may be a symbolic
  link already unpacked (the ``data`` filter checks the same with ``realpath``);
- a hard link's target obeys the same two rules and is a file unpacked before it; a symbolic link may
  point anywhere (the bot follows it only inside its own walls, where the rest of the machine is
  read-only or absent);
- no device files, FIFOs or other special files;
- no setuid, setgid or sticky bits, nothing writable by group or others; a file is readable and
  writable by its owner (the referee), executable by others only if by its owner; a folder is open to its
  owner (the ``data`` filter leaves a folder's mode to the umask; here it is the tar's, the same on every Python);
- no owner: the files belong to the referee, whatever the tar says (tarfile would ``chown`` as root).
"""

from __future__ import annotations

import copy
import os
import stat
import tarfile
from dataclasses import dataclass


class UnsafeMember(tarfile.TarError):
    """A member that the rules above refuse; nothing of it was written."""


@dataclass(frozen=True)
class SafeMember:
    """A checked member: its header with the name made relative, and the mode to give it (``None``: leave it)."""

    info: tarfile.TarInfo
    mode: int | None


def _parts(name: str, what: str, member: str) -> list[str]:
    """``name``'s folders and file, relative to the unpacking folder (``.`` and empty parts dropped)."""
    parts = [p for p in name.replace(os.sep, "/").split("/") if p not in ("", ".")]
    if ".." in parts:
        raise UnsafeMember(f"{member!r}: its {what} {name!r} climbs out of the folder with '..'")
    return parts


def _no_link_on_the_way(dest: str, parts: list[str], member: str) -> None:
    """Refuse when a folder on the way to ``parts`` (under ``dest``) is a symbolic link unpacked earlier."""
    path = dest
    for part in parts[:-1]:
        path = os.path.join(path, part)
        if os.path.islink(path):
            raise UnsafeMember(f"{member!r} would be written through the link {os.path.relpath(path, dest)!r}")


def safe_member(member: tarfile.TarInfo, dest: str) -> SafeMember:
    """``member`` as it may be unpacked into ``dest`` now (raises ``UnsafeMember`` with the reason if it may not)."""
    name = member.name
    parts = _parts(name, "name", name)
    if not parts and not member.isdir():
        raise UnsafeMember(f"{name!r}: a {_kind(member)} cannot take the folder's own place")
    _no_link_on_the_way(dest, parts, name)
    target = os.path.join(dest, *parts)
    if parts and not member.issym() and os.path.islink(target):
        raise UnsafeMember(f"{name!r} would be written through the link {'/'.join(parts)!r}")
    info = copy.copy(member)
    info.name = "/".join(parts) or "."
    if member.islnk():
        linked = _parts(member.linkname, "link target", name)
        if not linked:
            raise UnsafeMember(f"{name!r}: a hard link to the folder itself")
        _no_link_on_the_way(dest, linked, name)
        source = os.path.join(dest, *linked)
        if not (os.path.lexists(source) and stat.S_ISREG(os.lstat(source).st_mode)):
            # tarfile would copy the target's bytes from the archive instead, finding it by identity: say no.
            raise UnsafeMember(f"{name!r}: a hard link to {member.linkname!r}, which is not a file unpacked before it")
        info.linkname = "/".join(linked)
    mode: int | None
    if member.isreg() or member.islnk():
        mode = member.mode & 0o755
        if not mode & stat.S_IXUSR:
            mode &= ~0o111
        mode |= 0o600
    elif member.isdir():
        mode = (member.mode & 0o755) | 0o700  # the referee may always enter and write: later members go in
    elif member.issym():
        mode = None
    else:
        raise UnsafeMember(f"{name!r}: a {_kind(member)} is not unpacked (only files, folders and links are)")
    return SafeMember(info, mode)


def _kind(member: tarfile.TarInfo) -> str:
    if member.ischr() or member.isblk():
        return "device file"
    if member.isfifo():
        return "FIFO"
    if member.isdir():
        return "folder"
    if member.issym() or member.islnk():
        return "link"
    return "file" if member.isreg() else f"special member (type {member.type!r})"


#: tarfile's own filter is off (``fully_trusted``) where the argument exists: ``safe_member`` has checked the member,
#: and Python 3.12 and 3.13 warn when no filter is named.
_TRUSTED = {"filter": "fully_trusted"} if hasattr(tarfile, "fully_trusted_filter") else {}


def extract(tar: tarfile.TarFile, dest: str) -> None:
    """Unpack every member of ``tar`` into the folder ``dest``, each checked by ``safe_member`` just before it is
    written; raises ``UnsafeMember`` at the first one refused (what came before it stays)."""
    folders: list[tuple[str, int, float]] = []
    for member in tar:
        checked = safe_member(member, dest)
        info = checked.info
        if info.name == ".":
            continue  # the folder itself: it exists, and its mode is the referee's to choose
        tar.extract(info, dest, set_attrs=False, **_TRUSTED)  # type: ignore[arg-type]
        path = os.path.join(dest, info.name)
        if info.isdir():  # tarfile made it 0o700 (before 3.11.4) or by the umask: its mode is set at the end
            folders.append((path, checked.mode or 0o700, info.mtime))
        elif not info.issym():
            if checked.mode is not None:
                os.chmod(path, checked.mode)
            os.utime(path, (info.mtime, info.mtime))
    for path, mode, mtime in reversed(folders):  # last: writing into a folder changes its time
        os.chmod(path, mode)
        os.utime(path, (mtime, mtime))
