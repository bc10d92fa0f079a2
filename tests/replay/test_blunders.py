"""``lastcard blunders``: the bot's turns that differ from a reference player or break a named pattern, ranked by
the game's cost, each with ready ``replay --ask`` and ``--save-position`` commands (referee/replay/blunders.py).

Each rule is checked against the positions as ``replay --json`` shows them (what the seat was told), another path
to the same facts: every turn the rule names is flagged, and no other.
"""

from __future__ import annotations

import json
import shlex
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from referee.cli.main import cli
from referee.engine.cards import Card
from referee.engine.notation import decode_action
from tests.conftest import SAMPLES

BOTS = ["builtin:random", "builtin:hard", "builtin:medium", "builtin:easy"]


def run(*args: str) -> Any:
    return CliRunner().invoke(cli, list(args))


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """24 family games of four built-ins (played in process)."""
    out = tmp_path_factory.mktemp("blunders") / "out"
    res = run("match", *BOTS, "-r", "family", "-n", "24", "--seed", "5", "-j", "1", "--out", str(out))
    assert res.exit_code == 0, res.output
    return out


def blunders(folder: Path, *args: str) -> dict[str, Any]:
    res = run("blunders", str(folder), "--bot", "random", "--json", *args)
    assert res.exit_code == 0, res.output
    return json.loads(res.output)  # type: ignore[no-any-return]


def seat_turns(folder: Path, game: str, seat: int) -> list[dict[str, Any]]:
    res = run("replay", str(folder), game, "--json", "--seat", str(seat))
    assert res.exit_code == 0, res.output
    return json.loads(res.output)["turns"]  # type: ignore[no-any-return]


def games_of_random(folder: Path) -> list[tuple[str, int]]:
    out = []
    with open(folder / "games.jsonl") as fh:
        for line in fh:
            game = json.loads(line)
            out.append((game["game"], game["seating"].index("random")))
    return out


def _card(code: str) -> Card:
    return decode_action(code).cards[-1]


def expected(turn: dict[str, Any]) -> dict[str, set[str]]:
    """The rules a turn breaks, read from the request the seat was told: rule -> the answers that keep it."""
    request, legal, played = turn["request"], turn["legal"], turn["answer"]["code"]
    plays = [c for c in legal if decode_action(c).cards]
    out: dict[str, set[str]] = {}
    if len(legal) < 2:
        return out
    seats = len(request["hands"])
    nxt = (request["you"] + request["direction"]) % seats
    prev = (request["you"] - request["direction"]) % seats
    back = seats == 2 or request["hands"][prev] != 1  # a Reverse hands the turn to the other side
    stoppers = {c for c in plays if _card(c).rank in ("skip", "draw2", "wild4")
                or (back and _card(c).rank == "reverse")}
    if request["hands"][nxt] == 1 and stoppers and played not in stoppers:
        out["one-card"] = stoppers
    coloured = {c for c in plays if not _card(c).is_wild and _card(c).colour == request["colour"]}
    if decode_action(played).cards and _card(played).is_wild and coloured:
        out["wild-with-colour"] = coloured
    return out


def test_each_rule_flags_exactly_the_turns_that_break_it(folder: Path) -> None:
    found = blunders(folder, "--rule", "all")
    flagged = {(t["game"], t["turn"]): {r["rule"]: set(r["better"]) for r in t["reasons"]} for t in found["turns"]}
    want = {}
    for game, seat in games_of_random(folder):
        for turn in seat_turns(folder, game, seat):
            rules = expected(turn)
            if rules:
                want[(game, turn["turn"])] = rules
    assert want, "the games hold no broken rule: the test would prove nothing"
    assert {r for rules in want.values() for r in rules} == {"one-card", "wild-with-colour"}
    assert flagged == want


def test_against_a_builtin_flags_only_other_answers_and_ranks_by_cost(folder: Path) -> None:
    found = blunders(folder, "--against", "builtin:hard")
    assert found["against"] == "builtin:hard" and found["rules"] == []
    assert found["turns"]
    for t in found["turns"]:
        (reason,) = t["reasons"]
        assert reason["rule"] == "builtin:hard" and reason["better"][0] != t["played"]
        legal = next(x for x in seat_turns(folder, t["game"], t["seat"]) if x["turn"] == t["turn"])["legal"]
        assert reason["better"][0] in legal and t["played"] in legal
    costs = [t["cost"] for t in found["turns"]]
    assert costs == sorted(costs, reverse=True)
    assert costs[0] > costs[-1]  # the random bot won some games and lost others
    places = {t["place"] for t in found["turns"]}
    assert all(t["cost"] == (t["place"] - 1) / (t["seats"] - 1) for t in found["turns"]) and len(places) > 1


def test_lost_keeps_the_games_the_bot_did_not_win(folder: Path) -> None:
    every, lost = (json.loads(run("blunders", str(folder), "--bot", "hard", "--json", "--rule", "all", *extra).output)
                   for extra in ([], ["--lost"]))
    assert 0 < lost["games"] < every["games"]
    assert lost["turns"] == [t for t in every["turns"] if t["place"] > 1]


def test_the_same_player_as_reference_flags_nothing(folder: Path) -> None:
    """The built-in hard player asked in hard's own seats answers as it did: the positions line up."""
    res = run("blunders", str(folder), "--bot", "hard", "--against", "builtin:hard", "--json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["turns"] == []


def test_the_lines_are_ready_commands(folder: Path, tmp_path: Path) -> None:
    res = run("blunders", str(folder), "--bot", "random", "--rule", "one-card", "-n", "3",
              "--suite", str(tmp_path / "suite.yaml"))
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert lines[0].startswith("random: ") and "one-card" in lines[0]
    asks = [shlex.split(x.strip()) for x in lines if x.strip().startswith("lastcard replay") and "--ask" in x]
    saves = [shlex.split(x.strip()) for x in lines if "--save-position" in x]
    assert len(asks) == len(saves) == 3
    assert asks[0][asks[0].index("--ask") + 1] == "YOUR BOT COMMAND"  # a built-in has no command to ask
    for save in saves:
        done = run(*save[1:])
        assert done.exit_code == 0, done.output
    suite = (tmp_path / "suite.yaml").read_text()
    assert suite.count("accept") >= 3
    puzzles = run("puzzles", str(tmp_path / "suite.yaml"), "builtin:hard")
    assert "/3 positions passed" in puzzles.output, puzzles.output


@pytest.mark.parametrize(("args", "message"), [
    (["--bot", "nobody"], "no bot called 'nobody' played"),
    (["--bot", "random", "--against", "builtin:nope"], "unknown built-in player 'nope'"),
    (["--bot", "random", "--rule", "nope"], "'nope' is not one of"),
])
def test_bad_input_names_the_fix(folder: Path, args: list[str], message: str) -> None:
    res = run("blunders", str(folder), *args)
    assert res.exit_code == 2
    assert message in res.output


def test_a_folder_that_is_none(tmp_path: Path) -> None:
    res = run("blunders", str(tmp_path / "missing"), "--bot", "x")
    assert res.exit_code == 2 and "is not a folder" in res.output
    res = run("blunders", str(tmp_path), "--bot", "x")
    assert res.exit_code == 2 and "holds no games" in res.output


@pytest.mark.slow
def test_against_the_bots_own_command_flags_nothing(tmp_path: Path) -> None:
    """A deterministic bot asked again (sandboxed, as replay --ask asks it) answers as it did in every game."""
    (tmp_path / "bot").mkdir()
    for name in ("strong_bot.py", "botkit.py"):
        shutil.copy(SAMPLES / "python" / name, tmp_path / "bot")
    bot = "{python} " + str(tmp_path / "bot" / "strong_bot.py")
    out = tmp_path / "out"
    res = run("match", bot, "builtin:hard", "builtin:easy", "-r", "family", "-n", "6", "-j", "1", "--out", str(out))
    assert res.exit_code == 0, res.output
    res = run("blunders", str(out), "--bot", "strong_bot", "--against", bot, "--json")
    assert res.exit_code == 0, res.output
    found = json.loads(res.output)
    assert found["against"] == "strong_bot" and found["turns"] == []
    other = run("blunders", str(out), "--bot", "strong_bot", "--against", "builtin:random", "--json")
    assert json.loads(other.output)["turns"]  # a different player does differ: the comparison is live
    shutil.copy(SAMPLES / "python" / "random_bot.py", tmp_path / "bot")
    rival = "{python} " + str(tmp_path / "bot" / "random_bot.py")
    one, two = (run("blunders", str(out), "--bot", "strong_bot", "--against", rival, "--json", "-j", jobs)
                for jobs in ("1", "2"))
    assert one.exit_code == two.exit_code == 0, one.output + two.output
    turns = [json.loads(r.output)["turns"] for r in (one, two)]
    assert turns[0] and turns[0] == turns[1]  # side by side or not, the same list
