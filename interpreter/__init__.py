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
    from .engine.attributes import GAME
    from .engine.playout import by_count

__all__ = ["load", "load_game_json", "GAME", "by_count", "CardrulesError", "GameStateError", "IllegalDecisionError"]
__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    """`load`, `load_game_json`, `GAME` (the game itself, as `game.read(GAME, "turn")` takes it:
    the rules' globals) and `by_count` (a deciding function that reads only how many options
    there are: `ByCount`) are imported on first use: a command that needs no engine (a `validate`
    replayed from the cache, `fmt`, `schema`) starts without importing it."""
    if name in ("load", "load_game_json"):
        from . import api

        return getattr(api, name)
    if name == "GAME":
        from .engine.attributes import GAME

        return GAME
    if name == "by_count":
        from .engine.playout import by_count

        return by_count
    raise AttributeError(f"module 'interpreter' has no attribute {name!r}")
