"""What a balance run's headline says about its agents: who played each seat, the caution a run
of weak agents carries, and the second agent strength that `simulate --robust` reruns with.

Shared by the report (index.html, report.md) and `simulate`'s summary (`--json` and the table),
so both say the same. Pure Python: no matplotlib.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

# Agents that do not play to win: their figures describe the rules under aimless play.
WEAK_AGENTS = ("random", "first")
# `--robust` with no spec: this agent in every seat, or SECOND_STRENGTH_AFTER when every seat
# already plays it (docs/balance.md, "Which agents for which question").
SECOND_STRENGTH = "greedy"
SECOND_STRENGTH_AFTER = "turn"

RANDOM_CAUTION = (
    "Caution: {seats} played by the agent {agent}, which does not play to win. Such play shrinks card effects "
    "(a strong card spent at a poor moment looks like a weak one, and effects that need intent do not show) "
    "and changes the first-player advantage: in a shipped game it is +6.2 points under random play "
    "(2,000 games) against +12.3 under greedy play (300 games; docs/balance.md, \"Which agents for which "
    "question\"). Read these figures as the rules under aimless play; rerun with --agents greedy,greedy "
    "(or --robust) before trusting a verdict about cards or seats.")


def agent_kind(spec: str) -> str:
    """An agent spec's name without its parameters: 'mcts:200' -> 'mcts' ('pkg.mod:Cls' stays whole)."""
    name, _, rest = spec.partition(":")
    return spec if "." in name or (rest and rest[:1].isupper()) else name


def agents_by_seat(records: Iterable[Mapping[str, Any]]) -> dict[int, list[str]]:
    """Per seat (1-based), the distinct agents the records have there, in the order first met."""
    seats: dict[int, list[str]] = {}
    for record in records:
        for seat, agent in enumerate(record.get("agents") or (), start=1):
            names = seats.setdefault(seat, [])
            if str(agent) not in names:
                names.append(str(agent))
    return dict(sorted(seats.items()))


def seats_text(by_seat: Mapping[int, Sequence[str]]) -> str:
    """'seat 1: random · seat 2: greedy' (a seat with several agents lists them all)."""
    return " · ".join(f"seat {seat}: {', '.join(names) or '?'}" for seat, names in by_seat.items())


def agent_cautions(by_seat: Mapping[int, Sequence[str]]) -> list[str]:
    """The cautions a run with these agents carries: one per weak agent that held some seat."""
    cautions = []
    for weak in WEAK_AGENTS:
        seats = [seat for seat, names in by_seat.items() if any(agent_kind(n) == weak for n in names)]
        if seats:
            which = (f"seat {seats[0]} was" if len(seats) == 1
                     else "seats " + ", ".join(map(str, seats[:-1])) + f" and {seats[-1]} were")
            if len(seats) == len(by_seat) and len(seats) > 1:
                which = "every seat was"
            cautions.append(RANDOM_CAUTION.format(seats=which, agent=weak))
    return cautions


def headline(agents: Sequence[str]) -> dict[str, Any]:
    """The `headline` of `simulate --json`: the agent of each seat and the cautions."""
    by_seat = {seat: [str(a)] for seat, a in enumerate(agents, start=1)}
    return {"agents_by_seat": {str(seat): names[0] for seat, names in by_seat.items()},
            "cautions": agent_cautions(by_seat)}


def second_strength(agents: Sequence[str]) -> list[str]:
    """The agents `--robust` uses when given no spec: `greedy` in every seat, or `turn` when every
    seat already plays greedy."""
    if agents and all(agent_kind(a) == SECOND_STRENGTH for a in agents):
        return [SECOND_STRENGTH_AFTER] * len(agents)
    return [SECOND_STRENGTH] * len(agents)
