"""The report's sections for teams, shared results and scores (shared.py): the headline lines, the
tables (HTML and Markdown alike), the score histogram's chart and the `report.json` entries. A
report of records without `teams` and `scores` has none of them.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from .documents import Chart, Section, Table
from .effects import FDR
from .shared import Cooperative, Histogram, ScoreEffect, ScoreMean, Scores, Shared, TeamResult
from .tables import NONE, percent

SCORE_CARDS = "Cards: effect on score"
SCORE_EFFECT = "OH effect on score (95%)"
SCORE_WITH, SCORE_WITHOUT = "Mean score in OH", "Mean score not in OH"


def _number(value: float | None) -> str:
    return NONE if value is None else f"{value:.2f}"


def _signed(value: float | None) -> str:
    return NONE if value is None else f"{value:+.2f}"


def mean_text(m: ScoreMean) -> str:
    """'12.34 [11.90, 12.78]' (no interval from one game)."""
    if m.mean is None:
        return NONE
    return f"{m.mean:.2f}" + ("" if m.low is None or m.high is None else f" [{m.low:.2f}, {m.high:.2f}]")


def headline_lines(shared: Shared) -> tuple[str, ...]:
    lines = []
    if shared.cooperative is not None:
        c = shared.cooperative
        lines.append(f"Cooperative game (one team: seats {', '.join(map(str, c.seats))}): shared win rate "
                     f"{percent(c.wins)} over {c.wins.n} finished games")
    if shared.teams is not None:
        lines.append("Win rate by team: " + " · ".join(f"{t.name} {percent(t.wins)}" for t in shared.teams))
    if shared.scores is not None:
        lines.append(f"Mean score by {shared.scores.per}: "
                     + " · ".join(f"{m.name} {mean_text(m)}" for m in shared.scores.means))
    return tuple(lines)


def cooperative_table(c: Cooperative) -> Table:
    rows = [(r.reason or NONE, str(r.share.successes), percent(r.share), percent(r.won)) for r in c.reasons]
    rows.append(("every finished game", str(c.wins.n), "100%", percent(c.wins)))
    return Table("Cooperative: shared result by end reason",
                 ("End reason", "Games", "Share of finished games (95%)", "Won together (95%)"), tuple(rows),
                 note="A cooperative game: one team holds every seat, and its seats win or lose together. Won "
                      "together: the games every seat won (the shared win rate, last row), by the reason the game "
                      "ended; 95% Wilson intervals. Aborted and unfinished games are left out.")


def team_table(teams: tuple[TeamResult, ...]) -> Table:
    rows = tuple((t.name, percent(t.wins), str(t.wins.successes), str(t.wins.n)) for t in teams)
    return Table("Win rate by team", ("Team", "Win rate (95%)", "Wins", "Finished games"), rows,
                 note="A team wins a game when its seats are among the winners; a draw or a shared loss is no win.")


def score_table(scores: Scores) -> Table:
    label = "Team" if scores.per == "team" else "Seat"
    rows = tuple((m.name, mean_text(m), _number(m.sd), str(m.n)) for m in scores.means)
    per = ("per team: every team's seats carry the team's score" if scores.per == "team" else "per seat")
    return Table(f"Mean score by {scores.per}", (label, "Mean score (95%)", "SD", "Finished games"), rows,
                 note=f"The final score {per}, over finished games; 95% normal interval of the mean "
                      "(mean ± 1.96 sd / sqrt(n)).")


def histogram_table(h: Histogram) -> Table:
    names = list(h.counts)
    rows = tuple((label, *(str(h.counts[name][i]) for name in names)) for i, label in enumerate(h.labels()))
    bins = "one row per score" if h.whole else f"{len(h.edges) - 1} equal bins, the last closed"
    return Table("Score histogram", ("Score", *names), rows,
                 note=f"Finished games by final score ({bins}).")


def score_effect_table(effects: tuple[ScoreEffect, ...]) -> Table:
    rows = []
    for e in effects:
        effect = NONE if e.estimate is None else (
            f"{e.estimate:+.2f}" + ("" if e.low is None or e.high is None else f" [{e.low:+.2f}, {e.high:+.2f}]"))
        rows.append((e.name, ", ".join(e.decks) or NONE, effect,
                     NONE if e.z is None else f"{e.z:+.2f}", NONE if e.q is None else f"{e.q:.3g}",
                     NONE if e.q is None else "yes" if e.flagged else "",
                     _number(e.mean_with), _number(e.mean_without), str(e.in_deck)))
    flagged = [e.name for e in effects if e.flagged]
    return Table(SCORE_CARDS, ("Card", "Decks", SCORE_EFFECT, "z", "q (BH)", "Flagged", SCORE_WITH, SCORE_WITHOUT,
                               "Player-games"), tuple(rows),
                 note="Sorted by the opening-hand effect on score: the mean final score of the player-games whose "
                      "opening hand held the card minus that of the games of the same deck, seat, table of decks "
                      "and agents where it did not (the card table's estimator, on the score instead of the win; "
                      "points of score, 95% interval). Flagged: significant after a Benjamini-Hochberg correction "
                      f"across the {sum(e.p is not None for e in effects)} cards tested (q ≤ {FDR:g})"
                      + (f": {', '.join(flagged)}." if flagged else "; none is."))


def sections(shared: Shared, draw: Callable[[Histogram, Path], str | None], folder: Path) -> list[Section]:
    """The tables (and the histogram's chart, drawn by `draw` into `folder`) in the page's order."""
    out: list[Section] = []
    if shared.cooperative is not None:
        out.append(cooperative_table(shared.cooperative))
    if shared.teams is not None:
        out.append(team_table(shared.teams))
    if shared.scores is not None:
        out.append(score_table(shared.scores))
        drawn = draw(shared.scores.histogram, folder / "scores.png")
        if drawn is not None:
            out.append(Chart(f"Final score by {shared.scores.per}", drawn))
        out.append(histogram_table(shared.scores.histogram))
        if shared.scores.effects:
            out.append(score_effect_table(shared.scores.effects))
    return out


def json_entries(shared: Shared, plain: Callable[[Any], Any]) -> dict[str, Any]:
    """`cooperative`, `teams` and `scores` for report.json, each only where it applies."""
    out: dict[str, Any] = {}
    if shared.cooperative is not None:
        out["cooperative"] = plain(shared.cooperative)
    if shared.teams is not None:
        out["teams"] = plain(list(shared.teams))
    if shared.scores is not None:
        s = shared.scores
        out["scores"] = {
            "per": s.per, "means": plain(list(s.means)), "level": 0.95,
            "histogram": {"edges": list(s.histogram.edges), "whole": s.histogram.whole,
                          "labels": s.histogram.labels(), "counts": {k: list(v) for k, v in s.histogram.counts.items()}},
            "card_effects": plain(list(s.effects)),
            "flags": {"method": "Benjamini-Hochberg", "false_discovery_rate": FDR,
                      "tested": sum(e.p is not None for e in s.effects),
                      "flagged": [e.name for e in s.effects if e.flagged]},
        }
    return out
