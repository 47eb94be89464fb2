"""What a balance run's headline says about its agents: who played each seat, the caution a run
of weak agents carries, and the second agent strength that `simulate --robust` reruns with.

The caution quotes no fixed figures: with `--robust` it gives the run's own measured change of the
headline figures (the first-player advantage, the largest gap between seats) between the two
agent strengths on the same seeds; without, it states the general fact and points to
docs/balance.md, which keeps a shipped game's measured figures.

Shared by the report (index.html, report.md) and `simulate`'s summary (`--json` and the table),
so both say the same. Pure Python: no matplotlib.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .games import GameStats
from .tables import NONE, difference_text, points

# Agents that do not play to win: their figures describe the rules under aimless play.
WEAK_AGENTS = ("random", "first")
# `--robust` with no spec: this agent in every seat, or SECOND_STRENGTH_AFTER when every seat
# already plays it (docs/balance.md, "Which agents for which question").
SECOND_STRENGTH = "greedy"
SECOND_STRENGTH_AFTER = "turn"

RANDOM_CAUTION = (
    "Caution: {seats} played by the agent {agent}, which does not play to win. Such play shrinks card effects "
    "(a strong card spent at a poor moment looks like a weak one, and effects that need intent do not show) "
    "and changes the first-player advantage and the balance between seats. {measured} Read these figures as "
    "the rules under aimless play; {advice}")
RERUN = "rerun with --agents greedy (or --robust) before trusting a verdict about cards or seats."
RERAN = "trust a verdict about cards or seats only where the rerun gives the same one (Robustness)."
# The caution's middle when the run measured nothing at a second strength: the general fact, and
# where measured figures are kept.
UNMEASURED = ("How much depends on the game: this run did not measure it (--robust plays the same seeds at a "
              "second strength and says); docs/balance.md, \"Which agents for which question\", gives a shipped "
              "game's figures under random and greedy play.")


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


def agent_cautions(by_seat: Mapping[int, Sequence[str]], measured: str | None = None) -> list[str]:
    """The cautions a run with these agents carries: one per weak agent that held some seat.
    `measured`: what the run's own data say of the change at a second strength (`measured_change`);
    without it, the general fact and where figures are kept."""
    cautions = []
    for weak in WEAK_AGENTS:
        seats = [seat for seat, names in by_seat.items() if any(agent_kind(n) == weak for n in names)]
        if seats:
            which = (f"seat {seats[0]} was" if len(seats) == 1
                     else "seats " + ", ".join(map(str, seats[:-1])) + f" and {seats[-1]} were")
            if len(seats) == len(by_seat) and len(seats) > 1:
                which = "every seat was"
            cautions.append(RANDOM_CAUTION.format(seats=which, agent=weak, measured=measured or UNMEASURED,
                                                  advice=RERAN if measured else RERUN))
    return cautions


def headline(agents: Sequence[str], measured: str | None = None) -> dict[str, Any]:
    """The `headline` of `simulate --json`: the agent of each seat and the cautions (`measured`:
    as agent_cautions)."""
    by_seat = {seat: [str(a)] for seat, a in enumerate(agents, start=1)}
    return {"agents_by_seat": {str(seat): names[0] for seat, names in by_seat.items()},
            "cautions": agent_cautions(by_seat, measured)}


def _gap(game: GameStats) -> str:
    b = game.balance
    if b is None:
        return NONE
    return f"seat {b.best_seat} − seat {b.worst_seat}: " + points(b.gap, b.difference.low, b.difference.high)


def measured_change(run: GameStats, robust: GameStats, robust_agents: Sequence[str]) -> str:
    """What the run's own records say of the change of the headline figures at a second agent
    strength (`simulate --robust`: the same seeds): the first-player advantage and the largest gap
    between seats under each, with their 95% intervals."""
    label = " vs ".join(robust_agents)
    parts = []
    here, there = run.first_player_advantage, robust.first_player_advantage
    if here.estimate is not None and there.estimate is not None:
        parts.append(f"the first-player advantage is {difference_text(here)} here and {difference_text(there)} "
                     f"under {label}, a change of {100 * (there.estimate - here.estimate):+.1f} points")
    if run.balance is not None and robust.balance is not None:
        parts.append(f"the largest gap between seats is {_gap(run)} here and {_gap(robust)} under {label}")
    if not parts:
        return (f"On these seeds, replayed by {label} (--robust), neither the first-player advantage nor a gap "
                "between seats could be measured on both runs.")
    return f"Measured on these seeds, replayed by {label} (--robust, 95% intervals): " + "; ".join(parts) + "."


def second_strength(agents: Sequence[str]) -> list[str]:
    """The agents `--robust` uses when given no spec: `greedy` in every seat, or `turn` when every
    seat already plays greedy."""
    if agents and all(agent_kind(a) == SECOND_STRENGTH for a in agents):
        return [SECOND_STRENGTH_AFTER] * len(agents)
    return [SECOND_STRENGTH] * len(agents)
