"""The one rule for a tar from elsewhere (referee/builds/safe_tar.py), on every Python the package claims.

Each hostile member is refused with its reason and writes nothing outside; each ordinary one is unpacked as the
``data`` filter of Python 3.11.4+ would (compared with it where it exists). Debian 12's Python is 3.11.2, which
has no filter: CI runs this file on it too (.ci/run).
"""

from __future__ import annotations

import io
import os
import stat
import tarfile
from pathlib import Path

import pytest

from referee.builds import safe_tar
from referee.builds.safe_tar import UnsafeMember, safe_member


def _tar(*members: tuple[str, str, object]) -> bytes:
    """A tar of (name, kind, extra): kind "file" (extra: bytes), "dir", "sym"/"hard" (extra: the target),
    "fifo", "chr"; a mode may follow as ("file", (bytes, mode))."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for name, kind, extra in members:
            info = tarfile.TarInfo(name)
            info.mtime = 1_700_000_000
            data = None
            if kind == "file":
                content, info.mode = extra if isinstance(extra, tuple) else (extra, 0o644)
                assert isinstance(content, bytes)
                info.size, data = len(content), io.BytesIO(content)
            elif kind == "dir":
                info.type, info.mode = tarfile.DIRTYPE, extra if isinstance(extra, int) else 0o755
            elif kind in ("sym", "hard"):
                info.type = tarfile.SYMTYPE if kind == "sym" else tarfile.LNKTYPE
                info.linkname = str(extra)
            else:
                info.type = {"fifo": tarfile.FIFOTYPE, "chr": tarfile.CHRTYPE}[kind]
            tar.addfile(info, data)
    return buffer.getvalue()


def _extract(data: bytes, dest: Path) -> None:
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:") as tar:
        safe_tar.extract(tar, str(dest))


@pytest.fixture
def places(tmp_path):
    """An empty folder to unpack into, and a folder outside it that must stay empty."""
    dest, outside = tmp_path / "dest", tmp_path / "outside"
    dest.mkdir()
    outside.mkdir()
    return dest, outside


HOSTILE = [
    pytest.param([("d", "sym", "{outside}"), ("d/evil", "file", b"pwned")], "written through the link 'd'",
                 id="a file through a link to a folder outside"),
    pytest.param([("a", "dir", 0o755), ("a/d", "sym", "{outside}"), ("a/d/x/evil", "file", b"pwned")],
                 "written through the link 'a/d'", id="deeper, through a link in a folder"),
    pytest.param([("f", "sym", "{outside}/f"), ("f", "file", b"pwned")], "written through the link 'f'",
                 id="a file onto a link to a file outside"),
    pytest.param([("../evil", "file", b"pwned")], "climbs out of the folder with '..'", id="a name with .."),
    pytest.param([("a/../../evil", "file", b"pwned")], "climbs out", id="a name climbing out midway"),
    pytest.param([("h", "hard", "../outside/secret")], "link target '../outside/secret' climbs out",
                 id="a hard link out"),
    pytest.param([("h", "hard", "{outside}/secret")], "not a file unpacked before it",
                 id="a hard link to an absolute path"),
    pytest.param([("d", "sym", "{outside}"), ("h", "hard", "d/secret")], "written through the link 'd'",
                 id="a hard link through a link"),
    pytest.param([("p", "fifo", None)], "a FIFO is not unpacked", id="a FIFO"),
    pytest.param([("null", "chr", None)], "a device file is not unpacked", id="a device file"),
]


@pytest.mark.parametrize(("members", "reason"), HOSTILE)
def test_a_hostile_member_is_refused_with_its_reason_and_nothing_lands_outside(places, members, reason):
    dest, outside = places
    (outside / "secret").write_text("the teacher's")
    spelled = [(n, k, str(e).format(outside=outside) if isinstance(e, str) else e) for n, k, e in members]
    with pytest.raises(UnsafeMember, match=reason.replace("(", r"\(")):
        _extract(_tar(*spelled), dest)
    assert sorted(os.listdir(outside)) == ["secret"]
    assert (outside / "secret").read_text() == "the teacher's"
    assert isinstance(UnsafeMember("x"), tarfile.TarError)  # walled and shipping catch TarError


def test_ordinary_members_are_unpacked_with_safe_modes_and_their_times(places):
    dest, outside = places
    data = _tar(("/abs", "file", b"leading slash dropped"),
                ("./bin", "dir", 0o700),
                ("./bin/run", "file", (b"#!/bin/sh\n", 0o6777)),  # setuid, setgid, writable by all
                ("./bin/data", "file", (b"x", 0o466)),  # others may write, owner may not
                ("./bin/same", "hard", "./bin/data"),
                ("./lib", "sym", str(outside)),  # a link may point anywhere: only followed behind the walls
                ("./ro", "dir", 0o555),
                ("./ro/inside", "file", b"a read-only folder is still filled"))
    _extract(data, dest)
    assert (dest / "abs").read_bytes() == b"leading slash dropped"
    assert stat.S_IMODE((dest / "bin" / "run").stat().st_mode) == 0o755
    assert stat.S_IMODE((dest / "bin" / "data").stat().st_mode) == 0o644
    assert (dest / "bin" / "same").stat().st_ino == (dest / "bin" / "data").stat().st_ino
    assert os.readlink(dest / "lib") == str(outside)
    assert stat.S_IMODE((dest / "bin").stat().st_mode) == 0o700
    assert stat.S_IMODE((dest / "ro").stat().st_mode) == 0o755
    assert (dest / "ro" / "inside").read_text() == "a read-only folder is still filled"
    assert (dest / "bin" / "run").stat().st_mtime == 1_700_000_000
    assert (dest / "ro").stat().st_mtime == 1_700_000_000
    assert os.listdir(outside) == []


def test_owners_in_the_tar_are_not_applied(places):
    """The files belong to the referee, whatever the tar says (as root, tarfile would chown them)."""
    dest, _ = places
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        info = tarfile.TarInfo("mine")
        info.uid = info.gid = 4242
        tar.addfile(info, io.BytesIO(b""))
    _extract(buffer.getvalue(), dest)
    assert (dest / "mine").stat().st_uid == os.geteuid()


@pytest.mark.skipif(not hasattr(tarfile, "data_filter"), reason="this Python has no tarfile filters (before 3.11.4)")
@pytest.mark.parametrize(("members", "reason"), HOSTILE)
def test_the_same_members_are_refused_by_pythons_data_filter(places, members, reason):
    """Where tarfile has filters, its ``data`` filter (symbolic links' targets left free, as the builds need) refuses
    every member refused here: the rule is at least as strict."""
    dest, outside = places

    def data_but_links_free(member: tarfile.TarInfo, path: str) -> tarfile.TarInfo:
        if member.issym():
            checked = tarfile.data_filter(member.replace(linkname=".", deep=False), path)
            return checked.replace(linkname=member.linkname, deep=False)
        return tarfile.data_filter(member, path)

    spelled = [(n, k, str(e).format(outside=outside) if isinstance(e, str) else e) for n, k, e in members]
    with tarfile.open(fileobj=io.BytesIO(_tar(*spelled)), mode="r:") as tar, \
            pytest.raises(tarfile.FilterError):
        tar.extractall(dest, filter=data_but_links_free)


def test_a_member_is_checked_against_what_is_on_disk_when_it_comes(tmp_path):
    """The check sees the links earlier members left: alone, ``d/evil`` is fine; after a link ``d``, it is not."""
    member = tarfile.TarInfo("d/evil")
    assert safe_member(member, str(tmp_path)).info.name == "d/evil"
    (tmp_path / "d").symlink_to("/")
    with pytest.raises(UnsafeMember, match="through the link 'd'"):
        safe_member(member, str(tmp_path))
