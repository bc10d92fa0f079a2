"""Parameters: ``--param`` and OpenBench's pasted lines parsed, written back, put in a command; bad ones refused
with the value and the fix."""

from __future__ import annotations

import pytest

from referee.tune.params import (
    DEFAULT_R_END,
    Param,
    ParamError,
    check_command,
    check_names,
    fill,
    parse_lines,
    parse_option,
    placeholders,
    with_starts,
)


def test_an_option_of_whole_numbers_is_an_int_parameter_with_openbenchs_r_end():
    p = parse_option("keep=5,0,20,2")
    assert p == Param("keep", 5, 0, 20, 2, DEFAULT_R_END, False)
    assert p.kind == "int"


def test_a_decimal_point_makes_a_float_parameter_and_r_end_can_be_given():
    p = parse_option("aggr=0.5,0,1,0.1,0.01")
    assert (p.is_float, p.start, p.c_end, p.r_end) == (True, 0.5, 0.1, 0.01)


def test_openbenchs_pasted_lines_read_back_what_line_writes():
    text = "# a comment\nkeep, int, 5, 0, 20, 2, 0.002\n\naggr, float, 0.5, 0, 1, 0.1, 0.002  # trailing\n"
    params = parse_lines(text)
    assert [p.name for p in params] == ["keep", "aggr"]
    assert [p.kind for p in params] == ["int", "float"]
    assert parse_lines("\n".join(p.line() for p in params)) == params
    assert params[0].line() == "keep, int, 5, 0, 20, 2, 0.002"


def test_the_tuned_file_starts_where_the_tune_ended_rounded_for_an_int():
    params = [Param("keep", 5, 0, 20, 2), Param("aggr", 0.5, 0, 1, 0.1, is_float=True)]
    tuned = with_starts(params, {"keep": 7.6, "aggr": 1.7})
    # each value as the bot is given it: an int rounded, a float to a hundredth of its c_end
    assert [p.line() for p in tuned] == ["keep, int, 8, 0, 20, 2, 0.002", "aggr, float, 1.000, 0, 1, 0.1, 0.002"]


def test_fill_puts_each_value_as_the_bot_is_given_it():
    params = [Param("keep", 5, 0, 20, 2), Param("aggr", 0.5, 0, 1, 0.1, is_float=True)]
    assert fill("bot --keep {keep} --aggr {aggr} {{x}}", params, [7.4, 0.25]) == "bot --keep 7 --aggr 0.250 {x}"
    assert placeholders("bot --keep {keep} {{x}}") == ["keep"]


@pytest.mark.parametrize("text, words", [
    pytest.param("keep=5,0,20", "NAME=START,MIN,MAX,C_END", id="too-few"),
    pytest.param("keep5,0,20,2", "NAME=START,MIN,MAX,C_END", id="no-equals"),
    pytest.param("keep=five,0,20,2", "START 'five' is not a number", id="not-a-number"),
    pytest.param("keep=25,0,20,2", "START 25 is outside [0, 20]", id="start-outside"),
    pytest.param("keep=5,20,0,2", "MIN 20 is above MAX 0", id="min-above-max"),
    pytest.param("aggr=0.5,0,1,0", "C_END 0 must be above 0", id="float-c-zero"),
    pytest.param("keep=5,0,20,2,0", "R_END 0 must be above 0", id="r-zero"),
    pytest.param("2keep=5,0,20,2", "a name is letters", id="bad-name"),
    pytest.param("keep=nan,0,20,2", "finite", id="nan"),
])
def test_a_bad_option_says_what_is_wrong_with_the_value(text, words):
    with pytest.raises(ParamError) as info:
        parse_option(text)
    assert words in str(info.value)
    assert info.value.option == "param"


@pytest.mark.parametrize("line, words", [
    pytest.param("keep, int, 5, 0, 20, 2", "give 7 fields", id="six-fields"),
    pytest.param("keep, integer, 5, 0, 20, 2, 0.002", "must be int or float", id="bad-type"),
    pytest.param("keep, int, 50, 0, 20, 2, 0.002", "START 50 is outside", id="start-outside"),
])
def test_a_bad_line_names_its_file_and_line(line, words):
    with pytest.raises(ParamError) as info:
        parse_lines("ok, int, 1, 0, 2, 1, 0.002\n" + line, "p.txt")
    assert "p.txt, line 2" in str(info.value) and words in str(info.value)


def test_a_placeholder_without_a_parameter_and_a_parameter_without_a_placeholder_are_refused():
    params = [Param("keep", 5, 0, 20, 2)]
    with pytest.raises(ParamError, match=r"placeholder \{kep\} that no --param gives; the parameters are keep"):
        check_command("bot --keep {kep}", params)
    with pytest.raises(ParamError, match="'keep' appears nowhere in the bot command"):
        check_command("bot --keep 5", params)
    with pytest.raises(ParamError, match="broken placeholder"):
        check_command("bot --keep {keep", params)
    with pytest.raises(ParamError, match="given twice"):
        check_names(params * 2)
    with pytest.raises(ParamError, match="nothing to tune"):
        check_names([])


@pytest.mark.parametrize("c_end, value, shown", [
    (0.1, 5.977874513874443, "5.978"),   # the value: no longer longer than the unrounded one
    (10, 31.5123, "31.5"),
    (0.002, 0.0123456, "0.01235"),
    (250, 1234.56, "1235"),
    (0.1, -0.0001, "0.000"),            # never "-0.000"
])
def test_a_float_is_given_to_the_bot_to_a_hundredth_of_its_c_end(c_end, value, shown):
    p = Param("w", 0.0, -10_000, 10_000, c_end, is_float=True)
    assert p.shown(value) == shown
    assert fill("bot --w {w}", [p], [value]) == f"bot --w {shown}"
    assert p.line(value).split(", ")[2] == shown
    assert abs(float(shown) - value) <= c_end / 200 + 1e-12  # finer than the games can tell apart
