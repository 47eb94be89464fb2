"""Checks shared by the server tests: what a page of `cardrules serve` may show a seat, judged
against the true game (`game.visible`), not against the observation the page was drawn from."""

from __future__ import annotations

import re
from collections.abc import Iterable


def card_ids_in_state(state: dict) -> set[int]:
    """The ids of the face-up cards a state sends to the page (zones, piles' revealed cards, moves)."""
    ids: set[int] = set()
    for zone in state.get("zones") or []:
        for part in zone["rows"]:
            ids |= {c["id"] for c in part["cards"]}
    for move in (state.get("decision") or {}).get("moves") or []:
        ids |= set(move["cards"]) | set(move["copies"])
    return ids


def unseen_ids(ids: Iterable[int], game, seat: int) -> set[int]:
    """Of these card ids, those of cards that `seat` may not see now."""
    return {i for i in ids if i in game.state.cards and not game.visible(game.state.cards[i], seat)}


def names_only_hidden(game, seat: int) -> set[str]:
    """Names of cards hidden from `seat` of which no copy is visible to it."""
    visible = {c.defn.name for c in game.state.cards.values() if game.visible(c, seat)}
    return {c.defn.name for c in game.state.cards.values() if not game.visible(c, seat)} - visible


def leaked_names(text: str, game, seat: int) -> set[str]:
    """The names of cards hidden from `seat` (and not visible elsewhere) that appear in `text`."""
    return {name for name in names_only_hidden(game, seat) if re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text)}


def hidden_counts(game, seat: int) -> dict[tuple[str, str], int]:
    """(owner, zone label) -> the number of cards in each zone `seat` sees only as a count."""
    out = {}
    for (name, owner, row), cards in game.state.zones.items():
        spec = game.rules.zones[name]
        if spec.visibility == "public" or (spec.visibility == "owner" and owner == seat):
            continue
        out[(f"P{owner}" if owner else "shared", name + (f".{row}" if row else ""))] = len(cards)
    return out
