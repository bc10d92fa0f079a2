"""Running arenas: byte-identical results whatever --jobs, interrupted and killed arenas resumed to the
same results, the output files, and standings on arenas whose true order is known."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from referee.arena import load_arena, run_arena
from referee.cli.main import cli
from referee.store.record_file import recorded_ids
from referee.store.run_store import StoreError
from tests.support.procs import alive as _alive
from tests.support.procs import children, cmdline, wait_until
from tests.support.tiers import starts_processes

ROOT = Path(__file__).resolve().parents[2]
RESULTS_SCHEMA = json.loads((ROOT / "protocol" / "schemas" / "results.schema.json").read_text())

# Two stages, sampled then knockout, duplicate deals in the knockout: every part of the schedule.
MIXED = """\
name: mixed
seed: 7
ruleset: arcade
seats: 3
bootstrap: 30
bots: [builtin:hard, builtin:random, builtin:medium, builtin:easy, builtin:random, builtin:hard, builtin:easy]
stages:
  - {name: league, format: sampled, games: 6}
  - {name: cup, format: knockout, entrants: 6, games: 3, advance: 1, duplicate: true}
"""


def write(tmp_path: Path, text: str, name: str = "arena.yaml") -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def games_by_id(out: Path) -> dict[str, dict]:
    lines = [json.loads(x) for x in (out / "games.jsonl").read_text().splitlines()]
    return {g["game"]: {k: v for k, v in g.items() if k not in ("time_ms", "wall_ms")} for g in lines}


@pytest.fixture(scope="module")
@starts_processes
def mixed_reference(tmp_path_factory):
    """The mixed arena played uninterrupted with one worker: its results.json bytes and games."""
    tmp = tmp_path_factory.mktemp("reference")
    run = run_arena(load_arena(write(tmp, MIXED)), out=str(tmp / "out"), jobs=1)
    assert run.complete
    return (tmp / "out" / "results.json").read_bytes(), games_by_id(tmp / "out")


def test_results_are_byte_identical_whatever_the_number_of_workers(tmp_path, mixed_reference):
    reference, games = mixed_reference
    jsonschema.validate(json.loads(reference), RESULTS_SCHEMA)
    run = run_arena(load_arena(write(tmp_path, MIXED)), out=str(tmp_path / "out"), jobs=2)
    assert run.complete and run.played_now == len(games)
    assert (tmp_path / "out" / "results.json").read_bytes() == reference
    assert games_by_id(tmp_path / "out") == games


def test_an_interrupted_arena_resumes_to_the_same_results(tmp_path, mixed_reference):
    reference, games = mixed_reference
    arena = load_arena(write(tmp_path, MIXED))
    out = tmp_path / "out"
    first = run_arena(arena, out=str(out), jobs=2, stop_after=9)
    assert not first.complete and first.played_now == 9
    partial = json.loads((out / "results.json").read_text())
    assert partial["complete"] is False and partial["games"] == 9
    assert len((out / "games.jsonl").read_text().splitlines()) == 9
    with pytest.raises(StoreError, match="unfinished arena .9 games played.: add --resume"):
        run_arena(arena, out=str(out), jobs=1)
    second = run_arena(arena, out=str(out), jobs=2, resume=True, stop_after=8)  # stopped again, in the knockout
    assert not second.complete
    third = run_arena(arena, out=str(out), jobs=1, resume=True)
    assert third.complete and 9 + 8 + third.played_now == len(games) == 22
    assert (out / "results.json").read_bytes() == reference
    assert games_by_id(out) == games


def test_a_half_written_last_line_is_played_again(tmp_path, mixed_reference):
    reference, _ = mixed_reference
    arena = load_arena(write(tmp_path, MIXED))
    out = tmp_path / "out"
    run_arena(arena, out=str(out), jobs=1, stop_after=5)
    with open(out / "games.jsonl", "a") as fh:
        fh.write('{"game": "g000006", "seat')  # the referee was killed mid-write
    run = run_arena(arena, out=str(out), jobs=1, resume=True)
    assert run.complete and (out / "results.json").read_bytes() == reference


@pytest.mark.slow
def test_resume_refuses_a_different_arena_and_fresh_starts_over(tmp_path):
    arena = load_arena(write(tmp_path, MIXED))
    out = tmp_path / "out"
    run_arena(arena, out=str(out), jobs=1, stop_after=3)
    changed = load_arena(write(tmp_path, MIXED.replace("seed: 7", "seed: 8")))
    with pytest.raises(StoreError, match=r"the arena changed since .* \(different seed\)"):
        run_arena(changed, out=str(out), jobs=1, resume=True)
    run = run_arena(changed, out=str(out), jobs=1, fresh=True, stop_after=2)
    assert len((out / "games.jsonl").read_text().splitlines()) == 2 and not run.complete


@pytest.mark.slow
def test_a_finished_arena_is_simply_run_again(tmp_path):
    arena = load_arena(write(tmp_path, "seats: 2\ngames: 2\nruleset: arcade\nbootstrap: 0\n"
                                       "bots: [builtin:hard, builtin:random]\n"))
    out = tmp_path / "out"
    run_arena(arena, out=str(out), jobs=1)
    before = (out / "results.json").read_bytes()
    run = run_arena(arena, out=str(out), jobs=1)
    assert run.played_now == 2 and (out / "results.json").read_bytes() == before


@pytest.mark.slow
def test_hard_beats_random_in_standings_and_ratings(tmp_path):
    arena = load_arena(write(tmp_path, "seats: 4\ngames: 20\nruleset: compact\nbootstrap: 100\nseed: 3\n"
                                       "bots: [builtin:random, builtin:hard, builtin:random, builtin:medium,"
                                       " builtin:random]\n"))
    run = run_arena(arena, out=str(tmp_path / "out"), jobs=2)
    rows = run.standings.rows
    assert [r.bot for r in rows][:2] == ["hard", "medium"]
    assert {r.bot for r in rows[2:]} == {"random", "random#2", "random#3"}
    hard, medium, randoms = rows[0], rows[1], rows[2:]
    assert hard.rating_low > max(r.rating_high for r in randoms if r.rating_high is not None)
    assert medium.rating_low > max(r.rating_high for r in randoms if r.rating_high is not None)
    assert hard.win_low > max(r.win_high for r in randoms)
    assert hard.avg_place < medium.avg_place < min(r.avg_place for r in randoms)
    assert [r.rank for r in rows] == [1, 2, 3, 4, 5]


@pytest.mark.slow
def test_the_command_writes_every_output_file(tmp_path):
    path = write(tmp_path, "name: files\nseats: 2\ngames: 4\nruleset: arcade\nrecords: true\nbootstrap: 20\n"
                           "bots: [builtin:hard, builtin:random, builtin:easy]\n")
    out = tmp_path / "out"
    res = CliRunner().invoke(cli, ["arena", path, "--out", str(out), "--jobs", "2"])
    assert res.exit_code == 0, res.output
    assert "rank" in res.output and "rating [95%]" in res.output and "results:" in res.output
    for name in ("results.json", "standings.csv", "standings.md", "head_to_head.csv", "games.jsonl", "timing.json",
                 "arena.json"):
        assert (out / name).exists(), name
    # records: true keeps every game's record, in one compressed file with an index
    assert not (out / "records").exists()
    assert recorded_ids(str(out)) == {json.loads(x)["game"] for x in (out / "games.jsonl").read_text().splitlines()}
    assert len(recorded_ids(str(out))) == 12
    doc = json.loads((out / "results.json").read_text())
    jsonschema.validate(doc, RESULTS_SCHEMA)
    assert doc["format"] == "lastcard-results" and doc["kind"] == "arena" and doc["complete"]
    assert [r["rank"] for r in doc["standings"]] == [1, 2, 3]
    assert "avg_ms" not in doc["standings"][0]  # durations live in timing.json
    assert "avg_ms" in (out / "standings.csv").read_text().splitlines()[0]
    line = json.loads((out / "games.jsonl").read_text().splitlines()[0])
    assert {"game", "seed", "seating", "placements", "scores", "faults", "moves", "stage", "deal"} <= set(line)
    assert "| rank | bot |" in (out / "standings.md").read_text()


@pytest.mark.slow
def test_match_writes_the_same_results_format(tmp_path):
    out = tmp_path / "m"
    res = CliRunner().invoke(cli, ["match", "-r", "arcade", "-n", "4", "--out", str(out), "builtin:hard",
                                   "builtin:random"])
    assert res.exit_code == 0, res.output
    doc = json.loads((out / "results.json").read_text())
    jsonschema.validate(doc, RESULTS_SCHEMA)
    arena_row = ["rank", "bot", "games", "wins", "draws", "avg_place", "points", "rating", "rating_low",
                 "rating_high", "win_rate", "win_low", "win_high", "faults"]
    assert list(doc["standings"][0]) == arena_row
    assert (doc["format"], doc["version"], doc["kind"]) == ("lastcard-results", 2, "match")
    assert (out / "standings.md").exists() and (out / "timing.json").exists()


# ------------------------------------------------------------------ real interruptions, through the command line

# Long enough to be stopped half-way: built-in games go to the workers in batches and 200 of them took
# under half a second, done before the test could look at the workers.
LONG_GAMES = 2000
LONG = f"name: long\nseats: 4\ngames: {LONG_GAMES // 5}\nruleset: compact\nbootstrap: 20\n" \
       "bots: [builtin:hard, builtin:random, builtin:medium, builtin:easy, builtin:random]\n"


def start(path: str, out: Path, *extra: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", "from referee.cli.main import cli; cli()", "arena", path, "--out",
                             str(out), "--jobs", "2", *extra], start_new_session=True, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT)


def wait_for_games(out: Path, count: int, proc: subprocess.Popen, timeout: float = 60) -> None:
    games = out / "games.jsonl"

    def played() -> bool:
        return games.exists() and len(games.read_bytes().splitlines()) >= count

    wait_until(lambda: played() or proc.poll() is not None, within=timeout)
    assert played(), proc.communicate() if proc.poll() is not None else "no games"


def workers_of(pid: int) -> list[int]:
    """The referee's worker processes (its children; each leads its own session)."""
    return children(pid)


@pytest.mark.slow
def test_ctrl_c_stops_cleanly_prints_the_standings_and_resumes(tmp_path):
    path = write(tmp_path, LONG)
    out = tmp_path / "out"
    proc = start(path, out)
    wait_for_games(out, 30, proc)
    workers = workers_of(proc.pid)
    assert len(workers) == 2
    os.killpg(proc.pid, signal.SIGINT)  # what a terminal sends the whole foreground group
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    assert "interrupted" in stderr and "standings so far" in stderr and "--resume" in stderr
    assert "(unfinished)" in stdout and "rank" in stdout and "Traceback" not in stderr
    assert not [w for w in workers if _alive(w)]
    played = len((out / "games.jsonl").read_text().splitlines())
    assert json.loads((out / "results.json").read_text())["games"] == played < LONG_GAMES
    proc = start(path, out, "--resume")
    stdout, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 0, stderr
    assert f"resuming: {played} of {LONG_GAMES} games already played" in stderr
    reference = tmp_path / "ref"
    assert run_arena(load_arena(path), out=str(reference), jobs=2).complete
    assert (out / "results.json").read_bytes() == (reference / "results.json").read_bytes()


@pytest.mark.slow
def test_a_killed_referee_loses_only_the_games_in_flight(tmp_path):
    path = write(tmp_path, LONG)
    out = tmp_path / "out"
    proc = start(path, out)
    wait_for_games(out, 20, proc)
    workers = workers_of(proc.pid)
    assert len(workers) == 2
    os.kill(proc.pid, signal.SIGKILL)  # no clean-up at all
    proc.communicate(timeout=30)
    kept = len((out / "games.jsonl").read_text().splitlines())
    assert kept >= 20
    assert wait_until(lambda: not any(_alive(w) for w in workers), within=10), "orphaned workers must exit"
    run = run_arena(load_arena(path), out=str(out), jobs=2, resume=True)
    assert run.complete and run.played_now == LONG_GAMES - kept


@pytest.mark.slow
def test_bot_processes_log_their_stderr_and_are_all_gone_after(tmp_path):
    bot = ROOT / "sample_bots" / "python" / "random_bot.py"
    path = write(tmp_path, f"seats: 3\ngames: 3\nruleset: arcade\nbootstrap: 0\nbots:\n"
                           f"  - {{name: py1, command: '{{python}} {bot}'}}\n"
                           f"  - {{name: py2, command: '{{python}} {bot}', env: {{LASTCARD_SEED: 7}}}}\n"
                           f"  - builtin:hard\n")
    run = run_arena(load_arena(path), out=str(tmp_path / "out"), jobs=2)
    assert run.complete and not any(r.faults for r in run.standings.rows)
    assert (tmp_path / "out" / "logs" / "py1.stderr.log").exists()
    assert (tmp_path / "out" / "logs" / "py2.stderr.log").exists()


class _Stream(io.StringIO):
    def __init__(self, tty: bool) -> None:
        super().__init__()
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


def test_progress_is_a_bar_on_a_terminal_and_plain_lines_otherwise(monkeypatch):
    from referee.cli.arena import TerminalProgress

    tty = _Stream(True)
    bar = TerminalProgress(tty)
    bar.start(100, 0)
    bar.t0 -= 2.0  # two seconds in
    bar.last -= 2.0
    bar.update(40, 100, "hard 1.20")
    assert "[###########" in tty.getvalue() and "40/100 games" in tty.getvalue() and "20.0/s" in tty.getvalue()
    assert "ETA 3 s" in tty.getvalue() and "leader hard 1.20" in tty.getvalue()
    plain = _Stream(False)
    monkeypatch.setattr(sys, "stderr", plain)
    lines = TerminalProgress(plain)
    lines.start(100, 0)
    lines.update(10, 100, None)  # too soon for a line
    lines.last -= TerminalProgress.LINE_EVERY
    lines.update(20, 100, None)
    assert plain.getvalue().count("\n") == 1 and "20/100 games" in plain.getvalue() and "\r" not in plain.getvalue()


def _is_watchdog(pid: int) -> bool:
    from referee.bots.reaper import WATCHDOG_MARK

    return WATCHDOG_MARK.encode() in cmdline(pid)


@pytest.mark.slow
def test_ctrl_c_leaves_no_bot_process_behind(tmp_path):
    bot = ROOT / "sample_bots" / "python" / "random_bot.py"
    path = write(tmp_path, "seats: 3\ngames: 300\nruleset: compact\nbootstrap: 0\nbots:\n"
                 + "".join(f"  - {{name: py{i}, command: '{{python}} {bot}'}}\n" for i in range(3)))
    out = tmp_path / "out"
    proc = start(path, out)
    wait_for_games(out, 3, proc)
    workers = workers_of(proc.pid)
    bots = [b for w in workers for b in workers_of(w) if not _is_watchdog(b)]
    assert len(bots) == 6  # three bots in each of the two workers, kept alive between games
    os.killpg(proc.pid, signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    assert wait_until(lambda: not any(_alive(p) for p in workers + bots), within=5), \
        [p for p in workers + bots if _alive(p)]


@pytest.mark.slow
def test_a_worker_is_pinned_to_one_cpu_when_cpus_outnumber_workers():
    from referee.run.executor import LocalExecutor
    from referee.run.workers import usable_cpus

    if len(usable_cpus()) < 2:
        pytest.skip("one CPU: nothing to pin")
    for pin, expected in ((None, 1), (False, len(usable_cpus()))):
        executor = LocalExecutor(1, pin=pin)
        executor.start()
        try:
            (proc, _), = executor._workers  # noqa: SLF001 - the worker process itself
            assert wait_until(lambda: len(os.sched_getaffinity(proc.pid)) == expected, within=5, step=0.02), \
                os.sched_getaffinity(proc.pid)  # noqa: B023 - called at once, in this iteration
        finally:
            executor.close()


@pytest.mark.slow
def test_the_workers_quit_their_bots_while_the_standings_are_fitted_and_are_gone_after(tmp_path, monkeypatch):
    """The final fit and reports no longer wait for every bot to exit: the workers are told first, and
    joined after (each left politely, having quit its bots, not killed)."""
    from referee.arena import runner as runner_module
    from referee.run import executor as executor_module

    seen: list[str] = []
    workers: list = []
    real_stop, real_summarize = executor_module.LocalExecutor.stop_soon, runner_module.summarize

    def stop_soon(self):
        seen.append("told")
        workers.extend(proc for proc, _ in self._workers)
        real_stop(self)

    def summarize(*args, **kwargs):
        seen.append("summarize")
        return real_summarize(*args, **kwargs)

    monkeypatch.setattr(executor_module.LocalExecutor, "stop_soon", stop_soon)
    monkeypatch.setattr(runner_module, "summarize", summarize)
    bot = ROOT / "sample_bots" / "python" / "random_bot.py"
    path = write(tmp_path, f"seats: 3\ngames: 3\nruleset: arcade\nbootstrap: 0\nbots:\n"
                           f"  - {{name: py1, command: '{{python}} {bot}'}}\n  - builtin:hard\n  - builtin:easy\n")
    run = run_arena(load_arena(path), out=str(tmp_path / "out"), jobs=2)
    assert run.complete and seen[:2] == ["told", "summarize"]
    assert workers and all(proc.exitcode == 0 for proc in workers)  # quit their bots and left, not terminated
