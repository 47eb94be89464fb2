"""What a search backs up: each player's value of a position, from 0 to 1.

`values(game, weight)` judges the end of a playout by the rules: a finished game by its result
(or the ruleset's `reward:`), with the ruleset's score beside it at `weight`; a game stopped at
its cap of decisions, or a playout cut short, by the score alone. A score becomes a value by
placing: the players ranked by it, the first 1, the last 0, ties sharing their places.
"""

from __future__ import annotations


def placings(numbers: list[float]) -> list[float]:
    """Each number's place among them, 0..1: the highest 1, the lowest 0, ties sharing their
    places ((below + equal / 2) / (n - 1)); 0.5 for a single number."""
    n = len(numbers)
    if n == 1:
        return [0.5]
    out = []
    for v in numbers:
        below = sum(1 for w in numbers if w < v)
        equal = sum(1 for w in numbers if w == v) - 1
        out.append((below + equal / 2) / (n - 1))
    return out


def values(game, weight: float) -> list[float]:
    """Each seat's value of the game where a playout stopped, 0..1 (docs/agents.md#mcts):

    - a game its rules finished: its result R, a win 1, a loss 0, a draw 0.5 for every player
      (with `reward:`, the players' placings by their rewards instead); where the ruleset has a
      score (`statistics.score`, by default its `evaluate:`), (1 - weight) * R + weight * S,
      S the player's placing by score, so players with one result are still told apart;
    - a game stopped at its cap of decisions, or a playout cut at `depth`: S alone (0.5 each
      without a score)."""
    rules = game.rules
    seats = range(1, len(game.players) + 1)
    stats = rules.statistics
    has_score = stats.score is not None
    result = game.result
    if result is not None and not result.unfinished:
        if rules.declares_reward:
            mine = placings([rules.reward(game, s) for s in seats])
        elif result.winner is None:
            mine = [0.5 for _ in seats]
        else:
            mine = [1.0 if s == result.winner else 0.0 for s in seats]
        if not has_score or weight == 0:
            return mine
        scored = placings([stats.score_of(game, s) for s in seats])
        return [(1 - weight) * r + weight * s for r, s in zip(mine, scored)]
    if not has_score:
        return [0.5 for _ in seats]
    return placings([stats.score_of(game, s) for s in seats])
