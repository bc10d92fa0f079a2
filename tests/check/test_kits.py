"""The starter kits of ``sample_bots/``: each folder is recognised by the submissions' language table, builds with
the table's command, and passes ``lastcard check`` (skipped with the reason when its toolchain is missing)."""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from referee.builds.languages import DEFAULT_LANGUAGES, Language, detect
from referee.check import CheckConfig, Status, run_check

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_bots"

#: Every kit folder and the language the table must find in it (the Python folder's other bots, beside its
#: bot.py, are checked by name in test_bots.py).
KITS = {
    "c": "c", "java": "java", "js": "javascript", "cpp": "cpp", "csharp": "csharp", "go": "go", "rust": "rust",
    "typescript": "typescript", "ruby": "ruby", "php": "php", "lua": "lua", "perl": "perl", "bash": "bash",
    "pascal": "pascal", "fortran": "fortran", "ada": "ada", "ocaml": "ocaml", "commonlisp": "commonlisp",
    "erlang": "erlang", "elixir": "elixir", "r": "r", "racket": "racket", "clojure": "clojure", "python": "python",
}
#: The kits whose check runs here (the first four are checked in test_bots.py with their own commands).
CHECKED = sorted(set(KITS) - {"c", "java", "js"})
#: Fuzz games per kit: the scripted suite covers every situation; a few games per ruleset find the rest.
GAMES = 6
#: The longest a kit's build may take (a compiler on a busy 2-core machine).
BUILD_TIMEOUT_S = 300


def language(name: str) -> Language:
    return next(lang for lang in DEFAULT_LANGUAGES if lang.name == name)


def test_every_kit_folder_is_listed() -> None:
    """A kit added to sample_bots/ without a line here would go untested."""
    folders = {p.name for p in SAMPLES.iterdir() if p.is_dir() and not p.name.startswith(".")}
    assert folders == set(KITS)


def test_the_table_holds_twenty_languages_and_each_file_once() -> None:
    files = [lang.file for lang in DEFAULT_LANGUAGES]
    assert len(files) == len(set(files))
    assert len(set(KITS.values())) >= 20


@pytest.mark.parametrize("folder", sorted(KITS))
def test_each_kit_is_recognised_by_its_files(folder: str) -> None:
    """The folder as handed out, and again after its build's output (a binary, build/, compiled/) is beside it."""
    found = detect(str(SAMPLES / folder), DEFAULT_LANGUAGES)
    assert (found.language, found.problem) == (KITS[folder], None)
    assert (SAMPLES / folder / "README.md").is_file()


@pytest.mark.parametrize("folder", sorted(KITS))
def test_a_kit_is_recognised_after_its_build_too(folder: str, tmp_path: Path) -> None:
    """A build leaves files beside the source (bot, bot.o, build/bot.js, compiled/): none of them matches another
    language first."""
    copy = tmp_path / folder
    shutil.copytree(SAMPLES / folder, copy)
    for leftover in ("bot", "bot.o", "bot.beam", "bot.cmx", "bot.ali", "bot.exe"):
        (copy / leftover).write_text("", encoding="utf-8")
    (copy / "build").mkdir()
    (copy / "build" / "bot.js").write_text("", encoding="utf-8")
    assert detect(str(copy), DEFAULT_LANGUAGES).language == KITS[folder]


def run_command(lang: Language) -> str:
    """The command that starts a kit, as an arena fills it in (``{python}``: this interpreter)."""
    return lang.command.replace("{python}", shlex.quote(sys.executable))


def toolchain(lang: Language) -> list[str]:
    """The programs a kit needs: its ``requires`` and its build's compiler."""
    build = shlex.split(lang.build)[:1] if lang.build else []
    return list(dict.fromkeys([*lang.requires, *build]))


@pytest.mark.slow
@pytest.mark.toolchain
@pytest.mark.parametrize("folder", CHECKED)
def test_each_kit_passes_lastcard_check(folder: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Built with the table's command in a copy of the folder, then checked as a student would, in the sandbox."""
    lang = language(KITS[folder])
    missing = [tool for tool in toolchain(lang) if shutil.which(tool) is None]
    if missing:
        pytest.skip(f"the {folder} kit: toolchain {', '.join(missing)} not installed (see .ci/run)")
    copy = tmp_path / folder
    shutil.copytree(SAMPLES / folder, copy)
    if lang.build:
        built = subprocess.run(lang.build, shell=True, cwd=copy, capture_output=True, text=True,
                               timeout=BUILD_TIMEOUT_S)
        assert built.returncode == 0, f"{lang.build!r} failed:\n{built.stdout}{built.stderr}"
    monkeypatch.chdir(copy)
    report = run_check(run_command(lang), CheckConfig(games=GAMES))
    assert report.failed_names == [] and report.count(Status.SKIPPED) == 0, report.failed_names


def test_docs_arena_lists_every_language_with_its_file() -> None:
    """docs/arena.md's table of languages names every row of the default table, with the file it is recognised by."""
    text = (ROOT / "docs" / "arena.md").read_text(encoding="utf-8")
    for lang in DEFAULT_LANGUAGES:
        assert f"| `{lang.name}` | " in text and f"`{lang.file}`" in text, lang.name
