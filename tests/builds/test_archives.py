"""A student's zip or tar unpacked into their folder, or refused whole with the member and the reason: zip-slip,
absolute paths, links, devices, encrypted members, zip bombs, too many members, too deep, a name twice."""

from __future__ import annotations

import io
import os
import stat
import tarfile
import zipfile
from pathlib import Path

import pytest

from referee.builds import archives
from referee.builds.archives import ArchiveRefused, archive_format, archive_stem, unpack


def make_zip(path: Path, members: list[tuple[str, bytes, int]], flag_bits: int = 0) -> Path:
    """A zip made on Unix: each member's name, bytes and ``st_mode`` (file type and permissions)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data, mode in members:
            info = zipfile.ZipInfo(name)
            info.create_system = 3
            info.external_attr = mode << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, data)
    if flag_bits:  # set a flag in every header after the fact (zipfile writes no encrypted members)
        raw = bytearray(path.read_bytes())
        for sig, offset in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
            at = raw.find(sig)
            while at >= 0:
                raw[at + offset] |= flag_bits
                at = raw.find(sig, at + 4)
        path.write_bytes(bytes(raw))
    return path


FILE, EXE, DIR = stat.S_IFREG | 0o644, stat.S_IFREG | 0o755, stat.S_IFDIR | 0o755


def listing(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())


def test_a_zip_of_a_folder_lands_at_the_top_with_its_run_script_executable_and_macos_forks_skipped(tmp_path):
    zf = make_zip(tmp_path / "ada.zip", [("ada/", b"", DIR), ("ada/bot.py", b"print()", FILE),
                                          ("ada/run", b"#!/bin/sh\n", EXE), ("ada/lib/util.py", b"x = 1", FILE),
                                          ("__MACOSX/ada/._bot.py", b"\0\5", FILE), ("ada/.DS_Store", b"\0", FILE)])
    dest = tmp_path / "out"
    dest.mkdir()
    done = unpack(str(zf), str(dest))
    assert listing(dest) == ["bot.py", "lib/util.py", "run"]
    assert done.lifted == "ada/" and done.files == 3
    assert set(done.skipped) == {"__MACOSX/", "ada/.DS_Store"}
    assert os.access(dest / "run", os.X_OK) and not os.access(dest / "bot.py", os.X_OK)


def test_a_zip_of_loose_files_is_not_lifted(tmp_path):
    zf = make_zip(tmp_path / "a.zip", [("bot.py", b"1", FILE), ("lib/k.py", b"2", FILE)])
    dest = tmp_path / "out"
    dest.mkdir()
    assert unpack(str(zf), str(dest)).lifted == ""
    assert listing(dest) == ["bot.py", "lib/k.py"]


@pytest.mark.parametrize("name,words", [
    pytest.param("../evil.py", "climbs out", id="dot-dot"),
    pytest.param("ada/../../evil.py", "climbs out", id="dot-dot-inside"),
    pytest.param("..\\..\\evil.py", "climbs out", id="backslashes-from-windows"),
    pytest.param("/etc/cron.d/evil", "absolute path", id="absolute"),
    pytest.param("C:/Windows/evil.dll", "absolute path", id="drive"),
])
def test_zip_slip_is_refused_naming_the_member(tmp_path, name, words):
    zf = make_zip(tmp_path / "slip.zip", [("bot.py", b"ok", FILE), (name, b"evil", FILE)])
    dest = tmp_path / "out"
    dest.mkdir()
    with pytest.raises(ArchiveRefused) as exc:
        unpack(str(zf), str(dest))
    assert repr(name) in str(exc.value) and words in str(exc.value)
    assert not (tmp_path / "evil.py").exists() and listing(dest) == []  # checked before anything is written


@pytest.mark.parametrize("mode,words", [
    pytest.param(stat.S_IFLNK | 0o777, "symbolic link", id="symlink"),
    pytest.param(stat.S_IFCHR | 0o600, "device file", id="char-device"),
    pytest.param(stat.S_IFBLK | 0o600, "device file", id="block-device"),
    pytest.param(stat.S_IFIFO | 0o600, "FIFO", id="fifo"),
])
def test_links_and_devices_in_a_zip_are_refused(tmp_path, mode, words):
    zf = make_zip(tmp_path / "l.zip", [("bot.py", b"ok", FILE), ("passwd", b"/etc/passwd", mode)])
    dest = tmp_path / "out"
    dest.mkdir()
    with pytest.raises(ArchiveRefused, match=words):
        unpack(str(zf), str(dest))
    assert listing(dest) == []


def test_an_encrypted_member_is_refused(tmp_path):
    zf = make_zip(tmp_path / "e.zip", [("bot.py", b"secret", FILE)], flag_bits=0x1)
    dest = tmp_path / "out"
    dest.mkdir()
    with pytest.raises(ArchiveRefused, match="password-protected"):
        unpack(str(zf), str(dest))


def test_a_zip_bomb_stops_at_the_cap_counted_as_written(tmp_path, monkeypatch):
    monkeypatch.setattr(archives, "ARCHIVE_UNPACKED", 1 << 20)
    zf = make_zip(tmp_path / "bomb.zip", [(f"part{i}.bin", b"\0" * (400 << 10), FILE) for i in range(4)])
    assert zf.stat().st_size < 20_000  # 1.6 MB of zeros in a few kilobytes
    dest = tmp_path / "out"
    dest.mkdir()
    with pytest.raises(ArchiveRefused, match="zip bomb"):
        unpack(str(zf), str(dest))


def test_a_zip_bomb_whose_headers_lie_is_stopped_by_the_bytes_themselves(tmp_path, monkeypatch):
    """Headers that understate the size: the declared sum passes, the bytes written do not."""
    monkeypatch.setattr(archives, "ARCHIVE_UNPACKED", 1 << 20)
    zf = make_zip(tmp_path / "liar.zip", [("a.bin", b"\0" * (3 << 20), FILE)])
    raw = bytearray(zf.read_bytes())
    for sig, offset in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):  # the uncompressed size: claim 10 bytes
        at = raw.find(sig)
        raw[at + offset:at + offset + 4] = (10).to_bytes(4, "little")
    zf.write_bytes(bytes(raw))
    dest = tmp_path / "out"
    dest.mkdir()
    with pytest.raises(ArchiveRefused):
        unpack(str(zf), str(dest))
    assert sum(p.stat().st_size for p in dest.rglob("*") if p.is_file()) <= 1 << 20


def test_too_many_members_and_too_deep_are_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(archives, "ARCHIVE_MEMBERS", 10)
    many = make_zip(tmp_path / "many.zip", [(f"f{i}.py", b"", FILE) for i in range(11)])
    deep = make_zip(tmp_path / "deep.zip", [("/".join(["d"] * 40) + "/bot.py", b"", FILE)])
    for zf, words in ((many, "11 members"), (deep, "folders deep")):
        dest = tmp_path / f"out-{zf.stem}"
        dest.mkdir()
        with pytest.raises(ArchiveRefused, match=words):
            unpack(str(zf), str(dest))


def test_a_name_twice_is_refused(tmp_path):
    with pytest.warns(UserWarning):  # zipfile warns of the duplicate as it writes it
        zf = make_zip(tmp_path / "twice.zip", [("bot.py", b"one", FILE), ("bot.py", b"two", FILE)])
    dest = tmp_path / "out"
    dest.mkdir()
    with pytest.raises(ArchiveRefused, match="twice"):
        unpack(str(zf), str(dest))


def test_an_archive_over_the_file_cap_is_refused_unopened(tmp_path, monkeypatch):
    from referee.inputs.kinds import FileKind

    monkeypatch.setattr(archives, "ARCHIVE", FileKind("submission archive", 100, "a test needs"))
    zf = make_zip(tmp_path / "big.zip", [("bot.py", os.urandom(500), FILE)])
    dest = tmp_path / "out"
    dest.mkdir()
    with pytest.raises(ArchiveRefused, match="over the .* submission archives may be"):
        unpack(str(zf), str(dest))


def test_a_file_named_zip_that_is_not_one_is_refused(tmp_path):
    fake = tmp_path / "bot.zip"
    fake.write_text("print('not a zip')\n")
    dest = tmp_path / "out"
    dest.mkdir()
    with pytest.raises(ArchiveRefused, match="not a readable zip"):
        unpack(str(fake), str(dest))


def tar_with(path: Path, members: list[tarfile.TarInfo], data: dict[str, bytes] | None = None,
             mode: str = "w:gz") -> Path:
    with tarfile.open(path, mode) as tar:
        for info in members:
            content = (data or {}).get(info.name)
            if content is not None:
                info.size = len(content)
                tar.addfile(info, io.BytesIO(content))
            else:
                tar.addfile(info)
    return path


def member(name: str, kind: bytes = tarfile.REGTYPE, link: str = "", mode: int = 0o644) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type, info.linkname, info.mode = kind, link, mode
    return info


def test_a_tar_gz_unpacks(tmp_path):
    tgz = tar_with(tmp_path / "ada.tar.gz", [member("ada", tarfile.DIRTYPE, mode=0o755), member("ada/bot.py"),
                                              member("ada/run", mode=0o755)],
                   {"ada/bot.py": b"print()", "ada/run": b"#!/bin/sh\n"})
    dest = tmp_path / "out"
    dest.mkdir()
    assert unpack(str(tgz), str(dest)).lifted == "ada/"
    assert listing(dest) == ["bot.py", "run"] and os.access(dest / "run", os.X_OK)


@pytest.mark.parametrize("info,words", [
    pytest.param(member("l", tarfile.SYMTYPE, "/etc/passwd"), "symbolic link", id="symlink"),
    pytest.param(member("h", tarfile.LNKTYPE, "bot.py"), "hard link", id="hardlink"),
    pytest.param(member("dev", tarfile.CHRTYPE), "device file", id="device"),
    pytest.param(member("fifo", tarfile.FIFOTYPE), "FIFO", id="fifo"),
    pytest.param(member("../../evil.py"), "climbs out", id="dot-dot"),
    pytest.param(member("/tmp/evil.py"), "absolute path", id="absolute"),
])
def test_tar_members_that_are_links_devices_or_leave_the_folder_are_refused(tmp_path, info, words):
    tgz = tar_with(tmp_path / "x.tgz", [member("bot.py"), info], {"bot.py": b"ok", info.name: b"evil"}
                   if info.isreg() else {"bot.py": b"ok"})
    dest = tmp_path / "out"
    dest.mkdir()
    with pytest.raises(ArchiveRefused, match=words):
        unpack(str(tgz), str(dest))
    assert listing(dest) == []  # every header is checked before any byte is written


def test_a_tar_bomb_is_refused_by_its_headers_before_reading(tmp_path, monkeypatch):
    monkeypatch.setattr(archives, "ARCHIVE_UNPACKED", 1 << 20)
    tgz = tar_with(tmp_path / "bomb.tar.gz", [member("zeros.bin")], {"zeros.bin": b"\0" * (2 << 20)})
    dest = tmp_path / "out"
    dest.mkdir()
    with pytest.raises(ArchiveRefused, match="zip bomb"):
        unpack(str(tgz), str(dest))
    assert listing(dest) == []


@pytest.mark.parametrize("name,fmt,stem", [("Bot.ZIP", "zip", "Bot"), ("ada.tar.gz", "tar", "ada"),
                                           ("ada.tgz", "tar", "ada"), ("bot.py", None, "bot.py")])
def test_archive_names(name, fmt, stem):
    assert archive_format(name) == fmt and archive_stem(name) == stem
