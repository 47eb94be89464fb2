"""The report's charts as small PNG files, drawn with matplotlib (the optional extra `report`).

matplotlib is imported only when a chart is drawn, and each chart is its own `Figure` on an Agg
canvas: no pyplot, so no global state and no display needed. Each function returns the file's
name, or None when there is nothing to draw.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .cards import CardStats
from .compare import ComparisonRow
from .errors import ReportError
from .games import GameStats

WIDTH_IN = 6.0
HEIGHT_IN = 3.5
DPI = 100
MOST_CARDS = 30  # cards on a per-card chart
LABEL_CHARS = 28  # longer card names are cut on the charts (the tables give them whole)
WIN_FILL = "#4c72b0"
DRAW_FILL = "#999999"
UP_FILL = "#55a868"
DOWN_FILL = "#c44e52"


def require_matplotlib() -> None:
    """Raise ReportError unless matplotlib can be imported."""
    _matplotlib()


def _matplotlib() -> tuple[Any, Any]:
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError as err:
        raise ReportError("the report needs matplotlib: pip install 'cardrules[report]'") from err
    return Figure, FigureCanvasAgg


def _figure(height: float = HEIGHT_IN) -> Any:
    figure_class, canvas_class = _matplotlib()
    figure = figure_class(figsize=(WIDTH_IN, height), dpi=DPI, layout="constrained")
    canvas_class(figure)
    return figure


def _save(figure: Any, path: Path) -> str:
    figure.savefig(path, format="png", dpi=DPI)
    return path.name


def _label(name: str) -> str:
    """A card name as chart text: cut to length, and '$' kept literal rather than starting math."""
    short = name if len(name) <= LABEL_CHARS else name[:LABEL_CHARS - 1] + "…"
    return short.replace("$", r"\$")


def _error_bars(rates: Sequence[float], lows: Sequence[float], highs: Sequence[float]) -> list[list[float]]:
    # (an interval's end can sit a rounding error past its rate: matplotlib refuses negative bars)
    return [[max(0.0, r - lo) for r, lo in zip(rates, lows)], [max(0.0, hi - r) for r, hi in zip(rates, highs)]]


def seat_chart(game: GameStats, path: Path) -> str | None:
    """Each seat's win rate and the draw share, with their Wilson intervals."""
    shown = [(f"seat {seat}", p, WIN_FILL) for seat, p in sorted(game.seat_wins.items())]
    shown.append(("draw", game.draws, DRAW_FILL))
    shown = [(label, p, fill) for label, p, fill in shown if p.rate is not None]
    if not shown:
        return None
    figure = _figure()
    axes = figure.add_subplot()
    rates = [p.rate for _, p, _ in shown]
    axes.bar([label for label, _, _ in shown], rates, color=[c for _, _, c in shown],
             yerr=_error_bars(rates, [p.low for _, p, _ in shown], [p.high for _, p, _ in shown]), capsize=4)
    if len(game.seat_wins) > 1:
        axes.axhline(1 / len(game.seat_wins), color="black", linewidth=0.8, linestyle="--")
    axes.set_ylim(0, 1)
    axes.set_ylabel("share of finished games")
    axes.set_title("Win rate by seat (95% interval)")
    return _save(figure, path)


def reasons_chart(game: GameStats, path: Path) -> str | None:
    """How the games ended, as horizontal bars, most frequent at the top."""
    if not game.reasons:
        return None
    figure = _figure(max(HEIGHT_IN, 0.3 * len(game.reasons) + 1))
    axes = figure.add_subplot()
    reasons = list(reversed(game.reasons))
    axes.barh([_label(r.reason or "(none)") for r in reasons], [r.count for r in reasons], color=WIN_FILL)
    axes.set_xlabel("games")
    axes.set_title("End reasons")
    return _save(figure, path)


def length_chart(game: GameStats, path: Path) -> str | None:
    """Histogram of finished games' length in turns."""
    if not game.turn_counts:
        return None
    figure = _figure()
    axes = figure.add_subplot()
    low, high = game.turn_counts[0], game.turn_counts[-1]
    bins = range(low, high + 2) if high - low <= 40 else 40
    axes.hist(game.turn_counts, bins=bins, color=WIN_FILL, edgecolor="white",
              align="left" if high - low <= 40 else "mid")
    axes.set_xlabel("turns")
    axes.set_ylabel("games")
    axes.set_title("Game length")
    return _save(figure, path)


def _difference_bars(path: Path, title: str, xlabel: str, lines: list[tuple[str, float, float, float]]) -> str:
    """Horizontal bars of (label, estimate, low, high), first line at the top."""
    figure = _figure(max(HEIGHT_IN, 0.22 * len(lines) + 1))
    axes = figure.add_subplot()
    lines = list(reversed(lines))
    values = [value for _, value, _, _ in lines]
    axes.barh([_label(name) for name, _, _, _ in lines], values,
              xerr=_error_bars(values, [lo for _, _, lo, _ in lines], [hi for _, _, _, hi in lines]),
              color=[UP_FILL if v >= 0 else DOWN_FILL for v in values], capsize=2)
    axes.axvline(0, color="black", linewidth=0.8)
    axes.tick_params(axis="y", labelsize=7)
    axes.set_xlabel(xlabel)
    axes.set_title(title)
    return _save(figure, path)


def iwd_chart(cards: Sequence[CardStats], path: Path) -> str | None:
    """The ranked cards' IWD with its interval: the top MOST_CARDS by IWD."""
    ranked = [c for c in cards if c.ranked and c.iwd.estimate is not None]
    ranked.sort(key=lambda c: (-(c.iwd.estimate or 0.0), c.name))
    lines = [(c.name, 100 * c.iwd.estimate, 100 * c.iwd.low, 100 * c.iwd.high)
             for c in ranked[:MOST_CARDS]
             if c.iwd.estimate is not None and c.iwd.low is not None and c.iwd.high is not None]
    if not lines:
        return None
    shown = "" if len(ranked) <= MOST_CARDS else f" (top {MOST_CARDS} of {len(ranked)})"
    return _difference_bars(path, f"Improvement when drawn{shown}", "IWD, percentage points", lines)


def effect_chart(effects: Sequence[Any], path: Path) -> str | None:
    """The cards' opening-hand effect within their deck with its interval (report/effects.py): the
    MOST_CARDS largest, best first."""
    known = [e for e in effects if e.estimate is not None and e.low is not None and e.high is not None]
    chosen = sorted(sorted(known, key=lambda e: (-abs(e.estimate), e.name))[:MOST_CARDS],
                    key=lambda e: (-e.estimate, e.name))
    lines = [(e.name + (" *" if e.flagged else ""), 100 * e.estimate, 100 * e.low, 100 * e.high) for e in chosen]
    if not lines:
        return None
    shown = "" if len(known) <= MOST_CARDS else f" (largest {MOST_CARDS} of {len(known)})"
    return _difference_bars(path, f"Opening-hand effect within the deck{shown} (* flagged)", "percentage points",
                            lines)


def card_difference_chart(rows: Sequence[ComparisonRow], path: Path) -> str | None:
    """Per-card win-rate difference (variant minus base) with its interval: the MOST_CARDS largest."""
    known = [r for r in rows if r["kind"] == "card" and r["difference"] is not None
             and r["low"] is not None and r["high"] is not None]
    known.sort(key=lambda r: (-abs(r["difference"] or 0.0), r["name"]))
    chosen = sorted(known[:MOST_CARDS], key=lambda r: (-(r["difference"] or 0.0), r["name"]))
    lines = [(r["name"], 100 * (r["difference"] or 0.0), 100 * (r["low"] or 0.0), 100 * (r["high"] or 0.0))
             for r in chosen]
    if not lines:
        return None
    shown = "" if len(known) <= MOST_CARDS else f" (largest {MOST_CARDS} of {len(known)})"
    return _difference_bars(path, f"Card win-rate change, variant - base{shown}", "percentage points", lines)


def score_chart(histogram: Any, path: Path) -> str | None:
    """The final scores' histogram (report/shared.py `Histogram`): a group of bars per bin, one bar
    per seat or team."""
    names = list(histogram.counts)
    bins = len(histogram.edges) - 1
    if bins <= 0 or not any(any(c) for c in histogram.counts.values()):
        return None
    figure = _figure()
    axes = figure.add_subplot()
    width = 0.8 / len(names)
    for k, name in enumerate(names):
        axes.bar([i + (k - (len(names) - 1) / 2) * width for i in range(bins)], histogram.counts[name], width=width,
                 label=_label(name))
    labels = histogram.labels()
    step = max(1, bins // 15)  # (at most about 15 labels on the axis)
    axes.set_xticks(range(0, bins, step), [labels[i] for i in range(0, bins, step)], fontsize=7,
                    rotation=0 if histogram.whole else 30)
    if len(names) > 1:
        axes.legend(fontsize=7)
    axes.set_xlabel("final score")
    axes.set_ylabel("games")
    axes.set_title("Final score")
    return _save(figure, path)
