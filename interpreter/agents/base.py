"""The agent protocol, the view an agent decides from, and how an agent's answer is taken."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

from ..errors import CardrulesError, GameStateError


class DecisionView:
    """Everything an agent may know when it decides: no reference to the game itself.

    seat: the deciding player (1-based); prompt: the decision's text; options: the legal
    options, a read-only sequence of `Option(id, label, value, index)`; observation:
    `game.observation(seat)`; rules: the game's `Rules` (what a player knows of the game
    without playing it). The prompt and the observation are worked out when first read (an
    agent that does not look at them, such as the random one, costs nothing): read them
    before the decision is applied.

    `determinize(rng)` gives a full game to search from: a copy in which all that this player
    may not see is drawn anew from `rng` (`Game.determinize`). It agrees with the observation
    and with nothing else of the true state, so an agent that searches such copies sees no more
    than its player does.
    """

    __slots__ = ("seat", "_prompt", "options", "_observe", "_observation", "rules", "_determinize")

    def __init__(self, seat: int, prompt: str | Callable[[], str], options: Sequence[Any],
                 observation: dict | Callable[[], dict], rules: Any = None,
                 determinize: Callable[[random.Random], Any] | None = None) -> None:
        self.seat = seat
        self._prompt = prompt
        self.options = options
        if callable(observation):
            self._observe, self._observation = observation, None
        else:
            self._observe, self._observation = None, observation
        self.rules = rules
        self._determinize = determinize

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

    def determinize(self, rng: random.Random):
        """A game consistent with this player's observation, the unseen drawn from `rng`."""
        if self._determinize is None:
            raise AgentError("this view has no game to determinize (made without one)")
        return self._determinize(rng)


@runtime_checkable
class Agent(Protocol):
    """Takes a decision: returns one of `view.options` (an Option, or its index).

    An agent that searches copies of the game (`view.determinize`) sets `searches = True`:
    games it plays are then played out in the form that can be copied at each decision."""

    def act(self, view: DecisionView) -> Any: ...


class HumanQuit(Exception):
    """The human closed the input or asked to quit (not an agent's failure: it passes through)."""


class AgentError(CardrulesError):
    """An agent that raised, or answered with something that is not one of the options."""

    phase = "agent"


def view_of(game) -> DecisionView:
    """The view of the pending decision, for the player who must take it."""
    seat, options = game.decision()
    pending = game.pending

    def determinize(rng: random.Random):
        try:
            return game.determinize(seat, rng)
        except GameStateError as err:  # (played out in the form that cannot be copied)
            raise AgentError(f"view.determinize: {err.message}; an agent that searches says so with "
                             "`searches = True` (docs/agents.md)") from None

    return DecisionView(seat, lambda: pending.prompt, options, lambda: game.observation(seat), game.rules,
                        determinize)


def agent_name(agent: Agent) -> str:
    """The agent's spec (as `make_agent` was given it), else its class name."""
    return getattr(agent, "name", None) or type(agent).__name__


def answer_of(agent: Agent, view: DecisionView) -> Any:
    """The agent's answer to the view, checked: an option index (int) or an Option of the view.
    An agent that raises, or answers anything else, raises AgentError naming the agent and the
    decision (rule errors and a human quitting pass through as they are)."""
    try:
        answer = agent.act(view)
    except (CardrulesError, HumanQuit):
        raise
    except Exception as err:
        raise AgentError(f"agent {agent_name(agent)!r} (P{view.seat}) raised {type(err).__name__}: {err} "
                         f"at the decision {view.prompt!r}") from None
    if type(answer) is int:
        if 0 <= answer < len(view.options):
            return answer
    elif answer is not None and not isinstance(answer, bool) and hasattr(answer, "index"):
        index = answer.index
        if type(index) is int and 0 <= index < len(view.options) and view.options[index] is answer:
            return answer
    raise AgentError(f"agent {agent_name(agent)!r} (P{view.seat}) answered {answer!r}, which is not one of the "
                     f"{len(view.options)} options (an index 0..{len(view.options) - 1} or an Option of the view) "
                     f"at the decision {view.prompt!r}")


def play_decision(game, agents: Sequence[Agent]):
    """Ask the agent of the deciding seat (agents[seat - 1]) and apply its answer; return the Option.
    A failing agent raises AgentError and leaves the game at that decision."""
    view = view_of(game)
    answer = answer_of(agents[view.seat - 1], view)
    if type(answer) is int:
        option = view.options[answer]
        game.apply(option.index)  # (by index: an unlogged game needs no more)
    else:
        option = answer
        game.apply(option)
    return option


def searches(agents: Sequence[Agent]) -> bool:
    """Whether any of the agents copies the game to search (see `Agent`)."""
    return any(getattr(a, "searches", False) for a in agents)


def play_out(game, agents: Sequence[Agent], fast: bool = False) -> int:
    """Play the game to its end, each decision by the agent of the deciding seat, as
    `play_decision` in a loop would, but without suspending the rules at each decision
    (`Game.play_out`, `fast` as there; never fast with an agent that searches). Returns the
    number of decisions taken. If an agent fails, AgentError is raised and the game waits at
    that decision (with `fast`, the game cannot go on)."""
    return game.play_out(decider(agents), fast and not searches(agents))


def decider(agents: Sequence[Agent]) -> Callable:
    """The function `Game.play_out` and `Rules.play_out` take: each decision to the agent of the
    deciding seat (agents[seat - 1]), its answer checked as `answer_of` does. When every agent
    reads only how many options there are (its own class says `reads_only_counts`, and its
    `choose_index(n)` answers as its `act` does), a decider by count (`by_count`): a play-out
    then asks it without making the decision's object."""
    agents = list(agents)
    if agents and all(type(a).__dict__.get("reads_only_counts") for a in agents):
        from .. import by_count

        choosers = [a.choose_index for a in agents]
        return by_count(lambda seat, n: choosers[seat - 1](n))

    def decide(game):
        view = view_of(game)
        return answer_of(agents[view.seat - 1], view)

    return decide
