"""The code generator's tables and small helpers: which built-ins are written inline, which take
their argument read-only or as a list, which card properties are stored where, the helpers the
generated code calls. Shared by codegen.py and its parts."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from ..errors import ValidationError
from . import ast, ir
from .builtins import having
from .values import (
    ATTACHED,
    CONTROLLER,
    OWNER,
    PART,
    CardRef,
)

WHILE_BUDGET_MESSAGE = "a 'while' loop ran past the step budget"

ALLOWED_BUILTINS = {"len": len, "list": list, "range": range, "sorted": sorted, "type": type, "isinstance": isinstance,
                    "bool": bool, "int": int, "str": str, "tuple": tuple, "max": max, "min": min, "None": None}


def _head(cards: list):
    return cards[0] if cards else None


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_of_type(v, type_name: str | frozenset[str]) -> bool:
    """`v is T`: a card of the type T, or of one of a set of types (T and those extending it)."""
    if type(type_name) is str:
        return isinstance(v, CardRef) and v.defn.type == type_name
    return isinstance(v, CardRef) and v.defn.type in type_name


# What the code generator knows of each built-in function, read from the one table (builtins.py):
# how it is written inline (a template over its argument sources, its list arguments given as
# lists where `_LIST_ARGUMENTS` says so), which only read their list argument (given a zone, they
# read the zone's own list), and (see `CodeGenerator._strict`) whose code works out each argument.
_INLINE_BUILTINS: Mapping[str, Callable[..., str]] = having(lambda b: b.inline, lambda b: b.inline)
_READ_ONLY_ARGUMENT = having(lambda b: b.reads_argument)
_LIST_ARGUMENTS = having(lambda b: b.list_arguments)
_STRICT_BUILTINS = having(lambda b: b.strict)

# Card properties kept in the card's attributes under a key of their own (see Game.new_card).
_STORED_PROPERTIES = {"owner": OWNER, "controller": CONTROLLER, "attached_to": ATTACHED, "part": PART}

# Card properties read from the card's zone key (name, seat, row).
_PLACE_PROPERTIES = {"zone": 0, "row": 2}

_COMPARISONS = ("==", "!=", "<", "<=", ">", ">=")


def _conjuncts(e: ast.Expr | None) -> list[ast.Expr]:
    """The tests that `and` joins in an expression, in order (none for None)."""
    if e is None:
        return []
    if type(e) in (ast.BinOp, ir.BinOp) and e.op == "and":
        return _conjuncts(e.left) + _conjuncts(e.right)
    return [e]


_PLAYER_AT = re.compile(r"g\.players\[(\d+)\]")  # the code for a player by index (seat - 1)


def _player_attrs(player: str) -> str:
    """The code for the attribute dict of the player that `player` (code) gives."""
    at = _PLAYER_AT.fullmatch(player)
    return f"g.player_attrs[{at.group(1)}]" if at else f"g.player_attrs[{player}.seat - 1]"


class NestedTooDeeply(ValidationError):
    """Rule code whose Python form nests more loops than Python allows (20)."""


Line = tuple  # (source text, the Span of the rule statement it comes from, or None)


def indent(lines: list[Line], depth: int = 1) -> list[Line]:
    pad = "    " * depth
    return [(pad + text, span) for text, span in lines]
