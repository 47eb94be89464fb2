"""The within-deck opening-hand comparison: the one estimator of a card's effect, used by the
balance report's card table (effects.py: ranking and flags), `compare`'s per-card figures
(compare.py) and each card's effect on score (scores.py).

A *unit* is one player-game whose deck held the card: its stratum, whether the card was in the
opening hand, and its value (1/0 for a win, a score, or a paired difference of wins in `compare`).
The shuffle alone decides whether the card was in the opening hand, so within a stratum the two
groups differ only by the card: the difference of their mean values is what having the card from
the start is worth.

- **Strata** (`stratum_of`): the player's seat, their deck (its name, or its card list when the
  records name no deck), the table's decks by seat and the agents by seat. So the deck's own
  strength, the seat and the matchup cancel out.
- **Weights**: Cochran-Mantel-Haenszel, w = n1 n0 / (n1 + n0) per stratum with n1 player-games
  with the card in the opening hand and n0 without; a stratum lacking either side is left out.
  The estimate is sum(w (mean1 - mean0)) / sum(w).
- **Interval**: normal, estimate ± z se, se^2 = sum(w^2 (v1/n1 + v0/n0)) / sum(w)^2 from each
  side's own variance: for values that are all 0 or 1, that of the rate adjusted by half a success
  ((x + 0.5) / (n + 1)), so that a side at 0% or 100% is not certain; otherwise the sample variance
  (the stratum's pooled one for a side of one value). Clipped to `bounds` (a difference of two win
  rates lies in [-1, 1]).
- **Test**: z = estimate / sqrt(sum(w v) / sum(w)^2), v the stratum's variance under no difference
  (its values pooled, divided by n: for wins p (1 - p), the Cochran-Mantel-Haenszel test); p is
  two-sided. With no variance under no difference (every value of the compared strata equal) there
  is no test: z and p are None.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass

from .intervals import Z95, p_value
from .records import Player, Record, held, player_won

Unit = tuple[Hashable, bool, float]  # (stratum, had the card in the opening hand, value)

NO_PLAYER = "no player held it"
IN_NO_HAND = "never in an opening hand"
IN_EVERY_HAND = "in every opening hand of its deck"
NEVER_BOTH = "never both in and out of the opening hand in games of the same deck, seat, opponents and agents"

WIN_BOUNDS = (-1.0, 1.0)  # a difference of two win rates


@dataclass(frozen=True)
class OpeningEffect:
    """An estimate with its standard error, interval and test, or why there is none (`reason`)."""

    estimate: float | None
    se: float | None
    low: float | None
    high: float | None
    reason: str | None = None  # why there is no estimate (None when there is one)
    z: float | None = None  # the test of no difference (None: no estimate, or no variance under it)
    p: float | None = None  # two-sided

    @classmethod
    def of(cls, estimate: float, se: float, z: float = Z95) -> OpeningEffect:
        """An estimate from elsewhere (a difference of two effects) with its normal interval and
        Wald test."""
        return cls(estimate, se, estimate - z * se, estimate + z * se, None,
                   None if se == 0 else estimate / se, p_value(estimate, se))

    @classmethod
    def missing(cls, reason: str) -> OpeningEffect:
        return cls(None, None, None, None, reason)


def deck_of(record: Record, player: Player) -> str | None:
    """The name of a player's deck in a record (None: the ruleset gives no named decks)."""
    name = player.get("deck_name")
    if name is None and record.get("decks"):
        seat = player["seat"]
        decks = record["decks"]
        name = decks[seat - 1] if 0 < seat <= len(decks) else None
    return name


def stratum_of(record: Record, player: Player) -> Hashable:
    """The player-game's stratum: seat, deck (name, else card list), the table's decks, the agents."""
    deck: Hashable = deck_of(record, player)
    if deck is None:
        deck = tuple(sorted((str(k), v) for k, v in player.get("deck", {}).items() if v > 0))
    return (player["seat"], deck, tuple(record.get("decks") or ()), tuple(record.get("agents") or ()))


def win_value(record: Record, player: Player) -> float:
    return float(player_won(record, player))


def units_of(record: Record, card: str, value: Callable[[Record, Player], float | None] = win_value,
             seats: set[int] | None = None) -> list[tuple[int, Unit]]:
    """Per player whose deck holds the card (of `seats` when given) and who has a value: its seat
    and its unit."""
    out = []
    for player in record["players"]:
        if held(player, "deck", card) and (seats is None or player["seat"] in seats):
            v = value(record, player)
            if v is not None:
                out.append((player["seat"], (stratum_of(record, player), held(player, "opening", card), float(v))))
    return out


def _side_variance(values: list[float], binary: bool, pooled: float) -> float:
    n = len(values)
    if binary:
        rate = (sum(values) + 0.5) / (n + 1)
        return rate * (1 - rate)
    return statistics.variance(values) if n >= 2 else pooled


def _population_variance(values: list[float]) -> float:
    return statistics.pvariance(values) if len(values) > 1 else 0.0


def opening_effect(units: Iterable[Unit], z: float = Z95,
                   bounds: tuple[float, float] | None = None) -> OpeningEffect:
    """The stratified difference (with the card in the opening hand minus without) of the units'
    values, with its interval at `z` (clipped to `bounds`) and test (module docstring)."""
    strata: dict[Hashable, tuple[list[float], list[float]]] = {}
    opened_any = closed_any = False
    for stratum, opened, value in units:
        strata.setdefault(stratum, ([], []))[0 if opened else 1].append(value)
        opened_any |= opened
        closed_any |= not opened
    if not strata:
        return OpeningEffect.missing(NO_PLAYER)
    compared = [(a, b) for a, b in strata.values() if a and b]
    if not compared:
        return OpeningEffect.missing(IN_NO_HAND if not opened_any else IN_EVERY_HAND if not closed_any
                                     else NEVER_BOTH)
    binary = all(v in (0.0, 1.0) for a, b in compared for v in (*a, *b))
    total = estimate = variance = null = 0.0
    for with_it, without in compared:
        n1, n0 = len(with_it), len(without)
        w = n1 * n0 / (n1 + n0)
        pooled = _population_variance(with_it + without)
        total += w
        estimate += w * (statistics.fmean(with_it) - statistics.fmean(without))
        variance += w * w * (_side_variance(with_it, binary, pooled) / n1 + _side_variance(without, binary, pooled) / n0)
        null += w * pooled  # (w^2 (1/n1 + 1/n0) = w)
    estimate /= total
    se = math.sqrt(variance) / total
    low, high = estimate - z * se, estimate + z * se
    if bounds is not None:
        low, high = max(bounds[0], low), min(bounds[1], high)
    test = estimate / (math.sqrt(null) / total) if null > 0 else None
    p = 2 * (1 - statistics.NormalDist().cdf(abs(test))) if test is not None else None
    return OpeningEffect(estimate, se, low, high, None, test, p)
