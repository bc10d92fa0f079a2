"""An arena's builds run beside its first games (issue 51): the games of bots with nothing left to build play while
the others build, a game seating a bot still building waits for it, and a bot whose build fails is left out as the
builds before the games left it: the games played meanwhile are played again without it, game for game.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from referee.arena.builds_beside import gated
from referee.arena.config import load_arena
from referee.arena.runner import Quiet, builds_beside_pays, run_arena
from referee.store.results_dir import ResultsDir
from tests.arena.test_bot_reports import STEADY
from tests.support.tapes import Drained

ARENA = """\
name: builds
seats: 2
bootstrap: 0
stages:
  - {name: league, ruleset: arcade, format: round_robin, games: 4}
bots:
  - builtin:hard
  - builtin:random
  - {name: steady, command: '{python} built.py', build: 'cp steady.py built.py'}
"""
BROKEN = "  - {name: broken, command: '{python} built.py', build: 'echo no compiler here >&2; exit 3'}\n"


def folder_with(path: Path, arena: str) -> Path:
    path.mkdir()
    (path / "steady.py").write_text(STEADY)
    (path / "arena.yaml").write_text(arena)
    return path / "arena.yaml"


def games(out: Path) -> dict[str, tuple[object, ...]]:
    lines = [json.loads(x) for x in (out / "games.jsonl").read_text().splitlines()]
    return {g["game"]: (g["seating"], g["seed"], g["actions"], g["placements"], g["faults"]) for g in lines}


class Notes(Quiet):
    """A ``Progress`` that keeps what the run says."""

    def __init__(self) -> None:
        self.said: list[str] = []

    def note(self, text: str) -> None:
        self.said.append(text)


@pytest.mark.slow
def test_a_failed_build_beside_the_games_gives_the_results_of_the_builds_first(tmp_path):
    """In the bots' walls (the default sandbox): builds beside the games against builds first, the same arena."""
    file = folder_with(tmp_path / "a", ARENA + BROKEN)
    notes = Notes()
    run_arena(load_arena(str(file)), out=str(tmp_path / "beside"), jobs=2, progress=notes, builds_beside=True,
              page_tapes=Drained, tapes_beside=True)
    said = "\n".join(notes.said)
    assert "building 2 bot(s) beside the games..." in said
    assert "left out broken: build failed" in said and "no compiler here" in said
    assert "the games are played again without broken (" in said and "were played beside the builds)" in said
    first = run_arena(load_arena(str(file)), out=str(tmp_path / "first"), jobs=2, builds_beside=False)
    beside, before = (tmp_path / "beside"), (tmp_path / "first")
    assert games(beside) == games(before)  # card for card: ids, seeds and places of the pool without broken
    doc, doc_first = (json.loads((o / "results.json").read_text()) for o in (beside, before))
    for key in ("standings", "left_out", "bots", "build_levels", "head_to_head"):
        assert doc[key] == doc_first[key], key
    assert [x["bot"] for x in doc["left_out"]] == ["broken"]
    assert "no compiler here" in (beside / "logs" / "broken.build.log").read_text()  # kept through the restart
    assert first.complete and not any(f for g in games(beside).values() for f in g[4])  # steady played as built
    # The page's tapes made beside: those of the games played again only (the restart forgot the others).
    made = (beside / ResultsDir.TAPES).read_text().splitlines()
    assert sorted(json.loads(x)[0] for x in made) == sorted(games(beside))


@pytest.mark.parametrize("builds, workers, cores, beside", [
    (2, 1, 2, True),    # the sample arena with one worker: the games take the core the builds leave
    (2, 2, 2, True),    # ... and with two: the C build ends at once, the Java one leaves a core
    (28, 2, 2, False),  # a class on two cores: its builds fill them, and a failed one loses the games beside
    (28, 1, 2, True),   # one worker: the builds take one core, the games the other (lost or not, it was free)
    (28, 2, 4, True),
    (0, 1, 2, False),   # nothing to build
    (3, 1, 1, False),   # one core, more builds
])
def test_builds_go_beside_the_games_when_they_leave_cores_free(builds, workers, cores, beside):
    assert builds_beside_pays(builds, workers, cores) is beside


@pytest.mark.slow
def test_games_are_played_while_a_bot_builds_and_its_own_wait_for_it(tmp_path):
    """One worker, so the order the games end in is the order they were handed out. Steady's build ends only once a
    game is stored (``sandbox: none``: it reads the run's folder, outside its own; a trusted test bot)."""
    out = tmp_path / "out"
    wait = f"while ! test -s {out}/games.jsonl; do sleep 0.05; done; cp steady.py built.py"
    arena = ARENA.replace("build: 'cp steady.py built.py'", f"build: '{wait}', build_timeout_s: 30, sandbox: none")
    file = folder_with(tmp_path / "a", arena)
    run = run_arena(load_arena(str(file)), out=str(out), jobs=1, builds_beside=True)
    assert run.complete and not run.left_out
    # Steady's build waited for a stored game, and ended (it would have timed out, and steady been left out, had
    # the games waited for the builds): the built-ins' games were played meanwhile.
    ended = [json.loads(x) for x in (out / "games.jsonl").read_text().splitlines()]
    assert "steady" not in ended[0]["seating"]
    steady = [g for g in ended if "steady" in g["seating"]]
    assert len(steady) == 8 and not any(g["faults"] for g in steady)  # each played as built, none before
    doc = json.loads((out / "results.json").read_text())
    assert doc["build_levels"] == {"steady": "none"}


@pytest.mark.slow
def test_an_interrupted_arena_ends_the_build_it_was_waiting_for(tmp_path):
    """Ctrl-C (``stop_after``) while a build runs: the standings so far are written and the build's process is
    killed (``sandbox: none``: the build writes its process id beside it; a trusted test bot)."""
    arena = ARENA.replace("build: 'cp steady.py built.py'", "build: 'echo $$ > build.pid; exec sleep 60', "
                                                            "build_timeout_s: 120, sandbox: none")
    file = folder_with(tmp_path / "a", arena)
    run = run_arena(load_arena(str(file)), out=str(tmp_path / "out"), jobs=1, stop_after=2, builds_beside=True)
    assert not run.complete and run.played_now == 2  # the built-ins' games, played beside the build
    pid = int((tmp_path / "a" / "build.pid").read_text())
    deadline = time.monotonic() + 30
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(pid), "the build's sleep outlived the arena"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie (ended, not yet reaped) counts as gone
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except FileNotFoundError:
        return False


class FakeBuilds:
    """What ``gated`` reads of ``BuildsBeside``: the bots waiting, and those whose games are held. Each poll after
    a None (where the executor would come back later) ends one build, in name order."""

    def __init__(self, waiting: set[str], failing: set[str] = frozenset()) -> None:
        self.waiting = set(waiting)
        self.blocked = set(waiting)
        self.failing = set(failing)
        self.order: list[str] = sorted(waiting)
        self.later = False

    def poll(self) -> None:
        """A failing build stays blocked, and the last build's end then raises, as the runner's poll does."""
        if self.later and self.order:
            name = self.order.pop(0)
            self.waiting.discard(name)
            if name not in self.failing:
                self.blocked.discard(name)
        self.later = False
        if not self.waiting and self.blocked:
            raise RuntimeError(f"left out: {sorted(self.blocked)}")

    def read(self, plan: list[tuple[str, str]], **kw: int) -> list[tuple[str, str] | None]:
        out: list[tuple[str, str] | None] = []
        for game in gated(plan, lambda g: g, self, self.poll, **kw):  # type: ignore[arg-type]
            self.later = game is None
            out.append(game)
        return out


def test_gated_holds_back_only_the_games_of_bots_building_and_keeps_the_order():
    plan = [("a", "x"), ("b", "c"), ("x", "b"), ("c", "a"), ("y", "y")]
    out = FakeBuilds({"x", "y"}).read(plan)
    # Nothing to wait for: at once; then a None each time the rest wait (x built, then y), each in planned order.
    assert out == [("b", "c"), ("c", "a"), None, ("a", "x"), ("x", "b"), None, ("y", "y")]


def test_gated_says_none_is_ready_once_it_holds_its_limit():
    plan = [("x", str(k)) for k in range(5)] + [("a", "b")]
    out = FakeBuilds({"x"}).read(plan, hold=3)
    assert out == [None, *plan]  # three held, then a None (x's build ends meanwhile) and the rest in order


def test_a_failed_builds_games_stay_held_until_the_verdict():
    plan = [("a", "f"), ("a", "b"), ("f", "b")]
    builds = FakeBuilds({"f"}, failing={"f"})
    seen: list[tuple[str, str] | None] = []
    with pytest.raises(RuntimeError, match=r"left out: \['f'\]"):
        for game in gated(plan, lambda g: g, builds, builds.poll):  # type: ignore[arg-type]
            builds.later = game is None
            seen.append(game)
    assert seen == [("a", "b"), None]  # no game of the failed bot was handed out


def test_nothing_building_is_the_plan_as_it_is():
    plan = [("a", "b"), ("b", "a")]
    assert FakeBuilds(set()).read(plan) == plan
