"""`compare --until-significant`: the group-sequential boundary (report/sequential.py) matches the
published constants, and a simulation of the stopping rule under NO difference shows its
false-positive rate is alpha, where alpha per look (or the former alpha/10 per look) is not.

The simulation draws, per seed, the two sides' wins as independent fair coins (the pair's
difference is -1, 0 or +1: no true difference), looks after every tenth of the pairs, and stops at
the first look whose z (mean over standard error, the sample variance as `paired_difference`
computes it) crosses the look's critical value, raised for the estimated variance, as `compare`
does. CARDRULES_LONG=1 runs ten
times as many sequences.
"""

from __future__ import annotations

import math
import os
import random

import pytest

from interpreter.report.intervals import wilson, z_for
from interpreter.report.sequential import (
    OBRIEN_FLEMING,
    POCOCK,
    boundary,
    crosses,
    for_estimated_variance,
    look_ends,
)

LONG = os.environ.get("CARDRULES_LONG") == "1"
RUNS = 40_000 if LONG else 4_000  # simulated comparisons per boundary
PAIRS = 400  # paired games per comparison: ten looks of 40
LOOKS = 10
ALPHA = 0.05
CHECK_Z = 2.576  # the observed rate's 99% interval must hold alpha


def false_positives(critical: tuple[float, ...], runs: int, seed: int) -> int:
    """How many of `runs` comparisons with no true difference stop with a significant difference."""
    rng = random.Random(seed)
    ends = look_ends(PAIRS, len(critical))
    stopped = 0
    for _ in range(runs):
        total = squares = 0
        n = 0
        for look, end in enumerate(ends):
            while n < end:
                bits = rng.getrandbits(2)  # (two fair coins: 0 -> -1, 3 -> +1, else 0)
                d = (bits == 3) - (bits == 0)
                total += d
                squares += d * d
                n += 1
            mean = total / n
            variance = (squares - n * mean * mean) / (n - 1)
            if crosses(mean, math.sqrt(max(variance, 0.0) / n), for_estimated_variance(critical[look], n)):
                stopped += 1
                break
    return stopped


def rate_interval(critical: tuple[float, ...], seed: int) -> tuple[float, float, float]:
    p = wilson(false_positives(critical, RUNS, seed), RUNS, CHECK_Z)
    assert p.rate is not None and p.low is not None and p.high is not None
    return p.rate, p.low, p.high


@pytest.mark.parametrize("kind, constant", [(POCOCK, 2.555), (OBRIEN_FLEMING, 2.087)])
def test_the_boundary_constants_match_jennison_and_turnbull(kind, constant):
    """Tables 2.1 and 2.3 of Jennison and Turnbull (2000): K = 10 looks, two-sided alpha 0.05."""
    plan = boundary(kind, LOOKS, ALPHA)
    assert plan.constant == pytest.approx(constant, abs=6e-4)
    if kind == POCOCK:
        assert plan.critical == tuple([plan.constant] * LOOKS)
    else:
        assert plan.critical[-1] == plan.constant and plan.critical[0] == pytest.approx(constant * math.sqrt(10), abs=2e-3)


@pytest.mark.parametrize("kind, looks, constant", [(POCOCK, 2, 2.178), (POCOCK, 5, 2.413), (OBRIEN_FLEMING, 2, 1.977),
                                                   (OBRIEN_FLEMING, 5, 2.040), (POCOCK, 1, 1.960)])
def test_other_numbers_of_looks(kind, looks, constant):
    assert boundary(kind, looks, ALPHA).constant == pytest.approx(constant, abs=6e-4)


@pytest.mark.parametrize("kind", [OBRIEN_FLEMING, POCOCK])
def test_the_false_positive_rate_under_no_difference_is_alpha(kind):
    rate, low, high = rate_interval(boundary(kind, LOOKS, ALPHA).critical, seed=33)
    assert low <= ALPHA <= high, f"{kind}: false-positive rate {rate:.4f}, 99% interval [{low:.4f}, {high:.4f}]"


@pytest.mark.parametrize("name, critical", [
    ("alpha per look, unadjusted", tuple([z_for(ALPHA)] * LOOKS)),
    ("alpha/10 per look (Bonferroni, the former rule)", tuple([z_for(ALPHA / LOOKS)] * LOOKS)),
])
def test_the_simulation_fails_a_wrong_boundary(name, critical):
    """The check above can fail: unadjusted looks find a difference far more often than alpha;
    Bonferroni's finds one far less often (it wastes power: its rate is not alpha either)."""
    rate, low, high = rate_interval(critical, seed=33)
    assert not low <= ALPHA <= high, f"{name}: {rate:.4f} [{low:.4f}, {high:.4f}]"


def test_looks_are_as_equal_as_whole_games_allow():
    assert look_ends(25, 10) == [2, 5, 7, 10, 12, 15, 17, 20, 22, 25]
    assert look_ends(10, 10) == list(range(1, 11))
    with pytest.raises(ValueError, match="between 1 and the number of games"):
        look_ends(5, 10)


def test_a_zero_standard_error_crosses_only_with_a_difference():
    assert crosses(0.5, 0.0, 2.0) and not crosses(0.0, 0.0, 2.0) and not crosses(0.5, None, 2.0)
    assert crosses(-0.3, 0.1, 2.9) and not crosses(-0.3, 0.1, 3.1)


def test_an_early_stop_says_the_estimate_is_biased_and_by_how_much_at_most():
    from interpreter.cli.compare import _main_dict, _main_text, _sequential, _sequential_text
    from interpreter.report.intervals import paired_difference

    plan = boundary(OBRIEN_FLEMING, LOOKS, ALPHA)
    main = paired_difference([0] * 100, [1] * 30 + [0] * 70)  # look 2 of 10: 100 pairs, +30 points
    critical = for_estimated_variance(plan.critical[1], 100)
    assert critical == pytest.approx(4.9479, abs=1e-3)  # (4.666 as a t quantile, 99 degrees of freedom: by quadrature)
    facts = _sequential(main, plan, 2, stopped_early=True)
    assert facts["crossed"] and facts["critical_at_look"] == critical
    assert facts["bias_bound"] == pytest.approx(critical * main.se)
    assert (facts["repeated_low"], facts["repeated_high"]) == pytest.approx(
        (main.mean - critical * main.se, main.mean + critical * main.se))
    summary = _main_dict(main, ["X"], False, facts)
    assert summary["significant"] and summary["level"] == 0.95
    text = _sequential_text(summary)
    assert "look 2 of 10" in text and "biased away from zero" in text
    assert f"overstates the true difference by at most {100 * critical * main.se:.1f} points" in text
    assert _main_text(summary).startswith(
        f"win rate of the decks holding X: +30.0 points, 95% repeated interval [{100 * facts['repeated_low']:+.1f}, ")
    # a comparison that ran to its last look says nothing of an early stop
    assert "Stopped early" not in _sequential_text(_main_dict(main, ["X"], False, _sequential(main, plan, 10, False)))


@pytest.mark.parametrize("z, pairs, t", [(1.959964, 10, 2.2622), (1.959964, 40, 2.0227), (2.575829, 10, 3.2498)])
def test_the_critical_value_for_an_estimated_variance_is_the_t_quantile(z, pairs, t):
    """Student t quantiles (pairs - 1 degrees of freedom) of the same tail, from the tables."""
    assert for_estimated_variance(z, pairs) == pytest.approx(t, abs=2e-4)
    assert for_estimated_variance(z, 1) == math.inf


def test_the_t_raised_critical_value_is_applied_once():
    from interpreter.cli.compare import _sequential, crossed
    from interpreter.report.intervals import paired_difference

    plan = boundary(OBRIEN_FLEMING, LOOKS, ALPHA)
    main = paired_difference([0] * 100, [1] * 20 + [0] * 80)  # z = sqrt(99 * 20 / 80) = 4.975
    assert main.mean / main.se == pytest.approx(4.975, abs=1e-3)
    assert crossed(main, plan.critical[1])  # above 4.948 (look 2, 99 degrees of freedom)
    assert _sequential(main, plan, 2, stopped_early=True)["crossed"]
