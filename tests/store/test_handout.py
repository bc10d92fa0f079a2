"""What a handout (report.html, bots/NAME.md, a bot's page) says about paths: none of the teacher's machine."""

from __future__ import annotations

from referee.store.handout import HERE, Handout, in_folder


def test_files_of_the_results_folder_are_named_relative_to_it_and_others_by_their_last_part() -> None:
    assert in_folder("/srv/class/results/c1/logs/ada.build.log", "/srv/class/results/c1") == "logs/ada.build.log"
    assert in_folder("/srv/class/results/c1", "/srv/class/results/c1") == HERE
    assert in_folder("/home/teacher/students/ada", "/srv/class/results/c1") == "ada"


def test_quoted_text_names_bots_folders_by_the_bot_and_no_other_absolute_path() -> None:
    handout = Handout("/srv/class/results/c1", {"/home/teacher/students/zoé martin": "zoé martin",
                                                "/root/.cache/lastcard/builds/ab12/bot": "cy"})
    text = ('File "/home/teacher/students/zoé martin/bot.py", line 3\n'
            "/root/.cache/lastcard/builds/ab12/bot/bot.c:4:5: error: x\n"
            "log: /srv/class/results/c1/logs/cy.build.log; lib /usr/lib/python3.11/json/decoder.py; 1/2 of http://a/b")
    shown = handout.text(text)
    assert shown == ('File "zoé martin/bot.py", line 3\ncy/bot.c:4:5: error: x\n'
                     "log: ./logs/cy.build.log; lib decoder.py; 1/2 of http://a/b")
    assert "/home/" not in shown and "/root/" not in shown and "/srv/" not in shown


def test_a_command_names_its_programs_by_name_and_its_own_files_relative_to_its_folder() -> None:
    handout = Handout("/srv/out")
    assert handout.command("/opt/venv/bin/python3 bot.py", "/home/t/ada") == "python3 bot.py"
    assert handout.command("/home/t/ada/run --fast", "/home/t/ada") == "./run --fast"
    assert handout.command("java -cp . Bot") == "java -cp . Bot"
