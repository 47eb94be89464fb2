"""The kind of value an expression gives, where the code alone says so.

A global or an attribute is declared with a type (`int`, `bool`, `text`, `list`, `player`,
`card`, `ability`). A value of another kind written into it is refused: at load when the kind of
the value is known from the code (`game.first = 3` into a `card` global), and at run time
otherwise (the compiler adds a test to the write). `none` fits every type.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, NoReturn

from . import ast
from .builtins import FUNCTIONS as BUILTIN_FUNCTIONS
from .values import AbilityRef, CardRef, PlayerRef, type_name

# The Python types that hold a value of each declared type (`none`, NoneType, fits every type).
PYTHON_TYPES: dict[str, tuple[type, ...]] = {
    "int": (int,), "bool": (bool,), "text": (str,), "list": (list,), "player": (PlayerRef,),
    "card": (CardRef,), "ability": (AbilityRef,),
}

# How a message names a value of each kind: "cannot set game.first to a number".
KIND_WORDS = {"int": "a number", "bool": "true or false", "text": "text", "list": "a list", "player": "a player",
              "card": "a card", "ability": "an ability", "none": "none"}

# The built-in globals and the built-in card and player properties, with the kind they hold.
BUILTIN_GLOBAL_KINDS = {"turn": "int", "phase": "text", "active": "player"}
PROPERTY_KINDS = {"name": "text", "type": "text", "zone": "text", "row": "text", "part": "text", "owner": "player",
                  "controller": "player", "position": "int", "id": "int", "token": "bool", "seat": "int"}

_BOOL_OPERATORS = {"==", "!=", "<", "<=", ">", ">=", "in"}
_INT_OPERATORS = {"-", "/"}  # (`*` and `%` of a text give a text, as in Python)


class Kinds:
    """Works out the kind of expressions against what a ruleset declares.

    zones: the zone names; functions: the user functions by name; keywords: keyword names
    (a keyword's name stands for its text); global_kinds: each declared global's type;
    player_kinds, card_kinds: each attribute name's declared types (a name may be declared by
    several card types); option_kinds: each option's kind."""

    def __init__(self, zones: Mapping, functions: Mapping[str, ast.Function], keywords: Mapping,
                 global_kinds: Mapping[str, str], player_kinds: Mapping[str, set[str]],
                 card_kinds: Mapping[str, set[str]], option_kinds: Mapping[str, str]) -> None:
        self.zones = zones
        self.functions = functions
        self.keywords = keywords
        self.global_kinds = {**BUILTIN_GLOBAL_KINDS, **global_kinds}
        self.player_kinds = player_kinds
        self.card_kinds = card_kinds
        self.option_kinds = option_kinds
        self._visiting: set[str] = set()

    def of(self, e: ast.Expr | None, local: frozenset[str] | set[str] = frozenset()) -> str | None:
        """The kind of value `e` surely gives ("int", "text", ..., "none"), or None when the code
        does not say. `local`: the names bound where `e` is (a local hides a built-in name)."""
        if isinstance(e, (ast.IntLit, ast.Neg)):
            return "int"
        if isinstance(e, ast.StrLit):
            return "text"
        if isinstance(e, ast.BoolLit):
            return "bool"
        if isinstance(e, ast.NoneLit):
            return "none"
        if isinstance(e, (ast.ListLit, ast.Select, ast.Comprehension, ast.MultiComprehension)):
            return "list"
        if isinstance(e, ast.Conditional):
            then, orelse = self.of(e.then, local), self.of(e.orelse, local)
            return then if then == orelse else None
        if isinstance(e, (ast.Not, ast.IsType)):
            return "bool"
        if isinstance(e, ast.Choose):
            return None if e.kind == "one" else "list"
        if isinstance(e, ast.BinOp):
            return self._binop(e, local)
        if isinstance(e, ast.Name):
            if e.id in local:
                return None
            if e.id == "players":
                return "list"
            if e.id in self.keywords:
                return "text"
            return {"you": "player", "self": "card"}.get(e.id)
        if isinstance(e, ast.Attribute):
            return self._attribute(e, local)
        if isinstance(e, ast.Call):
            return self._call(e, local)
        return None

    def _binop(self, e: ast.BinOp, local) -> str | None:
        if e.op in _BOOL_OPERATORS:
            return "bool"
        if e.op in _INT_OPERATORS:
            return "int"
        left, right = self.of(e.left, local), self.of(e.right, local)
        if e.op in ("*", "%"):
            return "int" if left == right == "int" else None
        if e.op == "+":
            if "list" in (left, right):
                return "list"
            return left if left == right and left in ("int", "text") else None
        return left if left == right else None  # `and`, `or`: one of the operands

    def _attribute(self, e: ast.Attribute, local) -> str | None:
        obj = e.obj
        if isinstance(obj, ast.Name) and obj.id not in local:
            if obj.id == "game":
                return self.global_kinds.get(e.name)
            if obj.id == "options":
                return self.option_kinds.get(e.name)
            if obj.id == "event":
                return None
        owner = self.of(obj, local)
        if owner == "list":  # an attribute of a list: the list of the items' attributes
            return "list"
        if owner == "card":
            kinds = self.card_kinds.get(e.name, set())
        elif owner == "player":
            kinds = self.player_kinds.get(e.name, set())
        else:
            return None
        if e.name in PROPERTY_KINDS and not kinds:
            return PROPERTY_KINDS[e.name]
        return next(iter(kinds)) if len(kinds) == 1 else None

    def _call(self, e: ast.Call, local) -> str | None:
        if e.func in self.zones:
            return "list"
        fn = self.functions.get(e.func)
        if fn is not None:
            if e.func in self._visiting:  # (a function that calls itself)
                return None
            self._visiting.add(e.func)
            try:
                return self.of(fn.body, frozenset(fn.params))
            finally:
                self._visiting.discard(e.func)
        builtin = BUILTIN_FUNCTIONS.get(e.func)
        return builtin.kind if builtin is not None else None


def fits(kind: str | None, declared: set[str] | frozenset[str]) -> bool:
    """Whether a value of this kind may be written where one of the declared types is held
    (unknown kinds and none always may)."""
    return kind is None or kind == "none" or kind in declared


def held_words(types: Iterable[str]) -> str:
    """What a global or attribute declared with these types holds, in words: "a card (type: card)"."""
    types = sorted(types)
    return " or ".join(f"{KIND_WORDS.get(t, t)} (type: {t})" for t in types)


@dataclass(frozen=True)
class Held:
    """A global or attribute name and what it may hold: the test that the compiler adds to a
    write whose value's kind the code does not say (`refuse` when it fails)."""

    what: str  # "game.first", "attribute 'score'"
    declared: frozenset[str]  # the declared types ("card")
    types: frozenset[type]  # the Python types that fit, NoneType among them

    @staticmethod
    def of(what: str, declared: Iterable[str]) -> Held:
        declared = frozenset(declared)
        types = {type(None)}
        for t in declared:
            types.update(PYTHON_TYPES.get(t, ()))
        return Held(what, declared, frozenset(types))


def refuse(value: Any, held: Held, game: Any) -> NoReturn:
    """Stop the game: a value of the wrong type was written into a typed global or attribute."""
    kind = type_name(value)
    shown = repr(value) if isinstance(value, str) else game.label(value)
    game.runtime_error(f"cannot set {held.what} to {shown} ({KIND_WORDS.get(kind, 'a ' + kind)}): "
                       f"it holds {held_words(held.declared)}")
    raise AssertionError("runtime_error returned")  # (it raises)
