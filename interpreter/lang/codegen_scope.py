"""The code generator's scopes: how the names of rule code map to Python names, and what the
generator knows they hold (players, lists, cards, lists without repeats). Also how names and
texts are written as Python."""

from __future__ import annotations

import copy
import re

from ..errors import ValidationError

IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\$[0-9]+(?:\.[A-Za-z_][A-Za-z0-9_]*)?")  # ($7.c: a name of an inlined procedure)


def literal(name: str) -> str:
    """A name of the language (or a compiler temporary) written as a Python string literal."""
    if not IDENTIFIER.fullmatch(name):
        raise AssertionError(f"not an identifier: {name!r}")
    return repr(name)


def identifier(name: str) -> str:
    if not IDENTIFIER.fullmatch(name) or name.startswith("$"):
        raise AssertionError(f"not an identifier: {name!r}")
    return "v_" + name


def may_share(a: tuple, b: tuple) -> bool:
    """Whether lists with these tags (see `CodeGenerator.distinct_tags`) may hold the same option:
    the same constant id; two players; cards (or their abilities) of the same zone, unless some
    constant argument (a row, say) tells the two calls apart."""
    if a[0] == "abilities" and b[0] == "abilities":
        return may_share(a[1:], b[1:])
    if a[0] != b[0]:
        return False  # (cards, abilities, players and constants are never the same option)
    if a[0] == "zone":
        if a[1] != b[1]:
            return False
        mine = dict(a[2])
        return not any(i in mine and mine[i] != value for i, value in b[2])
    return a == b or a[0] == "players"


class Scope:
    """Where generated code finds the language's local names.

    In a frame scope, names live in the frame's locals (`L[...]`) because execution may stop and
    resume there; in a pure scope (a function or a procedure that never suspends) they are Python
    locals."""

    def __init__(self, frame: bool, names: dict[str, str] | None = None,
                 players: frozenset[str] = frozenset(), lists: frozenset[str] = frozenset(),
                 cards: frozenset[str] = frozenset(), distinct: dict[str, frozenset] | None = None) -> None:
        self.frame = frame
        self.names: dict[str, str] = dict(names or {})
        self.uses_frame_locals = False
        self.players = players  # names that always hold a player (see `player_names`)
        self.lists = lists  # names that always hold a list (see `list_names`)
        # names of a selection's or comprehension's items taken from zones: cards in the game
        # (nothing can move or delete a card while an expression is worked out)
        self.cards = cards
        self.distinct = distinct or {}  # names that hold lists without repeats (see `distinct_names`)
        # names of a loop's cards, taken from zones, that the loop does not bind again: card
        # handles, though the card may have left the game since (see `s_For`)
        self.handles: frozenset[str] = frozenset()
        # names of `cards` whose card type a test before has found to be one of these
        self.types: dict[str, frozenset[str]] = {}
        # names of a selection's or comprehension's items taken from `abilities(...)`
        self.abilities: frozenset[str] = frozenset()
        # names that hold lists of cards in the game: in a function (which can move or delete
        # nothing), the `let`s that only ever take a zone's cards or a selection of them
        self.card_lists: frozenset[str] = frozenset()

    def narrowed(self, name: str, types: frozenset[str]) -> Scope:
        """The same scope, where a test has found the card `name` to be of one of these types."""
        inner = copy.copy(self)
        inner.types = {**self.types, name: types}
        return inner

    def get(self, name: str) -> str:
        found = self.names.get(name)
        if found is not None:
            return found
        if not self.frame:
            raise ValidationError(f"internal: name {name!r} is not bound here")
        self.uses_frame_locals = True
        return f"L[{literal(name)}]"

    def bind(self, name: str) -> str:
        """The target that a `let`, an assignment or a loop writes the name to."""
        if name in self.names:
            return self.names[name]
        if self.frame:
            self.uses_frame_locals = True
            return f"L[{literal(name)}]"
        self.names[name] = identifier(name)
        return self.names[name]
