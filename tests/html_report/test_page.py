"""report.html without a browser: what the page holds, that it is self-contained, and its errors."""

from __future__ import annotations

import html
import json
import re
import shutil
import sys

import pytest
from click.testing import CliRunner

from referee.cli.main import cli
from referee.engine.notation import rebuild
from referee.html_report import ReportError, write_report
from referee.html_report.tape import tape
from referee.store.game_record import load
from tests.support.replaydata import small_results_dir
from tests.support.tiers import starts_processes


@pytest.fixture(scope="module")
@starts_processes
def results(tmp_path_factory):
    return small_results_dir(tmp_path_factory.mktemp("report") / "out")


@pytest.fixture(scope="module")
def page(results):
    return open(write_report(str(results)), encoding="utf-8").read()


def data_of(page: str) -> dict:
    return json.loads(re.search(r"<script type='application/json' id=lc-data>(.*?)</script>", page, re.S).group(1))


def test_the_page_loads_nothing_from_anywhere(page):
    assert not re.search(r"<(link|img|iframe)\b", page)
    assert not re.search(r"\bsrc\s*=", page)
    assert not re.search(r"(href|url\()\s*=?\s*['\"]?(https?:)?//", page)
    assert "import(" not in page and "fetch(" not in page
    # A long run's page adds shard scripts, named relative to it: the folder beside it, never the network.
    assert "setAttribute('src', file)" in page and "report_files/" not in page  # this page is short: no shards


def test_standings_and_chart_show_every_bot_with_its_interval(page, results):
    doc = json.load(open(results / "results.json"))
    table = page.split("<table class=standings>", 1)[1].split("</table>", 1)[0]
    chart = page.split("<svg class=chart", 1)[1].split("</svg>", 1)[0]
    for row in doc["standings"]:
        assert f"<td class=bot>{row['bot']}</td>" in table
        if row["rating"] is not None:
            assert f">{row['bot']}</text>" in chart
    assert chart.count("class=interval") == sum(r["rating"] is not None for r in doc["standings"])


def test_head_to_head_cells_state_the_share_ahead(page, results):
    h2h = json.load(open(results / "results.json"))["head_to_head"]
    i, j = 0, 1
    share = 100 * h2h["ahead"][i][j] / h2h["meetings"][i][j]
    assert (f"{h2h['bots'][i]} ahead of {h2h['bots'][j]} in {h2h['ahead'][i][j]} of {h2h['meetings'][i][j]} games'>"
            f"{share:.0f}%") in page


def test_each_fault_shows_request_answer_stderr_and_command(page, results):
    section = page.split("<section id=faults>", 1)[1].split("</section>", 1)[0]
    line = next(json.loads(x) for x in open(results / "games.jsonl") if json.loads(x)["game"] == "g0007")
    fault = line["faults"][0]
    assert "misbehave</b>: 4 faults (illegal 4)" in section
    assert "lastcard replay . g0007 --seat 0" in section and str(results) not in section  # run in the folder
    sent = fault["line"].replace('"', "&quot;")
    assert sent in section
    # The rebuilt request: the turn message with the hand the bot held and the request id it was sent.
    request = re.search(r"<p>The request:</p><pre>(.*?)</pre>", section).group(1).replace("&quot;", '"')
    request = json.loads(request)
    assert request["type"] == "turn" and request["id"] == fault["request_id"] and request["legal"]
    stored = load(str(results), "g0007").stored
    _, frames = rebuild(stored, frames=True)
    turn = int(re.search(r"seat 0, turn (\d+):", section).group(1))
    assert frames[turn].seat == 0 and request["hand"] == list(frames[turn].hands[0])
    # and the command that puts the author's bot of today at that turn (replay --ask: tests/replay/test_ask.py)
    assert f"lastcard replay . g0007 --seat 0 --turn {turn} --ask &quot;YOUR BOT COMMAND&quot;" in section


def test_a_fault_shows_the_tail_of_the_bots_stderr(results, tmp_path):
    target = tmp_path / "copy"
    shutil.copytree(results, target)
    (target / "logs" / "misbehave.stderr.log").write_text("".join(f"line {i}\n" for i in range(100)) + "Boom <here>\n")
    page = open(write_report(str(target)), encoding="utf-8").read()
    tail = re.search(r"<pre class=stderr>(.*?)</pre>", page, re.S).group(1)
    assert tail.endswith("line 99\nBoom &lt;here&gt;") and "line 80\n" not in tail


def test_every_game_is_in_the_index_with_its_tape(page, results):
    data = data_of(page)
    lines = [json.loads(x) for x in open(results / "games.jsonl")]
    tapes = re.search(r"<script type='text/plain' id=lc-tapes>(.*?)</script>", page, re.S).group(1).split("#")
    assert [row[0] for row in data["games"]] == [line["game"] for line in lines]
    assert len(tapes) == len(lines)
    for line, text in zip(lines, tapes):
        stored = load(str(results), line["game"]).stored
        assert text == tape(stored)
        assert len(text.split("\n")) == len(stored.actions.split()) + 1
    faulty = {row[0]: row[8] for row in data["games"] if row[8]}
    assert set(faulty) == {"g0007", "g0008"} and len(faulty["g0008"]) == 3


def test_tape_steps_follow_the_frames(results):
    """The tape's heads are the frames' seat to act and action; each step's events match the frame's."""
    for game_id in ("g0001", "g0003", "g0007"):
        stored = load(str(results), game_id).stored
        _, frames = rebuild(stored, frames=True)
        steps = tape(stored).split("\n")
        for frame, step in zip(frames, steps):
            head = step.split("~")[0]
            assert head == ("-" if frame.action is None else f"{frame.seat}{stored.actions.split()[frame.turn]}")
            draws = [e for e in frame.events if e["kind"] == "draw"]
            assert step.count("~W") == len(draws)


def test_results_without_actions_use_their_records(results, tmp_path):
    target = tmp_path / "old"
    shutil.copytree(results, target)
    lines = [json.loads(x) for x in open(target / "games.jsonl")]
    (target / "games.jsonl").write_text("".join(json.dumps({k: v for k, v in line.items() if k != "actions"}) + "\n"
                                                for line in lines))
    page = open(write_report(str(target)), encoding="utf-8").read()
    data = data_of(page)
    recorded = {p.stem for p in (target / "records").iterdir()}
    assert len(data["problems"]) == len(lines) - len(recorded)
    assert all("no actions" in problem for problem in data["problems"])


def test_report_command_writes_the_page_and_says_where(results, tmp_path):
    out = CliRunner().invoke(cli, ["report", str(results), "-o", str(tmp_path / "r.html")])
    assert out.exit_code == 0, out.output
    assert f"report: {tmp_path / 'r.html'}" in out.output and (tmp_path / "r.html").stat().st_size > 10_000


def test_a_directory_that_is_not_a_results_directory_is_refused(tmp_path):
    with pytest.raises(ReportError, match="neither results.json nor games.jsonl"):
        write_report(str(tmp_path))
    out = CliRunner().invoke(cli, ["report", str(tmp_path / "missing")])
    assert out.exit_code == 2 and "no such directory" in out.output


def test_a_game_lost_with_its_worker_is_listed_as_not_played(results, tmp_path):
    target = tmp_path / "lost"
    shutil.copytree(results, target)
    lines = [json.loads(x) for x in open(target / "games.jsonl")]
    lines.append({**lines[0], "game": "g0099", "reason": "lost", "actions": "", "decisions": 0, "moves": 0,
                  "faults": [{"kind": "crash", "message": "the worker died in this game, twice", "seat": 0,
                              "bot": lines[0]["seating"][0]}]})
    (target / "games.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    data = data_of(open(write_report(str(target)), encoding="utf-8").read())
    row = data["games"][-1]
    assert row[0] == "g0099" and "not played" in row[9] and data["problems"] == []
    out = CliRunner().invoke(cli, ["replay", str(target), "g0099"])
    assert out.exit_code == 2 and "was not played" in out.output and "twice" in out.output


@pytest.mark.slow
def test_a_fault_shows_the_stderr_of_its_own_game(tmp_path):
    """Each fault carries the bot's stderr from that game only (the log is split at its game marks)."""
    from click.testing import CliRunner

    from referee.cli.main import cli

    bot = tmp_path / "noisy.py"
    bot.write_text(
        "import json, sys\ngame = None\nturns = 0\n"
        "for line in sys.stdin:\n"
        "    msg = json.loads(line)\n"
        "    if msg['type'] == 'hello':\n        print(json.dumps({'type': 'ready', 'name': 'noisy'}), flush=True)\n"
        "    elif msg['type'] == 'start':\n        game = msg['game']\n        turns = 0\n"
        "    elif msg['type'] == 'turn':\n"
        "        turns += 1\n"
        "        print('thinking in', game, file=sys.stderr, flush=True)\n"
        "        if game == 'g0002' and turns == 2:\n"
        "            print('about to crash in', game, file=sys.stderr, flush=True)\n"
        "            sys.exit(9)\n"
        "        print(json.dumps(msg['legal'][0]), flush=True)\n"
        "    elif msg['type'] == 'quit':\n        break\n")
    out = tmp_path / "out"
    res = CliRunner().invoke(cli, ["match", "-r", "arcade", "-n", "2", "--sandbox", "none", "--out", str(out),
                                   f"{sys.executable} {bot}", "builtin:easy"])
    assert res.exit_code == 0, res.output
    page = (out / "report.html").read_text()
    assert "Its stderr in game g0002" in page
    section = page[page.index("Its stderr in game g0002"):]
    section = section[:section.index("</pre>")]
    assert "about to crash in g0002" in section and "thinking in g0002" in section
    assert "g0001" not in section


@pytest.mark.parametrize("value, want", [
    pytest.param(2**53 - 1, 2**53 - 1, id="largest-exact"),
    pytest.param(2**53, str(2**53), id="first-inexact"),
    pytest.param(1961727899977367246, "1961727899977367246", id="a-game-seed"),
    pytest.param(-(2**53), str(-(2**53)), id="negative"),
    pytest.param(True, True, id="bool-stays"),
    pytest.param(0.5, 0.5, id="float-stays"),
    pytest.param({"seed": 2**60, "ids": [1, 2**64], "t": (3, 2**54)}, {"seed": str(2**60), "ids": [1, str(2**64)],
                                                                      "t": [3, str(2**54)]}, id="nested"),
])
def test_integers_javascript_cannot_hold_reach_the_page_as_strings(value, want):
    from referee.html_report.page import js_exact

    assert js_exact(value) == want


def test_the_page_data_carries_big_seeds_and_ids_as_exact_strings(results, tmp_path):
    target = tmp_path / "big"
    shutil.copytree(results, target)
    lines = [json.loads(x) for x in open(target / "games.jsonl")]
    lines[0]["seed"] = 1961727899977367246
    (target / "games.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    data = data_of(open(write_report(str(target)), encoding="utf-8").read())
    assert data["games"][0][3] == "1961727899977367246"
    assert all(isinstance(row[0], str) for row in data["games"])


@pytest.mark.parametrize("ids, want", [
    pytest.param(["g0003", "g0001", "g0002"], ["g0001", "g0002", "g0003"], id="finishing-order"),
    pytest.param(["g10", "g9", "g100"], ["g9", "g10", "g100"], id="numbers-as-numbers"),
    pytest.param(["b2", "a10", "a9"], ["a9", "a10", "b2"], id="prefix-first"),
])
def test_games_are_in_id_order(ids, want):
    from referee.html_report.page import in_id_order

    assert [line["game"] for line in in_id_order([{"game": g} for g in ids])] == want


LONG = [f"{kind}-player-with-a-rather-long-name-{i}" for i, kind in enumerate(["random", "easy"] * 3)]


@pytest.mark.parametrize("ruleset, names, want", [
    pytest.param("family", ["hard", "medium", "random"], "Match: family, hard vs medium vs random", id="three"),
    pytest.param("", ["a", "b"], "Match: a vs b", id="no-ruleset"),
    pytest.param("compact", LONG, "Match: compact, 6 bots: random-p…-name-0, easy-pla…-name-1 and 4 more",
                 id="six-long-names"),
    pytest.param("arcade", ["alpha-beta-gamma-delta"] * 2 + ["x"],
                 "Match: arcade, alpha-beta-gamma-delta vs alpha-beta-gamma-delta vs x", id="fits-uncut"),
])
def test_a_match_title_names_its_ruleset_and_bots(ruleset, names, want):
    from referee.standings.results_doc import TITLE_WIDTH, match_title

    title = match_title(ruleset, names)
    assert title == want and len(title) <= TITLE_WIDTH


def test_stages_without_rounds_in_results_take_them_from_the_games(results):
    """An interrupted arena's results.json may not list a round yet: the games it played still show."""
    from referee.html_report.tally import stage_rounds as _stage_rounds

    lines = [{"game": f"g{i}", "stage": stage, "round": number, "seating": seats}
             for i, (stage, number, seats) in enumerate([("league", 1, ["a", "b"]), ("league", 1, ["b", "c"]),
                                                         ("cup", 1, ["a", "c"]), ("cup", 2, ["a", "b"])])]
    stages = _stage_rounds({"stages": [{"name": "league", "format": "sampled", "ruleset": "compact",
                                        "rounds": [{"round": 1, "label": "league", "tables": 2, "games": 2}]},
                                       {"name": "cup", "format": "knockout", "ruleset": "compact",
                                        "rounds": [{"round": 1, "label": "cup round 1", "tables": 1, "games": 1,
                                                    "advanced": ["a"]}]}]}, lines)
    assert [(s.name, [(r.number, r.label, r.games, r.players, r.advanced) for r in s.rounds]) for s in stages] == [
        ("league", [(1, "league", 2, ("a", "b", "c"), None)]),
        ("cup", [(1, "cup round 1", 1, ("a", "c"), ("a",)), (2, "cup round 2", 1, ("a", "b"), None)])]


@pytest.mark.slow
def test_a_match_report_names_its_house_options(tmp_path):
    out = tmp_path / "house"
    res = CliRunner().invoke(cli, ["match", "-r", "family", "-o", "stacking=true", "-o", "target=200", "-n", "1",
                                   "--out", str(out), "builtin:easy", "builtin:random"])
    assert res.exit_code == 0, res.output
    page = (out / "report.html").read_text(encoding="utf-8")
    assert "<h1>Match: family, easy vs random</h1>" in page
    assert "house options: stacking true, target 200" in page


@pytest.mark.parametrize("fault, want", [
    ({"kind": "startup", "request_type": "hello", "request_id": None}, "(the hello message)"),
    ({"kind": "crash", "request_type": "start", "request_id": 4}, "(the start message, request 4)"),
])
def test_a_fault_outside_a_turn_names_its_message(tmp_path, fault, want):
    """A bot that never answers hello is shown the message it got, not "(hello request None)"."""
    from referee.replay.requests import fault_request as _fault_request

    assert _fault_request(str(tmp_path), {"game": "g0001", "faults": [fault]}, fault) == (None, want)


def test_a_fault_shows_the_request_exactly_as_the_kept_record_has_it(page, results):
    """A game with a fault keeps its record, so the page quotes the request the bot got, clock and id included."""
    record = [json.loads(x) for x in open(results / "records" / "g0007.jsonl")]
    line = next(json.loads(x) for x in open(results / "games.jsonl") if json.loads(x)["game"] == "g0007")
    fault = line["faults"][0]
    sent = next(e["line"] for e in record if e["t"] == "out" and e["seat"] == fault["seat"]
                and f'"id":{fault["request_id"]},' in e["line"] and '"type":"turn"' in e["line"])
    section = page.split("<section id=faults>", 1)[1].split("</section>", 1)[0]
    assert '"time_left_ms"' in sent and html.escape(sent, quote=True) in section


def test_a_long_run_replays_its_first_games_and_those_with_faults_only(results, tmp_path, monkeypatch):
    """Writing a long run's page replays a bounded number of games (the first ``taped_games``, and
    ``taped_faulted`` more with faults): the others' rows carry their turns, counted from their actions, and no
    tape, and the page says how to replay them."""
    from referee.html_report import rows as page_module
    from tests.support.replaydata import write_results_dir

    lines = [json.loads(line) for line in open(results / "games.jsonl")]
    clean = [line for line in lines if not line["faults"]]
    faulty = next(line for line in lines if line["faults"])
    many = [{**clean[i % len(clean)], "game": f"x{i:04d}"} for i in range(130)]
    many[100] = {**faulty, "game": "x0100"}
    many[110] = {**faulty, "game": "x0110"}
    out = write_results_dir(tmp_path / "long", many)
    replayed = []
    monkeypatch.setattr(page_module, "tape", lambda stored: replayed.append(1) or tape(stored))
    write_report(str(out), inline_games=50, sample_games=20, shard_games=40, taped_games=30, taped_faulted=1)
    assert len(replayed) == 31
    rows, tapes = [], []
    for shard in sorted((out / "report_files").iterdir()):
        m = re.fullmatch(r"lastcardShard\((.*),(\"[^\"]*\"),(\".*\")\);\n", shard.read_text(), re.S)
        rows += json.loads(m.group(1))
        tapes += json.loads(m.group(2)).split("#")
    by_id = {row[0]: (row, text) for row, text in zip(rows, tapes)}
    assert by_id["x0029"][1] and by_id["x0100"][1] and by_id["x0100"][0][8]  # replayed: its faults' turns
    assert not by_id["x0030"][1] and not by_id["x0110"][1]
    assert by_id["x0031"][0][7] == len(many[31]["actions"].split())  # the turns the replay would step through
    data = data_of((out / "report.html").read_text())
    assert data["untaped"].startswith("the page replays the first 30 games") and "lastcard replay" in data["untaped"]


def test_the_page_is_the_same_whatever_the_number_of_processes_replaying_the_games(results, tmp_path):
    # A sharded page, a game that cannot be replayed and one lost with its worker: every kind of row.
    target = tmp_path / "jobs"
    shutil.copytree(results, target)
    lines = [json.loads(x) for x in open(target / "games.jsonl")]
    lines.append({**lines[0], "game": "g0098", "actions": "zz"})  # not a valid action: a problem, not a crash
    lines.append({**lines[0], "game": "g0099", "reason": "lost", "actions": "", "decisions": 0, "moves": 0})
    (target / "games.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    pages = {}
    for jobs in (1, 3):
        path = write_report(str(target), str(tmp_path / f"page{jobs}.html"), inline_games=3, sample_games=2,
                            shard_games=2, jobs=jobs)
        shards = sorted((tmp_path / f"page{jobs}_files").iterdir())
        pages[jobs] = (open(path, encoding="utf-8").read().replace(f"page{jobs}_files", "X"),
                       [p.read_text() for p in shards])
    assert pages[1] == pages[3]
    data = data_of(pages[1][0])
    assert any("g0098" in p for p in data["problems"]) and data["total"] == len(lines)
    # With a bounded replay (a long run's page), the rows left without a tape come out the same too.
    bounded = [write_report(str(target), str(tmp_path / f"bounded{jobs}.html"), inline_games=3, sample_games=2,
                            shard_games=2, taped_games=2, taped_faulted=1, jobs=jobs) for jobs in (1, 3)]
    texts = [open(path, encoding="utf-8").read().replace(f"bounded{jobs}_files", "X")
             for path, jobs in zip(bounded, (1, 3))]
    assert texts[0] == texts[1] and data_of(texts[0])["untaped"]
    assert [p.read_text() for p in sorted((tmp_path / "bounded1_files").iterdir())] == \
        [p.read_text() for p in sorted((tmp_path / "bounded3_files").iterdir())]
