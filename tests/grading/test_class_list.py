"""Submissions matched to the roster's students by the strongest evidence that names one student; who has no
submission, what is on no row, and every ambiguity (each an error with its fix) listed."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.builds.download_names import read_name
from referee.grading.class_list import Candidate, match_class
from referee.grading.roster import read_roster

CANVAS = ("Student,ID,SIS User ID,SIS Login ID,Section\n"
          '"Benson, Ben",4411,s4411,bben,A\n"Kim, Jun",4412,s4412,jkim,A\n"Daniels, Dan",4413,s4413,ddan,A\n')
PLAIN = ("id,name,email,github\ns1,Ada Lovelace,ada@uni.example,ada-gh\ns2,Grace Hopper,grace@uni.example,gh-grace\n"
         "s3,Zoé Martin,zoe@uni.example,\n")


def roster(tmp_path: Path, text: str):
    path = tmp_path / "roster.csv"
    path.write_text(text)
    return read_roster(str(path))


def from_download(name: str) -> Candidate:
    label = read_name(name)
    if label.platform == "canvas":
        keys = (("canvas", label.student), ("slug", label.name))
    elif label.platform == "moodle":
        keys = (("participant", label.student), ("name", label.name))
    else:
        keys = (("plain", name),)
    return Candidate(label.name, f"download/{name}", keys)


@pytest.mark.parametrize("text,name,student,by", [
    pytest.param(CANVAS, "bensonben_4411_99812_bot.py", "4411", "Canvas ID", id="canvas-id"),
    pytest.param(CANVAS, "kimjun_9999_99812_bot.py", "4412", "name", id="canvas-name-when-the-id-is-unknown"),
    pytest.param(CANVAS, "4413", "4413", "id", id="folder-named-by-id"),
    pytest.param(CANVAS, "jkim", "4412", "id", id="folder-named-by-sis-login"),
    pytest.param(PLAIN, "ada@uni.example", "s1", "e-mail", id="folder-named-by-email"),
    pytest.param(PLAIN, "Zoé Martin", "s3", "name", id="folder-named-by-name"),
    pytest.param(PLAIN, "zoé  MARTIN", "s3", "name", id="name-any-case-and-spacing"),
    pytest.param(PLAIN, "lovelaceada_7_99812_bot.py", "s1", "name", id="canvas-download-plain-roster"),
    pytest.param(PLAIN, "last-card-2025-ada-gh", "s1", "GitHub Classroom name", id="github-classroom"),
    pytest.param(PLAIN, "last-card-gh-grace", "s2", "GitHub Classroom name", id="github-hyphenated-login"),
    pytest.param(PLAIN, "lab-1-s3", "s3", "GitHub Classroom name", id="github-classroom-by-id"),
])
def test_a_submission_is_matched_by_the_strongest_evidence(tmp_path, text, name, student, by):
    result = match_class(roster(tmp_path, text), [from_download(name)])
    placed = [p for p in result.placed if p.bot is not None]
    assert [(p.student.id, p.by) for p in placed] == [(student, by)]
    assert not result.problems and not result.strangers


def test_moodle_participant_against_the_worksheet(tmp_path):
    r = roster(tmp_path, "Identifier,Full name,Email address\nParticipant 205,Hana Ito,h@x\nParticipant 206,Tom Ruiz,"
                         "t@x\n")
    result = match_class(r, [from_download("Tom Ruiz_206_assignsubmission_file_")])
    assert [(p.student.id, p.bot, p.by) for p in result.placed] == [("Participant 205", None, ""),
                                                                    ("Participant 206", "Tom Ruiz",
                                                                     "Moodle participant")]


def test_missing_students_and_strangers_are_listed_with_the_fix(tmp_path):
    result = match_class(roster(tmp_path, CANVAS), [from_download("bensonben_4411_99812_bot.py"),
                                                     from_download("nobody_5555_99813_bot.py")])
    assert [p.student.id for p in result.missing()] == ["4412", "4413"]
    assert [c.shown for c in result.strangers] == ["download/nobody_5555_99813_bot.py"]
    lines = "\n".join(result.lines("0"))
    assert "no submission: Kim, Jun (ID 4412, line 3) gets 0 (grading.missing)" in lines
    assert "on no roster row: download/nobody_5555_99813_bot.py (bot nobody) plays, but has no gradebook row" in lines
    assert "name the folder after their ID" in lines
    assert "1 matched to a submission (1 by Canvas ID)" in lines


def test_two_students_with_one_name_are_an_ambiguity_with_its_fix(tmp_path):
    r = roster(tmp_path, "id,name\ns1,Jun Kim\ns2,Jun Kim\n")
    result = match_class(r, [from_download("Jun Kim")])
    (problem,) = result.problems
    assert "download/Jun Kim matches 2 students" in problem and "by name" in problem
    assert "Jun Kim (id s1, line 2) and Jun Kim (id s2, line 3)" in problem
    assert "name the folder after one student's id" in problem
    assert all(p.bot is None for p in result.placed)


def test_two_submissions_on_one_student_are_an_ambiguity(tmp_path):
    result = match_class(roster(tmp_path, PLAIN), [from_download("ada@uni.example"), from_download("Ada Lovelace")])
    (problem,) = result.problems
    assert "download/ada@uni.example and download/Ada Lovelace both match Ada Lovelace (id s1, line 2)" in problem
    assert "keep one submission per student" in problem


def test_a_match_by_name_asks_the_teacher_to_check_it(tmp_path):
    result = match_class(roster(tmp_path, PLAIN), [from_download("Zoé Martin")])
    assert "matched by name, check it: download/Zoé Martin is Zoé Martin (id s3, line 4)" in result.lines("0")
