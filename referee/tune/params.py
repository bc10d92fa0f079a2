"""A tuned bot's parameters: parsed from ``--param`` or from OpenBench's pasted lines, written back, put in a command.

A parameter is ``NAME, int|float, START, MIN, MAX, C_END, R_END`` as OpenBench pastes it; on the command line
``--param NAME=START,MIN,MAX,C_END[,R_END]`` (an ``int`` unless a number has a decimal point). The bot's
command names each one as a placeholder, ``"python3 bot.py --keep {keep}"``, so a bot in any language is tuned
without a protocol change.
"""

from __future__ import annotations

import math
import re
import string
from dataclasses import dataclass, replace
from typing import Iterable, Mapping, Sequence

from referee.errors import OptionError
from referee.inputs.files import read_text
from referee.inputs.kinds import PARAMS
from referee.inputs.problems import InputFileError

#: OpenBench's usual final step when a ``--param`` gives none.
DEFAULT_R_END = 0.002
#: The most of a line a message quotes.
SHOWN = 80
#: The most places a float parameter is given to its bot.
MAX_DECIMALS = 12
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class ParamError(OptionError, ValueError):
    """A parameter that cannot be tuned; ``option`` names the option at fault (``param``, ``params``...)."""


@dataclass(frozen=True)
class Param:
    """One tuned number: where it starts, its bounds, its final perturbation ``c_end`` and final step ``r_end``."""

    name: str
    start: float
    min: float
    max: float
    c_end: float
    r_end: float = DEFAULT_R_END
    is_float: bool = False

    def __post_init__(self) -> None:
        where = f"parameter {self.name!r}"
        if not _NAME.fullmatch(self.name):
            raise ParamError(f"{where}: a name is letters, digits and _ (not starting with a digit), as the "
                             f"placeholder {{name}} in the bot's command", "param")
        if not all(math.isfinite(v) for v in (self.start, self.min, self.max, self.c_end, self.r_end)):
            raise ParamError(f"{where}: every number must be finite", "param")
        if self.min > self.max:
            raise ParamError(f"{where}: MIN {_num(self.min)} is above MAX {_num(self.max)}: swap them", "param")
        if not self.min <= self.start <= self.max:
            raise ParamError(f"{where}: START {_num(self.start)} is outside [{_num(self.min)}, {_num(self.max)}]: "
                             "give a START within the bounds", "param")
        if self.c_end <= 0 if self.is_float else self.c_end < 0:
            raise ParamError(f"{where}: C_END {_num(self.c_end)} must be above 0 (the perturbation of the last "
                             "iteration, in the parameter's units)", "param")
        if self.r_end <= 0:
            raise ParamError(f"{where}: R_END {_num(self.r_end)} must be above 0 (OpenBench's usual is 0.002)",
                             "param")

    @property
    def kind(self) -> str:
        return "float" if self.is_float else "int"

    def clip(self, value: float) -> float:
        return min(self.max, max(self.min, value))

    @property
    def decimals(self) -> int:
        """A float's places as the bot is given it: a hundredth of ``c_end`` (finer than the games can tell apart;
        at most ``MAX_DECIMALS``). An int has none."""
        if not self.is_float:
            return 0
        return min(MAX_DECIMALS, max(0, math.ceil(-math.log10(self.c_end / 100))))

    def shown(self, value: float) -> str:
        """The value as the bot is given it, the one rounding every output uses (the command, trajectory.csv,
        tuned.txt, the terminal, report.html): an int rounded (as OpenBench's optimal values), a float to
        ``decimals`` places."""
        if not self.is_float:
            return str(int(round(value)))
        text = f"{value:.{self.decimals}f}"
        return "0" + text[2:] if text.startswith("-0") and not text.strip("-0.") else text

    def line(self, start: float | None = None) -> str:
        """OpenBench's pasted line, with ``start`` in place of the start (the tuned value, for the next tune): the
        value as the bot is given it."""
        value = self.start if start is None else start
        return ", ".join([self.name, self.kind, self.shown(value), _num(self.min), _num(self.max), _num(self.c_end),
                          _num(self.r_end)])


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() and abs(value) < 1e15 else repr(float(value))


def _number(text: str, what: str, where: str, option: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ParamError(f"{where}: {what} {text.strip()!r} is not a number", option) from None
    return value


def parse_option(text: str) -> Param:
    """``--param NAME=START,MIN,MAX,C_END[,R_END]``: a float parameter if any of the first four has a point or
    an exponent, else an int one."""
    name, sep, rest = text.partition("=")
    name = name.strip()
    fields = [f.strip() for f in rest.split(",")]
    if not sep or not name or len(fields) not in (4, 5):
        raise ParamError(f"{text!r} is not NAME=START,MIN,MAX,C_END[,R_END] (e.g. keep=5,0,20,2 or "
                         "aggr=0.5,0,1,0.1,0.002)", "param")
    labels = ("START", "MIN", "MAX", "C_END", "R_END")
    numbers = [_number(f, label, f"--param {text!r}", "param") for f, label in zip(fields, labels)]
    is_float = any(re.search(r"[.eE]", f) for f in fields[:4])
    start, low, high, c_end = numbers[:4]
    return Param(name, start, low, high, c_end, numbers[4] if len(numbers) == 5 else DEFAULT_R_END, is_float)


def parse_lines(text: str, source: str = "the parameter file") -> list[Param]:
    """OpenBench's pasted lines, ``NAME, int|float, START, MIN, MAX, C_END, R_END`` (blank lines and ``#`` comments
    skipped)."""
    params = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        shown = raw.strip() if len(raw.strip()) <= SHOWN else raw.strip()[:SHOWN - 3] + "..."  # never the whole file
        where = f"{source}, line {number} ({shown!r})"
        fields = [f.strip() for f in line.split(",")]
        if len(fields) != 7:
            raise ParamError(f"{where}: give 7 fields, NAME, int|float, START, MIN, MAX, C_END, R_END (OpenBench's "
                             f"format), not {len(fields)}", "params")
        if fields[1] not in ("int", "float"):
            raise ParamError(f"{where}: the type {fields[1]!r} must be int or float", "params")
        labels = ("START", "MIN", "MAX", "C_END", "R_END")
        numbers = [_number(f, label, where, "params") for f, label in zip(fields[2:], labels)]
        start, low, high, c_end, r_end = numbers
        try:
            params.append(Param(fields[0], start, low, high, c_end, r_end, fields[1] == "float"))
        except ParamError as exc:
            raise ParamError(f"{where}: {exc}", "params") from None
    return params


def read_file(path: str) -> list[Param]:
    """The parameters of the file ``path`` (OpenBench's lines), read through the guarded reader."""
    try:
        text = read_text(path, PARAMS)
    except InputFileError as exc:
        raise ParamError(str(exc), "params") from None
    return parse_lines(text, path)


def check_names(params: Sequence[Param]) -> None:
    """No parameter twice, at least one."""
    if not params:
        raise ParamError("nothing to tune: give --param NAME=START,MIN,MAX,C_END or --params FILE", "param")
    seen: set[str] = set()
    for p in params:
        if p.name in seen:
            raise ParamError(f"parameter {p.name!r} is given twice: keep one", "param")
        seen.add(p.name)


def placeholders(command: str) -> list[str]:
    """The ``{name}`` placeholders of a command, in order (``{{`` and ``}}`` are literal braces)."""
    try:
        return [field for _, field, _, _ in string.Formatter().parse(command) if field is not None]
    except ValueError as exc:
        raise ParamError(f"the bot command {command!r} has a broken placeholder ({exc}): write {{name}} for a "
                         "parameter, {{{{ and }}}} for a literal brace", "param") from None


def check_command(command: str, params: Sequence[Param]) -> None:
    """Every placeholder is a parameter and every parameter a placeholder: a typo is an error, not a no-op tune."""
    used = placeholders(command)
    names = [p.name for p in params]
    unknown = [u for u in used if u not in names]
    if unknown:
        raise ParamError(f"the bot command {command!r} has placeholder {{{unknown[0]}}} that no --param gives; "
                         f"the parameters are {', '.join(names) or 'none'}", "param")
    unused = [n for n in names if n not in used]
    if unused:
        raise ParamError(f"parameter {unused[0]!r} appears nowhere in the bot command {command!r}: add "
                         f"{{{unused[0]}}} where the bot reads it", "param")


def fill(command: str, params: Sequence[Param], values: Sequence[float]) -> str:
    """The command with each placeholder replaced by its value as the bot is given it."""
    return command.format_map({p.name: p.shown(v) for p, v in zip(params, values)})


def with_starts(params: Iterable[Param], values: Mapping[str, float]) -> list[Param]:
    """The parameters starting at ``values`` (the tuned ones, for ``--verify`` and the next tune)."""
    return [replace(p, start=p.clip(values.get(p.name, p.start))) for p in params]
