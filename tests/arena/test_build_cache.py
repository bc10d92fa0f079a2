"""Builds behind the walls, and their cache: a copy built, the original untouched, a second run building only
what changed, and no submission able to reach another's entry."""

from __future__ import annotations

import hashlib
import io
import os
import tarfile
from dataclasses import replace
from pathlib import Path

import pytest

from referee.arena import load_arena
from referee.bots import sandbox
from referee.bots.sandbox import Machine, Mode, SandboxUnavailable, machine
from referee.builds.cache import ENV_VAR
from referee.builds.safe_tar import UnsafeMember
from referee.builds.steps import run_builds
from referee.builds.walled import _unpack

walls = pytest.mark.skipif(not machine().walls, reason="bubblewrap cannot build the walls here: "
                           + "; ".join(machine().problems))

ARENA = """\
name: cached
seats: 2
games: 1
bots:
  - submissions:
      path: "students/*"
      command: "sh ./bot"
      build: "sh build.sh"
      build_timeout_s: 20
  - builtin:easy
"""
#: Writes ./bot from the folder's own ``answer`` file (so a changed folder builds to another bot).
BUILD = "cp answer bot\necho built $(cat answer)\n"


@pytest.fixture
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv(ENV_VAR, str(folder))
    return folder


def _class(tmp_path: Path, students: dict[str, str], build: str = BUILD, arena: str = ARENA) -> Path:
    for name, answer in students.items():
        folder = tmp_path / "students" / name
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "build.sh").write_text(build)
        (folder / "answer").write_text(answer)
    path = tmp_path / "arena.yaml"
    path.write_text(arena)
    return path


def _digest(folder: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(folder.rglob("*")):
        h.update(str(p.relative_to(folder)).encode() + (p.read_bytes() if p.is_file() else b"/"))
    return h.hexdigest()


def _build(path: Path) -> tuple[dict, dict]:
    arena = load_arena(str(path))
    kept, left = run_builds([e for e in arena.bots if e.build], str(path.parent / "logs"), jobs=2)
    return {e.spec.name: e for e in kept}, {x.bot: x for x in left}


@pytest.mark.slow
@walls
def test_a_copy_is_built_and_the_bot_runs_from_it_the_original_untouched(tmp_path, cache):
    path = _class(tmp_path, {"ada": "echo ada", "bob": "echo bob"})
    before = _digest(tmp_path / "students")
    built, left = _build(path)
    assert not left and set(built) == {"ada", "bob"}
    ada = built["ada"]
    assert ada.built is not None and ada.built.level in ("full", "walls") and not ada.built.cached
    assert ada.spec.cwd == ada.built.folder and ada.spec.cwd.startswith(str(cache))
    assert (Path(ada.spec.cwd) / "bot").read_text() == "echo ada"
    assert not (tmp_path / "students" / "ada" / "bot").exists()  # built in the copy only
    assert _digest(tmp_path / "students") == before
    assert "built echo ada" in (tmp_path / "logs" / "ada.build.log").read_text()


@pytest.mark.slow
@walls
def test_a_second_run_builds_only_what_changed(tmp_path, cache):
    path = _class(tmp_path, {"ada": "echo ada", "bob": "echo bob", "cy": "echo cy"})
    first, _ = _build(path)
    assert not any(e.built.cached for e in first.values())
    (tmp_path / "students" / "bob" / "answer").write_text("echo bob 2")
    second, _ = _build(path)
    assert {n: e.built.cached for n, e in second.items()} == {"ada": True, "bob": False, "cy": True}
    assert second["ada"].spec.cwd == first["ada"].spec.cwd
    assert (Path(second["bob"].spec.cwd) / "bot").read_text() == "echo bob 2"
    # The build command is part of the key: another command builds again.
    path.write_text(ARENA.replace('build: "sh build.sh"', 'build: "sh build.sh && true"'))
    third, _ = _build(path)
    assert not any(e.built.cached for e in third.values())


@pytest.mark.slow
@walls
def test_a_failed_build_is_cached_with_its_reason_and_log(tmp_path, cache):
    path = _class(tmp_path, {"fred": "x"}, build="echo syntax error here; exit 3\n")
    _, left = _build(path)
    assert left["fred"].reason == "build failed (exit code 3)" and "syntax error here" in left["fred"].detail
    _, again = _build(path)
    assert again["fred"].reason == "build failed (exit code 3)"
    assert "the cache's copy" in (tmp_path / "logs" / "fred.build.log").read_text()


@pytest.mark.slow
@walls
def test_a_build_cannot_reach_another_submissions_cache_entry(tmp_path, cache):
    """mallory's build writes into every entry it can name (it knows the cache's path): none is there."""
    path = _class(tmp_path, {"ada": "echo ada"})
    first, _ = _build(path)
    entry = Path(first["ada"].spec.cwd)
    attack = (f"for f in {cache}/*/bot/bot {entry}/bot; do echo 'echo pwned' > \"$f\" && echo WROTE $f; done\n"
              f"ls {cache} || true\n" + BUILD)
    _class(tmp_path, {"mallory": "echo mallory"}, build=attack)
    built, left = _build(path)
    assert not left and built["ada"].built.cached
    assert (entry / "bot").read_text() == "echo ada"
    log = (tmp_path / "logs" / "mallory.build.log").read_text()
    assert "WROTE" not in log
    # The entries are the referee's and read-only to anyone else.
    assert (entry / "bot").stat().st_mode & 0o022 == 0 and entry.stat().st_mode & 0o022 == 0


@pytest.mark.slow
@walls
def test_identical_folders_share_one_entry(tmp_path, cache):
    path = _class(tmp_path, {"ada": "echo same", "bob": "echo same"})
    built, _ = _build(path)
    assert built["ada"].spec.cwd == built["bob"].spec.cwd  # the same inputs: the same built copy


@pytest.mark.slow
def test_sandbox_none_builds_in_place_as_before(tmp_path, cache):
    path = _class(tmp_path, {"ada": "echo ada"}, arena=ARENA.replace("build_timeout_s: 20",
                                                                      "build_timeout_s: 20\n      sandbox: none"))
    built, left = _build(path)
    assert not left and built["ada"].built is not None and built["ada"].built.level == "none"
    assert built["ada"].spec.cwd == str(tmp_path / "students" / "ada")
    assert (tmp_path / "students" / "ada" / "bot").read_text() == "echo ada"
    assert not cache.exists() or not any(cache.iterdir())


def test_strict_refuses_a_build_without_walls(tmp_path, cache, monkeypatch):
    bare = Machine(bwrap=None, setpriv=None, prlimit=None, root=False, hierarchy=None,
                   problems=("bubblewrap (bwrap) is not installed: apt-get install bubblewrap",))
    monkeypatch.setattr(sandbox, "machine", lambda: bare)
    path = _class(tmp_path, {"ada": "echo ada"})
    arena = load_arena(str(path))
    entries = [replace(e, spec=replace(e.spec, sandbox=replace(e.spec.sandbox, mode=Mode.STRICT)))
               for e in arena.bots if e.build]
    with pytest.raises(SandboxUnavailable, match="sandbox: strict, but bubblewrap"):
        run_builds(entries, None)
    assert not (tmp_path / "students" / "ada" / "bot").exists()


def test_a_packed_folder_cannot_write_through_a_link(tmp_path):
    """The build's folder comes back as a tar it made: a link may point anywhere, nothing is written through it."""
    outside = tmp_path / "outside"
    outside.mkdir()
    data = io.BytesIO()
    with tarfile.open(fileobj=data, mode="w") as tar:
        link = tarfile.TarInfo("d")
        link.type, link.linkname = tarfile.SYMTYPE, str(outside)
        tar.addfile(link)
        evil = tarfile.TarInfo("d/evil")
        evil.size = 5
        tar.addfile(evil, io.BytesIO(b"pwned"))
    tree = tmp_path / "tree"
    tree.mkdir()
    with pytest.raises(UnsafeMember, match="'d/evil' would be written through the link 'd'"):
        _unpack(data.getvalue(), str(tree))
    assert os.listdir(outside) == []
    assert os.readlink(tree / "d") == str(outside)  # the link itself is kept, as the build made it


def test_a_cache_that_cannot_be_made_leaves_the_bot_out_with_the_fix(tmp_path, monkeypatch):
    (tmp_path / "afile").write_text("")
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "afile" / "cache"))
    path = _class(tmp_path, {"ada": "echo ada"})
    _, left = _build(path)
    assert left["ada"].reason.startswith("its build could not be kept in the build cache")
    assert f"set {ENV_VAR} to another folder" in left["ada"].reason
