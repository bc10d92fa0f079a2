"""A check report as a terminal checklist or as JUnit XML (the JSON form is ``Report.to_json``)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Callable

from referee.check.report import CheckResult, Report, Status, clip

#: Marks per status: Unicode, and the ASCII fallback for terminals that cannot show it.
MARKS = {True: {Status.PASSED: "✓", Status.FAILED: "✗", Status.SKIPPED: "-"},
         False: {Status.PASSED: "ok", Status.FAILED: "FAIL", Status.SKIPPED: "skip"}}
COLOURS = {Status.PASSED: "green", Status.FAILED: "red", Status.SKIPPED: "yellow"}
#: Longest message or line shown in the terminal (the JSON report keeps more).
SHOWN = 300
#: How a fuzz note gives its game's replay command (check/fuzz.py writes it).
REPLAY_SEP = "; replay: "

Style = Callable[..., str]


def _plain(text: str, **_: object) -> str:
    return text


def format_text(report: Report, *, unicode: bool = True, style: Style = _plain, verbose: bool = False) -> str:
    """The checklist: one line per check, the exchange under each failure, and a summary line.

    ``style`` is ``click.style`` for a colour terminal (the domain code never imports click).
    """
    marks = MARKS[unicode]
    width = max(len(m) for m in marks.values())
    lines = [f"lastcard check: {report.bot}: {report.command}", *_announced(report), ""]
    last_reason = None
    for check in report.checks:
        mark = style(marks[check.status].ljust(width), fg=COLOURS[check.status], bold=check.failed)
        took = f"  ({check.elapsed_ms:.0f} ms)" if check.elapsed_ms is not None and check.elapsed_ms >= 1 else ""
        lines.append(f"  {mark} {check.name}{took}" + (f": {check.summary}" if check.summary else ""))
        if check.failed:
            lines += _exchange(check, unicode)
        elif check.status is Status.SKIPPED and check.problem and check.problem != last_reason:
            lines.append(f"      {' ' * width}{check.problem}")
        elif verbose and check.details:
            lines += [f"      {' ' * width}{d}" for d in check.details]
        last_reason = check.problem if check.status is Status.SKIPPED else None
    passed, failed, skipped = (report.count(s) for s in (Status.PASSED, Status.FAILED, Status.SKIPPED))
    lines.append("")
    verdict = "PASSED" if report.ok else "FAILED"
    summary = f"{verdict}: {passed} passed, {failed} failed, {skipped} skipped in {report.elapsed_s:.1f} s"
    lines.append(style(summary, fg="green" if report.ok else "red", bold=True))
    return "\n".join(lines)


def _announced(report: Report) -> list[str]:
    """The name the bot gives itself, when it is not the one standings use (results are keyed by the seat's name:
    unique, known before any game, and not the bot's to choose)."""
    announced = (report.ready or {}).get("name")
    if not isinstance(announced, str) or announced == report.bot:
        return []
    return [f"  it calls itself {announced!r}; standings show it as {report.bot!r} "
            "(its name on the command line, NAME=COMMAND, or in the arena file)"]


def _exchange(check: CheckResult, unicode: bool) -> list[str]:
    pad = " " * 8
    out = []
    for label, value in (("problem", check.problem), ("sent", check.sent), ("received", check.received),
                         ("expected", check.expected)):
        if value is not None:
            # The fix is the referee's own words (a hint per language can be long): shown whole, unlike the bot's lines.
            text = clip(value, SHOWN if label != "expected" else 4 * SHOWN) or ""
            if not unicode:
                text = text.encode("ascii", "backslashreplace").decode("ascii")
            out.append(f"{pad}{(label + ':').ljust(10)}{text}")
    if check.sent is None and check.received is None and check.problem is None:
        out.append(f"{pad}(no details)")
    for detail in check.details[:12]:
        # A replay command is for pasting: whole, on a line of its own, whatever is cut before it.
        said, _, replay = detail.partition(REPLAY_SEP)
        for text in (clip(said, SHOWN) or "", f"  replay: {replay}" if replay else ""):
            if text:
                out.append(f"{pad}{text if unicode else text.encode('ascii', 'backslashreplace').decode('ascii')}")
    if len(check.details) > 12:
        out.append(f"{pad}... and {len(check.details) - 12} more")
    return out


# XML 1.0 cannot carry most control characters, whatever the escaping: a bot's garbage must not break the file.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _xml_text(text: str | None) -> str:
    return _NOT_XML.sub("\N{REPLACEMENT CHARACTER}", text or "")


def to_junit(report: Report) -> str:
    """One ``<testsuite>``, one ``<testcase>`` per check; failures carry the exchange, skips their reason."""
    suite = ET.Element("testsuite", {
        "name": _xml_text(f"lastcard check: {report.bot}"),
        "tests": str(len(report.checks)), "failures": str(report.count(Status.FAILED)), "errors": "0",
        "skipped": str(report.count(Status.SKIPPED)), "time": f"{report.elapsed_s:.3f}"})
    props = ET.SubElement(suite, "properties")
    for key, value in [("command", report.command), ("rulesets", ",".join(report.rulesets)),
                       *((k, str(v)) for k, v in report.settings.items())]:
        ET.SubElement(props, "property", {"name": key, "value": _xml_text(value)})
    for check in report.checks:
        case = ET.SubElement(suite, "testcase", {
            "classname": f"lastcard.check.{check.group}", "name": _xml_text(check.name),
            "time": f"{(check.elapsed_ms or 0) / 1000:.3f}"})
        if check.status is Status.FAILED:
            failure = ET.SubElement(case, "failure", {"message": _xml_text(check.problem), "type": check.group})
            body = [f"{label}: {value}" for label, value in (("problem", check.problem), ("sent", check.sent),
                                                             ("received", check.received),
                                                             ("expected", check.expected)) if value is not None]
            failure.text = _xml_text("\n".join(body + check.details))
        elif check.status is Status.SKIPPED:
            ET.SubElement(case, "skipped", {"message": _xml_text(check.problem)})
    ET.indent(suite)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suite, encoding="unicode") + "\n"
