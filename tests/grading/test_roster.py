"""A class roster read as its platform wrote it (a header row with a BOM, quoted names with commas, Canvas's
Points Possible row), and every mistake refused with the file, the line, the value and the fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.grading.roster import read_roster
from referee.inputs.problems import InputFileError

BOM = "\ufeff"
CANVAS = (BOM + "Student,ID,SIS User ID,SIS Login ID,Section,Last Card contest (4242),Current Points\r\n"
          "    Points Possible,,,,,100.00,(read only)\r\n"
          '"Benson, Ben",4411,s4411,bben,"Section 1, Mon",,0.00\r\n'
          '"Kim, Jun",4412,s4412,jkim,"Section 1, Mon",85.00,85.00\r\n'
          ",,,,,Manual Posting,\r\n")
WORKSHEET = (BOM + "Identifier,Full name,Email address,Status,Grade,Maximum Grade,Grade can be changed,"
             "Last modified (submission),Last modified (grade),Feedback comments\n"
             'Participant 205,Hana Ito,hana@uni.example,Submitted for grading,,100.00,Yes,"Monday, 3 March 2025, '
             '10:00 AM",-,\n'
             'Participant 206,"Ruiz, Tom",tom@uni.example,No submission,,100.00,Yes,-,-,\n')
MOODLE = (BOM + '"First name","Last name","ID number",Institution,Department,"Email address","Assignment: Bot (Real)"\n'
          'Hana,Ito,s205,Uni,CS,hana@uni.example,-\n'
          'Tom,Ruiz,s206,Uni,CS,tom@uni.example,-\n')
PLAIN = "ID,Name,E-mail,GitHub\ns1,Ada Lovelace,ada@uni.example,ada-gh\ns2,\"Hopper, Grace\",grace@uni.example,\n"


def write(tmp_path: Path, text: str, name: str = "roster.csv", encoding: str = "utf-8") -> str:
    path = tmp_path / name
    path.write_bytes(text.encode(encoding))
    return str(path)


def test_canvas_export_with_its_points_possible_row_and_quoted_names(tmp_path):
    roster = read_roster(write(tmp_path, CANVAS))
    assert roster.shape == "canvas" and roster.header[0] == "Student"  # the BOM is gone
    assert [(s.id, s.name, s.line) for s in roster.students] == [("4411", "Benson, Ben", 3), ("4412", "Kim, Jun", 4)]
    assert roster.points_possible[5] == "100.00"
    ben = roster.students[0]
    assert (ben.other("canvas"), ben.other("sis_user"), ben.other("sis_login")) == ("4411", "s4411", "bben")
    assert ben.cells[4] == "Section 1, Mon"


def test_moodle_worksheet(tmp_path):
    roster = read_roster(write(tmp_path, WORKSHEET))
    assert roster.shape == "moodle-worksheet" and roster.id_label == "Identifier"
    assert [(s.id, s.name, s.email, s.other("participant")) for s in roster.students] == [
        ("Participant 205", "Hana Ito", "hana@uni.example", "205"), ("Participant 206", "Ruiz, Tom",
                                                                     "tom@uni.example", "206")]


def test_moodle_gradebook_export(tmp_path):
    roster = read_roster(write(tmp_path, MOODLE))
    assert roster.shape == "moodle"
    assert [(s.id, s.name, s.other("idnumber")) for s in roster.students] == [
        ("hana@uni.example", "Hana Ito", "s205"), ("tom@uni.example", "Tom Ruiz", "s206")]


def test_plain_roster_any_case(tmp_path):
    roster = read_roster(write(tmp_path, PLAIN))
    assert roster.shape == "plain"
    assert [(s.id, s.name, s.email, s.other("login")) for s in roster.students] == [
        ("s1", "Ada Lovelace", "ada@uni.example", "ada-gh"), ("s2", "Hopper, Grace", "grace@uni.example", "")]


def refused(path: str) -> InputFileError:
    with pytest.raises(InputFileError) as exc:
        read_roster(path)
    return exc.value


@pytest.mark.parametrize("text,line,words", [
    pytest.param("Name,Mail\nAda,ada@x\n", 1, ["'Name', 'Mail'", "a Canvas gradebook export (Student, ID",
                                               "a plain CSV (id, name, email)"], id="wrong-columns"),
    pytest.param("id,email\ns1,ada@x\n", 1, ["'id', 'email'", "not a roster lastcard reads"], id="missing-name"),
    pytest.param("id;name;email\ns1;Ada;ada@x\n", 1, ["separated by semicolons", "'id', 'name', 'email'",
                                                      "CSV UTF-8 (comma delimited)"], id="semicolons"),
    pytest.param("id\tname\ns1\tAda\n", 1, ["separated by tabs"], id="tabs"),
    pytest.param("id,name\ns1,Ada\ns2,Bob\ns1,Cy\n", 4, ["'s1' (Cy) is also on line 2 (Ada)", "once"],
                 id="duplicate-id"),
    pytest.param("id,name\ns1,Ada\n,Bob\n", 3, ["no id for 'Bob'"], id="missing-id"),
    pytest.param("id,name,email\ns1,Lovelace, Ada,ada@x\n", 2, ["4 cells where the header has 3",
                                                                "must be in quotes"], id="unquoted-comma"),
    pytest.param("", None, ["the roster is empty"], id="empty"),
    pytest.param("id,name\n", 1, ["no student"], id="header-only"),
    pytest.param(CANVAS.replace(",4412,", ",4411,"), 4, ["ID '4411' (Kim, Jun) is also on line 3"],
                 id="canvas-duplicate"),
    pytest.param(WORKSHEET.replace("Participant 206", "Tom"), 3, ["'Tom' is not Moodle's"], id="worksheet-id"),
])
def test_mistakes_name_the_file_the_line_and_the_fix(tmp_path, text, line, words):
    path = write(tmp_path, text)
    exc = refused(path)
    assert exc.source == path and exc.problem.line == line
    for w in words:
        assert w in str(exc), str(exc)


def test_another_encoding_is_named(tmp_path):
    exc = refused(write(tmp_path, "id,name\ns1,Zoé\n", encoding="cp1252"))
    assert "not UTF-8" in str(exc) and "Windows-1252" in str(exc) and exc.problem.line == 2
    exc = refused(write(tmp_path, "\ufeffid,name\ns1,Zoé\n", name="u16.csv", encoding="utf-16"))
    assert "UTF-16" in str(exc) and "save the file as UTF-8" in str(exc)


def test_a_semicolon_file_whose_header_holds_a_comma_is_still_named(tmp_path):
    exc = refused(write(tmp_path, "Student;ID;Section, day\n\"Benson, Ben\";4411;A\n"))
    assert "separated by semicolons" in str(exc) and exc.problem.line == 1


def test_a_missing_roster_is_named(tmp_path):
    exc = refused(str(tmp_path / "nope.csv"))
    assert "no such file" in str(exc)
