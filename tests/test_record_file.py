"""The run's one record file: appending, finding the last record of a game, and keeping only some games."""

from __future__ import annotations

import os

from referee.record_file import INDEX_FILE, RECORDS_FILE, append_record, has_records, keep_only, read_record, \
    recorded_ids


def record(game: str, n: int) -> list[dict]:
    return [{"t": "game", "game": game}, *({"t": "line", "k": k, "text": "x" * k} for k in range(n))]


def index_lines(out) -> list[str]:
    return (out / INDEX_FILE).read_text().splitlines()


def test_keep_only_keeps_the_last_record_of_each_kept_game_in_stored_order(tmp_path):
    append_record(str(tmp_path), "g1", record("g1", 3))
    append_record(str(tmp_path), "g2", record("g2", 5))
    append_record(str(tmp_path), "g3", record("g3", 2))
    append_record(str(tmp_path), "g1", record("g1-again", 4))  # played again after a crash: the last wins
    keep_only(str(tmp_path), {"g1", "g3"})
    assert [line.split()[0] for line in index_lines(tmp_path)] == ["g1", "g3"]
    assert read_record(str(tmp_path), "g1") == record("g1-again", 4)
    assert read_record(str(tmp_path), "g3") == record("g3", 2)
    assert read_record(str(tmp_path), "g2") is None and recorded_ids(str(tmp_path)) == {"g1", "g3"}
    # the file holds the two members and nothing else: offsets and lengths tile it
    spans = [tuple(map(int, line.split()[1:])) for line in index_lines(tmp_path)]
    assert spans[0][0] == 0 and spans[1][0] == spans[0][1]
    assert os.path.getsize(tmp_path / RECORDS_FILE) == spans[1][0] + spans[1][1]
    assert not [p for p in os.listdir(tmp_path) if p.endswith(".new")]


def test_keep_only_leaves_a_file_that_needs_nothing_dropped_untouched(tmp_path):
    for game in ("a", "b"):
        append_record(str(tmp_path), game, record(game, 2))
    before = (tmp_path / RECORDS_FILE).stat().st_mtime_ns, (tmp_path / RECORDS_FILE).read_bytes()
    keep_only(str(tmp_path), {"a", "b", "c"})
    assert ((tmp_path / RECORDS_FILE).stat().st_mtime_ns, (tmp_path / RECORDS_FILE).read_bytes()) == before


def test_keep_only_drops_a_member_cut_short_and_removes_an_empty_file(tmp_path):
    append_record(str(tmp_path), "a", record("a", 40))
    append_record(str(tmp_path), "b", record("b", 40))
    size = os.path.getsize(tmp_path / RECORDS_FILE)
    with open(tmp_path / RECORDS_FILE, "r+b") as fh:  # a killed run: b's member cut short
        fh.truncate(size - 10)
    keep_only(str(tmp_path), {"b"})
    assert not has_records(str(tmp_path)) and not (tmp_path / INDEX_FILE).exists()
    assert os.listdir(tmp_path) == []


def test_keep_only_keeps_memory_to_the_index(tmp_path):
    """The records are copied one at a time: the peak does not grow with what is kept."""
    import tracemalloc

    big = record("g", 2000)  # about 2 MB of text a game before compression
    for k in range(12):
        append_record(str(tmp_path), f"g{k}", big)
    tracemalloc.start()
    keep_only(str(tmp_path), {f"g{k}" for k in range(1, 12)})
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert read_record(str(tmp_path), "g11") == big
    assert peak < 1_000_000, peak  # measured 0.2 MB; reading the kept records back, as before, took 55 MB
