"""The ladder end to end: shares first, re-runs that play only what changed, the same games for the same
seed and submissions whatever the workers, stopped runs that keep every finished game, the stop rules,
the command line, and results.json in the arena's format."""

from __future__ import annotations

import json
import shutil
import sqlite3
import sys
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from referee.arena import load_arena
from referee.cli.main import cli
from referee.ladder.run import LadderOptions, run_ladder
from referee.ladder.store import open_ladder

ROOT = Path(__file__).resolve().parents[2]
RESULTS_SCHEMA = json.loads((ROOT / "protocol" / "schemas" / "results.schema.json").read_text())

BUILTINS = """\
name: ladder-test
seed: 11
ruleset: arcade
seats: 3
bootstrap: 20
bots: [builtin:hard, builtin:random, builtin:medium, builtin:easy{extra}]
"""


def arena_file(tmp_path: Path, extra: str = "") -> str:
    path = tmp_path / "ladder.yaml"
    path.write_text(BUILTINS.format(extra=extra))
    return str(path)


def stored_games(db: Path) -> list[tuple]:
    """(game id, seed, seating, placements) of every kept game, in order."""
    conn = sqlite3.connect(db)
    try:
        rows = conn.execute("SELECT game, line FROM games WHERE retired_run IS NULL AND line IS NOT NULL "
                            "ORDER BY seq").fetchall()
    finally:
        conn.close()
    out = []
    for game, line in rows:
        g = json.loads(line)
        out.append((game, g["seed"], tuple(g["seating"]), tuple(g["placements"])))
    return out


def counts(games: list[tuple]) -> dict[str, int]:
    out: dict[str, int] = {}
    for _, _, seating, _ in games:
        for name in seating:
            out[name] = out.get(name, 0) + 1
    return out


@pytest.mark.slow
def test_first_run_gives_every_bot_its_share_and_a_rerun_plays_nothing(tmp_path):
    db = tmp_path / "l.sqlite"
    arena = load_arena(arena_file(tmp_path))
    first = run_ladder(arena, str(db), jobs=1, options=LadderOptions(share=6))
    assert first.status == "finished" and "share of 6" in first.stop_reason
    games = stored_games(db)
    assert first.played_now == len(games) == first.kept
    assert min(counts(games).values()) >= 6
    again = run_ladder(arena, str(db), jobs=1, options=LadderOptions(share=6))
    assert again.played_now == 0 and again.retired == 0 and stored_games(db) == games
    with open_ladder(str(db), write=False) as store:
        runs = store.runs()
    assert [r["status"] for r in runs] == ["finished", "finished"]
    rows = [{**r.to_json(timing=True), "rank_best": r.rank_best, "rank_worst": r.rank_worst}
            for r in first.standings.rows]
    assert runs[0]["standings"] == runs[1]["standings"] == rows


@pytest.mark.slow
def test_same_seed_and_submissions_give_the_same_games_whatever_the_workers(tmp_path):
    arena = load_arena(arena_file(tmp_path))
    run_ladder(arena, str(tmp_path / "one.sqlite"), jobs=1, options=LadderOptions(share=4, budget=14))
    run_ladder(arena, str(tmp_path / "two.sqlite"), jobs=2, options=LadderOptions(share=4, budget=14))
    one, two = stored_games(tmp_path / "one.sqlite"), stored_games(tmp_path / "two.sqlite")
    assert len(one) == 14 and one == two


@pytest.mark.slow
def test_a_new_bot_reaches_its_share_and_the_old_games_are_kept(tmp_path):
    db = tmp_path / "l.sqlite"
    run_ladder(load_arena(arena_file(tmp_path)), str(db), jobs=1, options=LadderOptions(share=6))
    before = stored_games(db)
    late = run_ladder(load_arena(arena_file(tmp_path, ", {name: late, command: 'builtin:medium'}")), str(db),
                      jobs=1, options=LadderOptions(share=6))
    after = stored_games(db)
    assert late.changes["new"] == ["late"] and late.retired == 0
    assert after[:len(before)] == before  # every earlier game kept
    assert counts(after)["late"] >= 6
    assert all("late" in seating for _, _, seating, _ in after[len(before):])  # only the games it needed
    assert late.played_now == 6


@pytest.mark.slow
def test_a_changed_submission_retires_its_games_and_plays_far_fewer_than_a_full_rerun(tmp_path):
    subs = tmp_path / "subs"
    for name in ("ann", "bob", "cat", "dan"):
        (subs / name).mkdir(parents=True)
        shutil.copy(ROOT / "sample_bots" / "python" / "random_bot.py", subs / name / "bot.py")
    path = tmp_path / "class.yaml"
    path.write_text("name: class\nseed: 3\nruleset: arcade\nseats: 2\nbootstrap: 10\nbots:\n"
                    "  - builtin:hard\n  - builtin:random\n  - builtin:easy\n  - builtin:medium\n"
                    "  - submissions: {path: 'subs/*', command: '{python} bot.py'}\n")
    db = tmp_path / "l.sqlite"
    first = run_ladder(load_arena(str(path)), str(db), jobs=2, options=LadderOptions(share=4))
    before = stored_games(db)
    with (subs / "bob" / "bot.py").open("a") as fh:
        fh.write("# a late fix\n")
    second = run_ladder(load_arena(str(path)), str(db), jobs=2, options=LadderOptions(share=4))
    after = stored_games(db)
    assert second.changes["changed"] == ["bob"] and second.changes["new"] == []
    bobs = [g for g in before if "bob" in g[2]]
    assert second.retired == len(bobs) > 0
    assert [g for g in before if "bob" not in g[2]] == after[:len(before) - len(bobs)]  # the rest are kept
    assert counts(after)["bob"] >= 4
    assert 0 < second.played_now < first.played_now


@pytest.mark.slow
def test_a_stopped_run_keeps_its_games_and_the_next_plays_the_same_ones(tmp_path):
    arena = load_arena(arena_file(tmp_path))
    whole = tmp_path / "whole.sqlite"
    run_ladder(arena, str(whole), jobs=1, options=LadderOptions(share=5))
    cut = tmp_path / "cut.sqlite"
    stopped = run_ladder(arena, str(cut), jobs=2, options=LadderOptions(share=5), stop_after=3)
    assert stopped.status == "interrupted" and len(stored_games(cut)) == 3
    run_ladder(arena, str(cut), jobs=2, options=LadderOptions(share=5))
    assert stored_games(cut) == stored_games(whole)
    with open_ladder(str(cut), write=False) as store:
        assert [r["status"] for r in store.runs()] == ["interrupted", "finished"]


@pytest.mark.slow
def test_a_killed_run_is_marked_and_its_committed_games_are_kept(tmp_path):
    db = tmp_path / "l.sqlite"
    arena = load_arena(arena_file(tmp_path))
    with open_ladder(str(db)) as store:  # what a killed run leaves: a run still "running"
        store.start_run({})
    run_ladder(arena, str(db), jobs=1, options=LadderOptions(share=3))
    with open_ladder(str(db), write=False) as store:
        runs = store.runs()
    assert runs[0]["status"] == "killed" and runs[1]["status"] == "finished"


@pytest.mark.slow
def test_budget_stops_the_run_and_the_target_stops_when_the_top_is_separated(tmp_path):
    arena = load_arena(arena_file(tmp_path))
    spent = run_ladder(arena, str(tmp_path / "a.sqlite"), jobs=2, options=LadderOptions(share=2, budget=9))
    assert spent.played_now == 9 and "budget of 9" in spent.stop_reason
    target = run_ladder(arena, str(tmp_path / "b.sqlite"), jobs=2,
                        options=LadderOptions(share=4, budget=200, target=1, batch=12))
    if "separated" in target.stop_reason:
        top = target.standings.rows[0]
        assert top.rank_best == top.rank_worst == 1
        assert target.standings.rows[1].rating_high < top.rating_low
    else:  # the budget ran out first: then the top was still uncertain
        assert "budget" in target.stop_reason and target.standings.rows[0].rank_worst > 1
    # Beyond the shares, the tables went to the uncertain places: the top pair met more than the bottom one.
    games = stored_games(tmp_path / "b.sqlite")[4 * 4 // 3 + 2:]
    names = target.standings.bots
    assert sum(names[0] in s and names[1] in s for _, _, s, _ in games) > 0


@pytest.mark.slow
def test_the_ladder_writes_valid_results_and_its_history(tmp_path):
    db = tmp_path / "l.sqlite"
    out = tmp_path / "report"
    arena = load_arena(arena_file(tmp_path))
    run_ladder(arena, str(db), out=str(out), jobs=1, options=LadderOptions(share=3))
    run_ladder(load_arena(arena_file(tmp_path, ", {name: extra, command: 'builtin:random'}")), str(db), out=str(out),
               jobs=1, options=LadderOptions(share=3))
    doc = json.loads((out / "results.json").read_text())
    jsonschema.validate(doc, RESULTS_SCHEMA)
    assert doc["ladder"]["run"] == 2 and doc["ladder"]["changes"]["new"] == ["extra"]
    assert set(doc["order"]["rank_ranges"]) == {r["bot"] for r in doc["standings"]}
    history = (out / "history.csv").read_text().splitlines()
    assert history[0].startswith("run,finished,status,bot,rank")
    assert {line.split(",")[0] for line in history[1:]} == {"1", "2"}
    md = (out / "history.md").read_text()
    assert "| run 1 | run 2 |" in md and "| extra | - |" in md
    lines = [json.loads(x) for x in (out / "games.jsonl").read_text().splitlines()]
    assert len(lines) == doc["games"] and lines[0]["game"] == "L000001"
    res = CliRunner().invoke(cli, ["replay", str(out), lines[-1]["game"], "--verify"])
    assert res.exit_code == 0, res.output  # every kept game replays from the report


@pytest.mark.slow
def test_the_command_line_runs_reads_and_refuses_a_busy_file(tmp_path):
    path = arena_file(tmp_path)
    db = tmp_path / "l.sqlite"
    runner = CliRunner()
    res = runner.invoke(cli, ["ladder", "run", path, "--db", str(db), "--games-per-bot", "3", "-j", "1", "-q"])
    assert res.exit_code == 0, res.output
    assert "run 1: every bot has its share of 3 games" in res.output and "order: by the rating" in res.output
    res = runner.invoke(cli, ["ladder", "standings", "--db", str(db)])
    assert res.exit_code == 0 and "run 1 (finished" in res.output and "hard" in res.output
    res = runner.invoke(cli, ["ladder", "history", "--db", str(db)])
    assert res.exit_code == 0 and "| 1 |" in res.output
    with open_ladder(str(db)):
        res = runner.invoke(cli, ["ladder", "run", path, "--db", str(db), "-q"])
    assert res.exit_code == 2 and "in use by another ladder run" in res.output and "Traceback" not in res.output
    res = runner.invoke(cli, ["ladder", "standings", "--db", str(tmp_path / "none.sqlite")])
    assert res.exit_code == 2 and "does not exist" in res.output


@pytest.mark.slow
def test_a_run_killed_with_sigkill_loses_no_finished_game_and_frees_the_file(tmp_path):
    import os
    import signal
    import subprocess

    from tests.support.procs import wait_until

    # Long enough to be killed in the middle: its built-in games travel 32 to a message, so a short run (60 games a
    # bot, 0.1 s of games) could store its first five and finish within one look at the file (50 ms); with 300 a bot
    # the games take 0.7 s.
    share = 300
    path = arena_file(tmp_path)
    db = tmp_path / "l.sqlite"
    proc = subprocess.Popen([sys.executable, "-c", "from referee.cli.main import cli; cli()", "ladder", "run", path,
                             "--db", str(db), "--games-per-bot", str(share), "-j", "2", "-q"], cwd=ROOT,
                            start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        seen: list[tuple] = []

        def five_games() -> bool:
            nonlocal seen
            if db.exists():
                try:
                    seen = stored_games(db)
                except sqlite3.OperationalError:  # the schema is not there yet
                    pass
            return len(seen) >= 5 or proc.poll() is not None

        wait_until(five_games)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)  # the referee and its workers, no clean-up at all
        proc.wait()
    assert proc.returncode == -signal.SIGKILL and len(seen) >= 5, "the run ended before it could be killed"
    arena = load_arena(path)
    run_ladder(arena, str(db), jobs=1, options=LadderOptions(share=share))  # not refused: the lock died with it
    after = stored_games(db)
    assert set(seen) <= set(after)  # games finish out of order with two workers: compare as sets
    run_ladder(arena, str(tmp_path / "whole.sqlite"), jobs=1, options=LadderOptions(share=share))
    assert after == stored_games(tmp_path / "whole.sqlite")
    with open_ladder(str(db), write=False) as store:
        assert [r["status"] for r in store.runs()] == ["killed", "finished"]


def test_a_target_without_intervals_is_refused_with_the_fix(tmp_path):
    from referee.arena.config import ArenaFileError

    path = tmp_path / "a.yaml"
    path.write_text(BUILTINS.format(extra="").replace("bootstrap: 20", "bootstrap: 0"))
    with pytest.raises(ArenaFileError, match="bootstrap: 0 gives none: set bootstrap"):
        run_ladder(load_arena(str(path)), str(tmp_path / "l.sqlite"), options=LadderOptions(target=1))
    assert not (tmp_path / "l.sqlite").exists()


@pytest.mark.slow
def test_a_ladder_run_warns_of_a_bot_that_never_starts_with_its_own_words(tmp_path):
    """As an arena: the run goes on (exit 0), the bot loses its games, and a warning block names it with the end
    of its stderr."""
    path = arena_file(tmp_path, extra=", {name: ghost, command: '{python} no_such_bot.py'}")
    out = tmp_path / "report"
    res = CliRunner().invoke(cli, ["ladder", "run", path, "--db", str(tmp_path / "l.sqlite"), "--out", str(out),
                                   "--games-per-bot", "2", "--quiet"])
    assert res.exit_code == 0, res.output
    warning = res.stderr[res.stderr.index("warning: ghost could not start in any of its "):]
    assert f"its stderr (the end of {out / 'logs' / 'ghost.stderr.log'}):" in warning
    assert "can't open file" in warning and "no_such_bot.py" in warning and "fix the bot's command" in warning
