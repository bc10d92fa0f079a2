"""The programs' text beside their play: token fingerprints by winnowing (Schleimer, Wilkerson and Aiken, SIGMOD
2003, the algorithm of MOSS; Dolos fingerprints tokens the same way), and the fragments two programs share.

Each source file is cut into tokens by Pygments' lexer for its language (one library for the twenty-four kits'
languages, kept up to date by its project; a hand-written tokenizer per language would not be). Names, numbers and
strings become their class (``V``, ``N``, ``S``), comments and blanks are dropped, keywords and operators stay as
written: renaming variables or rewording comments changes nothing, and programs in languages of one family (C,
Java, JavaScript...) share the tokens their syntax shares (a declaration's type or keyword, ``int``, ``let``,
``var``, is one token ``D``). Every ``K`` consecutive tokens are hashed; in every
window of ``W`` consecutive hashes the smallest is kept (the rightmost on a tie), so any shared run of at least
``W + K - 1`` tokens is found, and runs shorter than ``K`` never are (the guarantee of the paper).

Starter code is not evidence: every fingerprint of the starter kits (``sample_bots/``, the bot kit) is dropped
from every program first, as MOSS drops a base file's (its ``-b``). The similarity of two programs is Dolos's:
the fingerprints they share, twice, over the fingerprints of both.
"""

from __future__ import annotations

import os
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

from pygments.lexer import Lexer
from pygments.lexers import get_lexer_for_filename
from pygments.token import Comment, Keyword, Name, Number, Operator, Punctuation, String, Text, Token, Whitespace
from pygments.util import ClassNotFound

#: Tokens a fingerprint covers (Dolos's default k is 23 for programs of hundreds of lines; bots are smaller).
K = 12
#: Hashes a window holds: a shared run of W + K - 1 tokens is always found.
W = 8
#: The most bytes of source read from one bot (a folder holding data files is not read whole).
MAX_BYTES = 400_000
#: Extensions never read as source (build output, data).
SKIPPED = frozenset({".o", ".class", ".pyc", ".so", ".exe", ".jar", ".npz", ".json", ".md", ".txt", ".log", ".csv",
                     ".yaml", ".yml", ".lock", ".beam", ".hi", ".cmi", ".cmx", ".ppu"})


@dataclass(frozen=True)
class Tok:
    """A token as compared, and where it is: its file and line."""

    text: str
    file: str
    line: int


@dataclass(frozen=True)
class Program:
    """A bot's source: its files' lines by name, its tokens, and its fingerprints (hash -> first token index)."""

    name: str
    lines: dict[str, list[str]]
    tokens: tuple[Tok, ...]
    prints: dict[int, int]


def _lexer(path: str, text: str) -> Lexer | None:
    try:
        return get_lexer_for_filename(path, text)
    except ClassNotFound:
        return None


def _compared(kind: object, value: str, last: str | None) -> list[str]:
    """What one lexer token becomes: nothing (a comment, a blank), its kind (a name, number, string or declaration),
    or its text (a keyword; an operator or punctuation character by character). ``last``: the token before it on
    the same line (a string lexed in pieces is one token)."""
    if kind in Comment or kind in Whitespace or (kind in Text and not value.strip()):
        return []
    if kind in Name and kind not in Name.Builtin:
        return ["V"]
    if kind in Keyword.Type or kind in Keyword.Declaration:  # int, let, var, auto: a declaration, in any language
        return ["D"]
    if kind in Number:  # "-1" is one number to one lexer, a minus and a number to another
        return [*value[:len(value) - len(value.lstrip("+-"))], "N"]
    if kind in String:
        return [] if last == "S" else ["S"]
    if kind in Operator or kind in Punctuation:  # "==" is one token to one lexer, two to another
        return [c for c in value if not c.isspace()]
    if kind is Token.Error and not value.strip():
        return []
    return [value.strip() or value]


def tokens_of(path: str, text: str, label: str | None = None) -> list[Tok]:
    """The file's tokens as compared (none for a file no lexer knows)."""
    lexer = _lexer(path, text)
    if lexer is None:
        return []
    out: list[Tok] = []
    line = 1
    where = label or path
    for kind, value in lexer.get_tokens(text):
        last = out[-1].text if out and out[-1].line == line else None
        out += [Tok(t, where, line) for t in _compared(kind, value, last)]
        line += value.count("\n")
    return out


def _hash(tokens: Sequence[Tok], at: int) -> int:
    return zlib.crc32("\x1f".join(t.text for t in tokens[at:at + K]).encode())


def winnow(tokens: Sequence[Tok]) -> dict[int, int]:
    """The fingerprints kept: each window's smallest k-gram hash (rightmost on a tie), with its first token."""
    hashes = [_hash(tokens, i) for i in range(len(tokens) - K + 1)]
    if not hashes:
        return {}
    kept: dict[int, int] = {}
    for start in range(max(1, len(hashes) - W + 1)):
        window = hashes[start:start + W]
        low = min(window)
        at = start + max(i for i, h in enumerate(window) if h == low)
        kept.setdefault(hashes[at], at)
    return kept


def named_files(cwd: str | None, command: str) -> list[str]:
    """The files a bot's command names (``python3 bot.py``, ``./bot``), found from its working directory; the
    program that runs a named file (an interpreter given by its path) is not one of them."""
    out = []
    parts = command.split()
    for k, part in enumerate(parts):
        path = os.path.join(cwd, part) if cwd and not os.path.isabs(part) else part
        if os.path.isfile(path):
            out.append((k, os.path.normpath(path)))
    if len(out) > 1 and out[0][0] == 0:
        out = out[1:]
    return [path for _, path in out]


def source_files(cwd: str | None, command: str, shared: frozenset[str] = frozenset()) -> list[str]:
    """A bot's source files: the files its command names, and the other source files of their folder (a
    submission's folder: its helpers, a compiled bot's source) unless the folder is in ``shared`` (several bots'
    files side by side, or the contest's own folder)."""
    named = named_files(cwd, command)
    found = list(named)
    for folder in sorted({os.path.dirname(f) for f in named} - shared):
        for entry in sorted(os.listdir(folder)):
            path = os.path.join(folder, entry)
            if (os.path.isfile(path) and path not in found and not entry.startswith(".")
                    and Path(entry).suffix.lower() not in SKIPPED):
                found.append(path)
    return [f for f in found if Path(f).suffix.lower() not in SKIPPED]


def program(name: str, files: Iterable[str], base: frozenset[int] = frozenset()) -> Program:
    """A bot's program read from ``files`` (up to ``MAX_BYTES``), its starter code's fingerprints (``base``) left
    out."""
    lines: dict[str, list[str]] = {}
    tokens: list[Tok] = []
    prints: dict[int, int] = {}
    budget = MAX_BYTES
    for path in files:
        try:
            with open(path, "rb") as fh:
                data = fh.read(budget + 1)
        except OSError:
            continue
        if b"\0" in data[:4096] or budget <= 0:
            continue
        budget -= len(data)
        text = data.decode("utf-8", "replace")
        label = os.path.basename(path)
        found = tokens_of(path, text, label)
        if found:  # each file winnowed alone: no fingerprint spans two files (two kits' files side by side)
            lines[label] = text.splitlines()
            for h, i in winnow(found).items():
                if h not in base:
                    prints.setdefault(h, len(tokens) + i)
            tokens += found
    return Program(name, lines, tuple(tokens), prints)


def base_prints(paths: Iterable[str]) -> frozenset[int]:
    """Every fingerprint of the starter code (the kits' files), to leave out of the programs'."""
    out: set[int] = set()
    for path in paths:
        try:
            text = Path(path).read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        out |= set(winnow(tokens_of(path, text)))
    return frozenset(out)


@dataclass(frozen=True)
class Fragment:
    """A run of matched code: the lines of each program (file, first line, last line), 1-based."""

    a_file: str
    a_first: int
    a_last: int
    b_file: str
    b_first: int
    b_last: int


@dataclass(frozen=True)
class TextMatch:
    """Two programs' shared fingerprints, their similarity (0 to 1) and the fragments they share."""

    a: str
    b: str
    shared: int
    similarity: float
    fragments: tuple[Fragment, ...]


def match(a: Program, b: Program) -> TextMatch:
    """The pair's text evidence: Dolos's similarity, and the shared fingerprints grouped into fragments (runs of
    tokens that overlap or touch, in both programs)."""
    common = sorted(set(a.prints) & set(b.prints), key=lambda h: a.prints[h])
    total = len(a.prints) + len(b.prints)
    sim = 2 * len(common) / total if total else 0.0
    spans: list[list[int]] = []  # [a_start, a_end, b_start, b_end] in token indices, ends exclusive
    for h in common:
        i, j = a.prints[h], b.prints[h]
        last = spans[-1] if spans else None
        if last is not None and i <= last[1] and j <= last[3] + K and j >= last[2]:
            last[1], last[3] = max(last[1], i + K), max(last[3], j + K)
        else:
            spans.append([i, i + K, j, j + K])
    frags = tuple(Fragment(a.tokens[s[0]].file, a.tokens[s[0]].line, a.tokens[s[1] - 1].line,
                           b.tokens[s[2]].file, b.tokens[s[2]].line, b.tokens[s[3] - 1].line) for s in spans)
    return TextMatch(a.name, b.name, len(common), sim, frags)
