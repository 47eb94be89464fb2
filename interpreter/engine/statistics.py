"""What a ruleset's `statistics:` resolves to once compiled: the hand zone, the events that
count as playing, picking and offering cards, the score that decides who leads, the end-of-game
counters and the end reasons that are timeouts; defaults filled in where the ruleset is silent.

The balance records (interpreter/backends/records.py) read a game through this and nothing else
game-specific."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import RuntimeRuleError
from ..lang.runtime import Frame
from ..rules.model import EVALUATED_PLAYER, Ruleset
from .playout import RULE_ERRORS
from .rule_errors import rule_error_words

if TYPE_CHECKING:
    from .game import Game


@dataclass(frozen=True)
class CompiledStatistics:
    hand: str | None  # the per-player zone of held cards (None: the ruleset has no such zone)
    public_zones: frozenset[str]  # where a card from the hand is played to, when no event says
    played_events: tuple[str, ...]  # events whose `card` is a card played; () = moves from the hand
    picked_event: str | None
    offered_event: str | None
    timeouts: frozenset[str]
    score: Any  # compiled expression in p, or None
    counters: tuple[tuple[str, Any, Any], ...]  # (name, compiled expression, its AST for spans)
    score_expr: Any = None

    def score_of(self, game: Game, seat: int) -> float | None:
        if self.score is None:
            return None
        return number_of(game, seat, self.score, self.score_expr, "statistics.score")

    def counters_of(self, game: Game, seat: int) -> dict[str, float]:
        return {name: number_of(game, seat, code, expr, f"statistics.counters.{name}")
                for name, code, expr in self.counters}


def compile_statistics(ruleset: Ruleset, compiler, evaluate_code) -> CompiledStatistics:
    stats = ruleset.statistics
    hand = stats.hand
    if hand is None:
        held = [z.name for z in ruleset.zones.values() if z.per_player and z.visibility == "owner"]
        hand = held[0] if len(held) == 1 else None
    score_expr = stats.score if stats.score is not None else ruleset.evaluate
    if stats.score is not None:
        score = compiler.expression(stats.score)
    else:
        score = evaluate_code
    return CompiledStatistics(
        hand=hand,
        public_zones=frozenset(z.name for z in ruleset.zones.values() if z.visibility == "public"),
        played_events=stats.played, picked_event=stats.picked, offered_event=stats.offered,
        timeouts=frozenset(stats.timeouts), score=score, score_expr=score_expr,
        counters=tuple((name, compiler.expression(expr), expr) for name, expr in stats.counters))


def number_of(game: Game, seat: int, code, expr, what: str) -> float:
    """A ruleset expression in `p` for the player in `seat`, which must give a number."""
    span = getattr(expr, "span", None)
    try:
        value = code(game, Frame(None, {EVALUATED_PLAYER: game.players[seat - 1]}))
    except RULE_ERRORS as err:
        raise RuntimeRuleError(f"{what}: {rule_error_words(err)}", span) from None
    if type(value) is bool or not isinstance(value, (int, float)):
        raise RuntimeRuleError(f"{what}: gave {value!r}, not a number", span)
    return value
