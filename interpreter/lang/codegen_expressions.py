"""The code generator's expressions, written from the lowered form (lang/ir.py) by one `i_KIND`
method per kind of expression: names, selections and comprehensions written as loops,
operators, conditionals, text joins (attributes: codegen_attributes.py; calls and zones:
codegen.py). A part of `CodeGenerator` (codegen.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..errors import ValidationError
from . import ast, ir
from .codegen_scope import Scope, literal
from .codegen_tables import (
    _COMPARISONS,
    _STRICT_BUILTINS,
    NestedTooDeeply,
    _conjuncts,
)
from .kinds import called, int_written, is_join, is_selection, name_of, text_written
from .runtime import CONTEXT_NAMES

# the code of each context name (runtime.CONTEXT_NAMES)
_CONTEXT_CODE = {"self": "f.self_card", "you": "f.controller", "event": "f.event", "players": "g.players",
                 "teams": "g.rules.team_refs", "game": "g.GAME", "options": "g.OPTIONS"}


def _clause(e: ir.Select | ir.Comprehension) -> tuple[str, Any, Any]:
    """(name, source, condition) of a selection or of a comprehension of one clause."""
    if type(e) is ir.Comprehension:
        clause = e.clauses[0]
        return clause.var, clause.source, clause.condition
    return e.var, e.source, e.where


class ExpressionCode:
    """Expressions as Python, for `CodeGenerator`."""

    # ------------------------------------------------------------------ expressions
    def ex(self, e: ir.Expr | None, scope: Scope) -> str:
        """The code of a lowered expression (lang/ir.py), by its `i_KIND` method."""
        if e is None:
            return "None"
        method = getattr(self, "i_" + type(e).__name__)
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

    def lowered(self, e: ir.Expr, scope: Scope, mode: str) -> tuple[list[str], str]:
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

    def _draws(self, e: ir.Expr) -> bool:
        """Whether working out an expression may draw from the game's random generator."""
        return self.facts(e).draws

    def _strict(self, e: ir.Expr) -> bool:
        """Whether the code written for an expression works out each of its parts, every time
        (so that a selection among them may be built before): a comprehension of several
        clauses does not, nor `first` of a selection from the players (see `_each_player`)."""
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

    def _binder(self, scope: Scope, bound: list[str]) -> Callable[[ir.Expr], ir.Expr] | None:
        """While lines may be written before the statement (`lowered`): a function that works out
        an argument there, once, into a name of `scope` (listed in `bound`, for the caller to take
        out again), and gives that name; else None (see `Compiler.inline_lowered`)."""
        if self._hoisted is None:
            return None

        def bind(arg: ir.Expr) -> ir.Expr:
            value = self.ex(arg, scope)
            name = self.host._tmp()
            python = self.temp("_a")
            self._hoisted.append(f"{python} = {value}")
            scope.names[name] = python
            bound.append(name)
            return ir.Local(name, span=arg.span)
        return bind

    def _selection_in(self, e: ir.Expr, scope: Scope | None = None,
                      bound: list[str] | None = None) -> tuple[ir.Select | None, bool]:
        """The selection (in no order) that an expression is, or the call of a function whose
        body it is (then inlined: `end_inline` after; arguments worked out once before into names
        of `scope`, listed in `bound`), or None; and whether it was inlined."""
        if type(e) is ir.Call and e.name in self.names.functions:
            fn = self.names.functions[e.name]
            lowered = None if isinstance(fn.body, ast.BlockValue) else self.lowering.definition(fn).value
            if not (type(lowered) is ir.Select and lowered.order_by is None):
                return None, False  # (before arguments are worked out for it)
            binder = self._binder(scope, bound) if scope is not None and bound is not None else None
            body = self.host.inline_lowered(e.name, e.args, binder)
            return (None, False) if body is None else (body, True)
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

    def _builds_lists(self, e: ir.Node) -> bool:
        """Whether an expression holds a selection or a comprehension (in the functions it calls
        too)."""
        if type(e) is ir.Select or type(e) is ir.Comprehension and len(e.clauses) == 1:
            return True
        func = called(e)
        if func is not None and func in self.names.functions and self._through_body(
                "builds lists", func, self._builds_lists, False,
                lambda block: any(self._builds_lists(n) for n in ir.walk(block) if isinstance(n, ir.Expr))):
            return True
        return any(self._builds_lists(child) for child in ir.children(e))

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

    def _is_local(self, e: ast.Expr | ir.Expr, scope: Scope) -> bool:
        name = name_of(e)
        return name is not None and (name in scope.names or (
            name not in CONTEXT_NAMES and name not in self.names.keywords))

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

    def i_Comprehension(self, e: ir.Comprehension, scope: Scope) -> str:
        return self._one_clause(e, scope) if len(e.clauses) == 1 else self._clauses(e, scope)

    def _one_clause(self, e: ast.Comprehension | ir.Comprehension, scope: Scope) -> str:
        if self._hoisted is not None:
            return self._loop_list(e, scope)
        var, e_source, condition = _clause(e)
        source = self.iterable(e_source, scope)
        inner, py = self._bound(scope, var, e_source)
        element = self.ex(e.element, inner)
        cond = f" if {self.ex(condition, inner)}" if condition is not None else ""
        self._merge(scope, inner)
        return f"[{element} for {py} in {source}{cond}]"

    def _clauses(self, e: ast.MultiComprehension | ir.Comprehension, scope: Scope) -> str:
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

    def i_Select(self, e: ast.Select, scope: Scope) -> str:
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

    def i_Ask(self, e: ast.Choose | ir.Ask, scope: Scope) -> str:
        var = self.choices.get(id(e))
        if var is None:
            raise ValidationError("'choose' is not allowed here (only in statements of effects)", e.span)
        if var.startswith("_c"):  # (asked already, in the rollout form: a Python local)
            return var
        scope.uses_frame_locals = True
        return f"L[{literal(var)}]"

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

    def i_BinOp(self, e: ast.BinOp, scope: Scope) -> str:
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
            body = self.host.inline_lowered(func, e.args, self._binder(scope, bound))
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
