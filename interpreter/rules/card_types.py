"""The ruleset's `card_types:`, read with their subtypes (`extends:`).

    card_types:
      piece:       {attributes: {attack: {type: int}, health: {type: int}}, label: "{name} {attack}/{health}"}
      token_piece: {extends: piece, token: true}

A card type that extends another has the other's attributes (its own added; one it declares again
keeps the attribute's type and may change the rest, a default for example), its `label:` and
`display:` unless it gives its own, and its `token:` unless it says; `c is piece` holds for a card
of any type that extends piece, at any depth (`CardType.lineage`). A parent that is not declared,
a type that extends itself (directly or through others) and an attribute declared again with another
type are located load errors (an unknown parent with a did-you-mean).
"""

from __future__ import annotations

from typing import Any

from ..errors import RulesError, did_you_mean
from .checker import display_problems
from .model import AttrSpec, CardType


def _lineages(loader, raw_types: dict[str, Any]) -> dict[str, tuple[str, ...]]:
    """Each card type's lineage (itself, its parent, the parent's parent...); a type whose
    `extends:` names nothing or goes round in a cycle is reported and taken as extending nothing."""
    parents: dict[str, str | None] = {}
    for tname, raw in raw_types.items():
        parent = (raw or {}).get("extends")
        if parent is not None and parent not in raw_types:
            others = [n for n in raw_types if n != tname]
            loader.errors.append(RulesError(
                f"card type {tname!r} extends {parent!r}, which is not a card type{did_you_mean(str(parent), others)}",
                loader.span("card_types", tname, "extends"), hint="card types: " + (", ".join(others) or "none")))
            parent = None
        parents[tname] = parent
    lineages: dict[str, tuple[str, ...]] = {}
    for tname in raw_types:
        chain = [tname]
        parent = parents[tname]
        while parent is not None and parent not in chain:
            chain.append(parent)
            parent = parents[parent]
        if parent is not None:  # back at a type of the chain: a cycle
            if parent == tname:
                route = " -> ".join([*chain, tname])
                loader.errors.append(RulesError(
                    f"card type {tname!r} extends itself ({route})" if len(chain) > 1 else
                    f"card type {tname!r} extends itself", loader.span("card_types", tname, "extends"),
                    hint="a card type extends another, which may extend a third, but never back to the first"))
            chain = [tname]  # (reported at each type of the cycle; taken as extending nothing)
        lineages[tname] = tuple(chain)
    return lineages


def read_card_types(loader, raw_types: dict[str, Any], zones: dict) -> dict[str, CardType]:
    """The card types of a ruleset, parents' attributes, labels, displays and token flags
    followed; problems go to `loader.errors`, at their YAML entries."""
    lineages = _lineages(loader, raw_types)
    own: dict[str, dict[str, AttrSpec]] = {}
    for tname, raw in raw_types.items():
        own[tname] = {n: loader.attr_spec(n, r, "card_types", tname, "attributes", n)
                      for n, r in ((raw or {}).get("attributes") or {}).items()}
        for n, spec in own[tname].items():  # `shown_in:`, checked: names of declared zones
            for i, zone in enumerate(spec.shown_in or ()):
                if zone not in zones:
                    loader.errors.append(RulesError(
                        f"card type {tname!r}: attribute {n!r} is shown_in zone {zone!r}, which is not "
                        f"declared{did_you_mean(zone, zones)}",
                        loader.span("card_types", tname, "attributes", n, "shown_in", i),
                        hint="zones: " + ", ".join(zones)))
    card_types: dict[str, CardType] = {}
    for tname, raw in raw_types.items():
        raw = raw or {}
        lineage = lineages[tname]
        attrs: dict[str, AttrSpec] = {}
        for ancestor in reversed(lineage):  # (the furthest first: a nearer declaration wins)
            for n, spec in own[ancestor].items():
                earlier = attrs.get(n)
                if earlier is not None and earlier.type != spec.type and ancestor == tname:
                    loader.errors.append(RulesError(
                        f"card type {tname!r}: attribute {n!r} is {spec.type}, but {tname!r} extends "
                        f"{lineage[1]!r}, where it is {earlier.type}",
                        loader.span("card_types", tname, "attributes", n, "type"),
                        hint=f"declare it with type: {earlier.type}, or give it another name"))
                    continue
                attrs[n] = spec
        shown = _inherited(raw_types, lineage, "display")
        if "display" in raw:
            for i, problem in display_problems(shown or [], tname, attrs):
                loader.errors.append(RulesError(problem, loader.span("card_types", tname, "display", i)))
        label = _inherited(raw_types, lineage, "label")
        if "label" in raw:
            label = loader.label(tname, label, attrs)
        elif label is not None:
            label = str(label)
        card_types[tname] = CardType(tname, attrs, bool(_inherited(raw_types, lineage, "token") or False), label,
                                     loader.span("card_types", tname),
                                     tuple(shown) if shown is not None else None,
                                     extends=lineage[1] if len(lineage) > 1 else None, lineage=lineage)
    return card_types


def _inherited(raw_types: dict[str, Any], lineage: tuple[str, ...], key: str) -> Any:
    """A card type's `key`: its own, else the nearest ancestor's; None if none gives it."""
    for tname in lineage:
        raw = raw_types.get(tname) or {}
        if key in raw:
            return raw[key]
    return None


def subtypes(card_types: dict[str, CardType]) -> dict[str, frozenset[str]]:
    """Each card type with the types that extend it, at any depth (itself included): the types of
    the cards `c is TYPE` holds for."""
    found: dict[str, set[str]] = {name: set() for name in card_types}
    for name, ctype in card_types.items():
        for ancestor in ctype.lineage or (name,):
            found.setdefault(ancestor, set()).add(name)
    return {name: frozenset(types) for name, types in found.items()}
