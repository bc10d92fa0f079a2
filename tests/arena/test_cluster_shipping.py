"""Packing bots for other machines (no Dask needed): what travels, executable bits, the rewritten commands, a
copy that plays on its own, the content hash; and that --cluster without Dask changes nothing and says why."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.arena import ArenaFileError, load_arena, parse_arena
from referee.bots.pool import BotPool
from referee.bots.spec import BotSpec
from referee.builds.shipping import pack_bots, relocate, runtime_problem, unpack
from referee.cli.main import cli
from referee.cluster.options import ClusterOptions
from referee.engine.rules import get_ruleset
from referee.run.jobs import GameJob, run_job

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_bots" / "python"


def make_arena(tmp_path: Path) -> Path:
    """An arena folder: a bot with a folder of its own (an executable wrapper), a script named from base_dir,
    a lone script at base_dir's root, and a file that must not travel."""
    base = tmp_path / "arena"
    (base / "bots" / "rand").mkdir(parents=True)
    (base / "bots" / "strong").mkdir(parents=True)
    shutil.copy(SAMPLES / "random_bot.py", base / "bots" / "rand" / "random_bot.py")
    wrapper = base / "bots" / "rand" / "bot"
    wrapper.write_text('#!/bin/sh\nexec python3 "$(dirname "$0")/random_bot.py"\n')
    wrapper.chmod(0o755)
    shutil.copy(SAMPLES / "strong_bot.py", base / "bots" / "strong" / "strong_bot.py")
    shutil.copy(SAMPLES / "botkit.py", base / "bots" / "strong" / "botkit.py")  # the bot kit it imports
    shutil.copy(SAMPLES / "random_bot.py", base / "lone.py")
    (base / "unrelated.txt").write_text("not a bot's\n")
    (base / "bots" / "rand" / "__pycache__").mkdir()
    (base / "bots" / "rand" / "__pycache__" / "x.pyc").write_bytes(b"cache")
    (base / "arena.yaml").write_text(
        "seed: 3\nruleset: arcade\nseats: 3\ngames: 3\nbots:\n"
        "  - {name: rand, command: ./bot, cwd: bots/rand, env: {HOME_COPY: \"{HERE}/bots/rand\"}}\n"
        "  - {name: strong, command: \"{python} bots/strong/strong_bot.py\"}\n"
        "  - {name: lone, command: \"{python} lone.py\"}\n"
        "  - builtin:hard\n".replace("{HERE}", str(base)))
    return base


def test_only_the_bots_folders_travel_with_their_executable_bits(tmp_path):
    base = make_arena(tmp_path)
    arena = load_arena(str(base / "arena.yaml"))
    bundle = pack_bots(arena.bots, arena.base_dir)
    assert set(bundle.folders) == {str(base / "bots" / "rand"), str(base / "bots" / "strong"), str(base / "lone.py")}
    assert [b.spec.name for b in bundle.bots] == ["rand", "strong", "lone"]  # builtin:hard needs nothing shipped
    home = unpack(bundle, str(tmp_path / "worker"))
    copy = Path(home + str(base))
    assert (copy / "bots" / "rand" / "bot").stat().st_mode & stat.S_IXUSR
    assert (copy / "bots" / "strong" / "strong_bot.py").is_file() and (copy / "lone.py").is_file()
    assert not (copy / "unrelated.txt").exists()
    assert not (copy / "bots" / "rand" / "__pycache__").exists()
    assert not any("python" in p for p in bundle.folders)  # the interpreter is the worker's own


def test_the_hash_follows_the_content_and_an_unpacked_copy_is_reused(tmp_path):
    base = make_arena(tmp_path)
    arena = load_arena(str(base / "arena.yaml"))
    first = pack_bots(arena.bots, arena.base_dir)
    assert pack_bots(arena.bots, arena.base_dir).digest == first.digest
    home = unpack(first, str(tmp_path / "worker"))
    (Path(home) / "marker").write_text("kept")
    assert unpack(first, str(tmp_path / "worker")) == home and (Path(home) / "marker").exists()
    (base / "bots" / "strong" / "strong_bot.py").write_text("# changed\n")
    changed = pack_bots(arena.bots, arena.base_dir)
    assert changed.digest != first.digest
    (base / "bots" / "rand" / "bot").chmod(0o644)  # an executable bit is content too
    assert pack_bots(arena.bots, arena.base_dir).digest != changed.digest


@pytest.mark.slow
def test_relocated_bots_play_from_the_copy_alone(tmp_path):
    base = make_arena(tmp_path)
    arena = load_arena(str(base / "arena.yaml"))
    bundle = pack_bots(arena.bots, arena.base_dir)
    home = unpack(bundle, str(tmp_path / "worker"))
    shutil.rmtree(base)  # the copy must be self-sufficient: the worker has no other
    specs = {b.spec.name: relocate(b.spec, bundle.folders, home, bundle.python, "/opt/py/bin/python3")
             for b in bundle.bots}
    copy = home + str(base)
    assert specs["rand"].cwd == f"{copy}/bots/rand" and specs["rand"].command == "./bot"
    assert dict(specs["rand"].env)["HOME_COPY"] == f"{copy}/bots/rand"
    assert specs["strong"].command == "/opt/py/bin/python3 bots/strong/strong_bot.py"
    assert specs["strong"].cwd == copy  # base_dir itself shipped nothing, but exists in the copy
    playable = {name: relocate(b.spec, bundle.folders, home, bundle.python, sys.executable)
                for name, b in zip(specs, bundle.bots)}
    seats = (playable["rand"], playable["strong"], playable["lone"])
    job = GameJob("g1", 5, get_ruleset("arcade"), seats)
    with BotPool() as pool:
        result, _ = run_job(job, pool)
    assert result.faults == () and len(result.placements) == 3


@pytest.mark.slow
def test_paths_through_links_and_dotdot_travel_as_written(tmp_path):
    base = tmp_path / "arena"
    for folder in ("hostile", "deep/inner", "deep/bots"):
        (base / folder).mkdir(parents=True)
    shutil.copy(SAMPLES / "random_bot.py", base / "deep" / "bots" / "random_bot.py")
    (base / "in").symlink_to("deep/inner")  # relative: "in/.." is deep, not the arena folder
    (base / "botlink").symlink_to(base / "deep" / "bots")  # absolute: must point into the copy on a worker
    (base / "arena.yaml").write_text(
        "seed: 3\nruleset: arcade\nseats: 3\ngames: 1\nbots:\n"
        "  - {name: a, command: \"{python} hostile/../deep/bots/random_bot.py\"}\n"
        "  - {name: b, command: \"{python} random_bot.py\", cwd: botlink}\n"
        "  - {name: c, command: \"{python} ../bots/random_bot.py\", cwd: in}\n")
    arena = load_arena(str(base / "arena.yaml"))
    bundle = pack_bots(arena.bots, arena.base_dir)
    assert {str(base / "deep" / "bots"), str(base / "in"), str(base / "botlink"), str(base / "hostile")} \
        <= set(bundle.folders)
    home = unpack(bundle, str(tmp_path / "worker"))
    shutil.rmtree(base)  # the copy must be self-sufficient
    copy = Path(home + str(base))
    assert os.readlink(copy / "botlink") == "deep/bots" and (copy / "hostile").is_dir()
    seats = tuple(relocate(b.spec, bundle.folders, home, bundle.python, sys.executable) for b in bundle.bots)
    with BotPool() as pool:
        result, _ = run_job(GameJob("g1", 5, get_ruleset("arcade"), seats), pool)
    assert result.faults == () and len(result.placements) == 3


def test_a_missing_runtime_or_program_is_named(tmp_path):
    script = tmp_path / "bot"
    script.write_text("#!/bin/sh\n")
    assert runtime_problem(BotSpec("a", "no-such-runtime-xyz bot.js", cwd=str(tmp_path)), ()) == \
        "'no-such-runtime-xyz' is not on PATH there"
    assert "is not executable there" in runtime_problem(BotSpec("b", "./bot", cwd=str(tmp_path)), ())
    assert "does not exist there" in runtime_problem(BotSpec("c", "./gone", cwd=str(tmp_path)), ())
    assert runtime_problem(BotSpec("d", "sh bot", cwd=str(tmp_path)), ("no-such-tool-xyz",)) == \
        "'no-such-tool-xyz' is not on PATH there"
    script.chmod(0o755)
    assert runtime_problem(BotSpec("e", "./bot", cwd=str(tmp_path)), ("sh",)) is None


@pytest.mark.slow
def test_nothing_imports_dask_unless_asked():
    code = ("import sys, referee.cli.main, referee.arena.runner, referee.cluster.executor, referee.builds.shipping; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("args, message", [
    (["--tls-cert", "x.pem"], "need --cluster"),
    (["--cluster", "http://127.0.0.1:8786"], "must start with tcp:// or tls://"),
    (["--cluster", "tls://127.0.0.1:8786"], "needs --tls-ca-file, --tls-cert and --tls-key"),
], ids=["tls-without-cluster", "bad-scheme", "tls-without-files"])
def test_cluster_options_are_checked_before_anything_runs(tmp_path, args, message):
    arena = tmp_path / "a.yaml"
    arena.write_text("bots: [builtin:random, builtin:easy]\nseats: 2\n")
    result = CliRunner().invoke(cli, ["arena", str(arena), "--out", str(tmp_path / "out"), *args])
    assert result.exit_code == 2 and message in result.output
    assert not (tmp_path / "out").exists()


def test_without_the_extra_cluster_says_how_to_install_it(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # what a machine without the extra sees
    arena = tmp_path / "a.yaml"
    arena.write_text("bots: [builtin:random, builtin:easy]\nseats: 2\n")
    result = CliRunner().invoke(cli, ["arena", str(arena), "--out", str(tmp_path / "out"),
                                      "--cluster", "tcp://127.0.0.1:8786"])
    assert result.exit_code == 2 and "pip install 'lastcard[distributed]'" in result.output


# ------------------------------------------------------------------ the arena file's executor: section

BASE = "bots: [builtin:random, builtin:easy]\nseats: 2\n"


def test_an_executor_section_names_the_cluster_and_changes_no_game(tmp_path):
    (tmp_path / "tls").mkdir()
    for name in ("ca.pem", "me.pem", "me.key"):
        (tmp_path / "tls" / name).write_text("x")
    plain = parse_arena(BASE, base_dir=str(tmp_path))
    arena = parse_arena(BASE + "executor:\n  cluster: tls://10.1.2.3:8786\n  build_on_workers: true\n"
                        "  tls: {ca_file: tls/ca.pem, cert: tls/me.pem, key: tls/me.key}\n", base_dir=str(tmp_path))
    assert plain.cluster is None
    assert arena.cluster == ClusterOptions("tls://10.1.2.3:8786", str(tmp_path / "tls" / "ca.pem"),
                                           str(tmp_path / "tls" / "me.pem"), str(tmp_path / "tls" / "me.key"), True)
    assert arena.to_json() == plain.to_json()  # where games run is not what decides them (--resume still matches)


@pytest.mark.parametrize("section, where, message", [
    ("{cluster: 'http://h:1'}", "executor.cluster", "must be a Dask scheduler address"),
    ("{cluster: 'tls://h:1'}", "executor.tls", "a tls:// cluster needs"),
    ("{cluster: 'tls://h:1', tls: {ca_file: ca.pem, cert: c.pem, key: k.pem}}", "executor.tls.ca_file",
     "no such file"),
    ("{cluster: 'tcp://h:1', workers: 3}", "executor.workers", "unknown key"),
], ids=["scheme", "tls-missing", "tls-file-missing", "unknown-key"])
def test_executor_section_mistakes_are_named_with_their_key(tmp_path, section, where, message):
    with pytest.raises(ArenaFileError) as caught:
        parse_arena(BASE + f"executor: {section}\n", base_dir=str(tmp_path))
    assert any(p.path == where and message in p.message for p in caught.value.problems), caught.value
