"""A results folder's layout: the one module that names the files a run writes, and reads them back.

What ``lastcard arena``, ``match --out``, ``compare --out``, ``ladder`` and ``replay --play`` write::

    OUT/
      arena.json          what decides the games (bots, stages, seed) and its fingerprint, for --resume
      games.jsonl         one line a game, appended as each ends (GameLine: result, slot, compact actions)
      results.json        standings, ratings, stages, head-to-head (written as the run ends; "complete")
      standings.md  standings.csv  head_to_head.csv  timing.json
      grades.csv          points for the gradebook, one row per student (an arena file with `grading:`)
      similarity.csv  similarity_bots.csv   bots compared by what they do (`lastcard similar`, `similarity:`)
      records.jsonl.gz    full records kept (--records, or a game with a fault), gzip members
      records.idx         a line a kept game: where its member is (or ``rebuild:POLICY``)
      records/GAME.jsonl  a record as results of earlier versions kept it (read, never written)
      logs/               BOT.stderr.log (all its games), BOT.build.log
      bots/               a report per bot (BOT.md) and index.md
      report.html         the page (report_files/ beside it past its inline games)

Every reader and writer asks a ``ResultsDir`` for these paths, so a name changes here or nowhere.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import ClassVar, cast

from referee.bots.names import build_log, stderr_log
from referee.engine.jsondata import JsonObject
from referee.engine.notation import InvalidReplayError
from referee.engine.rules import RuleOptions
from referee.store.results import LineDefaults


@dataclass(frozen=True, slots=True)
class ResultsDir:
    """The results folder at ``path``: where each of its files is, and the readers of its plain files."""

    path: str

    GAMES: ClassVar[str] = "games.jsonl"
    RESULTS: ClassVar[str] = "results.json"
    RUN: ClassVar[str] = "arena.json"
    RECORDS: ClassVar[str] = "records.jsonl.gz"
    RECORDS_INDEX: ClassVar[str] = "records.idx"
    LEGACY_RECORDS: ClassVar[str] = "records"
    LOGS: ClassVar[str] = "logs"
    BOT_REPORTS: ClassVar[str] = "bots"
    REPORT: ClassVar[str] = "report.html"
    TIMING: ClassVar[str] = "timing.json"
    STANDINGS_MD: ClassVar[str] = "standings.md"
    STANDINGS_CSV: ClassVar[str] = "standings.csv"
    HEAD_TO_HEAD_CSV: ClassVar[str] = "head_to_head.csv"
    GRADES: ClassVar[str] = "grades.csv"
    SIMILARITY: ClassVar[str] = "similarity.csv"
    SIMILARITY_BOTS: ClassVar[str] = "similarity_bots.csv"
    #: What a fresh start removes: a run's own files and folders (report.html and bots/ are rewritten anyway).
    RUN_FILES: ClassVar[tuple[str, ...]] = (GAMES, RECORDS, RECORDS_INDEX, RESULTS, STANDINGS_CSV, STANDINGS_MD,
                                            HEAD_TO_HEAD_CSV, TIMING, GRADES, SIMILARITY, SIMILARITY_BOTS)
    RUN_FOLDERS: ClassVar[tuple[str, ...]] = (LEGACY_RECORDS, LOGS)

    # ---------------------------------------------------------------------------------------------- paths
    def file(self, name: str) -> str:
        """``name`` inside the folder."""
        return os.path.join(self.path, name)

    @property
    def games(self) -> str:
        return self.file(self.GAMES)

    @property
    def results(self) -> str:
        return self.file(self.RESULTS)

    @property
    def run(self) -> str:
        """``arena.json``: what decides the games, for ``--resume`` and for replays that start the bots again."""
        return self.file(self.RUN)

    @property
    def records(self) -> str:
        return self.file(self.RECORDS)

    @property
    def records_index(self) -> str:
        return self.file(self.RECORDS_INDEX)

    @property
    def logs(self) -> str:
        return self.file(self.LOGS)

    @property
    def bot_reports(self) -> str:
        return self.file(self.BOT_REPORTS)

    @property
    def report(self) -> str:
        return self.file(self.REPORT)

    @property
    def timing(self) -> str:
        return self.file(self.TIMING)

    def legacy_record(self, game_id: str) -> str:
        """``records/GAME.jsonl``: a game's record as results of earlier versions kept it."""
        return os.path.join(self.path, self.LEGACY_RECORDS, f"{game_id}.jsonl")

    def stderr_log(self, bot: str) -> str:
        """``bot``'s stderr log (all its games), named as ``BotPool`` names it."""
        return stderr_log(self.logs, bot)

    def build_log(self, bot: str) -> str:
        return build_log(self.logs, bot)

    @classmethod
    def of_record(cls, record_path: str) -> ResultsDir | None:
        """The folder a legacy ``records/GAME.jsonl`` sits in, when it is one (it has ``logs/``)."""
        parent = os.path.dirname(os.path.dirname(os.path.abspath(record_path)))
        return cls(parent) if os.path.isdir(os.path.join(parent, cls.LOGS)) else None

    # -------------------------------------------------------------------------------------------- readers
    def has_games(self) -> bool:
        return os.path.exists(self.games)

    def read_results(self) -> JsonObject:
        """``results.json`` (``{}`` while an arena is still running)."""
        if not os.path.exists(self.results):
            return {}
        with open(self.results, encoding="utf-8") as fh:
            return json.load(fh)  # type: ignore[no-any-return]

    def read_run(self) -> JsonObject | None:
        """``arena.json``, or None when it is missing or unreadable (results of a bare match or of old versions)."""
        try:
            with open(self.run, encoding="utf-8") as fh:
                doc = json.load(fh)
        except (OSError, ValueError):
            return None
        return doc if isinstance(doc, dict) else None

    def line_defaults(self) -> dict[str, LineDefaults]:
        """Stage name -> the ruleset and options its games were played with (``""``: a match's own), from
        ``results.json``: what ``complete_line`` fills into a line of an older games.jsonl that lacks them."""
        results = self.read_results()
        out: dict[str, LineDefaults] = {}
        if "ruleset" in results:
            out[""] = {"ruleset": results["ruleset"], "options": cast(RuleOptions, results.get("options") or {})}
        for stage in results.get("stages") or []:
            out[stage.get("name", "")] = {"ruleset": stage.get("ruleset"),
                                          "options": cast(RuleOptions, stage.get("options") or {})}
        return out

    def missing_games(self) -> InvalidReplayError:
        """The error for a folder without games.jsonl, where one game was asked for."""
        return InvalidReplayError(f"{self.path} has no {self.GAMES}: is it the output directory of an arena or "
                                  "`lastcard match --out`?")

    def game_lines(self) -> Iterator[tuple[int, JsonObject]]:
        """games.jsonl's (line number, line) pairs as written (no defaults filled), blank lines skipped."""
        return read_jsonl(self.games)

    def find_game(self, game_id: str) -> tuple[int, JsonObject] | None:
        """``game_id``'s line of games.jsonl and its number (as written: no defaults filled), or None.

        The one scanner of games.jsonl for one game. Only the lines holding the id's text are parsed (the last
        of 3,000 games took 75 ms parsing every line before it); an id written escaped, or a last line not
        yet ended, is found by the full scan after, which also names a line that is not JSON.
        """
        needle = game_id.encode()
        with open(self.games, "rb") as fh:
            for number, raw in enumerate(fh, 1):
                if needle in raw and raw.endswith(b"\n"):
                    try:
                        line = json.loads(raw)
                    except ValueError:
                        break  # not JSON: the scan below says where
                    if line.get("game") == game_id:
                        return number, line
        for number, line in self.game_lines():
            if line.get("game") == game_id:
                return number, line
        return None


def read_jsonl(path: str) -> Iterator[tuple[int, JsonObject]]:
    """The (line number, object) pairs of a JSON-lines file, skipping blank lines."""
    with open(path, encoding="utf-8") as fh:
        for number, line in enumerate(fh, 1):
            if line.strip():
                try:
                    yield number, json.loads(line)
                except json.JSONDecodeError as exc:
                    raise InvalidReplayError(f"{path} line {number} is not JSON ({exc.msg}): is it a game file?") \
                        from None
