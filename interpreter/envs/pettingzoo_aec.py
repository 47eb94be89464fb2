"""Every ruleset as a PettingZoo AEC environment (extra `pettingzoo`), in the form of PettingZoo's
classic card games (`pettingzoo/classic/rlcard_envs/rlcard_base.py`).

    from interpreter.envs import pettingzoo_env
    env = pettingzoo_env("bases", seed=7)
    env.reset(seed=42)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        action = None if termination else env.action_space(agent).sample(observation["action_mask"])
        env.step(action)

Agents are `player_1` .. `player_n` (seat k is `player_k`). An action is an id of the ruleset's
fixed action space (`ActionCatalogue`: `Discrete(size)`); an observation is a dict of
`observation`, the vector of `ObservationEncoding` of what the agent may see (float32: the cards
seen with their attributes, the agent's choice in progress, the events they witnessed; filled
straight from the game's state, bit for bit the encoding of `game.observation`), and
`action_mask`, 1 at each id legal for the agent now (int8; all zeros when it is not their turn).
`infos[agent]["legal_actions"]` holds the same legal ids, sparse (a sorted int64 array; empty when
it is not their turn), so a policy need not scan the mask. The mask and the vector are made once
per decision (per part of a multi-part choice) and are read-only; with `learners=[...]` only those
agents' observations are encoded (the others observe a vector of zeros, with their mask), so seats
played by a fixed opponent cost no encoding.
A choice of several parts (two cards, an order) takes several steps of the same agent, one id each:
`agent_selection` stays on them until the option is complete. `structured_observation(agent)` is
the same observation as the plain dict of `game.observation` (built only when asked for).

Rewards, at the end of the game (every other step gives 0): with `reward="rules"` (the default)
the ruleset's `reward:` expression for each player (`Rules.reward`), or, if it declares none, +1
for a winner, -1 for a loser, 0 for everyone in a draw; `reward="win"` always gives the latter. In
a ruleset with teams each agent gets its team's result (`Result.outcome`: a shared win is +1 for
every member, a shared loss -1). A scoring game whose ruleset says `score: {rewards: steps}` (with
`reward="rules"`) rewards each agent, at every step, the change of its score (its team's) since
the step before instead, so that its rewards add up to its final score. A game that ends by its rules terminates every agent; a game stopped at its cap of
decisions (`max_decisions`, else the ruleset's `limits: {max_decisions}`, else 100000) truncates
every agent instead (`truncations` True, `terminations` False, rewards 0, `infos[agent]["result"]
["unfinished"]` True). `infos[agent]["result"]` holds the winner's agent name (or None) and the
reason once the game is over.

An action outside the mask (an id that is not legal now, None for a live agent, anything that is
not a whole number):
- `illegal="raise"` (the default): `IllegalActionError` (an `ActionSpaceError` and a `ValueError`),
  and nothing changes: the same agent is still to act, with the same observation and mask;
- `illegal="penalize"`: the game ends there as a loss for the agent who acted, as PettingZoo's
  `TerminateIllegalWrapper` does: they get -1, the others 0, every agent is terminated and
  `infos[agent]["result"]["illegal"]` names the offender. The environment keeps its own state
  (no wrapper whose copy of `agent_selection` could shadow the environment's, the bug of
  PettingZoo issue #1176), and `reset` starts from every possible agent with no dead-step order
  left over, so the next game starts with the right agent.

A decision offering more copies of a card name than the action space has ordinals for raises
`ActionSpaceError` when its mask is built (give `copies={name: N}` to `make_env`).

Stepping after the game ended and every agent's last step was taken (`env.agents` empty), or
before `reset`, raises `EnvFinishedError`.
"""

from __future__ import annotations

import operator
import random
from typing import Any

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError as error:  # (a module set to None in sys.modules raises ImportError too)
    raise ImportError("the PettingZoo adapter needs the extra 'pettingzoo': pip install 'cardrules[pettingzoo]'") \
        from error

from .. import CardrulesError, load
from .actions import ActionCatalogue, ActionSpaceError, DecisionActions
from .encoding import ObservationEncoding, fresh_from_keys
from .returns import seat_scores

ILLEGAL_MODES = ("raise", "penalize")
REWARD_SCHEMES = ("rules", "win")
SEED_BOUND = 2**31


class IllegalActionError(ActionSpaceError, ValueError):
    """An action outside the acting agent's mask, refused with the environment unchanged."""


class EnvFinishedError(CardrulesError, RuntimeError):
    """A step with no game to take it: before `reset`, or after every agent has finished."""

    phase = "environment"


class CardrulesAECEnv(AECEnv):
    """One ruleset as a PettingZoo AEC environment; see the module's docstring. Build it with
    `make_env` (or `interpreter.envs.pettingzoo_aec`)."""

    def __init__(self, rules, seed: int | None = None, render_mode: str | None = None, illegal: str = "raise",
                 copies: dict[str, int] | None = None, reward: str = "rules",
                 max_decisions: int | None = None, slots: dict[str, int] | None = None,
                 events: int | None = None, learners: list[str] | None = None) -> None:
        super().__init__()
        self.max_decisions = rules.decision_cap(max_decisions)  # (a bad one raises ValueError first)
        if illegal not in ILLEGAL_MODES:
            raise ValueError(f"illegal must be one of {', '.join(ILLEGAL_MODES)}, not {illegal!r}")
        if reward not in REWARD_SCHEMES:
            raise ValueError(f"reward must be one of {', '.join(REWARD_SCHEMES)}, not {reward!r}")
        self.metadata = {"render_modes": ["ansi", "human"], "name": f"cardrules_{rules.name}_v0", "is_parallelizable": False}
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or one of {self.metadata['render_modes']}, "
                             f"not {render_mode!r}")
        self.rules = rules
        self.render_mode = render_mode
        self.illegal = illegal
        self.reward_scheme = reward
        # `score: {rewards: steps}`: each step rewards the changes of the players' scores
        self._steps_scored = reward == "rules" and rules.score is not None and rules.score.rewards == "steps"
        self._scores_before: list[float] | None = None
        self.catalogue = ActionCatalogue(rules, copies=copies)
        self.encoding = ObservationEncoding(rules, slots=slots, events=events)
        self.possible_agents = [f"player_{seat}" for seat in range(1, rules.player_count + 1)]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents, start=1)}
        unknown = [a for a in (learners or ()) if a not in self._seats]
        if unknown:
            raise ValueError(f"learners: {', '.join(map(repr, unknown))} is not an agent "
                             f"(agents: {', '.join(self.possible_agents)})")
        self.learners = frozenset(self.possible_agents if learners is None else learners)
        self._no_vector = _frozen(np.zeros(self.encoding.size, dtype=np.float32))
        self._no_mask = _frozen(np.zeros(self.catalogue.size, dtype=np.int8))
        self.action_spaces = {agent: spaces.Discrete(self.catalogue.size) for agent in self.possible_agents}
        self.observation_spaces = {
            agent: spaces.Dict({
                "observation": spaces.Box(low=-np.inf, high=np.inf, shape=(self.encoding.size,), dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(self.catalogue.size,), dtype=np.int8),
            })
            for agent in self.possible_agents
        }
        self._rng = random.Random(seed)
        self.game: Any = None  # the current game (`Rules.new_game`), from `reset` on
        self._actions: DecisionActions | None = None
        self._seen_at: dict[int, list] = {}  # seat -> the keys of the events they had witnessed at their last decision
        # what is worked out once per decision (a multi-part choice: once per part), kept until it changes
        self._moment = 0  # one more at each option applied
        self._vectors: dict[str, tuple[tuple[int, int], np.ndarray]] = {}  # agent -> ((moment, parts), vector)
        self._mask: tuple[tuple[int, int], np.ndarray, np.ndarray] | None = None  # the acting agent's (key, mask, ids)
        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self._skip_agent_selection = None

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ episode
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game: with `seed`, that game seed (and the environment's generator reseeded by it, so
        later resets without a seed follow from it); without, a seed drawn from that generator.
        `options` is accepted as PettingZoo asks and unused: a ruleset's options are given to `make_env`."""
        if seed is not None:
            self._rng = random.Random(seed)
            game_seed = seed
        else:
            game_seed = self._rng.randrange(SEED_BOUND)
        self.game = self.rules.new_game(seed=game_seed, log=False, max_decisions=self.max_decisions)
        self._scores_before = [0.0] * len(self.possible_agents) if self._steps_scored else None
        self._actions = None
        self._seen_at = {}
        self._moved()
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self._skip_agent_selection = None  # (a dead-step order left by the last game must not carry over)
        if self.game.is_over:  # (a game decided before anyone decides)
            self.agent_selection = self.agents[0]
            self._finish()
        else:
            self.agent_selection = self._decider()
            self._offer()

    def step(self, action: Any) -> None:
        """The acting agent's action id (None for a terminated agent's last step); see the module's
        docstring for illegal actions."""
        if self.game is None:
            raise EnvFinishedError("step() before reset(): call reset() to start a game")
        if not self.agents:
            raise EnvFinishedError("the game is over and every agent has taken its last step: call reset() for "
                                   "a new game")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        actions = self._current_actions()
        legal = actions.legal()
        chosen = _action_id(action)
        if chosen is None or chosen not in legal:
            self._refuse(agent, action, chosen, legal)
            return
        index = actions.take(chosen)
        self._cumulative_rewards[agent] = 0.0  # (what `last()` gave them is taken; a new sum starts)
        self._clear_rewards()
        if index is not None:
            self._actions = None
            if agent in self.learners:  # (where their next observation's new events start)
                seat = self._seats[agent]
                self._seen_at[seat] = self.encoding.window(self.game, seat)
            self.game.apply(index)
            self._moved()
            if self.game.is_over:
                self._finish()
                return
            if self._steps_scored:
                self._reward_score_changes()
            self.agent_selection = self._decider()
        self._offer()
        self._accumulate_rewards()

    def _reward_score_changes(self) -> None:
        """`score: {rewards: steps}`: reward each agent the change of its score (its team's, in a
        game scored per team) since the last step, counted from 0 (so an agent's rewards add up
        to its score)."""
        now = seat_scores(self.game)
        for agent in self.agents:
            seat = self._seats[agent]
            self.rewards[agent] = now[seat - 1] - self._scores_before[seat - 1]
        self._scores_before = now

    def _refuse(self, agent: str, action: Any, chosen: int | None, legal: dict[int, Any]) -> None:
        shown = sorted(legal)
        what = "not an action id" if chosen is None else self.catalogue.describe(chosen)
        message = (f"{agent}: action {action!r} ({what}) is not legal now; legal: {shown[:20]}"
                   f"{' ...' if len(shown) > 20 else ''}")
        if self.illegal == "raise":
            raise IllegalActionError(message)
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[agent] = -1.0
        result = {"winner": None, "reason": f"illegal action by {agent}", "illegal": agent}
        self._end(result)

    def _finish(self) -> None:
        """The game ended by its rules: the rewards of the result, every agent terminated; or it
        was stopped at its cap of decisions: rewards 0, every agent truncated."""
        result = self.game.result
        if result.unfinished:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            if self._steps_scored:  # (the score changes of the last step still count)
                self._reward_score_changes()
            self._end({"winner": None, "reason": result.reason, "unfinished": True}, truncated=True)
            return
        winner = None if result.winner is None else self.possible_agents[result.winner - 1]
        for agent in self.agents:
            if self.reward_scheme == "rules":
                self.rewards[agent] = self.rules.reward(self.game, self._seats[agent])
            else:
                self.rewards[agent] = result.outcome(self._seats[agent])
        if self._steps_scored:  # (the scores are the rewards: their changes, not the result)
            self._reward_score_changes()
        told: dict[str, Any] = {"winner": winner, "reason": result.reason}
        if not result.plain:  # (a team's, a shared or a scored result)
            told["winners"] = [self.possible_agents[s - 1] for s in result.winners]
            told["losers"] = [self.possible_agents[s - 1] for s in result.losers]
            if result.scores is not None:
                told["scores"] = {agent: float(result.scores[i]) for i, agent in enumerate(self.possible_agents)}
        self._end(told)

    def _end(self, result: dict[str, Any], truncated: bool = False) -> None:
        self._actions = None
        self.terminations = dict.fromkeys(self.agents, not truncated)
        self.truncations = dict.fromkeys(self.agents, truncated)
        for agent in self.agents:
            self.infos[agent] = {"result": dict(result)}
        self._accumulate_rewards()
        self._deads_step_first()

    def _decider(self) -> str:
        seat, _options = self.game.decision()
        return self.possible_agents[seat - 1]

    def _moved(self) -> None:
        self._moment += 1
        self._vectors = {}
        self._mask = None

    def _offer(self) -> None:
        """The acting agent's legal ids, sparse, in `infos[agent]["legal_actions"]` (an empty array
        for the others). An option with no id leaves them out: the mask raises the error."""
        try:
            legal = self._legal_ids()
        except ActionSpaceError:
            return
        acting = self.agent_selection
        for agent in self.agents:
            info = {k: v for k, v in self.infos.get(agent, {}).items() if k != "legal_actions"}
            info["legal_actions"] = legal if agent == acting else _NO_IDS
            self.infos[agent] = info

    def _legal_ids(self) -> np.ndarray:
        actions = self._current_actions()
        key = (self._moment, len(actions.prefix))
        if self._mask is None or self._mask[0] != key:
            ids = _frozen(np.fromiter(sorted(actions.legal()), dtype=np.int64))
            mask = np.zeros(self.catalogue.size, dtype=np.int8)
            mask[ids] = 1
            self._mask = (key, _frozen(mask), ids)
        return self._mask[2]

    def _current_actions(self) -> DecisionActions:
        if self._actions is None:
            self._actions = DecisionActions(self.catalogue, self.game)
        return self._actions

    # ------------------------------------------------------------------ observations
    def action_mask(self, agent: str) -> np.ndarray:
        """1 at each action id legal for `agent` now (all zeros when it is not their turn): the
        mask of `observe`, without the work of encoding the observation. Made once per decision
        (per part of a multi-part choice) and read-only."""
        if self.game is not None and not self.game.is_over and self.terminations.get(agent) is False \
                and agent == self.agent_selection:
            self._legal_ids()
            return self._mask[1]
        return self._no_mask

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's observation vector and mask (both read-only, made once per decision); for an
        agent not among `learners`, a vector of zeros, nothing encoded."""
        if self.game is None:
            raise EnvFinishedError("observe() before reset(): call reset() to start a game")
        mask = self.action_mask(agent)
        if agent not in self.learners:
            return {"observation": self._no_vector, "action_mask": mask}
        parts = len(self._actions.prefix) if self._actions is not None and agent == self.agent_selection else 0
        key = (self._moment, parts)
        known = self._vectors.get(agent)
        if known is None or known[0] != key:
            vector = np.zeros(self.encoding.size, dtype=np.float32)
            self.encoding.encode_state_into(self.game, self._seats[agent], vector, **self.encoding_context(agent))
            known = self._vectors[agent] = (key, _frozen(vector))
        return {"observation": known[1], "action_mask": mask}

    def encoding_context(self, agent: str) -> dict[str, Any]:
        """What the encoding of `agent`'s observation takes besides the state: the elements they
        took so far in the choice they are making (`choosing`), and how many of the events they
        witnessed came since their last decision (`fresh`: the window of events then and now
        aligned, `encoding.fresh_count`)."""
        choosing = self._actions.prefix if self._actions is not None and agent == self.agent_selection else ()
        seat = self._seats[agent]
        return {"choosing": choosing,
                "fresh": fresh_from_keys(self._seen_at.get(seat), self.encoding.window(self.game, seat))}

    def structured_observation(self, agent: str) -> dict:
        """What `agent` may see, as the plain dict of `game.observation` (the source of the vector)."""
        if self.game is None:
            raise EnvFinishedError("observe() before reset(): call reset() to start a game")
        return self.game.observation(self._seats[agent])

    # ------------------------------------------------------------------ rendering
    def render(self) -> str | None:
        """With render_mode 'ansi': a short text of what the agent to act sees (or the result);
        with 'human': the same text printed to standard output (returns None)."""
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        if self.game is None:
            text = "no game yet: call reset()"
        else:
            agent = self.agent_selection
            text = render_text(self.structured_observation(agent), agent, self.possible_agents)
        if self.render_mode == "human":
            print(text, flush=True)
            return None
        return text

    def close(self) -> None:
        """Nothing to release (no window, no process); the environment stays usable after `reset`."""


def render_text(observation: dict, viewer: str, agents: list[str]) -> str:
    """A few lines for an observation: the turn and who decides, each player's plain attributes
    and non-empty zones (a hidden zone as its count), and the result once there is one."""
    lines = [f"turn {observation.get('turn') or 0}, phase {observation.get('phase') or '-'}; seen by {viewer}"]
    result = observation.get("result")
    if result is not None:
        winner = result.get("winner")
        winners = result.get("winners") or ([winner] if winner is not None else [])
        who = ("unfinished" if result.get("unfinished") else "a draw") if not winners else \
            f"{agents[winner - 1]} wins" if len(winners) == 1 else f"{', '.join(agents[s - 1] for s in winners)} win"
        if not winners and result.get("losers"):
            who = "everyone loses"
        lines.append(f"game over: {who} ({result.get('reason')})")
    decision = observation.get("decision")
    if decision is not None:
        options = decision.get("options")
        count = f" ({len(options)} options)" if options is not None else ""
        lines.append(f"{agents[decision['player'] - 1]} to decide: {decision.get('prompt')}{count}")
    zones = observation.get("zones", {})
    for player in observation.get("players", []):
        seat = player["seat"]
        values = ", ".join(f"{k} {_short(v)}" for k, v in player.items() if k != "seat")
        lines.append(f"{agents[seat - 1]}: {values}")
        lines.extend(_zone_lines(zones.get(f"P{seat}", {})))
    shared = _zone_lines(zones.get("shared", {}))
    if shared:
        lines.append("shared:")
        lines.extend(shared)
    return "\n".join(lines)


def _zone_lines(zones: dict) -> list[str]:
    out = []
    for label, content in zones.items():
        if isinstance(content, list):
            if content:
                out.append(f"  {label}: {', '.join(str(card.get('name')) for card in content)}")
        elif content.get("count"):
            revealed = content.get("revealed") or []
            shown = f" (revealed: {', '.join(str(c.get('name')) for c in revealed)})" if revealed else ""
            out.append(f"  {label}: {content['count']} hidden{shown}")
    return out


def _short(value: Any) -> str:
    if isinstance(value, list):
        shown = ", ".join(_short(v) for v in value[:6])
        return f"[{shown}{', ...' if len(value) > 6 else ''}]"
    if isinstance(value, dict):
        return str(value.get("name", "{...}"))
    return str(value)


_NO_IDS = np.zeros(0, dtype=np.int64)
_NO_IDS.flags.writeable = False


def _frozen(array: np.ndarray) -> np.ndarray:
    array.flags.writeable = False
    return array


def _action_id(action: Any) -> int | None:
    """An action as a plain int (numpy integers included), or None if it is not a whole number."""
    if action is None or isinstance(action, bool):
        return None
    try:
        return int(operator.index(action))
    except TypeError:
        return None


def make_env(ruleset: str, options: dict | None = None, seed: int | None = None, render_mode: str | None = None,
             illegal: str = "raise", copies: dict[str, int] | None = None, reward: str = "rules",
             max_decisions: int | None = None, slots: dict[str, int] | None = None,
             events: int | None = None, learners: list[str] | None = None) -> CardrulesAECEnv:
    """The ruleset (a shipped game's name or a path, with its options) as a PettingZoo AEC environment.

    `seed` seeds the environment's own generator, which draws each game's seed when `reset` gets
    none; `illegal` is "raise" or "penalize" (see the module's docstring); `copies` raises the
    ordinals of the action space for card names ({name: N}); `reward` is "rules" (the ruleset's
    `reward:`, else win/loss) or "win"; `max_decisions` is each game's cap of decisions, past
    which it is truncated (default: the ruleset's); `slots` ({zone: N}) and `events` set the card
    slots per zone and the events of the observation vector (`ObservationEncoding`); `learners`
    the agents whose observations are encoded (default: all; the others observe zeros, with their
    mask). An unknown or broken ruleset raises the loader's CardrulesError."""
    return CardrulesAECEnv(load(ruleset, options=options), seed=seed, render_mode=render_mode, illegal=illegal,
                           copies=copies, reward=reward, max_decisions=max_decisions, slots=slots, events=events,
                           learners=learners)
