"""No traceback for an operating-system error: a full disk, a folder made read-only, a file deleted under the
run. The command names the path and the cause, keeps the games written so far, exits 1, and ``--resume``
(or, for a ladder, the same command again) finishes once the cause is fixed."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from referee.run.executor import OS_ERROR, ExecutorError, _failure
from referee.store.disk import naming, os_error_text
from tests.support.tiers import starts_processes

BOTS = ["builtin:easy", "builtin:random"]


def lastcard(cwd: Path, *args: str, prefix: tuple[str, ...] = ()) -> subprocess.Popen[str]:
    return subprocess.Popen([*prefix, sys.executable, "-m", "referee.cli.entry", *args], cwd=cwd, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def finish(proc: subprocess.Popen[str]) -> tuple[int, str]:
    _, err = proc.communicate(timeout=600)
    return proc.returncode, err


def run(cwd: Path, *args: str, prefix: tuple[str, ...] = ()) -> tuple[int, str]:
    return finish(lastcard(cwd, *args, prefix=prefix))


def games(folder: Path) -> list[dict]:
    """The games of games.jsonl without their timings, in id order (whole lines: a full disk may cut the last)."""
    out = []
    for line in (folder / "games.jsonl").read_text().split("\n")[:-1]:
        game = json.loads(line)
        for key in ("wall_ms", "times"):
            game.pop(key, None)
        out.append(game)
    return sorted(out, key=lambda g: g["game"])


@pytest.fixture
@starts_processes
def small_disk():
    """A 200 KiB tmpfs (root only); unmounted after."""
    folder = Path(tempfile.mkdtemp(prefix="lastcard-disk-"))
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=200k", "tmpfs", str(folder)], capture_output=True,
                          text=True)
    if done.returncode != 0:
        folder.rmdir()
        pytest.skip(f"cannot mount a small tmpfs to fill: {done.stderr.strip() or 'mount refused'} (needs root)")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=False)
        folder.rmdir()


def grow(folder: Path) -> None:
    subprocess.run(["mount", "-o", "remount,size=50m", str(folder)], check=True)


def test_a_full_disk_stops_a_match_with_the_path_and_resume_finishes_it_identically(small_disk, tmp_path):
    out = small_disk / "out"
    code, err = run(tmp_path, "match", "-n", "400", "--no-report", "--out", str(out), *BOTS)
    assert code == 1, err
    assert "Traceback" not in err
    assert (f"Error: the run stopped on an operating-system error: {out / 'games.jsonl'}: No space left on device "
            "(ENOSPC)\nfree some space on the disk that holds it\n") in err
    assert "the games written so far are kept; once that is fixed, finish the run with: lastcard match" in err
    kept = games(out)  # whole lines only are read back
    assert 0 < len(kept) < 400
    code, err = run(tmp_path, "match", "-n", "400", "--no-report", "--out", str(out), "--resume", *BOTS)
    assert code == 1 and "No space left on device" in err  # still full: said again, nothing lost
    grow(small_disk)
    code, err = run(tmp_path, "match", "-n", "400", "--no-report", "--out", str(out), "--resume", *BOTS)
    assert code == 0, err
    assert f"resuming: {len(kept)} of 400 games already played" in err
    code, err = run(tmp_path, "match", "-n", "400", "--no-report", "--out", str(tmp_path / "whole"), *BOTS)
    assert code == 0, err
    assert games(out) == games(tmp_path / "whole")
    assert json.loads((out / "results.json").read_text())["standings"] == \
        json.loads((tmp_path / "whole" / "results.json").read_text())["standings"]


def test_a_full_disk_stops_a_ladder_and_the_next_run_goes_on(small_disk, tmp_path):
    arena = tmp_path / "l.yaml"
    arena.write_text("name: l\nseed: 1\nseats: 2\nbootstrap: 0\nbots: [builtin:easy, builtin:random]\n")
    db = small_disk / "l.db"
    args = ("ladder", "run", str(arena), "--db", str(db), "--out", str(tmp_path / "out"), "--games-per-bot", "600",
            "--quiet")
    code, err = run(tmp_path, *args)
    assert code == 1, err
    assert "Traceback" not in err
    assert f"{db}: database or disk is full (ENOSPC)\nfree some space on the disk that holds it\n" in err
    assert f"the games recorded before it are kept in {db}; once that is fixed, run the same command again" in err
    grow(small_disk)
    code, err = run(tmp_path, *args)
    assert code == 0, err
    assert json.loads((tmp_path / "out" / "results.json").read_text())["games"] == 600


def _as_someone() -> tuple[tuple[str, ...], Path]:
    """A command prefix that runs as a user whom file modes bind (root is not), and a folder that user owns."""
    folder = Path(tempfile.mkdtemp(prefix="lastcard-ro-"))
    if os.geteuid() != 0:
        return (), folder
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        shutil.rmtree(folder)
        pytest.skip("as root a read-only folder is still writable, and setpriv (to run as nobody) is not installed")
    os.chmod(folder, 0o755)
    os.chown(folder, 65534, 65534)
    return (setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"), folder


@pytest.mark.slow
@pytest.mark.parametrize("records", [True, False], ids=["records", "reports"])
def test_a_folder_made_read_only_mid_run_is_named_and_resume_finishes(records):
    """The folder and its files made read-only with --records: the workers' next record write fails. The folder
    alone without: the games go on (games.jsonl is open) and the reports at the end fail. Either way: the
    path, the cause, exit 1, and --resume once writable again."""
    prefix, home = _as_someone()
    try:
        out = home / "out"
        args = ["match", "-n", "3000", "--no-report", "--out", str(out), *(["--records"] if records else []), *BOTS]
        proc = lastcard(home, *args, prefix=prefix)
        deadline = time.monotonic() + 120
        while not ((out / "games.jsonl").exists() and (out / "games.jsonl").stat().st_size > 20000):
            assert proc.poll() is None and time.monotonic() < deadline, "the match ended before the folder was closed"
            time.sleep(0.02)
        closed = [out, *(out.iterdir() if records else ())]  # chmod -R a-w OUT; or the folder alone
        for path in closed:
            os.chmod(path, 0o555 if path.is_dir() else 0o444)
        code, err = finish(proc)
        assert code == 1, err
        assert "Traceback" not in err
        named = out / ("records.idx" if records else "results.json.part")
        assert f"{named}: Permission denied (EACCES)\nmake it (or its folder) writable again: chmod u+w\n" in err
        assert "the games written so far are kept; once that is fixed, finish the run with: lastcard match" in err
        for path in closed:
            os.chmod(path, 0o755 if path.is_dir() else 0o644)
        code, err = run(home, *args, "--resume", prefix=prefix)
        assert code == 0, err
        assert json.loads((out / "results.json").read_text())["games"] == 3000
    finally:
        shutil.rmtree(home, ignore_errors=True)


@pytest.mark.slow
def test_games_jsonl_deleted_mid_run_is_named_and_resume_plays_again(tmp_path):
    out = tmp_path / "out"
    args = ["match", "-n", "3000", "--no-report", "--out", str(out), *BOTS]
    proc = lastcard(tmp_path, *args)
    deadline = time.monotonic() + 120
    while not ((out / "games.jsonl").exists() and (out / "games.jsonl").stat().st_size > 20000):
        assert proc.poll() is None and time.monotonic() < deadline, "the match ended before the file was deleted"
        time.sleep(0.02)
    (out / "games.jsonl").unlink()
    code, err = finish(proc)
    assert code == 1, err
    assert "Traceback" not in err
    assert f"{out / 'games.jsonl'}: No such file or directory (ENOENT)\nit (or its folder) was deleted during" in err
    assert "what was deleted is lost; to play again what is missing: lastcard match" in err
    code, err = run(tmp_path, *args, "--resume")
    assert code == 0, err
    assert json.loads((out / "results.json").read_text())["games"] == 3000


def test_an_error_without_a_path_gets_the_path_it_was_about():
    with pytest.raises(OSError) as caught, naming("/out/games.jsonl"):
        raise OSError(28, "No space left on device")
    assert caught.value.filename == "/out/games.jsonl" and caught.value.errno == 28
    assert os_error_text(caught.value).startswith(
        "the run stopped on an operating-system error: /out/games.jsonl: No space left on device (ENOSPC)")
    assert os_error_text(OSError(5, "Input/output error")).endswith(": Input/output error (EIO)\n"
                                                                     "the disk reported an input/output error: "
                                                                     "check the disk")


def test_a_worker_that_cannot_write_its_records_says_so_as_an_os_error():
    error = _failure("g0001", OS_ERROR + json.dumps([13, "Permission denied", "/out/records.idx"]))
    assert isinstance(error, PermissionError) and error.filename == "/out/records.idx"
    assert isinstance(_failure("g0001", "Traceback ..."), ExecutorError)  # a referee bug stays one


def test_a_report_the_disk_cannot_hold_is_said_with_its_path(monkeypatch, tmp_path, capsys):
    import referee.html_report as html_report
    from referee.cli.options import write_html_report

    def full(out_dir: str, jobs: int = 1) -> str:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(html_report, "write_report", full)
    write_html_report(str(tmp_path))  # never fatal
    assert capsys.readouterr().err == f"report.html not written: {tmp_path / 'report.html'}: No space left on device\n"
