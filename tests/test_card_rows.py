"""A card's stored values are a row: the engine's properties at fixed slots, then the attributes of
every card type at the slots `Rules.attr_slots` gives, `ABSENT` where the card's type has none
(issue 31, step 4: state as plain data). Saved games keep naming them."""

from __future__ import annotations

import json

import pytest
from playout import random_position

from interpreter import load, load_game_json
from interpreter.engine.rows import row_dict, row_from_dict
from interpreter.errors import CardrulesError
from interpreter.lang.values import ABSENT, CONTROLLER, OWNER, PROPERTY_KEYS, STAMP

RULES = load("bases")


def _mid_game(seed: int = 3, decisions: int = 30):
    return random_position(RULES, seed, decisions, log=False)


def test_a_cards_row_holds_its_properties_then_its_types_attributes_at_their_slots():
    game = _mid_game()
    state, slots = game.state, RULES.attr_slots
    assert min(slots.values()) == len(PROPERTY_KEYS)
    assert sorted(slots.values()) == list(range(len(PROPERTY_KEYS), len(PROPERTY_KEYS) + len(slots)))
    assert len(state.attrs) == state.next_id and state.attrs[0] == []
    for card in state.cards.values():
        row = state.attrs[card.id]
        assert len(row) == len(PROPERTY_KEYS) + len(slots)
        declared = RULES.ruleset.card_types[card.defn.type].attributes
        for name, slot in slots.items():
            if name in declared and declared[name].params is None:
                assert row[slot] is not ABSENT and row[slot] == game.read(card, name) or name in RULES.statically_modified
            else:
                assert row[slot] is ABSENT, (card, name)
        assert row[OWNER] is row[CONTROLLER] or row[CONTROLLER] is not None
        assert row[STAMP] > 0


def test_a_row_by_name_and_back_is_the_same_row():
    game = _mid_game()
    state = game.state
    for card in state.cards.values():
        row = state.attrs[card.id]
        named = row_dict(card.defn, row)
        assert all(not k.startswith("$") for k in list(named)[:len(card.defn.slots)])
        assert row_from_dict(card.defn, RULES.attr_slots, named) == row
    some = next(iter(state.cards.values()))
    with pytest.raises(KeyError):
        row_from_dict(some.defn, RULES.attr_slots, {"no such attribute": 1})


def test_a_saved_game_names_each_cards_values_and_loads_the_same_rows():
    game = _mid_game()
    data = json.loads(json.dumps(game.to_json()))
    first_id, first = data["attrs"][0]
    names = [k for k, _v in first["map"]]
    assert "$owner" in names and "$ts" in names and not any(type(k) is int for k in names)
    loaded = load_game_json(data, RULES)
    assert [repr(row) for row in loaded.state.attrs] == [repr(row) for row in game.state.attrs]
    assert loaded.to_json() == data


def test_a_saved_card_with_an_attribute_its_type_lacks_is_a_clear_error():
    data = json.loads(json.dumps(_mid_game().to_json()))
    data["attrs"][0][1]["map"].append(["no_such_attribute", 1])
    with pytest.raises(CardrulesError, match=r"card \d+ has no attribute 'no_such_attribute'"):
        load_game_json(data, RULES)


def test_a_copy_shares_each_row_until_one_of_the_two_games_writes_it():
    state = _mid_game().state
    copy = state.clone()
    card = next(iter(state.cards.values()))
    stamp = state.attrs[card.id][STAMP]
    assert copy.attrs is not state.attrs and copy.attrs[card.id] is state.attrs[card.id]
    assert not state.attrs_owned[card.id] and not copy.attrs_owned[card.id]
    copy.own_row(card.id)[STAMP] = -1
    assert state.attrs[card.id][STAMP] == stamp and copy.attrs[card.id] is not state.attrs[card.id]
    state.own_row(card.id)[STAMP] = -2
    assert copy.attrs[card.id][STAMP] == -1 and state.attrs[card.id][STAMP] == -2
    assert copy.own_row(card.id) is copy.attrs[card.id]  # (owned now: written in place)
