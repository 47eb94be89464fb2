"""Balance reports of many games: win rates with intervals, per-card metrics, A/B comparisons,
written as a self-contained HTML page, Markdown and PNG charts (matplotlib: the extra `report`).

    from interpreter.report import write_report
    write_report(records, "report/", title="Lanes", meta={"agents": "random vs random"})
"""

from __future__ import annotations

from .cards import card_stats
from .compare import compare_stats
from .comparepage import write_comparison
from .errors import ReportError
from .games import game_stats
from .intervals import paired_difference, wilson
from .render import write_report

__all__ = ["write_report", "write_comparison", "card_stats", "game_stats", "compare_stats", "paired_difference",
           "wilson", "ReportError"]
