"""The agent protocol, the view an agent decides from, and the registry of agents by name."""

from __future__ import annotations

import difflib
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable


class DecisionView:
    """Everything an agent may know when it decides: no reference to the game itself.

    seat: the deciding player (1-based); prompt: the decision's text; options: the legal
    options, a read-only sequence of `Option(id, label, value, index)`; observation:
    `game.observation(seat)`. The prompt and the observation are worked out when first read
    (an agent that does not look at them, such as the random one, costs nothing): read them
    before the decision is applied.
    """

    __slots__ = ("seat", "_prompt", "options", "_observe", "_observation")

    def __init__(self, seat: int, prompt: str | Callable[[], str], options: Sequence[Any],
                 observation: dict | Callable[[], dict]) -> None:
        self.seat = seat
        self._prompt = prompt
        self.options = options
        if callable(observation):
            self._observe, self._observation = observation, None
        else:
            self._observe, self._observation = None, observation

    @property
    def prompt(self) -> str:
        if not isinstance(self._prompt, str):
            self._prompt = self._prompt()
        return self._prompt

    @property
    def observation(self) -> dict:
        if self._observation is None:
            self._observation = self._observe()
            self._observe = None
        return self._observation


@runtime_checkable
class Agent(Protocol):
    """Takes a decision: returns one of `view.options` (an Option, or its index)."""

    def act(self, view: DecisionView) -> Any: ...


class UnknownAgentError(ValueError):
    """An agent name that the registry does not know."""


def view_of(game) -> DecisionView:
    """The view of the pending decision, for the player who must take it."""
    seat, options = game.decision()
    pending = game.pending
    return DecisionView(seat, lambda: pending.prompt, options, lambda: game.observation(seat))


def play_decision(game, agents: Sequence[Agent]):
    """Ask the agent of the deciding seat (agents[seat - 1]) and apply its answer; return the Option."""
    view = view_of(game)
    answer = agents[view.seat - 1].act(view)
    if isinstance(answer, int) and not isinstance(answer, bool):
        option = view.options[answer]
        game.apply(option.index)  # (by index: an unlogged game needs no more)
    else:
        option = answer
        game.apply(option)
    return option


def play_out(game, agents: Sequence[Agent], fast: bool = False) -> int:
    """Play the game to its end, each decision by the agent of the deciding seat, as
    `play_decision` in a loop would, but without suspending the rules at each decision
    (`Game.play_out`, `fast` as there). Returns the number of decisions taken. If an agent
    raises or answers illegally, that error is raised and the game waits at that decision
    (with `fast`, the game cannot go on)."""
    return game.play_out(decider(agents), fast)


def decider(agents: Sequence[Agent]) -> Callable:
    """The function `Game.play_out` and `Rules.play_out` take: each decision to the agent of the
    deciding seat (agents[seat - 1])."""
    acts = [agent.act for agent in agents]

    def decide(game):
        view = view_of(game)
        return acts[view.seat - 1](view)

    return decide


def _registry() -> dict[str, Callable[..., Agent]]:
    from .human import HumanAgent
    from .simple import FirstAgent, RandomAgent

    return {
        "random": lambda seed=None, **kw: RandomAgent(seed),
        "first": lambda seed=None, **kw: FirstAgent(),
        "human": lambda seed=None, **kw: HumanAgent(**kw),
    }


def agent_names() -> list[str]:
    return list(_registry())


def make_agent(name: str, seed: int | str | None = None, **kwargs) -> Agent:
    """An agent by name: 'random' (seeded, its own generator), 'first', 'human' (terminal).

    kwargs go to the human agent (input=, output=).
    """
    registry = _registry()
    factory = registry.get(name.strip().lower())
    if factory is None:
        close = difflib.get_close_matches(name, list(registry), n=1, cutoff=0.5)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise UnknownAgentError(f"unknown agent {name!r}{hint}; agents: {', '.join(registry)}")
    return factory(seed=seed, **kwargs)
