"""Submission folders in any language: what a folder holds says how to build and start it.

A folder is matched against a table of languages (the defaults below, extended or overridden by the
arena file's ``submissions.languages``), after the student's own manifest (``lastcard.yaml``), which
wins when present. Detection is pure: it reads a folder's listing and returns data, so it tests
without building anything.
"""

from __future__ import annotations

import os
import shlex
from dataclasses import dataclass, replace
from typing import Any, Mapping

from referee.inputs.files import read_text
from referee.inputs.kinds import MANIFEST as MANIFEST_FILE
from referee.inputs.problems import InputFileError, format_path
from referee.inputs.reader import LineMap, load_yaml

#: The manifest a student may put in their folder to say how to build and run the bot.
MANIFEST = "lastcard.yaml"
#: The keys a manifest may hold.
MANIFEST_KEYS = ("run", "build", "requires", "language")

@dataclass(frozen=True)
class Language:
    """How to recognise, build and start one kind of submission (commands run in the submission's folder)."""

    name: str
    file: str
    command: str
    build: str | None = None
    requires: tuple[str, ...] = ()
    #: The file must be executable (a ``run`` script); otherwise being there is enough.
    executable: bool = False

    def expects(self) -> str:
        """The file this language is recognised by, in words."""
        return f"{self.file} (executable)" if self.executable else self.file


#: The default table, in the order a folder is tried (the first match wins; an executable ``run``
#: or a Makefile says the student chose how to start, so they come before a bare source file).
DEFAULT_LANGUAGES: tuple[Language, ...] = (
    Language("run", "run", "./run", executable=True),
    Language("make", "Makefile", "./bot", build="make", requires=("make",)),
    Language("c", "bot.c", "./bot", build="cc -O2 -std=c99 -o bot bot.c -lm", requires=("cc",)),
    Language("java", "Bot.java", "java -cp . Bot", build="javac Bot.java", requires=("javac", "java")),
    # TypeScript compiles to build/bot.js, so the folder never holds a bot.js of its own.
    Language("typescript", "bot.ts", "node build/bot.js",
             build="tsc --strict --skipLibCheck --target es2020 --outDir build bot.ts", requires=("tsc", "node")),
    Language("javascript", "bot.js", "node bot.js", requires=("node",)),
    Language("python", "bot.py", "{python} bot.py"),
    Language("shell", "bot.sh", "sh bot.sh", requires=("sh",)),
    # The starter kits of sample_bots/ (one file name each, so no folder matches two of them).
    Language("cpp", "bot.cpp", "./bot", build="c++ -O2 -std=c++17 -o bot bot.cpp", requires=("c++",)),
    Language("csharp", "bot.cs", "mono bot.exe", build="mcs -optimize -r:System.Json -out:bot.exe bot.cs",
             requires=("mcs", "mono")),
    Language("go", "bot.go", "./bot", build="go build -o bot bot.go", requires=("go",)),
    Language("rust", "bot.rs", "./bot", build="rustc -O -o bot bot.rs", requires=("rustc",)),
    Language("ruby", "bot.rb", "ruby bot.rb", requires=("ruby",)),
    Language("php", "bot.php", "php bot.php", requires=("php",)),
    Language("lua", "bot.lua", "lua bot.lua", requires=("lua",)),
    Language("perl", "bot.pl", "perl bot.pl", requires=("perl",)),
    Language("bash", "bot.bash", "bash bot.bash", requires=("bash", "jq")),
    Language("pascal", "bot.pas", "./bot", build="fpc -O2 -v0 bot.pas", requires=("fpc",)),
    Language("fortran", "bot.f90", "./bot", build="gfortran -O2 -o bot bot.f90", requires=("gfortran",)),
    Language("ada", "bot.adb", "./bot", build="gnatmake -q -O2 bot.adb", requires=("gnatmake",)),
    Language("ocaml", "bot.ml", "./bot", build="ocamlopt -o bot bot.ml", requires=("ocamlopt",)),
    Language("commonlisp", "bot.lisp", "sbcl --dynamic-space-size 512MB --script bot.lisp", requires=("sbcl",)),
    Language("erlang", "bot.erl", "erl -noshell -pa . -s bot main", build="erlc bot.erl", requires=("erlc", "erl")),
    Language("elixir", "bot.exs", "elixir bot.exs", requires=("elixir",)),
    Language("r", "bot.R", "Rscript bot.R", requires=("Rscript",)),
    Language("clojure", "bot.clj", "java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -cp "
             "/usr/share/java/clojure.jar:/usr/share/java/data.json.jar clojure.main bot.clj", requires=("java",)),
    Language("racket", "bot.rkt", "racket bot.rkt", build="raco make bot.rkt", requires=("raco", "racket")),
)

#: The keys of one ``submissions.languages`` item.
LANGUAGE_KEYS = ("file", "command", "build", "requires", "executable")


def language_table(overrides: Mapping[str, Mapping[str, Any]] | None) -> tuple[Language, ...]:
    """The defaults with the arena file's ``languages`` applied: a known name is changed in place
    (only the keys given), a new name is tried first, in file order (the schema has checked the keys)."""
    table = {lang.name: lang for lang in DEFAULT_LANGUAGES}
    added: list[Language] = []
    for name, item in (overrides or {}).items():
        fields: dict[str, Any] = {k: v for k, v in item.items() if k in LANGUAGE_KEYS}
        if "requires" in fields:
            req = fields["requires"]
            fields["requires"] = (req,) if isinstance(req, str) else tuple(req)
        if name in table:
            if "build" in item and item["build"] is None:
                fields["build"] = None
            table[name] = replace(table[name], **fields)
        else:
            added.append(Language(name=name, file=fields.get("file", name), command=fields.get("command", ""),
                                  build=fields.get("build"), requires=fields.get("requires", ()),
                                  executable=bool(fields.get("executable", False))))
    return tuple(added) + tuple(table.values())


@dataclass(frozen=True)
class Detected:
    """What a submission folder holds: the language found (with its commands), or why none was.

    ``problem`` is set when the folder cannot play (no bot found, a broken manifest); the arena then
    leaves the student out with that reason instead of stopping the contest.
    """

    language: str | None
    command: str | None = None
    build: str | None = None
    requires: tuple[str, ...] = ()
    problem: str | None = None
    #: The manifest read, when there is one (its path).
    manifest: str | None = None


def detect(folder: str, table: tuple[Language, ...], shown: str | None = None) -> Detected:
    """The language of the submission in ``folder`` (``shown``: the folder as messages name it)."""
    shown = shown or folder
    manifest = os.path.join(folder, MANIFEST)
    if os.path.isfile(manifest):
        return read_manifest(manifest, table, shown=os.path.join(shown, MANIFEST))
    try:
        names = set(os.listdir(folder))
    except OSError as exc:
        return Detected(None, problem=f"cannot read the folder {shown!r}: {exc.strerror or exc}")
    for lang in table:
        if lang.file in names and _usable(os.path.join(folder, lang.file), lang):
            return Detected(lang.name, lang.command, lang.build, lang.requires)
    expected = ", ".join([MANIFEST] + [lang.expects() for lang in table])
    hint = ""
    for lang in table:
        if lang.executable and lang.file in names:
            hint = f"; {lang.file!r} is there but not executable (chmod +x {lang.file})"
    return Detected(None, problem=f"no bot found in {shown!r}: expected one of {expected}{hint}")


def detect_file(path: str, table: tuple[Language, ...]) -> Detected:
    """The language of a single-file submission, by its extension (``ada.py`` as ``bot.py`` would be)."""
    ext = os.path.splitext(path)[1]
    base = os.path.basename(path)
    for lang in table:
        lang_ext = os.path.splitext(lang.file)[1]
        if lang_ext and lang_ext == ext and lang.build is None:
            return Detected(lang.name, lang.command.replace(lang.file, shlex.quote(base)), None, lang.requires)
    expected = ", ".join(sorted({os.path.splitext(lang.file)[1] for lang in table
                                 if os.path.splitext(lang.file)[1] and lang.build is None}))
    return Detected(None, problem=f"{path!r} is not a bot this arena knows how to run: expected a file ending in "
                                  f"{expected}, or a folder")


def read_manifest(path: str, table: tuple[Language, ...], shown: str | None = None) -> Detected:
    """A student's ``lastcard.yaml``: ``run`` (the command), optional ``build``, ``requires``, ``language``.

    Every mistake is reported with the file, key and line, as the arena file's are.
    """
    shown = shown or path
    try:
        text = read_text(path, MANIFEST_FILE)
    except InputFileError as exc:
        return Detected(None, problem=f"{shown}: {exc.problem.located()}", manifest=path)
    lines = LineMap()
    data, early = load_yaml(text, lines, MANIFEST_FILE)
    if early:
        return Detected(None, problem=f"{shown}: " + "; ".join(str(p) for p in early), manifest=path)
    problems = manifest_problems(data, lines, table)
    if problems:
        return Detected(None, problem=f"{shown}: " + "; ".join(problems), manifest=path)
    assert isinstance(data, dict)
    base = next((lang for lang in table if lang.name == data.get("language")), None)
    command = data.get("run") or (base.command if base else None)
    build = data.get("build", base.build if base else None)
    requires = data.get("requires", base.requires if base else ())
    requires = (requires,) if isinstance(requires, str) else tuple(requires)
    return Detected(data.get("language") or "manifest", command, build, requires, manifest=path)


def manifest_problems(data: Any, lines: LineMap, table: tuple[Language, ...]) -> list[str]:
    """What is wrong with a parsed manifest, each with its key and line."""
    def at(key: str, message: str) -> str:
        line = lines.line((key,))
        return f"{format_path((key,))}: {message}" + (f" (line {line})" if line else "")

    example = "run: \"python3 bot.py\""
    if not isinstance(data, dict):
        return [f"expected keys ({', '.join(MANIFEST_KEYS)}), e.g. {example}"]
    out = []
    for key in data:
        if key not in MANIFEST_KEYS:
            out.append(at(str(key), f"unknown key {str(key)!r}; allowed: {', '.join(MANIFEST_KEYS)}"))
    names = [lang.name for lang in table]
    if "language" in data and data["language"] not in names:
        out.append(at("language", f"{data['language']!r} is not a language this arena knows; "
                                  f"known: {', '.join(names)}"))
    if "run" not in data and "language" not in data:
        out.append(f"run: missing: give the command that starts the bot, e.g. {example}")
    for key in ("run", "build"):
        value = data.get(key)
        if key in data and not (isinstance(value, str) and value.strip()) and not (key == "build" and value is None):
            out.append(at(key, f"found {value!r}; expected a command line (a string)"))
    req = data.get("requires")
    if "requires" in data and not (isinstance(req, str)
                                   or (isinstance(req, list) and all(isinstance(r, str) for r in req))):
        out.append(at("requires", f"found {req!r}; expected a program name or a list of them"))
    return out


def _usable(path: str, lang: Language) -> bool:
    return os.path.isfile(path) and (not lang.executable or os.access(path, os.X_OK))
