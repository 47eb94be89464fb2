"""The turn agent: a beam search through the rest of its own turn, scored by the ruleset's evaluation.

`greedy` scores the position right after one decision; a play whose worth shows only through a
later decision of the same player (an attack, then its target; a card, then where it goes)
looks no better there than doing nothing. This agent follows each option through all the
deciding player's consecutive decisions, until another player decides or the game ends (a
"turn" here: the engine knows no turns, only who decides next), and values the option by the
best position it found at such an end.

It never reads the true state: it searches `view.determinize(rng)` copies only (`samples` of
them, the options' values averaged). Per copy, each option of the decision starts a beam: at
every further decision of the same player all its options are tried on copies of the beam's
positions, the positions where the turn ended are scored (`Rules.evaluate` for the player: a
win most, a loss least), and the `width` best of the others by the same evaluation go on. The
search stops at `nodes` positions made per copy; positions still in a beam then count with
their own evaluation. Ties are broken by the agent's seeded generator, so the same seed, game
and parameters give the same choice.

Without `evaluate:` in the ruleset every unfinished position is worth 0: the agent then takes
a win it can reach within its turn and avoids a loss it can, else plays at random (seeded),
like `greedy`; use `mcts` for such a ruleset.
"""

from __future__ import annotations

import math
import random

from .base import DecisionView
from .greedy import WON, ValueSearch, sampled_search
from .registry import Param


def _value(game, seat: int) -> float:
    return max(-WON, min(WON, game.rules.evaluate(game, seat)))


def _turn_over(game, seat: int) -> bool:
    return game.is_over or game.pending.seat != seat


def turn_values(game, seat: int, width: int, nodes: int, rng: random.Random) -> tuple[list[float], int]:
    """The value for `seat` of each option of `game`'s pending decision (theirs), searched
    through the rest of their turn on copies of `game` (see the module); and the positions made."""
    n = len(game.pending)
    best = [-math.inf] * n
    beams: list[tuple[int, list]] = []
    made = 0
    for i in range(n):
        child = game.clone()
        child.apply(i)
        made += 1
        if _turn_over(child, seat):
            best[i] = _value(child, seat)
        else:
            beams.append((i, [child]))
    while beams:
        following: list[tuple[int, list]] = []
        for i, frontier in beams:
            going: list[tuple[float, float, object]] = []
            for position in frontier:
                if made >= nodes:  # (out of budget: the position counts as it stands)
                    best[i] = max(best[i], _value(position, seat))
                    continue
                count = len(position.pending)
                for j in range(count):
                    if made >= nodes:
                        best[i] = max(best[i], _value(position, seat))
                        break
                    child = position if count == 1 else position.clone()
                    child.apply(j)
                    made += 1
                    value = _value(child, seat)
                    if _turn_over(child, seat):
                        best[i] = max(best[i], value)
                    else:
                        going.append((value, rng.random(), child))
            if going:
                going.sort(key=lambda t: (-t[0], t[1]))
                following.append((i, [g for _v, _r, g in going[:width]]))
        beams = following
    return best, made


class TurnAgent:
    """A beam search through the rest of its own turn on determinized copies: see the module."""

    PARAMS = (
        Param("width", int, 4, 1, help="positions kept per option at each further decision of the turn"),
        Param("samples", int, 1, 1, help="determinized games searched (the options' values averaged)"),
        Param("nodes", int, 400, 1, help="positions made per sample at most (then each counts as it stands)"),
    )
    SUMMARY = "looks through the rest of its own turn, the ruleset's evaluate: scores it"
    searches = True

    def __init__(self, seed: int | str | None = None, width: int = 4, samples: int = 1, nodes: int = 400) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.width = width
        self.samples = samples
        self.nodes = nodes
        self.last_search: ValueSearch | None = None

    def act(self, view: DecisionView) -> int:
        if len(view.options) == 1:
            self.last_search = None
            return 0
        choice, self.last_search = sampled_search(
            view, self.samples, self.rng,
            lambda game: turn_values(game, view.seat, self.width, self.nodes, self.rng))
        return choice

    def __repr__(self) -> str:
        return f"TurnAgent(seed={self.seed!r}, width={self.width}, samples={self.samples}, nodes={self.nodes})"
