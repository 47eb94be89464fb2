"""Reading and writing the values rule code names: a card's attributes and properties, a
player's, a team's and the game's globals (`read`, `write`), and a card's row owned by the game
before it is written (`own_row`: copies share rows until then). A part of `GameState`
(engine/state.py). `GAME` and `OPTIONS` are the values `game` and `options` are in rule code."""

from __future__ import annotations

from ..lang.values import ABSENT, ATTACHED, CONTROLLER, OWNER, PART, CardRef, PlayerRef, TeamRef
from .effects import clamp


class _Marker:
    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


GAME = _Marker("game")
OPTIONS = _Marker("options")


class Attributes:
    """Values read and written, for `GameState`."""

    def read_global(self, name: str):
        return self.globals[name]

    def read(self, obj, name: str):
        if type(obj) is CardRef:
            attrs = self.attrs
            d = attrs[obj.id] if obj.id < len(attrs) else None
            if not d:
                return self._card_gone(obj, name)
            slot = self.rules.attr_slots.get(name)
            if slot is not None and (v := d[slot]) is not ABSENT:
                if self.temp_mods or name in self.rules.statically_modified:
                    index = self._static_index if self._static_version == self.static_layout else self._statics()
                    if name in index or self.temp_mods and self._temporarily_modified(name):
                        return self._modified(obj, name, v)
                return v
            return self._card_property(obj, d, name)
        if type(obj) is PlayerRef:
            if name == "seat":
                return obj.seat
            v = self.player_attrs[obj.seat - 1][name]
            if (self.temp_mods or name in self.rules.statically_modified) and self._modifiable(name):
                return self._modified(obj, name, v)
            return v
        if type(obj) is list:
            return [self.read(x, name) for x in obj]
        if type(obj) is TeamRef:
            return self._team_attribute(obj, name)
        if type(obj) is dict:
            return obj.get(name)
        if obj is GAME:
            return self.globals[name]
        if obj is None:
            self.runtime_error(f"cannot read '{name}' of none")
        self.runtime_error(f"cannot read '{name}' of {obj!r}")

    def read_base(self, obj, name: str):
        if type(obj) is CardRef:
            return self.attrs[obj.id][self.rules.attr_slots[name]]
        if type(obj) is PlayerRef:
            return self.player_attrs[obj.seat - 1][name]
        if obj is GAME:
            return self.globals[name]
        return self.read(obj, name)

    def _team_attribute(self, team: TeamRef, name: str):
        """A team's attribute (`teams: {attributes}`), or its `name`."""
        d = self.team_attrs[team.index - 1]
        if name in d:
            return d[name]
        if name == "name":
            return team.name
        self.runtime_error(f"team {team.name} has no attribute '{name}'")

    def _card_gone(self, card: CardRef, name: str):
        if name == "name":
            return card.defn.name
        if name == "zone":
            return None
        return None

    def _card_property(self, card: CardRef, d: list, name: str):
        if name == "name":
            return card.defn.name
        if name == "zone":
            return self.card_zone[card.id][0]
        if name == "position":
            return self.position(card)
        if name == "owner":
            return d[OWNER]
        if name == "controller":
            return d[CONTROLLER]
        if name == "attached_to":
            return d[ATTACHED]
        if name == "part":
            return d[PART]
        if name == "id":
            return card.id
        if name == "type":
            return card.defn.type
        if name == "row":
            return self.card_zone[card.id][2]
        if name == "token":
            return card.defn.token
        if name == "text":
            return card.defn.text
        self.runtime_error(f"card {card.defn.name} has no attribute '{name}'")

    def own_row(self, card_id: int) -> list:
        """The card's row, to be written: a row this game may share with a copy (`clone`) is
        copied first. Everything that writes a row gets it here (or tests `attrs_owned` itself)."""
        if self.attrs_owned[card_id]:
            return self.attrs[card_id]
        row = self.attrs[card_id] = self.attrs[card_id].copy()
        self.attrs_owned[card_id] = 1
        return row

    def own_rows(self) -> None:
        """Own every row at once, for a game about to write most of them (one played out, a
        determinization): copying them all in one go costs less than one by one."""
        if 0 in self.attrs_owned:
            self.attrs = list(map(list.copy, self.attrs))
            self.attrs_owned = bytearray(b"\x01") * len(self.attrs)

    def write(self, obj, name: str, value) -> None:
        if type(obj) is CardRef:
            d = self.attrs[obj.id] if self.attrs_owned[obj.id] else self.own_row(obj.id)
            slot = self.rules.attr_slots.get(name)
            if slot is not None and d[slot] is not ABSENT:
                lo_hi = obj.defn.clamps.get(name)
                if lo_hi is not None:
                    value = clamp(value, lo_hi)
                d[slot] = value
                if name in self.rules.static_reads:
                    self.version += 1
            elif name == "part" or name == "controller":
                d[PART if name == "part" else CONTROLLER] = value
                # what a card's part or controller changes: its abilities where they work, and
                # static abilities that read them
                if self.card_zone[obj.id][0] in self.rules.watched_zones or name in self.rules.static_reads:
                    self._rearranged(obj.defn)
            else:
                self.runtime_error(f"card {obj.defn.name} has no attribute '{name}' to set")
        elif type(obj) is PlayerRef:
            lo_hi = self.rules.player_clamps.get(name)
            if lo_hi is not None:
                value = clamp(value, lo_hi)
            self.player_attrs[obj.seat - 1][name] = value
            if name in self.rules.static_reads:
                self.version += 1
        elif type(obj) is TeamRef:
            d = self.team_attrs[obj.index - 1]
            if name not in d:
                self.runtime_error(f"team {obj.name} has no attribute '{name}' to set")
            lo_hi = self.rules.team_clamps.get(name)
            d[name] = clamp(value, lo_hi) if lo_hi is not None else value
            if name in self.rules.static_reads:
                self.version += 1
        elif obj is GAME:
            lo_hi = self.rules.global_clamps.get(name)
            if lo_hi is not None:
                value = clamp(value, lo_hi)
            self.globals[name] = value
            if name in self.rules.static_reads:
                self.version += 1
        elif obj is None:
            self.runtime_error(f"cannot set '{name}' of none")
        else:
            self.runtime_error(f"cannot set '{name}' of {obj!r}")
