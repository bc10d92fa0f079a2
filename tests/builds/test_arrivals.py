"""A platform's download made into one folder per student: flat files grouped with the platform's prefix taken
off, archives unpacked, the latest of several submissions counting (and said), everything skipped listed, a
refused archive leaving nothing behind, the same folder found again while the download is unchanged."""

from __future__ import annotations

import os
import stat
import zipfile
from pathlib import Path

from referee.builds.arrivals import Intake, arrange, unpack_root


def run(download: Path, runnable=lambda folder: (Path(folder) / "bot.py").exists()) -> Intake:
    return arrange(sorted(str(p) for p in download.iterdir()), str(download.parent), runnable)


def files_of(folder: str) -> dict[str, str]:
    root = Path(folder)
    return {str(p.relative_to(root)): p.read_text() for p in sorted(root.rglob("*")) if p.is_file()}


def zip_with(path: Path, files: dict[str, str], link: str | None = None) -> None:
    with zipfile.ZipFile(path, "w") as zf:
        for name, text in files.items():
            zf.writestr(name, text)
        if link:
            info = zipfile.ZipInfo(link)
            info.create_system = 3
            info.external_attr = (stat.S_IFLNK | 0o777) << 16
            zf.writestr(info, "/etc/passwd")


def test_canvas_flat_files_are_grouped_by_student_with_the_prefix_taken_off(tmp_path):
    d = tmp_path / "download"
    d.mkdir()
    (d / "bensonben_4411_99812_bot.py").write_text("ben bot")
    (d / "bensonben_4411_99813_botkit.py").write_text("ben kit")
    (d / "kimjun_LATE_4412_99814_bot.py").write_text("jun bot")
    intake = run(d)
    assert intake.platforms == ("canvas",)
    ben, jun = intake.arrivals
    assert (ben.name, ben.student, jun.name, jun.student) == ("bensonben", "4411", "kimjun", "4412")
    assert files_of(ben.path) == {"bot.py": "ben bot", "botkit.py": "ben kit"}
    assert ben.sources == ("download/bensonben_4411_99812_bot.py", "download/bensonben_4411_99813_botkit.py")
    assert jun.late and not ben.late and "Canvas marked it LATE" in "\n".join(intake.lines())
    assert ben.keys == (("canvas", "4411"), ("slug", "bensonben"))


def test_the_latest_of_several_submissions_counts_and_that_is_said(tmp_path):
    d = tmp_path / "download"
    d.mkdir()
    zip_with(d / "bensonben_4411_99812_bot.zip", {"bot.py": "first try"})
    zip_with(d / "bensonben_4411_99830_bot.zip", {"bot.py": "second try"})
    (d / "bensonben_4411_99840_botkit.py").write_text("kit")
    (arrival,) = run(d).arrivals
    assert files_of(arrival.path) == {"bot.py": "second try", "botkit.py": "kit"}
    skipped = {s.shown: s.why for s in arrival.skipped}
    assert "download/bensonben_4411_99812_bot.zip" in skipped
    assert "the latest, download/bensonben_4411_99830_bot.zip, counts" in skipped[
        "download/bensonben_4411_99812_bot.zip"]
    assert any("the latest of each counts" in n for n in arrival.notes)


def test_a_loose_file_and_an_archive_giving_one_path_the_later_counts_and_that_is_said(tmp_path):
    d = tmp_path / "download"
    d.mkdir()
    (d / "bensonben_4411_99812_bot.py").write_text("loose, older")
    zip_with(d / "bensonben_4411_99813_all.zip", {"bot.py": "zipped, newer", "botkit.py": "kit"})
    (arrival,) = run(d).arrivals
    assert files_of(arrival.path)["bot.py"] == "zipped, newer"
    assert any("bot.py is in download/bensonben_4411_99812_bot.py and in download/bensonben_4411_99813_all.zip"
               in n for n in arrival.notes)


def test_moodle_folders_and_flat_files_are_one_student_by_participant_number(tmp_path):
    d = tmp_path / "download"
    (d / "Hana Ito_205_assignsubmission_file_").mkdir(parents=True)
    (d / "Hana Ito_205_assignsubmission_file_" / "bot.py").write_text("hana")
    (d / "Hana Ito_205_assignsubmission_onlinetext_").mkdir()
    (d / "Hana Ito_205_assignsubmission_onlinetext_" / "onlinetext.html").write_text("<p>notes</p>")
    (d / "Tom Ruiz_206_assignsubmission_file_bot.py").write_text("tom")
    hana, tom = run(d).arrivals
    assert (hana.name, hana.student, tom.name, tom.student) == ("Hana Ito", "Participant 205", "Tom Ruiz",
                                                                 "Participant 206")
    assert files_of(hana.path) == {"bot.py": "hana", "onlinetext.html": "<p>notes</p>"}
    assert files_of(tom.path) == {"bot.py": "tom"}


def test_plain_folders_are_used_as_they_are_and_plain_archives_unpacked(tmp_path):
    d = tmp_path / "students"
    (d / "ada").mkdir(parents=True)
    (d / "ada" / "bot.py").write_text("ada")
    zip_with(d / "bob.zip", {"bob/bot.py": "bob"})
    (d / "cy").mkdir()
    zip_with(d / "cy" / "handin.zip", {"bot.py": "cy"})  # a folder holding only its archive
    (d / "dee.py").write_text("dee")
    ada, bob, cy, dee = run(d).arrivals
    assert ada.path == str(d / "ada") and dee.path == str(d / "dee.py")  # as before
    assert (bob.name, files_of(bob.path)) == ("bob", {"bot.py": "bob"})
    assert (cy.name, files_of(cy.path)) == ("cy", {"bot.py": "cy"})
    assert Path(bob.path).parent == Path(unpack_root())


def test_a_refused_archive_leaves_the_student_out_with_the_reason_and_nothing_behind(tmp_path):
    d = tmp_path / "download"
    d.mkdir()
    zip_with(d / "evil_4411_99812_bot.zip", {"bot.py": "x"}, link="passwd")
    before = set(os.listdir(unpack_root()))
    (arrival,) = run(d).arrivals
    assert arrival.path == "" and arrival.problem is not None
    assert "download/evil_4411_99812_bot.zip: 'passwd' is a symbolic link" in arrival.problem
    assert "nothing of it was unpacked" in arrival.problem
    assert set(os.listdir(unpack_root())) == before  # no scratch folder, no half-made folder


def test_an_unchanged_download_finds_the_same_folder_and_a_changed_one_a_new_one(tmp_path):
    d = tmp_path / "download"
    d.mkdir()
    zip_with(d / "bensonben_4411_99812_bot.zip", {"ben/bot.py": "v1"})
    first = run(d).arrivals[0]
    again = run(d).arrivals[0]
    assert again.path == first.path and again.notes == first.notes  # what was said is said again
    zip_with(d / "bensonben_4411_99812_bot.zip", {"ben/bot.py": "v2"})
    changed = run(d).arrivals[0]
    assert changed.path != first.path and files_of(changed.path) == {"bot.py": "v2"}


def test_two_students_canvas_spells_alike_are_told_apart(tmp_path):
    d = tmp_path / "download"
    d.mkdir()
    (d / "kimjun_4412_99812_bot.py").write_text("one")
    (d / "kimjun_4499_99813_bot.py").write_text("two")
    names = [a.name for a in run(d).arrivals]
    assert names == ["kimjun (4412)", "kimjun (4499)"]


def test_a_link_in_a_platforms_download_is_skipped_and_said(tmp_path):
    d = tmp_path / "download"
    d.mkdir()
    secret = tmp_path / "secret.txt"
    secret.write_text("the teacher's")
    secret.chmod(0o600)
    (d / "bensonben_4411_99812_bot.py").write_text("ben")
    (d / "bensonben_4411_99813_notes.txt").symlink_to(secret)
    intake = run(d)
    (ben,) = intake.arrivals
    assert files_of(ben.path) == {"bot.py": "ben"}
    assert [s.shown for s in intake.skipped] == ["download/bensonben_4411_99813_notes.txt"]
    assert "skipped download/bensonben_4411_99813_notes.txt: a link" in "\n".join(intake.lines())
    assert secret.stat().st_mode & 0o777 == 0o600  # never touched through the link
