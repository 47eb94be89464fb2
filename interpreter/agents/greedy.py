"""The greedy agent: one ply of lookahead, scored by the ruleset's evaluation.

Each option is applied to a copy of a determinized game (`view.determinize`: the unseen drawn
anew, so the agent never peeks) and the position it leads to, at the next decision, is scored by
`Rules.evaluate` for the deciding player: a win is worth most, a loss least, else the ruleset's
`evaluate:` expression (0 without one, which makes greedy random among the options that neither
win nor lose at once). The best option is taken; ties are broken at random, seeded.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from .base import DecisionView
from .registry import Param

WON = 1e18  # (a win or loss, finite so that averages over samples stay numbers)


def scores(game, seat: int) -> list[float]:
    """The evaluation for `seat` after each option of the game's pending decision, each applied
    to a copy of `game`."""
    rules = game.rules
    out = []
    for index in range(len(game.pending)):
        after = game.clone()
        after.apply(index)
        out.append(max(-WON, min(WON, rules.evaluate(after, seat))))
    return out


def best_option(game, rng: random.Random) -> int:
    """The index of a best-scoring option of the game's pending decision (see `scores`) for the
    player who takes it, ties broken by `rng`. Used on a game the caller may see whole."""
    return highest(scores(game, game.pending.seat), rng)


def highest(values: list[float], rng: random.Random) -> int:
    """The index of the highest value, ties broken by `rng`."""
    best = max(values)
    ties = [i for i, v in enumerate(values) if v == best]
    return ties[0] if len(ties) == 1 else ties[rng.randrange(len(ties))]


@dataclass(frozen=True)
class ValueSearch:
    """One decision's search by an agent that values each option (greedy, turn): positions made
    (`iterations`, the name strength benchmarks read, as for `mcts`), seconds, and each option's
    value averaged over the samples (what the agent compared)."""

    iterations: int
    seconds: float
    values: tuple[float, ...]


def sampled_search(view: DecisionView, samples: int, rng: random.Random,
                   values_of: Callable[[object], tuple[list[float], int]]) -> tuple[int, ValueSearch]:
    """The index of the best option and the search behind it: `values_of(game)` gives each
    option's value and the positions it made, on each of `samples` determinized copies (the
    agent never reads the true state); the values are averaged, ties broken by `rng`."""
    start = time.perf_counter()
    totals = [0.0] * len(view.options)
    made = 0
    for _ in range(samples):
        values, count = values_of(view.determinize(rng))
        made += count
        for i, v in enumerate(values):
            totals[i] += v
    search = ValueSearch(made, time.perf_counter() - start, tuple(t / samples for t in totals))
    return highest(totals, rng), search


class GreedyAgent:
    """One-ply lookahead on determinized copies, scored by the ruleset's evaluation."""

    PARAMS = (Param("samples", int, 1, 1, help="determinized games each option is scored on (averaged)"),)
    SUMMARY = "one ply ahead, the ruleset's evaluate: scores it"
    searches = True

    def __init__(self, seed: int | str | None = None, samples: int = 1) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.samples = samples
        self.last_search: ValueSearch | None = None

    def act(self, view: DecisionView) -> int:
        if len(view.options) == 1:
            self.last_search = None
            return 0
        choice, self.last_search = sampled_search(
            view, self.samples, self.rng, lambda game: (scores(game, view.seat), len(view.options)))
        return choice

    def __repr__(self) -> str:
        return f"GreedyAgent(seed={self.seed!r}, samples={self.samples})"
