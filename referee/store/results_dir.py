"""A results folder's layout: the one module that names the files a run writes, and reads them back.

What ``lastcard arena``, ``match --out``, ``compare --out``, ``ladder`` and ``replay --play`` write::

    OUT/
      arena.json          what decides the games (bots, stages, seed) and its fingerprint, for --resume
      games.jsonl         one line a game, appended as each ends (GameLine: result, slot, compact actions)
      results.json        standings, ratings, stages, head-to-head (written as the run ends; "complete")
      standings.md  standings.csv  standings.txt  head_to_head.csv  timing.json
      grades.csv          points for the gradebook, one row per student (an arena file with `grading:`)
      grades.json         the same points, each with why (for the students' pages)
      benchmarks/         the benchmark tests of `grading: by: benchmarks` beside a contest: a results folder
                          of its own (without a contest, OUT itself is that folder)
      grades-canvas.csv  grades-moodle.csv   the same in the shape the roster's platform imports (`roster:`)
      similarity.csv  similarity_bots.csv   bots compared by what they do (`lastcard similar`, `similarity:`)
      text_matches.json   the programs' shared token fingerprints and fragments (`lastcard similar`)
      collusion.csv       which bot gains when which other sits at its table (`lastcard collusion`, `collusion:`)
      trajectory.csv  tuned.txt   a tune's iterations and its tuned values (`lastcard tune`)
      history.csv  history.md     a ladder's runs (`lastcard ladder run`)
      records.jsonl.gz    full records kept (--records, or a game with a fault), gzip members
      records.idx         a line a kept game: where its member is (or ``rebuild:POLICY``)
      records/GAME.jsonl  a record as results of earlier versions kept it (read, never written)
      notes.jsonl.gz      every game's debug notes (each bot's stderr and log messages by turn), gzip members
      notes.idx           a line a game with notes: where its member is (as records.idx)
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

from referee.bots.logs import build_log, stderr_log
from referee.engine.jsondata import JsonObject
from referee.engine.notation import InvalidReplayError
from referee.engine.rules import RuleOptions
from referee.store.disk import atomic_write
from referee.store.games_log import GamesLog
from referee.store.results import LineDefaults
from referee.store.results_shapes import GradesJson, ResultsJson, TimingJson


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
    NOTES: ClassVar[str] = "notes.jsonl.gz"
    NOTES_INDEX: ClassVar[str] = "notes.idx"
    LOGS: ClassVar[str] = "logs"
    STARTUP_LOGS: ClassVar[str] = "startup"
    """In ``LOGS``: the stderr of the bots an arena starts once beside its first games (``startups.ProbeBeside``)."""
    BOT_REPORTS: ClassVar[str] = "bots"
    REPORT: ClassVar[str] = "report.html"
    TAPES: ClassVar[str] = ".tapes.jsonl"
    """The report's tapes made beside the games (``html_report.tapes_beside``), until the page is written."""
    TIMING: ClassVar[str] = "timing.json"
    STANDINGS_MD: ClassVar[str] = "standings.md"
    STANDINGS_CSV: ClassVar[str] = "standings.csv"
    STANDINGS_TXT: ClassVar[str] = "standings.txt"
    HEAD_TO_HEAD_CSV: ClassVar[str] = "head_to_head.csv"
    GRADES: ClassVar[str] = "grades.csv"
    GRADES_EXPLAINED: ClassVar[str] = "grades.json"
    GRADES_CANVAS: ClassVar[str] = "grades-canvas.csv"
    GRADES_MOODLE: ClassVar[str] = "grades-moodle.csv"
    SIMILARITY: ClassVar[str] = "similarity.csv"
    SIMILARITY_BOTS: ClassVar[str] = "similarity_bots.csv"
    COLLUSION: ClassVar[str] = "collusion.csv"
    TEXT_MATCHES: ClassVar[str] = "text_matches.json"
    TRAJECTORY: ClassVar[str] = "trajectory.csv"
    TUNED: ClassVar[str] = "tuned.txt"
    HISTORY_CSV: ClassVar[str] = "history.csv"
    HISTORY_MD: ClassVar[str] = "history.md"
    BENCHMARKS: ClassVar[str] = "benchmarks"
    #: What a fresh start removes: a run's own files and folders (report.html and bots/ are rewritten anyway).
    RUN_FILES: ClassVar[tuple[str, ...]] = (GAMES, RECORDS, RECORDS_INDEX, NOTES, NOTES_INDEX, RESULTS, STANDINGS_CSV,
                                            STANDINGS_MD, STANDINGS_TXT, HEAD_TO_HEAD_CSV, TIMING, GRADES,
                                            GRADES_EXPLAINED, GRADES_CANVAS, GRADES_MOODLE, SIMILARITY,
                                            SIMILARITY_BOTS, COLLUSION, TEXT_MATCHES, TAPES)
    RUN_FOLDERS: ClassVar[tuple[str, ...]] = (LEGACY_RECORDS, LOGS, BENCHMARKS)

    # ---------------------------------------------------------------------------------------------- paths
    def file(self, name: str) -> str:
        """``name`` inside the folder."""
        return os.path.join(self.path, name)

    @property
    def games(self) -> str:
        return self.file(self.GAMES)

    @property
    def games_log(self) -> GamesLog:
        """games.jsonl as the one reader and rewriter of it sees it."""
        return GamesLog(self.games)

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
    def startup_logs(self) -> str:
        return os.path.join(self.logs, self.STARTUP_LOGS)

    @property
    def bot_reports(self) -> str:
        return self.file(self.BOT_REPORTS)

    @property
    def report(self) -> str:
        return self.file(self.REPORT)

    @property
    def timing(self) -> str:
        return self.file(self.TIMING)

    @property
    def tapes(self) -> str:
        return self.file(self.TAPES)

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

    # -------------------------------------------------------------------------------------------- writers
    def write(self, name: str, text: str) -> str:
        """Write the folder's file ``name`` (which may sit in a subfolder) atomically: a reader never sees half a
        file, and a full disk leaves the last whole one. Its path."""
        path = self.file(name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        return atomic_write(path, text)

    def remove(self, name: str) -> None:
        """Remove the folder's file ``name`` if it is there (a file a run held back must not stay stale)."""
        try:
            os.remove(self.file(name))
        except FileNotFoundError:
            pass

    # -------------------------------------------------------------------------------------------- readers
    def has_games(self) -> bool:
        return self.games_log.exists()

    def read_results(self) -> ResultsJson | None:
        """``results.json`` as written (the package's own file: read back, not checked), or None while none is
        written (an arena still running). The one reader of the file."""
        if not os.path.exists(self.results):
            return None
        with open(self.results, encoding="utf-8") as fh:
            data: ResultsJson = json.load(fh)
        return data

    def read_timing(self) -> TimingJson | None:
        """``timing.json``, or None where it is missing or unreadable (the times are extra: nothing needs them)."""
        try:
            with open(self.timing, encoding="utf-8") as fh:
                timing: TimingJson = json.load(fh)
                return timing
        except (OSError, ValueError):
            return None

    def read_grades(self) -> GradesJson | None:
        """``grades.json`` (the grades with their explanations), or None where the run grades nothing (or the file
        is unreadable: the page then shows no grade)."""
        try:
            with open(self.file(self.GRADES_EXPLAINED), encoding="utf-8") as fh:
                grades: GradesJson = json.load(fh)
                return grades if isinstance(grades, dict) else None
        except (OSError, ValueError):
            return None

    def complete(self) -> bool:
        """Whether results.json says the run finished (False while it runs, or when the file is unreadable)."""
        try:
            results = self.read_results()
            return bool(results.get("complete")) if results else False
        except (OSError, ValueError, AttributeError):
            return False

    def read_inside(self, name: str) -> bytes | None:
        """The bytes of the file ``name`` in the folder (a report's shard, say), or None when it is not there or the
        name leads outside the folder (``../``, a link out): what a page server may hand out."""
        root = os.path.realpath(self.path)
        target = os.path.realpath(os.path.join(root, name))
        if not target.startswith(root + os.sep) or not os.path.isfile(target):
            return None
        with open(target, "rb") as fh:
            return fh.read()

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
        if results is None:
            return out
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
