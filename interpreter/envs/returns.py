"""What the environments give each player at the end of a game, from its `Result`, and what kind
of game that makes for OpenSpiel (issue 32.3: teams, cooperative and scoring games).

| the ruleset | OpenSpiel utility | returns per seat |
|---|---|---|
| `score:` (a scoring game) | GENERAL_SUM | the seat's score (`Result.scores`) |
| `teams: {partnerships: all}` (cooperative) | IDENTICAL | the team's result: +1 won together, -1 lost together, 0 a draw |
| two teams of the same size | CONSTANT_SUM (sum 0) | the seat's team's result, +1 / -1 / 0 |
| other teams | GENERAL_SUM | the seat's team's result, +1 / -1 / 0 |
| two players, no teams | ZERO_SUM | +1 the winner, -1 the loser, 0 a draw |
| more players, no teams | GENERAL_SUM | +1 each winner, -1 each loser, 0 a draw |

A game stopped unfinished at its cap of decisions returns 0 to every seat. The utility range is
-1..1, or in a scoring game the score attribute's declared `min`..`max` (`SCORE_BOUND` where one
is not declared).
"""

from __future__ import annotations

SCORE_BOUND = 1e6  # the utility bound a scoring game reports where its score attribute declares none

IDENTICAL, CONSTANT_SUM, ZERO_SUM, GENERAL_SUM = "identical", "constant_sum", "zero_sum", "general_sum"


def utility(rules) -> str:
    """The kind of game the ruleset makes (see the module's table)."""
    if rules.score is not None:
        return GENERAL_SUM
    teams = rules.teams
    if teams is not None:
        if teams.cooperative or len(teams.seats) == 1:
            return IDENTICAL
        if len(teams.seats) == 2 and len(teams.seats[0]) == len(teams.seats[1]):
            return CONSTANT_SUM
        return GENERAL_SUM
    return ZERO_SUM if rules.player_count == 2 else GENERAL_SUM


def utility_range(rules) -> tuple[float, float, float | None]:
    """(min, max, sum) of the returns: the sum where it is the same in every game, else None."""
    kind = utility(rules)
    if rules.score is not None:
        declared = rules.score
        attributes = rules.teams.attributes if declared.per == "team" else rules.ruleset.player_attributes
        spec = attributes[declared.attribute]
        low = float(spec.min) if spec.min is not None else -SCORE_BOUND
        high = float(spec.max) if spec.max is not None else SCORE_BOUND
        return low, high, None
    return -1.0, 1.0, (0.0 if kind in (ZERO_SUM, CONSTANT_SUM) else None)


def seat_returns(rules, result, players: int) -> list[float]:
    """Each seat's return for a finished game (0 each while it goes on, or stopped unfinished)."""
    if result is None or result.unfinished:
        return [0.0] * players
    if rules.score is not None and result.scores is not None:
        return [float(s) for s in result.scores]
    return [result.outcome(seat) for seat in range(1, players + 1)]


def seat_scores(game) -> list[float] | None:
    """Each seat's score now in a scoring game (`score:`; a team's for each member), else None."""
    scores = game.scores
    return None if scores is None else [float(s) for s in scores]
