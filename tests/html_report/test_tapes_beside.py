"""The page's tapes made beside the games (issue 51): a forked process replays each game as it is stored, and the
page written after the games takes those tapes, each only where the game's line is the one it was made from. The page
is the same, byte for byte, as one that replays every game itself.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
from pathlib import Path

import pytest

from referee.arena.config import load_arena
from referee.arena.runner import run_arena, tapes_beside_pays
from referee.html_report import rows, write_report
from referee.html_report.tapes_beside import TapesBeside, made_tapes
from referee.store.jsonl import line_digest
from referee.store.results_dir import ResultsDir
from tests.support.procs import wait_until
from tests.support.replaydata import small_results_dir
from tests.support.tapes import Drained
from tests.support.tiers import starts_processes


@pytest.fixture(scope="module")
@starts_processes
def results(tmp_path_factory):
    return small_results_dir(tmp_path_factory.mktemp("tapes") / "out")


def copy_of(results: Path, where: Path) -> Path:
    shutil.copytree(results, where)
    return where


def make_beside(out: Path, lines: list[bytes] | None = None) -> None:
    """The maker run over ``lines`` (games.jsonl's, as stored) until it has made every tape, then closed."""
    maker = Drained(str(out))
    assert maker.start()
    for raw in lines if lines is not None else (out / "games.jsonl").read_bytes().splitlines(keepends=True):
        maker.add(raw, bool(json.loads(raw)["faults"]))
    maker.close()


def count_replays(monkeypatch) -> list[str]:
    """Every game the page replays itself (the maker, forked before, is not counted)."""
    replayed: list[str] = []
    real = rows.tape
    monkeypatch.setattr(rows, "tape", lambda stored: replayed.append(stored.game) or real(stored))
    return replayed


def page_of(out: Path, **kwargs: object) -> tuple[str, list[str]]:
    path = write_report(str(out), **kwargs)
    shards = sorted(Path(path).parent.glob("report_files/*.js"))
    return Path(path).read_text(), [p.read_text() for p in shards]


@pytest.mark.slow
def test_the_page_takes_the_tapes_made_beside_and_is_the_page_it_would_make(results, tmp_path, monkeypatch):
    beside, after = copy_of(results, tmp_path / "beside"), copy_of(results, tmp_path / "after")
    make_beside(beside)
    made = made_tapes(str(beside))
    lines = [json.loads(x) for x in (beside / "games.jsonl").read_text().splitlines()]
    assert sorted(made) == sorted(line["game"] for line in lines)
    assert all(made[line["game"]][0] == line_digest(line) for line in lines)
    replayed = count_replays(monkeypatch)
    page = page_of(beside)
    assert replayed == []  # every tape was taken as made
    assert not os.path.exists(ResultsDir(str(beside)).tapes)  # used once: gone with the page written
    assert page == page_of(after)
    assert len(replayed) == len(lines)  # the page without them replays every game


@pytest.mark.slow
def test_a_tape_made_from_another_line_is_not_taken(results, tmp_path, monkeypatch):
    """A game whose line changed since its tape was made (played again, or edited) is replayed by the page."""
    out = copy_of(results, tmp_path / "out")
    make_beside(out)
    lines = [json.loads(x) for x in (out / "games.jsonl").read_text().splitlines()]
    first = next(i for i, line in enumerate(lines) if line.get("actions") and not line["faults"])
    actions = lines[first]["actions"].split()
    lines[first]["actions"] = " ".join(actions[:-1])  # the game cut one action short: another tape
    (out / "games.jsonl").write_text("".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines))
    fresh = copy_of(out, tmp_path / "fresh")
    os.remove(ResultsDir(str(fresh)).tapes)
    replayed = count_replays(monkeypatch)
    page = page_of(out)
    assert replayed == [lines[first]["game"]]
    assert page == page_of(fresh)


@pytest.mark.slow
def test_processes_replaying_the_rest_keep_the_games_in_order(results, tmp_path):
    """Half the tapes made beside: the report's processes replay the others, and the page is the same."""
    beside, after = copy_of(results, tmp_path / "beside"), copy_of(results, tmp_path / "after")
    raw = (beside / "games.jsonl").read_bytes().splitlines(keepends=True)
    make_beside(beside, raw[::2])
    assert len(made_tapes(str(beside))) == len(raw[::2])
    kwargs = {"inline_games": 3, "sample_games": 2, "shard_games": 2}  # sharded: every kind of row
    assert page_of(beside, jobs=3, **kwargs) == page_of(after, jobs=1, **kwargs)


@pytest.mark.slow
def test_a_restart_forgets_the_tapes_and_the_quota_counts_again(results, tmp_path):
    out = copy_of(results, tmp_path / "out")
    raw = (out / "games.jsonl").read_bytes().splitlines(keepends=True)
    faulted = [line for line in raw if json.loads(line)["faults"]]
    clean = [line for line in raw if not json.loads(line)["faults"]]
    maker = Drained(str(out), first=2, faulted=1)
    assert maker.start()
    for line in raw:
        maker.add(line, bool(json.loads(line)["faults"]))
    maker.restart()
    for line in clean[:3] + faulted:
        maker.add(line, bool(json.loads(line)["faults"]))
    maker.close()
    made = made_tapes(str(out))
    # After the restart: the first two games, then one with faults; nothing of before.
    assert sorted(made) == sorted(json.loads(x)["game"] for x in clean[:2] + faulted[:1])


@pytest.mark.slow
def test_a_maker_that_died_costs_the_run_nothing(results, tmp_path):
    """Its tapes so far are taken; the page replays the rest; nothing waits for it."""
    beside, after = copy_of(results, tmp_path / "beside"), copy_of(results, tmp_path / "after")
    raw = (beside / "games.jsonl").read_bytes().splitlines(keepends=True)
    maker = TapesBeside(str(beside))
    assert maker.start()
    maker.add(raw[0], False)
    os.kill(maker._pid, signal.SIGKILL)
    for line in raw[1:]:
        maker.add(line, bool(json.loads(line)["faults"]))
    maker.close(wait=5.0)
    assert page_of(beside) == page_of(after)


ARENA = """\
name: tapes
seats: 2
bootstrap: 0
stages:
  - {name: league, ruleset: family, format: round_robin, games: 6}
bots:
  - builtin:hard
  - builtin:random
  - builtin:easy
"""


@pytest.mark.slow
def test_an_arena_makes_its_tapes_beside_its_games_and_the_page_is_the_same(tmp_path, monkeypatch):
    file = tmp_path / "arena.yaml"
    file.write_text(ARENA)
    run = run_arena(load_arena(str(file)), out=str(tmp_path / "beside"), jobs=1, page_tapes=Drained,
                    tapes_beside=True)
    assert run.complete
    made = made_tapes(str(tmp_path / "beside"))
    lines = [json.loads(x) for x in (tmp_path / "beside" / "games.jsonl").read_text().splitlines()]
    assert len(lines) == run.doc.games and {line["game"]: line_digest(line) for line in lines} == \
        {game: key for game, (key, _) in made.items()}
    run_arena(load_arena(str(file)), out=str(tmp_path / "after"), jobs=1, page_tapes=TapesBeside, tapes_beside=False)
    assert not os.path.exists(ResultsDir(str(tmp_path / "after")).tapes)
    replayed = count_replays(monkeypatch)
    beside = page_of(tmp_path / "beside")[0]
    assert replayed == []
    after = page_of(tmp_path / "after")[0]
    assert len(replayed) == len(lines)

    def games_of(page: str) -> tuple[str, str]:
        data = page.split("id=lc-data>")[1].split("</script>")[0]
        return json.dumps(json.loads(data)["games"]), page.split("id=lc-tapes>")[1].split("</script>")[0]

    assert games_of(beside) == games_of(after)  # the runs' times differ; their games and tapes do not


@pytest.mark.parametrize("workers, cores, local, beside", [
    (1, 2, True, True),    # the sample arena with one worker: the tapes take the core it leaves
    (2, 2, True, False),   # every core playing: the page makes them after, two at a time
    (3, 8, True, True),
    (8, 2, False, True),   # the workers are a cluster's: this machine's cores are free
])
def test_tapes_go_beside_the_games_when_a_core_is_free(workers, cores, local, beside):
    assert tapes_beside_pays(workers, cores, local) is beside


@pytest.mark.slow
def test_the_maker_takes_only_idle_cpu_and_stops_at_the_games_end(results, tmp_path):
    """It never slows the games (SCHED_IDLE, on the CPUs no worker is pinned to), and the run does not wait for it
    to catch up: closed at once, it stops; the page replays what it did not make, and is the same."""
    beside, after = copy_of(results, tmp_path / "beside"), copy_of(results, tmp_path / "after")
    maker = TapesBeside(str(beside))
    free = sorted(os.sched_getaffinity(0))[-1:]  # a CPU no worker is pinned to, as the run gives it
    assert maker.start(free)
    if hasattr(os, "SCHED_IDLE"):
        assert wait_until(lambda: os.sched_getscheduler(maker._pid) == os.SCHED_IDLE)
        assert os.sched_getaffinity(maker._pid) == set(free)
    raw = (beside / "games.jsonl").read_bytes().splitlines(keepends=True)
    for line in raw:
        maker.add(line, bool(json.loads(line)["faults"]))
    maker.close()
    assert maker._pid is None  # ended and reaped
    assert set(made_tapes(str(beside))) <= {json.loads(line)["game"] for line in raw}
    assert page_of(beside) == page_of(after)


@pytest.mark.slow
def test_a_match_that_writes_a_page_makes_its_tapes_beside_its_games(tmp_path, monkeypatch):
    """``lastcard match --out``: its page's tapes are made beside its games; without ``--out`` (no page) or with
    ``--no-report``, no tape maker is started."""
    from click.testing import CliRunner

    from referee.arena import runner
    from referee.cli.main import cli
    from referee.html_report import tapes_beside

    started: list[str] = []

    class Counted(Drained):
        def start(self, cpus=()):
            started.append(self.out_dir)
            return super().start(cpus)

    monkeypatch.setattr(tapes_beside, "TapesBeside", Counted)
    monkeypatch.setattr(runner, "tapes_beside_pays", lambda *a: True)  # whatever the machine's cores
    replayed = count_replays(monkeypatch)

    def match(*extra: str) -> None:
        res = CliRunner().invoke(cli, ["match", "-r", "family", "-o", "target=round", "-n", "4", "--seed", "5",
                                       "--jobs", "1", *extra, "builtin:hard", "builtin:random"])
        assert res.exit_code == 0, res.output

    match("--out", str(tmp_path / "m"))
    assert started == [str(tmp_path / "m")] and replayed == []  # every tape made beside the games
    assert (tmp_path / "m" / "report.html").exists() and not os.path.exists(ResultsDir(str(tmp_path / "m")).tapes)
    match()
    match("--out", str(tmp_path / "n"), "--no-report")
    assert started == [str(tmp_path / "m")]


def test_the_tapes_go_on_the_cpus_no_worker_is_pinned_to():
    """As the executor pinned its workers (worker w on the w-th CPU): the others; none where it pins none."""
    from referee.run.executor import LocalExecutor, unpinned_cpus
    from referee.run.workers import usable_cpus

    cpus = usable_cpus()
    assert unpinned_cpus(LocalExecutor(1, pin=True)) == cpus[1:]
    assert unpinned_cpus(LocalExecutor(1, pin=False)) == []
