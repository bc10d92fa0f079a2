"""``lastcard match`` on the arena's runner: one results pipeline, --jobs, --resume, a bot that never starts."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli.main import cli
from referee.store.results import LINE_KEYS

ROOT = Path(__file__).resolve().parents[2]
RANDOM_PY = f"{sys.executable} {ROOT / 'sample_bots' / 'python' / 'random_bot.py'}"
ARENA_GAME_KEYS = list(LINE_KEYS)


def _match(out: Path, *extra: str, games: int = 6) -> str:
    res = CliRunner().invoke(cli, ["match", "-r", "family", "-o", "target=round", "-n", str(games), "--seed", "11",
                                   "--out", str(out), *extra, RANDOM_PY, "builtin:hard", "builtin:random"])
    assert res.exit_code == 0, res.output
    return res.output


def _same_games(a: Path, b: Path) -> None:
    """Every game identical but for timings; results.json identical byte for byte."""
    def games(d: Path) -> list[dict]:
        lines = [json.loads(x) for x in (d / "games.jsonl").read_text().splitlines()]
        for line in lines:
            line.pop("time_ms"), line.pop("wall_ms")
        return sorted(lines, key=lambda g: g["game"])
    assert games(a) == games(b)
    assert (a / "results.json").read_bytes() == (b / "results.json").read_bytes()


@pytest.mark.slow
def test_match_writes_the_arena_games_format(tmp_path):
    _match(tmp_path / "m")
    lines = [json.loads(x) for x in (tmp_path / "m" / "games.jsonl").read_text().splitlines()]
    assert [line["game"] for line in lines] == [f"g{i:04d}" for i in range(1, 7)]
    assert all(list(line) == ARENA_GAME_KEYS for line in lines)  # the one games.jsonl format
    # Seats rotate: over 6 games at a 3-seat table every bot sits in every seat twice.
    for name in ("random_bot", "hard", "random"):
        assert sorted(line["seating"].index(name) for line in lines) == [0, 0, 1, 1, 2, 2]
    doc = json.loads((tmp_path / "m" / "results.json").read_text())
    assert doc["kind"] == "match" and doc["complete"] and doc["games"] == 6
    # what an arena writes, the reports per bot included (README: "--out gets exactly what arena writes")
    # (built-ins have no author: only the submitted bot gets a report and a page)
    bots = tmp_path / "m" / "bots"
    assert sorted(p.name for p in bots.iterdir()) == ["index.md", "random_bot.html", "random_bot.md"]
    assert "# random_bot" in (bots / "random_bot.md").read_text()
    assert "../report.html" in (bots / "random_bot.html").read_text()  # the author's page, as arena writes it


@pytest.mark.slow
def test_match_results_do_not_depend_on_jobs(tmp_path):
    _match(tmp_path / "one", "--jobs", "1")
    _match(tmp_path / "two", "--jobs", "2")
    _same_games(tmp_path / "one", tmp_path / "two")


@pytest.mark.slow
def test_match_resume_finishes_an_interrupted_match(tmp_path):
    whole, cut = tmp_path / "whole", tmp_path / "cut"
    _match(whole)
    # An interrupted match: three games stored, no final results yet.
    cut.mkdir()
    shutil.copy(whole / "arena.json", cut / "arena.json")
    (cut / "games.jsonl").write_text("".join((whole / "games.jsonl").read_text().splitlines(keepends=True)[:3]))
    res = CliRunner().invoke(cli, ["match", "-r", "family", "-o", "target=round", "-n", "6", "--seed", "11",
                                   "--out", str(cut), RANDOM_PY, "builtin:hard", "builtin:random"])
    assert res.exit_code == 2 and "--resume" in res.output  # nothing is thrown away unasked
    output = _match(cut, "--resume")
    assert "6 games" in output
    _same_games(whole, cut)


def test_resume_needs_the_output_directory():
    res = CliRunner().invoke(cli, ["match", "--resume", "builtin:hard", "builtin:random"])
    assert res.exit_code == 2 and "--resume finishes the match stored in --out" in res.output


@pytest.mark.slow
def test_match_without_out_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    res = CliRunner().invoke(cli, ["match", "-r", "arcade", "-n", "2", "builtin:hard", "builtin:random"])
    assert res.exit_code == 0, res.output
    assert "rank" in res.output and list(tmp_path.iterdir()) == []


# ------------------------------------------------------------------ a worker that dies

KILLER = ROOT / "tests" / "support" / "fault_bots" / "parent_killer.py"


def _killer_arena(tmp_path: Path, *args: str) -> Path:
    path = tmp_path / "arena.yaml"
    path.write_text("name: killer\nseed: 3\nruleset: compact\noptions: {target: 100}\nseats: 2\ngames: 2\n"
                    "bootstrap: 10\nsandbox: none\nbots:\n"  # the killer must reach its worker
                    f"  - {{name: killer, command: '{sys.executable} {KILLER} {' '.join(args)}'}}\n"
                    "  - builtin:hard\n  - builtin:random\n")
    return path


@pytest.mark.slow
def test_a_worker_killed_once_is_replaced_and_its_game_played_again(tmp_path):
    path = _killer_arena(tmp_path, str(tmp_path / "killed-once"))
    res = CliRunner().invoke(cli, ["arena", str(path), "--out", str(tmp_path / "out"), "--jobs", "1", "-q"])
    assert res.exit_code == 0, res.output
    assert (tmp_path / "killed-once").exists()  # the worker really was killed
    lines = [json.loads(x) for x in (tmp_path / "out" / "games.jsonl").read_text().splitlines()]
    assert len(lines) == 6 and len({g["game"] for g in lines}) == 6
    assert all(g["reason"] != "lost" and not g["faults"] for g in lines)  # the replay went through


@pytest.mark.slow
def test_a_game_that_kills_its_worker_twice_is_lost_by_its_bots(tmp_path):
    path = _killer_arena(tmp_path)
    res = CliRunner().invoke(cli, ["arena", str(path), "--out", str(tmp_path / "out"), "--jobs", "2", "-q"])
    assert res.exit_code == 0, res.output
    lines = [json.loads(x) for x in (tmp_path / "out" / "games.jsonl").read_text().splitlines()]
    assert len(lines) == 6
    lost = [g for g in lines if g["reason"] == "lost"]
    killer_games = [g for g in lines if "killer" in g["seating"]]
    assert lost == killer_games and len(lost) == 4  # every game the killer sat in, and only those
    for g in lost:
        (fault,) = g["faults"]
        assert fault["kind"] == "crash" and fault["bot"] == "killer" and "died" in fault["message"]
        assert g["placements"][g["seating"].index("killer")] == 2
    assert all(not g["faults"] for g in lines if g not in lost)


@pytest.mark.slow
def test_each_game_records_the_sandbox_level_it_ran_under(tmp_path):
    from referee.bots.sandbox import SandboxSettings, effective_level

    expected = {"none": "none", "auto": effective_level(SandboxSettings()).value}
    for mode, level in expected.items():
        out = tmp_path / mode
        res = CliRunner().invoke(cli, ["match", "-r", "arcade", "-n", "2", "--sandbox", mode, "--out", str(out),
                                       RANDOM_PY, "builtin:hard"])
        assert res.exit_code == 0, res.output
        lines = [json.loads(x) for x in (out / "games.jsonl").read_text().splitlines()]
        for line in lines:
            by_seat = dict(zip(line["seating"], line["sandbox"]))
            assert by_seat == {"random_bot": level, "hard": None}
        assert json.loads((out / "results.json").read_text())["sandbox_levels"] == {"random_bot": [level]}


@pytest.mark.slow
def test_match_and_arena_write_report_html_unless_told_not_to(tmp_path):
    res = CliRunner().invoke(cli, ["match", "-r", "arcade", "-n", "2", "--out", str(tmp_path / "m"), "builtin:easy",
                                   "builtin:hard"])
    assert res.exit_code == 0, res.output
    page = (tmp_path / "m" / "report.html").read_text()
    assert "g0001" in page and "hard" in page
    res = CliRunner().invoke(cli, ["match", "-r", "arcade", "-n", "2", "--no-report", "--out", str(tmp_path / "n"),
                                   "builtin:easy", "builtin:hard"])
    assert res.exit_code == 0 and not (tmp_path / "n" / "report.html").exists()
    arena = tmp_path / "a.yaml"
    arena.write_text("name: a\nseats: 2\ngames: 2\nruleset: arcade\nbootstrap: 5\nbots: [builtin:hard, builtin:easy]\n")
    res = CliRunner().invoke(cli, ["arena", str(arena), "--out", str(tmp_path / "a"), "-q"])
    assert res.exit_code == 0, res.output
    assert "report:" in res.output and (tmp_path / "a" / "report.html").exists()


@pytest.mark.slow
def test_practice_mode_has_no_clock(tmp_path):
    # 0.3 s at its third turn
    slow = f"{sys.executable} {ROOT / 'tests' / 'support' / 'fault_bots' / 'misbehave.py'} slow_once"

    def faults(*extra: str) -> list[str]:
        out = tmp_path / str(len(extra))
        # --clock wall: the bot sleeps, which a CPU clock only stops at its backstop
        res = CliRunner().invoke(cli, ["match", "-r", "family", "-o", "target=round", "-n", "1", "--move-ms", "100",
                                       "--clock", "wall",
                                       "--no-report", "--out", str(out), *extra, slow, "builtin:easy"])
        assert res.exit_code == 0, res.output
        return [f["kind"] for line in (out / "games.jsonl").read_text().splitlines()
                for f in json.loads(line)["faults"]]
    assert faults() == ["timeout"]
    assert faults("--practice") == []


def test_an_arena_has_no_clocks_only_when_its_file_says_practice(tmp_path):
    from referee.arena import load_arena
    from referee.bots.spec import PRACTICE_MS

    path = tmp_path / "a.yaml"
    body = "name: p\nseats: 2\ngames: 1\nruleset: arcade\nlimits: {move_ms: 200}\nbots:\n  - {name: r, command: x}\n" \
           "  - builtin:hard\n"
    path.write_text(body)
    assert load_arena(str(path)).bots[0].spec.limits.move_ms == 200
    path.write_text(body + "practice: true\n")
    assert load_arena(str(path)).bots[0].spec.limits.move_ms == PRACTICE_MS
    path.write_text(body + "practice: 3\n")
    res = CliRunner().invoke(cli, ["validate", str(path)])
    assert res.exit_code == 2 and "practice" in res.output


@pytest.mark.slow
def test_names_beyond_ascii_survive_games_jsonl_and_a_resume(tmp_path):
    """games.jsonl is UTF-8 JSON lines (orjson writes the characters themselves): read back, resumed, replayed."""
    out = tmp_path / "m"
    args = ["match", "-r", "arcade", "-n", "4", "--out", str(out), "--no-report",
            "Zoë=builtin:easy", "Łukasz=builtin:hard"]
    first = CliRunner().invoke(cli, args)
    assert first.exit_code == 0, first.output
    lines = (out / "games.jsonl").read_bytes().splitlines()
    assert len(lines) == 4 and "Zoë".encode() in lines[0]
    assert {tuple(json.loads(x)["seating"]) for x in lines} == {("Zoë", "Łukasz"), ("Łukasz", "Zoë")}
    (out / "games.jsonl").write_bytes(b"\n".join(lines[:2]) + b"\n")  # as if stopped after two games
    (out / "results.json").unlink()
    again = CliRunner().invoke(cli, [*args[:-2], "--resume", *args[-2:]])
    assert again.exit_code == 0, again.output
    assert "resuming: 2 of 4 games already played" in again.output
    def played(data: list[bytes]) -> list[dict]:
        return [{k: v for k, v in json.loads(x).items() if k != "wall_ms"} for x in data]
    assert played((out / "games.jsonl").read_bytes().splitlines()[2:]) == played(lines[2:])  # the same games
    replay = CliRunner().invoke(cli, ["replay", str(out), "g0003"])
    assert replay.exit_code == 0 and "Zoë" in replay.output, replay.output


@pytest.mark.slow
def test_a_bot_that_never_starts_is_shown_with_its_own_words(tmp_path):
    """Its stderr's last lines (here its own message), not only "exited during startup"; exit status 1. Under the
    default sandbox, as a user runs it."""
    bot = tmp_path / "bot" / "quitter.py"
    bot.parent.mkdir()
    bot.write_text("import sys\nprint('loading the weights', file=sys.stderr)\n"
                   "sys.exit('quitter: cannot open weights.bin (run make weights first)')\n")
    args = ["match", "-r", "compact", "-n", "2", "--startup-ms", "5000", f"{sys.executable} {bot}", "builtin:random"]
    res = CliRunner().invoke(cli, [*args, "--out", str(tmp_path / "out")])
    assert res.exit_code == 1, res.output
    warning = res.stderr[res.stderr.index("warning: quitter could not start in any of its 2 games"):]
    log = tmp_path / "out" / "logs" / "quitter.stderr.log"
    assert f"its stderr (the end of {log}):" in warning
    # The last game's words, once (the log holds them for every game).
    assert warning.count("| quitter: cannot open weights.bin (run make weights first)") == 1
    assert "| loading the weights" in warning and "--- game" not in warning
    # It started nothing: bubblewrap's own process holding the pipe a moment after the exit is no orphan of the bot.
    assert "exited during startup (exit code 1)\n" in warning and "leaving processes" not in res.stderr
    assert "Error: quitter never started: fix the bot's command" in res.stderr
    # no --out: the log went with the scratch folder, so no path is named
    bare = CliRunner().invoke(cli, [a if a != "2" else "1" for a in args])
    assert bare.exit_code == 1, bare.output
    assert "  its stderr:\n    | loading the weights\n    | quitter: cannot open weights.bin" in bare.stderr


@pytest.mark.slow
def test_match_without_out_keeps_no_games_file_and_shows_the_same_standings(tmp_path, monkeypatch):
    from referee.store import run_store as store_module

    made = []
    real = store_module.GameStore.__init__

    def spy(self, out_dir, keep_games=True):
        made.append(keep_games)
        real(self, out_dir, keep_games)
    monkeypatch.setattr(store_module.GameStore, "__init__", spy)
    args = ["match", "-r", "family", "-o", "target=round", "-n", "8", "--seed", "4", "--no-report",
            "builtin:hard", "builtin:random", "builtin:easy"]
    scratch = CliRunner().invoke(cli, args)
    kept = CliRunner().invoke(cli, [*args, "--out", str(tmp_path / "m")])
    assert scratch.exit_code == kept.exit_code == 0, scratch.output + kept.output
    assert made == [False, True]  # nothing reads a scratch directory's games back: they are not written
    table = [line for line in scratch.output.splitlines() if not line.startswith("family,")]
    assert table == [line for line in kept.output.splitlines()
                     if not line.startswith(("family,", "results:"))]
