"""cardrules: card games whose rules are data.

    from interpreter import load
    rules = load("initiative")
    game = rules.new_game(seed=7)
    while not game.is_over:
        player, options = game.decision()
        game.apply(options[0])
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import CardrulesError, GameStateError, IllegalDecisionError

if TYPE_CHECKING:
    from .api import load, load_game_json

__all__ = ["load", "load_game_json", "CardrulesError", "GameStateError", "IllegalDecisionError"]
__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    """`load` and `load_game_json` are imported on first use: a command that needs no engine (a
    `validate` replayed from the cache, `fmt`, `schema`) starts without importing it."""
    if name in ("load", "load_game_json"):
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module 'interpreter' has no attribute {name!r}")
