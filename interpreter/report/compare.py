"""A/B comparison of two rule variants played on the same seeds (common random numbers).

Records are paired by seed: only seeds present on both sides and finished on both count (neither
aborted nor unfinished). Each
seat's and each card's win difference (variant minus base) is a paired difference over those
seeds, which cancels most of the luck the two games share.

A card's games-in-deck (GD) win rate is its deck's win rate: with fixed decks, every card of a
changed deck moves with it, so GD is context, never a flag. A card's own figure is its
opening-hand effect: among the players whose deck holds it, the win rate of those who had it in
the opening hand minus those who had not, within each deck (the shuffle decides which, so the
comparison is randomised), by the estimator of the balance report's card table (opening.py: the
same strata, weights, interval and test, so both give the same figure for the same records).
A card is flagged when that effect changed between the sides beyond
chance: a z test per card, Holm's step-down correction across the cards tested (family-wise error
at most alpha). In a scoring game each seat's (or team's) mean final score is compared too,
paired by seed (shared.py).
"""

from __future__ import annotations

import dataclasses
import math
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TypedDict

from .errors import ReportError
from .intervals import Z95, PairedDifference, Proportion, holm, level_of, paired_difference, wilson
from .opening import NO_PLAYER, WIN_BOUNDS, OpeningEffect, Unit, opening_effect, units_of
from .records import Record, card_names, check_records, held, player_won, seat_numbers, seat_won, seats
from .shared import ScoreComparison, compare_scores

DETECTABLE_SHIFT = 0.02  # the win-rate difference `games_needed` is sized to detect
ALPHA = 0.05  # family-wise error rate of the card flags (Holm)
CHANGE_BOUNDS = (-2.0, 2.0)  # a change of an opening-hand effect (each in [-1, 1])
NO_CHANGE_VARIANCE = "no test: every paired game gave the same difference (no variance under no change)"


Effect = OpeningEffect  # (an effect or a change of one: opening.py)


@dataclass(frozen=True)
class SeatComparison:
    seat: int
    base: Proportion  # the seat's wins over the paired games
    variant: Proportion
    difference: PairedDifference  # variant minus base, 1/0 wins by seed


@dataclass(frozen=True)
class CardComparison:
    """One card: its games-in-deck win rate on each side and their paired difference (context), and
    its opening-hand effect on each side and the change of that effect (the tested figure).

    A GD pair is a seed where some player holds the card on both sides; its values are the mean
    win (1/0) of the players holding it, base side and variant side. A replaced card is one row:
    `base_name` on the base side, `variant_name` on the variant side, over the seats that held
    `base_name`.
    """

    name: str
    base: Proportion  # games-in-deck win rate over the paired games
    variant: Proportion
    difference: PairedDifference
    base_name: str = ""
    variant_name: str = ""
    base_effect: Effect = Effect.missing("not computed")  # opening-hand effect, base side
    variant_effect: Effect = Effect.missing("not computed")
    change: Effect = Effect.missing("not computed")  # variant effect minus base effect
    change_paired: bool = False  # the change's variance is from the paired seeds (else both sides apart)
    p: float | None = None  # two-sided p-value of the change
    flagged: bool = False  # the change is significant after Holm's correction across the cards


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
    significant: bool  # seats: the 95% interval excludes 0; cards: the same as `flagged`
    games_needed: int | None  # pairs needed to detect DETECTABLE_SHIFT at this variance
    level: float  # the confidence level of every interval of the row
    base_name: str | None  # cards: the card on each side (they differ for a replaced card)
    variant_name: str | None
    base_effect: float | None  # cards: opening-hand effect, with its interval at `level`
    base_effect_low: float | None
    base_effect_high: float | None
    variant_effect: float | None
    variant_effect_low: float | None
    variant_effect_high: float | None
    change: float | None  # variant effect minus base effect, interval at `level` (not adjusted)
    change_low: float | None
    change_high: float | None
    change_p: float | None  # its two-sided p-value (not adjusted)
    change_paired: bool
    flagged: bool  # cards: the change is significant after Holm's correction (family-wise `alpha`)
    no_test: str | None  # cards: why the change could not be tested


@dataclass(frozen=True)
class Comparison:
    base_games: int
    variant_games: int
    seeds: tuple[int, ...]  # the paired seeds, sorted
    seats: tuple[SeatComparison, ...]
    cards: tuple[CardComparison, ...]  # largest difference first, unknown differences last

    alpha: float = ALPHA  # the family-wise error rate of the card flags
    z: float = Z95
    scores: tuple[ScoreComparison, ...] = ()  # a scoring game: each seat's (or team's) mean score, paired

    @property
    def level(self) -> float:
        """The confidence level of every interval of the comparison."""
        return level_of(self.z)

    def rows(self) -> list[ComparisonRow]:
        """The seats, then the cards, as plain dicts."""
        lines = [_row("seat", f"seat {s.seat}", s.base, s.variant, s.difference, self.level) for s in self.seats]
        lines += [_card_row(c, self.level) for c in self.cards]
        return lines


def _row(kind: str, name: str, base: Proportion, variant: Proportion, diff: PairedDifference,
         level: float) -> ComparisonRow:
    return ComparisonRow(
        kind=kind, name=name,
        base_wins=base.successes, base_games=base.n, base_rate=base.rate, base_low=base.low, base_high=base.high,
        variant_wins=variant.successes, variant_games=variant.n, variant_rate=variant.rate,
        variant_low=variant.low, variant_high=variant.high,
        pairs=diff.n, difference=diff.mean, low=diff.low, high=diff.high, significant=diff.significant,
        games_needed=diff.games_needed(DETECTABLE_SHIFT), level=level, base_name=None, variant_name=None,
        base_effect=None, base_effect_low=None, base_effect_high=None, variant_effect=None,
        variant_effect_low=None, variant_effect_high=None, change=None, change_low=None, change_high=None,
        change_p=None, change_paired=False, flagged=False, no_test=None,
    )


def _card_row(card: CardComparison, level: float) -> ComparisonRow:
    row = _row("card", card.name, card.base, card.variant, card.difference, level)
    b, v, c = card.base_effect, card.variant_effect, card.change
    row.update(base_name=card.base_name or card.name, variant_name=card.variant_name or card.name,
               base_effect=b.estimate, base_effect_low=b.low, base_effect_high=b.high,
               variant_effect=v.estimate, variant_effect_low=v.low, variant_effect_high=v.high,
               change=c.estimate, change_low=c.low, change_high=c.high, change_p=card.p,
               change_paired=card.change_paired, flagged=card.flagged, significant=card.flagged,
               no_test=c.reason or (NO_CHANGE_VARIANCE if card.p is None else None))
    return row


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


def compare_stats(base_records: Iterable[Record], variant_records: Iterable[Record], z: float = Z95, *,
                  replace: Sequence[tuple[str, str]] = (), alpha: float = ALPHA) -> Comparison:
    """Pair the two sides by seed and compare seats and cards; `z` sets the intervals' width.

    `replace`: (CARD, OTHER) pairs, every copy of CARD having become OTHER on the variant side:
    each is one row, CARD's figures on the base side and OTHER's on the variant side. `alpha`:
    the family-wise error rate of the card flags (Holm)."""
    base_all = check_records(base_records)
    variant_all = check_records(variant_records)
    base = _by_seed(base_all, "base")
    variant = _by_seed(variant_all, "variant")
    paired = _paired(base, variant)
    base_games = [base[seed] for seed in paired]
    variant_games = [variant[seed] for seed in paired]
    seat_lines = tuple(_compare_seat(seat, base_games, variant_games, z)
                       for seat in seats(base_games + variant_games))
    replaced = dict(replace)
    # (a replacing card no base deck held has no row of its own: its figures are in the replaced card's)
    newcomers = set(replaced.values()) - set(card_names(base_games))
    names = [card for card in card_names(base_games + variant_games) if card not in replaced and card not in newcomers]
    card_lines = [_compare_card(card, card, base_games, variant_games, z) for card in names]
    card_lines += [_compare_card(old, new, base_games, variant_games, z) for old, new in replace]
    flags = holm([c.p for c in card_lines], alpha)
    card_lines = [dataclasses.replace(c, flagged=flag) for c, flag in zip(card_lines, flags)]
    card_lines.sort(key=lambda c: (c.p is None, c.p if c.p is not None else 1.0, c.name))
    return Comparison(len(base_all), len(variant_all), tuple(paired), seat_lines, tuple(card_lines), alpha, z,
                      tuple(compare_scores(base_games, variant_games, z)))


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


def _holders_wins(record: Record, card: str, seats: set[int] | None = None) -> list[int]:
    """1/0 per player of the game whose deck holds the card (of `seats` only, when given)."""
    return [int(player_won(record, p)) for p in record["players"]
            if held(p, "deck", card) and (seats is None or p["seat"] in seats)]


def _holding_seats(record: Record, card: str) -> set[int]:
    return {p["seat"] for p in record["players"] if held(p, "deck", card)}


def _compare_card(base_name: str, variant_name: str, base_games: list[Record], variant_games: list[Record],
                  z: float) -> CardComparison:
    """One card's row; a replaced card (the names differ) is followed in the seats that held
    `base_name`, on both sides."""
    replaced = base_name != variant_name
    xs: list[float] = []
    ys: list[float] = []
    base_outcomes: list[int] = []
    variant_outcomes: list[int] = []
    base_units: list[Unit] = []
    variant_units: list[Unit] = []
    paired_units: list[Unit] = []
    same_hands = True
    for base, variant in zip(base_games, variant_games):
        seats = _holding_seats(base, base_name) if replaced else None
        x, y = _holders_wins(base, base_name, seats), _holders_wins(variant, variant_name, seats)
        base_outcomes += x
        variant_outcomes += y
        if x and y:
            xs.append(statistics.fmean(x))
            ys.append(statistics.fmean(y))
        b_units = units_of(base, base_name, seats=seats)
        v_units = units_of(variant, variant_name, seats=seats)
        base_units += [u for _seat, u in b_units]
        variant_units += [u for _seat, u in v_units]
        v_by_seat = dict(v_units)
        for seat, (stratum, opened, won) in b_units:
            other = v_by_seat.get(seat)
            if other is None or other[1] != opened:
                same_hands = False
            else:
                paired_units.append((stratum, opened, other[2] - won))
        if len(v_units) != sum(1 for seat, _ in b_units if seat in v_by_seat):
            same_hands = False
    base_effect = opening_effect(base_units, z, WIN_BOUNDS)
    variant_effect = opening_effect(variant_units, z, WIN_BOUNDS)
    if same_hands and paired_units:
        # (the same players had it in the opening hand on both sides: the change of the effect is
        # the effect on the paired win differences, whose variance the shared luck has left)
        change = opening_effect(paired_units, z, CHANGE_BOUNDS)
    elif base_effect.estimate is None or variant_effect.estimate is None:
        change = Effect.missing(base_effect.reason or variant_effect.reason or NO_PLAYER)
    else:
        assert base_effect.se is not None and variant_effect.se is not None
        change = Effect.of(variant_effect.estimate - base_effect.estimate,
                           math.hypot(base_effect.se, variant_effect.se), z)
    name = f"{base_name} → {variant_name}" if replaced else base_name
    return CardComparison(name, wilson(sum(base_outcomes), len(base_outcomes)),
                          wilson(sum(variant_outcomes), len(variant_outcomes)), paired_difference(xs, ys, z),
                          base_name, variant_name, base_effect, variant_effect, change,
                          same_hands and bool(paired_units), change.p)
