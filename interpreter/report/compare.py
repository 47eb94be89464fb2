"""A/B comparison of two rule variants played on the same seeds (common random numbers).

Records are paired by seed: only seeds present on both sides and finished on both count (neither
aborted nor unfinished). Each
seat's and each card's win difference (variant minus base) is a paired difference over those
seeds, which cancels most of the luck the two games share.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TypedDict

from .errors import ReportError
from .intervals import Z95, PairedDifference, Proportion, paired_difference, wilson
from .records import Record, card_names, check_records, held, seat_numbers, seat_won, seats

DETECTABLE_SHIFT = 0.02  # the win-rate difference `games_needed` is sized to detect


@dataclass(frozen=True)
class SeatComparison:
    seat: int
    base: Proportion  # the seat's wins over the paired games
    variant: Proportion
    difference: PairedDifference  # variant minus base, 1/0 wins by seed


@dataclass(frozen=True)
class CardComparison:
    """One card: its games-in-deck win rate on each side, and the paired difference.

    A pair is a seed where some player holds the card on both sides; its values are the mean
    win (1/0) of the players holding it, base side and variant side.
    """

    name: str
    base: Proportion  # games-in-deck win rate over the paired games
    variant: Proportion
    difference: PairedDifference


class ComparisonRow(TypedDict):
    """One line of a comparison as plain data (JSON-ready): a seat or a card."""

    kind: str  # "seat" or "card"
    name: str  # "seat 1" or the card name
    base_wins: int
    base_games: int
    base_rate: float | None
    base_low: float | None
    base_high: float | None
    variant_wins: int
    variant_games: int
    variant_rate: float | None
    variant_low: float | None
    variant_high: float | None
    pairs: int  # seeds the difference is over
    difference: float | None  # variant minus base
    low: float | None
    high: float | None
    significant: bool
    games_needed: int | None  # pairs needed to detect DETECTABLE_SHIFT at this variance


@dataclass(frozen=True)
class Comparison:
    base_games: int
    variant_games: int
    seeds: tuple[int, ...]  # the paired seeds, sorted
    seats: tuple[SeatComparison, ...]
    cards: tuple[CardComparison, ...]  # largest difference first, unknown differences last

    def rows(self) -> list[ComparisonRow]:
        """The seats, then the cards, as plain dicts."""
        lines = [(f"seat {s.seat}", "seat", s.base, s.variant, s.difference) for s in self.seats]
        lines += [(c.name, "card", c.base, c.variant, c.difference) for c in self.cards]
        return [_row(kind, name, base, variant, diff) for name, kind, base, variant, diff in lines]


def _row(kind: str, name: str, base: Proportion, variant: Proportion, diff: PairedDifference) -> ComparisonRow:
    return ComparisonRow(
        kind=kind, name=name,
        base_wins=base.successes, base_games=base.n, base_rate=base.rate, base_low=base.low, base_high=base.high,
        variant_wins=variant.successes, variant_games=variant.n, variant_rate=variant.rate,
        variant_low=variant.low, variant_high=variant.high,
        pairs=diff.n, difference=diff.mean, low=diff.low, high=diff.high, significant=diff.significant,
        games_needed=diff.games_needed(DETECTABLE_SHIFT),
    )


def _by_seed(records: list[Record], side: str) -> dict[int, Record]:
    table: dict[int, Record] = {}
    for record in records:
        if record["seed"] in table:
            raise ReportError(f"seed {record['seed']} appears twice in the {side} records: they cannot be paired")
        table[record["seed"]] = record
    return table


def _paired(base: dict[int, Record], variant: dict[int, Record]) -> list[int]:
    return sorted(seed for seed in base.keys() & variant.keys()
                  if _ended(base[seed]) and _ended(variant[seed]))


def _ended(record: Record) -> bool:
    """Whether the game ended by its rules: not aborted, not unfinished (stopped at its cap)."""
    return not record["aborted"] and not record.get("unfinished")


def paired_seeds(base_records: Iterable[Record], variant_records: Iterable[Record]) -> list[int]:
    """The seeds present on both sides and finished on both (by their rules), sorted."""
    return _paired(_by_seed(check_records(base_records), "base"),
                   _by_seed(check_records(variant_records), "variant"))


def compare_stats(base_records: Iterable[Record], variant_records: Iterable[Record], z: float = Z95) -> Comparison:
    """Pair the two sides by seed and compare seats and cards; `z` sets the intervals' width."""
    base_all = check_records(base_records)
    variant_all = check_records(variant_records)
    base = _by_seed(base_all, "base")
    variant = _by_seed(variant_all, "variant")
    paired = _paired(base, variant)
    base_games = [base[seed] for seed in paired]
    variant_games = [variant[seed] for seed in paired]
    seat_lines = tuple(_compare_seat(seat, base_games, variant_games, z)
                       for seat in seats(base_games + variant_games))
    card_lines = [_compare_card(card, base_games, variant_games, z)
                  for card in card_names(base_games + variant_games)]
    card_lines.sort(key=lambda c: (c.difference.mean is None, -(c.difference.mean or 0.0), c.name))
    return Comparison(len(base_all), len(variant_all), tuple(paired), seat_lines, tuple(card_lines))


def _won(record: Record, seat: int) -> int | None:
    return seat_won(record, seat) if seat in seat_numbers(record) else None


def _compare_seat(seat: int, base_games: list[Record], variant_games: list[Record], z: float) -> SeatComparison:
    xs: list[int] = []
    ys: list[int] = []
    for base, variant in zip(base_games, variant_games):
        x, y = _won(base, seat), _won(variant, seat)
        if x is not None and y is not None:
            xs.append(x)
            ys.append(y)
    return SeatComparison(seat, _wins_of(base_games, seat), _wins_of(variant_games, seat),
                          paired_difference(xs, ys, z))


def _wins_of(games: list[Record], seat: int) -> Proportion:
    outcomes = [w for w in (_won(r, seat) for r in games) if w is not None]
    return wilson(sum(outcomes), len(outcomes))


def _holders_wins(record: Record, card: str) -> list[int]:
    """1/0 per player of the game whose deck holds the card."""
    return [int(bool(p["won"])) for p in record["players"] if held(p, "deck", card)]


def _compare_card(card: str, base_games: list[Record], variant_games: list[Record], z: float) -> CardComparison:
    xs: list[float] = []
    ys: list[float] = []
    base_outcomes: list[int] = []
    variant_outcomes: list[int] = []
    for base, variant in zip(base_games, variant_games):
        x, y = _holders_wins(base, card), _holders_wins(variant, card)
        base_outcomes += x
        variant_outcomes += y
        if x and y:
            xs.append(statistics.fmean(x))
            ys.append(statistics.fmean(y))
    return CardComparison(card, wilson(sum(base_outcomes), len(base_outcomes)),
                          wilson(sum(variant_outcomes), len(variant_outcomes)), paired_difference(xs, ys, z))
