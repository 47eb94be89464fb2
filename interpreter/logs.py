"""Game logs as JSON Lines (DESIGN.md "Logs and replays"): a header with everything the game was
started with (ruleset, options, seed, players, every deck part), then one line per event and per
decision. Written by `play --log` and `simulate --log-dir`; read back by `replay`."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from . import __version__
from .engine.serialize import log_entry


def deck_entry(deck) -> dict:
    """A deck as the log keeps it: its name and, for its cards and each other part (a section,
    such as the cards that start in another zone), the counts in the order they were dealt."""
    return {"name": deck.name, "cards": deck.counts(),
            **{section: dict(Counter(cards)) for section, cards in deck.sections}}


def header(game, players: list[str]) -> dict:
    rules = game.rules
    return {
        "type": "header",
        "ruleset": rules.name,
        "ruleset_file": str(Path(rules.ruleset.file).resolve()),
        "options": dict(rules.options),
        "version": __version__,
        "seed": game.seed,
        "players": list(players),
        "decks": [deck_entry(deck) for deck in game.decks],
    }


def log_lines(game, players: list[str]) -> list[str]:
    """The whole log of a game (played with logging on), one JSON text per line."""
    lines = [json.dumps(header(game, players), ensure_ascii=False)]
    lines.extend(json.dumps(log_entry(game, entry), ensure_ascii=False) for entry in game.log_entries)
    return lines


def write_log(path: str | Path, game, players: list[str]) -> None:
    with open(path, "w", encoding="utf-8") as f:
        for line in log_lines(game, players):
            f.write(line + "\n")
