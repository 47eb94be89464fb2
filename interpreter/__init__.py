"""cardrules: card games whose rules are data.

    from interpreter import load
    rules = load("initiative")
    game = rules.new_game(seed=7)
    while not game.is_over:
        player, options = game.decision()
        game.apply(options[0])
"""

from __future__ import annotations

from .api import load, load_game_json
from .errors import CardrulesError, IllegalDecisionError

__all__ = ["load", "load_game_json", "CardrulesError", "IllegalDecisionError"]
__version__ = "0.1.0"
