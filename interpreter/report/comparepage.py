"""The A/B comparison page (`compare --report DIR`): index.html, report.md and a chart, written
all at once or not at all. Every interval is labelled with its level; a card's own figures (its
opening-hand effect on each side, and their change) come with the test's p-value and the flag of
Holm's correction, and its games-in-deck win rates are shown as context.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from . import charts
from .compare import DETECTABLE_SHIFT, ComparisonRow, compare_stats, paired_seeds
from .documents import Chart, Document, Section, Table
from .games import game_stats
from .intervals import Proportion, level_text
from .pages import checked_records, side_summary, with_meta, write_document, write_pages
from .shared import ScoreComparison
from .sharedpage import mean_text
from .tables import NONE, percent, points, side_by_side_table


def _level(rows: Sequence[ComparisonRow]) -> str:
    return level_text(rows[0]["level"]) if rows else "95%"


def _proportion(row: ComparisonRow, side: str) -> str:
    return percent(Proportion(row[f"{side}_wins"], row[f"{side}_games"], row[f"{side}_rate"],  # type: ignore[literal-required]
                              row[f"{side}_low"], row[f"{side}_high"]))  # type: ignore[literal-required]


def seat_comparison_table(rows: Sequence[ComparisonRow]) -> Table:
    seats = [r for r in rows if r["kind"] == "seat"]
    level = _level(seats)
    lines = tuple((r["name"], _proportion(r, "base"), _proportion(r, "variant"), str(r["pairs"]),
                   points(r["difference"], r["low"], r["high"]), "yes" if r["significant"] else "",
                   NONE if r["games_needed"] is None else str(r["games_needed"])) for r in seats)
    return Table("Win rate by seat, paired",
                 ("Seat", f"Base WR ({level})", f"Variant WR ({level})", "Pairs", f"Difference ({level})",
                  f"Significant at {level}", "Games needed"), lines,
                 note=f"Win rates with their {level} Wilson intervals. Difference: variant minus base, paired by "
                      f"seed (pairs: seeds finished on both sides), with its {level} interval. Games needed: pairs "
                      f"that would detect a {100 * DETECTABLE_SHIFT:g}-point change at this variance "
                      f"(two-sided 5%, 80% power).")


def card_comparison_table(rows: Sequence[ComparisonRow], flags: str) -> Table:
    cards = [r for r in rows if r["kind"] == "card"]
    level = _level(cards)
    lines = []
    for r in cards:
        change = points(r["change"], r["change_low"], r["change_high"]) if r["change"] is not None \
            else f"{NONE} ({r['no_test']})"
        lines.append((r["name"], _proportion(r, "base"), _proportion(r, "variant"),
                      points(r["base_effect"], r["base_effect_low"], r["base_effect_high"]),
                      points(r["variant_effect"], r["variant_effect_low"], r["variant_effect_high"]),
                      change, NONE if r["change_p"] is None else f"{r['change_p']:.3g}",
                      "changed" if r["flagged"] else ""))
    muted = frozenset(i for i, r in enumerate(cards) if not r["flagged"])
    return Table("Cards, paired",
                 ("Card", f"Base GD WR ({level})", f"Variant GD WR ({level})", f"Base OH effect ({level})",
                  f"Variant OH effect ({level})", f"OH effect change ({level}, not adjusted)", "p", "Flag"),
                 tuple(lines), muted=muted,
                 note="A replaced card is one row, CARD → OTHER: CARD's figures on the base side, OTHER's on the "
                      "variant side, in the seats that held CARD. GD WR: win rate of the players whose deck holds "
                      "the card; with fixed decks it is the deck's win rate, so it is context and never flagged. "
                      "OH effect: win rate of those with the card in the opening hand minus those without, within "
                      "each deck (the shuffle decides which). OH effect change: variant minus base, from the paired "
                      f"seeds when the same players had it in hand on both sides. Flag: {flags}; the other cards "
                      "(muted) are context.")


def score_comparison_table(scores: Sequence[ScoreComparison]) -> Table:
    lines = tuple((s.name, mean_text(s.base), mean_text(s.variant), str(s.difference.n),
                   NONE if s.difference.mean is None else f"{s.difference.mean:+.2f}" + (
                       "" if s.difference.low is None or s.difference.high is None
                       else f" [{s.difference.low:+.2f}, {s.difference.high:+.2f}]"),
                   "yes" if s.difference.significant else "") for s in scores)
    return Table("Mean score, paired", ("Scorer", "Base mean score (95%)", "Variant mean score (95%)", "Pairs",
                                        "Difference (95%)", "Significant at 95%"), lines,
                 note="The final score of each seat (or team, when every team's seats carry the team's score), "
                      "over each side's finished games, with its 95% normal interval; difference: variant minus "
                      "base, paired by seed, with its 95% interval.")


def write_comparison(base_records: Iterable[Any], variant_records: Iterable[Any], out_dir: str | Path, *,
                     title: str, meta: Mapping[str, Any], rows: Sequence[ComparisonRow] | None = None,
                     flags: str = "Holm's correction across the cards tested, family-wise error rate 0.05",
                     scores: Sequence[ScoreComparison] | None = None) -> Path:
    """Write the A/B comparison page of two rule variants played on the same seeds; returns its path.

    `rows` are `compare_stats(base_records, variant_records).rows()` and `scores` its `scores` when
    the caller already has them (e.g. printed them); they are computed when None. `flags` says how
    cards were flagged.
    """
    base = checked_records(base_records, "base ")
    variant = checked_records(variant_records, "variant ")
    charts.require_matplotlib()
    if rows is None or scores is None:
        comparison = compare_stats(base, variant)
        rows = comparison.rows() if rows is None else rows
        scores = comparison.scores if scores is None else scores
    paired = len(paired_seeds(base, variant))
    base_game, variant_game = game_stats(base), game_stats(variant)
    facts = {"Base games": side_summary(base), "Variant games": side_summary(variant), "Paired seeds": str(paired)}
    level = _level([r for r in rows if r["kind"] == "card"])

    def render(folder: Path) -> None:
        sides = side_by_side_table(base_game, variant_game)
        sides = dataclasses.replace(sides, note=f"{sides.note} Rates with their 95% Wilson intervals.")
        sections: list[Section] = [sides, seat_comparison_table(rows)]
        if scores:
            sections.append(score_comparison_table(scores))
        sections.append(card_comparison_table(rows, flags))
        drawn = charts.card_difference_chart(rows, folder / "card_differences.png")
        if drawn is not None:
            sections.append(Chart(f"Card GD win-rate change, variant minus base ({level} interval; the deck's "
                                  "change, context)", drawn))
        write_document(folder, Document(title, with_meta(facts, meta), tuple(sections)))

    return write_pages(out_dir, render)

