"""Presentation: a game's observation as a player reads it, for the terminal and the browser table.

Pure functions over an observation dict (`game.observation(seat)`) and the `Rules`; nothing here
sees the game itself, so nothing hidden can leak through it:

    from interpreter.presentation import distinct_moves, card_display, state_summary
    obs = game.observation(seat)
    for number, move in enumerate(distinct_moves(obs, rules), start=1):
        print(number, move.label)          # submit game.apply(move.option)
    summary = state_summary(obs, rules)    # zones as rows or piles, hidden ones as counts

`distinct_moves` offers each move once (an unordered pick, identical copies), `card_display` the
attributes a player needs of a card (the ruleset's `display:` per card type, or a default that
leaves deck-building attributes and values at rest out), `decision_title` the prompt with the
card that asks it, `pick_of` an unordered pick of cards as cards to toggle and a confirmation, `changes` what differs between two summaries, `event_text` an event's line.
"""

from __future__ import annotations

from .cards import (
    ability_of,
    ability_text,
    card_display,
    card_places,
    card_text,
    fill_label,
    printed_text,
    value_text,
)
from .moves import Move, decision_source, decision_title, distinct_moves
from .picks import Pick, PickCard, pick_of
from .summary import attribute_text, changes, event_text, grouped, state_summary, zone_summaries

__all__ = [
    "ability_of",
    "ability_text",
    "Move",
    "Pick",
    "PickCard",
    "attribute_text",
    "card_display",
    "card_places",
    "card_text",
    "changes",
    "decision_source",
    "decision_title",
    "distinct_moves",
    "event_text",
    "fill_label",
    "printed_text",
    "grouped",
    "pick_of",
    "state_summary",
    "value_text",
    "zone_summaries",
]
