"""The kind inference: the kind of value an expression gives and a name holds, where the code
alone says so, at two precisions that share their rules (`KindRules`: a call of a zone gives a
list, a built-in gives what its table entry says, a call of a rule function gives what its body
gives, followed once per function).

- `Kinds`, for the checker: the kind a value has when it is not `none` ("int", "text", ...).
  A global or an attribute is declared with a type (`int`, `bool`, `text`, `list`, `player`,
  `card`, `ability`). A value of another kind written into it is refused: at load when the kind
  of the value is known from the code (`game.first = 3` into a `card` global), and at run time
  otherwise (the compiler adds a test to the write). `none` fits every type. The parameters a
  body fixes (param_kinds.py) and the arguments of built-ins are checked with it too. It reads
  the AST (the checker's) and the lowered form (the code generator asks the kind of lowered
  expressions: a call is then followed into the lowered function, `lowered_function`).
- `ValueKinds` (lang/value_kinds.py), a part of the code generator: what a value of the lowered
  form surely is, `none` never.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, NoReturn

from . import ast, ir
from .builtins import FUNCTIONS as BUILTIN_FUNCTIONS
from .values import AbilityRef, CardRef, PlayerRef, TeamRef, type_name

# The Python types that hold a value of each declared type (`none`, NoneType, fits every type).
PYTHON_TYPES: dict[str, tuple[type, ...]] = {
    "int": (int,), "bool": (bool,), "text": (str,), "list": (list,), "player": (PlayerRef,),
    "card": (CardRef,), "ability": (AbilityRef,), "team": (TeamRef,),
}

# How a message names a value of each kind: "cannot set game.first to a number".
KIND_WORDS = {"int": "a number", "bool": "true or false", "text": "text", "list": "a list", "player": "a player",
              "card": "a card", "ability": "an ability", "team": "a team", "none": "none"}

# The built-in globals and the built-in card and player properties, with the kind they hold.
BUILTIN_GLOBAL_KINDS = {"turn": "int", "phase": "text", "active": "player"}
PROPERTY_KINDS = {"name": "text", "type": "text", "zone": "text", "row": "text", "part": "text", "owner": "player",
                  "controller": "player", "position": "int", "id": "int", "token": "bool", "seat": "int",
                  "text": "text"}

# the kind of a constant of the lowered form (`ir.Const`), by its Python type
_CONST_KINDS = {int: "int", str: "text", bool: "bool", type(None): "none"}
_OBJECT_NAME = {ir.Global: "game", ir.Option: "options", ir.EventArg: "event"}
_ATTRIBUTES = (ast.Attribute, ir.GetAttr, ir.Global, ir.Option, ir.EventArg)  # (`c.NAME`, `game.NAME`, ...)

_BOOL_OPERATORS = {"==", "!=", "<", "<=", ">", ">=", "in"}
_INT_OPERATORS = {"-", "/"}  # (`*` and `%` of a text give a text, as in Python)


class KindRules:
    """The rules both precisions share: what a built-in gives (builtins.py), and a call of a
    rule function followed into its body once per (analysis, function), so that a function that
    calls itself ends the walk. A subclass says where the ruleset's functions are, and in which
    form (`Kinds`: the checker's AST; `ValueKinds`: the lowered form the emitters read)."""

    _visiting: set[tuple[str, str]]

    def _function_body(self, name: str, lowered: bool) -> tuple[Any, Any]:
        """A rule function's body (`lowered`: in the lowered form): (its expression, None), or
        (None, its block)."""
        raise NotImplementedError

    def _through_body(self, analysis: str, func: str, of_value: Callable[[Any], Any], unknown: Any,
                      of_block: Callable[[Any], Any] | None = None, lowered: bool = True) -> Any:
        """What an analysis says of a call of a user function: what it says of the expression it
        gives (`of_value`) or of its block (`of_block`; `unknown` without one), in the lowered form
        or (not `lowered`) the AST; `unknown` while that function's body is being analysed already
        (a recursive function)."""
        value, block = self._function_body(func, lowered)
        if value is None and of_block is None:
            return unknown
        key = (analysis, func)
        if key in self._visiting:
            return unknown
        self._visiting.add(key)
        try:
            return of_value(value) if value is not None else of_block(block)
        finally:
            self._visiting.discard(key)

    @staticmethod
    def _builtin_gives(func: str) -> str | None:
        """The kind of value a built-in function gives (builtins.py), None for another name."""
        builtin = BUILTIN_FUNCTIONS.get(func)
        return builtin.kind if builtin is not None else None

    @staticmethod
    def _builtin_fact(func: str, fact: str) -> bool:
        builtin = BUILTIN_FUNCTIONS.get(func)
        return builtin is not None and bool(getattr(builtin, fact))


class Kinds(KindRules):
    """Works out the kind of expressions against what a ruleset declares.

    zones: the zone names; functions: the user functions by name; keywords: keyword names
    (a keyword's name stands for its text); global_kinds: each declared global's type;
    player_kinds, card_kinds: each attribute name's declared types (a name may be declared by
    several card types); option_kinds: each option's kind."""

    def __init__(self, zones: Mapping, functions: Mapping[str, ast.Function], keywords: Mapping,
                 global_kinds: Mapping[str, str], player_kinds: Mapping[str, set[str]],
                 card_kinds: Mapping[str, set[str]], option_kinds: Mapping[str, str],
                 team_kinds: Mapping[str, set[str]] | None = None) -> None:
        self.zones = zones
        self.functions = functions
        self.keywords = keywords
        self.global_kinds = {**BUILTIN_GLOBAL_KINDS, **global_kinds}
        self.player_kinds = player_kinds
        self.card_kinds = card_kinds
        self.option_kinds = option_kinds
        self.team_kinds = team_kinds or {}
        self.code_returns: dict[str, str] = {}  # a card's code attribute -> the kind it gives (if one)
        # a rule function's lowered form by name (set by the code generator, which asks the kind of
        # lowered expressions: a call in one is followed into the lowered body)
        self.lowered_function: Callable[[str], ir.Function] | None = None
        self._visiting = set()

    def of(self, e: ast.Expr | ir.Expr | None, local: frozenset[str] | set[str] = frozenset()) -> str | None:
        """The kind of value `e` surely gives ("int", "text", ..., "none"), or None when the code
        does not say. `local`: the names bound where `e` is (a local hides a built-in name).
        `e` is of the AST (the checker's) or lowered (the code generator's: see `_lowered`)."""
        if isinstance(e, ir.Expr):
            return self._lowered(e, local)
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
            return self._name(e.id, local)
        if isinstance(e, ast.Attribute):
            return self._attribute(e, local)
        if isinstance(e, ast.Call):
            return self._call(e, local)
        if isinstance(e, ast.Index):
            return self.items(e.obj, local)
        return None

    def _lowered(self, e: ir.Expr, local) -> str | None:
        """`of` a lowered expression: the same rules, its names resolved by the lowering (a `Local`
        is a name the code binds: its kind is not known; `local` changes nothing)."""
        kind = type(e)
        if kind is ir.Local:
            return None
        if kind is ir.Const:
            return _CONST_KINDS.get(type(e.value))
        if kind is ir.Neg:
            return "int"
        if kind in (ir.ListOf, ir.Select, ir.Comprehension):
            return "list"
        if kind is ir.IfExpr:
            then, orelse = self.of(e.then, local), self.of(e.orelse, local)
            return then if then == orelse else None
        if kind in (ir.Not, ir.IsType):
            return "bool"
        if kind is ir.Ask:
            return "bool" if e.kind == "may" else None if e.kind == "one" else "list"
        if kind is ir.BinOp:
            return self._binop(e, local)
        name = name_of(e)
        if name is not None:
            return self._name(name, local)
        if kind in (ir.Global, ir.Option, ir.EventArg):
            if _OBJECT_NAME[kind] in local:
                return None
            return (self.global_kinds.get(e.name) if kind is ir.Global
                    else self.option_kinds.get(e.name) if kind is ir.Option else None)
        if kind is ir.GetAttr:
            return self._attribute(e, local)
        if kind is ir.Call:
            return self._call(e, local)
        if kind is ir.GetIndex:
            return self.items(e.obj, local)
        return None

    def _name(self, name: str, local) -> str | None:
        if name in local:
            return None
        if name in ("players", "teams"):
            return "list"
        if name in self.keywords:
            return "text"
        return {"you": "player", "self": "card"}.get(name)

    def _binop(self, e: ast.BinOp | ir.BinOp, local) -> str | None:
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

    def _attribute(self, e: ast.Attribute | ir.GetAttr, local) -> str | None:
        obj = e.obj
        if type(obj) is ast.Name and obj.id not in local:
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
        elif owner == "team":
            return "text" if e.name == "name" else next(iter(self.team_kinds.get(e.name, ())), None)
        else:
            return None
        if e.name in PROPERTY_KINDS and not kinds:
            return PROPERTY_KINDS[e.name]
        return next(iter(kinds)) if len(kinds) == 1 else None

    def _function_body(self, name: str, lowered: bool) -> tuple[Any, Any]:
        if lowered:
            if self.lowered_function is None:
                raise TypeError("the kind of a lowered expression needs the lowered rule functions (lowered_function)")
            fn = self.lowered_function(name)
            return fn.value, fn.body
        body = self.functions[name].body
        return (None, body.body) if isinstance(body, ast.BlockValue) else (body, None)

    def _call(self, e: ast.Call | ir.Call, local) -> str | None:
        func = called(e)
        if func in self.zones:
            return "list"
        if func == "call" and func not in self.functions and e.args and type(e.args[0]) in _ATTRIBUTES:
            return self.code_returns.get(e.args[0].name)  # a card's code: the kind its attribute declares
        fn = self.functions.get(func)
        if fn is not None:
            return self._through_body("kind", func, lambda body: self.of(body, frozenset(fn.params)), None,
                                      lowered=type(e) is ir.Call)
        if e.args and self._builtin_fact(func, "gives_item"):
            return self.items(e.args[0], local)
        return self._builtin_gives(func)

    def items(self, e: ast.Expr, local: frozenset[str] | set[str] = frozenset()) -> str | None:
        """The kind of every item of the list `e` gives, where the code says so: a zone's cards,
        the players (`players`, `others(p)`), a selection from such a list, the first few of one
        or those joined from two of one kind."""
        name = name_of(e)
        if name is not None:
            if name in local:
                return None
            return {"players": "player", "teams": "team"}.get(name)
        if is_selection(e):
            return self.items(e.source, local)
        if is_join(e):
            left = self.items(e.left, local)
            return left if left == self.items(e.right, local) else None
        func = called(e)
        if func is None:
            return None
        if func in self.zones:
            return "card"
        fn = self.functions.get(func)
        if fn is not None:
            return self._through_body("items", func, lambda body: self.items(body, frozenset(fn.params)), None,
                                      lowered=type(e) is ir.Call)
        if self._builtin_fact(func, "gives_players"):
            return "player"
        if e.args and self._builtin_fact(func, "keeps_items"):
            return self.items(e.args[0], local)
        return None


# What the kind rules read alike in the AST (the checker's `Kinds`) and the IR (lang/ir.py: the
# code generator's `ValueKinds`, and `Kinds` of a lowered expression): a name
# (ast.Name; a Local, Context, KeywordName or Unbound), a call and what it calls, a `+`, a
# selection, an index, an integer or a text written in the code.
_IR_NAMES = (ir.Local, ir.Context, ir.KeywordName, ir.Unbound)


def name_of(e: Any) -> str | None:
    """The name an expression is, or None."""
    if type(e) is ast.Name:
        return e.id
    return e.name if type(e) in _IR_NAMES else None


def called(e: Any) -> str | None:
    """The name a call calls, or None for another expression."""
    if type(e) is ast.Call:
        return e.func
    return e.name if type(e) is ir.Call else None


def is_join(e: Any) -> bool:
    """`a + b`."""
    return type(e) in (ast.BinOp, ir.BinOp) and e.op == "+"


def is_selection(e: Any) -> bool:
    return type(e) in (ast.Select, ir.Select)


def int_written(e: Any) -> int | None:
    """The integer written in the code that an expression is, or None."""
    if type(e) is ast.IntLit:
        return e.value
    return e.value if type(e) is ir.Const and type(e.value) is int else None


def text_written(e: Any) -> str | None:
    if type(e) is ast.StrLit:
        return e.value
    return e.value if type(e) is ir.Const and type(e.value) is str else None


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
