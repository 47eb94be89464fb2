"""The code generator's tables and small helpers: which built-ins are written inline, which take
their argument read-only or as a list, which card properties are stored where, the helpers the
generated code calls. Shared by codegen.py and its parts."""

from __future__ import annotations

import re
from collections.abc import Callable

from ..errors import ValidationError
from . import ast
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


def _is_of_type(v, type_name: str) -> bool:
    return isinstance(v, CardRef) and v.defn.type == type_name


# How each built-in function is written inline: a template over its argument sources.
# (Their list arguments are given as lists: see `_LIST_ARGUMENTS`.)
_INLINE_BUILTINS: dict[str, Callable[..., str]] = {
    "count": lambda x: f"len({x})",
    "first": lambda x: f"_head({x})",
    "any": lambda x: f"bool({x})",
    "is_empty": lambda x: f"(not {x})",
    "text": lambda x: f"g.label({x})",
    "others": lambda p: f"_bf_others(g, {p})",  # (a comprehension here would make g a closure's cell)
    "nth": lambda x, i: f"_index({x}, {i})",
    "max_of": lambda x: f"(max({x}) if {x} else 0)",
    "min_of": lambda x: f"(min({x}) if {x} else 0)",
    "labelled": lambda x, label: f"_Labelled({x}, str({label}))",
    "abilities": lambda x: f"g.activatable({x})",
    "ability_cost": lambda a: (f"({a}.ability.fixed_cost if type({a}) is _AbilityRef and {a}.ability.fixed_cost is not "
                               f"None else g.ability_cost({a}))" if a.isidentifier() else f"g.ability_cost({a})"),
    "has": lambda c, k: f"g.has_keyword({c}, {k})",
    "position": lambda c: f"g.position({c})",
    "attachments": lambda x: f"g.attachments({x})",
    "random": lambda x: f"g.random_choice({x})",
    "shuffled": lambda x: f"g.shuffled({x})",
}

# Built-ins that only read their list argument: given a zone, they read the zone's own list.
_READ_ONLY_ARGUMENT = {"count", "first", "any", "is_empty", "abilities", "random"}

# Built-ins whose list arguments are written as lists; max_of and min_of name theirs twice, so
# they are inlined only for a plain name.
_LIST_ARGUMENTS = {"count", "first", "any", "is_empty", "max_of", "min_of", "abilities", "random", "shuffled"}

# Card properties kept in the card's attributes under a key of their own (see Game.new_card).
_STORED_PROPERTIES = {"owner": OWNER, "controller": CONTROLLER, "attached_to": ATTACHED, "part": PART}

# Card properties read from the card's zone key (name, seat, row).
_PLACE_PROPERTIES = {"zone": 0, "row": 2}

_COMPARISONS = ("==", "!=", "<", "<=", ">", ">=")


def _conjuncts(e: ast.Expr | None) -> list[ast.Expr]:
    """The tests that `and` joins in an expression, in order (none for None)."""
    if e is None:
        return []
    if isinstance(e, ast.BinOp) and e.op == "and":
        return _conjuncts(e.left) + _conjuncts(e.right)
    return [e]

# Built-ins whose code works out each argument every time (see `CodeGenerator._strict`).
_STRICT_BUILTINS = {"count", "first", "any", "is_empty", "sum_of", "max_of", "min_of", "abilities"}

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
