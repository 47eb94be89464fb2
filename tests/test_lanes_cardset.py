"""The Lanes card set meets RULES.md L-1.3 and L-1.4, read from the card data itself.

Nothing here names a card: the checks count what cards/lanes/*.cards defines, so the set may
change freely as long as it keeps the required spread of types, costs, keywords and effects.
"""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest

from interpreter import load
from interpreter.lang import ast

# L-7: the fourteen keywords (the names keywords.rules defines)
KEYWORDS = {
    "aerial",
    "aim",
    "aquatic",
    "aura",
    "berserk",
    "catalyst",
    "focus",
    "indestructible",
    "perforation",
    "protection",
    "rage",
    "splash",
    "sprint",
    "demolisher",
}
# the incantation effects the card set must use (procedures of lanes.rules)
EFFECTS = {"spell_damage", "mend_keep", "bestow", "ferry", "recall"}


@pytest.fixture(scope="module")
def rules():
    return load("lanes")


@pytest.fixture(scope="module")
def cards(rules):
    """The drafted card set: every card definition except the keep (a token of the rules)."""
    return {name: d for name, d in rules.card_defs.items() if d.type != "keep" and not d.token}


def keyword_uses(defn) -> list[tuple[str, tuple[str, ...]]]:
    """(keyword, argument names) for each `keyword` line of a card, read from its AST."""
    uses = []
    for use in defn.source.keywords:
        args = tuple(a.id for a in use.args if isinstance(a, ast.Name))
        uses.append((use.name, args))
    return uses


def keywords_of(defn) -> set[str]:
    """The keywords a card shows: aura(k) counts as aura and as k."""
    found = set()
    for name, args in keyword_uses(defn):
        found.add(name)
        if name == "aura":
            found.update(args)
    return found


def walk(node):
    """Every AST node under node (dataclass fields, tuples)."""
    if isinstance(node, ast.Node):
        yield node
        for f in dataclasses.fields(node):
            yield from walk(getattr(node, f.name))
    elif isinstance(node, (tuple, list)):
        for item in node:
            yield from walk(item)


def calls_in(defn) -> set[str]:
    return {n.func for n in walk(defn.source.parts) if isinstance(n, ast.Call)}


def attr(defn, name):
    return defn.attrs.get(name)


def test_the_keyword_list_matches_the_ruleset(rules):
    # guard: this test's list of the L-7 keywords is the one keywords.rules defines
    assert set(rules.keyword_abilities) == KEYWORDS | {"armed"}  # armed: L-1.3's building that attacks


def test_enough_distinct_cards(cards):
    # L-1.4 asks for 32; our set holds more so that a 16-card draft varies from game to game
    assert len(cards) >= 36
    assert len({d.name for d in cards.values()}) == len(cards)


def test_all_card_types_present(cards):
    types = Counter(d.type for d in cards.values())
    for t in ("creature", "building", "incantation"):
        assert types[t] >= 1, f"no {t} in the set: {dict(types)}"
    assert set(types) == {"creature", "building", "incantation"}


def test_costs_within_one_to_seven(cards):
    costs = {name: attr(d, "cost") for name, d in cards.items()}
    assert all(isinstance(c, int) and 1 <= c <= 7 for c in costs.values()), costs
    # spread: every cost from 1 to 7 is used
    assert set(costs.values()) == set(range(1, 8))


def test_creatures_and_buildings_have_health(cards):
    for name, d in cards.items():
        if d.type in ("creature", "building"):
            assert isinstance(attr(d, "health"), int) and attr(d, "health") >= 1, name
        if d.type == "creature":
            assert isinstance(attr(d, "attack"), int) and attr(d, "attack") >= 1, name


def test_buildings_have_keywords_and_some_never_attack(cards):
    buildings = [d for d in cards.values() if d.type == "building"]
    assert len(buildings) >= 2
    assert all(keyword_uses(d) for d in buildings), [d.name for d in buildings if not keyword_uses(d)]
    assert any(not attr(d, "attack") for d in buildings)


def test_every_keyword_on_at_least_two_cards(cards):
    counts = Counter(k for d in cards.values() for k in keywords_of(d))
    missing = {k: counts[k] for k in KEYWORDS if counts[k] < 2}
    assert not missing, f"keywords on fewer than 2 cards: {missing}"
    # and no card uses a keyword outside L-7, but for Armed (L-1.3: a building that attacks)
    assert set(counts) <= KEYWORDS | {"armed"}, set(counts) - KEYWORDS


def test_auras_grant_at_least_three_keywords(cards):
    granted = {args[0] for d in cards.values() for name, args in keyword_uses(d) if name == "aura" and args}
    assert len(granted) >= 3, granted
    assert granted <= KEYWORDS - {"aura"}


def test_incantations_have_an_effect_part(cards):
    for d in cards.values():
        if d.type == "incantation":
            assert "effect" in {p.name for p in d.source.parts}, d.name


def test_incantations_damage_heal_move_and_grant(cards):
    # L-1.4: incantations that damage, heal, move and grant keywords (and return cards to hand)
    used = set()
    for d in cards.values():
        if d.type == "incantation":
            used |= calls_in(d)
    assert EFFECTS <= used, EFFECTS - used


def test_some_incantations_target_only_one_side(cards):
    # a choice among cards filtered by controller (`c.controller == you` or `!= you`)
    ops = set()
    for d in cards.values():
        if d.type != "incantation":
            continue
        for n in walk(d.source.parts):
            if isinstance(n, ast.Choose) and isinstance(n.source, ast.Select) and n.source.where is not None:
                for b in walk(n.source.where):
                    if (
                        isinstance(b, ast.BinOp)
                        and isinstance(b.left, ast.Attribute)
                        and b.left.name == "controller"
                        and isinstance(b.right, ast.Name)
                        and b.right.id == "you"
                    ):
                        ops.add(b.op)
    assert {"==", "!="} <= ops, ops
