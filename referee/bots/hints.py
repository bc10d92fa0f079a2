"""Fixes for the classic stdout mistakes, in the words of the bot's own language.

A bot's language is known for a submission folder (``referee/builds/languages.py`` detected it) and
otherwise guessed from its command: the interpreter (``python3``, ``node``, ``java``...), the
script's extension, or a ``#!`` line. Unknown (a compiled ``./bot``), a hint names every language.
"""

from __future__ import annotations

import os
import shlex

#: The languages a class uses, in the order an unknown bot's hints list them.
LANGUAGES = ("python", "c", "cpp", "java", "javascript", "perl", "ruby", "go", "rust", "csharp", "shell",
             "powershell")
_LABEL = {"python": "Python", "c": "C", "cpp": "C++", "java": "Java", "javascript": "JavaScript", "perl": "Perl",
          "ruby": "Ruby", "go": "Go", "rust": "Rust", "csharp": "C#", "shell": "shell", "powershell": "PowerShell"}

#: How to make each line reach the referee at once.
FLUSH = {
    "python": "print(line, flush=True)",
    "c": "fflush(stdout) after each printf (or setvbuf(stdout, NULL, _IOLBF, 0) once)",
    "cpp": "std::cout << line << std::endl (endl flushes; '\\n' does not)",
    "java": "System.out.flush() after each println",
    "javascript": "process.stdout.write(line + \"\\n\") or console.log(line), "
                  "and no process.exit() before it is written",
    "perl": "$| = 1; at the top",
    "ruby": "$stdout.sync = true at the top",
    "go": "w.Flush() after each line when writing through a bufio.Writer (fmt.Println to os.Stdout needs none)",
    "rust": "std::io::stdout().flush() after each line (use std::io::Write), or println! without a BufWriter",
    "csharp": "Console.Out.Flush() after each Console.WriteLine",
    "shell": "echo/printf write at once; a filter in a pipe buffers: stdbuf -oL CMD (jq: --unbuffered)",
    "powershell": "[Console]::Out.Flush() after each [Console]::Out.WriteLine(line)",
}
#: Where debug output belongs (stdout is the referee's).
STDERR = {
    "python": "print(..., file=sys.stderr)",
    "c": "fprintf(stderr, ...)",
    "cpp": "std::cerr << ...",
    "java": "System.err.println(...)",
    "javascript": "console.error(...)",
    "perl": "print STDERR ... (or warn)",
    "ruby": "$stderr.puts ... (or warn)",
    "go": "fmt.Fprintln(os.Stderr, ...)",
    "rust": "eprintln!(...)",
    "csharp": "Console.Error.WriteLine(...)",
    "shell": "echo ... >&2",
    "powershell": "[Console]::Error.WriteLine(...)",
}
#: How to write a message on one line (no pretty-printing).
ONE_LINE = {
    "python": "json.dumps(msg) without indent=",
    "c": "no '\\n' inside the message (cJSON_PrintUnformatted, not cJSON_Print)",
    "cpp": "j.dump() without an indent argument (nlohmann::json)",
    "java": "Gson without setPrettyPrinting() / Jackson without writerWithDefaultPrettyPrinter()",
    "javascript": "JSON.stringify(msg) without its third (space) argument",
    "perl": "encode_json($msg) (no ->pretty)",
    "ruby": "JSON.generate(msg) or msg.to_json (not JSON.pretty_generate)",
    "go": "json.Marshal (not json.MarshalIndent)",
    "rust": "serde_json::to_string (not to_string_pretty)",
    "csharp": "JsonSerializer.Serialize(msg) without WriteIndented = true (Newtonsoft: Formatting.None)",
    "shell": "jq -c (compact output)",
    "powershell": "ConvertTo-Json -Compress",
}
#: How to end each message with a newline.
NEWLINE = {
    "python": "print(json.dumps(msg), flush=True) once per message",
    "c": "printf(\"%s\\n\", text); fflush(stdout);",
    "cpp": "std::cout << text << std::endl;",
    "java": "System.out.println(text) (not print), then System.out.flush()",
    "javascript": "console.log(text) once per message",
    "perl": "print \"$text\\n\"; with $| = 1",
    "ruby": "puts text (not print)",
    "go": "fmt.Println(text) (not Print)",
    "rust": "println!(\"{}\", text) (not print!)",
    "csharp": "Console.WriteLine(text) (not Write)",
    "shell": "echo \"$text\" (printf needs its \\n)",
    "powershell": "[Console]::Out.WriteLine(text)",
}
#: How to write UTF-8 without a byte order mark (the languages that add one by default first).
NO_BOM = {
    "csharp": "Console.OutputEncoding = new UTF8Encoding(false); (or new StreamWriter(Console.OpenStandardOutput(), "
              "new UTF8Encoding(false)))",
    "powershell": "[Console]::OutputEncoding = [System.Text.UTF8Encoding]::new($false)",
    "java": "new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8), and no "
            "\"\\uFEFF\" written",
    "python": "encoding=\"utf-8\", not \"utf-8-sig\"",
}
_BOM_DEFAULT = ("csharp", "powershell", "java")

_INTERPRETERS = {
    "python": "python", "python3": "python", "pypy": "python", "pypy3": "python", "node": "javascript",
    "nodejs": "javascript", "deno": "javascript", "bun": "javascript", "java": "java", "perl": "perl",
    "ruby": "ruby", "go": "go", "cargo": "rust", "dotnet": "csharp", "mono": "csharp", "sh": "shell",
    "bash": "shell", "dash": "shell", "zsh": "shell", "pwsh": "powershell", "powershell": "powershell",
}
_EXTENSIONS = {
    ".py": "python", ".c": "c", ".cpp": "cpp", ".cc": "cpp", ".cxx": "cpp", ".java": "java", ".jar": "java",
    ".js": "javascript", ".mjs": "javascript", ".cjs": "javascript", ".ts": "javascript", ".pl": "perl",
    ".rb": "ruby", ".go": "go", ".rs": "rust", ".cs": "csharp", ".csproj": "csharp", ".dll": "csharp",
    ".sh": "shell", ".ps1": "powershell",
}
#: Submission languages (referee/builds/languages.py) that name a language of their own.
_SUBMISSION = {"python": "python", "c": "c", "java": "java", "javascript": "javascript", "shell": "shell"}


def language_of(command: str, cwd: str | None = None, detected: str | None = None) -> str | None:
    """The bot's language: the submission's ``detected`` one, else guessed from ``command``; ``None`` if unknown."""
    if detected:
        known = _SUBMISSION.get(detected) or (detected if detected in _LABEL else None)
        if known:
            return known
    try:
        argv = shlex.split(command)
    except ValueError:
        argv = command.split()
    if not argv:
        return None
    head = os.path.basename(argv[0])
    if head == "env" and len(argv) > 1:
        argv = argv[1:]
        head = os.path.basename(argv[0])
    stem = head.rstrip("0123456789.") if head.startswith(("python", "pypy")) else head
    if stem in _INTERPRETERS:
        return _INTERPRETERS[stem]
    for arg in argv:
        ext = os.path.splitext(arg)[1].lower()
        if ext in _EXTENSIONS:
            return _EXTENSIONS[ext]
    return _shebang(os.path.join(cwd or ".", argv[0]))


def _shebang(path: str) -> str | None:
    """The language a ``#!`` line names (``#!/usr/bin/env python3``), when the command is a script."""
    try:
        with open(path, "rb") as fh:
            first = fh.read(128).split(b"\n", 1)[0]
    except OSError:
        return None
    if not first.startswith(b"#!"):
        return None
    words = first[2:].decode("utf-8", "replace").split()
    if not words:
        return None
    name = os.path.basename(words[1] if os.path.basename(words[0]) == "env" and len(words) > 1 else words[0])
    name = name.rstrip("0123456789.") if name.startswith(("python", "pypy")) else name
    return _INTERPRETERS.get(name)


def hint(table: dict[str, str], language: str | None, only: tuple[str, ...] | None = None) -> str:
    """The entry of ``table`` for ``language`` ("Python: ..."), or, unknown, every entry (of ``only``)."""
    if language in table:
        return f"{_LABEL[language]}: {table[language]}"
    names = only or tuple(lang for lang in LANGUAGES if lang in table)
    return "; ".join(f"{_LABEL[lang]}: {table[lang]}" for lang in names)


def flush_hint(language: str | None) -> str:
    """``flush stdout after every line`` in the bot's language."""
    return "flush stdout after every line (" + hint(FLUSH, language) + ")"


def stderr_hint(language: str | None) -> str:
    """Where debug output goes instead, in the bot's language."""
    return ("write debug output to stderr (" + hint(STDERR, language) + ") or send "
            '{"type":"log","text":"..."}')


def one_line_hint(language: str | None) -> str:
    return "write each message on one line (" + hint(ONE_LINE, language) + ")"


def newline_hint(language: str | None) -> str:
    return "end each message with a newline and flush (" + hint(NEWLINE, language) + ")"


def bom_hint(language: str | None) -> str:
    return ("write UTF-8 without a byte order mark (" + hint(NO_BOM, language, _BOM_DEFAULT) + ")")
