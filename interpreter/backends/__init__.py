"""Backends: where the games of a batch are played, and the records they bring back.

A backend is a context manager with `run(spec, seeds)`, which yields each seed's outcome
(record, log lines or None) exactly once, in the order games finish. `LocalBackend` plays them
in this process or a pool of processes; `RayBackend` (optional extra `ray`) as Ray tasks, on a
local Ray it starts or on a cluster at an address. The same seeds give the same records on every
backend and any number of workers.
"""

from __future__ import annotations

from typing import Any

from .games import Outcome, agent_seed, game_seed, game_seeds, play_game, play_seeds
from .local import LocalBackend
from .spec import BackendError, BatchSpec, rules_for

BACKENDS = ("local", "ray")


def open_backend(name: str, workers: int = 1, address: str | None = None) -> Any:
    """A backend by name; `address` is for Ray only (None: start a local Ray)."""
    if name == "local":
        if address is not None:
            raise ValueError("--address is for --backend ray")
        return LocalBackend(workers)
    if name == "ray":
        from .ray_cluster import RayBackend

        return RayBackend(workers, address)
    raise ValueError(f"unknown backend {name!r} (backends: {', '.join(BACKENDS)})")


__all__ = ["BACKENDS", "BackendError", "BatchSpec", "LocalBackend", "Outcome", "agent_seed", "game_seed", "game_seeds",
           "open_backend", "play_game", "play_seeds", "rules_for"]
