"""The load checks of silence and of removable effects: what `silence CARDS`, `remove effects of
SOURCE from CARDS` and a duration `until X leaves` are given must be cards.

Where the code says what an expression is (kinds.py), anything else is refused at it: a player
(`silence p`: a player has no printed abilities to lose), a number, a text, a list of players.
What the code does not say is checked when the game runs (a rule error). `remove effects`
names a source, the cards, or both: with neither it would end every effect of the game, which
no rule means (`remove effects of x from y`).
"""

from __future__ import annotations

from typing import Any

from ..errors import Span
from . import ast
from .kinds import KIND_WORDS, Kinds

Problem = tuple[str, Span, str]

_PLURALS = {"int": "numbers", "bool": "true or false values", "text": "texts", "list": "lists", "player": "players",
            "card": "cards", "ability": "abilities", "team": "teams", "none": "nones"}


def card_problems(e: ast.Expr | None, kinds: Kinds, scope: set[str], head: str, hint: str,
                  also: tuple[str, ...] = (), one: bool = False) -> list[Problem]:
    """(message, where, hint) of each part of `e` that surely is no card (nor of the kinds `also`):
    `e` itself, the items of a list written out, or the items of a list the code says the kind
    of. `one`: a single card is wanted, not a list."""
    if e is None:
        return []
    allowed = ("card", "none", *also)
    if isinstance(e, ast.ListLit) and not one:
        found = []
        for item in e.items:
            kind = kinds.of(item, scope)
            if kind is not None and kind not in allowed:
                found.append((f"{head}: this item is {KIND_WORDS[kind]}, not a card", item.span, hint))
        return found
    kind = kinds.of(e, scope)
    if kind == "list" and not one:
        items = kinds.items(e, scope)
        if items is not None and items not in allowed:
            return [(f"{head}: this is a list of {_PLURALS[items]}, not of cards", e.span, hint)]
    elif kind is not None and kind not in allowed:
        return [(f"{head}: this is {KIND_WORDS[kind]}, not a card", e.span, hint)]
    return []


SILENCE_HINT = ("silence takes a card or a list of cards (c, self, cards of zone(p)); a player has no printed "
                "abilities to lose: change the player's attributes, or silence the cards that stand for them")
LEAVES_HINT = "write the name of a card: `until self leaves` (while this card stays in its zone), `until c leaves`"
SOURCE_HINT = "the source is the card whose code gave the effects (self in its abilities): a card or a list of cards"
TARGET_HINT = "write the cards (or players) the effects are on: `remove effects from c`"


def silence_problems(s: ast.Silence, kinds: Kinds, scope: set[str]) -> list[Problem]:
    """What is surely wrong in `silence CARDS`."""
    return card_problems(s.card, kinds, scope, "'silence' takes away what cards print", SILENCE_HINT)


def leaves_problems(leaves: ast.Expr | None, kinds: Kinds | None, scope: set[str]) -> list[Problem]:
    """What is surely wrong in a duration `until X leaves`: X is no card."""
    if leaves is None or kinds is None:
        return []
    return card_problems(leaves, kinds, scope, "'until ... leaves' follows one card", LEAVES_HINT, one=True)


def remove_effects_problems(s: ast.RemoveEffects, kinds: Kinds | None, scope: set[str]) -> list[Problem]:
    """What is surely wrong in `remove effects [of SOURCE] [from CARDS]`."""
    if s.source is None and s.target is None:
        return [("'remove effects' says whose effects end (of SOURCE), on what (from CARDS), or both", s.span,
                 "write `remove effects of self from c`, `remove effects from c` or `remove effects of self`")]
    if kinds is None:
        return []
    return [*card_problems(s.source, kinds, scope, "'remove effects of' names the card that gave them", SOURCE_HINT),
            *card_problems(s.target, kinds, scope, "'remove effects from' names what they are on", TARGET_HINT,
                           also=("player",))]


def check_duration(checker: Any, s: ast.ModifyUntil | ast.GrantUntil, scope: set[str]) -> None:
    """The checker's part for the duration of `modify`/`grant`: `until EVENT` (a known event),
    `until X leaves` (X a card) or `until removed`. `checker`: lang/checker.py's `Checker`."""
    if s.until:
        from .checker import BUILTIN_EVENTS  # (checker.py imports this module)

        known = s.until in checker.ctx.events or s.until in BUILTIN_EVENTS
        if not known and (s.until in scope or s.until == "self"):
            # (a name that holds a card, not an event: `until self leave`, `until c`)
            checker.error(f"'until {s.until}': {s.until!r} is a name, not an event", s.span,
                          f"to end it when the card {s.until} holds leaves its zone, write `until {s.until} leaves`")
            return
        checker.until(s.until, s.span)
    elif s.leaves is not None:
        checker.expr(s.leaves, scope)
        for message, span, hint in leaves_problems(s.leaves, checker.ctx.kinds, scope):
            checker.error(message, span, hint)


def check_effects_statement(checker: Any, s: ast.Silence | ast.RemoveEffects, scope: set[str]) -> None:
    """The checker's part for `silence CARDS [until EVENT]` and `remove effects [of SOURCE] [from CARDS]`."""
    kinds = checker.ctx.kinds
    if isinstance(s, ast.Silence):
        checker.expr(s.card, scope)
        if s.until is not None:
            checker.until(s.until, s.span)
        found = silence_problems(s, kinds, scope) if kinds is not None else []
    else:
        checker.expr(s.source, scope)
        checker.expr(s.target, scope)
        found = remove_effects_problems(s, kinds, scope)
    for message, span, hint in found:
        checker.error(message, span, hint)
