"""Property-based: whatever an arena file holds, loading it gives an ``Arena`` or an ``ArenaFileError``, never a
traceback; ``lastcard validate`` answers 0 or 2. Random text, random data, and mutations of good files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.arena.config import MAX_GAMES, ArenaFileError, parse_arena
from referee.arena.schedule import Planner, count_games
from referee.arena.schema import arena_schema
from referee.cli.main import cli

ROOT = Path(__file__).resolve().parents[2]
GOOD = [p.read_text() for p in sorted((ROOT / "arenas").glob("*.yaml"))] + [
    "name: t\nruleset: arcade\nseats: 3\nbots:\n  - builtin:hard\n  - builtin:random\n  - {name: mid, command: "
    "\"builtin:medium\"}\n",
    "seats: 3\nstages:\n  - {name: league, format: sampled, games: 3}\n  - {name: cup, format: knockout, entrants: 6,"
    " games: 3, advance: 1}\nbots: [builtin:random, builtin:easy, builtin:medium, builtin:hard, builtin:random,"
    " builtin:easy, builtin:hard]\n",
    "seats: 2\nformat: gauntlet\nchallengers: [hard]\nduplicate: true\ngames: 4\nbots: [builtin:hard, builtin:random,"
    " builtin:easy]\n",
]
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

#: Keys the schema knows, at the top level and in a stage, a bot and the limits: random data uses them.
KEYS = sorted(set(arena_schema()["properties"]) | {"command", "name", "cwd", "submissions", "path", "move_ms",
                                                   "strikes", "entrants", "build", "requires", "stacking"})


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> str:
    return str(tmp_path_factory.mktemp("fuzz"))


def load(text: str | dict, base: str) -> None:
    """Load; a loaded arena must count its games, and a small one must plan its first round."""
    try:
        arena = parse_arena(text, source="<fuzz>", base_dir=base)
    except ArenaFileError as exc:
        assert exc.problems and str(exc)
        return
    total = count_games(arena, len(arena.bots))
    names = {b.spec.name for b in arena.bots}
    held = sum(s.format.held(s, i, len(names), names) for i, s in enumerate(arena.stages))
    assert total >= 0 and 0 <= held <= MAX_GAMES  # a round robin's games are not held: only its tables count
    if total <= 500:
        Planner(arena, [b.spec.name for b in arena.bots], lambda games, names: list(names)).first()


scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**20, 10**20), st.floats(allow_nan=True),
                    st.text(max_size=30), st.sampled_from(["builtin:random", "builtin:hard", "knockout", "sampled",
                                                           "gauntlet", "auto", "strikes:2", "compact", "arcade"]))
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=6), st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=8), inner, max_size=6)),
    max_leaves=40)


@SETTINGS
@given(st.text(max_size=400))
def test_random_text_is_an_arena_or_a_problem(base, text):
    load(text, base)


@SETTINGS
@given(st.dictionaries(st.sampled_from(KEYS), values, max_size=10))
def test_random_data_is_an_arena_or_a_problem(base, data):
    load(data, base)
    load(yaml.safe_dump(data, allow_unicode=True), base)


@st.composite
def mutated(draw) -> str:
    """A good file with a few edits: bytes cut, text put in, lines swapped or repeated, values replaced."""
    text = draw(st.sampled_from(GOOD))
    for _ in range(draw(st.integers(1, 4))):
        lines = text.splitlines(keepends=True) or [""]
        op = draw(st.sampled_from(["cut", "insert", "swap", "repeat", "value"]))
        i = draw(st.integers(0, max(0, len(text) - 1)))
        if op == "cut":
            text = text[:i] + text[i + draw(st.integers(1, 20)):]
        elif op == "insert":
            text = text[:i] + draw(st.sampled_from(["*a", "&a ", ": ", "- ", "{", "]", "\t", "'", "!!binary ", "\n  ",
                                                    "!!python/object ", "2024-13-45", "\x00", "\ud800", "\ufeff"])
                                   | st.text(max_size=8)) + text[i:]
        elif op in ("swap", "repeat"):
            a, b = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
            if op == "swap":
                lines[a], lines[b] = lines[b], lines[a]
            else:
                lines.insert(b, lines[a])
            text = "".join(lines)
        else:
            value = draw(scalars)
            line = draw(st.integers(0, len(lines) - 1))
            if ":" in lines[line]:
                key = lines[line].split(":", 1)[0]
                lines[line] = f"{key}: {json.dumps(value) if not isinstance(value, str) else value}\n"
            text = "".join(lines)
    return text


@SETTINGS
@given(mutated())
def test_mutated_good_files_are_arenas_or_problems(base, text):
    load(text, base)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_validate_never_prints_a_traceback(base, text):
    path = Path(base) / "mutated.yaml"
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    res = CliRunner().invoke(cli, ["validate", str(path)])
    assert res.exit_code in (0, 2), (res.output, res.exception)
    assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)
    assert "Traceback" not in res.output
