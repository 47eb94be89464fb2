"""Any ruleset as a Gymnasium single-agent environment (extra `pettingzoo`): one learner against
opponents that are agents (docs/envs.md "Single-agent and vector environments").

    from interpreter.envs.gym_env import CardrulesGymEnv
    env = CardrulesGymEnv("initiative", opponents="greedy", seed=7)
    observation, info = env.reset()
    while True:
        action = env.action_space.sample(env.action_masks().astype("int8"))
        observation, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break

It is built on the PettingZoo environment (`pettingzoo_aec.CardrulesAECEnv`, kept as `env.aec`):
the learner's observation is that environment's vector for the learner's seat, its actions the
same fixed action ids, its mask `action_masks()` (a bool array, as sb3-contrib's MaskablePPO
reads it; also `info["action_mask"]`). Each step takes one learner action, then lets the
opponents play until the learner is to act again or the game is over.

- `opponents`: an agent spec for every other seat ("random", "greedy", "mcts:50",
  "policy:PATH", ...; "greedy,random" for one spec per other seat, in seat order), or agent
  objects. Spec agents are made anew at each reset, seeded from the episode's seed, so an episode
  is a function of its seed and the learner's actions. Opponents decide from a `DecisionView`,
  like every agent: they see only what their player sees.
- `seat`: "alternate" (the default: seat 1 in the first episode after a seeded reset, seat 2 in the
  next, ...), "random" (drawn from the episode's generator) or a fixed seat 1..n. `info["seat"]`
  says which.
- A game that ends by its rules terminates the episode with the PettingZoo environment's
  reward for the learner (`reward="rules"` or `"win"`); a game stopped at its cap of decisions
  (`max_decisions`, else the ruleset's) truncates it, with reward 0. `info["result"]` holds the
  result once the episode is over.
- An action outside the mask: with `illegal="penalize"` (the default here, so that Gymnasium's and
  Stable-Baselines3's checkers, which step with unmasked random actions, can run) the episode ends
  as a loss for the learner (reward -1); with `illegal="raise"`, `IllegalActionError` and nothing
  changes.
- A game over before the learner's first decision (no shipped game does that) is replaced by the
  next game of the episode's generator, up to 100 times.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np

from .. import load
from ..agents import Agent, answer_of, make_agent, split_agent_specs, view_of
from .actions import STOP, DecisionActions
from .pettingzoo_aec import SEED_BOUND, CardrulesAECEnv

SEATINGS = ("alternate", "random")
RESTARTS = 100  # games in a row that may end before the learner decides


class CardrulesGymEnv(gymnasium.Env):
    """One seat of a ruleset against agents, as a Gymnasium environment; see the module."""

    metadata = {"render_modes": ["ansi", "human"]}

    def __init__(self, ruleset: Any, opponents: str | Agent | Sequence[str | Agent] = "random",
                 seat: str | int = "alternate", options: dict | None = None, seed: int | None = None,
                 render_mode: str | None = None, illegal: str = "penalize", reward: str = "rules",
                 max_decisions: int | None = None, copies: dict[str, int] | None = None) -> None:
        rules = load(ruleset, options=options) if isinstance(ruleset, (str, os.PathLike)) else ruleset
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or one of {self.metadata['render_modes']}, "
                             f"not {render_mode!r}")
        self.aec = CardrulesAECEnv(rules, render_mode=None if render_mode is None else "ansi", illegal=illegal,
                                   copies=copies, reward=reward, max_decisions=max_decisions)
        self.rules = rules
        self.render_mode = render_mode
        players = rules.player_count
        if isinstance(seat, bool) or not (seat in SEATINGS or (isinstance(seat, int) and 1 <= seat <= players)):
            raise ValueError(f"seat must be one of {', '.join(SEATINGS)} or a seat 1..{players}, not {seat!r}")
        self.seating = seat
        self.opponent_specs = _opponent_specs(opponents, players - 1)
        first = self.aec.possible_agents[0]
        self.observation_space = self.aec.observation_space(first)["observation"]
        self.action_space = self.aec.action_space(first)
        self.seat = 1 if seat in SEATINGS else int(seat)
        self.learner = self.aec.possible_agents[self.seat - 1]
        self.opponents: dict[int, Agent] = {}
        self._first_seed = seed
        self._episode = 0
        self._over = True

    # ------------------------------------------------------------------ episode
    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        """A new game. With `seed` (or, at the first reset, the constructor's), everything of the
        episode (the game, the seat under "random", the opponents' seeds) follows from it, and
        the alternation starts again at seat 1; without, from the generator of the last seed.
        `options` is accepted as Gymnasium asks and unused (a ruleset's options go to the constructor)."""
        if seed is None and self._first_seed is not None:
            seed, self._first_seed = self._first_seed, None
        super().reset(seed=seed)
        if seed is not None:
            self._episode = 0
        for _attempt in range(RESTARTS):
            game_seed = int(self.np_random.integers(SEED_BOUND))
            self._start(game_seed)
            if not self._over:
                return self._observation(), self._info()
        raise RuntimeError(f"{RESTARTS} games in a row ended before {self.learner} had a decision")

    def _start(self, game_seed: int) -> None:
        players = self.rules.player_count
        if self.seating == "alternate":
            self.seat = self._episode % players + 1
        elif self.seating == "random":
            self.seat = int(self.np_random.integers(players)) + 1
        self._episode += 1
        self.learner = self.aec.possible_agents[self.seat - 1]
        others = [s for s in range(1, players + 1) if s != self.seat]
        self.opponents = {s: (make_agent(spec, seed=f"{game_seed}/P{s}") if isinstance(spec, str) else spec)
                          for s, spec in zip(others, self.opponent_specs)}
        self.aec.reset(seed=game_seed)
        self._over = False
        self._play_opponents()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        """The learner's action id; then the opponents' decisions until the learner decides again."""
        if self._over:
            raise gymnasium.error.ResetNeeded("step() after the episode ended (or before reset()): call reset()")
        aec = self.aec
        aec.step(action)  # (illegal="raise": IllegalActionError, nothing changed)
        reward = float(aec.rewards.get(self.learner, 0.0))
        reward += self._play_opponents()
        if self.render_mode == "human":
            self.render()
        return (self._observation(), reward, bool(aec.terminations.get(self.learner)),
                bool(aec.truncations.get(self.learner)), self._info())

    def _play_opponents(self) -> float:
        """Each opponent's decisions, as action ids of the PettingZoo environment, until the
        learner is to act or the game is over; returns the learner's rewards meanwhile."""
        aec = self.aec
        reward = 0.0
        while not self._finished() and aec.agent_selection != self.learner:
            seat = aec.possible_agents.index(aec.agent_selection) + 1
            for action in option_actions(aec, self.opponents[seat]):
                aec.step(action)
                reward += float(aec.rewards.get(self.learner, 0.0))
        self._over = self._finished()
        return reward

    def _finished(self) -> bool:
        aec = self.aec
        return bool(aec.terminations.get(self.learner) or aec.truncations.get(self.learner))

    # ------------------------------------------------------------------ observations
    def _observation(self) -> np.ndarray:
        # a copy: the AEC env caches one read-only vector per decision, and Gymnasium's users keep
        # each observation they are given (env_checker refuses two calls sharing an array)
        return np.array(self.aec.observe(self.learner)["observation"], dtype=np.float32)

    def action_masks(self) -> np.ndarray:
        """True at each action id legal for the learner now (all False once the episode is over)."""
        return self.aec.action_mask(self.learner).astype(bool)

    def _info(self) -> dict:
        info: dict[str, Any] = {"seat": self.seat, "action_mask": self.action_masks()}
        result = self.aec.infos.get(self.learner, {}).get("result")
        if result is not None:
            info["result"] = dict(result)
        return info

    def render(self) -> str | None:
        """"ansi": the text of what the learner's opponent or the learner to act sees; "human":
        the same, printed."""
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        text = self.aec.render()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def option_actions(aec: CardrulesAECEnv, agent: Agent):
    """Ask `agent` for the decision `aec`'s game waits for, and yield the action ids that take its
    answer in `aec` (one per element of a multi-part choice, then STOP where the elements make a
    whole option that could go on). The agent decides from `view_of(game)`: what its player sees."""
    game = aec.game
    view = view_of(game)
    answer = answer_of(agent, view)
    index = answer if type(answer) is int else answer.index
    wanted = _elements(view.options.value_at(index))
    actions = DecisionActions(aec.catalogue, game)
    while True:
        legal = actions.legal()
        depth = len(actions.prefix)
        if depth < len(wanted):
            key = _identity(wanted[depth])
            action = next((a for a, e in legal.items() if e is not STOP and _identity(e) == key), None)
        else:
            action = next((a for a, e in legal.items() if e is STOP), None)
        if action is None:
            raise RuntimeError(f"option {index} of {view.prompt!r} has no action path in the action space")
        yield action
        if actions.take(action) is not None:
            return


def _elements(value: Any) -> list:
    from ..lang.values import Labelled

    if type(value) is Labelled:
        value = value.value
    if isinstance(value, list):
        return [v.value if type(v) is Labelled else v for v in value]
    return [value]


def _identity(value: Any) -> tuple:
    from ..lang.values import value_id

    return (type(value).__name__, value_id(value))


def _opponent_specs(opponents: Any, count: int) -> list[str | Agent]:
    """One opponent per other seat: a spec or an agent for all of them, or one each."""
    if isinstance(opponents, str):
        specs: list = split_agent_specs(opponents)
    elif isinstance(opponents, Sequence):
        specs = list(opponents)
    else:
        specs = [opponents]
    if len(specs) == 1:
        specs = specs * count
    if len(specs) != count:
        raise ValueError(f"opponents: this game has {count} other seat(s), but {len(specs)} opponents were given")
    for spec in specs:
        if isinstance(spec, str):
            if spec.strip().lower() == "human":
                raise ValueError("opponents: 'human' cannot play inside an environment")
            make_agent(spec)  # (a bad spec fails here, not at the first reset)
        elif not callable(getattr(spec, "act", None)):
            raise ValueError(f"opponents: {spec!r} is neither an agent spec nor an agent (no act(view))")
    return specs


def make_gym_env(ruleset: str, **kwargs: Any) -> CardrulesGymEnv:
    """`CardrulesGymEnv(ruleset, **kwargs)`: a shipped game's name or a ruleset's path."""
    return CardrulesGymEnv(ruleset, **kwargs)

