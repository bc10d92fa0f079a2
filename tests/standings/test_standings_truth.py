"""Standings that tell the truth: overlapping rating intervals shown as shared rank ranges, no infinite
bounds, columns explained for the ruleset played, the rule of the order stated, matrices at any size, and
the progress leader chosen by the final order's rule."""

from __future__ import annotations

import pytest

from referee.arena.runner import _LeaderBoard as _Tally
from referee.standings.model import StandingRow, Standings, rank_ranges, with_rank_ranges
from referee.standings.render import column_notes, format_rank, format_rating, text_table
from referee.standings.report_files import MD_MATRIX_LIMIT, standings_md
from referee.standings.results_doc import HeadToHead, ResultsDoc, order_rule, stage_rulesets


def row(bot: str, rank: int, rating: float | None, low: float | None, high: float | None, **extra) -> StandingRow:
    return StandingRow(rank=rank, bot=bot, games=10, wins=1, draws=0, avg_place=2.0, points=extra.pop("points", 0),
                       rating=rating, rating_low=low, rating_high=high, win_rate=0.1, win_low=0.0, win_high=0.4,
                       rank_best=rank, rank_worst=rank, **extra)


def format_table(rows: list[StandingRow]) -> str:
    return text_table(Standings(tuple(rows)))


@pytest.mark.parametrize("intervals, expected", [
    pytest.param([(1700, 1600, 1800), (1500, 1450, 1550), (1300, 1200, 1400)], [(1, 1), (2, 2), (3, 3)],
                 id="separated-each-own-rank"),
    pytest.param([(1700, 1500, 1800), (1600, 1450, 1750), (1300, 1200, 1400)], [(1, 2), (1, 2), (3, 3)],
                 id="top-two-overlap"),
    pytest.param([(1700, 1500, 1800), (1550, 1450, 1650), (1400, 1200, 1480)], [(1, 2), (1, 3), (2, 3)],
                 id="chain-not-transitive"),
    pytest.param([(1900, 1800, None), (1500, 1400, 1850), (1100, None, 1200)], [(1, 2), (1, 2), (3, 3)],
                 id="open-bounds-are-unbounded"),
])
def test_overlapping_intervals_share_a_rank_range(intervals, expected):
    rows = [row(f"b{i}", i + 1, *iv) for i, iv in enumerate(intervals)]
    assert rank_ranges(rows) == expected


def test_no_interval_means_no_claim_of_a_tie():
    rows = [row("a", 1, 1600, None, None), row("b", 2, 1590, None, None)]
    assert rank_ranges(rows) == [(1, 1), (2, 2)]


def test_bots_in_different_knockout_groups_never_tie():
    rows = [row("champ", 1, 1500, 1400, 1600), row("runner", 2, 1550, 1450, 1650), row("out", 3, 1560, 1460, 1660)]
    # The final's places decided champ and runner; "out" went out earlier: the overlap says nothing.
    groups = {"champ": (2, 1), "runner": (2, 2), "out": (1, 3)}
    assert rank_ranges(rows, groups) == [(1, 1), (2, 2), (3, 3)]
    # Level on the rounds, the rating decides, so the overlap is a tie.
    assert rank_ranges(rows, {"champ": (2, 1), "runner": (2, 1), "out": (1, 2)}) == [(1, 2), (1, 2), (3, 3)]


def test_rank_column_shows_the_range():
    rows = with_rank_ranges([row("a", 1, 1700, 1500, 1800), row("b", 2, 1600, 1450, 1750)])
    assert [format_rank(r) for r in rows] == ["1-2", "1-2"]
    table = format_table(rows)
    assert table.splitlines()[2].lstrip().startswith("1-2  a")


@pytest.mark.parametrize("low, high, text", [
    pytest.param(1850.2, None, "1936 [>=1850]", id="no-upper-bound"),
    pytest.param(None, 1990.0, "1936 [<=1990]", id="no-lower-bound"),
    pytest.param(1850.0, 2001.0, "1936 [1850, 2001]", id="both"),
    pytest.param(None, None, "1936", id="no-bootstrap"),
])
def test_ratings_never_print_infinity(low, high, text):
    shown = format_rating(row("a", 1, 1936.0, low, high))
    assert shown == text and "inf" not in shown


def doc_for(ruleset: str, bots: list[str], rows: list[StandingRow] = (), stages: list[dict] | None = None,
            rule: str | None = None) -> ResultsDoc:
    stages = stages or [{"name": "main", "format": "round_robin", "ruleset": ruleset, "options": {}, "seats": 4,
                         "games": 4, "duplicate": False, "rounds": []}]
    standings = Standings(tuple(rows), rule=rule or order_rule(stages, "rating"), rulesets=stage_rulesets(stages))
    return ResultsDoc(kind="arena", name="t", complete=True, seed=1, games=4, policy="forfeit", rank_by="rating",
                      standings=standings, head_to_head=HeadToHead.of([], bots), rating={}, stages=tuple(stages))


def test_arcade_drops_the_points_column_and_says_why():
    rows = [row("a", 1, 1600, 1500, 1700), row("b", 2, 1400, 1300, 1500)]
    doc = doc_for("arcade", ["a", "b"], rows)
    md = standings_md(doc)
    assert "| points |" not in md and "| points" not in md.splitlines()[6]
    assert any("no points column: arcade" in n for n in column_notes(doc.standings))
    assert "points" not in format_table(rows).splitlines()[0]


def test_a_scoring_ruleset_keeps_points_and_explains_them():
    rows = [row("a", 1, 1600, 1500, 1700, points=120), row("b", 2, 1400, 1300, 1500, points=40)]
    doc = doc_for("compact", ["a", "b"], rows)
    md = standings_md(doc)
    assert "| points |" in md
    notes = column_notes(doc.standings)
    assert any(n.startswith("points: each game's final match score") and "compact to 500" in n for n in notes)


def test_the_order_rule_names_the_knockout_then_the_rating():
    stages = [{"name": "league", "format": "sampled"}, {"name": "cup", "format": "knockout"}]
    rule = order_rule(stages, "rating")
    assert rule.index("round reached") < rule.index("knockout: cup") < rule.index("the rating")
    assert order_rule([{"name": "main", "format": "round_robin"}], "avg_place").startswith("by the average place")
    md = standings_md(doc_for("arcade", ["a"], [row("a", 1, 1500, 1400, 1600)], rule=rule))
    assert f"Order: {rule}." in md


def test_a_large_pool_keeps_its_matrix_in_the_csv_and_says_so():
    names = [f"bot{i}" for i in range(MD_MATRIX_LIMIT + 1)]
    rows = [row(n, i + 1, 1500, 1400, 1600) for i, n in enumerate(names)]
    md = standings_md(doc_for("arcade", names, rows))
    assert "## Head to head" in md and "head_to_head.csv" in md
    small = standings_md(doc_for("arcade", names[:3], rows[:3]))
    assert "| | bot0 | bot1 | bot2 |" in small


class _Planner:
    def __init__(self, order: list[str]) -> None:
        self.order = order
        self.calls = 0

    def final_order(self, games):
        self.calls += 1
        return list(self.order)


def test_the_progress_leader_is_the_final_orders_first():
    # "fast" has the best average place, but the final order (a knockout, say) puts "champ" first.
    finished = {"g1": "a finished game"}
    planner = _Planner(["champ", "fast"])
    tally = _Tally(planner, finished)
    assert tally.leader() == "champ"
    planner.order = ["fast", "champ"]
    assert tally.leader() == "champ"  # not refitted yet: at most once a second
    assert tally.leader(force=True) == "fast" and planner.calls == 2


def test_a_forfeited_game_adds_no_points():
    """The seat of a bot that forfeited is played on by a stand-in (the first legal action), which may win the match:
    its score is not the bot's (a bot that never started once showed 1080 points beside a winner's 57)."""
    from referee.standings.model import Tally
    from referee.store.results import GameResult

    def game(gid: str, scores: list[int], forfeited: list[int]) -> GameResult:
        return GameResult.from_json({"game": gid, "seed": 1, "ruleset": "compact", "seating": ["bot", "ok"],
                                     "placements": [2, 1] if forfeited else [1, 2], "game_placements": [1, 2],
                                     "scores": scores, "hand_points": [0, 30], "reason": "target", "winner": 0,
                                     "rounds": 3, "moves": 10, "decisions": 40, "faults": [],
                                     "forfeited": forfeited})

    tally = Tally(["bot", "ok"]).extend([game("g1", [559, 0], [0]), game("g2", [500, 80], [])])
    rows = {r.bot: r for r in tally.rows()}
    assert rows["bot"].points == 500 and rows["ok"].points == 80
