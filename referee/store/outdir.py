"""Checking an output directory before anything runs: not a file, not under a file, not in /proc, writable."""

from __future__ import annotations

import os

#: Filesystems the kernel makes up (/proc, /sys, ...): they cannot hold results.
PSEUDO_FILESYSTEMS = frozenset({"proc", "sysfs", "devtmpfs", "devpts", "cgroup", "cgroup2", "debugfs", "tracefs",
                                "securityfs", "configfs", "pstore", "bpf", "mqueue", "fusectl", "hugetlbfs",
                                "binfmt_misc", "efivarfs", "autofs", "rpc_pipefs", "nsfs", "selinuxfs"})


def out_dir_problem(path: str, *, writable: bool = True) -> str | None:
    """What stops ``path`` being used as an output directory (created if missing), or None when it can be.

    ``writable=False`` checks only what no user could change (a file in the way, /proc): for an arena
    file, which may be checked by someone other than who runs it.
    """
    if "\0" in path:
        return f"{path!r} holds a NUL character, which no path may; give a directory"
    full = os.path.abspath(path)
    if os.path.lexists(full) and not os.path.isdir(full):
        return f"{full!r} is a file, not a directory; give a directory (it is created if missing)"
    probe = full
    while not os.path.lexists(probe):
        probe = os.path.dirname(probe)
    if not os.path.isdir(probe):
        return (f"{full!r} cannot be created: {probe!r} is a file, not a directory; give a directory "
                "(it is created if missing)")
    mount, fs = filesystem_of(probe)
    if fs in PSEUDO_FILESYSTEMS:
        return (f"{full!r} is under {mount}, a {fs} filesystem the kernel makes up, which cannot hold results; "
                "give a directory on disk")
    if writable and not os.access(probe, os.W_OK | os.X_OK):
        return f"{full!r} cannot be created or written: {probe!r} is not writable; give a directory you can write to"
    return None


def filesystem_of(path: str) -> tuple[str, str | None]:
    """The mount point holding ``path`` and its filesystem type (None when /proc/self/mounts cannot be read)."""
    real = os.path.realpath(path)
    best, kind = "/", None
    try:
        with open("/proc/self/mounts", encoding="utf-8", errors="replace") as fh:
            for line in fh:
                fields = line.split()
                if len(fields) < 3:
                    continue
                point = _unescape(fields[1])
                inside = real == point or real.startswith(point.rstrip("/") + "/")
                if inside and len(point) >= len(best):
                    best, kind = point, fields[2]
    except OSError:
        return best, None
    return best, kind


def _unescape(field: str) -> str:
    """/proc/mounts writes a space as ``\\040`` (and tab, newline, backslash likewise)."""
    for code, char in (("\\040", " "), ("\\011", "\t"), ("\\012", "\n"), ("\\134", "\\")):
        field = field.replace(code, char)
    return field
