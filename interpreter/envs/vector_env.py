"""N games of a ruleset in worker processes, as one Stable-Baselines3 vector environment (extras
`pettingzoo` and `rl`): docs/envs.md "Single-agent and vector environments".

    from sb3_contrib import MaskablePPO
    from interpreter.envs.vector_env import CardrulesVecEnv
    env = CardrulesVecEnv("initiative", n_envs=8, workers=2, seed=0, opponents="random")
    model = MaskablePPO("MlpPolicy", env, n_steps=256).learn(20_000)
    env.close()

Each game is a `CardrulesGymEnv` (the keyword arguments after `workers` go to it; opponents as
specs, since they are sent to the workers); the `n_envs` games are split over `workers` processes
(default: min(n_envs, CPU count)), each stepping its share in turn. Observations come stacked,
shape (n_envs, observation size), float32; rewards and dones as arrays; a finished game is reset
at once, its last observation in `infos[i]["terminal_observation"]` and `infos[i]
["TimeLimit.truncated"]` true if it was stopped at its cap of decisions (Stable-Baselines3's
conventions). The masks of all games come back with every step and reset, stacked, shape
(n_envs, action count), bool: `action_masks()`, which is also what sb3-contrib's MaskablePPO gets
from `env_method("action_masks")` (served without asking the workers). Game i's first seed is
`seed + i` (SB3's `seed()` sets them again for the next reset).
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

try:
    from stable_baselines3.common.vec_env import VecEnv
except ImportError as error:
    raise ImportError("the vector environment needs the extra 'rl': pip install 'cardrules[rl]'") from error

MASKS = "action_masks"


def _work(remote, ruleset: str, kwargs: dict, count: int) -> None:
    """A worker: `count` games, stepped on the parent's commands until it says close."""
    from .gym_env import CardrulesGymEnv

    envs: list = []
    try:
        envs = [CardrulesGymEnv(ruleset, **kwargs) for _ in range(count)]
        remote.send(("ok", (envs[0].observation_space, envs[0].action_space, envs[0].render_mode)))
    except Exception as err:  # (a bad ruleset or argument: the parent raises it)
        remote.send(("error", err))
        remote.close()
        return
    while True:
        try:
            command, data = remote.recv()
        except EOFError:
            break
        try:
            if command == "reset":
                rows = [env.reset(seed=seed, options=options) for env, (seed, options) in zip(envs, data)]
                remote.send(("ok", ([r[0] for r in rows], [r[1] for r in rows], [env.action_masks() for env in envs])))
            elif command == "step":
                remote.send(("ok", [_step(env, int(a)) for env, a in zip(envs, data)]))
            elif command == "get_attr":
                name, indices = data
                remote.send(("ok", [getattr(envs[i], name) for i in indices]))
            elif command == "has_attr":
                remote.send(("ok", all(hasattr(env, data) for env in envs)))
            elif command == "set_attr":
                name, value, indices = data
                for i in indices:
                    setattr(envs[i], name, value)
                remote.send(("ok", None))
            elif command == "env_method":
                name, args, kwargs_, indices = data
                remote.send(("ok", [getattr(envs[i], name)(*args, **kwargs_) for i in indices]))
            elif command == "is_wrapped":
                remote.send(("ok", [False for _ in data]))
            elif command == "cpu":
                remote.send(("ok", time.process_time()))
            elif command == "close":
                for env in envs:
                    env.close()
                remote.send(("ok", None))
                break
        except Exception as err:
            remote.send(("error", err))
    remote.close()


def _step(env, action: int) -> tuple:
    observation, reward, terminated, truncated, info = env.step(action)
    done = terminated or truncated
    if done:
        info["terminal_observation"] = observation
        info["TimeLimit.truncated"] = truncated and not terminated
        observation, _ = env.reset()
    info.pop("action_mask", None)  # (sent once, below)
    return observation, reward, done, info, env.action_masks()


class CardrulesVecEnv(VecEnv):
    """`n_envs` games of one ruleset in `workers` processes; see the module."""

    def __init__(self, ruleset: str, n_envs: int = 4, workers: int | None = None, seed: int | None = None,
                 start_method: str | None = None, **kwargs: Any) -> None:
        if isinstance(n_envs, bool) or not isinstance(n_envs, int) or n_envs < 1:
            raise ValueError(f"n_envs must be a whole number of at least 1, not {n_envs!r}")
        workers = min(n_envs, os.cpu_count() or 1) if workers is None else workers
        if isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= n_envs:
            raise ValueError(f"workers must be a whole number from 1 to n_envs ({n_envs}), not {workers!r}")
        context = multiprocessing.get_context(start_method or "forkserver")
        shares = [n_envs // workers + (1 if w < n_envs % workers else 0) for w in range(workers)]
        self._slices = []
        start = 0
        for share in shares:
            self._slices.append(range(start, start + share))
            start += share
        self._remotes, self._processes = [], []
        self._closed = False
        for share in shares:
            remote, work_remote = context.Pipe()
            process = context.Process(target=_work, args=(work_remote, ruleset, kwargs, share), daemon=True)
            process.start()
            work_remote.close()
            self._remotes.append(remote)
            self._processes.append(process)
        answers = [self._receive(remote) for remote in self._remotes]
        observation_space, action_space, self._render_mode = answers[0]
        self._masks = np.zeros((n_envs, action_space.n), dtype=bool)
        super().__init__(n_envs, observation_space, action_space)
        if seed is not None:
            self.seed(seed)

    # ------------------------------------------------------------------ the workers
    def _receive(self, remote) -> Any:
        try:
            status, value = remote.recv()
        except EOFError:
            self.close()
            raise RuntimeError("a worker of the vector environment stopped (see its error above)") from None
        if status == "error":
            raise value
        return value

    def _ask(self, command: str, per_worker: Sequence[Any]) -> list:
        for remote, data in zip(self._remotes, per_worker):
            remote.send((command, data))
        return [self._receive(remote) for remote in self._remotes]

    def _split(self, values: Sequence[Any]) -> list[list]:
        return [[values[i] for i in s] for s in self._slices]

    def _by_worker(self, indices: Any) -> list[tuple[int, list[int]]]:
        """(worker, its local indices) for the games `indices` name (SB3's None, int or list)."""
        wanted = list(self._get_indices(indices))
        out = []
        for w, s in enumerate(self._slices):
            local = [i - s.start for i in wanted if i in s]
            if local:
                out.append((w, local))
        return out

    # ------------------------------------------------------------------ VecEnv
    def reset(self) -> np.ndarray:
        answers = self._ask("reset", self._split(list(zip(self._seeds, self._options))))
        observations, infos, masks = [], [], []
        for obs, info, mask in answers:
            observations += obs
            infos += info
            masks += mask
        self.reset_infos = infos
        self._masks = np.stack(masks)
        self._reset_seeds()
        self._reset_options()
        return np.stack(observations).astype(np.float32)

    def step_async(self, actions: np.ndarray) -> None:
        actions = np.asarray(actions).reshape(self.num_envs)
        for remote, part in zip(self._remotes, self._split(list(actions))):
            remote.send(("step", part))

    def step_wait(self):
        rows = [row for remote in self._remotes for row in self._receive(remote)]
        observations, rewards, dones, infos, masks = zip(*rows)
        self._masks = np.stack(masks)
        return (np.stack(observations).astype(np.float32), np.asarray(rewards, dtype=np.float32),
                np.asarray(dones, dtype=bool), list(infos))

    def action_masks(self) -> np.ndarray:
        """The masks of every game now, stacked: (n_envs, action count), bool."""
        return self._masks.copy()

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        for remote in self._remotes:
            try:
                remote.send(("close", None))
                remote.recv()
            except (BrokenPipeError, EOFError, OSError):
                pass
        for process in self._processes:
            process.join(timeout=10)
            if process.is_alive():
                process.terminate()

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        if attr_name == "render_mode":  # (asked by VecEnv.__init__: known from the workers' first answer)
            return [self._render_mode for _ in self._get_indices(indices)]
        return self._gather("get_attr", indices, lambda local: (attr_name, local))

    def has_attr(self, attr_name: str) -> bool:
        if attr_name == MASKS:
            return True
        return all(self._ask("has_attr", [attr_name] * len(self._remotes)))

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        self._gather("set_attr", indices, lambda local: (attr_name, value, local))

    def env_method(self, method_name: str, *method_args, indices: Any = None, **method_kwargs) -> list[Any]:
        if method_name == MASKS and not method_args and not method_kwargs:
            return [self._masks[i].copy() for i in self._get_indices(indices)]
        return self._gather("env_method", indices, lambda local: (method_name, method_args, method_kwargs, local))

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        return [False for _ in self._get_indices(indices)]

    def _gather(self, command: str, indices: Any, data) -> list[Any]:
        parts = self._by_worker(indices)
        for w, local in parts:
            self._remotes[w].send((command, data(local)))
        out: list[Any] = []
        for w, _local in parts:
            answer = self._receive(self._remotes[w])
            if answer is not None:
                out += answer
        return out

    def worker_cpu_seconds(self) -> float:
        """The CPU time the worker processes have used so far (for a training budget)."""
        return float(sum(self._ask("cpu", [None] * len(self._remotes))))

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass
