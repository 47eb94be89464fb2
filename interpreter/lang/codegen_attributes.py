"""The code generator's reads of attributes and properties (`OBJ.NAME` lowered: `ir.GetAttr`): a
player's attribute from the player's dict, a card's place, name, type and stored properties in
place, an attribute no effect changes read where it is stored, anything else by `g.read`. A
part of `CodeGenerator` (codegen.py)."""

from __future__ import annotations

from . import ir
from .codegen_scope import Scope, literal
from .codegen_tables import _PLACE_PROPERTIES, _STORED_PROPERTIES, _player_attrs
from .kinds import int_written, name_of
from .values import CARD_PROPERTIES


class AttributeCode:
    """Attribute reads as Python, for `CodeGenerator`."""

    def i_GetAttr(self, e: ir.GetAttr, scope: Scope) -> str:
        return self._attribute(e, scope)

    def _attribute(self, e: ir.GetAttr, scope: Scope) -> str:
        """`OBJ.NAME`, a card's or a player's attribute or property (not `game.NAME` and the like)."""
        attr = literal(e.name)
        obj = self.ex(e.obj, scope)
        modified = self.names.modified_attributes
        if self.is_player(e.obj, scope):
            if e.name == "seat":
                return f"{obj}.seat"
            if self._player_attribute_read(e, scope):
                if type(e.obj) in (ir.GetIndex,):  # players[K]
                    return f"g.player_attrs[{int_written(e.obj.index) - 1}][{attr}]"
                return f"{_player_attrs(obj)}[{attr}]"
        if self._is_card(e.obj, scope):
            return self._card_attribute(e, obj, attr, scope.types.get(name_of(e.obj)))
        place = _PLACE_PROPERTIES.get(e.name)
        if place is not None and not self._iterable_depth:  # where the card is (none once gone)
            held = self.temp("_w")
            return (f"(g.card_zone[{held}.id][{place}] if type({held} := {obj}) is _CardRef "
                    f"and {held}.id in g.card_zone else g.read({held}, {attr}))")
        if e.name in ("name", "type") and not self._iterable_depth:  # the card's definition
            held = self.temp("_w")
            return f"({held}.defn.{e.name} if type({held} := {obj}) is _CardRef else g.read({held}, {attr}))"
        if e.name in _STORED_PROPERTIES and not self._iterable_depth:  # never modified
            held, stored = self.temp("_w"), self.temp("_d")
            return (f"({stored}[{_STORED_PROPERTIES[e.name]}] if type({held} := {obj}) is _CardRef "
                    f"and ({stored} := g.attrs[{held}.id]) else g.read({held}, {attr}))")
        slot = self.names.attr_slots.get(e.name)
        if modified is None or e.name in modified or e.name in CARD_PROPERTIES or slot is None and e.name not in self.names.player_attributes:
            return f"g.read({obj}, {attr})"
        # an attribute no effect changes: the stored value, read in place (g.read otherwise)
        simple = name_of(e.obj) is not None
        if self._iterable_depth and not simple:  # no `:=` in a comprehension's iterable
            return f"g.read({obj}, {attr})"
        if simple:
            held = obj
        else:
            held = self.temp("_w")
            obj = f"({held} := {obj})"
        if slot is None or e.name in self.names.player_attributes and e.name not in self.names.card_attributes:
            return f"(g.player_attrs[{held}.seat - 1][{attr}] if type({obj}) is _PlayerRef else g.read({held}, {attr}))"
        if self._iterable_depth:
            return f"g.read({held}, {attr})"
        stored = self.temp("_d")
        if self._on_every_card(e.name):
            return (f"({stored}[{slot}] if type({obj}) is _CardRef and ({stored} := g.attrs[{held}.id]) "
                    f"else g.read({held}, {attr}))")
        value = self.temp("_v")
        return (f"({value} if type({obj}) is _CardRef and ({stored} := g.attrs[{held}.id]) and "
                f"({value} := {stored}[{slot}]) is not _ABSENT else g.read({held}, {attr}))")

    def _on_every_card(self, name: str) -> bool:
        """Whether every card type declares the attribute: every card's row holds it (a card's row
        starts from its type's attributes and loses none of them)."""
        types = self.names.type_attributes
        return bool(types) and all(name in attributes for attributes in types.values())

    def _card_attribute(self, e: ir.GetAttr, card: str, attr: str, types: frozenset[str] | None) -> str:
        """An attribute of a name that holds a card in the game (see `Scope.cards`), whose card
        type may be known to be one of `types`."""
        modified = self.names.modified_attributes
        if e.name in _PLACE_PROPERTIES:
            return f"g.card_zone[{card}.id][{_PLACE_PROPERTIES[e.name]}]"
        if e.name in ("name", "type"):
            return f"{card}.defn.{e.name}"
        if e.name in _STORED_PROPERTIES:
            return f"g.attrs[{card}.id][{_STORED_PROPERTIES[e.name]}]"
        slot = self.names.attr_slots.get(e.name)
        if (slot is None or modified is None or e.name in modified or e.name in CARD_PROPERTIES or self._iterable_depth
                or e.name in self.names.player_attributes and e.name not in self.names.card_attributes):
            return f"g.read({card}, {attr})"
        if (self._on_every_card(e.name) if types is None
                else all(e.name in self.names.type_attributes[t] for t in types)):
            return f"g.attrs[{card}.id][{slot}]"  # (every card of these types has it)
        value = self.temp("_v")
        return f"({value} if ({value} := g.attrs[{card}.id][{slot}]) is not _ABSENT else g.read({card}, {attr}))"

    def _player_attribute_read(self, e: ir.GetAttr, scope: Scope) -> bool:
        """Whether e reads a player's attribute straight from the player (see `_attribute`)."""
        modified = self.names.modified_attributes
        return (self.is_player(e.obj, scope) and e.name in self.names.player_attributes
                and modified is not None and e.name not in modified)
