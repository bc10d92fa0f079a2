"""Arenas on a real Dask cluster: a scheduler and workers started here as processes on 127.0.0.1 only, stopped
by their PIDs. Results byte-identical to a local run; a worker killed mid-arena; an interrupted arena resumed;
a worker lacking a bot's runtime; one arena over TLS with certificates made here."""

from __future__ import annotations

import datetime
import ipaddress
import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

pytest.importorskip("distributed", reason="needs the distributed extra: pip install -e '.[distributed]'")

from click.testing import CliRunner  # noqa: E402
from distributed import Client  # noqa: E402

from referee.arena import load_arena, run_arena  # noqa: E402
from referee.cli.main import cli  # noqa: E402
from referee.cluster.executor import ClusterOptions, cluster_factory  # noqa: E402
from referee.run.executor import ExecutorError  # noqa: E402
from tests.support.procs import wait_until  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_bots" / "python"
DASK = [sys.executable, "-m", "distributed.cli.dask_scheduler"]
WORKER = [sys.executable, "-m", "distributed.cli.dask_worker"]
#: Every listening socket on the loopback address: the scheduler's and workers' dashboards too.
LOOPBACK = ["--host", "127.0.0.1", "--dashboard-address", "127.0.0.1:0"]


class Cluster:
    """A scheduler and workers as child processes, all on 127.0.0.1; ``stop`` ends each by its PID."""

    def __init__(self, folder: Path, tls: list[str] | None = None, env: dict[str, str] | None = None) -> None:
        self.folder = folder
        self.tls = tls or []
        self.procs: dict[str, subprocess.Popen] = {}
        file = folder / "scheduler.json"
        self._spawn("scheduler", DASK + LOOPBACK + ["--port", "0", "--scheduler-file", str(file)] + self.tls, env)
        def written() -> bool:
            return file.exists() and file.stat().st_size > 0

        wait_until(lambda: written() or self.procs["scheduler"].poll() is not None)
        if not written():
            raise RuntimeError("the Dask scheduler did not start: " + self.log("scheduler"))
        self.address = json.loads(file.read_text())["address"]
        assert self.address.split("://")[1].startswith("127.0.0.1:")

    def _spawn(self, name: str, argv: list[str], env: dict[str, str] | None = None) -> None:
        with open(self.folder / f"{name}.log", "wb") as log:
            self.procs[name] = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, cwd=self.folder,
                                                stdin=subprocess.DEVNULL, env={**os.environ, **(env or {})})

    def add_worker(self, name: str, nanny: bool = False) -> None:
        """A one-thread worker; without a nanny (the default) a killed one stays dead."""
        self._spawn(name, WORKER + [self.address, "--name", name, "--nthreads", "1",
                                    "--nanny" if nanny else "--no-nanny",
                                    "--local-directory", str(self.folder / name)] + LOOPBACK + self.tls)

    def wait_for(self, client: Client, count: int) -> None:
        client.wait_for_workers(count, timeout=60)

    def worker_address(self, client: Client, name: str) -> str:
        return next(a for a, w in client.scheduler_info(n_workers=-1)["workers"].items() if w["name"] == name)

    def log(self, name: str) -> str:
        return (self.folder / f"{name}.log").read_text(errors="replace")[-2000:]

    def stop(self) -> None:
        for proc in reversed(list(self.procs.values())):
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in self.procs.values():
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)


def make_arena(tmp_path: Path, games: int = 3, extra: str = "") -> Path:
    """Bots in folders of their own: an executable wrapper that logs its cwd, a Python script, built-ins."""
    base = tmp_path / "arena"
    (base / "bots" / "rand").mkdir(parents=True, exist_ok=True)
    (base / "bots" / "strong").mkdir(parents=True, exist_ok=True)
    shutil.copy(SAMPLES / "random_bot.py", base / "bots" / "rand" / "random_bot.py")
    wrapper = base / "bots" / "rand" / "bot"
    wrapper.write_text('#!/bin/sh\npwd >> "$CWD_LOG"\nexec python3 "$(dirname "$0")/random_bot.py"\n')
    wrapper.chmod(0o755)
    shutil.copy(SAMPLES / "strong_bot.py", base / "bots" / "strong" / "strong_bot.py")
    shutil.copy(SAMPLES / "botkit.py", base / "bots" / "strong" / "botkit.py")  # the bot kit it imports
    file = base / "arena.yaml"
    file.write_text(
        f"name: shipped\nseed: 11\nruleset: arcade\nseats: 3\ngames: {games}\nbootstrap: 20\nbots:\n"
        f"  - {{name: rand, command: ./bot, cwd: bots/rand, sandbox: none, "
        f"env: {{CWD_LOG: '{tmp_path / 'cwds.txt'}'}}}}\n"
        "  - {name: strong, command: \"{python} bots/strong/strong_bot.py\"}\n"
        "  - builtin:hard\n  - builtin:random\n" + extra)
    return file


def games_by_id(out: Path) -> dict[str, dict]:
    lines = [json.loads(x) for x in (out / "games.jsonl").read_text().splitlines()]
    assert len(lines) == len({g["game"] for g in lines}), "a game was counted twice"
    return {g["game"]: {k: v for k, v in g.items() if k not in ("time_ms", "wall_ms")} for g in lines}


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    folder = tmp_path_factory.mktemp("cluster")
    found = Cluster(folder)
    try:
        found.add_worker("w1")
        found.add_worker("w2")
        with Client(found.address, set_as_default=False) as client:
            found.wait_for(client, 2)
        yield found
    finally:
        found.stop()


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """The 12-game arena (results.json names its folders, so every run here plays this one file) played
    locally: the file, its results.json bytes and its games."""
    tmp = tmp_path_factory.mktemp("shared")
    file = make_arena(tmp, games=3)
    run = run_arena(load_arena(str(file)), out=str(tmp / "local"), jobs=2)
    assert run.complete
    return file, (tmp / "local" / "results.json").read_bytes(), games_by_id(tmp / "local")


def on(cluster: Cluster, **options: object):
    return cluster_factory(ClusterOptions(cluster.address, **options))  # type: ignore[arg-type]


def test_an_arena_on_the_cluster_gives_the_local_results_from_the_shipped_copy(tmp_path, cluster, reference):
    file, results, games = reference
    log = file.parent.parent / "cwds.txt"
    before = log.stat().st_size
    run = run_arena(load_arena(str(file)), out=str(tmp_path / "out"), executor_factory=on(cluster))
    assert run.complete and run.played_now == len(games)
    assert (tmp_path / "out" / "results.json").read_bytes() == results
    assert games_by_id(tmp_path / "out") == games
    # The bot ran from each worker's unpacked copy (never from the original folder) on both workers.
    with open(log) as fh:
        fh.seek(before)
        cwds = set(fh.read().split())
    original = str(file.parent / "bots" / "rand")
    assert cwds and original not in cwds and all(c.endswith(original) for c in cwds)
    assert {Path(c).relative_to(cluster.folder).parts[0] for c in cwds} == {"w1", "w2"}


def test_an_interrupted_cluster_arena_resumes_to_the_same_results(tmp_path, cluster, reference):
    file, results, games = reference
    arena = load_arena(str(file))
    out = tmp_path / "out"
    first = run_arena(arena, out=str(out), executor_factory=on(cluster), stop_after=5)
    assert not first.complete and first.played_now == 5
    assert len((out / "games.jsonl").read_text().splitlines()) == 5  # written as each game ended
    second = run_arena(arena, out=str(out), resume=True, executor_factory=on(cluster))
    assert second.complete and second.played_now == len(games) - 5
    assert (out / "results.json").read_bytes() == results


def test_ctrl_c_on_the_command_line_stops_and_resume_finishes_on_the_cluster(tmp_path, cluster):
    # Long enough (160 games) that the interrupt lands while games are being played, not after the last.
    file = make_arena(tmp_path, games=40)
    local = CliRunner().invoke(cli, ["arena", str(file), "--out", str(tmp_path / "local"), "-q", "--no-report"])
    assert local.exit_code == 0, local.output
    results = (tmp_path / "local" / "results.json").read_bytes()
    games = (tmp_path / "local" / "games.jsonl").read_text().splitlines()
    out = tmp_path / "out"
    argv = [sys.executable, "-m", "referee.cli.main", "arena", str(file), "--out", str(out), "-q",
            "--cluster", cluster.address]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=ROOT)
    try:
        def two_games() -> bool:
            return (out / "games.jsonl").exists() and (out / "games.jsonl").read_text().count("\n") >= 2

        wait_until(lambda: two_games() or proc.poll() is not None, step=0.02)
        assert two_games() and proc.poll() is None, proc.communicate()[0]
        proc.send_signal(signal.SIGINT)
        output = proc.communicate(timeout=60)[0].decode()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, output
    assert "standings so far" in output and "--resume" in output
    played = len((out / "games.jsonl").read_text().splitlines())
    assert json.loads((out / "results.json").read_text())["complete"] is False
    resumed = CliRunner().invoke(cli, ["arena", str(file), "--out", str(out), "-q", "--resume",
                                       "--cluster", cluster.address])
    assert resumed.exit_code == 0, resumed.output
    assert played < len(games) and (out / "results.json").read_bytes() == results


def test_the_arena_files_executor_section_sends_the_games_to_the_cluster(tmp_path, cluster):
    file = make_arena(tmp_path, extra=f"executor: {{cluster: '{cluster.address}'}}\n")
    result = CliRunner().invoke(cli, ["arena", str(file), "--out", str(tmp_path / "out"), "-q"])
    assert result.exit_code == 0, result.output
    cwds = (tmp_path / "cwds.txt").read_text().split()
    assert cwds and all(Path(c).relative_to(cluster.folder) for c in cwds)  # played by the workers' copies


def test_a_worker_killed_mid_arena_loses_only_its_games_in_flight(tmp_path, cluster):
    file = make_arena(tmp_path, games=6)
    local = run_arena(load_arena(str(file)), out=str(tmp_path / "local"), jobs=2)
    cluster.add_worker("victim")
    killed: list[int] = []
    with Client(cluster.address, set_as_default=False) as watcher:
        cluster.wait_for(watcher, 3)
        victim = cluster.worker_address(watcher, "victim")

        class KillAfterFive:
            def note(self, text: str) -> None: ...
            def start(self, total: int, done: int) -> None: ...
            def stop(self) -> None: ...

            def update(self, done: int, total: int, leader: str | None) -> None:
                if done >= 5 and not killed:
                    assert wait_until(lambda: watcher.processing(workers=[victim])[victim], within=10, step=0.01), \
                        "the victim had no game in flight"
                    proc = cluster.procs["victim"]
                    proc.kill()
                    proc.wait(10)
                    killed.append(done)

        run = run_arena(load_arena(str(file)), out=str(tmp_path / "out"), executor_factory=on(cluster),
                        progress=KillAfterFive())
    assert killed and run.complete and run.played_now == local.played_now > killed[0]
    assert (tmp_path / "out" / "results.json").read_bytes() == (tmp_path / "local" / "results.json").read_bytes()
    assert games_by_id(tmp_path / "out") == games_by_id(tmp_path / "local")


def test_build_on_workers_builds_in_each_workers_copy(tmp_path, cluster):
    # sandbox: none, so the build may write where it ran (outside its folder): a walled build could not.
    builds = tmp_path / "builds.txt"
    file = make_arena(tmp_path, extra="  - {name: built, command: python3 built.py, cwd: bots/strong, "
                                      f"build: 'pwd >> {builds} && cp strong_bot.py built.py', sandbox: none}}\n")
    run = run_arena(load_arena(str(file)), out=str(tmp_path / "out"),
                    executor_factory=on(cluster, build_on_workers=True))
    assert run.complete and not run.left_out
    places = builds.read_text().split()
    original = str(file.parent / "bots" / "strong")
    assert places[0] == original  # the referee builds first, as locally
    copies = places[1:]
    assert len(copies) == 2 and all(p.endswith(original) and p != original for p in copies)
    assert {Path(p).relative_to(cluster.folder).parts[0] for p in copies} == {"w1", "w2"}


def test_a_worker_without_a_bots_runtime_names_the_bot_before_any_game(tmp_path, cluster, monkeypatch):
    tools = tmp_path / "tools"  # a runtime only the referee's machine has
    tools.mkdir()
    runtime = tools / "pyrun-xyz"
    runtime.write_text(f'#!/bin/sh\nexec {sys.executable} "$@"\n')
    runtime.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tools}{os.pathsep}{os.environ['PATH']}")
    file = make_arena(tmp_path, extra="  - {name: needy, command: \"pyrun-xyz bots/strong/strong_bot.py\"}\n")
    with pytest.raises(ExecutorError) as caught:
        run_arena(load_arena(str(file)), out=str(tmp_path / "out"), executor_factory=on(cluster))
    message = str(caught.value)
    assert "bot 'needy' cannot run there: 'pyrun-xyz' is not on PATH there" in message
    assert message.count("worker tcp://127.0.0.1:") == 2  # each worker says so, and names itself
    assert (tmp_path / "out" / "games.jsonl").read_text() == ""


def test_a_game_that_keeps_killing_its_workers_is_recorded_as_lost(tmp_path):
    killer = ROOT / "tests" / "support" / "fault_bots" / "parent_killer.py"  # kills its worker at its third turn
    file = tmp_path / "arena.yaml"
    file.write_text("name: killer\nseed: 3\nruleset: compact\nseats: 2\ngames: 1\nbootstrap: 0\nbots:\n"
                    f"  - {{name: killer, command: '{{python}} {killer}', sandbox: none}}\n  - builtin:hard\n")
    # The scheduler gives up on a game after the first worker that dies playing it; the nanny restarts the worker.
    strict = Cluster(tmp_path, env={"DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES": "0"})
    try:
        strict.add_worker("w1", nanny=True)
        run = run_arena(load_arena(str(file)), out=str(tmp_path / "out"),
                        executor_factory=cluster_factory(ClusterOptions(strict.address)))
    finally:
        strict.stop()
    lines = [json.loads(x) for x in (tmp_path / "out" / "games.jsonl").read_text().splitlines()]
    assert run.complete and len(lines) == 1
    assert lines[0]["reason"] == "lost" and lines[0]["placements"] == [2, 1]
    assert [f["bot"] for f in lines[0]["faults"]] == ["killer"] and "died" in lines[0]["faults"][0]["message"]


def make_certificates(folder: Path) -> list[str]:
    """A CA and a certificate it signs for 127.0.0.1 (scheduler, workers and referee share it); the TLS flags."""
    crypto = pytest.importorskip("cryptography", reason="the TLS test makes its certificates with cryptography")
    del crypto
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    now = datetime.datetime.now(datetime.UTC)

    def build(subject: str, issuer: x509.Name | None, key, signer, ca: bool) -> x509.Certificate:
        name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, subject)])
        builder = (x509.CertificateBuilder().subject_name(name).issuer_name(issuer or name)
                   .public_key(key.public_key()).serial_number(x509.random_serial_number())
                   .not_valid_before(now - datetime.timedelta(minutes=5))
                   .not_valid_after(now + datetime.timedelta(days=1))
                   .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True))
        if not ca:
            builder = builder.add_extension(x509.SubjectAlternativeName(
                [x509.IPAddress(ipaddress.ip_address("127.0.0.1")), x509.DNSName("localhost")]), critical=False)
        return builder.sign(signer, hashes.SHA256())

    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_cert = build("lastcard test CA", None, ca_key, ca_key, True)
    key = ec.generate_private_key(ec.SECP256R1())
    cert = build("127.0.0.1", ca_cert.subject, key, ca_key, False)
    pem = serialization.Encoding.PEM
    (folder / "ca.pem").write_bytes(ca_cert.public_bytes(pem))
    (folder / "node.pem").write_bytes(cert.public_bytes(pem))
    (folder / "node.key").write_bytes(key.private_bytes(pem, serialization.PrivateFormat.PKCS8,
                                                        serialization.NoEncryption()))
    return ["--tls-ca-file", str(folder / "ca.pem"), "--tls-cert", str(folder / "node.pem"),
            "--tls-key", str(folder / "node.key")]


def test_an_arena_over_tls_gives_the_local_results(tmp_path, reference):
    folder = tmp_path / "tls"
    folder.mkdir()
    flags = make_certificates(folder)
    secure = Cluster(folder, tls=["--protocol", "tls"] + flags)
    try:
        assert secure.address.startswith("tls://127.0.0.1:")
        secure.add_worker("w1")
        options = ClusterOptions(secure.address, str(folder / "ca.pem"), str(folder / "node.pem"),
                                 str(folder / "node.key"))
        with Client(secure.address, security=options.security(), set_as_default=False) as client:
            secure.wait_for(client, 1)
        run = run_arena(load_arena(str(reference[0])), out=str(tmp_path / "out"),
                        executor_factory=cluster_factory(options))
        assert run.complete
        assert (tmp_path / "out" / "results.json").read_bytes() == reference[1]
    finally:
        secure.stop()


def test_match_on_the_cluster_gives_the_local_results(tmp_path, cluster):
    bot = f"{sys.executable} {SAMPLES / 'random_bot.py'}"
    outs = {}
    for where, extra in (("local", []), ("cluster", ["--cluster", cluster.address])):
        outs[where] = tmp_path / where
        res = CliRunner().invoke(cli, ["match", "-r", "arcade", "-n", "6", "--seed", "4", "--no-report",
                                       "--out", str(outs[where]), *extra, bot, "builtin:hard"])
        assert res.exit_code == 0, res.output
    assert (outs["local"] / "results.json").read_bytes() == (outs["cluster"] / "results.json").read_bytes()


def test_a_ladder_on_the_cluster_plays_the_local_games(tmp_path, cluster):
    file = make_arena(tmp_path)
    lines = {}
    for where, extra in (("local", []), ("cluster", ["--cluster", cluster.address])):
        res = CliRunner().invoke(cli, ["ladder", "run", str(file), "--db", str(tmp_path / f"{where}.sqlite"),
                                       "--games-per-bot", "6", "--out", str(tmp_path / f"{where}-report"), "-q",
                                       *extra])
        assert res.exit_code == 0, res.output
        lines[where] = games_by_id(tmp_path / f"{where}-report")
    assert lines["local"] and lines["local"] == lines["cluster"]


def test_compare_on_the_cluster_stops_at_the_pair_a_local_run_stops_at(tmp_path, cluster):
    args = ["compare", "builtin:hard", "builtin:medium", "--model", "logistic", "--elo1", "100", "-q", "--no-report"]
    local = CliRunner().invoke(cli, args + ["--out", str(tmp_path / "local")])
    remote = CliRunner().invoke(cli, args + ["--out", str(tmp_path / "remote"), "--cluster", cluster.address])
    assert local.exit_code == 0 and remote.exit_code == 0, remote.output
    doc = json.loads((tmp_path / "remote" / "results.json").read_text())
    assert doc["sprt"]["result"] in ("H0", "H1")
    assert (tmp_path / "remote" / "results.json").read_bytes() == (tmp_path / "local" / "results.json").read_bytes()


def test_compare_candidates_on_the_cluster_give_the_bytes_of_a_local_run(tmp_path, cluster):
    args = ["compare", "builtin:random", "--candidate", "builtin:hard", "--candidate", "builtin:random",
            "--candidate", "builtin:easy", "--model", "logistic", "--elo1", "100", "--seed", "3", "-q", "--no-report"]
    local = CliRunner().invoke(cli, args + ["--out", str(tmp_path / "local")])
    remote = CliRunner().invoke(cli, args + ["--out", str(tmp_path / "remote"), "--cluster", cluster.address])
    assert local.exit_code == 0 and remote.exit_code == 0, remote.output
    doc = json.loads((tmp_path / "remote" / "results.json").read_text())
    assert doc["candidates"]["winner"] == "hard"
    assert (tmp_path / "remote" / "results.json").read_bytes() == (tmp_path / "local" / "results.json").read_bytes()
    assert games_by_id(tmp_path / "remote") == games_by_id(tmp_path / "local")


def test_the_cluster_executor_never_reads_past_its_lead(cluster):
    from referee.bots.spec import parse_bot
    from referee.cli.compare import compare_arena
    from referee.compare.twins import CompareSettings
    from tests.run.test_lead import Watched, _jobs

    arena = compare_arena(CompareSettings.build(parse_bot("builtin:easy"), parse_bot("builtin:easy"), seed=1, games=2))
    plan = Watched(_jobs(120))
    with on(cluster)(arena, jobs=2, stderr_dir=None, records_dir=None, pin=None) as ex:
        for game_id, _ in ex.run(plan, lead=10):
            plan.handed.add(game_id)
    assert plan.handed == {j.game_id for j in plan.jobs}
    assert plan.widest <= 10, plan.widest  # without the lead: the window of 64 at once


def test_benchmark_grades_on_the_cluster_are_the_local_ones_byte_for_byte(tmp_path, cluster):
    from tests.benchmarks.classes import make_class

    path = make_class(tmp_path, {"ann": "strong", "bob": "random"})
    args = ["arena", str(path), "-q", "--check-games", "0", "--no-report"]
    local = CliRunner().invoke(cli, args + ["--out", str(tmp_path / "local")])
    remote = CliRunner().invoke(cli, args + ["--out", str(tmp_path / "remote"), "--cluster", cluster.address])
    assert local.exit_code == 0 and remote.exit_code == 0, remote.output
    for name in ("grades.csv", "results.json"):
        assert (tmp_path / "remote" / name).read_bytes() == (tmp_path / "local" / name).read_bytes()
    assert games_by_id(tmp_path / "remote") == games_by_id(tmp_path / "local")
