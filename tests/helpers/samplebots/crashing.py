"""An agent that kills the process playing it once, for the backends' worker-death tests
(`samplebots.crashing:DiesOnce`).

It plays exactly as `random` does with the same seed. At its first decision in the game whose
seed is $CARDRULES_CRASH_SEED (as seat 1: its agent seed is "SEED/P1"), if the file
$CARDRULES_CRASH_MARKER does not exist yet, it makes it and ends its process at once, as a worker
that is killed or runs out of memory would. The marker makes that happen once in all processes:
the game played again finds it and goes on. Without both variables it never dies.
"""

from __future__ import annotations

import os

from interpreter.agents import DecisionView, RandomAgent
from interpreter.backends import agent_seed

MARKER_VARIABLE = "CARDRULES_CRASH_MARKER"
SEED_VARIABLE = "CARDRULES_CRASH_SEED"


class DiesOnce(RandomAgent):
    def __init__(self, seed: int | str | None = None) -> None:
        super().__init__(seed)
        self.decided = False

    def act(self, view: DecisionView):
        if not self.decided:
            self.decided = True
            self._maybe_die()
        return super().act(view)

    def _maybe_die(self) -> None:
        marker = os.environ.get(MARKER_VARIABLE)
        crash_seed = os.environ.get(SEED_VARIABLE)
        if not marker or not crash_seed or self.seed != agent_seed(int(crash_seed), 1):
            return
        try:
            with open(marker, "x"):  # (exclusive: only one process ever makes it)
                pass
        except FileExistsError:
            return
        os._exit(1)
