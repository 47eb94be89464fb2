"""The statistics of a balance report in one import: intervals, card metrics, card effects within
their decks, deck and matchup win rates, game metrics and A/B comparisons. Pure Python; the charts (matplotlib) live apart in charts.py.
"""

from __future__ import annotations

from .cards import DEFAULT_MIN_SAMPLE, CardStats, card_stats
from .compare import CardComparison, Comparison, ComparisonRow, SeatComparison, compare_stats
from .decks import DeckResult, MatchupResult, deck_results, matchup_results
from .effects import CardEffect, card_effects
from .games import AbortedGame, Balance, GameStats, Pairing, ReasonCount, Summary, game_stats, pairings
from .intervals import (
    Difference,
    PairedDifference,
    Proportion,
    difference,
    paired_difference,
    wilson,
    z_for,
)

__all__ = [
    "DEFAULT_MIN_SAMPLE", "CardStats", "card_stats",
    "CardEffect", "card_effects", "DeckResult", "MatchupResult", "deck_results", "matchup_results",
    "CardComparison", "Comparison", "ComparisonRow", "SeatComparison", "compare_stats",
    "AbortedGame", "Balance", "GameStats", "Pairing", "ReasonCount", "Summary", "game_stats", "pairings",
    "Difference", "PairedDifference", "Proportion", "difference", "paired_difference", "wilson", "z_for",
]
