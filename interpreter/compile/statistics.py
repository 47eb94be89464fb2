"""What a ruleset's `statistics:` resolves to once compiled: the hand zone, the events that
count as playing, picking and offering cards, the score that decides who leads, the end-of-game
counters and the end reasons that are timeouts; defaults filled in where the ruleset is silent.

The balance records (interpreter/backends/records.py) read a game through this and nothing else
game-specific; the score and the counters are worked out on a game by `Rules.score_of` and
`Rules.counters_of` (engine/rules.py), which run the compiled expressions held here."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..rules.handzone import hand_choice
from ..rules.model import Ruleset


@dataclass(frozen=True)
class CompiledStatistics:
    hand: str | None  # the per-player zone of held cards (None: the ruleset has no such zone; rules/handzone.py)
    public_zones: frozenset[str]  # where a card from the hand is played to, when no event says
    played_events: tuple[str, ...]  # events whose `card` is a card played; () = moves from the hand
    picked_event: str | None
    offered_event: str | None
    timeouts: frozenset[str]
    score: Any  # compiled expression in p, or None
    counters: tuple[tuple[str, Any, Any], ...]  # (name, compiled expression, its AST for spans)
    score_expr: Any = None
    hand_source: str = ""  # how the hand zone was found, as the report states it (rules/handzone.py)


def compile_statistics(ruleset: Ruleset, compiler, evaluate_code) -> CompiledStatistics:
    stats = ruleset.statistics
    choice = hand_choice(ruleset)
    score_expr = stats.score if stats.score is not None else ruleset.evaluate
    if stats.score is not None:
        score = compiler.expression(stats.score)
    else:
        score = evaluate_code
    return CompiledStatistics(
        hand=choice.zone, hand_source=choice.describe(),
        public_zones=frozenset(z.name for z in ruleset.zones.values() if z.visibility == "public"),
        played_events=stats.played, picked_event=stats.picked, offered_event=stats.offered,
        timeouts=frozenset(stats.timeouts), score=score, score_expr=score_expr,
        counters=tuple((name, compiler.expression(expr), expr) for name, expr in stats.counters))
