"""The names course platforms give a download's files, read back as each platform writes them
(referee/builds/download_names.py cites the platforms' code)."""

from __future__ import annotations

import pytest

from referee.builds.download_names import canvas_slug, read_name

CASES = [
    pytest.param("bensonben_4411_99812_bot.py", ("canvas", "4411", "bensonben", "bot.py", False, 99812),
                 id="canvas"),
    pytest.param("bensonben_LATE_4411_99812_bot.py", ("canvas", "4411", "bensonben", "bot.py", True, 99812),
                 id="canvas-late-after-the-name"),
    pytest.param("LATE_kimjun_4413_99814_bot", ("canvas", "4413", "kimjun", "bot", True, 99814),
                 id="canvas-late-first"),
    pytest.param("dandaniels_4414_99815_Bot.zip", ("canvas", "4414", "dandaniels", "Bot.zip", False, 99815),
                 id="canvas-zip"),
    pytest.param("martinzoé_4415_99816_my_bot_v2.py", ("canvas", "4415", "martinzoé", "my_bot_v2.py", False, 99816),
                 id="canvas-underscores-in-the-file"),
    pytest.param("LATE_anon_Xy12_99817_bot.py", ("canvas", "anon_Xy12", "anon_Xy12", "bot.py", True, 99817),
                 id="canvas-anonymous"),
    pytest.param("bensonben_4411_text.html", ("canvas", "4411", "bensonben", "text.html", False, 0),
                 id="canvas-text-entry"),
    pytest.param("Hana Ito_205_assignsubmission_file_", ("moodle", "205", "Hana Ito", "", False, 0),
                 id="moodle-folder"),
    pytest.param("Hana Ito_205_assignsubmission_file_bot.py", ("moodle", "205", "Hana Ito", "bot.py", False, 0),
                 id="moodle-flat"),
    pytest.param("Participant_205_assignsubmission_file_", ("moodle", "205", "Participant", "", False, 0),
                 id="moodle-blind"),
    pytest.param("ada", ("plain", "ada", "ada", "ada", False, 0), id="plain-folder"),
    pytest.param("last-card-2025-octocat", ("plain", "last-card-2025-octocat", "last-card-2025-octocat",
                                            "last-card-2025-octocat", False, 0), id="github-classroom"),
    pytest.param("zoé martin", ("plain", "zoé martin", "zoé martin", "zoé martin", False, 0), id="plain-spaces"),
]


@pytest.mark.parametrize("name,expected", CASES)
def test_download_names(name, expected):
    got = read_name(name)
    assert (got.platform, got.student, got.name, got.file, got.late, got.order) == expected


def test_one_student_of_one_platform_shares_a_key():
    assert read_name("bensonben_4411_99812_bot.py").key == read_name("bensonben_LATE_4411_99900_botkit.py").key
    assert read_name("bensonben_4411_99812_bot.py").key != read_name("Ben Benson_4411_assignsubmission_file_").key


@pytest.mark.parametrize("name,slug", [("Benson, Ben", "bensonben"), ("O'Brien, Pat", "obrienpat"),
                                       ("Martin, Zoé", "martinzoé"), ("Smith-Jones, Al", "smithjonesal")])
def test_canvas_slug_is_how_canvas_writes_the_sortable_name(name, slug):
    assert canvas_slug(name) == slug
