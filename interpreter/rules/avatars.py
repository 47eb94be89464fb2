"""The ruleset's `avatars:`: a card that stands for each player.

    avatars: {type: champion, zone: seat}

Each player gets a card of the card type, made with the decks (before the set-up runs, and in a
scenario's arranged position too) in the player's own zone: seat 1 the first card of the type in
the card set's order, seat 2 the second, and so on, round again when there are fewer cards than
players. The card is an ordinary card owned by its player: targets, keywords, modifiers and
attributes treat it as any other, so rule code need not branch on `x is player`.

The declaration gives the rule code two functions, written in the language itself (so they
check, compile, explain and show in the editor as any function does; defining either again is
the usual "defined twice" error, at both places):

    function avatar(p) = first(ZONE(p))                              # none once it has left
    function player_of(x) = if x is player then x else x.owner       # a player, or a card's owner

A zone that is not declared, shared or made of rows, a card type that is not declared (with
did-you-mean) or that has no card: located load errors at the declaration.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import RulesError, Span, ValidationError, did_you_mean
from ..lang import ast
from .sources import parse_text_at

# the functions the declaration defines, for zone ZONE
FUNCTIONS = ("function avatar(p) = first({zone}(p))\n"
             "function player_of(x) = if x is player then x else x.owner\n")


@dataclass(frozen=True)
class Avatars:
    """`avatars:`: the card type of the avatars and the per-player zone they are made in."""

    type: str
    zone: str
    span: Span


def read_avatars(loader, raw: Any, zones: dict, card_types: dict) -> tuple[Avatars | None, list[ast.Module]]:
    """The declaration, checked against the zones and card types, and the module of the
    functions it defines (placed at the declaration); problems go to `loader.errors`."""
    if raw is None:
        return None, []
    errors = len(loader.errors)
    zone, tname = str(raw["zone"]), str(raw["type"])
    spec = zones.get(zone)
    if spec is None:
        loader.errors.append(RulesError(
            f"avatars: zone {zone!r} is not declared{did_you_mean(zone, zones)}", loader.span("avatars", "zone"),
            hint="zones: " + (", ".join(zones) or "none")))
    elif not spec.per_player or spec.rows:
        loader.errors.append(RulesError(
            f"avatars: zone {zone!r} is {'shared' if not spec.per_player else 'made of rows'}; each player's "
            "avatar is made in a zone of that player's own", loader.span("avatars", "zone"),
            hint="declare a zone `per: player` without rows for the avatars"))
    if tname not in card_types:
        loader.errors.append(RulesError(
            f"avatars: card type {tname!r} is not declared{did_you_mean(tname, card_types)}",
            loader.span("avatars", "type"), hint="card types: " + (", ".join(card_types) or "none")))
    if len(loader.errors) > errors:
        return None, []
    src = loader.located.source("avatars")
    line, column, _block = src.code_origin("avatars")
    module = loader.guarded(parse_text_at, FUNCTIONS.format(zone=zone), src.file, line, column)
    return Avatars(tname, zone, loader.span("avatars")), [module] if module is not None else []


def avatar_problems(ruleset, defs) -> list[ValidationError]:
    """The declared card type has at least one card (the checker calls this once the cards,
    templates' included, are known)."""
    avatars = ruleset.avatars
    if avatars is None or avatar_cards(ruleset, defs.cards):
        return []
    return [ValidationError(f"avatars: no card is of card type {avatars.type!r}, so no player gets an avatar",
                            avatars.span, hint=f"write a card : {avatars.type} {{ ... }} for each seat")]


def avatar_cards(ruleset, cards: dict) -> list[str]:
    """The names of the avatar cards in the card set's order (`cards`: name -> a definition with
    `.type`): the types that extend the declared one count too."""
    avatars = ruleset.avatars
    return [name for name, c in cards.items()
            if avatars.type in (ruleset.card_types[c.type].lineage or (c.type,) if c.type in ruleset.card_types else ())]
