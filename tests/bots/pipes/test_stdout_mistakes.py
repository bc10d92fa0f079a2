"""A beginner's stdout mistakes, each a small bot in ``tests/bots/pipes/stdout_bots``: ``lastcard check`` and the
match's table (``play_game``, as ``match`` and ``arena`` play) both name the real mistake first, at once (no
startup or move limit waited out, by the reported timing), with its fix; the harmless quirks keep passing."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from referee.bots import hints
from referee.bots.pipes.lines import Mistake, diagnose, gather, judge, while_waiting
from referee.bots.pipes.transport import ReadTimeout
from referee.bots.pool import BotPool
from referee.bots.spec import TimeLimits, parse_bot
from referee.check import CheckConfig, Report, Status, run_check
from referee.check import suite as S
from referee.check.output import format_text
from referee.check.report import CheckResult
from referee.engine.rules import get_ruleset
from referee.table.policy import FaultPolicy
from referee.table.table import play_game, seat_for

ROOT = Path(__file__).resolve().parents[3]
BOTS = ROOT / "tests" / "bots" / "pipes" / "stdout_bots"
PY = sys.executable
#: Limits long enough that waiting one out shows in the reported time, short enough to keep a failing test quick.
STARTUP_MS = 6000
MOVE_MS = 3000
#: "Named at once": well under either limit.
PROMPT_MS = 2000

# (bot, the check that fails first, the words of the problem, the fix shown, the fault kind in a game)
MISTAKES = [
    pytest.param("pretty_printed", S.HANDSHAKE_TIME, ["split over", "joined, the lines are one valid message"],
                 "json.dumps(msg) without indent=", "startup", id="pretty-printed-over-lines"),
    pytest.param("byte_order_mark", S.HANDSHAKE_TIME, ["byte order mark (U+FEFF", "then a valid message"],
                 "not \"utf-8-sig\"", "startup", id="byte-order-mark"),
    pytest.param("prompt", S.HANDSHAKE_TIME, ["starts with '> ' before a JSON message", "a prompt"],
                 "input() without a prompt", "startup", id="prompt-before-ready"),
    pytest.param("two_on_one_line", S.C_DRAW, ["2 JSON messages on one line"],
                 "print(json.dumps(msg), flush=True) once per message", "non_json", id="two-messages-on-one-line"),
    pytest.param("no_newline", S.C_DRAW, ["a whole message without a newline and then waited"],
                 "print(json.dumps(msg), flush=True) once per message", "non_json", id="answer-without-newline"),
    pytest.param("not_an_object", S.C_DRAW, ["valid JSON but a string (", "not an object"],
                 '{"type":"draw","id":7}', "non_json", id="json-that-is-not-an-object"),
]


def _check(name: str, **config: Any) -> Report:
    config.setdefault("games", 0)
    config.setdefault("quiet_ms", 100)
    config.setdefault("rulesets", ("compact",))
    return run_check(f"{PY} {BOTS / name}.py", CheckConfig(startup_ms=STARTUP_MS, move_ms=MOVE_MS, **config))


def _first_failed(report: Report) -> CheckResult:
    failed = [c for c in report.checks if c.status is Status.FAILED]
    assert failed, "no check failed"
    return failed[0]


def _game(name: str) -> dict[str, Any]:
    bot = parse_bot(f"{PY} {BOTS / name}.py", TimeLimits(startup_ms=STARTUP_MS, move_ms=MOVE_MS, quit_ms=500))
    with BotPool() as pool:
        return play_game(get_ruleset("family", {"target": "round"}), [seat_for(bot, pool),
                         seat_for(parse_bot("builtin:easy"), pool)], seed=3, game_id="g", policy=FaultPolicy())


@pytest.mark.slow
@pytest.mark.parametrize("bot, first, words, fix, kind", MISTAKES)
def test_check_names_the_mistake_first_and_at_once(bot: str, first: str, words: list[str], fix: str, kind: str
                                                   ) -> None:
    report = _check(bot)
    check = _first_failed(report)
    assert check.name == first
    assert check.problem is not None
    for text in words:
        assert text in check.problem, check.problem
    assert fix in (check.expected or ""), check.expected  # the fix, shown whole in the checklist
    assert fix in format_text(report)
    limit = STARTUP_MS if first == S.HANDSHAKE_TIME else MOVE_MS
    assert check.elapsed_ms is not None and check.elapsed_ms < PROMPT_MS < limit, check.elapsed_ms
    assert "flush stdout" not in check.problem  # not the wrong place to look


@pytest.mark.slow
@pytest.mark.parametrize("bot, first, words, fix, kind", MISTAKES)
def test_a_game_records_the_mistake_by_name_at_once(bot: str, first: str, words: list[str], fix: str, kind: str
                                                    ) -> None:
    result = _game(bot)
    fault = result["faults"][0]
    assert fault["kind"] == kind and fault["seat"] == 0
    for text in words:
        assert text in fault["message"], fault["message"]
    assert fix in fault["message"]
    assert fault["elapsed_ms"] < PROMPT_MS


@pytest.mark.slow
def test_a_debug_print_before_ready_is_named_by_check_and_in_a_game() -> None:
    report = _check("debug_before_ready")
    check = _first_failed(report)
    assert check.name == S.NO_DEBUG  # the handshake itself passed: check reads past a debug print
    assert report.get(S.HANDSHAKE_TIME).status is Status.PASSED
    assert "'starting my bot'" in (check.problem or "") and "before ready" in (check.problem or "")
    assert "print(..., file=sys.stderr)" in (check.expected or "")
    fault = _game("debug_before_ready")["faults"][0]
    assert fault["kind"] == "startup" and "before ready is not JSON (a debug print?" in fault["message"]
    assert "print(..., file=sys.stderr)" in fault["message"] and fault["line"] == "starting my bot"
    assert fault["elapsed_ms"] < PROMPT_MS


@pytest.mark.slow
def test_an_answer_to_start_is_named_as_an_answer_to_information() -> None:
    report = _check("answers_start")
    check = _first_failed(report)
    assert check.name == S.NO_ANSWER
    assert "an answer to a message that is not a request" in (check.problem or "")
    assert "only turn requests are answered" in (check.problem or "")
    fault = _game("answers_start")["faults"][0]
    assert fault["kind"] == "missing_id" and "a message that is not a request" in fault["message"]
    assert fault["elapsed_ms"] < PROMPT_MS


@pytest.mark.slow
def test_harmless_quirks_pass_check_and_play() -> None:
    report = _check("harmless_quirks", rulesets=("compact", "family", "arcade"))
    assert report.ok, [(c.name, c.problem) for c in report.checks if c.failed]
    assert _game("harmless_quirks")["faults"] == []


# ---------------------------------------------------------------------------------------- without processes
def test_a_timeout_says_what_the_bot_wrote_meanwhile() -> None:
    what, fix = while_waiting(b"", language="perl")
    assert "wrote nothing on stdout" in what and "$| = 1" in (fix or "")
    what, fix = while_waiting(b'{"type":"draw","id":3}', language="java")
    assert "without a newline (a whole message" in what and "System.out.println(text)" in (fix or "")
    assert "2 line(s)" in while_waiting(b"", [b"hi", b"there"])[0]
    assert "only 3 log message(s)" in while_waiting(b"", logs=3)[0]


def test_split_lines_are_joined_into_the_message_they_make() -> None:
    rest = iter([b'  "type": "draw",', b'  "id": 4', b"}"])

    def read(deadline: float) -> bytes:
        try:
            return next(rest)
        except StopIteration:
            raise ReadTimeout("no more") from None

    problem = gather(b"{", read, 1e18, "javascript")
    assert problem.mistake is Mistake.SPLIT and "split over 4 lines" in problem.what
    assert '{"type":"draw","id":4}' in problem.what and "JSON.stringify(msg) without" in problem.fix
    assert gather(b"{", lambda d: (_ for _ in ()).throw(ReadTimeout("x")), 0.0).mistake is Mistake.FRAGMENT


def test_a_bom_names_the_fix_for_the_languages_that_write_one() -> None:
    problem = diagnose(b'\xef\xbb\xbf{"type":"ready","name":"x"}')
    assert problem.mistake is Mistake.BOM
    for words in ("C#: Console.OutputEncoding = new UTF8Encoding(false)", "PowerShell: [Console]::OutputEncoding",
                  "Java: new PrintStream"):
        assert words in problem.fix
    assert "C#:" in diagnose(b"\xef\xbb\xbfhello", "csharp").fix and "Java" not in diagnose(b"\xef\xbb\xbfx",
                                                                                             "csharp").fix


def test_harmless_lines_are_messages() -> None:
    assert judge(b'{"id":3, "type":"draw"}   ') == {"type": "draw", "id": 3}
    assert judge(b'\t{"type":"draw","id":3}') == {"type": "draw", "id": 3}


@pytest.mark.parametrize("command, language", [
    ("python3 bot.py", "python"), ("/usr/bin/python3.12 -u x.py", "python"), ("node bot.js", "javascript"),
    ("java -cp . Bot", "java"), ("java Bot.java", "java"), ("perl bot.pl", "perl"), ("ruby bot.rb", "ruby"),
    ("go run main.go", "go"), ("cargo run --release", "rust"), ("dotnet run", "csharp"), ("sh bot.sh", "shell"),
    ("pwsh bot.ps1", "powershell"), ("./bot", None), ("env python3 bot.py", "python"),
])
def test_a_bots_language_comes_from_its_command(command: str, language: str | None) -> None:
    assert hints.language_of(command) == language


def test_a_scripts_language_comes_from_its_shebang(tmp_path: Path) -> None:
    script = tmp_path / "bot"
    script.write_text("#!/usr/bin/env ruby\nputs 1\n")
    assert hints.language_of("./bot", str(tmp_path)) == "ruby"
    assert hints.language_of("./bot", str(tmp_path), detected="c") == "c"  # a submission's detected language wins


@pytest.mark.parametrize("language, words", [
    ("python", "flush=True"), ("c", "fflush(stdout)"), ("cpp", "std::endl"), ("java", "System.out.flush()"),
    ("javascript", "process.stdout.write"), ("perl", "$| = 1"), ("ruby", "$stdout.sync = true"),
    ("go", "Flush()"), ("rust", "stdout().flush()"), ("csharp", "Console.Out.Flush()"), ("shell", "stdbuf -oL"),
])
def test_each_language_gets_its_own_flush_hint(language: str, words: str) -> None:
    text = hints.flush_hint(language)
    assert words in text
    assert sum(f"{label}: " in text for label in hints._LABEL.values()) == 1  # its own, not the whole list
    assert words in hints.flush_hint(None)  # an unknown bot is shown every language's


# ---------------------------------------------------------------------------------------- an arena's reports
PRETTY_PY = """\
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello":
        print(json.dumps({"type": "ready", "name": "pretty"}, indent=2), flush=True)
    elif m["type"] == "quit":
        break
"""
PRETTY_SH = """\
#!/bin/sh
while read -r line; do
  case "$line" in
    *'"hello"'*) printf '{\\n  "type": "ready",\\n  "name": "shelly"\\n}\\n' ;;
    *'"quit"'*) exit 0 ;;
  esac
done
"""
CLASS = """\
ruleset: family
options: {target: round}
seats: 2
format: round_robin
games: 1
bootstrap: 0
bots:
  - submissions: {path: "students/*"}
  - builtin:random
  - builtin:easy
"""


@pytest.mark.slow
def test_an_arena_reports_the_mistake_with_the_fix_in_each_submissions_language(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from referee.cli.main import cli

    (tmp_path / "students" / "ada").mkdir(parents=True)
    (tmp_path / "students" / "ada" / "bot.py").write_text(PRETTY_PY)
    run = tmp_path / "students" / "bo" / "run"  # a language of its own: known from its #! line
    run.parent.mkdir()
    run.write_text(PRETTY_SH)
    run.chmod(0o755)
    (tmp_path / "arena.yaml").write_text(CLASS)
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["arena", str(tmp_path / "arena.yaml"), "--out", str(out), "-q",
                                      "--check-games", "0", "--no-report"])
    assert result.exit_code == 0, result.output
    ada = (out / "bots" / "ada.md").read_text()
    assert "one message split over 4 lines before ready" in ada and "Python: json.dumps(msg) without indent=" in ada
    bo = (out / "bots" / "bo.md").read_text()
    assert "one message split over 4 lines before ready" in bo and "shell: jq -c" in bo
    assert "Python:" not in bo


@pytest.mark.slow
def test_a_limit_waited_out_says_what_the_bot_wrote_meanwhile() -> None:
    """Where nothing names the mistake sooner, the timeout says what came in that time, and the flush fix."""
    never = f"{PY} {ROOT / 'tests' / 'support' / 'broken_bots' / 'never_answers.py'}"
    # clock="wall": a bot that waits uses no CPU, so under the CPU clock only the (later) backstop would end it
    bot = parse_bot(never, TimeLimits(startup_ms=STARTUP_MS, move_ms=300, quit_ms=500, clock="wall"))
    with BotPool() as pool:
        result = play_game(get_ruleset("family", {"target": "round"}), [seat_for(bot, pool),
                           seat_for(parse_bot("builtin:easy"), pool)], seed=3, game_id="g", policy=FaultPolicy())
    fault = result["faults"][0]
    assert fault["kind"] == "timeout" and "no answer within 300 ms; in that time it wrote nothing on stdout" \
        in fault["message"]
    assert "Python: print(line, flush=True)" in fault["message"]
    report = run_check(never, CheckConfig(games=0, quiet_ms=100, rulesets=("compact",), move_ms=200))
    check = _first_failed(report)
    assert check.name == S.C_DRAW and "in that time it wrote nothing on stdout" in (check.problem or "")
    assert "Python: print(line, flush=True)" in (check.expected or "")
