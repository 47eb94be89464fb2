"""Group-sequential boundaries for a two-sided test looked at K times (`compare --until-significant`).

A comparison looked at after every block of games, and stopped at the first look where it is
significant, would find a difference that is not there far more often than alpha if each look
used the fixed-sample 1.96. A group-sequential boundary raises the critical |z| of each look so
that the chance of crossing at ANY look, when there is no difference, is exactly alpha:

- Pocock: the same critical value c at every look;
- O'Brien-Fleming: c * sqrt(K / k) at look k: very strict early, close to the fixed-sample value
  at the last look (little power lost), so an early stop needs a large difference.

c is found numerically for the given K and alpha (looks equally spaced in information) by the
recursive integration of Armitage, McPherson and Rowe (1969), as in Jennison and Turnbull, *Group
Sequential Methods with Applications to Clinical Trials* (2000), chapter 19: the density of the
running score on the region not yet stopped is carried from look to look on a Simpson grid. The
results match the book's tables (2.1, 2.3) to the third decimal (tests/test_compare_sequential.py).

The repeated confidence interval at look k, estimate ± c_k * se_k, covers the true difference at
every look at once with probability 1 - alpha (Jennison and Turnbull, chapter 9), whether or not
and wherever the comparison stops: it is the interval to read after a sequential comparison.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

POCOCK = "pocock"
OBRIEN_FLEMING = "obrien-fleming"
KINDS = (OBRIEN_FLEMING, POCOCK)
GRID = 41  # Simpson points per look (odd): the constants agree with 161 points to 1e-4
TOLERANCE = 1e-6  # of the crossing probability the constant is solved to


def _cdf(x: float) -> float:
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


def _pdf(x: float) -> float:
    return math.exp(-0.5 * x * x) / math.sqrt(2.0 * math.pi)


@dataclass(frozen=True)
class Boundary:
    """The critical |z| of each of `looks` equally spaced looks, for a two-sided `alpha`."""

    kind: str
    looks: int
    alpha: float
    constant: float  # Pocock's c, or O'Brien-Fleming's c (the last look's value)
    critical: tuple[float, ...]  # |z| at look 1..K

    def nominal(self, look: int) -> float:
        """The two-sided significance level one look is tested at (its fixed-sample p threshold)."""
        return 2.0 * (1.0 - _cdf(self.critical[look - 1]))

    def describe(self) -> str:
        name = "Pocock" if self.kind == POCOCK else "O'Brien-Fleming"
        zs = ", ".join(f"{z:.2f}" for z in self.critical)
        return (f"{name} boundary, {self.looks} looks, overall two-sided alpha {self.alpha:g} "
                f"(critical |z| by look: {zs})")


def _critical(kind: str, looks: int, constant: float) -> tuple[float, ...]:
    if kind == POCOCK:
        return tuple(constant for _ in range(looks))
    return tuple(constant * math.sqrt(looks / k) for k in range(1, looks + 1))


def crossing_probabilities(critical: tuple[float, ...], drift: float = 0.0) -> tuple[float, ...]:
    """P(the two-sided boundary is first crossed at look k), k = 1..K, for looks equally spaced in
    information, when the z statistic at the last look has mean `drift` (0: no difference)."""
    looks = len(critical)
    step = 1.0 / looks  # information between looks, the whole being 1
    sd = math.sqrt(step)
    mean_step = drift * step
    out: list[float] = []
    points: list[float] = []
    density: list[float] = []
    weights: list[float] = []
    for k in range(1, looks + 1):
        edge = critical[k - 1] * math.sqrt(k * step)  # the boundary on the score scale S_k = Z_k sqrt(t_k)
        if k == 1:
            out.append(_cdf((-edge - mean_step) / sd) + 1.0 - _cdf((edge - mean_step) / sd))
        else:
            crossed = 0.0
            for u, f, w in zip(points, density, weights):
                mean_at = u + mean_step
                crossed += w * f * (_cdf((-edge - mean_at) / sd) + 1.0 - _cdf((edge - mean_at) / sd))
            out.append(crossed)
        if k == looks:
            break
        grid = [-edge + 2.0 * edge * i / (GRID - 1) for i in range(GRID)]
        h = 2.0 * edge / (GRID - 1)
        simpson = [h / 3.0 * (1 if i in (0, GRID - 1) else 4 if i % 2 else 2) for i in range(GRID)]
        if k == 1:
            new = [_pdf((s - mean_step) / sd) / sd for s in grid]
        else:
            new = [sum(w * f * _pdf((s - u - mean_step) / sd) for u, f, w in zip(points, density, weights)) / sd
                   for s in grid]
        points, density, weights = grid, new, simpson
    return tuple(out)


@functools.lru_cache(maxsize=32)
def boundary(kind: str, looks: int, alpha: float) -> Boundary:
    """The boundary of `kind` (POCOCK or OBRIEN_FLEMING) whose overall false-positive rate, over
    `looks` equally spaced looks with no true difference, is `alpha` (two-sided)."""
    if kind not in KINDS:
        raise ValueError(f"the boundary is one of {', '.join(KINDS)}, not {kind!r}")
    if looks < 1:
        raise ValueError(f"looks must be at least 1, not {looks}")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be between 0 and 1, not {alpha}")
    low, high = 0.0, 10.0  # the crossing probability falls as the constant rises
    while True:
        middle = (low + high) / 2.0
        spent = sum(crossing_probabilities(_critical(kind, looks, middle)))
        if abs(spent - alpha) < TOLERANCE or high - low < 1e-9:
            break
        if spent > alpha:
            low = middle
        else:
            high = middle
    return Boundary(kind, looks, alpha, middle, _critical(kind, looks, middle))


def crosses(estimate: float | None, se: float | None, critical: float) -> bool:
    """Whether estimate/se reaches the look's critical |z|. A zero standard error (every pair
    differed alike) crosses with any nonzero estimate; an unknown one never crosses."""
    if estimate is None or se is None:
        return False
    if se == 0:
        return estimate != 0
    return abs(estimate) / se >= critical


def look_ends(games: int, looks: int) -> list[int]:
    """The number of games played by the end of each look: N/K per look, rounded down, so the
    looks are as equal as whole games allow (the boundary assumes equal looks)."""
    if not 1 <= looks <= games:
        raise ValueError(f"looks must be between 1 and the number of games ({games}), not {looks}")
    return [k * games // looks for k in range(1, looks + 1)]


def for_estimated_variance(critical: float, pairs: int) -> float:
    """The look's critical |z| raised for a standard error estimated from `pairs` pairs: the
    Student t quantile (pairs - 1 degrees of freedom) of the same tail probability, by its
    Cornish-Fisher expansion (Abramowitz and Stegun 26.7.5; within 0.001 from 10 degrees of freedom
    on). The boundary is computed for a known variance; this keeps each look's own level, so the
    overall rate stays alpha with few pairs per look (tests/test_compare_sequential.py)."""
    df = pairs - 1
    if df < 1:
        return math.inf
    z = critical
    return (z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2)
            + (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / (384 * df ** 3)
            + (79 * z ** 9 + 776 * z ** 7 + 1482 * z ** 5 - 1920 * z ** 3 - 945 * z) / (92160 * df ** 4))
