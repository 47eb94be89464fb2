"""`simulate --robust [SPEC]`: the batch played again on the same seeds by a second agent strength,
so that the report and the summary can mark the verdicts that depend on how well the agents play.

SPEC is agents as `--agents` takes them (one for every seat, or one per seat); without it, greedy
in every seat, or turn when every seat already plays greedy (report/headline.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ..backends import BatchSpec
from .batchrun import BatchResult
from .common import UsageError, split_names


def robust_agents(spec: str | None, agents: Sequence[str], rules) -> list[str] | None:
    """The second strength's agents (checked: a usage error before any game), or None without --robust."""
    if spec is None:
        return None
    from ..report.headline import second_strength

    if not spec.strip():
        return second_strength(agents)
    from ..agents import make_agent

    names = split_names(spec, rules.player_count, "--robust", "greedy", rules.player_range)
    if any(n.lower() == "human" for n in names):
        raise UsageError("--robust: simulate plays without a person; use random, greedy, turn, mcts or your own")
    for name in names:
        make_agent(name)
    if list(names) == list(agents):
        raise UsageError(f"--robust {spec}: the run already plays {','.join(agents)}; name another strength")
    return names


def play_robust(spec: BatchSpec, names: Sequence[str], seating, seed: int, backend: str, workers: int,
                address: str | None, show_progress: bool) -> BatchResult:
    """The same batch (seeds, options, decks and seatings) with the agents `names`, keeping every record."""
    from .decks import play_plan

    second = replace(spec, agents=tuple(names), records=True, logs=False)
    return play_plan(second, seating, seed, backend, workers, address, show_progress=show_progress,
                     log_dir=None, on_record=None)


def robust_block(agents: Sequence[str], names: Sequence[str], records: list[dict], robust: list[dict],
                 min_sample: int) -> dict[str, Any]:
    from ..report.robust import robust_summary

    return robust_summary(agents, names, records, robust, min_sample)


def measured_block(records: list[dict], robust: list[dict], names: Sequence[str]) -> str:
    """The caution's measured change of the headline figures between the run and its rerun."""
    from ..report.games import game_stats
    from ..report.headline import measured_change

    return measured_change(game_stats(records), game_stats(robust), names)
