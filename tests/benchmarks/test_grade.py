"""``lastcard grade BOT``: one submission graded as Gradescope, PrairieLearn or CI runs it. Each format is checked
against a JSON Schema written from the platform's published documentation (tests/benchmarks/schemas/), the exit
status is what a CI job reads, and the autograder scripts docs/grading.md ships run as the platforms run them.

The bots are the trusted sample Python bots, run with ``--sandbox none`` for speed."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import jsonschema
import pytest
from click.testing import CliRunner

from referee.benchmarks.platforms import render
from referee.benchmarks.submission import grade_submission, teacher_arena
from referee.cli.main import cli
from referee.cli.sandbox_option import sandboxed
from tests.benchmarks.classes import GRADED, grades, make_class

ROOT = Path(__file__).resolve().parents[2]
SCHEMAS = Path(__file__).resolve().parent / "schemas"
GRADESCOPE = json.loads((SCHEMAS / "gradescope_results.schema.json").read_text())
PRAIRIELEARN = json.loads((SCHEMAS / "prairielearn_results.schema.json").read_text())
OURS = json.loads((ROOT / "protocol" / "schemas" / "grade.schema.json").read_text())
#: The class's file with what ``lastcard grade`` adds: points for the check and a shipped position suite.
WITH_TESTS = GRADED.replace("  points_column: Bots\n", "  points_column: Bots\n  check: 10\n"
                                                       "  suites: [{path: compact, points: 10}]\n")


def grade(*args: str) -> tuple[int, str]:
    """The exit status, and stdout (the grade) or, for bad input, everything said."""
    result = CliRunner().invoke(cli, ["grade", *args, "--sandbox", "none", "--check-games", "2", "-j", "2", "-q"])
    return result.exit_code, result.stdout if result.exit_code in (0, 1) else result.output


@pytest.mark.slow
def test_one_submission_in_every_format_its_platform_documents(tmp_path):
    path = make_class(tmp_path, {"ann": "strong"}, WITH_TESTS)
    arena = sandboxed(teacher_arena(str(path), str(tmp_path / "students" / "ann")), "none")
    graded = grade_submission(arena, check_games=2, jobs=2)
    assert graded.gradable and graded.ok and graded.student == "ann"
    names = [t.name for t in graded.tests]
    assert names[:4] == ["builds and starts", "lastcard check", "positions: compact", "plays the benchmarks"]
    assert names[4:] == ["stronger than builtin:easy", "stronger than builtin:medium"]
    assert graded.score == sum(t.score for t in graded.tests) == 100 and graded.max_score == 100
    gs = json.loads(render(graded, "gradescope"))
    jsonschema.validate(gs, GRADESCOPE)
    assert gs["score"] == 100 and [t["status"] for t in gs["tests"]] == ["passed"] * 6
    assert {e["name"] for e in gs["leaderboard"]} == {"Rating", "Points"} and graded.rating is not None
    medium = gs["tests"][-1]
    assert medium["max_score"] == 20 and "LLR after each pair:" in medium["output"]
    pl = json.loads(render(graded, "prairielearn"))
    jsonschema.validate(pl, PRAIRIELEARN)
    assert pl["gradable"] is True and pl["score"] == 1.0 and len(pl["tests"]) == 6
    ours = json.loads(render(graded, "json"))
    jsonschema.validate(ours, OURS)
    assert ours["certain"] and [b["verdict"] for b in ours["benchmarks"]] == ["H1", "H1"]
    suite = ElementTree.fromstring(render(graded, "junit")).find("testsuite")
    assert suite is not None and suite.get("tests") == "6" and suite.get("failures") == "0"
    assert [c.get("name") for c in suite.iter("testcase")] == names
    # the same bands as the class's run: a submission graded alone gets the points the class's grades.csv gives it
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["arena", str(path), "--out", str(out), "-q", "--sandbox", "none",
                                      "--check-games", "0"])
    assert result.exit_code == 0, result.output
    assert float(grades(out / "grades.csv")["ann"]["Bots"]) == sum(
        t.score for t in graded.tests if t.name.startswith(("plays", "stronger")))


@pytest.mark.slow
def test_the_exit_status_says_what_a_ci_job_needs(tmp_path):
    path = make_class(tmp_path, {"bob": "random", "hal": ""})
    bob, hal = str(tmp_path / "students" / "bob"), str(tmp_path / "students" / "hal")
    code, out = grade(bob, "--arena", str(path), "--format", "prairielearn")
    assert code == 0, out  # a band not reached is a grade, not a failure
    pl = json.loads(out)
    jsonschema.validate(pl, PRAIRIELEARN)
    assert pl["score"] == pytest.approx(40 / 80)
    code, out = grade(bob, "--arena", str(path), "--fail-under", "60")
    assert code == 1 and json.loads(out)["score"] == 40
    # nothing to run: not gradable, exit status 1, and the reason for the student
    code, out = grade(hal, "--arena", str(path), "--format", "prairielearn")
    assert code == 1
    pl = json.loads(out)
    jsonschema.validate(pl, PRAIRIELEARN)
    assert pl["gradable"] is False and "no bot found" in pl["format_errors"][0]
    code, out = grade(hal, "--arena", str(path), "--format", "gradescope")
    gs = json.loads(out)
    jsonschema.validate(gs, GRADESCOPE)
    assert code == 1 and gs["score"] == 0 and gs["tests"][0]["status"] == "failed"


@pytest.mark.parametrize(("block", "words"), [
    ("grading: {by: rank, best: 100, worst: 60}\n", "lastcard grade needs a file that grades by benchmarks"),
    ("grading: {by: benchmarks, bands: [{bot: 'builtin:easy', points: 60}], suites: [{path: nowhere.yaml}]}\n",
     "grading.suites[0].path:"),
])
def test_a_teachers_file_that_cannot_grade_is_bad_input(tmp_path, block, words):
    (tmp_path / "a.yaml").write_text("bots: [builtin:random]\n" + block)
    code, out = grade("python3 x.py", "--arena", str(tmp_path / "a.yaml"))
    assert code == 2 and words in out, out


@pytest.mark.slow
def test_the_autograder_scripts_of_docs_grading_md_run_as_the_platforms_run_them(tmp_path):
    """Gradescope's run_autograder and PrairieLearn's entrypoint, each in the folder tree its platform makes
    (AUTOGRADER and GRADE point there; LASTCARD at this checkout's command)."""
    if shutil.which("bash") is None:
        pytest.skip("bash is not installed")
    lastcard = str(Path(sys.executable).with_name("lastcard"))
    make_class(tmp_path, {"bob": "random"})
    arena = GRADED.replace("policy: strikes:3\n", "policy: strikes:3\nsandbox: none\n")  # trusted: speed
    ag = tmp_path / "autograder"
    shutil.copytree(tmp_path / "students" / "bob", ag / "submission")
    (ag / "source").mkdir()
    (ag / "source" / "graded.yaml").write_text(arena)
    env = {**os.environ, "AUTOGRADER": str(ag), "LASTCARD": lastcard}
    done = subprocess.run(["bash", str(ROOT / "examples" / "gradescope" / "run_autograder")], env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    gs = json.loads((ag / "results" / "results.json").read_text())
    jsonschema.validate(gs, GRADESCOPE)
    assert gs["score"] == 40 and (ag / "results" / "games" / "games.jsonl").exists()
    pl = tmp_path / "grade"
    shutil.copytree(tmp_path / "students" / "bob", pl / "student")
    (pl / "serverFilesCourse" / "lastcard").mkdir(parents=True)
    (pl / "serverFilesCourse" / "lastcard" / "graded.yaml").write_text(arena)
    env = {**os.environ, "GRADE": str(pl), "LASTCARD": lastcard}
    done = subprocess.run(["bash", str(ROOT / "examples" / "prairielearn" / "grade.sh")], env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    result = json.loads((pl / "results" / "results.json").read_text())
    jsonschema.validate(result, PRAIRIELEARN)
    assert result["gradable"] and result["score"] == pytest.approx(0.5)
    # a broken teacher's file still leaves the platform a results.json that says so
    (ag / "source" / "graded.yaml").write_text("bots: [builtin:random]\ngrading: {by: benchmarks}\n")
    done = subprocess.run(["bash", str(ROOT / "examples" / "gradescope" / "run_autograder")],
                          env={**os.environ, "AUTOGRADER": str(ag), "LASTCARD": lastcard}, capture_output=True,
                          text=True, timeout=600)
    gs = json.loads((ag / "results" / "results.json").read_text())
    jsonschema.validate(gs, GRADESCOPE)
    assert done.returncode == 0 and gs["score"] == 0 and "exit status 2" in gs["output"]
