"""Agents that need no thought: uniformly random (with their own generator) and always-first."""

from __future__ import annotations

import random

from .base import DecisionView


class RandomAgent:
    """Picks uniformly among the legal options with its own `random.Random(seed)`.

    It never touches the game's generator, so the game's course depends on the game's seed and on
    the decisions only. A str seed is hashed with SHA-512 by `random`, the same in every process.
    """

    def __init__(self, seed: int | str | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    reads_only_counts = True  # (`act` is `choose_index` of the number of options: see `decider`)

    def act(self, view: DecisionView):
        return self.rng.randrange(len(view.options))  # the index: no Option need be made

    def choose_index(self, n: int) -> int:
        """What `act` answers at a decision with `n` options."""
        return self.rng.randrange(n)

    def __repr__(self) -> str:
        return f"RandomAgent(seed={self.seed!r})"


class FirstAgent:
    """Always takes the first legal option."""

    reads_only_counts = True

    def act(self, view: DecisionView):
        return 0

    def choose_index(self, n: int) -> int:
        return 0

    def __repr__(self) -> str:
        return "FirstAgent()"
