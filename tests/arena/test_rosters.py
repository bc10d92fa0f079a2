"""A class as course platforms deliver it, through the command line: ``validate`` lists every student, what was
unpacked or skipped and why, who has no submission and what is on no roster row, before any game; ``arena`` and
``ladder run`` write a row for every roster student in the platform's own shape; a bad roster, an ambiguity or a
hostile archive is refused as it should be. The bots run in the default sandbox."""

from __future__ import annotations

import csv
import io
import json
import shutil
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli.main import cli
from tests.support.platform_class import canvas_class, copy_kit, github_class, moodle_class, plan_class

ROOT = Path(__file__).resolve().parents[2]


def lastcard(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def small_canvas(tmp_path: Path):
    return canvas_class(tmp_path, plan_class(8, zips=2, late=2, flat=1, missing=1), games=4)


def test_validate_lists_every_student_before_any_game(tmp_path):
    cls = small_canvas(tmp_path)
    again = cls.by("files")[0]  # handed bot.py in again: a later attachment id
    (first,) = cls.download.glob(f"{again.canvas_slug}_{again.user_id}_*_bot.py")
    (cls.download / f"{again.canvas_slug}_{again.user_id}_99999_bot.py").write_bytes(first.read_bytes())
    res = lastcard("validate", str(cls.arena))
    assert res.exit_code == 0, res.output
    out = res.output
    assert "bots[0].submissions: 7 submission(s), named as Canvas" in out
    for s in cls.by("zip"):
        assert f"{s.canvas_slug}: unpacked download/{s.canvas_slug}_{s.user_id}_" in out
        assert f"skipped download/{s.canvas_slug}_{s.user_id}_" in out and "__MACOSX/" in out
    for s in cls.by("late"):
        assert f"{s.canvas_slug}: Canvas marked it LATE" in out
    assert f"skipped download/{first.name}: an earlier submission of 'bot.py'; the latest, download/" \
           f"{again.canvas_slug}_{again.user_id}_99999_bot.py, counts" in out
    (gone,) = cls.by("missing")
    assert f"no submission: {gone.sortable} (ID {gone.user_id}, line" in out and "gets 0 (grading.missing)" in out
    assert "roster roster.csv: a Canvas gradebook export, 8 students: 7 matched to a submission (7 by Canvas ID)" \
        in out
    assert "results/canvas-class/grades.csv and grades-canvas.csv" in out
    assert not (tmp_path / "results").exists()  # nothing played, nothing written


@pytest.mark.slow
def test_a_canvas_download_goes_from_folder_to_the_file_canvas_imports(tmp_path):
    cls = small_canvas(tmp_path)
    out = tmp_path / "out"
    res = lastcard("arena", str(cls.arena), "--out", str(out), "-j", "2", "-q", "--check-games", "0", "--no-report")
    assert res.exit_code == 0, res.output
    assert f"grades: {out / 'grades-canvas.csv'}" in res.output
    grades = read_csv(out / "grades.csv")
    assert [r["student"] for r in grades] == [s.user_id for s in cls.students]  # every student, in roster order
    (gone,) = cls.by("missing")
    missing = next(r for r in grades if r["student"] == gone.user_id)
    assert missing["Last Card contest"] == "0" and missing["left_out"].startswith("no submission")
    doc = json.loads((out / "results.json").read_text())
    assert len(doc["standings"]) == 8  # 7 students and builtin:medium: everyone who handed something in played
    table = list(csv.reader(io.StringIO((out / "grades-canvas.csv").read_text(encoding="utf-8"), newline="")))
    assert table[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Last Card contest (4242)"]
    assert table[1][0] == "    Points Possible" and table[1][-1] == "100.00"
    points = {r["student"]: r["Last Card contest"] for r in grades}
    assert [(row[0], row[-1]) for row in table[2:]] == [(s.sortable, points[s.user_id]) for s in cls.students]
    zipped = cls.by("zip")[0]
    report = (out / "bots" / f"{zipped.canvas_slug}.md").read_text()
    assert f"handed in as: `download/{zipped.canvas_slug}_{zipped.user_id}_" in report
    assert f"id `{zipped.user_id}`" in report


def test_roster_on_the_command_line_replaces_the_files(tmp_path):
    cls = small_canvas(tmp_path)
    other = tmp_path / "others.csv"
    other.write_text("id,name,email\n4411,Ben Benson,ben@uni.example\n9999,New Student,new@uni.example\n")
    res = lastcard("validate", str(cls.arena), "--roster", str(other))
    assert res.exit_code == 0, res.output
    assert "a plain roster, 2 students: 1 matched to a submission (1 by Canvas ID)" in res.output
    assert "no submission: New Student (id 9999, line 3)" in res.output
    assert res.output.count("on no roster row: ") == 6


@pytest.mark.parametrize("text,encoding,words", [
    pytest.param("id;name;email\n4411;Ben;b@x\n", "utf-8", ["line 1", "separated by semicolons"], id="semicolons"),
    pytest.param("id,name\n4411,Ben\n4411,Jun\n", "utf-8", ["line 3", "'4411' (Jun) is also on line 2"],
                 id="duplicate-ids"),
    pytest.param("Name,Mail\nBen,b@x\n", "utf-8", ["line 1", "not a roster lastcard reads"], id="wrong-columns"),
    pytest.param("id,name\n4411,Zoé\n", "cp1252", ["line 2", "not UTF-8", "Windows-1252"], id="unknown-encoding"),
])
def test_a_bad_roster_stops_everything_before_any_game(tmp_path, text, encoding, words):
    cls = small_canvas(tmp_path)
    bad = tmp_path / "bad.csv"
    bad.write_bytes(text.encode(encoding))
    out = tmp_path / "out"
    for args in (["validate", str(cls.arena)], ["arena", str(cls.arena), "--out", str(out), "-q"]):
        res = lastcard(*args, "--roster", str(bad))
        assert res.exit_code == 2, res.output
        assert "roster: " in res.output and str(bad) in res.output
        for w in words:
            assert w in res.output, res.output
    assert not out.exists()  # nothing half-written


def test_an_ambiguity_stops_the_arena_with_its_fix(tmp_path):
    for name in ("Jun Kim", "ada"):
        copy_kit(tmp_path / "students" / name)
    (tmp_path / "roster.csv").write_text("id,name\ns1,Jun Kim\ns2,Jun Kim\ns3,Ada\n")
    (tmp_path / "arena.yaml").write_text("name: amb\nroster: roster.csv\nbots:\n  - submissions: {path: "
                                         "\"students/*\"}\n  - builtin:random\n  - builtin:easy\n")
    res = lastcard("arena", str(tmp_path / "arena.yaml"), "-q")
    assert res.exit_code == 2, res.output
    assert "students/Jun Kim matches 2 students of roster.csv by name" in res.output
    assert "name the folder after one student's id" in res.output
    assert not (tmp_path / "results").exists()


def bomb(zf: zipfile.ZipFile) -> None:
    """129 MiB of zeros in a few hundred kilobytes: over the 128 MiB a submission may unpack to."""
    with zf.open("zeros.bin", "w", force_zip64=True) as fh:
        for _ in range(129):
            fh.write(bytes(1 << 20))


def symlink(zf: zipfile.ZipFile) -> None:
    info = zipfile.ZipInfo("botkit.py")
    info.create_system, info.external_attr = 3, (0o120777 << 16)
    zf.writestr(info, "/etc/passwd")


@pytest.mark.parametrize("hostile,words", [
    pytest.param(lambda zf: zf.writestr("../../../evil.py", "print()"), "'../../../evil.py' climbs out", id="zip-slip"),
    pytest.param(bomb, "the archive unpacks to 129", id="zip-bomb"),
    pytest.param(symlink, "'botkit.py' is a symbolic link", id="symlink"),
])
def test_validate_names_the_archive_and_the_member_of_a_hostile_zip(tmp_path, hostile, words):
    cls = small_canvas(tmp_path)
    zipped = cls.by("zip")[0]
    (archive,) = cls.download.glob(f"{zipped.canvas_slug}_*")
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("bot.py", (ROOT / "sample_bots" / "python" / "random_bot.py").read_text())
        hostile(zf)
    res = lastcard("validate", str(cls.arena))
    assert res.exit_code == 0, res.output
    assert f"would be left out: {zipped.canvas_slug} (download/{archive.name}: {words}" in res.output
    assert "nothing of it was unpacked" in res.output
    if "bomb" in words or "129" in words:
        assert "over the 128 MiB a submission may unpack to (a zip bomb" in res.output


@pytest.mark.slow
def test_a_hostile_archive_leaves_that_student_out_with_the_reason_and_the_class_plays(tmp_path):
    cls = small_canvas(tmp_path)
    zipped = cls.by("zip")[0]
    (archive,) = cls.download.glob(f"{zipped.canvas_slug}_*")
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("bot.py", (ROOT / "sample_bots" / "python" / "random_bot.py").read_text())
        zf.writestr("../../../evil.py", "print('escaped')")
    res = lastcard("validate", str(cls.arena))
    assert res.exit_code == 0, res.output
    assert f"would be left out: {zipped.canvas_slug} (download/{archive.name}: '../../../evil.py' climbs out" \
        in res.output
    out = tmp_path / "out"
    res = lastcard("arena", str(cls.arena), "--out", str(out), "-j", "2", "-q", "--check-games", "0", "--no-report")
    assert res.exit_code == 0, res.output
    row = next(r for r in read_csv(out / "grades.csv") if r["student"] == zipped.user_id)
    assert row["Last Card contest"] == "10" and "zip-slip" in row["left_out"]  # grading.left_out, with the reason
    assert not list(tmp_path.rglob("evil.py"))


@pytest.mark.slow
def test_a_moodle_class_on_the_ladder_gets_the_worksheet_it_uploads(tmp_path):
    cls = moodle_class(tmp_path)
    roster = cls.roster.rename(tmp_path / "worksheet-downloaded.csv")
    res = lastcard("ladder", "run", str(cls.arena), "--db", str(tmp_path / "class.sqlite"), "--budget", "6", "-q",
                   "-j", "2", "--roster", str(roster))
    assert res.exit_code == 0, res.output
    sheet = read_csv(tmp_path / "class-report" / "grades-moodle.csv")
    assert [r["Identifier"] for r in sheet] == [f"Participant {s.user_id}" for s in cls.students]
    for r in sheet:
        assert r["Grade"] and r["Feedback comments"].startswith(f"Last Card contest: {r['Grade']} points.")
    (gone,) = cls.by("missing")
    assert next(r for r in sheet if r["Identifier"] == f"Participant {gone.user_id}")["Grade"] == "0"


def test_github_classroom_repositories_match_the_roster_by_login(tmp_path):
    cls = github_class(tmp_path, plan_class(5, zips=0, late=0, flat=0, missing=1))
    res = lastcard("validate", str(cls.arena))
    assert res.exit_code == 0, res.output
    assert "a plain roster, 5 students: 4 matched to a submission (4 by GitHub Classroom name)" in res.output


def test_the_shipped_classroom_no_longer_drops_zips(tmp_path):
    shutil.copytree(ROOT / "arenas" / "students", tmp_path / "students")
    shutil.copy(ROOT / "arenas" / "classroom.yaml", tmp_path / "classroom.yaml")
    assert "*.zip" not in (tmp_path / "classroom.yaml").read_text()
    with zipfile.ZipFile(tmp_path / "students" / "ivy.zip", "w") as zf:
        zf.writestr("ivy/bot.py", (ROOT / "sample_bots" / "python" / "random_bot.py").read_text())
    (tmp_path / "students" / "_template").mkdir()
    res = lastcard("validate", str(tmp_path / "classroom.yaml"))
    assert res.exit_code == 0, res.output
    assert "    ivy: " in res.output and "(python)" in res.output.split("    ivy: ")[1].splitlines()[0]
    assert "ivy: unpacked students/ivy.zip: 1 file, its one folder 'ivy/' as the submission's folder" in res.output
    assert "skipped students/_template: exclude: '_*' in the arena file" in res.output


@pytest.mark.slow
def test_without_a_roster_a_canvas_download_is_graded_under_canvas_ids(tmp_path):
    cls = small_canvas(tmp_path)
    cls.arena.write_text(cls.arena.read_text().replace("roster: roster.csv\n", ""))
    out = tmp_path / "out"
    res = lastcard("arena", str(cls.arena), "--out", str(out), "-j", "2", "-q", "--check-games", "0", "--no-report")
    assert res.exit_code == 0, res.output
    grades = read_csv(out / "grades.csv")
    handed_in = [s for s in cls.students if s.how != "missing"]
    assert sorted(r["student"] for r in grades) == sorted(s.user_id for s in handed_in)  # Canvas's ID column
    doc = json.loads((out / "results.json").read_text())
    assert {r["bot"] for r in doc["standings"]} == {s.canvas_slug for s in handed_in} | {"medium"}
    assert not (out / "grades-canvas.csv").exists()
