"""``lastcard check --arena``: a contest's bots checked as the contest runs them; whole requests in JSON and
JUnit; a replay command for every failing fuzz game; wording that follows the policy in force."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
import textwrap
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.arena import load_arena
from referee.check.contest import contest_bots, contest_config
from referee.check.fuzz import Contest, plan
from referee.check.report import CheckResult
from referee.check.suite import fault_cost
from referee.cli.main import cli

NOISY = textwrap.dedent("""\
    import json, sys
    for line in sys.stdin:
        m = json.loads(line)
        if m["type"] == "hello":
            print(json.dumps({"type": "ready", "name": "noisy"}), flush=True)
        elif m["type"] == "turn":
            print("thinking...", flush=True)
            print(json.dumps(m["legal"][0]), flush=True)
        elif m["type"] == "quit":
            break
""")
ARENA = """\
ruleset: family
options: {stacking: true}
seats: 3
policy: strikes:2
limits: {move_ms: 700, startup_ms: 4000}
format: sampled
games: 4
bots:
  - submissions: {path: "students/*"}
  - builtin:easy
"""


def contest(tmp_path: Path) -> Path:
    for name in ("noisy", "quiet one"):
        (tmp_path / "students" / name).mkdir(parents=True)
    (tmp_path / "students" / "noisy" / "bot.py").write_text(NOISY)
    ada = Path(__file__).resolve().parents[2] / "arenas" / "students" / "ada" / "bot.py"
    (tmp_path / "students" / "quiet one" / "bot.py").write_text(ada.read_text())
    (tmp_path / "arena.yaml").write_text(ARENA)
    return tmp_path / "arena.yaml"


def test_the_config_is_the_contests(tmp_path):
    arena = load_arena(str(contest(tmp_path)))
    entry = contest_bots(arena, "noisy")[0]
    config = contest_config(arena, entry, games=3, seed=5)
    assert config.rulesets == ("family",) and config.seats == 3 and config.policy == "strikes:2"
    assert dict(config.options)["stacking"] is True
    assert (config.move_ms, config.startup_ms) == (700, 4000)
    assert all(g.seats == 3 and dict(g.options)["stacking"] for g in plan(["family"], 6, 5,
                                                                            Contest(config.options, config.seats)))


def test_an_unknown_bot_is_named_with_the_choices(tmp_path):
    arena = load_arena(str(contest(tmp_path)))
    with pytest.raises(ValueError, match="no bot 'nosy'.*did you mean 'noisy'"):
        contest_bots(arena, "nosy")
    with pytest.raises(ValueError, match="built-in player"):
        contest_bots(arena, "easy")


def test_wording_follows_the_policy():
    assert "loses the game" in fault_cost("forfeit")
    strikes = fault_cost("strikes:3")
    assert "loses the game" not in strikes and "draw" in strikes and "strike 4" in strikes


def test_a_failure_keeps_the_whole_request():
    check = CheckResult("x", "fuzz")
    long = '{"type":"turn","hand":[' + ",".join(['"red:1"'] * 400) + "]}"
    check.fail("bad", sent=long, received="garbage")
    assert check.to_json()["sent"] == long


@pytest.mark.slow
def test_check_arena_json_has_whole_requests_replays_and_policy_words(tmp_path):
    arena_file = contest(tmp_path)
    junit = tmp_path / "check.xml"
    result = CliRunner().invoke(cli, ["check", "--arena", str(arena_file), "--bot", "noisy", "-n", "2", "--json",
                                      "--junit", str(junit), "--records", str(tmp_path / "rec")])
    assert result.exit_code == 1, result.output
    doc = json.loads(result.output)
    assert doc["settings"]["policy"] == "strikes:2" and doc["settings"]["move_ms"] == 700
    failed = {c["name"]: c for c in doc["checks"] if c["status"] == "failed"}
    assert "under strikes:2" in failed["no debug output on stdout"]["problem"]
    fuzz = next(c for name, c in failed.items() if name.startswith("fuzz family"))
    assert fuzz["sent"].startswith('{"type":"turn"') and fuzz["sent"].endswith("]}")  # whole, not cut
    assert "..." not in fuzz["sent"][-20:]
    replays = [d.split("replay: ", 1)[1] for d in fuzz["details"] if "replay: " in d]
    assert replays and all(r.startswith("lastcard replay ") for r in replays)
    record = shlex.split(replays[0])[2]
    assert f"(ask your bot of today the same: lastcard replay {record} --seat " in replays[0]
    assert re.search(r"--seat \d+ --turn \d+ --ask ", replays[0])
    shown = subprocess.run([sys.executable, "-m", "referee.cli.main", "replay", record], capture_output=True, text=True)
    assert shown.returncode == 0 and "noisy" in shown.stdout
    failures = [f.text or "" for f in ET.parse(junit).iter("failure")]
    assert any(fuzz["sent"] in text for text in failures)  # whole in JUnit as well


@pytest.mark.slow
def test_check_arena_checks_every_bot_and_refuses_contest_options(tmp_path):
    arena_file = contest(tmp_path)
    runner = CliRunner()
    result = runner.invoke(cli, ["check", "--arena", str(arena_file), "-n", "1", "--json"])
    doc = json.loads(result.output)
    assert sorted(r["bot"]["name"] for r in doc["reports"]) == ["noisy", "quiet one"]
    assert [r["ok"] for r in sorted(doc["reports"], key=lambda r: r["bot"]["name"])] == [False, True]
    refused = runner.invoke(cli, ["check", "--arena", str(arena_file), "--move-ms", "5"])
    assert refused.exit_code == 2 and "--move-ms does not go with --arena" in refused.output
    both = runner.invoke(cli, ["check", "python3 x.py", "--arena", str(arena_file)])
    assert both.exit_code == 2 and "not both" in both.output


@pytest.mark.slow
def test_check_arena_bot_repeats_and_each_report_is_headed_by_its_bot(tmp_path):
    """Both students run `python3 bot.py`: the reports (as in a file, no terminal) tell them apart by name, in the
    order the --bot options gave them, each once."""
    arena_file = contest(tmp_path)
    runner = CliRunner()
    picked = ["--bot", "quiet one", "--bot", "noisy", "--bot", "quiet one"]
    text = runner.invoke(cli, ["check", "--arena", str(arena_file), *picked, "-n", "1"])
    assert text.exit_code == 1, text.output  # noisy fails
    heads = [line for line in text.stdout.splitlines() if line.startswith("lastcard check: ")]
    assert [h.split(": ")[1] for h in heads] == ["quiet one", "noisy"], heads
    assert all(h.endswith("python3 bot.py") or "bot.py" in h for h in heads)
    doc = json.loads(runner.invoke(cli, ["check", "--arena", str(arena_file), *picked, "-n", "1", "--json"]).output)
    assert [r["bot"]["name"] for r in doc["reports"]] == ["quiet one", "noisy"]
    one = json.loads(runner.invoke(cli, ["check", "--arena", str(arena_file), "--bot", "noisy", "-n", "1",
                                         "--json"]).output)
    assert one["bot"]["name"] == "noisy"  # a single --bot prints that bot's report itself, as before
    unknown = runner.invoke(cli, ["check", "--arena", str(arena_file), "--bot", "noisy", "--bot", "nosy"])
    assert unknown.exit_code == 2 and "no bot 'nosy'" in unknown.output


@pytest.mark.slow
def test_check_text_never_cuts_a_replay_command(tmp_path):
    """The checklist shortens long notes, but each replay command is whole, on its own line, and runs (the records
    folder is deep here so that a note with its command is far past the terminal's limit)."""
    arena_file = contest(tmp_path)
    records = tmp_path / ("deep-folder-" * 12) / ("records-" * 12)
    result = CliRunner().invoke(cli, ["check", "--arena", str(arena_file), "--bot", "noisy", "-n", "2",
                                      "--records", str(records)])
    assert result.exit_code == 1, result.output
    commands = [line.strip().removeprefix("replay: ") for line in result.stdout.splitlines()
                if line.strip().startswith("replay: ")]
    assert commands, result.stdout
    for command in commands:
        assert command.startswith("lastcard replay ") and "..." not in command and "chars)" not in command
        record = Path(shlex.split(command)[2])
        assert record.parent == records and record.exists()
