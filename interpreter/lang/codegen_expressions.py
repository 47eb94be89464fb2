"""The code generator's expressions: names, attributes, selections and comprehensions written as
loops, operators, conditionals, text joins. A part of `CodeGenerator` (codegen.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..errors import ValidationError
from . import ast, ir
from .analysis import children
from .builtins import RANDOM as RANDOM_BUILTINS
from .codegen_scope import Scope, literal
from .codegen_tables import (
    _COMPARISONS,
    _PLACE_PROPERTIES,
    _STORED_PROPERTIES,
    _STRICT_BUILTINS,
    NestedTooDeeply,
    _conjuncts,
    _player_attrs,
)
from .kinds import called, int_written, is_join, is_selection, name_of, text_written
from .runtime import CONTEXT_NAMES
from .values import (
    CARD_PROPERTIES,
)

# the code of each context name (runtime.CONTEXT_NAMES)
_CONTEXT_CODE = {"self": "f.self_card", "you": "f.controller", "event": "f.event", "players": "g.players",
                 "teams": "g.rules.team_refs", "game": "g.GAME", "options": "g.OPTIONS"}


def _clause(e: ast.Select | ast.Comprehension | ir.Select | ir.Comprehension) -> tuple[str, Any, Any]:
    """(name, source, condition) of a selection or of a comprehension of one clause."""
    if type(e) is ir.Comprehension:
        clause = e.clauses[0]
        return clause.var, clause.source, clause.condition
    return e.var, e.source, (e.where if is_selection(e) else e.condition)


class ExpressionCode:
    """Expressions as Python, for `CodeGenerator`."""

    # ------------------------------------------------------------------ expressions
    def ex(self, e: ast.Expr | ir.Expr | None, scope: Scope) -> str:
        """The code of an expression: a lowered one (ir.Expr) by its `i_KIND` method, where its
        family reads the IR already, else from the AST it was lowered from (`written`); an AST
        one (written by an inlining, or not lowered) by its `x_KIND` method."""
        if e is None:
            return "None"
        if isinstance(e, ir.Expr):
            method = getattr(self, "i_" + type(e).__name__, None)
            if method is None:
                return self.ex(self.written(e), scope)
        else:
            method = getattr(self, "x_" + type(e).__name__)
        if self._hoisted is not None and not self._strict(e):  # (its parts may not all be worked out)
            hoisted, self._hoisted = self._hoisted, None
            try:
                return method(e, scope)
            finally:
                self._hoisted = hoisted
        return method(e, scope)

    # ------------------------------------------------------------------ lists built by loops
    def loops_if_they_fit(self, write: Callable[[], Any]) -> Any:
        """`write()` (which writes and defines code); written again without the loops of
        `lowered` if Python finds it nests more loops than it allows."""
        try:
            return write()
        except NestedTooDeeply:
            if not self.loops:
                raise
            self.loops = False
            try:
                return write()
            finally:
                self.loops = True

    def lowered(self, e: ast.Expr, scope: Scope, mode: str) -> tuple[list[str], str]:
        """Code for an expression that a statement always works out, and the lines to run before
        it: in a procedure's code (`mode` 'pure'), the selections and comprehensions it always
        works out are built by loops there. (In CPython 3.11 a list comprehension is a function
        made and called each time: for the few cards of a zone, that costs more than the loop.)"""
        if mode != "pure" or not self.loops or self._draws(e):  # (random draws stay in their order)
            return [], self.ex(e, scope)
        outer, self._hoisted = self._hoisted, []
        try:
            code = self.ex(e, scope)
            return self._hoisted, code
        finally:
            self._hoisted = outer

    def _draws(self, e: ast.Expr | ir.Expr) -> bool:
        """Whether working out an expression may draw from the game's random generator."""
        if isinstance(e, ir.Expr):
            if type(e) is ir.Call:
                if e.name in self.names.functions:
                    if self._through_body("draws", e.name, self._draws, False):
                        return True
                elif e.name in RANDOM_BUILTINS:
                    return True
            return any(self._draws(child) for child in ir.children(e))
        if isinstance(e, ast.Call):
            if e.func in self.names.functions:
                if self._through_body("draws", e.func, self._draws, False):
                    return True
            elif e.func in RANDOM_BUILTINS:
                return True
        return any(self._draws(child) for child in children(e))

    def _strict(self, e: ast.Expr | ir.Expr) -> bool:
        """Whether the code written for an expression works out each of its parts, every time
        (so that a selection among them may be built before)."""
        if isinstance(e, ir.Expr):
            return self._strict_ir(e)
        if isinstance(e, (ast.Select, ast.Comprehension, ast.Not, ast.Neg, ast.Attribute, ast.Index, ast.ListLit)):
            return True
        if isinstance(e, ast.BinOp):  # (`and`, `or`: see `_short_circuit`)
            return e.op in ("+", "-", "*", "/", "%", "and", "or") or e.op in _COMPARISONS
        if isinstance(e, ast.Call):
            if e.func == "first" and len(e.args) == 1 and self._over_players(e.args[0], Scope(False)):
                return False  # (its tests are worked out until one holds: see `_each_player`)
            return e.func in self.names.functions or e.func in self.names.zones or e.func in _STRICT_BUILTINS
        return False

    def _strict_ir(self, e: ir.Expr) -> bool:
        """`_strict` of a lowered expression (a comprehension of several clauses is not)."""
        kind = type(e)
        if kind in (ir.Select, ir.Not, ir.Neg, ir.GetAttr, ir.Global, ir.Option, ir.EventArg, ir.GetIndex,
                    ir.ListOf):
            return True
        if kind is ir.Comprehension:
            return len(e.clauses) == 1
        if kind is ir.BinOp:
            return e.op in ("+", "-", "*", "/", "%", "and", "or") or e.op in _COMPARISONS
        if kind is ir.Call:
            if e.name == "first" and len(e.args) == 1 and self._over_players(e.args[0], Scope(False)):
                return False
            return e.name in self.names.functions or e.name in self.names.zones or e.name in _STRICT_BUILTINS
        return False

    def _loop_list(self, e: ast.Select | ast.Comprehension, scope: Scope, kind: str = "list") -> str:
        """A selection or comprehension worked out by a loop, in lines before the statement (see
        `lowered`); the name that holds the list, or (`kind`) its count or whether it has an item
        ('count', 'exists': no list is made). The tests of its condition joined by `and` are
        nested ifs, each with what it always works out built before it, in the loop. A selection
        from a selection (or from a function that gives one) is one loop, with the tests of both."""
        bound: list[str] = []
        first, inlined = self._selection_in(_clause(e)[1], scope, bound)
        try:
            return self._loop(e, first, scope, kind)
        finally:
            if inlined:
                self.host.end_inline()
            for name in bound:
                del scope.names[name]

    def _binder(self, scope: Scope, bound: list[str], lowered: bool = False) -> Callable[[Any], Any] | None:
        """While lines may be written before the statement (`lowered`): a function that works out
        an argument there, once, into a name of `scope` (listed in `bound`, for the caller to take
        out again), and gives that name (`lowered`: an ir.Local); else None (see `Compiler.inline_call`)."""
        if self._hoisted is None:
            return None

        def bind(arg: ast.Expr) -> ast.Expr:
            value = self.ex(arg, scope)
            name = self.host._tmp()
            python = self.temp("_a")
            self._hoisted.append(f"{python} = {value}")
            scope.names[name] = python
            bound.append(name)
            return ir.Local(name, span=arg.span) if lowered else ast.Name(name, span=arg.span)
        return bind

    def _selection_in(self, e: ast.Expr, scope: Scope | None = None,
                      bound: list[str] | None = None) -> tuple[ast.Select | None, bool]:
        """The selection (in no order) that an expression is, or the call of a function whose
        body it is (then inlined: `end_inline` after; arguments worked out once before into names
        of `scope`, listed in `bound`), or None; and whether it was inlined."""
        if type(e) is ir.Call and e.name in self.names.functions:
            fn = self.names.functions[e.name]
            lowered = None if isinstance(fn.body, ast.BlockValue) else self.lowering.definition(fn).value
            if not (type(lowered) is ir.Select and lowered.order_by is None):
                return None, False  # (before arguments are worked out for it)
            binder = self._binder(scope, bound, lowered=True) if scope is not None and bound is not None else None
            body = self.host.inline_lowered(e.name, e.args, binder)
            return (None, False) if body is None else (body, True)
        if isinstance(e, ast.Call) and e.func in self.names.functions:
            written = self.names.functions[e.func].body
            if not (isinstance(written, ast.Select) and written.order_by is None):
                return None, False  # (before arguments are worked out for it)
            body = self.host.inline_call(e.func, e.args,
                                         self._binder(scope, bound) if scope is not None and bound is not None else None)
            if body is None:
                return None, False
            return body, True
        return (e, False) if is_selection(e) and e.order_by is None else (None, False)

    def _loop(self, e: ast.Select | ast.Comprehension, first: ast.Select | None, scope: Scope, kind: str) -> str:
        """`_loop_list` of e, whose items come from the selection `first` if not None."""
        var, e_source, condition = _clause(e)
        if first is not None:
            source = self.iterable(first.source, scope)
            taken, py = self._bound(scope, first.var, first.source)
            inner, _ = self._bound(scope, var, e_source, py)
            tests = self._narrowing(_conjuncts(first.where), taken) + self._narrowing(_conjuncts(condition), inner)
            self._merge(scope, taken)
        else:
            source = self.iterable(e_source, scope)
            inner, py = self._bound(scope, var, e_source)
            tests = self._narrowing(_conjuncts(condition), inner)
        order = e.order_by if is_selection(e) else None
        hoisted, self._hoisted = self._hoisted, None  # (a sort key is a lambda: nothing before it)
        try:
            key = self.ex(order, inner) if order is not None else None
        finally:
            self._hoisted = hoisted
        out = self.temp("_l")
        item, before = py, []
        if kind == "count":
            start, body = f"{out} = 0", [f"{out} += 1"]
        elif kind == "exists":
            start, body = f"{out} = False", [f"{out} = True", "break"]
        else:
            if not is_selection(e):
                before, item = self.lowered(e.element, inner, "pure")
            start, body = f"{out} = []", [*before, f"{out}.append({item})"]
        for test, test_scope in reversed(tests):
            before, code = self.lowered(test, test_scope, "pure")
            body = [*before, f"if {code}:", *(f"    {line}" for line in body)]
            self._merge(inner, test_scope)
        self._merge(scope, inner)
        if kind == "list" and not tests and item == py:
            lines = [f"{out} = list({source})"]
        else:
            lines = [start, f"for {py} in {source}:", *(f"    {line}" for line in body)]
        if key is not None:
            lines.append(f"{out}.sort(key=lambda {py}: {key}, reverse={bool(e.descending)!r})")
        self._hoisted.extend(lines)
        return out

    def _player_attribute_read(self, e: ast.Attribute, scope: Scope) -> bool:
        """Whether e reads a player's attribute straight from the player (see `x_Attribute`)."""
        modified = self.names.modified_attributes
        return (self.is_player(e.obj, scope) and e.name in self.names.player_attributes
                and modified is not None and e.name not in modified)

    def _narrowing(self, tests: list[ast.Expr], scope: Scope) -> list[tuple[ast.Expr, Scope]]:
        """Each of the tests that `and` joins with the scope it is worked out in: after a test
        that a card is of some card types (`c is T`, or several joined by `or`), that card's."""
        out = []
        for test in tests:
            out.append((test, scope))
            tested = self._types_tested(test, scope)
            if tested is not None:
                scope = scope.narrowed(*tested)
        return out

    def _types_tested(self, e: ast.Expr, scope: Scope) -> tuple[str, frozenset[str]] | None:
        """(name, types) when e holds only if the card `name` is of one of the card types."""
        if type(e) in (ast.BinOp, ir.BinOp) and e.op == "or":
            left, right = self._types_tested(e.left, scope), self._types_tested(e.right, scope)
            if left is None or right is None or left[0] != right[0]:
                return None
            return left[0], left[1] | right[1]
        if (type(e) in (ast.IsType, ir.IsType) and not e.negated and e.type_name in self.names.card_types
                and self._is_card(e.operand, scope)):
            return name_of(e.operand), self.names.subtypes.get(e.type_name) or frozenset((e.type_name,))
        return None

    def _short_circuit(self, e: ast.BinOp, scope: Scope) -> str:
        """`a and b`, `a or b` while `lowered`: a is always worked out; b, if it builds lists, is
        worked out in an `if` before the statement, only when a does not decide (the same value
        as Python's `and` and `or`), else in place."""
        left = self.ex(e.left, scope)
        if not self._builds_lists(e.right):
            hoisted, self._hoisted = self._hoisted, None
            try:
                return f"({left} {e.op} {self.ex(e.right, scope)})"
            finally:
                self._hoisted = hoisted
        value = self.temp("_s")
        before, right = self.lowered(e.right, scope, "pure")
        self._hoisted += [f"{value} = {left}", f"if {'not ' if e.op == 'or' else ''}{value}:",
                          *(f"    {line}" for line in before), f"    {value} = {right}"]
        return value

    def _builds_lists(self, e: ast.Expr) -> bool:
        """Whether an expression holds a selection or a comprehension (in the functions it calls
        too)."""
        if type(e) in (ast.Select, ast.Comprehension, ir.Select) or type(e) is ir.Comprehension and len(e.clauses) == 1:
            return True
        func = called(e)
        if func is not None and func in self.names.functions and self._through_body(
                "builds lists", func, self._builds_lists, False):
            return True
        return any(self._builds_lists(child) for child in (ir.children(e) if isinstance(e, ir.Node) else children(e)))

    def _counted(self, e: ast.BinOp, scope: Scope) -> str | None:
        """`count(S) > 0` and the like of a selection S, while `lowered`: whether S has an item,
        by a loop that stops at the first."""
        if not (called(e.left) == "count" and "count" not in self.names.functions
                and len(e.left.args) == 1 and int_written(e.right) is not None):
            return None
        test = (e.op, int_written(e.right))
        if test in ((">", 0), (">=", 1), ("!=", 0)):
            return self._loop_of(e.left.args[0], scope, "exists")
        if test in (("==", 0), ("<", 1), ("<=", 0)):
            found = self._loop_of(e.left.args[0], scope, "exists")
            return None if found is None else f"(not {found})"
        return None

    def _loop_of(self, e: ast.Expr, scope: Scope, kind: str) -> str | None:
        """`_loop_list` of a selection (not one over the players: see `_each_player`), or of the
        call of a function that gives one; None for anything else."""
        selection, inlined = self._selection_in(e)
        try:
            if selection is None or self._over_players(selection, scope):
                return None
            return self._loop_list(selection, scope, kind)
        finally:
            if inlined:
                self.host.end_inline()

    # ------------------------------------------------------------------ lowered: constants and names
    def i_Const(self, e: ir.Const, scope: Scope) -> str:
        value = e.value
        if value is None or type(value) is bool:
            return repr(value)
        if type(value) is int:
            return repr(int(value))
        return self.const(value)

    def i_Local(self, e: ir.Local, scope: Scope) -> str:
        return scope.get(e.name)

    def i_Context(self, e: ir.Context, scope: Scope) -> str:
        hidden = scope.names.get(e.name)  # (a name an inlined function's argument binds)
        return hidden if hidden is not None else _CONTEXT_CODE[e.name]

    def i_KeywordName(self, e: ir.KeywordName, scope: Scope) -> str:
        hidden = scope.names.get(e.name)
        return hidden if hidden is not None else self.const(e.name)

    def i_Unbound(self, e: ir.Unbound, scope: Scope) -> str:
        return scope.get(e.name)

    def i_Global(self, e: ir.Global, scope: Scope) -> str:
        return f"g.globals[{literal(e.name)}]"

    def i_Option(self, e: ir.Option, scope: Scope) -> str:
        return f"g.options[{literal(e.name)}]"

    def i_EventArg(self, e: ir.EventArg, scope: Scope) -> str:
        return f"f.event.get({literal(e.name)})"

    # ------------------------------------------------------------------ lowered: operators and lists
    def i_Not(self, e: ir.Not, scope: Scope) -> str:
        return f"(not {self.ex(e.operand, scope)})"

    def i_Neg(self, e: ir.Neg, scope: Scope) -> str:
        return f"(-{self.ex(e.operand, scope)})"

    def i_IfExpr(self, e: ir.IfExpr, scope: Scope) -> str:
        return f"({self.ex(e.then, scope)} if {self.ex(e.test, scope)} else {self.ex(e.orelse, scope)})"

    def i_ListOf(self, e: ir.ListOf, scope: Scope) -> str:
        return "[" + ", ".join(self.ex(i, scope) for i in e.items) + "]"

    def i_GetIndex(self, e: ir.GetIndex, scope: Scope) -> str:
        k = int_written(e.index)
        if self.is_player(e, scope):
            return f"g.players[{k - 1}]"
        obj = self.ex(e.obj, scope)
        if k is not None and k >= 1 and not self._iterable_depth:
            held = self.temp("_w")  # a list item by a fixed position, in place
            return f"({held}[{k - 1}] if type({held} := {obj}) is list and len({held}) >= {k} else _index({held}, {k}))"
        return f"_index({obj}, {self.ex(e.index, scope)})"

    def i_IsType(self, e: ir.IsType, scope: Scope) -> str:
        return self._type_test(e, name_of(e.operand) is not None, scope)

    def x_IntLit(self, e, scope):
        return repr(int(e.value))

    def x_BoolLit(self, e, scope):
        return "True" if e.value else "False"

    def x_NoneLit(self, e, scope):
        return "None"

    def x_StrLit(self, e, scope):
        return self.const(e.value)

    def x_Name(self, e: ast.Name, scope: Scope) -> str:
        name = e.id
        if name in scope.names:
            return scope.names[name]
        context = _CONTEXT_CODE.get(name)
        if context is not None:
            return context
        if name in self.names.keywords:
            return self.const(name)
        return scope.get(name)

    def _is_local(self, e: ast.Expr | ir.Expr, scope: Scope) -> bool:
        name = name_of(e)
        return name is not None and (name in scope.names or (
            name not in CONTEXT_NAMES and name not in self.names.keywords))

    def x_Attribute(self, e: ast.Attribute, scope: Scope) -> str:
        attr = literal(e.name)
        if isinstance(e.obj, ast.Name) and e.obj.id not in scope.names:
            if e.obj.id == "game":
                return f"g.globals[{attr}]"
            if e.obj.id == "options":
                return f"g.options[{attr}]"
            if e.obj.id == "event":
                return f"f.event.get({attr})"
        return self._attribute(e, scope)

    def i_GetAttr(self, e: ir.GetAttr, scope: Scope) -> str:
        return self._attribute(e, scope)

    def _attribute(self, e: ast.Attribute | ir.GetAttr, scope: Scope) -> str:
        """`OBJ.NAME`, a card's or a player's attribute or property (not `game.NAME` and the like)."""
        attr = literal(e.name)
        obj = self.ex(e.obj, scope)
        modified = self.names.modified_attributes
        if self.is_player(e.obj, scope):
            if e.name == "seat":
                return f"{obj}.seat"
            if self._player_attribute_read(e, scope):
                if type(e.obj) in (ast.Index, ir.GetIndex):  # players[K]
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
            return (f"({stored}[{self.const(_STORED_PROPERTIES[e.name])}] if type({held} := {obj}) is _CardRef "
                    f"and ({stored} := g.attrs.get({held}.id)) is not None else g.read({held}, {attr}))")
        if modified is None or e.name in modified or e.name in CARD_PROPERTIES:
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
        if e.name in self.names.player_attributes and e.name not in self.names.card_attributes:
            return f"(g.player_attrs[{held}.seat - 1][{attr}] if type({obj}) is _PlayerRef else g.read({held}, {attr}))"
        if self._iterable_depth:
            return f"g.read({held}, {attr})"
        stored = self.temp("_d")
        has = "" if self._on_every_card(e.name) else f" and {attr} in {stored}"
        return (f"({stored}[{attr}] if type({obj}) is _CardRef and ({stored} := g.attrs.get({held}.id)) is not None"
                f"{has} else g.read({held}, {attr}))")

    def _on_every_card(self, name: str) -> bool:
        """Whether every card type declares the attribute: every card's attribute dict has it
        (a card's dict starts from its type's attributes and loses none of them)."""
        types = self.names.type_attributes
        return bool(types) and all(name in attributes for attributes in types.values())

    def _card_attribute(self, e: ast.Attribute, card: str, attr: str, types: frozenset[str] | None) -> str:
        """An attribute of a name that holds a card in the game (see `Scope.cards`), whose card
        type may be known to be one of `types`."""
        modified = self.names.modified_attributes
        if e.name in _PLACE_PROPERTIES:
            return f"g.card_zone[{card}.id][{_PLACE_PROPERTIES[e.name]}]"
        if e.name in ("name", "type"):
            return f"{card}.defn.{e.name}"
        if e.name in _STORED_PROPERTIES:
            return f"g.attrs[{card}.id][{self.const(_STORED_PROPERTIES[e.name])}]"
        if (modified is None or e.name in modified or e.name in CARD_PROPERTIES or self._iterable_depth
                or e.name in self.names.player_attributes and e.name not in self.names.card_attributes):
            return f"g.read({card}, {attr})"
        if (self._on_every_card(e.name) if types is None
                else all(e.name in self.names.type_attributes[t] for t in types)):
            return f"g.attrs[{card}.id][{attr}]"  # (every card of these types has it)
        stored = self.temp("_d")
        return f"({stored}[{attr}] if {attr} in ({stored} := g.attrs[{card}.id]) else g.read({card}, {attr}))"

    def as_list(self, e: ast.Expr, scope: Scope) -> str:
        return self.as_list_code(e, scope, self.ex(e, scope))

    def as_list_code(self, e: ast.Expr, scope: Scope, source: str) -> str:
        """`as_list` of an expression whose code is `source`."""
        return source if self.is_list(e, scope) else f"_as_list({source})"

    def iterable(self, e: ast.Expr, scope: Scope) -> str:
        """A comprehension's source (where Python allows no `:=`)."""
        self._iterable_depth += 1
        try:
            if self._is_zone_call(e):  # the zone's own list: nothing can move a card while it is read
                return f"g.zones[{self.zone_key(e, scope)}]"
            return self.as_list(e, scope)
        finally:
            self._iterable_depth -= 1

    def owned_list(self, e: ast.Expr, scope: Scope, source: str | None = None) -> str:
        """A list of the expression's items that the caller may keep (a copy unless it is new);
        `source`: the expression's code, if written already."""
        source = self.ex(e, scope) if source is None else source
        if self.new_list(e) or self.is_player_list(e, scope) and name_of(e) is not None:
            return source  # (new, or the players: a list that never changes)
        return f"list({source})" if self.is_list(e, scope) else f"list(_as_list({source}))"

    def x_Index(self, e: ast.Index, scope: Scope) -> str:
        if self.is_player(e, scope):
            return f"g.players[{e.index.value - 1}]"
        obj = self.ex(e.obj, scope)
        if isinstance(e.index, ast.IntLit) and e.index.value >= 1 and not self._iterable_depth:
            k, held = e.index.value, self.temp("_w")  # a list item by a fixed position, in place
            return f"({held}[{k - 1}] if type({held} := {obj}) is list and len({held}) >= {k} else _index({held}, {k}))"
        return f"_index({obj}, {self.ex(e.index, scope)})"

    def x_ListLit(self, e: ast.ListLit, scope: Scope) -> str:
        return "[" + ", ".join(self.ex(i, scope) for i in e.items) + "]"

    def _bound(self, scope: Scope, var: str, source: ast.Expr, py: str = "") -> tuple[Scope, str]:
        """The scope of a selection's or comprehension's items, `var` taken from `source` (as the
        Python name `py`, or a new one)."""
        py = py or self.temp("_c")
        players = scope.players | {var} if self.is_player_list(source, scope) else scope.players - {var}
        cards = scope.cards | {var} if self.is_card_list(source, scope) else scope.cards - {var}
        inner = Scope(scope.frame, {**scope.names, var: py}, players, scope.lists - {var}, cards,
                      {k: v for k, v in scope.distinct.items() if k != var})
        inner.uses_frame_locals = scope.uses_frame_locals
        inner.types = {k: v for k, v in scope.types.items() if k != var}
        abilities = called(source) == "abilities" and "abilities" not in self.names.functions
        inner.abilities = scope.abilities | {var} if abilities else scope.abilities - {var}
        inner.card_lists = scope.card_lists - {var}
        return inner, py

    def _merge(self, scope: Scope, inner: Scope) -> None:
        scope.uses_frame_locals = scope.uses_frame_locals or inner.uses_frame_locals

    def x_Comprehension(self, e: ast.Comprehension | ir.Comprehension, scope: Scope) -> str:
        if self._hoisted is not None:
            return self._loop_list(e, scope)
        var, e_source, condition = _clause(e)
        source = self.iterable(e_source, scope)
        inner, py = self._bound(scope, var, e_source)
        element = self.ex(e.element, inner)
        cond = f" if {self.ex(condition, inner)}" if condition is not None else ""
        self._merge(scope, inner)
        return f"[{element} for {py} in {source}{cond}]"

    def i_Comprehension(self, e: ir.Comprehension, scope: Scope) -> str:
        if len(e.clauses) == 1:
            return self.x_Comprehension(e, scope)
        return self.x_MultiComprehension(e, scope)

    def i_Select(self, e: ir.Select, scope: Scope) -> str:
        return self.x_Select(e, scope)

    def i_BinOp(self, e: ir.BinOp, scope: Scope) -> str:
        return self.x_BinOp(e, scope)

    def x_MultiComprehension(self, e: ast.MultiComprehension | ir.Comprehension, scope: Scope) -> str:
        """A comprehension with several clauses: a Python comprehension with the same clauses (the
        first source is worked out outside it, the others once per item of the clauses before)."""
        inner, clauses = scope, []
        for clause in e.clauses:
            source = self.iterable(clause.source, inner)
            inner, py = self._bound(inner, clause.var, clause.source)
            test = f" if {self.ex(clause.condition, inner)}" if clause.condition is not None else ""
            clauses.append(f"for {py} in {source}{test}")
        element = self.ex(e.element, inner)
        self._merge(scope, inner)
        return f"[{element} {' '.join(clauses)}]"

    def x_Conditional(self, e: ast.Conditional, scope: Scope) -> str:
        return f"({self.ex(e.then, scope)} if {self.ex(e.test, scope)} else {self.ex(e.orelse, scope)})"

    def x_BlockValue(self, e: ast.BlockValue, scope: Scope) -> str:
        raise ValidationError("a block has a value only as a function's body", e.span)

    def x_Select(self, e: ast.Select, scope: Scope) -> str:
        if self._hoisted is not None:
            return self._loop_list(e, scope)
        source = self.iterable(e.source, scope)
        inner, py = self._bound(scope, e.var, e.source)
        cond = f" if {self.ex(e.where, inner)}" if e.where is not None else ""
        out = f"[{py} for {py} in {source}{cond}]"
        if e.order_by is not None:
            key = self.ex(e.order_by, inner)
            out = f"sorted({out}, key=lambda {py}: {key}, reverse={bool(e.descending)!r})"
        self._merge(scope, inner)
        return out

    def i_Ask(self, e: ir.Ask, scope: Scope) -> str:
        return self.x_Choose(e, scope)

    def x_Choose(self, e: ast.Choose | ir.Ask, scope: Scope) -> str:
        var = self.choices.get(id(e))
        if var is None:
            raise ValidationError("'choose' is not allowed here (only in statements of effects)", e.span)
        if var.startswith("_c"):  # (asked already, in the rollout form: a Python local)
            return var
        scope.uses_frame_locals = True
        return f"L[{literal(var)}]"

    def x_Not(self, e: ast.Not, scope: Scope) -> str:
        return f"(not {self.ex(e.operand, scope)})"

    def x_Neg(self, e: ast.Neg, scope: Scope) -> str:
        return f"(-{self.ex(e.operand, scope)})"

    def x_IsType(self, e: ast.IsType, scope: Scope) -> str:
        return self._type_test(e, isinstance(e.operand, ast.Name), scope)

    def _type_test(self, e: ast.IsType | ir.IsType, named: bool, scope: Scope) -> str:
        """`X is T` (`is not`); `named`: whether X is a name."""
        v, t = self.ex(e.operand, scope), e.type_name
        test = {
            "player": f"isinstance({v}, _PlayerRef)", "card": f"isinstance({v}, _CardRef)",
            "list": f"isinstance({v}, list)", "none": f"({v} is None)", "int": f"_is_int({v})",
            "text": f"isinstance({v}, str)", "bool": f"isinstance({v}, bool)",
            "ability": f"isinstance({v}, _AbilityRef)",
        }.get(t)
        family = self.names.subtypes.get(t, ())
        # a card of the type, or (when other types extend it) of any of them
        same = f"== {self.const(t)}" if len(family) < 2 else f"in {self.const(family)}"
        if test is None and (self._is_card(e.operand, scope) or self._is_handle(e.operand, scope)):
            test = f"{v}.defn.type {same}"
        elif test is None and named:  # a card type of the ruleset
            test = f"(type({v}) is _CardRef and {v}.defn.type {same})"
        elif test is None:
            test = f"_is_of_type({v}, {self.const(t if len(family) < 2 else family)})"
        return f"(not {test})" if e.negated else f"({test})"

    def x_BinOp(self, e: ast.BinOp, scope: Scope) -> str:
        op = e.op
        if self._hoisted is not None and op in ("and", "or"):
            return self._short_circuit(e, scope)
        if self._hoisted is not None and op in _COMPARISONS:
            found = self._counted(e, scope)
            if found is not None:
                return found
        if (op == "in" and is_join(e.right) and name_of(e.left) is not None
                and self.is_list(e.right.left) and self.is_list(e.right.right)):
            # in one list or the other: no joined list to build
            return (f"({self.ex(type(e)('in', e.left, e.right.left), scope)} or "
                    f"{self.ex(type(e)('in', e.left, e.right.right), scope)})")
        zone = called(e.right)
        if op == "in" and zone in self.names.zones and (not self._iterable_depth or name_of(e.left) is not None):
            # membership by the card's zone (O(1)), not a search of the zone's list
            left = self.ex(e.left, scope)
            held = left if name_of(e.left) is not None else self.temp("_w")
            card = f"type({left if held == left else f'({held} := {left})'}) is _CardRef"
            spec = self.names.zones[zone]
            if self._is_zone_call(e.right):
                return f"({card} and g.card_zone.get({held}.id) == {self.zone_key(e.right, scope)})"
            if not e.right.args:  # every player's (and every row's) cards of that zone
                return f"({card} and {held}.id in g.card_zone and g.card_zone[{held}.id][0] == {literal(zone)})"
            if (spec.rows and spec.per_player and len(e.right.args) == 1 and self.is_player(e.right.args[0], scope)
                    and not self._iterable_depth):
                # all rows of a player's side
                key = self.temp("_w")
                return (f"({card} and ({key} := g.card_zone.get({held}.id)) is not None and {key}[0] == "
                        f"{literal(zone)} and {key}[1] == {self.ex(e.right.args[0], scope)}.seat)")
        if op == "in":
            return f"({self.ex(e.left, scope)} in {self.as_list(e.right, scope)})"
        if op == "+" and (self.new_list(e.left) or self.new_list(e.right)):
            items = self._joined_items(e, scope)
            if len(items) == 2 and all(i.startswith("*(") or i.startswith("*_") for i in items):
                return f"({items[0][1:]} + {items[1][1:]})"  # (two lists: joined in one step)
            return "[" + ", ".join(items) + "]"  # one list, the parts unpacked into it
        left, right = self.ex(e.left, scope), self.ex(e.right, scope)
        if op in ("and", "or") or op in _COMPARISONS or op in ("-", "*"):
            return f"({left} {op} {right})"
        if op == "+":
            if int_written(e.left) is not None or int_written(e.right) is not None or (
                    self.is_text(e.left) and self.is_text(e.right)):
                return f"({left} + {right})"
            return f"_plus({left}, {right})"
        if op == "/":
            return f"_floordiv({left}, {right})"
        if op == "%":
            return f"_mod({left}, {right})"
        raise AssertionError(f"unknown operator {op!r}")

    def _text_pieces(self, e: ast.Expr) -> list[ast.Expr] | None:
        """The pieces of a text made only of text and `text(x)` joined by `+`, else None."""
        if text_written(e) is not None:
            return [e]
        if called(e) == "text" and "text" not in self.names.functions and len(e.args) == 1:
            return [e]
        if is_join(e):
            left, right = self._text_pieces(e.left), self._text_pieces(e.right)
            return left + right if left is not None and right is not None else None
        return None

    def _is_join(self, e: ast.Expr | ir.Expr) -> bool:
        return is_join(e) and (self.new_list(e.left) or self.new_list(e.right))

    def _joined_items(self, e: ast.Expr, scope: Scope) -> list[str]:
        """The items of a list display that joins the lists a chain of `+` joins, through the
        functions it calls that join lists too: a zone's own list and a list that is not a list
        literal unpacked (`*`), a list literal's items written out."""
        if self._is_join(e):
            return self._joined_items(e.left, scope) + self._joined_items(e.right, scope)
        func = called(e)
        if func is not None and func in self.names.functions:
            bound: list[str] = []
            if type(e) is ir.Call:
                body = self.host.inline_lowered(func, e.args, self._binder(scope, bound, lowered=True))
            else:
                body = self.host.inline_call(func, e.args, self._binder(scope, bound))
            if body is not None:
                try:
                    return self._joined_items(body, scope) if self._is_join(body) else [
                        f"*{self.as_list(body, scope)}"]
                finally:
                    self.host.end_inline()
                    for name in bound:
                        del scope.names[name]
        if self._is_zone_call(e):
            return [f"*g.zones[{self.zone_key(e, scope)}]"]
        if type(e) in (ast.ListLit, ir.ListOf):
            return [self.ex(i, scope) for i in e.items]
        return [f"*{self.as_list(e, scope)}"]
