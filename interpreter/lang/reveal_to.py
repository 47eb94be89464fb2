"""The load check of `reveal CARDS to PLAYERS`: PLAYERS must be a player or a list of players.

Where the code says what the expression is (kinds.py), anything else is refused at it: a zone (a
list of cards), a number, a text; in a list written out, each item that is not a player. What the
code does not say is checked when the game runs (`Game.reveal`: a rule error).
"""

from __future__ import annotations

from ..errors import Span
from . import ast
from .kinds import KIND_WORDS, Kinds

# the kinds of kinds.py in the plural, for a list's items
_PLURALS = {"int": "numbers", "bool": "true or false values", "text": "texts", "list": "lists", "player": "players",
            "card": "cards", "ability": "abilities", "none": "nones"}
HINT = "write a player (p, you, game.active) or a list of players (players, others(p), [p, q])"
HEAD = "'reveal ... to' shows cards to players"


def reveal_target_problems(e: ast.Expr, kinds: Kinds, scope: set[str]) -> list[tuple[str, Span, str]]:
    """(message, where, hint) of each part of `e` that surely is no player."""
    if isinstance(e, ast.ListLit):
        found = []
        for item in e.items:
            kind = kinds.of(item, scope)
            if kind is not None and kind != "player":
                found.append((f"{HEAD}: this item is {KIND_WORDS[kind]}, not a player", item.span, HINT))
        return found
    kind = kinds.of(e, scope)
    if kind == "list":
        items = kinds.items(e, scope)
        if items is not None and items != "player":
            return [(f"{HEAD}: this is a list of {_PLURALS[items]}, not of players", e.span, HINT)]
    elif kind is not None and kind != "player":
        return [(f"{HEAD}: this is {KIND_WORDS[kind]}, not a player", e.span, HINT)]
    return []
