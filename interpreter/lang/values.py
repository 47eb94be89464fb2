"""Run-time values the compiled language works with: card, player and team handles, zone keys.

Handles are immutable and shared between a game and its clones: all mutable state of a card
(its zone, attributes, part) lives in the game state, keyed by the handle's id. That keeps
`clone()` a copy of plain dicts and lists, with no remapping of references held in frames.
"""

from __future__ import annotations

from typing import Any

# A card's stored values are a row (a list) of slots: first the engine's own properties, at these
# indexes, then the attributes of every card type, at the indexes `Rules.attr_slots` gives (the same
# in every row of a game). A slot of an attribute the card's type does not declare holds `ABSENT`.
PART = 0
ATTACHED = 1
CONTROLLER = 2
STAMP = 3
OWNER = 4
# set (True) on a card of a shared zone that went to its first owner out of view (dealt face down):
# the others do not know which player got it (see engine/determinize.py)
DEALT = 5
# the seats (a bit mask, 1 << seat) that saw a card go into the hidden zone it is in and so know
# it is there (0: none): set by a move out of their view, dropped when the zone is shuffled (see
# engine/zones.py); determinization keeps such a card in that zone for them
KNOWN = 6
# the seats (a bit mask, 1 << seat) a card was revealed to (`reveal c to PLAYERS`; 0: none), until
# it changes zone, as `Game.revealed` holds the cards revealed to every player (engine/zones.py)
SHOWN = 7
# on a silenced card (`silence`): True, or the event that ends the silence sooner than its leaving
# its zone; None on any other card; dropped as it leaves (engine/effects.py)
SILENCED = 8
# True on a card something ends with as it leaves its zone (it is silenced, or effects last `until
# it leaves`): the engine's moves call `Game.left_zone` for it (engine/effects.py)
LEAVING = 9
# the properties' names in saved games and tools (no attribute name starts with '$'), by slot, and
# the value each slot has on a new card (set by a move, a reveal, `silence`, ...: see above)
PROPERTY_KEYS = ("$part", "$attached", "$controller", "$ts", "$owner", "$dealt", "$known", "$shown", "$silenced",
                 "$leaving")
PROPERTY_DEFAULTS = (None, None, None, 0, None, False, 0, 0, None, False)
# the properties a saved game keeps only where they differ from their default (as it always has)
UNLESS_SET = frozenset({DEALT, KNOWN, SHOWN, SILENCED, LEAVING})


class _Absent:
    """The value of a row's slot for an attribute the card's type does not declare (`ABSENT`)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "ABSENT"

    def __reduce__(self) -> str:
        return "ABSENT"


ABSENT = _Absent()

# What every card has besides its type's attributes (read with `card.name`, `card.zone`, ...).
CARD_PROPERTIES = {"name", "type", "owner", "controller", "zone", "position", "attached_to", "part", "id",
                   "row", "token", "seat", "text"}


class CardRef:
    """A card instance: a stable id for the whole game and its definition; `origin`: the zone it
    was made in (name, seat), which determinization reads (a card of a shared deck may be in any
    hand it could have been dealt to, a card of a player's own deck only among that player's)."""

    __slots__ = ("id", "defn", "_abilities", "origin")

    def __init__(self, card_id: int, defn: Any, origin: tuple[str, int] | None = None) -> None:
        self.id = card_id
        self.defn = defn
        self._abilities: tuple[AbilityRef, ...] | None = None
        self.origin = origin

    @property
    def abilities(self) -> tuple[AbilityRef, ...]:
        """The card's activated abilities, one handle each, made once (handles never change)."""
        refs = self._abilities
        if refs is None:
            refs = self._abilities = tuple(AbilityRef(self, i) for i in range(len(self.defn.activated)))
        return refs

    @property
    def name(self) -> str:
        return self.defn.name

    def __repr__(self) -> str:
        return f"{self.defn.name}#{self.id}"


class PlayerRef:
    """A player, by seat (1-based)."""

    __slots__ = ("seat",)

    def __init__(self, seat: int) -> None:
        self.seat = seat

    def __repr__(self) -> str:
        return f"P{self.seat}"


class TeamRef:
    """A team of the ruleset's `teams:` (its index from 1, its name and its seats, sorted): one
    handle per team, made with the compiled rules and shared by all their games."""

    __slots__ = ("index", "name", "seats")

    def __init__(self, index: int, name: str, seats: tuple[int, ...]) -> None:
        self.index = index
        self.name = name
        self.seats = seats

    def __eq__(self, other: object) -> bool:  # (the same team of rules loaded twice is equal)
        return type(other) is TeamRef and (other.index, other.name, other.seats) == (self.index, self.name, self.seats)

    def __hash__(self) -> int:
        return hash((self.index, self.name, self.seats))

    def __repr__(self) -> str:
        return self.name


class ZoneKey(tuple):
    """(zone name, seat or 0 for a shared zone, row name or '')."""

    __slots__ = ()

    def __new__(cls, name: str, seat: int = 0, row: str = "") -> ZoneKey:
        return tuple.__new__(cls, (name, seat, row))

    @property
    def name(self) -> str:
        return self[0]

    @property
    def seat(self) -> int:
        return self[1]

    @property
    def row(self) -> str:
        return self[2]

    def __repr__(self) -> str:
        text = self[0]
        if self[1]:
            text += f"(P{self[1]})"
        if self[2]:
            text += f".{self[2]}"
        return text


class AbilityRef:
    """An activated ability of a card: the card and the ability's index in its definition."""

    __slots__ = ("card", "index", "ability", "frame")

    def __init__(self, card: CardRef, index: int) -> None:
        self.card = card
        self.index = index
        self.ability = card.defn.activated[index][0]
        self.frame: Any = None  # the engine's frame for reading its condition and cost (a cache)

    @property
    def local_values(self) -> dict:
        return self.card.defn.activated[self.index][1]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, AbilityRef) and other.card is self.card and other.index == self.index

    def __hash__(self) -> int:
        return hash((self.card.id, self.index))

    def __repr__(self) -> str:
        return f"{self.card!r}/ability {self.index + 1}"


class Labelled:
    """An option value with its own readable label (built by `labelled(value, text)`).

    A label made of text and the texts of values ("top: " + text(c)) may be given as its pieces
    and the game that writes values, `(game, pieces)`: it is joined when first read, which a
    playout that never shows it never pays for. (The pieces are taken when the value is made;
    only their text is written later, as option labels are.)"""

    __slots__ = ("value", "_label", "_pieces")

    def __init__(self, value: Any, label: str | None, pieces: tuple | None = None) -> None:
        self.value = value
        self._label = label
        self._pieces = pieces

    @property
    def label(self) -> str:
        if self._label is None:
            game, pieces = self._pieces
            self._label = "".join(p if type(p) is str else game.label(p) for p in pieces)
            self._pieces = None
        return self._label

    def __repr__(self) -> str:
        return f"{self.label!r}"


def value_id(value: Any) -> str:
    """A stable, readable id for a decision option's value."""
    if isinstance(value, CardRef):
        return f"c{value.id}"
    if isinstance(value, Labelled):
        return value_id(value.value)
    if isinstance(value, AbilityRef):
        return f"a{value.card.id}.{value.index + 1}"
    if isinstance(value, PlayerRef):
        return f"p{value.seat}"
    if isinstance(value, TeamRef):
        return f"t{value.index}"
    if value is True:
        return "yes"
    if value is False:
        return "no"
    if value is None:
        return "none"
    if isinstance(value, (list, tuple)):
        return "+".join(value_id(v) for v in value) or "nothing"
    return str(value)


def type_name(value: Any) -> str:
    if isinstance(value, CardRef):
        return "card"
    if isinstance(value, PlayerRef):
        return "player"
    if isinstance(value, AbilityRef):
        return "ability"
    if isinstance(value, TeamRef):
        return "team"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, str):
        return "text"
    if isinstance(value, (list, tuple)):
        return "list"
    if value is None:
        return "none"
    return type(value).__name__
