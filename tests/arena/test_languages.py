"""Submission folders in any language: detection by content, the arena's language table, the student's
manifest, and every folder accounted for (one with no bot is left out with what was expected)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.arena import load_arena
from referee.arena.config import ArenaFileError, parse_arena
from referee.builds.languages import DEFAULT_LANGUAGES, MANIFEST, detect, language_table, read_manifest
from referee.builds.steps import check_requires
from referee.cli.main import cli

ROOT = Path(__file__).resolve().parents[2]
TABLE = DEFAULT_LANGUAGES


def folder(tmp_path: Path, name: str, files: dict[str, str], executable: tuple[str, ...] = ()) -> Path:
    path = tmp_path / name
    path.mkdir(parents=True)
    for file, text in files.items():
        (path / file).write_text(text, encoding="utf-8")
    for file in executable:
        os.chmod(path / file, 0o755)
    return path


@pytest.mark.parametrize("files, executable, language, command, build", [
    pytest.param({"bot.py": ""}, (), "python", "{python} bot.py", None, id="python"),
    pytest.param({"bot.js": ""}, (), "javascript", "node bot.js", None, id="javascript"),
    pytest.param({"bot.c": ""}, (), "c", "./bot", "cc -O2 -std=c99 -o bot bot.c -lm", id="c"),
    pytest.param({"Bot.java": ""}, (), "java", "java -cp . Bot", "javac Bot.java", id="java"),
    pytest.param({"bot.sh": ""}, (), "shell", "sh bot.sh", None, id="shell"),
    pytest.param({"run": "#!/bin/sh\n"}, ("run",), "run", "./run", None, id="executable-run"),
    pytest.param({"Makefile": "", "bot.c": ""}, (), "make", "./bot", "make", id="makefile-before-bot.c"),
    pytest.param({"run": "#!/bin/sh\n", "bot.py": ""}, ("run",), "run", "./run", None, id="run-before-source"),
])
def test_a_folder_is_recognised_by_what_it_holds(tmp_path, files, executable, language, command, build):
    found = detect(str(folder(tmp_path, "ada", files, executable)), TABLE)
    assert (found.language, found.command, found.build, found.problem) == (language, command, build, None)


def test_a_folder_with_no_bot_says_what_was_expected_and_names_the_folder(tmp_path):
    found = detect(str(folder(tmp_path, "hal", {"notes.txt": ""})), TABLE, shown="students/hal")
    assert found.language is None
    assert "'students/hal'" in found.problem
    for expected in (MANIFEST, "bot.py", "bot.js", "Bot.java", "bot.c", "Makefile", "run (executable)"):
        assert expected in found.problem


def test_a_run_file_that_is_not_executable_gets_the_fix(tmp_path):
    found = detect(str(folder(tmp_path, "eve", {"run": "echo"})), TABLE)
    assert found.language is None and "chmod +x run" in found.problem


def test_the_arena_file_changes_a_language_and_adds_one_tried_first():
    # zig is in no default row (rust is: a kit's row, changed in place like c)
    table = language_table({"c": {"build": "gcc -o bot bot.c"}, "zig": {"file": "build.zig", "command": "./b"}})
    assert table[0].name == "zig" and table[0].file == "build.zig"
    c = next(lang for lang in table if lang.name == "c")
    assert c.build == "gcc -o bot bot.c" and c.command == "./bot"  # only the key given changes
    assert len(table) == len(TABLE) + 1


def test_the_manifest_wins_over_the_table(tmp_path):
    path = folder(tmp_path, "gus", {MANIFEST: "run: ./go --fast\nbuild: make go\nrequires: [make]\n", "bot.py": ""})
    found = detect(str(path), TABLE)
    assert (found.command, found.build, found.requires, found.problem) == ("./go --fast", "make go", ("make",), None)
    assert found.manifest == str(path / MANIFEST)


def test_a_manifest_may_name_a_language_and_keep_its_commands(tmp_path):
    path = folder(tmp_path, "dee", {MANIFEST: "language: java\n"})
    found = detect(str(path), TABLE)
    assert (found.command, found.build) == ("java -cp . Bot", "javac Bot.java")


@pytest.mark.parametrize("text, expected", [
    pytest.param("run: x\ncmd: y\n", ["unknown key 'cmd'", "allowed: run, build, requires, language", "(line 2)"],
                 id="unknown-key"),
    pytest.param("build: make\n", ["run: missing", 'e.g. run: "python3 bot.py"'], id="no-run"),
    pytest.param("run: 3\n", ["run: found 3; expected a command line", "(line 1)"], id="run-not-text"),
    pytest.param("language: cobol\n", ["'cobol' is not a language this arena knows", "python"], id="language"),
    pytest.param("run: [unclosed\n", ["line"], id="yaml-syntax"),
    pytest.param("- run\n", ["expected keys"], id="not-a-mapping"),
])
def test_manifest_mistakes_are_located(tmp_path, text, expected):
    path = folder(tmp_path, "x", {MANIFEST: text}) / MANIFEST
    found = read_manifest(str(path), TABLE, shown="students/x/lastcard.yaml")
    assert found.language is None and found.problem.startswith("students/x/lastcard.yaml: ")
    for part in expected:
        assert part in found.problem


CLASS = """\
ruleset: compact
seats: 2
games: 2
bots:
  - submissions:
      path: "students/*"
  - builtin:random
"""


def test_a_class_in_several_languages_resolves_with_names_from_folders(tmp_path):
    students = tmp_path / "students"
    folder(students, "ada", {"bot.py": ""})
    folder(students, "bob", {"bot.js": ""})
    folder(students, "cy", {"bot.c": ""})
    folder(students, "zoé martin", {"bot.py": ""})
    folder(students, "hal", {"README": ""})
    (tmp_path / "arena.yaml").write_text(CLASS, encoding="utf-8")
    arena = load_arena(str(tmp_path / "arena.yaml"))
    by_name = {e.spec.name: e for e in arena.bots}
    assert set(by_name) == {"ada", "bob", "cy", "zoé martin", "hal", "random"}
    assert by_name["zoé martin"].spec.cwd == str(students / "zoé martin")
    assert by_name["zoé martin"].language == "python" and by_name["bob"].requires == ("node",)
    assert by_name["cy"].build and by_name["cy"].spec.command == "./bot"
    _, left = check_requires(arena.bots)
    assert [(x.bot, "students/hal" in x.reason) for x in left if x.bot == "hal"] == [("hal", True)]


def test_an_added_language_without_a_command_is_a_mistake_at_its_key(tmp_path):
    folder(tmp_path / "students", "ada", {"bot.zig": ""})
    text = CLASS.replace('path: "students/*"', 'path: "students/*"\n      languages: {zig: {file: bot.zig}}')
    with pytest.raises(ArenaFileError) as err:
        parse_arena(text, source=str(tmp_path / "a.yaml"))
    assert "bots[0].submissions.languages.zig.command: missing" in str(err.value)


def test_two_submissions_with_one_name_say_which_paths(tmp_path):
    (tmp_path / "students").mkdir()
    for file in ("ada.py", "ada.js"):
        (tmp_path / "students" / file).write_text("")
    text = CLASS.replace('path: "students/*"', 'path: "students/*"\n      command: "{python} {path}"')
    with pytest.raises(ArenaFileError) as err:
        parse_arena(text, source=str(tmp_path / "a.yaml"))
    assert "'students/ada.py' gives the name 'ada'" in str(err.value)


def test_the_shipped_classroom_validates_in_place_with_every_student():
    result = CliRunner().invoke(cli, ["validate", str(ROOT / "arenas" / "classroom.yaml")])
    assert result.exit_code == 0, result.output
    arena = load_arena(str(ROOT / "arenas" / "classroom.yaml"))
    students = sorted(p.name for p in (ROOT / "arenas" / "students").iterdir() if p.is_dir())
    assert sorted(e.spec.name for e in arena.bots if e.submission) == students
    languages = {e.language for e in arena.bots if e.submission}
    assert {"python", "javascript", "c", "java", "run"} <= languages
    assert "would be left out: hal (no bot found in 'students/hal'" in result.output


@pytest.mark.slow
def test_the_shipped_broken_submission_is_left_out_with_its_compiler_error(tmp_path):
    if shutil.which("cc") is None:
        pytest.skip("needs a C compiler (cc): .ci/run installs gcc")
    from referee.builds.steps import run_builds
    shutil.copytree(ROOT / "arenas" / "students" / "fred", tmp_path / "fred")
    arena = load_arena(str(ROOT / "arenas" / "classroom.yaml"))
    fred = next(e for e in arena.bots if e.spec.name == "fred")
    from dataclasses import replace
    fred = replace(fred, spec=replace(fred.spec, cwd=str(tmp_path / "fred")))
    kept, left = run_builds([fred], str(tmp_path / "logs"))
    assert kept == [] and left[0].reason.startswith("build failed") and "expected" in left[0].detail
