"""The kind inference: the kind of value an expression gives and a name holds, where the code
alone says so, at two precisions that share their rules (a call of a zone gives a list, a
built-in gives what its table entry says, a call of a rule function gives what its body gives,
followed once per function).

- `Kinds`, for the checker: the kind a value has when it is not `none` ("int", "text", ...).
  A global or an attribute is declared with a type (`int`, `bool`, `text`, `list`, `player`,
  `card`, `ability`). A value of another kind written into it is refused: at load when the kind
  of the value is known from the code (`game.first = 3` into a `card` global), and at run time
  otherwise (the compiler adds a test to the write). `none` fits every type. The parameters a
  body fixes (param_kinds.py) and the arguments of built-ins are checked with it too.
- `ValueKinds`, a part of the code generator (`CodeGenerator`, codegen.py): what a value surely
  is, `none` never: lists (new ones, of cards in the game, of players), texts, players, and
  lists that can repeat no option. Each answer lets the generated Python skip a check or a copy.

Of the lowered form (lang/ir.py), what does not depend on a scope (the checker's kind, a new list,
a text, a draw from the random generator) is worked out once per expression node and kept with
the IR (`Facts`, `ValueKinds.facts`), for every emitter (native, resumable, rollout) that reads it;
what names hold (players, lists, lists without repeats) is asked of each scope.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, NoReturn

from . import ast, ir
from .builtins import FUNCTIONS as BUILTIN_FUNCTIONS
from .builtins import RANDOM as RANDOM_BUILTINS
from .codegen_scope import Scope, may_share
from .ir_analysis import local_bindings
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


def _written(e: Any) -> int | str | None:
    """The integer or text written in the code that an expression is, or None."""
    found = int_written(e)
    return found if found is not None else text_written(e)


def builds_new_list(e: ir.Expr) -> bool:
    """A list written out, a selection, a comprehension (of one clause: the code of several is
    a list too, not known to be here)."""
    kind = type(e)
    return kind in (ir.ListOf, ir.Select) or kind is ir.Comprehension and len(e.clauses) == 1


@dataclass(frozen=True)
class Facts:
    """What the kind inference says of one lowered expression wherever it stands (the lowering
    has resolved its names, so no scope changes it): kept alongside the IR (`ValueKinds.facts`)."""

    kind: str | None  # the checker's kind (`Kinds.of`): None when the code does not say
    new_list: bool  # it always gives a new Python list (`ValueKinds.new_list`)
    text: bool  # it always gives a text (`ValueKinds.is_text`)
    draws: bool  # working it out may draw from the game's random generator


class ValueKinds(KindRules):
    """The analyses of `CodeGenerator`: what values of the lowered form surely are, `none` never
    (see the module docstring). `self.names`: the compiler's name table; `self.lowering`: the
    compiler's lowering (a rule function's body is followed in its lowered form); `self._visiting`
    and `self._facts`: set by `CodeGenerator`. What does not depend on the scope is worked out once
    per lowered expression (`facts`), the rest (players, lists held by names, lists without
    repeats) asked of a scope."""

    _facts: dict[int, tuple[ir.Expr, Facts]]

    def _function_body(self, name: str, lowered: bool = True) -> tuple[Any, Any]:
        fn = self.lowering.definition(self.names.functions[name])
        return fn.value, fn.body

    def facts(self, e: ir.Expr) -> Facts:
        """The facts of a lowered expression: worked out once per node (from its children's), on
        first ask, and kept alongside the IR (by node, which the table holds) for every emitter:
        native, resumable and rollout read the same blocks' IR."""
        found = self._facts.get(id(e))
        if found is None:
            found = self._facts[id(e)] = (e, self._facts_of(e))
        return found[1]

    def _facts_of(self, e: ir.Expr) -> Facts:
        kinds = self.names.kinds
        func = e.name if type(e) is ir.Call else None
        draws = any(self._child_draws(child) for child in ir.children(e))
        if func is not None and not draws:
            draws = (self._through_body("draws", func, self._draws, False, self._block_draws)
                     if func in self.names.functions else func in RANDOM_BUILTINS)
        if builds_new_list(e):
            new_list = True
        elif func is not None:
            new_list = (self._through_body("new list", func, self.new_list, False) if func in self.names.functions
                        else func in self.names.zones or self._builtin_gives(func) == "list")
        else:
            new_list = is_join(e) and (self.facts(e.left).new_list or self.facts(e.right).new_list)
        if func is not None:
            text = func not in self.names.functions and self._builtin_gives(func) == "text"
        else:
            text = text_written(e) is not None or is_join(e) and self.facts(e.left).text and self.facts(e.right).text
        return Facts(kinds.of(e) if kinds is not None else None, new_list, text, draws)

    def _child_draws(self, node: ir.Node) -> bool:
        if isinstance(node, ir.Expr):
            return self.facts(node).draws
        return any(self._child_draws(child) for child in ir.children(node))  # (a comprehension's clause)

    def _block_draws(self, block: tuple[ir.Stmt, ...]) -> bool:
        """Whether running a block may draw from the game's random generator (a rule function's)."""
        return any(self.facts(n).draws for n in ir.walk(block) if isinstance(n, ir.Expr))

    def _keeps_items(self, e: ir.Call) -> bool:
        """A call of a built-in whose list holds items of its first argument only (`take(L, n)`)."""
        return bool(e.args) and self._builtin_fact(called(e), "keeps_items")

    def new_list(self, e: ir.Expr) -> bool:
        """Whether an expression always gives a new Python list (no copy or conversion needed)."""
        return self.facts(e).new_list

    def is_list(self, e: ir.Expr, scope: Scope | None = None) -> bool:
        """Whether an expression always gives a Python list (new or not)."""
        name = name_of(e)
        if name is not None:
            return (name == "players" and (scope is None or name not in scope.names)
                    or scope is not None and name in scope.lists)
        return self.new_list(e)

    def is_text(self, e: ir.Expr) -> bool:
        return self.facts(e).text

    def is_card_list(self, e: ir.Expr, scope: Scope) -> bool:
        """Whether an expression always gives a list of cards in the game: a zone's cards, a
        selection from such a list, several of them joined, the first few of one, a function's
        name that holds one (see `Scope.card_lists`)."""
        name = name_of(e)
        if name is not None:
            return name in scope.card_lists
        func = called(e)
        if func is not None:
            if func in self.names.zones:
                return True
            if func in self.names.functions:
                return self._through_body("card list", func, lambda body: self.is_card_list(body, Scope(False)),
                                          False)
            return self._keeps_items(e) and self.is_card_list(e.args[0], scope)
        if is_selection(e):
            return self.is_card_list(e.source, scope)
        return is_join(e) and self.is_card_list(e.left, scope) and self.is_card_list(e.right, scope)

    def _is_card(self, e: ir.Expr, scope: Scope) -> bool:
        name = name_of(e)
        return name is not None and name in scope.cards and name in scope.names

    def _is_handle(self, e: ir.Expr, scope: Scope) -> bool:
        """Whether an expression is a name that holds a card handle (see `Scope.handles`)."""
        name = name_of(e)
        return name is not None and name in scope.handles

    # ------------------------------------------------------------------ names that hold players
    def is_player_list(self, e: ir.Expr, scope: Scope) -> bool:
        """Whether an expression always gives a list of players (`players`, `others(p)`, a
        selection from them)."""
        name = name_of(e)
        if name is not None:
            return name == "players" and name not in scope.names
        func = called(e)
        if func is not None:
            return func not in self.names.functions and self._builtin_fact(func, "gives_players")
        return is_selection(e) and self.is_player_list(e.source, scope)

    def is_player(self, e: ir.Expr, scope: Scope) -> bool:
        """Whether an expression always gives a player (never none): a name that only ever holds
        one, `players[K]` for a seat that exists, `next_player(...)`, the first of `others(...)`
        when there are several players, a function that gives one of these."""
        name = name_of(e)
        if name is not None:
            return name in scope.players
        if type(e) is ir.GetIndex:
            seat = int_written(e.index)
            return (name_of(e.obj) == "players" and "players" not in scope.names
                    and seat is not None and 1 <= seat <= self.names.player_count)
        func = called(e)
        if func is not None:
            if func in self.names.functions:
                return self._through_body("player", func, lambda body: self.is_player(body, Scope(False)), False)
            if func == "first" and len(e.args) == 1 and called(e.args[0]) is not None:
                return (called(e.args[0]) == "others" and "others" not in self.names.functions
                        and self.names.player_count >= 2)
            return self._builtin_gives(func) == "player"
        return False

    def player_names(self, body: tuple[ir.Stmt, ...], params=(), given: frozenset[str] = frozenset()) -> frozenset[str]:
        """The local names of a lowered block that hold a player wherever they are used: every
        `let`, assignment and `for` that binds the name gives a player (parameters are not known,
        except those `given` a player, as long as the block binds them only to players)."""
        return self._names_holding(body, params, lambda v, scope: v is not None and (
            self.is_player_list(v[1], scope) if isinstance(v, tuple) else self.is_player(v, scope)),
            lambda known: Scope(False, players=known), given)

    def list_names(self, body: tuple[ir.Stmt, ...], params=()) -> frozenset[str]:
        """The local names of a lowered block that always hold a list: every `let` and assignment
        that binds the name gives one (a selection, a list, a zone's cards; parameters and loop
        variables are not known)."""
        return self._names_holding(body, params, lambda v, scope: (
            v is not None and not isinstance(v, tuple) and self.is_list(v, scope)),
            lambda known: Scope(False, lists=known))

    # ------------------------------------------------------------------ lists without repeats
    def distinct_names(self, body: tuple[ir.Stmt, ...], params=()) -> dict[str, frozenset]:
        """The local names of a lowered block that always hold a list without repeated options,
        with the tags of what their items are drawn from (see `distinct_tags`): every `let` and
        `=` that binds the name gives such a list (parameters and loop variables are not known)."""
        bindings = local_bindings(body)
        known: dict[str, frozenset] = {}
        for _round in range(4):  # (a name bound from another: known once that one is)
            scope = Scope(False, distinct=known)
            found = {}
            for name, values in bindings.items():
                if name in params or any(v is None or isinstance(v, tuple) for v in values):
                    continue
                tags = [self.distinct_tags(v, scope) for v in values]
                if all(t is not None for t in tags):
                    found[name] = frozenset().union(*tags)
            if found == known:
                break
            known = found
        return known

    def distinct_tags(self, e: ir.Expr, scope: Scope) -> frozenset | None:
        """Tags of what a list's items are drawn from, when the list can repeat no option (None
        when it might): a `choose` from it needs no check for repeats. Items of lists whose tags
        never meet (`may_share`) are never the same option, so their concatenation repeats none.

        A zone's cards never repeat (a card is in one place); a selection from a list, or the
        first or last few of it, keeps that; so do the abilities of cards that never repeat, the
        players, and a list written out of different constants or `labelled` constants."""
        name = name_of(e)
        if name is not None:
            if name == "players" and name not in scope.names:
                return frozenset({("players",)})
            return scope.distinct.get(name)
        if is_selection(e):
            return self.distinct_tags(e.source, scope)
        if is_join(e):
            left, right = self.distinct_tags(e.left, scope), self.distinct_tags(e.right, scope)
            if left is None or right is None or any(may_share(a, b) for a in left for b in right):
                return None
            return left | right
        if type(e) is ir.IfExpr:  # (one of the two lists, whole)
            then, orelse = self.distinct_tags(e.then, scope), self.distinct_tags(e.orelse, scope)
            return None if then is None or orelse is None else then | orelse
        if type(e) is ir.ListOf:
            tags = [self._item_tag(item, scope) for item in e.items]
            if None in tags or any(may_share(a, b) for i, a in enumerate(tags) for b in tags[i + 1:]):
                return None
            return frozenset(tags)
        func = called(e)
        if func is None:
            return None
        if func in self.names.zones:
            constants = tuple((i, _written(a)) for i, a in enumerate(e.args) if _written(a) is not None)
            return frozenset({("zone", func, constants)})
        if func in self.names.functions:
            params = self.names.functions[func].params
            return self._through_body("distinct", func, lambda value: self.distinct_tags(value, Scope(False)), None,
                                      lambda block: self._distinct_block(block, params))
        if self._keeps_items(e):
            return self.distinct_tags(e.args[0], scope)
        if func == "abilities" and len(e.args) == 1:
            cards = self.distinct_tags(e.args[0], scope)
            if cards is None or any(t[0] != "zone" for t in cards):
                return None
            return frozenset(("abilities", *t) for t in cards)
        if self._builtin_fact(func, "gives_players"):
            return frozenset({("players",)})
        return None

    def _distinct_block(self, block: tuple[ir.Stmt, ...], params: tuple[str, ...]) -> frozenset | None:
        """`distinct_tags` of what a function's block gives: those of every value it returns
        (with what its `let`s hold)."""
        scope = Scope(False, distinct=self.distinct_names(block, params))
        tags: frozenset = frozenset()
        for node in ir.walk(block):
            if type(node) is ir.Return:
                found = self.distinct_tags(node.value, scope)
                if found is None:
                    return None
                tags |= found
        return tags or None

    def _item_tag(self, item: ir.Expr, scope: Scope) -> tuple | None:
        """The tag of one item of a list written out: a constant, a `labelled` constant (both by
        their option id), a player."""
        if _written(item) is not None:
            return ("id", str(_written(item)))
        if (called(item) == "labelled" and "labelled" not in self.names.functions
                and item.args and _written(item.args[0]) is not None):
            return ("id", str(_written(item.args[0])))
        if self.is_player(item, scope):
            return ("players",)
        return None

    @staticmethod
    def _names_holding(body: tuple[ir.Stmt, ...], params, gives: Callable, scope_of: Callable,
                       given: frozenset[str] = frozenset()) -> frozenset[str]:
        """The local names whose every binding `gives` the kind of value, in a scope where the
        names still assumed to hold it do (dropped one round at a time until none is left);
        parameters only if `given` the kind of value."""
        bindings = local_bindings(body)
        known = frozenset(set(bindings) - set(params)) | given
        while True:
            scope = scope_of(known)
            keep = frozenset(n for n in known if all(gives(v, scope) for v in bindings.get(n, ())))
            if keep == known:
                return known
            known = keep


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
