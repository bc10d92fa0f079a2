"""A built bot's ladder hash: taken on its built copy, with its spec as given, so it is the same run after run
(the build cache answering) and changes with its folder."""

from __future__ import annotations

import pytest

from referee.arena import load_arena
from referee.bots.sandbox import machine
from referee.builds.steps import as_given, run_builds
from referee.ladder.fingerprint import submission_hashes

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not machine().walls, reason="bubblewrap cannot build the walls here: "
                                 + "; ".join(machine().problems))]

ARENA = """\
name: l
seats: 2
games: 1
bots:
  - submissions: {path: "students/*", command: "sh ./bot", build: "cp answer bot"}
  - builtin:easy
"""


def _hashes(path):
    arena = load_arena(str(path))
    kept, left = run_builds([e for e in arena.bots if e.build], None)
    assert not left
    return {e.spec.name: e for e in kept}, submission_hashes(kept, arena.base_dir)


def test_a_built_bots_hash_is_stable_and_follows_its_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("LASTCARD_BUILD_CACHE", str(tmp_path / "cache"))
    for name, answer in (("ada", "echo same"), ("bob", "echo same"), ("cy", "echo cy")):
        (tmp_path / "students" / name).mkdir(parents=True)
        (tmp_path / "students" / name / "answer").write_text(answer)
    path = tmp_path / "arena.yaml"
    path.write_text(ARENA)
    entries, first = _hashes(path)
    assert entries["ada"].spec.cwd == entries["bob"].spec.cwd  # one built copy for two identical folders
    assert as_given(entries["ada"]).cwd == str(tmp_path / "students" / "ada")
    again, second = _hashes(path)
    assert all(e.built.cached for e in again.values()) and second == first
    (tmp_path / "students" / "cy" / "answer").write_text("echo cy 2")
    _, third = _hashes(path)
    assert third["cy"] != first["cy"] and third["ada"] == first["ada"]
