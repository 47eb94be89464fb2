"""Game logs as JSON Lines (DESIGN.md "Logs and replays"): a header with everything the game was
started with (ruleset, options, seed, its cap of decisions, players, every deck part), then one
line per event and per decision; the `end` line of the result, or, for a game that did not end, a
`stopped` line. Written by `play --log` and `simulate --log-dir`; read back by `replay`."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from . import __version__


def deck_entry(deck) -> dict:
    """A deck as the log keeps it: its name and, for its cards and each other part (a section,
    such as the cards that start in another zone), the counts in the order they were dealt."""
    return {"name": deck.name, "cards": deck.counts(),
            **{section: dict(Counter(cards)) for section, cards in deck.sections}}


def header(game, players: list[str]) -> dict:
    rules, setup = game.rules, game.setup
    return {
        "type": "header",
        "ruleset": rules.name,
        "ruleset_file": str(Path(rules.ruleset.file).resolve()),
        "options": dict(rules.options),
        "version": __version__,
        "seed": setup.seed,
        "max_decisions": setup.max_decisions,  # (replay stops the game at the same cap)
        "players": list(players),
        "decks": [deck_entry(deck) for deck in setup.decks],
    }


STOPPED_BEFORE_THE_END = "the game was not over when its log was written"


def log_lines(game, players: list[str], stopped: str | None = None) -> list[str]:
    """The whole log of a game (played with logging on), one JSON text per line. A game that is
    not over ends with a `{"type": "stopped", "reason": ...}` line (`stopped`, or a generic
    reason), so that `replay` can tell the log of a game stopped early from a log cut short."""
    lines = [json.dumps(header(game, players), ensure_ascii=False)]
    lines.extend(json.dumps(entry, ensure_ascii=False) for entry in game.log)
    if not game.is_over:
        lines.append(json.dumps({"type": "stopped", "reason": stopped or STOPPED_BEFORE_THE_END}, ensure_ascii=False))
    return lines


def write_log(path: str | Path, game, players: list[str], stopped: str | None = None) -> None:
    with open(path, "w", encoding="utf-8") as f:
        for line in log_lines(game, players, stopped):
            f.write(line + "\n")
