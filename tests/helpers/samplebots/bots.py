"""Sample user agents: one that plays the last option, and two that misbehave."""

from __future__ import annotations


class LastBot:
    """Takes the last option; `offset` counts back from it."""

    def __init__(self, seed=None, offset: int = 0) -> None:
        self.seed = seed
        self.offset = offset

    def act(self, view):
        return max(0, len(view.options) - 1 - self.offset)


class Crashing:
    def act(self, view):
        raise ZeroDivisionError("the bot divided by zero")


class Illegal:
    def act(self, view):
        return len(view.options) + 5


class NoAct:
    pass


class SearchesWithoutSaying:
    """Determinizes, but does not set `searches = True`."""

    def act(self, view):
        import random

        view.determinize(random.Random(1))
        return 0
