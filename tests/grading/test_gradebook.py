"""Every roster student gets a row, in the shape the roster's platform imports: Canvas's export columns with the
assignment's column filled and its Points Possible row, Moodle's worksheet with Grade and Feedback comments, a
Moodle gradebook's identifier column with a feedback column; missing work gets the stated grade and reason."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from referee.grading.class_list import Candidate, match_class
from referee.grading.grade import Grade
from referee.grading.gradebook import canvas_csv, feedback, moodle_csv, roster_grades
from referee.grading.roster import read_roster
from referee.grading.rule import Grading

BOM = "\ufeff"
CANVAS = (BOM + "Student,ID,SIS User ID,SIS Login ID,Section,Last Card contest (4242),Quiz 1 (4243),Current Points\r\n"
          "    Points Possible,,,,,50.00,10.00,(read only)\r\n"
          '"Benson, Ben",4411,s4411,bben,"Section 1, Mon",,7.00,7.00\r\n'
          '"Kim, Jun",4412,s4412,jkim,"Section 1, Mon",,9.00,9.00\r\n'
          '"Daniels, Dan",4413,s4413,ddan,"Section 2, Tue",,8.00,8.00\r\n')
GRADING = Grading(by="rank", best=50, worst=30, left_out=5, missing=0, points_column="Last Card contest")


def rows_of(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline="")))


def graded(tmp_path: Path, text: str = CANVAS) -> tuple:
    path = tmp_path / "roster.csv"
    path.write_text(text, encoding="utf-8")
    roster = read_roster(str(path))
    class_list = match_class(roster, [Candidate("bensonben", "download/bensonben_4411_1_bot.py",
                                                (("canvas", "4411"), ("slug", "bensonben"))),
                                      Candidate("danielsdan", "download/danielsdan_4413_2_Bot.zip",
                                                (("canvas", "4413"), ("slug", "danielsdan")))])
    grades = [Grade(student="4411", bot="bensonben", points="50",
                    why=("points: **50** (the gradebook column `Last Card contest`, id `4411`)",
                         "how: by rank over the 3 ranked",
                         "yours: rank 1 gives 50.00; rounded to a multiple of 1: 50")),
              Grade(student="4413", bot="danielsdan", points="5", left_out="build failed (exit code 1)",
                    why=("points: **5** (the gradebook column `Last Card contest`, id `4413`)",
                         "a student left out gets 5 points; left out because build failed (exit code 1)"))]
    return roster, class_list, roster_grades(grades, class_list, GRADING)


def test_every_roster_student_gets_a_row_in_roster_order_with_missing_work_stated(tmp_path):
    _, _, rows = graded(tmp_path)
    assert [(g.student, g.points) for g in rows] == [("4411", "50"), ("4412", "0"), ("4413", "5")]
    jun = rows[1]
    assert jun.left_out.startswith("no submission: nothing among the submissions matched their row")
    assert "(ID 4412, line 4)" in jun.left_out
    assert rows[2].left_out == "build failed (exit code 1)"  # left out: the reason the run gave


def test_canvas_file_keeps_the_exports_columns_and_fills_the_assignment(tmp_path):
    roster, _, rows = graded(tmp_path)
    text, said = canvas_csv(roster, rows, GRADING)
    table = rows_of(text)
    assert table[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Last Card contest (4242)"]
    assert table[1] == ["    Points Possible", "", "", "", "", "50.00"]  # the export's own points possible
    assert table[2] == ["Benson, Ben", "4411", "s4411", "bben", "Section 1, Mon", "50"]
    assert [r[1] for r in table[2:]] == ["4411", "4412", "4413"] and [r[5] for r in table[2:]] == ["50", "0", "5"]
    assert '"Benson, Ben"' in text and '"Section 1, Mon"' in text  # quoted as Canvas quotes them
    assert "Quiz 1" not in text  # other assignments are left alone: an import overwrites the columns it holds
    assert "Canvas updates that assignment" in said


def test_canvas_file_adds_a_new_assignment_column_when_the_export_has_none(tmp_path):
    roster, _, rows = graded(tmp_path)
    other = Grading(by="rank", best=50, worst=30, points_column="Bot tournament")
    text, said = canvas_csv(roster, rows, other)
    table = rows_of(text)
    assert table[0][-1] == "Bot tournament" and table[1][-1] == "50"  # points possible: the rule's best
    assert "offers to create the assignment" in said


WORKSHEET = (BOM + "Identifier,Full name,Email address,Status,Grade,Maximum Grade,Grade can be changed,"
             "Last modified (submission),Last modified (grade),Feedback comments\n"
             'Participant 205,Hana Ito,hana@uni.example,Submitted for grading,,100.00,Yes,"Monday, 3 March 2025, '
             '10:00 AM",-,\n'
             "Participant 206,Tom Ruiz,tom@uni.example,No submission,,100.00,Yes,-,-,\n")


def test_moodle_worksheet_gets_its_grade_and_feedback_comments(tmp_path):
    path = tmp_path / "worksheet.csv"
    path.write_text(WORKSHEET, encoding="utf-8")
    roster = read_roster(str(path))
    class_list = match_class(roster, [Candidate("Hana Ito", "download/Hana Ito_205_assignsubmission_file_",
                                                (("participant", "205"), ("name", "Hana Ito")))])
    grade = Grade(student="Participant 205", bot="Hana Ito", points="42",
                  why=("points: **42** (the gradebook column `Last Card contest`, id `Participant 205`)",
                       "how: by rank over the 5 ranked: rank 1 gets 50", "yours: rank 2 gives 42.00"))
    rows = roster_grades([grade], class_list, GRADING)
    text, said = moodle_csv(roster, rows, GRADING)
    table = rows_of(text)
    assert table[0] == rows_of(WORKSHEET.lstrip(BOM))[0]  # the worksheet's own columns, in its order
    hana, tom = table[1:]
    assert hana[0] == "Participant 205" and hana[4] == "42" and hana[7] == "Monday, 3 March 2025, 10:00 AM"
    assert hana[9] == "Last Card contest: 42 points. How: by rank over the 5 ranked: rank 1 gets 50. Yours: rank 2 " \
                      "gives 42.00."
    assert tom[4] == "0" and "Missing work gets 0 points: no submission" in tom[9]
    assert "Upload grading worksheet" in said


def test_moodle_gradebook_export_gets_the_identifier_points_and_feedback_columns(tmp_path):
    path = tmp_path / "export.csv"
    path.write_text('"First name","Last name","ID number",Institution,Department,"Email address"\n'
                    "Hana,Ito,s205,Uni,CS,hana@uni.example\n", encoding="utf-8")
    roster = read_roster(str(path))
    class_list = match_class(roster, [Candidate("Hana Ito", "x", (("participant", "205"), ("name", "Hana Ito")))])
    rows = roster_grades([Grade(student="Participant 205", bot="Hana Ito", points="42", why=("points", "how"))],
                         class_list, GRADING)
    text, said = moodle_csv(roster, rows, GRADING)
    assert rows_of(text) == [["First name", "Last name", "ID number", "Email address", "Last Card contest",
                              "Last Card contest (feedback)"],
                             ["Hana", "Ito", "s205", "hana@uni.example", "42", "Last Card contest: 42 points. How."]]
    assert "Email address" in said


def test_feedback_is_plain_text():
    grade = Grade(student="s1", bot="ada", points="7", why=("points: **7** (`x`)", "how: `rank` 1", "yours: **7**"))
    assert feedback(grade, GRADING) == "Last Card contest: 7 points. How: rank 1. Yours: 7."
