"""A trained policy as an agent (extra `rl`): `--agents policy:PATH` (docs/envs.md "Policies as agents").

The file is a Stable-Baselines3 model saved by sb3-contrib's MaskablePPO (`model.save(PATH)`,
a .zip), trained on the observation vectors and action ids of the PettingZoo environment of
the ruleset (directly, or through `CardrulesGymEnv` / `CardrulesVecEnv`, which give the same).
`save_policy(model, PATH, rules)` saves it with a `cardrules.json` member that names the ruleset,
its options and the sizes, so that a policy offered to another game is refused by name; a .zip
without it is checked by its sizes only.

At each decision the agent sees what its player sees and nothing more: it works on a copy of the
game drawn from its player's view (`view.determinize`, the unseen drawn anew), on which the
PettingZoo environment gives the player's observation vector and mask, exactly as in training.
The policy picks one action id (one element of a multi-part choice at a time, each with the
vector of the choice so far) until the ids make a whole option; that option is the answer.
`pick=best` (the default) takes the most probable legal id; `pick=sample` draws one from the
policy's probabilities over the legal ids with the agent's own seeded generator (reproducible).
"""

from __future__ import annotations

import json
import os
import random
import zipfile
from functools import lru_cache
from typing import Any

from .base import AgentError, DecisionView
from .registry import AgentSpecError, Param

META = "cardrules.json"
FORMAT = 1
PICKS = ("best", "sample")


class _Position:
    """The drawn copy of the game as the environment sees it, except that applying an option
    only records which one (the agent's answer) and leaves the copy as it was."""

    def __init__(self, game) -> None:
        self._game = game
        self.chosen: int | None = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def apply(self, option) -> None:
        self.chosen = option if type(option) is int else option.index


class _GivenRules:
    """The rules as the environment's `reset` reads them, whose next new game is `position`."""

    def __init__(self, rules, position: _Position) -> None:
        self._rules = rules
        self._position = position

    def __getattr__(self, name: str) -> Any:
        return getattr(self._rules, name)

    def new_game(self, *args, **kwargs) -> _Position:
        return self._position


def _need_sb3():
    try:
        from sb3_contrib import MaskablePPO
    except ImportError:
        raise AgentSpecError("a policy agent needs the extra 'rl': pip install 'cardrules[rl]' "
                             "(PyTorch, Stable-Baselines3, sb3-contrib)") from None
    return MaskablePPO


@lru_cache(maxsize=8)
def _load(path: str, stamp: tuple[int, int]) -> tuple[Any, dict | None]:
    """The model and its cardrules.json (None if absent), loaded once per process and file version."""
    MaskablePPO = _need_sb3()
    try:
        with zipfile.ZipFile(path) as zipped:
            names = zipped.namelist()
            meta = json.loads(zipped.read(META)) if META in names else None
        if "data" not in names:
            raise ValueError("it has no 'data' member")
    except (OSError, zipfile.BadZipFile, ValueError) as err:
        raise AgentSpecError(f"policy {path}: not a Stable-Baselines3 model file (.zip written by "
                             f"MaskablePPO.save): {err}") from None
    try:
        import torch

        torch.set_num_threads(1)  # (one game per process: more threads only contend; see docs/envs.md)
        model = MaskablePPO.load(path, device="cpu")
    except Exception as err:  # (whatever a broken or foreign file makes SB3 raise)
        raise AgentSpecError(f"policy {path}: MaskablePPO cannot load it: {type(err).__name__}: {err}") from None
    return model, meta


def load_policy(path: str | os.PathLike) -> tuple[Any, dict | None]:
    """The MaskablePPO model of a policy file and its cardrules.json (or None); a file that is
    missing or not such a model raises AgentSpecError naming it."""
    path = os.fspath(path)
    try:
        st = os.stat(path)
    except OSError as err:
        raise AgentSpecError(f"policy {path}: cannot read it: {err.strerror or err}") from None
    return _load(os.path.abspath(path), (st.st_mtime_ns, st.st_size))


def save_policy(model, path: str | os.PathLike, rules) -> str:
    """`model.save(path)`, then a cardrules.json member in the .zip naming the ruleset `rules`
    (a `Rules`), its options and the observation and action sizes. Returns the file's path."""
    path = os.fspath(path)
    if not path.endswith(".zip"):
        path += ".zip"
    model.save(path)
    meta = {"format": FORMAT, "ruleset": rules.name, "options": dict(getattr(rules, "options", {}) or {}),
            "observation_size": int(model.observation_space.shape[0]), "action_size": int(model.action_space.n)}
    with zipfile.ZipFile(path, "a") as zipped:
        zipped.writestr(META, json.dumps(meta, sort_keys=True, default=str))
    return path


@lru_cache(maxsize=8)
def _env_for(rules):
    """One PettingZoo environment per ruleset in the process, used only to encode and mask."""
    from ..envs.pettingzoo_aec import CardrulesAECEnv

    return CardrulesAECEnv(rules)


class PolicyAgent:
    """Plays a saved MaskablePPO policy; see the module."""

    PARAMS = (Param("path", str, help="the policy file (.zip of MaskablePPO.save / save_policy)"),
              Param("pick", str, "best", choices=PICKS, help="best: the likeliest legal id; sample: drawn"))
    SUMMARY = "a trained policy (a MaskablePPO .zip), extra rl"
    searches = True  # (it reads a copy of the game drawn from its player's view: `view.determinize`)

    def __init__(self, seed: int | str | None = None, path: str | None = None, pick: str = "best") -> None:
        if not path:
            raise AgentSpecError("a policy agent needs its file: policy:PATH")
        if pick not in PICKS:
            raise AgentSpecError(f"pick is one of {', '.join(PICKS)}, not {pick!r}")
        self.path = os.fspath(path)
        self.model, self.meta = load_policy(self.path)
        self.pick = pick
        self.seed = seed
        self.rng = random.Random(seed)
        self._checked: object = None

    def act(self, view: DecisionView) -> int:
        if len(view.options) == 1:
            return 0
        env = _env_for(view.rules)
        if self._checked is not view.rules:
            self._check(env, view.rules)
            self._checked = view.rules
        position = _Position(view.determinize(self.rng))
        real_rules = env.rules
        env.rules = _GivenRules(real_rules, position)
        try:
            env.reset()
        finally:
            env.rules = real_rules
        agent = env.possible_agents[view.seat - 1]
        while position.chosen is None:
            observed = env.observe(agent)
            env.step(self._choose(observed["observation"], observed["action_mask"]))
        return position.chosen

    def _choose(self, observation, mask) -> int:
        import numpy as np
        import torch

        legal = np.flatnonzero(mask)
        policy = self.model.policy
        with torch.no_grad():
            tensor, _ = policy.obs_to_tensor(np.asarray(observation, dtype=np.float32))
            distribution = policy.get_distribution(tensor, action_masks=np.asarray(mask, dtype=bool)[None])
            probs = distribution.distribution.probs[0].numpy()[legal]
        if self.pick == "best":
            return int(legal[int(np.argmax(probs))])
        total = float(probs.sum())
        return int(legal[self._draw([float(p) / total for p in probs])])

    def _draw(self, weights: list[float]) -> int:
        return self.rng.choices(range(len(weights)), weights=weights)[0]

    def _check(self, env, rules) -> None:
        """The policy must be for this ruleset: its name (when the file says it) and sizes."""
        observation_size = env.observation_space(env.possible_agents[0])["observation"].shape[0]
        action_size = env.action_space(env.possible_agents[0]).n
        model_observation = tuple(self.model.observation_space.shape)
        model_actions = getattr(self.model.action_space, "n", None)
        trained = f" (trained on {self.meta['ruleset']})" if self.meta else ""
        if self.meta and self.meta.get("ruleset") != rules.name:
            raise PolicyMismatchError(f"policy {self.path} was trained on {self.meta.get('ruleset')!r}, not "
                                      f"{rules.name!r}: a policy plays only the ruleset it was trained on")
        if model_observation != (observation_size,) or model_actions != action_size:
            raise PolicyMismatchError(
                f"policy {self.path}{trained} reads observations of shape {model_observation} and "
                f"{model_actions} actions; {rules.name} gives ({observation_size},) and {action_size}: a policy "
                "plays only the ruleset (and options, and encoding version) it was trained on")

    def __repr__(self) -> str:
        return f"PolicyAgent(path={self.path!r}, pick={self.pick!r}, seed={self.seed!r})"


class PolicyMismatchError(AgentError):
    """A policy offered to a game it was not trained for (another ruleset, other sizes)."""


__all__ = ["PolicyAgent", "PolicyMismatchError", "load_policy", "save_policy"]
