"""Adapters for the tools researchers use: every ruleset as a PettingZoo AEC environment (extra
`pettingzoo`) and an OpenSpiel game (extra `openspiel`), built on a fixed action space
(`actions.py`) and a fixed observation encoding (`encoding.py`) derived from the ruleset at load.
Both are generic: a new ruleset needs no Python (docs/envs.md)."""

from __future__ import annotations

from typing import Any

from .actions import ActionCatalogue, ActionSpaceError, DecisionActions
from .encoding import ObservationEncoding


def pettingzoo_env(ruleset: str, options: dict | None = None, seed: int | None = None, **kwargs: Any):
    """The ruleset as a PettingZoo AEC environment (see `pettingzoo_aec.CardrulesAECEnv`)."""
    from .pettingzoo_aec import make_env

    return make_env(ruleset, options=options, seed=seed, **kwargs)


def register_openspiel(ruleset: str, options: dict | None = None, **kwargs: Any):
    """Register the ruleset as an OpenSpiel python game; returns `pyspiel.load_game(...)` of it."""
    from .openspiel_game import register

    return register(ruleset, options=options, **kwargs)


__all__ = ["ActionCatalogue", "ActionSpaceError", "DecisionActions", "ObservationEncoding", "pettingzoo_env",
           "register_openspiel"]
