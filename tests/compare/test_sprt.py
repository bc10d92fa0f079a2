"""The pentanomial GSPRT of ``lastcard compare``: the LLR against an independent maximization of the published
likelihood, the bounds, regularization, the labels, termination at extremes, error rates by simulation,
the estimates, the running test and its JSON, and the ``lastcard sprt`` calculator."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from click.testing import CliRunner

from referee.cli.main import cli
from referee.compare.display import summary_lines, verdict_line
from referee.compare.expected import expected_pairs, pass_probability, remaining
from referee.compare.gsprt import llr_batch, llr_one, normalized_t
from referee.compare.sprt import Estimates, PairTally, Ptnml, Sprt, SprtError, SprtSettings, pair_bin

optimize = pytest.importorskip("scipy.optimize")

SCORES = np.arange(5) / 4


# ---------------------------------------------------------------- the published formulas, solved another way
def fishtest_phat(counts: list[int]) -> tuple[float, np.ndarray]:
    """fishtest's ``LLRcalc.results_to_pdf``: a zero count becomes 1e-3; the total and the empirical distribution."""
    c = np.array([x if x else 1e-3 for x in counts], dtype=float)
    return c.sum(), c / c.sum()


def pair_t(p: np.ndarray) -> float:
    """The t-value of a pair-score distribution: (mu - 1/2) / sigma."""
    mu = p @ SCORES
    return (mu - 0.5) / math.sqrt(p @ (SCORES - mu) ** 2)


def brute_max_loglik(phat: np.ndarray, stat, target: float) -> float:
    """max sum(phat log p) over distributions p with stat(p) = target, by SLSQP on softmax logits.

    A general-purpose constrained optimizer on the likelihood itself: none of the secular equations or
    fixed points the module solves."""
    def p_of(z):
        w = np.exp(z - z.max())
        return w / w.sum()

    def negll(z):
        zz = z - z.max()
        return -(phat * (zz - np.log(np.exp(zz).sum()))).sum()

    best = None
    for start in (np.log(phat), np.zeros(5)):
        r = optimize.minimize(negll, start, method="SLSQP", options={"ftol": 1e-16, "maxiter": 1000},
                              constraints=[{"type": "eq", "fun": lambda z: stat(p_of(z)) - target}])
        if r.success and abs(stat(p_of(r.x)) - target) < 1e-9 and (best is None or r.fun < best.fun):
            best = r
    assert best is not None, "SLSQP found no feasible maximum"
    return -best.fun


def brute_llr(counts: list[int], elo0: float, elo1: float, model: str) -> float:
    """The GSPRT LLR as fishtest defines it: N * (max loglik under H1 - max loglik under H0), per pair.

    logistic: the mean pair score is 1 / (1 + 10^(-elo/400)); normalized: the pair's t-value is
    sqrt(2) * nelo / (800 / ln 10) (fishtest's ``LLR_normalized`` for five results)."""
    n, phat = fishtest_phat(counts)
    if model == "logistic":
        def stat(p): return p @ SCORES
        targets = [1 / (1 + 10 ** (-e / 400)) for e in (elo0, elo1)]
    else:
        stat = pair_t
        targets = [math.sqrt(2) * e / (800 / math.log(10)) for e in (elo0, elo1)]
    low, high = (brute_max_loglik(phat, stat, t) for t in targets)
    return n * (high - low)


LLR_CASES = [
    pytest.param([365, 16618, 36229, 16974, 390], 0, 2, id="fishtest-size-0-2"),
    pytest.param([127, 4883, 10712, 5150, 104], -1.75, 0.25, id="fishtest-size-regression"),
    pytest.param([10, 20, 30, 25, 15], 0, 5, id="small"),
    pytest.param([3, 0, 5, 0, 4], 0, 20, id="no-draws-regularized"),
    pytest.param([40, 0, 60, 0, 20], -10, 30, id="card-game-shape"),
    pytest.param([0, 0, 0, 0, 50], 0, 5, id="all-WW"),
    pytest.param([1, 0, 0, 0, 0], 0, 5, id="one-LL"),
    pytest.param([144, 3, 1, 0, 0], -1500, -500, id="fastchess-879-extreme"),
]


@pytest.mark.parametrize("model", ["normalized", "logistic"])
@pytest.mark.parametrize("counts, elo0, elo1", LLR_CASES)
def test_the_llr_is_the_constrained_maximum_likelihood_ratio(counts, elo0, elo1, model):
    expected = brute_llr(counts, elo0, elo1, model)
    got = SprtSettings(elo0, elo1, model=model).llr(Ptnml(tuple(counts)))
    assert got == pytest.approx(expected, rel=1e-8, abs=1e-7)


@pytest.mark.parametrize("counts, elo0, elo1, model, published", [
    # fastchess app/tests/sprt_test.cpp (its Stats(ll, ld, wl, dd, wd, ww) merged to five bins), to 2 decimals,
    # themselves checked there against fishtest's LLRcalc.
    pytest.param([365, 16618, 36229, 16974, 390], 0, 2, "normalized", 2.25, id="fastchess-normalized-1"),
    pytest.param([127, 4883, 10712, 5150, 104], -1.75, 0.25, "normalized", 3.01, id="fastchess-normalized-2"),
    pytest.param([0, 0, 0, 0, 5550], 0, 5, "normalized", 111.82, id="fastchess-normalized-3"),
    pytest.param([223, 9863, 21279, 10037, 246], 0.5, 2.5, "logistic", -3.07, id="fastchess-logistic-1"),
    pytest.param([871, 26175, 55983, 26678, 821], 0, 2, "logistic", -4.98, id="fastchess-logistic-2"),
    # fastchess PR #882 (its fix of #879): "LLR: -2.95 (-100.3%) (-2.94, 2.94) [-1000.00, -500.00]".
    pytest.param([77, 1, 0, 0, 0], -1000, -500, "normalized", -2.95, id="fastchess-882-extreme"),
])
def test_the_llr_agrees_with_values_others_published(counts, elo0, elo1, model, published):
    # fastchess's tolerance (doctest::Approx(...).epsilon(0.01)): its fixed point stops at 1e-4, fishtest's and
    # this one's at 1e-9 or finer, so e.g. its 111.82 is fishtest's 111.7976.
    got = SprtSettings(elo0, elo1, model=model).llr(Ptnml(tuple(counts)))
    assert got == pytest.approx(published, rel=0.01)


@pytest.mark.parametrize("alpha, beta", [(0.05, 0.05), (0.01, 0.1), (0.2, 0.001)])
def test_the_bounds_are_walds(alpha, beta):
    s = SprtSettings(alpha=alpha, beta=beta)
    assert s.lower == pytest.approx(math.log(beta / (1 - alpha)))
    assert s.upper == pytest.approx(math.log((1 - beta) / alpha))
    assert s.verdict(s.upper) == "H1" and s.verdict(s.lower) == "H0"
    assert s.verdict(math.nextafter(s.upper, 0)) is None and s.verdict(math.nextafter(s.lower, 0)) is None


@pytest.mark.parametrize("model", ["normalized", "logistic"])
def test_a_zero_count_is_regularized_to_one_thousandth_as_fishtest(model):
    with_zero = llr_batch([0, 3, 5, 0, 1], 0, 20, model)[0]
    assert with_zero == llr_batch([1e-3, 3, 5, 1e-3, 1], 0, 20, model)[0]
    assert with_zero != llr_batch([0.5, 3, 5, 0.5, 1], 0, 20, model)[0]


@pytest.mark.parametrize("model", ["normalized", "logistic"])
def test_no_pairs_is_no_evidence(model):
    assert SprtSettings(model=model).llr(Ptnml()) == 0.0


def pentanomial_at(stat, target: float, shape=(0.2, 0.1, 0.4, 0.1, 0.2)) -> np.ndarray:
    """The exponential tilt p_i ~ shape_i e^(theta a_i) whose stat is ``target`` (bisection on theta)."""
    def tilt(theta):
        w = np.array(shape) * np.exp(theta * SCORES)
        return w / w.sum()
    lo, hi = -60.0, 60.0
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if stat(tilt(mid)) > target else (mid, hi)
    return tilt((lo + hi) / 2)


def truth(model: str, elo: float, shape=(0.2, 0.1, 0.4, 0.1, 0.2)) -> np.ndarray:
    """A pair distribution whose true Elo, in ``model``'s units, is ``elo``."""
    if model == "logistic":
        return pentanomial_at(lambda p: p @ SCORES, 1 / (1 + 10 ** (-elo / 400)), shape)
    return pentanomial_at(pair_t, normalized_t(elo), shape)


@pytest.mark.parametrize("model", ["normalized", "logistic"])
def test_the_labels_are_the_right_way_round(model):
    s = SprtSettings(0, 10, model=model)
    # fastchess printed "H0 accepted" for an LLR above the upper bound until 2025: strong evidence for elo1 is H1.
    for at, verdict in ((10, "H1"), (0, "H0")):
        counts = tuple(int(x) for x in np.round(20000 * truth(model, at)))
        llr = s.llr(Ptnml(counts))
        assert s.verdict(llr) == verdict, (at, llr)
    assert s.verdict(s.llr(Ptnml((0, 0, 0, 0, 400)))) == "H1"
    assert s.verdict(s.llr(Ptnml((400, 0, 0, 0, 0)))) == "H0"


EXTREMES = [(0, 5), (-1500, -500), (-1000, -500), (500, 1500), (-4000, 4000), (3999, 4000), (-4000, -3999),
            (0, 0.001)]
DEGENERATE = [(0, 0, 0, 0, 0)] + [tuple(n if i == b else 0 for i in range(5)) for b in range(5) for n in (1, 10**9)] \
    + [(10**9, 0, 0, 0, 1), (1, 0, 0, 0, 10**9), (0, 10**6, 0, 10**6, 0)]


@pytest.mark.timeout(120)  # a hang (fastchess #877) fails here instead of stalling the suite
@pytest.mark.parametrize("model", ["normalized", "logistic"])
@pytest.mark.parametrize("elo0, elo1", EXTREMES)
def test_extreme_bounds_and_degenerate_counts_give_a_finite_llr(model, elo0, elo1):
    llr = llr_batch(np.array(DEGENERATE), elo0, elo1, model)
    assert np.isfinite(llr).all(), dict(zip(DEGENERATE, llr))
    one = [SprtSettings(elo0, elo1, model=model).llr(Ptnml(c)) for c in DEGENERATE[:3]]
    assert one == pytest.approx(list(llr[:3]), rel=1e-9, abs=1e-12)  # one row alone gives what the batch gives


@pytest.mark.parametrize("model", ["normalized", "logistic"])
@pytest.mark.parametrize("elo0, elo1, score, verdict", [
    pytest.param(500, 1500, 1, "H1", id="all-WW-strong-H1"),
    pytest.param(-1500, -500, 0, "H0", id="all-LL-weak-H0"),
])
def test_all_pairs_in_one_bin_end_the_test_at_the_right_bound(model, elo0, elo1, score, verdict):
    sprt = Sprt(SprtSettings(elo0, elo1, model=model))
    while sprt.result is None and sprt.pairs < 2000:
        sprt.add_pair(score, score)
    assert all(math.isfinite(x) for x in sprt.llr_trace)
    assert sprt.result == verdict, (sprt.pairs, sprt.llr)


def test_all_even_pairs_lean_to_h0_in_both_models():
    """Every pair WL or DD: a score of exactly 1/2. Logistic H0 comes fast; normalized Elo measures in units of
    the spread, which is nil, so [0, 5] nElo is a hair's difference and the LLR only drifts down."""
    logistic = Sprt(SprtSettings(0, 5, model="logistic"))
    while logistic.result is None:
        logistic.add_pair(0.5, 0.5)
    assert logistic.result == "H0" and logistic.pairs < 300
    normalized = Sprt(SprtSettings(0, 5))
    for _ in range(100):
        normalized.add_pair(1, 0)
    trace = normalized.llr_trace
    assert all(b < a < 0 for a, b in zip(trace, trace[1:])) and normalized.result is None


# ---------------------------------------------------------------- error rates by simulation
def binomial_ceiling(n: int, p: float, tail: float = 1e-6) -> int:
    """The smallest k with P(Binomial(n, p) >= k) <= tail: more errors than this would not be luck."""
    pmf = [math.exp(math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
                    + k * math.log(p) + (n - k) * math.log1p(-p)) for k in range(n + 1)]
    upper = 0.0
    for k in range(n, -1, -1):
        upper += pmf[k]
        if upper > tail:
            return k + 1
    return 0


def simulate(settings: SprtSettings, p: np.ndarray, runs: int, seed: int, cap: int = 5000) -> dict[str, int]:
    """``runs`` tests side by side on pairs drawn from ``p``, each stopped by the settings' verdict."""
    rng = np.random.default_rng(seed)
    counts = np.zeros((runs, 5))
    alive = np.arange(runs)
    verdicts = {"H0": 0, "H1": 0, None: 0}
    for _ in range(cap):
        counts[alive, rng.choice(5, size=len(alive), p=p)] += 1
        llr = llr_batch(counts[alive], settings.elo0, settings.elo1, settings.model)
        decided = np.array([settings.verdict(x) for x in llr], dtype=object)
        for v in ("H0", "H1"):
            verdicts[v] += int((decided == v).sum())
        alive = alive[decided == None]  # noqa: E711 - an object array compared elementwise
        if not len(alive):
            break
    verdicts[None] = len(alive)
    return verdicts


SIMULATIONS = [
    pytest.param("normalized", 0, 80, (0.2, 0.1, 0.4, 0.1, 0.2), id="normalized-all-bins"),
    pytest.param("logistic", 0, 60, (0.25, 0.0, 0.5, 0.0, 0.25), id="logistic-no-draws"),
]


@pytest.mark.parametrize("model, elo0, elo1, shape", SIMULATIONS)
def test_error_rates_by_simulation_are_at_most_alpha_and_beta(model, elo0, elo1, shape):
    runs, alpha, beta = 1500, 0.05, 0.05
    settings = SprtSettings(elo0, elo1, alpha, beta, model)
    at_h0 = simulate(settings, truth(model, elo0, shape), runs, seed=1)
    at_h1 = simulate(settings, truth(model, elo1, shape), runs, seed=2)
    assert at_h0[None] == at_h1[None] == 0  # every test ended
    assert at_h0["H1"] < binomial_ceiling(runs, alpha), at_h0
    assert at_h1["H0"] < binomial_ceiling(runs, beta), at_h1
    # and the test has power: the right verdict is the usual one
    assert at_h0["H0"] > runs / 2 and at_h1["H1"] > runs / 2


# ---------------------------------------------------------------- estimates
def test_estimates_of_a_balanced_tally_are_even():
    est = Estimates.of(Ptnml((5, 20, 30, 20, 5)))
    assert (est.score, est.elo, est.nelo, est.los) == pytest.approx((0.5, 0, 0, 0.5), abs=1e-12)
    assert est.elo_low == pytest.approx(-est.elo_high)


def test_estimates_follow_the_pentanomial_formulas():
    counts = (3, 10, 20, 12, 5)
    n = sum(counts)
    score = sum(c * i / 4 for i, c in enumerate(counts)) / n
    var = sum(c * (i / 4 - score) ** 2 for i, c in enumerate(counts)) / n
    se = math.sqrt(var / n)
    est = Estimates.of(Ptnml(counts))
    assert est.score == pytest.approx(score)
    assert 1 / (1 + 10 ** (-est.elo / 400)) == pytest.approx(score)  # Elo is the logistic inverse of the score
    assert 1 / (1 + 10 ** (-est.elo_high / 400)) == pytest.approx(score + 1.959963984540054 * se)
    # nElo's half-width does not depend on the data: z / sqrt(2 pairs) * 800 / ln 10
    assert est.nelo_error == pytest.approx(1.959963984540054 / math.sqrt(2 * n) * 800 / math.log(10))
    assert est.los == pytest.approx(0.5 * (1 + math.erf((score - 0.5) / (se * math.sqrt(2)))))
    mirrored = Estimates.of(Ptnml(counts[::-1]))
    assert (mirrored.elo, mirrored.nelo, mirrored.los) == pytest.approx((-est.elo, -est.nelo, 1 - est.los))


def test_estimates_agree_with_fastchess_output_and_stay_finite_where_it_printed_nan():
    # fastchess #879 printed "Elo: -827.87 +/- nan, nElo: -2248.42 +/- 39.58" for these pairs.
    est = Estimates.of(Ptnml((144, 3, 1, 0, 0)))
    assert (round(est.elo, 2), round(est.nelo, 2), round(est.nelo_error, 2)) == (-827.87, -2248.42, 39.58)
    for counts in DEGENERATE:
        values = Estimates.of(Ptnml(counts)).to_json()
        json.dumps(values, allow_nan=False)


# ---------------------------------------------------------------- the running test
@pytest.mark.parametrize("scores, bin_", [((1, 1), 4), ((1, 0.5), 3), ((0.5, 1), 3), ((1, 0), 2), ((0, 1), 2),
                                          ((0.5, 0.5), 2), ((0.5, 0), 1), ((0, 0.5), 1), ((0, 0), 0)])
def test_a_pair_falls_in_the_bin_of_its_total(scores, bin_):
    assert pair_bin(*scores) == bin_


def test_a_score_that_is_not_a_game_score_is_refused():
    with pytest.raises(ValueError, match="1, 0.5 or 0"):
        pair_bin(1, 0.25)


def test_the_running_test_recomputes_the_llr_of_its_counts_after_every_pair():
    settings = SprtSettings(0, 20, model="logistic")
    sprt = Sprt(settings)
    rng = np.random.default_rng(5)
    counts = Ptnml()
    while sprt.result is None:
        a, b = (float(x) for x in rng.choice([0, 0.5, 1, 1], size=2))
        counts = counts.add(pair_bin(a, b))
        verdict = sprt.add_pair(a, b)
        assert sprt.llr == sprt.llr_trace[-1] == settings.llr(counts)
        assert verdict == sprt.result == settings.verdict(sprt.llr)
    assert sprt.tally.ptnml == counts and len(sprt.llr_trace) == sprt.pairs == counts.pairs
    assert sprt.tally.wins + sprt.tally.draws + sprt.tally.losses == sprt.games == 2 * sprt.pairs
    with pytest.raises(ValueError, match=f"already accepted {sprt.result}"):
        sprt.add_pair(1, 1)


def test_the_sprt_block_has_the_keys_results_json_needs():
    sprt = Sprt(SprtSettings(0, 5, 0.05, 0.1, "logistic"))
    for a, b in [(1, 0), (1, 1), (0.5, 1), (0, 0)]:
        sprt.add_pair(a, b)
    block = json.loads(json.dumps(sprt.to_json(), allow_nan=False))
    assert set(block) == {"elo0", "elo1", "alpha", "beta", "model", "lower", "upper", "llr", "result", "ptnml",
                          "pairs", "games", "wins", "draws", "losses", "score", "elo", "nelo", "los", "llr_trace"}
    assert block["ptnml"] == [1, 0, 1, 1, 1] and (block["pairs"], block["games"]) == (4, 8)
    assert (block["wins"], block["draws"], block["losses"]) == (4, 1, 3)
    assert block["model"] == "logistic" and block["beta"] == 0.1 and block["result"] is None
    assert set(block["elo"]) == set(block["nelo"]) == {"value", "error", "low", "high"}
    assert block["elo"]["low"] < block["elo"]["value"] < block["elo"]["high"]
    assert block["llr_trace"] == [round(x, 6) for x in sprt.llr_trace] and block["llr"] == sprt.llr


def test_a_fixed_length_tally_has_the_estimates_and_no_test():
    tally = PairTally()
    tally.add_pair(1, 0.5)
    lines = summary_lines(tally)
    assert not any(line.startswith("LLR") for line in lines)
    assert "Games: 2, Wins: 1, Losses: 0, Draws: 1, Points: 1.5 (75.00 %)" in lines


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize("kwargs, option, message", [
    pytest.param({"elo0": 5, "elo1": 5}, "elo0", "elo0 5 is not below elo1 5", id="elo0-equals-elo1"),
    pytest.param({"elo0": 3, "elo1": -1}, "elo0", "elo0 3 is not below elo1 -1", id="elo0-above-elo1"),
    pytest.param({"alpha": 0}, "alpha", "alpha 0 is not an error rate between 0 and 0.5", id="alpha-zero"),
    pytest.param({"alpha": 0.5}, "alpha", "alpha 0.5 is not an error rate", id="alpha-half"),
    pytest.param({"beta": -0.1}, "beta", "beta -0.1 is not an error rate", id="beta-negative"),
    pytest.param({"beta": 1.2}, "beta", "beta 1.2 is not an error rate", id="beta-above-one"),
    pytest.param({"elo1": math.inf}, "elo1", "elo1 inf is not an Elo between -4000 and 4000", id="elo1-inf"),
    pytest.param({"elo0": math.nan}, "elo0", "elo0 nan is not an Elo", id="elo0-nan"),
    pytest.param({"elo0": -5000}, "elo0", "elo0 -5000 is not an Elo", id="elo0-beyond"),
    pytest.param({"model": "bayesian"}, "model", "model 'bayesian' is not one of normalized, logistic", id="model"),
])
def test_settings_that_make_no_test_are_refused_naming_the_option(kwargs, option, message):
    with pytest.raises(SprtError, match=message) as info:
        SprtSettings(**kwargs)
    assert info.value.option == option


@pytest.mark.parametrize("text, message", [
    pytest.param("1,2,3", "has 3 counts, not 5", id="too-few"),
    pytest.param("1,2,3,4,5,6", "has 6 counts, not 5", id="too-many"),
    pytest.param("1,2,x,4,5", "the WL\\+DD count 'x' is not a whole number", id="not-a-number"),
    pytest.param("1,-2,3,4,5", "the LD count '-2' is not a whole number, 0 or more", id="negative"),
    pytest.param("1,2.5,3,4,5", "the LD count '2.5'", id="fraction"),
])
def test_malformed_counts_are_refused(text, message):
    with pytest.raises(SprtError, match=message):
        Ptnml.parse(text)


def test_counts_round_trip_their_text():
    p = Ptnml.parse(" [3, 10,20,12 ,5] ")
    assert p == Ptnml((3, 10, 20, 12, 5)) and Ptnml.parse(p.text) == p and str(p) == "[3, 10, 20, 12, 5]"
    with pytest.raises(SprtError):
        Ptnml((1, 2, 3, 4, -1))  # type: ignore[arg-type]


# ---------------------------------------------------------------- lastcard sprt
def test_the_calculator_prints_the_numbers_and_the_verdict():
    # fastchess #783's example: "Normalized Elo: 3.05 +/- 2.31", "LLR: 2.94598 (-2.94, 2.94)", H1 accepted
    # (fastchess stops its fixed point at 1e-4; fishtest's LLRcalc gives 2.94550, as here).
    res = CliRunner().invoke(cli, ["sprt", "--ptnml", "379,10170,21828,10640,343", "--elo0", "0", "--elo1", "2"])
    assert res.exit_code == 0, res.output
    settings, counts = SprtSettings(0, 2), Ptnml((379, 10170, 21828, 10640, 343))
    assert res.output.splitlines() == summary_lines(counts, settings) + [verdict_line("H1", counts.games)]
    assert "nElo: 3.05 +/- 2.31" in res.output
    assert "LLR: 2.95 (100.0%) (-2.94, 2.94) [0.00, 2.00]" in res.output
    assert "Ptnml(0-2): [379, 10170, 21828, 10640, 343]" in res.output
    assert res.output.splitlines()[-1] == "H1 accepted"


@pytest.mark.parametrize("args, last", [
    pytest.param(["--ptnml", "144,3,1,0,0", "--elo0", "-1500", "--elo1", "-500"], "H0 accepted", id="h0"),
    pytest.param(["--ptnml", "1,2,3,2,1"], "inconclusive after 18 games", id="inconclusive"),
    pytest.param(["--ptnml", "0,0,0,0,200", "--model", "logistic", "--elo1", "10"], "H1 accepted", id="logistic"),
])
def test_the_calculator_says_the_verdict_last(args, last):
    res = CliRunner().invoke(cli, ["sprt", *args])
    assert res.exit_code == 0, res.output
    assert res.output.splitlines()[-1] == last


@pytest.mark.parametrize("args, message", [
    pytest.param(["--ptnml", "1,2,3"], "Invalid value for --ptnml: '1,2,3' has 3 counts, not 5", id="ptnml"),
    pytest.param(["--ptnml", "1,2,3,4,5", "--elo0", "5", "--elo1", "1"],
                 "Invalid value for --elo0: elo0 5 is not below elo1 1", id="elo-order"),
    pytest.param(["--ptnml", "1,2,3,4,5", "--alpha", "0.7"], "Invalid value for --alpha: alpha 0.7", id="alpha"),
    pytest.param(["--ptnml", "1,2,3,4,5", "--beta", "0"], "Invalid value for --beta: beta 0", id="beta"),
    pytest.param(["--ptnml", "1,2,3,4,5", "--model", "bayes"], "Invalid value for '--model'", id="model"),
    pytest.param(["--ptnml", "1,2,3,4,5", "--at", "10"], "--at asks how long the bounds take", id="at-with-counts"),
    pytest.param(["--variance", "0.3"], "Invalid value for '--variance'", id="variance"),
])
def test_the_calculator_refuses_bad_input_with_a_usage_error(args, message):
    res = CliRunner().invoke(cli, ["sprt", *args])
    assert res.exit_code == 2, res.output
    assert message in res.output
    assert res.exception is None or isinstance(res.exception, SystemExit)


@pytest.mark.parametrize("model", ["normalized", "logistic"])
def test_the_one_row_llr_is_the_batch_llr(model):
    """The running test's float path (``llr_one``) against the array reference, on seeded counts with
    zero bins, lopsided bins and bounds from narrow to extreme."""
    rng = np.random.default_rng(11)
    rows = [[0, 0, 1, 0, 0], [0, 0, 0, 0, 5], [3, 0, 0, 0, 50], [5, 0, 0, 0, 0], [10, 30, 100, 35, 12]]
    rows += [[int(rng.choice([0, 1, 2, 5, rng.integers(1000)])) for _ in range(5)] for _ in range(60)]
    for elo0, elo1 in ((0, 5), (-10, 10), (100, 120), (-1000, 1000)):
        batch = llr_batch(rows, elo0, elo1, model)
        for row, expected in zip(rows, batch):
            got = llr_one(row, elo0, elo1, model)
            assert got == pytest.approx(float(expected), rel=1e-9, abs=1e-12), (row, elo0, elo1)
    assert (SprtSettings(0, 5, model=model).llr(Ptnml((10, 30, 100, 35, 12)))
            == llr_one((10, 30, 100, 35, 12), 0, 5, model))


def test_without_counts_the_calculator_says_how_many_games_the_bounds_take():
    res = CliRunner().invoke(cli, ["sprt", "--elo0", "0", "--elo1", "5", "--variance", "0.1", "--at", "2"])
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert lines[0] == "SPRT [0, 5] nElo, alpha 0.05, beta 0.05: LLR bounds (-2.94, 2.94)"
    settings = SprtSettings(0, 5)
    rows = {line.split(",")[1].split()[0]: line.split() for line in lines[3:-1]}
    assert set(rows) == {"no", "middle", "elo1", "+30", "asked"}
    for label, elo in (("no", 0.0), ("middle", 2.5), ("elo1", 5.0), ("asked", 2.0)):
        assert rows[label][-2] == f"{100 * pass_probability(settings, 0.1, elo):.1f}%"
        assert rows[label][-1] == f"{2 * expected_pairs(settings, 0.1, elo):,.0f}"
    assert rows["no"][-1] == "25,591"  # [0, 5] nElo: 2 * 5.30 / (sqrt(2) * 5 / 347.4)^2 games under H0
    assert lines[-1].startswith("(the Brownian approximation fishtest's SPRT calculator uses")


def test_the_calculators_defaults_are_compares_for_the_table():
    res = CliRunner().invoke(cli, ["sprt", "-r", "family", "--seats", "4"])
    assert res.exit_code == 0, res.output
    assert res.output.startswith("SPRT [0, 35] nElo, alpha 0.05, beta 0.05 (the default for family at 4 seats)")
    assert "per-pair variance of the pair score 0.0909" in res.output


def test_an_undecided_test_says_how_much_longer_it_is_expected_to_run():
    res = CliRunner().invoke(cli, ["sprt", "--ptnml", "20,10,100,12,30"])
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert lines[-1] == "inconclusive after 344 games"
    assert lines[-2].startswith("Expected: 711 games if H0 or H1 is true; at the estimate so far about ")
    counts = Ptnml((20, 10, 100, 12, 30))
    more = 2 * remaining(SprtSettings(0, 30), counts, SprtSettings(0, 30).llr(counts)).pairs
    assert lines[-2].endswith(f"about {more:,.0f} more")
