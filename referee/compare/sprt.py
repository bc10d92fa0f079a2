"""The sequential test of ``lastcard compare``: pentanomial counts, the test's settings, estimates, the running test.

Pure values and arithmetic, no I/O. The API the compare loop uses::

    settings = SprtSettings(elo0=0, elo1=5)          # validated once; SprtError names the bad option
    sprt = Sprt(settings)
    for pair in planned_order:                       # the order planned, whatever order games finished in
        verdict = sprt.add_pair(score_a, score_b)    # NEW's score in each twin: 1, 0.5 or 0
        if verdict is not None or sprt.games >= cap:
            break
    sprt.result                                      # "H1", "H0" or None (inconclusive)
    sprt.to_json()                                   # results.json's ``sprt`` block

A fixed-length run (no test) counts with ``PairTally`` alone: the same counts and estimates.
``referee.compare.display`` renders both as fastchess prints them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Literal

from referee.compare.gsprt import NELO_PER_T, REGULARIZER, llr_one
from referee.errors import OptionError
from referee.store.results_shapes import EstimatesJson, PairTallyJson, SprtJson, SprtSettingsJson

Model = Literal["normalized", "logistic"]
Verdict = Literal["H0", "H1"]

MODELS: tuple[Model, ...] = ("normalized", "logistic")
#: The widest Elo bound taken: beyond it a logistic score is within 1e-10 of 0 or 1 and says nothing more.
MAX_ELO = 4000.0
#: The two-sided 95% normal quantile (fastchess's ``CI95ZSCORE``).
Z95 = 1.959963984540054
#: The bins' names, lowest pair score first (NEW's view).
BINS = ("LL", "LD", "WL+DD", "WD", "WW")


class SprtError(OptionError, ValueError):
    """Settings or counts that make no test; ``option`` names the setting at fault (``elo0``, ``ptnml``, ...)."""


def pair_bin(score_a: float, score_b: float) -> int:
    """The pentanomial bin (0 = LL ... 4 = WW) of a pair whose twins scored ``score_a`` and ``score_b`` for NEW."""
    for score in (score_a, score_b):
        if score not in (0, 0.5, 1):
            raise ValueError(f"a game scores 1, 0.5 or 0 for NEW, not {score!r}")
    return int(2 * (score_a + score_b))


@dataclass(frozen=True, slots=True)
class Ptnml:
    """Pentanomial counts from NEW's view, LL first: pairs scoring 0, 1/4, 1/2, 3/4 and 1."""

    counts: tuple[int, int, int, int, int] = (0, 0, 0, 0, 0)

    def __post_init__(self) -> None:
        if len(self.counts) != 5 or any(not isinstance(c, int) or isinstance(c, bool) or c < 0 for c in self.counts):
            raise SprtError(f"pentanomial counts {self.counts!r} are not five whole numbers, 0 or more", "ptnml")

    @classmethod
    def parse(cls, text: str) -> Ptnml:
        """``"LL,LD,WLDD,WD,WW"``, e.g. ``"3,10,20,12,5"`` (spaces and brackets allowed)."""
        fields = [f.strip() for f in text.strip().strip("[]").split(",")]
        if len(fields) != 5:
            raise SprtError(f"{text!r} has {len(fields)} counts, not 5: give LL,LD,WLDD,WD,WW, e.g. 3,10,20,12,5",
                            "ptnml")
        counts = []
        for name, f in zip(BINS, fields):
            if not f.isdigit():
                raise SprtError(f"{text!r}: the {name} count {f!r} is not a whole number, 0 or more", "ptnml")
            counts.append(int(f))
        return cls((counts[0], counts[1], counts[2], counts[3], counts[4]))

    @property
    def text(self) -> str:
        """The form ``parse`` reads: ``"3,10,20,12,5"``."""
        return ",".join(map(str, self.counts))

    def __str__(self) -> str:
        return "[" + ", ".join(map(str, self.counts)) + "]"

    @property
    def pairs(self) -> int:
        """The number of pairs counted."""
        return sum(self.counts)

    @property
    def games(self) -> int:
        """Two games a pair."""
        return 2 * self.pairs

    @property
    def points(self) -> float:
        """NEW's points over the games (1 a win, 1/2 a draw)."""
        return sum(c * i / 2 for i, c in enumerate(self.counts))

    def add(self, index: int) -> Ptnml:
        """These counts with one more pair in bin ``index``."""
        counts = list(self.counts)
        counts[index] += 1
        return Ptnml((counts[0], counts[1], counts[2], counts[3], counts[4]))


def _elo(score: float) -> float:
    """Logistic Elo of a score, the score kept within [1e-3, 1 - 1e-3] as fishtest's ``stat_util.elo``."""
    x = min(max(score, 1e-3), 1 - 1e-3)
    return -400 * math.log10(1 / x - 1)


@dataclass(frozen=True, slots=True)
class Estimates:
    """NEW's strength against BASE from the pairs: Elo and normalized Elo with 95% intervals, LOS, score.

    As fastchess's ``EloPentanomial``: the mean pair score, its per-pair variance, a normal interval for
    the mean. Counts with no spread (every pair in one bin, or none) are regularized as fishtest's
    ``get_elo`` (a zero bin is 1e-3) and scores kept within [1e-3, 1 - 1e-3], so every number is finite
    where fastchess prints nan. ``*_error`` is the half-width fastchess prints after ``+/-``.
    """

    score: float
    elo: float
    elo_low: float
    elo_high: float
    nelo: float
    nelo_low: float
    nelo_high: float
    los: float
    """Likelihood of superiority: the probability, on the normal approximation, that NEW is the stronger."""

    @property
    def elo_error(self) -> float:
        return (self.elo_high - self.elo_low) / 2

    @property
    def nelo_error(self) -> float:
        return (self.nelo_high - self.nelo_low) / 2

    @classmethod
    def of(cls, ptnml: Ptnml) -> Estimates:
        spread = sum(1 for c in ptnml.counts if c) >= 2
        reg = [c if c or spread else REGULARIZER for c in ptnml.counts]
        n = sum(reg)
        probs = [c / n for c in reg]
        score = sum(p * i / 4 for i, p in enumerate(probs))
        var = sum(p * (i / 4 - score) ** 2 for i, p in enumerate(probs))
        se = math.sqrt(var / n)
        low, high = score - Z95 * se, score + Z95 * se

        def nelo(s: float) -> float:
            return (s - 0.5) / math.sqrt(2 * var) * NELO_PER_T

        los = 0.5 * (1 + math.erf((score - 0.5) / (se * math.sqrt(2))))
        return cls(score, _elo(score), _elo(low), _elo(high), nelo(score), nelo(low), nelo(high), los)

    def to_json(self) -> EstimatesJson:
        return {"score": self.score,
                "elo": {"value": self.elo, "error": self.elo_error, "low": self.elo_low, "high": self.elo_high},
                "nelo": {"value": self.nelo, "error": self.nelo_error, "low": self.nelo_low, "high": self.nelo_high},
                "los": self.los}


@dataclass(frozen=True, slots=True)
class SprtSettings:
    """H0: NEW is ``elo0`` stronger than BASE; H1: ``elo1``; error rates ``alpha`` (accepting H1 under H0)
    and ``beta`` (H0 under H1); bounds in normalized or logistic Elo. Checked when made."""

    elo0: float = 0.0
    elo1: float = 5.0
    alpha: float = 0.05
    beta: float = 0.05
    model: Model = "normalized"

    def __post_init__(self) -> None:
        for name in ("elo0", "elo1"):
            value = getattr(self, name)
            if not (isinstance(value, (int, float)) and math.isfinite(value) and abs(value) <= MAX_ELO):
                raise SprtError(f"{name} {value!r} is not an Elo between {-MAX_ELO:g} and {MAX_ELO:g}", name)
        if self.elo0 >= self.elo1:
            raise SprtError(f"elo0 {self.elo0:g} is not below elo1 {self.elo1:g}: H0 is the smaller difference, "
                            f"H1 the larger (e.g. --elo0 0 --elo1 5)", "elo0")
        for name in ("alpha", "beta"):
            value = getattr(self, name)
            if not (isinstance(value, (int, float)) and 0 < value < 0.5):
                raise SprtError(f"{name} {value!r} is not an error rate between 0 and 0.5, exclusive "
                                f"(0.05 is usual)", name)
        if self.model not in MODELS:
            raise SprtError(f"model {self.model!r} is not one of {', '.join(MODELS)}", "model")

    @property
    def lower(self) -> float:
        """Accept H0 at or below this LLR: ln(beta / (1 - alpha))."""
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        """Accept H1 at or above this LLR: ln((1 - beta) / alpha)."""
        return math.log((1 - self.beta) / self.alpha)

    def llr(self, ptnml: Ptnml) -> float:
        """The log-likelihood ratio of H1 against H0 for these counts (0 with no pairs)."""
        return llr_one(ptnml.counts, self.elo0, self.elo1, self.model)

    def verdict(self, llr: float) -> Verdict | None:
        """``"H1"`` at or above the upper bound, ``"H0"`` at or below the lower, else ``None``."""
        if llr >= self.upper:
            return "H1"
        if llr <= self.lower:
            return "H0"
        return None

    def fraction(self, llr: float) -> float:
        """How far ``llr`` is toward the bound it is heading for (fastchess's percentage; negative toward H0)."""
        return llr / self.upper if llr >= 0 else -llr / self.lower

    def to_json(self) -> SprtSettingsJson:
        # Floats always: 0 and 0.0 must give the same results.json and the same resume fingerprint.
        return {"elo0": float(self.elo0), "elo1": float(self.elo1), "alpha": float(self.alpha),
                "beta": float(self.beta), "model": self.model, "lower": self.lower, "upper": self.upper}


@dataclass
class PairTally:
    """Pairs counted as they come: the pentanomial and NEW's wins, draws and losses against BASE game by game."""

    ptnml: Ptnml = field(default_factory=Ptnml)
    wins: int = 0
    draws: int = 0
    losses: int = 0

    def add_pair(self, score_a: float, score_b: float) -> None:
        """Count a pair whose twins scored ``score_a`` and ``score_b`` for NEW."""
        self.ptnml = self.ptnml.add(pair_bin(score_a, score_b))
        for score in (score_a, score_b):
            if score == 1:
                self.wins += 1
            elif score == 0:
                self.losses += 1
            else:
                self.draws += 1

    @property
    def pairs(self) -> int:
        return self.ptnml.pairs

    @property
    def games(self) -> int:
        return self.ptnml.games

    def estimates(self) -> Estimates:
        return Estimates.of(self.ptnml)

    def to_json(self) -> PairTallyJson:
        return {"ptnml": list(self.ptnml.counts), "pairs": self.pairs, "games": self.games,
                "wins": self.wins, "draws": self.draws, "losses": self.losses, **self.estimates().to_json()}


class Sprt:
    """A running test: the tally, the LLR after every pair and the verdict, which ends it."""

    def __init__(self, settings: SprtSettings) -> None:
        self.settings = settings
        self.tally = PairTally()
        self.llr = 0.0
        self.llr_trace: list[float] = []
        self.result: Verdict | None = None

    def add_pair(self, score_a: float, score_b: float) -> Verdict | None:
        """Count the next pair in planned order; the verdict, once the LLR has crossed a bound."""
        if self.result is not None:
            raise ValueError(f"the test already accepted {self.result} after {self.tally.pairs} pairs; "
                             "pairs after the verdict do not count")
        self.tally.add_pair(score_a, score_b)
        self.llr = self.settings.llr(self.tally.ptnml)
        self.llr_trace.append(self.llr)
        self.result = self.settings.verdict(self.llr)
        return self.result

    @property
    def pairs(self) -> int:
        return self.tally.pairs

    @property
    def games(self) -> int:
        return self.tally.games

    def estimates(self) -> Estimates:
        return self.tally.estimates()

    def to_json(self) -> SprtJson:
        """results.json's ``sprt`` block."""
        return {**self.settings.to_json(), "llr": self.llr, "result": self.result, **self.tally.to_json(),
                "llr_trace": [round(x, 6) for x in self.llr_trace]}
