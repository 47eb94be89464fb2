"""A card's row of stored values (`GameState.attrs[card_id]`) as a dict and back: for saved games,
tools and tests, which name what a row holds (lang/values.py: the engine's properties at fixed
slots, `PROPERTY_KEYS`, then the card type's attributes at `Rules.attr_slots`)."""

from __future__ import annotations

from typing import Any

from ..lang.values import (
    ABSENT,
    ATTACHED,
    CONTROLLER,
    DEALT,
    KNOWN,
    LEAVING,
    OWNER,
    PART,
    PROPERTY_DEFAULTS,
    PROPERTY_KEYS,
    SHOWN,
    SILENCED,
    STAMP,
    UNLESS_SET,
)

# the order a row's properties are named in, after its attributes (the order saved games had)
_NAMED_ORDER = (PART, ATTACHED, CONTROLLER, OWNER, STAMP, DEALT, KNOWN, SHOWN, SILENCED, LEAVING)
if sorted(_NAMED_ORDER) != list(range(len(PROPERTY_KEYS))):
    raise AssertionError("engine/rows.py: name every property of lang/values.py's PROPERTY_KEYS once")
_SLOT_OF_KEY = {key: slot for slot, key in enumerate(PROPERTY_KEYS)}


def row_dict(defn: Any, row: list) -> dict[str, Any]:
    """The row of a card of definition `defn` by name: its attributes (in their declared order),
    then its properties by their `$` keys, those set only now and then only where set."""
    out = {name: row[slot] for name, slot in defn.slots}
    for slot in _NAMED_ORDER:
        value = row[slot]
        if slot not in UNLESS_SET or value != PROPERTY_DEFAULTS[slot]:
            out[PROPERTY_KEYS[slot]] = value
    return out


def row_from_dict(defn: Any, slots: dict[str, int], values: dict[str, Any]) -> list:
    """A card's row from `row_dict`'s form (a saved game's): a property it lacks has its default,
    an attribute its definition's initial value; a name that is neither raises KeyError."""
    row = list(defn.new_row)
    for name, value in values.items():
        slot = _SLOT_OF_KEY.get(name)
        if slot is None:
            slot = slots[name]
            if row[slot] is ABSENT:
                raise KeyError(name)
        row[slot] = value
    return row
