"""Arena files: each kind of mistake gives its message (key path, line, found, allowed); good files load."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from referee.arena.config import ArenaFileError, arena_schema, load_arena, parse_arena, pool_problems
from referee.cli.main import cli
from referee.engine.rules import PRESETS
from referee.players import BUILTINS

ROOT = Path(__file__).resolve().parents[2]
ARENAS = ROOT / "arenas"

GOOD = """\
name: t
ruleset: arcade
seats: 3
bots:
  - builtin:hard
  - builtin:random
  - {name: mid, command: "builtin:medium"}
"""


def problems(text: str, tmp_path: Path) -> list[str]:
    path = tmp_path / "arena.yaml"
    path.write_text(text)
    with pytest.raises(ArenaFileError) as info:
        load_arena(str(path))
    return [str(p) for p in info.value.problems]


# Each case: a mistake, and a piece of the message it must give (key path, what was found, what is
# allowed, and the line).
MISTAKES = [
    pytest.param("ruleset: famly\nbots: [builtin:hard, builtin:random]\nseats: 2\n",
                 "ruleset: 'famly' is not one of compact, family, arcade (did you mean 'family'?) (line 1)",
                 id="unknown-ruleset"),
    pytest.param("bots: [builtin:hard, builtin:random]\nseats: 7\n",
                 "seats: 7 is more than the maximum, 6 (line 2)", id="too-many-seats"),
    pytest.param("bots: [builtin:hard, builtin:random]\nseats: 2\ngames: two\n",
                 "games: found a string ('two'); expected a whole number (line 3)", id="wrong-type"),
    pytest.param("bots: [builtin:hard, builtin:random]\nseats: 2\nformat: swiss\n",
                 "format: 'swiss' is not one of round_robin, gauntlet, sampled, knockout (line 3)",
                 id="unknown-format"),
    pytest.param("bots:\n  - builtin:hard\n  - name: x\n    cwd: .\n",
                 "bots[1].command: missing: give a command line", id="missing-command"),
    pytest.param("bots:\n  - builtin:hard\n  - name: x\n    comand: ./x\n",
                 "bots[1].comand: unknown key 'comand'; did you mean 'command'? allowed: name, command", id="typo-key"),
    pytest.param("bots: [builtin:hard, builtin:random]\nseats: 2\nseeds: 3\n",
                 "seeds: unknown key 'seeds'; did you mean 'seed'?", id="unknown-top-level-key"),
    pytest.param("bots: [builtin:hardd, builtin:random]\nseats: 2\n",
                 "bots[0]: unknown built-in player 'builtin:hardd' (did you mean builtin:hard?)",
                 id="unknown-builtin"),
    pytest.param("bots: [builtin:hard, builtin:random]\nseats: 2\noptions:\n  colour: red\n",
                 "options.colour: unknown option 'colour'; the options are: deck,", id="unknown-option"),
    pytest.param("ruleset: family\nbots: [builtin:hard, builtin:random]\nseats: 2\noptions: {target: 700}\n",
                 "options.target: option target=700 is not allowed in family; allowed: round, 200, 300, 500 (line 4)",
                 id="bad-option-value"),
    pytest.param("bots: [builtin:hard, builtin:random]\nseats: 2\npolicy: strikes:0\n",
                 "policy: 'strikes:0' is not forfeit or strikes:N (N at least 1) (line 3)", id="bad-policy"),
    pytest.param("bots: [builtin:hard, builtin:random]\nseats: 2\njobs: many\n",
                 "jobs: 'many' must be a whole number of worker processes (1 or more) or auto (line 3)", id="bad-jobs"),
    pytest.param("bots: [builtin:hard, builtin:random]\nseats: 2\nrecords: \"yes\"\n",
                 "records: found a string ('yes'); expected true or false (line 3)", id="bad-records"),
    pytest.param("bots: [builtin:hard, builtin:random]\nseats: 3\n",
                 "seats: 3 seats, but the arena has 2 bots; a table needs 3 (line 2)", id="too-few-bots"),
    pytest.param("bots: [builtin:hard, builtin:random]\nseats: 2\ngames: 3\nduplicate: true\n",
                 "games: 3 games is not a multiple of seats (2), which duplicate: true needs", id="duplicate-games"),
    pytest.param("bots: [builtin:hard, builtin:random]\nseats: 2\nformat: knockout\nadvance: 2\n",
                 "advance: 2 places advance from a table of 2: at most 1 may", id="knockout-advance"),
    pytest.param("bots: [builtin:hard, builtin:random, builtin:easy]\nseats: 2\nformat: gauntlet\n"
                 "challengers: [hardd]\n", "challengers[0]: 'hardd' is not a bot (did you mean 'hard'?)",
                 id="unknown-challenger"),
    pytest.param("bots: [builtin:hard, builtin:random]\nseats: 2\nchallengers: [hard]\n",
                 "challengers: only means something with format gauntlet; this stage's format is round_robin",
                 id="key-of-another-format"),
    pytest.param("bots:\n  - {name: a, command: builtin:hard}\n  - {name: a, command: builtin:random}\nseats: 2\n",
                 "bots[1].name: 'a' is also the name of bots[0]; bot names must differ (line 3)", id="duplicate-name"),
    pytest.param("bots:\n  - {command: ./x, cwd: nowhere}\n  - builtin:random\nseats: 2\n",
                 "bots[0].cwd: directory", id="missing-cwd"),
    pytest.param("bots:\n  - submissions: {path: 'students/*', command: './x'}\n  - builtin:random\nseats: 2\n",
                 "bots[0].submissions.path: 'students/*' matches nothing in", id="submissions-match-nothing"),
    pytest.param("bots:\n  - {command: '{pyhton} x.py'}\n  - builtin:random\nseats: 2\n",
                 "bots[0].command: unknown placeholder {pyhton} in '{pyhton} x.py'; allowed here: {python}",
                 id="unknown-placeholder"),
    pytest.param("bots: [builtin:hard, builtin:random]\nseats: 2\ngames: 2\ngames: 3\n",
                 "games: given twice (lines 3 and 4); keep one (line 4)", id="duplicate-key"),
    pytest.param("bots: [builtin:hard, builtin:random\n", "arena file: not valid YAML", id="yaml-syntax"),
    pytest.param("- builtin:hard\n", "arena file: expected a mapping of keys (name, ruleset, bots, ...), found a list",
                 id="not-a-mapping"),
    pytest.param("", "arena file: the file is empty", id="empty"),
    pytest.param("bots: [builtin:hard, builtin:random]\nseats: 2\nstages:\n  - {format: round_robin, entrants: 2}\n",
                 "stages[0].entrants: the first stage has no standings to take the top entrants from",
                 id="entrants-on-first-stage"),
    pytest.param("bots: [builtin:hard, builtin:random]\nstages:\n  - {name: a, seats: 2}\n  - {name: a, seats: 2}\n",
                 "stages[1].name: 'a' is also the name of stages[0]", id="duplicate-stage-name"),
]


@pytest.mark.parametrize("text, message", MISTAKES)
def test_each_mistake_names_where_what_and_what_is_allowed(tmp_path, text, message):
    found = problems(text, tmp_path)
    assert any(message in p for p in found), found


def test_every_mistake_is_reported_at_once_in_file_order(tmp_path):
    text = ("ruleset: famly\nseats: 7\noptions: {colour: red}\nbots:\n  - builtin:hardd\n"
            "  - {name: x, comand: ./x}\n")
    found = problems(text, tmp_path)
    assert [p.split(":")[0] for p in found] == ["ruleset", "seats", "options.colour", "bots[0]", "bots[1].comand",
                                                "bots[1].command"]
    assert [p.rsplit("(line ", 1)[1].rstrip(")") for p in found] == ["1", "2", "3", "5", "6", "6"]


def test_the_command_line_says_it_with_exit_code_2_and_no_traceback(tmp_path):
    path = tmp_path / "a.yaml"
    path.write_text("ruleset: famly\nbots: [builtin:hard, builtin:random]\nseats: 2\n")
    for command in (["validate", str(path)], ["arena", str(path), "--out", str(tmp_path / "out")]):
        res = CliRunner().invoke(cli, command)
        assert res.exit_code == 2, res.output
        assert "ruleset: 'famly' is not one of compact, family, arcade" in res.output
        assert "Traceback" not in res.output
    assert not (tmp_path / "out").exists()  # nothing ran


def test_a_good_file_resolves_names_paths_and_defaults(tmp_path):
    (tmp_path / "bots").mkdir()
    text = GOOD + "  - {command: '{python} bots/b.py', cwd: ., limits: {move_ms: 50}, env: {LEVEL: 3}}\n"
    path = tmp_path / "a.yaml"
    path.write_text(text)
    arena = load_arena(str(path))
    assert [b.spec.name for b in arena.bots] == ["hard", "random", "mid", "b"]
    b = arena.bots[3].spec
    assert b.cwd == str(tmp_path) and b.command.startswith(sys.executable)
    assert b.limits.move_ms == 50 and dict(b.env) == {"LEVEL": "3"}
    (stage,) = arena.stages
    assert (stage.ruleset, stage.seats, stage.format.name, stage.games) == ("arcade", 3, "round_robin", 3)
    assert arena.out == str(tmp_path / "results" / "t")
    assert dict(stage.options)["end"] == "tender"


def test_repeated_derived_names_are_numbered_not_refused(tmp_path):
    arena = parse_arena("bots: [builtin:random, builtin:random, builtin:hard]\nseats: 3\n", base_dir=str(tmp_path))
    assert [b.spec.name for b in arena.bots] == ["random", "random#2", "hard"]


def test_stages_take_the_top_level_keys_as_defaults(tmp_path):
    arena = parse_arena("ruleset: family\nseats: 2\ngames: 4\noptions: {stacking: true}\n"
                        "bots: [builtin:hard, builtin:random, builtin:easy]\n"
                        "stages:\n  - {name: a}\n  - {name: b, ruleset: arcade, seats: 3, options: {move_limit: 300},"
                        " entrants: 3}\n", base_dir=str(tmp_path))
    a, b = arena.stages
    assert (a.ruleset, a.seats, a.games, dict(a.options)["stacking"]) == ("family", 2, 4, True)
    assert (b.ruleset, b.seats, dict(b.options)["stacking"], dict(b.options)["move_limit"]) == ("arcade", 3, True, 300)


def test_pool_checks_run_again_when_bots_are_left_out(tmp_path):
    arena = parse_arena("bots: [builtin:hard, builtin:random, builtin:easy]\nseats: 3\n", base_dir=str(tmp_path))
    found = [str(p) for p in pool_problems(arena, ["hard", "random"], ["easy"])]
    assert found == ["seats: 3 seats, but the arena has 2 bots after leaving out easy; a table needs 3 (line 2)"]


def test_the_schema_ships_with_the_package_and_knows_the_rulesets_and_builtins():
    schema = arena_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$defs"]["ruleset"]["enum"] == list(PRESETS)
    assert all(f"builtin:{b}" for b in BUILTINS)


@pytest.mark.parametrize("name", sorted(p.name for p in ARENAS.glob("*.yaml") if p.name != "classroom.yaml"))
def test_the_shipped_arenas_validate(name):
    res = CliRunner().invoke(cli, ["validate", str(ARENAS / name)])
    assert res.exit_code == 0, res.output
    assert "total:" in res.output


def test_the_classroom_template_validates_next_to_a_folder_of_submissions(tmp_path):
    shutil.copy(ARENAS / "classroom.yaml", tmp_path / "classroom.yaml")
    for student in ("ada", "bob", "cy", "dee", "eve", "fay", "gus", "hal"):
        (tmp_path / "students" / student).mkdir(parents=True)
        (tmp_path / "students" / student / "bot.py").write_text("")
    arena = load_arena(str(tmp_path / "classroom.yaml"))
    assert {"ada", "hal"} <= {b.spec.name for b in arena.bots}
    assert [s.format.name for s in arena.stages] == ["sampled", "knockout"]


def test_one_line_per_known_problem_kind_in_json_schema_terms(tmp_path):
    # Whatever jsonschema calls a mistake, the message keeps the key path and the line.
    for text in ("bots: []\n", "bots: [builtin:hard, '']\n", "bots: [builtin:hard, 3]\n", "bootstrap: -1\nbots: [a]\n",
                 "limits: {move_ms: 0}\nbots: [a]\n", "build_timeout_s: 0\nbots: [a]\n"):
        for p in problems(text, tmp_path):
            assert "(line " in p and ":" in p, p
    assert json.dumps(problems("bots: []\n", tmp_path)) == json.dumps(["bots: has 0 items; at least 1 needed (line 1)"])


# ----------------------------------------------------------------------------------- hostile or broken files

BOMB = "".join(f"{a}: &{a} [{', '.join([f'*{p}'] * 9)}]\n" for p, a in zip("abcdefgh", "bcdefghi"))


def _write(tmp_path: Path, name: str, content: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(content)
    return path


BAD_FILES = [
    pytest.param(b"a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + BOMB.encode()
                 + b"bots: [builtin:random, builtin:easy]\n", "once its aliases (*name) are expanded", id="yaml-bomb"),
    pytest.param(b"a: &a [1, *a]\nbots: [builtin:random, builtin:easy]\n",
                 "refers to a mapping or list that contains it", id="recursive-alias"),
    pytest.param(b"bots: " + b"[" * 200 + b"]" * 200 + b"\n", "levels deep", id="deep-nesting"),
    pytest.param(b"description: " + b"x" * (2 << 20) + b"\nbots: [builtin:random, builtin:easy]\n",
                 "the file is larger than 1024 KiB", id="too-large"),
    pytest.param(b"name: caf\xe9\nbots: [builtin:random, builtin:easy]\n",
                 "not UTF-8 text: byte 0xe9 at column 10 cannot be decoded (the file is in another encoding: "
                 "Latin-1 or Windows-1252?); save the file as UTF-8 (line 1)",
                 id="not-utf8"),
    pytest.param(b"seed: 2024-13-45\nbots: [builtin:random, builtin:easy]\n", "not valid YAML: month must be in 1..12",
                 id="no-such-date"),
    pytest.param(b"name: a\x1fb\nbots: [builtin:random, builtin:easy]\n", "character #x001f is not allowed",
                 id="control-character"),
    pytest.param(b"seats: 4\nbots:\n"
                 + b"".join(b"  - {name: b%d, command: builtin:random}\n" % i for i in range(3000)),
                 "3,368,254,124,250 tables (a round robin of 3,000 bots: every table of 4 plays 4 games); format "
                 "round_robin holds all its tables at once, at most 1,000,000: use format: sampled",
                 id="absurd-round-robin"),
    pytest.param(b"seats: 2\nformat: sampled\ngames: 100000000\nbots: [builtin:random, builtin:easy]\n",
                 "100,000,000 games (2 bots playing 100,000,000 games each); format sampled plans all its games at "
                 "once, at most 1,000,000: lower games", id="absurd-sampled"),
    pytest.param(b"jobs: 100000\nbots: [builtin:random, builtin:easy]\nseats: 2\n",
                 "jobs: 100000 is more than the maximum, 256 (line 1)", id="jobs-beyond-reason"),
    pytest.param(b"out: taken\nbots: [builtin:random, builtin:easy]\nseats: 2\n",
                 "is a file, not a directory; give a directory (it is created if missing) (line 1)",
                 id="out-is-a-file"),
    pytest.param(b"out: /proc/results\nbots: [builtin:random, builtin:easy]\nseats: 2\n",
                 "a proc filesystem the kernel makes up, which cannot hold results", id="out-under-proc"),
]


@pytest.mark.parametrize("content, message", BAD_FILES)
def test_a_hostile_or_broken_file_is_a_problem_with_exit_2_and_no_traceback(tmp_path, content, message):
    (tmp_path / "taken").write_text("")
    path = _write(tmp_path, "arena.yaml", content)
    with pytest.raises(ArenaFileError) as info:
        load_arena(str(path))
    assert message in str(info.value)
    for command in (["validate", str(path)], ["arena", str(path), "--out", str(tmp_path / "out")]):
        res = CliRunner().invoke(cli, command)
        assert res.exit_code == 2, res.output
        assert message in res.output and "Traceback" not in res.output
        assert len(res.output) < 2_000  # never an echo of the file
    assert not (tmp_path / "out").exists()


def test_an_endless_file_is_read_no_further_than_the_cap():
    if not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero on this machine")
    res = CliRunner().invoke(cli, ["validate", "/dev/zero"])
    assert res.exit_code == 2 and "/dev/zero: 1 problem: arena file: a binary file (it starts with 00 00 00 00 00 00 " \
                                  "00 00), not an arena file; is it the right file?" in res.output


def test_validate_shows_a_long_description_cut_short(tmp_path):
    text = "description: |\n" + "".join(f"  line {i} " + "x" * 300 + "\n" for i in range(10))
    path = _write(tmp_path, "a.yaml", (text + "bots: [builtin:random, builtin:easy]\nseats: 2\n").encode())
    res = CliRunner().invoke(cli, ["validate", str(path)])
    assert res.exit_code == 0, res.output
    assert "  line 0 " in res.output and "line 3 " not in res.output
    assert "... (307 characters)" in res.output and "... (7 more lines)" in res.output


def test_a_short_description_is_shown_whole(tmp_path):
    path = _write(tmp_path, "a.yaml", b"description: Class contest, week 3\nbots: [builtin:random, builtin:easy]\n"
                                      b"seats: 2\n")
    res = CliRunner().invoke(cli, ["validate", str(path)])
    assert res.output.splitlines()[1] == "  Class contest, week 3"


LONG = "k" * 300_000
LONG_VALUES = [
    pytest.param(f"name: {LONG}\n", "name: is 300,000 characters long; at most 100 allowed", id="name"),
    pytest.param(f"bots: [builtin:random, 'builtin:{LONG}']\n", "bots[1]: is 300,008 characters long; at most 4,096",
                 id="command"),
    pytest.param(f"options: {{stacking: {LONG}}}\n", "options.stacking: is 300,000 characters long; at most 100",
                 id="option-value"),
    pytest.param(f"base_dir: {LONG}\n", "base_dir: is 300,000 characters long; at most 4,096", id="base-dir"),
    pytest.param("format: gauntlet\nchallengers: [" + "c" * 4000 + "]\n", "(cut short; ", id="long-message-cut"),
]


@pytest.mark.parametrize("text, message", LONG_VALUES)
def test_a_long_value_is_refused_without_being_echoed(tmp_path, text, message):
    if "bots:" not in text:
        text += "bots: [builtin:random, builtin:easy]\n"
    path = _write(tmp_path, "a.yaml", ("seats: 2\n" + text).encode())
    res = CliRunner().invoke(cli, ["validate", str(path)])
    assert res.exit_code == 2, res.output[:500]
    assert message in res.output and len(res.output) < 1_500
