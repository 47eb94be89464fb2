"""Agents: who takes a game's decisions.

An agent sees a `DecisionView` (the deciding seat, the prompt, the legal options, that player's
`game.observation(seat)`, the rules, and `determinize(rng)`: a copy of the game with what that
player may not see drawn anew), never the game itself: hidden information stays hidden by
construction. `act(view)` returns one of `view.options` (or its index).

    from interpreter.agents import make_agent, play_decision
    agents = [make_agent("mcts:200", seed=1), make_agent("random", seed=2)]
    while not game.is_over:
        play_decision(game, agents)

or, to the end at once and faster, `play_out(game, agents)`. docs/agents.md says what each
agent does and how to write and register one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .base import (
    Agent,
    AgentError,
    DecisionView,
    HumanQuit,
    agent_name,
    answer_of,
    decider,
    play_decision,
    play_out,
    searches,
    view_of,
)
from .greedy import GreedyAgent
from .mcts import MctsAgent, SearchStats
from .registry import (
    AgentSpecError,
    Param,
    UnknownAgentError,
    agent_names,
    make_agent,
    register_agent,
    split_agent_specs,
)
from .simple import FirstAgent, RandomAgent
from .turn import TurnAgent

if TYPE_CHECKING:
    from .human import HumanAgent, render_observation

__all__ = [
    "Agent",
    "AgentError",
    "AgentSpecError",
    "DecisionView",
    "FirstAgent",
    "GreedyAgent",
    "HumanAgent",
    "HumanQuit",
    "MctsAgent",
    "Param",
    "RandomAgent",
    "SearchStats",
    "TurnAgent",
    "UnknownAgentError",
    "agent_name",
    "agent_names",
    "answer_of",
    "decider",
    "make_agent",
    "play_decision",
    "play_out",
    "register_agent",
    "render_observation",
    "searches",
    "split_agent_specs",
    "view_of",
]


def __getattr__(name: str) -> Any:
    """The terminal's agent is imported on first use (it brings the terminal table and rich)."""
    if name in ("HumanAgent", "render_observation"):
        from . import human

        return getattr(human, name)
    raise AttributeError(f"module 'interpreter.agents' has no attribute {name!r}")
