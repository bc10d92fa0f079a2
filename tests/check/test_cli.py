"""``lastcard check`` on the command line: exit status, the checklist, ``--json`` and ``--junit``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.check import suite as S
from referee.cli.check import check_cmd
from referee.cli.main import cli
from tests.check.test_bots import BROKEN, PY, ROOT, bot_pids  # noqa: F401 - bot_pids: no bot outlives a test

STRONG = f"{PY} {ROOT / 'sample_bots/python/strong_bot.py'}"
NO_COLOUR = f"{PY} {BROKEN / 'no_colour.py'}"
FAST = ["--games", "0", "--quiet-ms", "50"]


def invoke(*args: str):
    return CliRunner().invoke(check_cmd, list(args), catch_exceptions=False)


def test_check_is_a_lastcard_command() -> None:
    result = CliRunner().invoke(cli, ["check", "--help"])
    assert result.exit_code == 0 and "BOT_COMMAND" in result.output and "--junit" in result.output


@pytest.mark.slow
def test_a_passing_bot_exits_0_with_a_checklist() -> None:
    result = invoke(STRONG, "--games", "2", "--ruleset", "compact")
    assert result.exit_code == 0, result.output
    assert "✓ handshake: ready within the startup limit" in result.output
    assert "✓ fuzz compact: no faults" in result.output
    # The time per move against the limit (CPU time by default), as a check of its own (the 13th).
    assert "✓ time per move: " in result.output and "ms of CPU time on average" in result.output
    assert result.output.strip().splitlines()[-1].startswith("PASSED: 13 passed, 0 failed, 0 skipped")


@pytest.mark.slow
def test_a_failing_bot_exits_1_and_shows_the_exchange() -> None:
    result = invoke(NO_COLOUR, *FAST, "-r", "family")
    assert result.exit_code == 1
    out = result.output
    assert f"✗ {S.F_WILD}" in out
    assert 'received: {"type":"play","id":' in out and '"cards":["wild"]}' in out
    assert "expected: a play of the wild that names its colour" in out
    assert "sent:     {\"type\":\"turn\"" in out
    assert out.strip().splitlines()[-1].startswith("FAILED: ")


@pytest.mark.slow
def test_json_report(tmp_path: Path) -> None:
    result = invoke(NO_COLOUR, *FAST, "--ruleset", "family,arcade", "--json")
    assert result.exit_code == 1
    doc = json.loads(result.output)
    assert doc["format"] == "lastcard-check" and doc["ok"] is False
    assert doc["rulesets"] == ["family", "arcade"]
    assert doc["bot"]["ready"] == {"type": "ready", "name": "broken"}
    failed = [c for c in doc["checks"] if c["status"] == "failed"]
    assert [c["name"] for c in failed] == [S.F_WILD]
    assert {"sent", "received", "expected", "problem", "elapsed_ms"} <= set(failed[0])
    assert doc["summary"]["failed"] == 1 and sum(doc["summary"].values()) == len(doc["checks"])


@pytest.mark.slow
def test_junit_report(tmp_path: Path) -> None:
    path = tmp_path / "check.xml"
    result = invoke(NO_COLOUR, *FAST, "-r", "family", "--junit", str(path))
    assert result.exit_code == 1 and f"JUnit XML: {path}" in result.output
    root = ET.parse(path).getroot()
    assert root.tag == "testsuite" and root.get("failures") == "1"
    cases = root.findall("testcase")
    assert int(root.get("tests", "0")) == len(cases) > 5
    failed = [c for c in cases if c.find("failure") is not None]
    assert [c.get("name") for c in failed] == [S.F_WILD]
    assert failed[0].get("classname") == "lastcard.check.family"
    assert "received:" in (failed[0].find("failure").text or "")  # type: ignore[union-attr]
    assert len([c for c in cases if c.find("skipped") is not None]) == int(root.get("skipped", "-1")) == 1


@pytest.mark.slow
def test_json_and_junit_together_for_a_passing_bot(tmp_path: Path) -> None:
    path = tmp_path / "ok.xml"
    result = invoke(STRONG, *FAST, "-r", "arcade", "--json", "--junit", str(path))
    assert result.exit_code == 0
    assert json.loads(result.output)["ok"] is True
    assert ET.parse(path).getroot().get("failures") == "0"


@pytest.mark.parametrize("args, message", [
    pytest.param(["-r", "poker"], "unknown ruleset 'poker'", id="unknown-ruleset"),
    pytest.param(["--games", "-1"], "-1", id="negative-games"),
])
def test_usage_errors(args: list[str], message: str) -> None:
    result = CliRunner().invoke(check_cmd, [STRONG, *args])
    assert result.exit_code == 2 and message in result.output


def test_a_builtin_is_not_a_bot_to_check() -> None:
    result = CliRunner().invoke(check_cmd, ["builtin:random"])
    assert result.exit_code == 2 and "built-in player" in result.output


def _lastcard() -> str:
    script = Path(sys.executable).parent / "lastcard"
    if not script.exists():
        pytest.skip("the lastcard script is not installed next to this interpreter")
    return str(script)


@pytest.mark.slow
def test_real_exit_status_and_ascii_fallback() -> None:
    """As a CI job runs it: a real process, and a terminal that cannot show ✓ and ✗."""
    env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    ok = subprocess.run([_lastcard(), "check", STRONG, *FAST, "-r", "compact"], capture_output=True, env=env,
                        timeout=60)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    bad = subprocess.run([_lastcard(), "check", NO_COLOUR, *FAST, "-r", "family"], capture_output=True, env=env,
                         timeout=60)
    assert bad.returncode == 1
    text = bad.stdout.decode("ascii")  # plain ASCII throughout
    assert f"FAIL {S.F_WILD}" in text and f"ok   {S.HANDSHAKE_TIME}" in text
