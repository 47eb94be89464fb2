"""The Python API: load a ruleset (a shipped game's name or a path) with options; reload games."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .engine.game import Game
from .engine.rules import Rules
from .engine.serialize import game_from_json
from .rules.loader import load_ruleset


def load(name_or_path: str | Path, options: dict[str, Any] | None = None) -> Rules:
    """Load, check and compile a ruleset. Raises CardrulesError with a located message."""
    return Rules(load_ruleset(name_or_path, options))


def load_game_json(data: dict, rules: Rules | None = None) -> Game:
    """A game saved with `game.to_json()`, ready to continue."""
    if rules is None:
        rules = load(data.get("ruleset_file") or data["ruleset"], data.get("options"))
    return Game(game_from_json(data, rules))
