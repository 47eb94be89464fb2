"""The Bases card set and decks meet RULES.md B-1 and the issue's needs, read from the card data."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import load
from interpreter.errors import DeckError
from interpreter.lang import ast

RULES = load("bases")
CARDS = {n: d for n, d in RULES.card_defs.items() if not d.token}
DECKS = Path(RULES.ruleset.file).parent / "decks"


def calls(defn) -> set[str]:
    return {n.func for n in ast.walk(defn.source) if isinstance(n, ast.Call)}


def colours(defn) -> list[str]:
    value = defn.initial.get("colours") or defn.initial.get("colour") or []
    return value if isinstance(value, list) else [value]


def test_forty_cards_in_four_colours_with_multicolour_ones():
    playable = {n: d for n, d in CARDS.items() if d.type != "base"}
    assert len(playable) >= 40
    palette = {c for d in playable.values() for c in colours(d)}
    assert len(palette) >= 4
    assert sum(1 for d in playable.values() if len(colours(d)) >= 2) >= 3


def test_card_kinds_the_rules_ask_for():
    allies = [d for d in CARDS.values() if d.type == "ally"]
    assert sum(1 for d in allies if d.activated) >= 4  # allies with activated abilities
    maneuvers = [d for d in CARDS.values() if d.type == "maneuver"]
    used = set().union(*(calls(d) for d in maneuvers))
    assert {"cancel", "deal", "untap", "boost", "draw_cards"} <= used
    permanents = [d for d in CARDS.values() if d.type == "permanent"]
    assert sum(1 for d in permanents if d.static_abilities) >= 2


def test_bases_for_each_colour():
    bases = [d for d in CARDS.values() if d.type == "base"]
    for colour in {c for d in CARDS.values() if d.type != "base" for c in colours(d)}:
        roles = [d.initial["role"] for d in bases if d.initial["colour"] == colour]
        assert "centre" in roles and roles.count("surrounding") >= 2, colour


@pytest.mark.parametrize("format_name", ["conflict", "skirmish"])
def test_at_least_two_legal_decks_per_format(format_name):
    rules = load("bases", options={"format": format_name})
    files = sorted(DECKS.glob(f"{format_name}-*.yaml"))
    assert len(files) >= 2
    for file in files:
        deck = rules.deck(file)
        assert len(deck.cards) >= (40 if format_name == "conflict" else 30)


def test_a_deck_missing_a_colour_of_a_multicolour_card_is_refused():
    multi = next(n for n, d in CARDS.items() if d.type != "base" and len(colours(d)) == 2)
    first, second = colours(CARDS[multi])
    bases = [n for n, d in CARDS.items() if d.type == "base" and d.initial["colour"] == first]
    centre = next(n for n in bases if CARDS[n].initial["role"] == "centre")
    walls = [n for n in bases if CARDS[n].initial["role"] == "surrounding"]
    mono = [n for n, d in CARDS.items() if d.type != "base" and colours(d) == [first]]
    cards = {n: 3 for n in mono[:13]}
    cards[multi] = 1
    deck = {"name": "missing", "cards": cards, "bases": {centre: 1, **{w: 1 for w in walls[:2]}}}
    skirmish = load("bases", options={"format": "skirmish"})
    with pytest.raises(DeckError) as info:
        skirmish.deck(deck)
    assert repr(multi) in str(info.value) and second in str(info.value)


def test_a_deck_of_the_other_format_is_refused_with_a_hint():
    with pytest.raises(DeckError, match="is a skirmish deck, but the rules are loaded with format = conflict"):
        RULES.deck(sorted(DECKS.glob("skirmish-*.yaml"))[0])
