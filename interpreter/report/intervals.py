"""Confidence intervals for win rates: Wilson for one proportion, Newcombe for the difference of two
independent ones, and a normal interval for paired (same-seed) differences.

Pure Python (the stdlib's `statistics`), so the numbers of a report need neither numpy nor matplotlib.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.96
POWER_80 = 0.8
# The fewest pairs from which the variance of a paired difference can be estimated at all.
MINIMUM_PAIRS = 2


def z_for(alpha: float) -> float:
    """The two-sided normal quantile for significance `alpha` (0.05 -> 1.96).

    For a sequential comparison use a group-sequential boundary (report/sequential.py), not this per look.
    """
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be between 0 and 1, not {alpha}")
    return statistics.NormalDist().inv_cdf(1 - alpha / 2)


@dataclass(frozen=True)
class Proportion:
    """`successes` out of `n`, with its Wilson interval; rate, low and high are None when n is 0."""

    successes: int
    n: int
    rate: float | None
    low: float | None
    high: float | None


def wilson(successes: int, n: int, z: float = Z95) -> Proportion:
    """The Wilson score interval of successes/n (95% with the default z)."""
    if not 0 <= successes <= n:
        raise ValueError(f"successes must be between 0 and n: {successes}/{n}")
    if n == 0:
        return Proportion(successes, n, None, None, None)
    rate = successes / n
    z2 = z * z
    scale = 1 + z2 / n
    midpoint = (rate + z2 / (2 * n)) / scale
    half = z / scale * math.sqrt(rate * (1 - rate) / n + z2 / (4 * n * n))
    # (at 0 or n successes an end equals the rate exactly; rounding would put it a hair past)
    return Proportion(successes, n, rate, min(rate, max(0.0, midpoint - half)), max(rate, min(1.0, midpoint + half)))


@dataclass(frozen=True)
class Difference:
    """An estimated difference with its interval; all None when it cannot be estimated."""

    estimate: float | None
    low: float | None
    high: float | None

    @property
    def significant(self) -> bool:
        """The interval excludes 0."""
        return self.low is not None and self.high is not None and (self.low > 0 or self.high < 0)


def difference(p1: Proportion, p2: Proportion) -> Difference:
    """p1.rate - p2.rate with Newcombe's hybrid score interval (method 10, from the Wilson intervals)."""
    if p1.rate is None or p2.rate is None:
        return Difference(None, None, None)
    assert p1.low is not None and p1.high is not None and p2.low is not None and p2.high is not None
    estimate = p1.rate - p2.rate
    below = math.sqrt((p1.rate - p1.low) ** 2 + (p2.high - p2.rate) ** 2)
    above = math.sqrt((p1.high - p1.rate) ** 2 + (p2.rate - p2.low) ** 2)
    return Difference(estimate, estimate - below, estimate + above)


@dataclass(frozen=True)
class PairedDifference:
    """The mean of ys[i] - xs[i] over pairs that share a seed, with a normal interval.

    mean is None with no pairs; variance, se, low and high are None with fewer than two.
    """

    n: int
    mean: float | None
    variance: float | None
    se: float | None
    low: float | None
    high: float | None
    z: float = Z95

    @property
    def significant(self) -> bool:
        """The interval excludes 0."""
        return self.low is not None and self.high is not None and (self.low > 0 or self.high < 0)

    def games_needed(self, shift: float = 0.02, power: float = POWER_80) -> int | None:
        """Pairs needed to detect a difference of `shift` at this variance (two-sided 5%, `power`).

        None when the variance is unknown (fewer than two pairs).
        """
        if self.variance is None:
            return None
        if shift <= 0:
            raise ValueError(f"shift must be positive, not {shift}")
        z_alpha = z_for(0.05)
        z_beta = statistics.NormalDist().inv_cdf(power)
        needed = math.ceil((z_alpha + z_beta) ** 2 * self.variance / (shift * shift))
        return max(MINIMUM_PAIRS, needed)


def paired_difference(xs: Sequence[float], ys: Sequence[float], z: float = Z95) -> PairedDifference:
    """ys - xs over pairs (xs[i], ys[i]) of one seed's outcome on each side: common random numbers."""
    if len(xs) != len(ys):
        raise ValueError(f"paired samples differ in length: {len(xs)} and {len(ys)}")
    diffs = [y - x for x, y in zip(xs, ys)]
    n = len(diffs)
    if n == 0:
        return PairedDifference(0, None, None, None, None, None, z)
    mean = statistics.fmean(diffs)
    if n < MINIMUM_PAIRS:
        return PairedDifference(n, mean, None, None, None, None, z)
    variance = statistics.variance(diffs, mean)
    se = math.sqrt(variance / n)
    return PairedDifference(n, mean, variance, se, mean - z * se, mean + z * se, z)


def level_of(z: float) -> float:
    """The two-sided confidence level of an interval of ±z standard errors, to four decimals
    (1.96 -> 0.95: the conventional z of 95% is 0.950004 exactly)."""
    return round(2.0 * statistics.NormalDist().cdf(z) - 1.0, 4)


def level_text(level: float) -> str:
    """'95%', '99.5%': a confidence level as people write it."""
    return f"{100 * level:.4g}%"


def p_value(estimate: float | None, se: float | None) -> float | None:
    """The two-sided normal p-value of estimate/se against 0; None when either is unknown.

    A zero standard error (every pair gave the same difference) gives p 0 for a nonzero estimate
    and 1 for a zero one."""
    if estimate is None or se is None:
        return None
    if se == 0:
        return 1.0 if estimate == 0 else 0.0
    return 2.0 * (1.0 - statistics.NormalDist().cdf(abs(estimate) / se))


def holm(p_values: Sequence[float | None], alpha: float = 0.05) -> list[bool]:
    """Holm's step-down correction: which of the tests are rejected with a family-wise error rate
    of at most `alpha` (the chance that any true null among them is rejected). None: not tested."""
    tested = sorted((p, i) for i, p in enumerate(p_values) if p is not None)
    rejected = [False] * len(p_values)
    m = len(tested)
    for rank, (p, index) in enumerate(tested):
        if p > alpha / (m - rank):
            break
        rejected[index] = True
    return rejected
