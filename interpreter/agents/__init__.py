"""Agents: who takes a game's decisions.

An agent sees a `DecisionView` (the deciding seat, the prompt, the legal options and that
player's `game.observation(seat)`), never the game itself: hidden information stays hidden by
construction. `act(view)` returns one of `view.options` (or its index).

    from interpreter.agents import make_agent, play_decision
    agents = [make_agent("random", seed=1), make_agent("first")]
    while not game.is_over:
        play_decision(game, agents)

or, to the end at once and faster, `play_out(game, agents)`.
"""

from __future__ import annotations

from .base import (
    Agent,
    DecisionView,
    UnknownAgentError,
    agent_names,
    decider,
    make_agent,
    play_decision,
    play_out,
    view_of,
)
from .human import HumanAgent, HumanQuit, render_observation
from .simple import FirstAgent, RandomAgent

__all__ = [
    "Agent",
    "DecisionView",
    "FirstAgent",
    "HumanAgent",
    "HumanQuit",
    "RandomAgent",
    "UnknownAgentError",
    "agent_names",
    "decider",
    "make_agent",
    "play_decision",
    "play_out",
    "render_observation",
    "view_of",
]
