"""Generate Python functions from checked expressions and non-suspending statements.

Expressions, runs of statements that cannot stop for a decision, user functions and procedures
that never suspend are turned into Python source at load time and compiled once, so that a
rule runs as ordinary Python code rather than as a tree of small closures.

What reaches the generated source is built here, never copied from a rule file: identifiers are
made by this module (`v_` plus a name the grammar already restricted to letters, digits and
underscores, or a counter), numbers are written as numbers, and every other value read from a
file (strings, spans, card names) is handed to the code as a constant in its namespace. The
functions run with an empty set of Python built-ins apart from the few listed in `ALLOWED_BUILTINS`.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from typing import Any

from ..errors import Span, ValidationError
from . import ast
from .analysis import children, local_bindings, value_calls
from .codegen_scope import IDENTIFIER as _IDENTIFIER
from .codegen_scope import Scope, identifier, literal
from .kinds import refuse
from .rollout import RolloutStatements
from .runtime import BINOPS, BUILTIN_FUNCTIONS, CONTEXT_NAMES, Frame, _as_list, _index
from .value_kinds import ValueKinds
from .values import (
    ATTACHED,
    CARD_PROPERTIES,
    CONTROLLER,
    OWNER,
    PART,
    AbilityRef,
    CardRef,
    Labelled,
    PlayerRef,
    ZoneKey,
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

# Built-in functions that always give a new list.


class NestedTooDeeply(ValidationError):
    """Rule code whose Python form nests more loops than Python allows (20)."""


class Namespace:
    """The globals the generated functions share: helpers, constants, and each other."""

    def __init__(self) -> None:
        self.values: dict[str, Any] = {
            "__builtins__": ALLOWED_BUILTINS, "_as_list": _as_list, "_index": _index, "_head": _head,
            "_is_int": _is_int, "_is_of_type": _is_of_type,
            "_plus": BINOPS["+"], "_floordiv": BINOPS["/"], "_mod": BINOPS["%"], "_CardRef": CardRef,
            "_PlayerRef": PlayerRef, "_AbilityRef": AbilityRef,
            "_Labelled": Labelled, "_ONE": (0,), "_refuse": refuse,
        }
        for name, (_lo, _hi, fn) in BUILTIN_FUNCTIONS.items():
            self.values["_bf_" + name] = fn
        self._by_id: dict[int, str] = {}
        self._files = 0
        self.line_spans: dict[str, list[Span | None]] = {}
        self.sources: dict[str, str] = {}  # generated source by file name, to read when debugging

    def constant(self, value: Any) -> str:
        """The name under which generated code finds a value (each value is stored once)."""
        key = id(value)
        name = self._by_id.get(key)
        if name is None or self.values.get(name) is not value:
            name = f"_k{len(self._by_id)}"
            self._by_id[key] = name
            self.values[name] = value
        return name

    def define(self, fn_name: str, params: list[str], lines: list[Line], label: str) -> None:
        """Compile one function into the namespace; its lines' spans locate errors raised in it."""
        self._files += 1
        filename = f"<cardrules {self._files}: {re.sub(r'[^A-Za-z0-9_ /#.:-]', '?', label)}>"
        source = f"def {fn_name}({', '.join(params)}):\n" + "".join(f"    {text}\n" for text, _span in lines)
        spans = self.line_spans[filename] = [None, None] + [span for _text, span in lines]  # line 1: the def
        self.sources[filename] = source
        try:
            code = compile(source, filename, "exec")
        except SyntaxError as err:  # what rule code can meet: Python's limit of 20 nested blocks
            if "nested" not in err.msg:
                raise  # (anything else is the compiler's own mistake)
            del self.sources[filename], self.line_spans[filename]  # (nothing of it was defined)
            span = spans[err.lineno] if err.lineno is not None and err.lineno < len(spans) else None
            raise NestedTooDeeply(f"{label}: {err.msg}: loops (and loops that may stop for a decision, "
                                  "with what is resumed inside them) are nested too deeply here", span) from None
        exec(code, self.values)  # noqa: S102  (source built by this module)

    def span_of(self, error: BaseException) -> Span | None:
        """The span of the rule statement running where an error was raised (innermost first)."""
        spans = self.spans_of(error)
        return spans[-1] if spans else None

    def span_running(self) -> Span | None:
        """The span of the innermost rule statement running now, read from the Python stack: for
        an error the engine raises on behalf of rule code without being given a span."""
        frame = sys._getframe(1)
        while frame is not None:
            table = self.line_spans.get(frame.f_code.co_filename)
            if table is not None and frame.f_lineno < len(table) and table[frame.f_lineno] is not None:
                return table[frame.f_lineno]
            frame = frame.f_back
        return None

    def spans_of(self, error: BaseException) -> list[Span]:
        """The spans of the rule statements running where an error was raised, outermost first."""
        found = []
        tb = error.__traceback__
        while tb is not None:
            table = self.line_spans.get(tb.tb_frame.f_code.co_filename)
            if table is not None and tb.tb_lineno < len(table) and table[tb.tb_lineno] is not None:
                found.append(table[tb.tb_lineno])
            tb = tb.tb_next
        return found


Line = tuple  # (source text, the Span of the rule statement it comes from, or None)


def indent(lines: list[Line], depth: int = 1) -> list[Line]:
    pad = "    " * depth
    return [(pad + text, span) for text, span in lines]


class CodeGenerator(ValueKinds, RolloutStatements):
    """Writes Python source for expressions and native statements, given the names of a ruleset
    (and, on first use, every block in its rollout form: see `rollout`).

    `host` is the compiler: it knows which procedures are native and how to inline functions."""

    def __init__(self, host: Any) -> None:
        self.host = host
        self.names = host.names
        self.ns = Namespace()
        self._counter = 0
        self.choices: dict[int, str] = {}  # the temporary local holding each lifted choose's answer
        self._iterable_depth = 0
        self._visiting: set[tuple[str, str]] = set()  # (analysis, function) under way: see `_through_body`
        self._row_tables: dict[str, str] = {}  # zone name -> constant: (seat, row) -> zone key
        self.stop_breaks = False  # in resumable code: `stop` leaves an inlined procedure's statements
        self._end_check_names: dict[str, str] = {}  # event -> the constant naming its `end_checks`
        self._hoisted: list[str] | None = None  # lines a statement runs first (see `lowered`), if allowed
        self.loops = True  # whether `lowered` may write loops (see `loops_if_they_fit`)
        # what `return` does in the code being written: "value" (a Python function's value: a
        # procedure that never suspends, a function's block, the rollout form), "register" (the
        # value left in `g.returned` for the caller, on every way out: a resumable procedure, the
        # replacement of a procedure that gives one), None (no value)
        self.returning: str | None = None

    # ------------------------------------------------------------------ entry points
    def expression_function(self, e: ast.Expr, subst: dict[int, str], name: str = "expr") -> Callable:
        scope = Scope(frame=True)
        self.choices = subst
        body = self.ex(e, scope)
        return self.compile_lines(name, ["g", "f"], [(f"return {body}", e.span)], scope)

    def define_procedure(self, name: str, proc: ast.Procedure) -> None:
        """A procedure that never suspends, as `p_NAME(g, f, params...)` (f: the caller's frame)."""
        self.loops_if_they_fit(lambda: self._define_procedure(name, proc))

    def _define_procedure(self, name: str, proc: ast.Procedure) -> None:
        params = [identifier(p) for p in proc.params]
        scope = Scope(frame=False, names=dict(zip(proc.params, params)),
                      players=self.player_names(proc.body, proc.params),
                      lists=self.list_names(proc.body, proc.params))
        self.choices = {}
        outer, self.returning = self.returning, "value"
        try:
            lines = self.statements(proc.body, scope, loop_depth=0, mode="pure") or [("pass", None)]
        finally:
            self.returning = outer
        if name in self.names.replaced_procedures:  # (every replacement of it runs natively too)
            values = ", ".join(f"{literal(p)}: {identifier(p)}" for p in proc.params)
            done = "    return g.returned" if name in self.host.value_procedures else "    return"
            lines = [(f"if g.replace_now({literal(name)}, {{{values}}}, f):", proc.span), (done, proc.span), *lines]
        self._define("p_" + self._check(name), ["g", "f", *params], lines, f"procedure {name}")

    def define_function(self, name: str, fn: ast.Function) -> None:
        if isinstance(fn.body, ast.BlockValue):  # statements, as a procedure's that never suspends
            self.loops_if_they_fit(lambda: self._define_block_function(name, fn))
            return
        params = [identifier(p) for p in fn.params]
        scope = Scope(frame=False, names=dict(zip(fn.params, params)))
        self.choices = {}
        body = self.ex(fn.body, scope)
        self._define("fn_" + self._check(name), ["g", "f", *params], [(f"return {body}", fn.body.span)],
                     f"function {name}")

    def _define_block_function(self, name: str, fn: ast.Function) -> None:
        assert isinstance(fn.body, ast.BlockValue)
        body = fn.body.body
        params = [identifier(p) for p in fn.params]
        distinct = self.distinct_names(body, fn.params)
        scope = Scope(frame=False, names=dict(zip(fn.params, params)), players=self.player_names(body, fn.params),
                      lists=self.list_names(body, fn.params), distinct=distinct)
        scope.card_lists = frozenset(name for name, tags in distinct.items()
                                     if tags and all(tag[0] == "zone" for tag in tags))
        self.choices = {}
        outer, self.returning = self.returning, "value"
        try:
            lines = self.statements(body, scope, loop_depth=0, mode="pure") or [("pass", None)]
        finally:
            self.returning = outer
        self._define("fn_" + self._check(name), ["g", "f", *params], lines, f"function {name}")

    def function(self, name: str) -> Callable:
        return self.ns.values["fn_" + name]

    def procedure(self, name: str) -> Callable:
        return self.ns.values["p_" + name]

    # ------------------------------------------------------------------ plumbing
    def _check(self, name: str) -> str:
        if not _IDENTIFIER.fullmatch(name) or name.startswith("$"):
            raise AssertionError(f"not an identifier: {name!r}")
        return name

    def temp(self, prefix: str = "_t") -> str:
        """A fresh Python name for generated code (never one a rule file could give)."""
        assert prefix != "_k", "_k names the namespace's constants"
        self._counter += 1
        return f"{prefix}{self._counter}"

    def compile_lines(self, name: str, params: list[str], lines: list[Line], scope: Scope) -> Callable:
        """Compile the body lines of one function and return the function."""
        fn_name = self.temp("_g")
        if scope.uses_frame_locals:
            lines = [("L = f.locals", None), *lines]
        self._define(fn_name, params, lines, name)
        return self.ns.values.pop(fn_name)

    def _define(self, fn_name: str, params: list[str], lines: list[Line], label: str) -> None:
        self.ns.define(fn_name, params, lines, label)

    def const(self, value: Any) -> str:
        if value is None or type(value) is bool:
            return repr(value)
        if type(value) is int:
            return repr(value)
        return self.ns.constant(value)

    # ------------------------------------------------------------------ expressions
    def ex(self, e: ast.Expr | None, scope: Scope) -> str:
        if e is None:
            return "None"
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

    def _draws(self, e: ast.Expr) -> bool:
        """Whether working out an expression may draw from the game's random generator."""
        if isinstance(e, ast.Call):
            if e.func in self.names.functions:
                if self._through_body("draws", e.func, self._draws, False):
                    return True
            elif e.func in ("random", "shuffled"):
                return True
        return any(self._draws(child) for child in children(e))

    def _strict(self, e: ast.Expr) -> bool:
        """Whether the code written for an expression works out each of its parts, every time
        (so that a selection among them may be built before)."""
        if isinstance(e, (ast.Select, ast.Comprehension, ast.Not, ast.Neg, ast.Attribute, ast.Index, ast.ListLit)):
            return True
        if isinstance(e, ast.BinOp):  # (`and`, `or`: see `_short_circuit`)
            return e.op in ("+", "-", "*", "/", "%", "and", "or") or e.op in _COMPARISONS
        if isinstance(e, ast.Call):
            if e.func == "first" and len(e.args) == 1 and self._over_players(e.args[0], Scope(False)):
                return False  # (its tests are worked out until one holds: see `_each_player`)
            return e.func in self.names.functions or e.func in self.names.zones or e.func in _STRICT_BUILTINS
        return False

    def _loop_list(self, e: ast.Select | ast.Comprehension, scope: Scope, kind: str = "list") -> str:
        """A selection or comprehension worked out by a loop, in lines before the statement (see
        `lowered`); the name that holds the list, or (`kind`) its count or whether it has an item
        ('count', 'exists': no list is made). The tests of its condition joined by `and` are
        nested ifs, each with what it always works out built before it, in the loop. A selection
        from a selection (or from a function that gives one) is one loop, with the tests of both."""
        bound: list[str] = []
        first, inlined = self._selection_in(e.source, scope, bound)
        try:
            return self._loop(e, first, scope, kind)
        finally:
            if inlined:
                self.host.end_inline()
            for name in bound:
                del scope.names[name]

    def _binder(self, scope: Scope, bound: list[str]) -> Callable[[ast.Expr], ast.Expr] | None:
        """While lines may be written before the statement (`lowered`): a function that works out
        an argument there, once, into a name of `scope` (listed in `bound`, for the caller to take
        out again), and gives that name; else None (see `Compiler.inline_call`)."""
        if self._hoisted is None:
            return None

        def bind(arg: ast.Expr) -> ast.Expr:
            value = self.ex(arg, scope)
            name = self.host._tmp()
            python = self.temp("_a")
            self._hoisted.append(f"{python} = {value}")
            scope.names[name] = python
            bound.append(name)
            return ast.Name(name, span=arg.span)
        return bind

    def _selection_in(self, e: ast.Expr, scope: Scope | None = None,
                      bound: list[str] | None = None) -> tuple[ast.Select | None, bool]:
        """The selection (in no order) that an expression is, or the call of a function whose
        body it is (then inlined: `end_inline` after; arguments worked out once before into names
        of `scope`, listed in `bound`), or None; and whether it was inlined."""
        if isinstance(e, ast.Call) and e.func in self.names.functions:
            written = self.names.functions[e.func].body
            if not (isinstance(written, ast.Select) and written.order_by is None):
                return None, False  # (before arguments are worked out for it)
            body = self.host.inline_call(e.func, e.args,
                                         self._binder(scope, bound) if scope is not None and bound is not None else None)
            if body is None:
                return None, False
            return body, True
        return (e, False) if isinstance(e, ast.Select) and e.order_by is None else (None, False)

    def _loop(self, e: ast.Select | ast.Comprehension, first: ast.Select | None, scope: Scope, kind: str) -> str:
        """`_loop_list` of e, whose items come from the selection `first` if not None."""
        condition = e.where if isinstance(e, ast.Select) else e.condition
        if first is not None:
            source = self.iterable(first.source, scope)
            taken, py = self._bound(scope, first.var, first.source)
            inner, _ = self._bound(scope, e.var, e.source, py)
            tests = self._narrowing(_conjuncts(first.where), taken) + self._narrowing(_conjuncts(condition), inner)
            self._merge(scope, taken)
        else:
            source = self.iterable(e.source, scope)
            inner, py = self._bound(scope, e.var, e.source)
            tests = self._narrowing(_conjuncts(condition), inner)
        order = e.order_by if isinstance(e, ast.Select) else None
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
            if isinstance(e, ast.Comprehension):
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
        if isinstance(e, ast.BinOp) and e.op == "or":
            left, right = self._types_tested(e.left, scope), self._types_tested(e.right, scope)
            if left is None or right is None or left[0] != right[0]:
                return None
            return left[0], left[1] | right[1]
        if (isinstance(e, ast.IsType) and not e.negated and e.type_name in self.names.card_types
                and self._is_card(e.operand, scope)):
            return e.operand.id, frozenset((e.type_name,))
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
        if isinstance(e, (ast.Select, ast.Comprehension)):
            return True
        if isinstance(e, ast.Call) and e.func in self.names.functions and self._through_body(
                "builds lists", e.func, self._builds_lists, False):
            return True
        return any(self._builds_lists(child) for child in children(e))

    def _counted(self, e: ast.BinOp, scope: Scope) -> str | None:
        """`count(S) > 0` and the like of a selection S, while `lowered`: whether S has an item,
        by a loop that stops at the first."""
        if not (isinstance(e.left, ast.Call) and e.left.func == "count" and "count" not in self.names.functions
                and len(e.left.args) == 1 and isinstance(e.right, ast.IntLit)):
            return None
        test = (e.op, e.right.value)
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
        context = {"self": "f.self_card", "you": "f.controller", "event": "f.event", "players": "g.players",
                   "game": "g.GAME", "options": "g.OPTIONS"}.get(name)
        if context is not None:
            return context
        if name in self.names.keywords:
            return self.const(name)
        return scope.get(name)

    def _is_local(self, e: ast.Expr, scope: Scope) -> bool:
        return isinstance(e, ast.Name) and (e.id in scope.names or (
            e.id not in CONTEXT_NAMES and e.id not in self.names.keywords))

    def x_Attribute(self, e: ast.Attribute, scope: Scope) -> str:
        attr = literal(e.name)
        if isinstance(e.obj, ast.Name) and e.obj.id not in scope.names:
            if e.obj.id == "game":
                return f"g.globals[{attr}]"
            if e.obj.id == "options":
                return f"g.options[{attr}]"
            if e.obj.id == "event":
                return f"f.event.get({attr})"
        obj = self.ex(e.obj, scope)
        modified = self.names.modified_attributes
        if self.is_player(e.obj, scope):
            if e.name == "seat":
                return f"{obj}.seat"
            if self._player_attribute_read(e, scope):
                if isinstance(e.obj, ast.Index):  # players[K]
                    return f"g.player_attrs[{e.obj.index.value - 1}][{attr}]"
                return f"{_player_attrs(obj)}[{attr}]"
        if self._is_card(e.obj, scope):
            return self._card_attribute(e, obj, attr, scope.types.get(e.obj.id))
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
        simple = isinstance(e.obj, ast.Name)
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
        return (f"({stored}[{attr}] if type({obj}) is _CardRef and ({stored} := g.attrs.get({held}.id)) is not None "
                f"and {attr} in {stored} else g.read({held}, {attr}))")

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
        if types is not None and all(e.name in self.names.type_attributes[t] for t in types):
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
        if self.new_list(e) or self.is_player_list(e, scope) and isinstance(e, ast.Name):
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
        abilities = (isinstance(source, ast.Call) and source.func == "abilities"
                     and "abilities" not in self.names.functions)
        inner.abilities = scope.abilities | {var} if abilities else scope.abilities - {var}
        inner.card_lists = scope.card_lists - {var}
        return inner, py

    def _merge(self, scope: Scope, inner: Scope) -> None:
        scope.uses_frame_locals = scope.uses_frame_locals or inner.uses_frame_locals

    def x_Comprehension(self, e: ast.Comprehension, scope: Scope) -> str:
        if self._hoisted is not None:
            return self._loop_list(e, scope)
        source = self.iterable(e.source, scope)
        inner, py = self._bound(scope, e.var, e.source)
        element = self.ex(e.element, inner)
        cond = f" if {self.ex(e.condition, inner)}" if e.condition is not None else ""
        self._merge(scope, inner)
        return f"[{element} for {py} in {source}{cond}]"

    def x_MultiComprehension(self, e: ast.MultiComprehension, scope: Scope) -> str:
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

    def x_Choose(self, e: ast.Choose, scope: Scope) -> str:
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
        v, t = self.ex(e.operand, scope), e.type_name
        test = {
            "player": f"isinstance({v}, _PlayerRef)", "card": f"isinstance({v}, _CardRef)",
            "list": f"isinstance({v}, list)", "none": f"({v} is None)", "int": f"_is_int({v})",
            "text": f"isinstance({v}, str)", "bool": f"isinstance({v}, bool)",
            "ability": f"isinstance({v}, _AbilityRef)",
        }.get(t)
        if test is None and (self._is_card(e.operand, scope) or self._is_handle(e.operand, scope)):
            test = f"{v}.defn.type == {self.const(t)}"
        elif test is None and isinstance(e.operand, ast.Name):  # a card type of the ruleset
            test = f"(type({v}) is _CardRef and {v}.defn.type == {self.const(t)})"
        elif test is None:
            test = f"_is_of_type({v}, {self.const(t)})"
        return f"(not {test})" if e.negated else f"({test})"

    def x_BinOp(self, e: ast.BinOp, scope: Scope) -> str:
        op = e.op
        if self._hoisted is not None and op in ("and", "or"):
            return self._short_circuit(e, scope)
        if self._hoisted is not None and op in _COMPARISONS:
            found = self._counted(e, scope)
            if found is not None:
                return found
        if (op == "in" and isinstance(e.right, ast.BinOp) and e.right.op == "+" and isinstance(e.left, ast.Name)
                and self.is_list(e.right.left) and self.is_list(e.right.right)):
            # in one list or the other: no joined list to build
            return (f"({self.ex(ast.BinOp('in', e.left, e.right.left), scope)} or "
                    f"{self.ex(ast.BinOp('in', e.left, e.right.right), scope)})")
        if op == "in" and isinstance(e.right, ast.Call) and e.right.func in self.names.zones and (
                not self._iterable_depth or isinstance(e.left, ast.Name)):
            # membership by the card's zone (O(1)), not a search of the zone's list
            left = self.ex(e.left, scope)
            held = left if isinstance(e.left, ast.Name) else self.temp("_w")
            card = f"type({left if held == left else f'({held} := {left})'}) is _CardRef"
            spec = self.names.zones[e.right.func]
            if self._is_zone_call(e.right):
                return f"({card} and g.card_zone.get({held}.id) == {self.zone_key(e.right, scope)})"
            if not e.right.args:  # every player's (and every row's) cards of that zone
                return f"({card} and {held}.id in g.card_zone and g.card_zone[{held}.id][0] == {literal(e.right.func)})"
            if (spec.rows and spec.per_player and len(e.right.args) == 1 and self.is_player(e.right.args[0], scope)
                    and not self._iterable_depth):
                # all rows of a player's side
                key = self.temp("_w")
                return (f"({card} and ({key} := g.card_zone.get({held}.id)) is not None and {key}[0] == "
                        f"{literal(e.right.func)} and {key}[1] == {self.ex(e.right.args[0], scope)}.seat)")
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
            if isinstance(e.left, ast.IntLit) or isinstance(e.right, ast.IntLit) or (
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
        if isinstance(e, ast.StrLit):
            return [e]
        if (isinstance(e, ast.Call) and e.func == "text" and "text" not in self.names.functions
                and len(e.args) == 1):
            return [e]
        if isinstance(e, ast.BinOp) and e.op == "+":
            left, right = self._text_pieces(e.left), self._text_pieces(e.right)
            return left + right if left is not None and right is not None else None
        return None

    def _is_join(self, e: ast.Expr) -> bool:
        return isinstance(e, ast.BinOp) and e.op == "+" and (self.new_list(e.left) or self.new_list(e.right))

    def _joined_items(self, e: ast.Expr, scope: Scope) -> list[str]:
        """The items of a list display that joins the lists a chain of `+` joins, through the
        functions it calls that join lists too: a zone's own list and a list that is not a list
        literal unpacked (`*`), a list literal's items written out."""
        if self._is_join(e):
            return self._joined_items(e.left, scope) + self._joined_items(e.right, scope)
        if isinstance(e, ast.Call) and e.func in self.names.functions:
            bound: list[str] = []
            body = self.host.inline_call(e.func, e.args, self._binder(scope, bound))
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
        if isinstance(e, ast.ListLit):
            return [self.ex(i, scope) for i in e.items]
        return [f"*{self.as_list(e, scope)}"]

    # ------------------------------------------------------------------ calls and zones
    def _is_zone_call(self, e: ast.Expr) -> bool:
        """A reference to one zone (a player's, or a shared zone without rows)."""
        if not (isinstance(e, ast.Call) and e.func in self.names.zones):
            return False
        spec = self.names.zones[e.func]
        if spec.per_player:  # a player's zone, and its row if it has rows
            return len(e.args) == (2 if spec.rows else 1)
        return len(e.args) == (1 if spec.rows else 0)

    def x_Call(self, e: ast.Call, scope: Scope) -> str:
        func = e.func
        if func in self.names.zones:
            spec = self.names.zones[func]
            if not e.args and not spec.per_player and not spec.rows:
                return f"list(g.zones[{self.const(ZoneKey(func, 0, ''))}])"
            if not e.args:  # every player's zone (and every row), in the engine's key order
                keys = self.names.zone_keys_by_name[func]
                if len(keys) > 8:
                    return f"g.zone_cards_all({literal(func)})"
                return "[" + ", ".join(f"*g.zones[{self.const(k)}]" for k in keys) + "]"
            if spec.rows and spec.per_player and len(e.args) == 1:  # a player's side: every row
                return f"g.zone_cards_of({literal(func)}, {self.ex(e.args[0], scope)})"
            return f"list(g.zones[{self.zone_key(e, scope)}])"
        if func in self.names.functions:
            bound: list[str] = []
            inlined = self.host.inline_call(func, e.args, self._binder(scope, bound))
            if inlined is not None:
                try:
                    return self.ex(inlined, scope)
                finally:
                    self.host.end_inline()
                    for name in bound:
                        del scope.names[name]
            args = "".join(", " + self.ex(a, scope) for a in e.args)
            return f"fn_{self._check(func)}(g, f{args})"
        if func in self.names.procedures:  # a procedure's value: asked before the statement
            var = self.choices.get(id(e))
            if var is None:
                raise ValidationError(f"procedure {func!r} gives its value only in an effect's statements", e.span)
            if var.startswith("_"):  # (a Python local of the code being written)
                return var
            scope.uses_frame_locals = True
            return f"L[{literal(var)}]"
        if func in ("count", "first") and len(e.args) == 1 and self._over_players(e.args[0], scope):
            return self._each_player(func, e.args[0], scope)
        if self._hoisted is not None and func in ("count", "any", "is_empty") and len(e.args) == 1:
            found = self._loop_of(e.args[0], scope, "count" if func == "count" else "exists")
            if found is not None:  # (no list made: see `lowered`)
                return found if func != "is_empty" else f"(not {found})"
        if func in _READ_ONLY_ARGUMENT and len(e.args) == 1 and self._is_zone_call(e.args[0]):
            zone = f"g.zones[{self.zone_key(e.args[0], scope)}]"  # (no copy of the zone)
            if func == "abilities" and self.names.zones[e.args[0].func].active:
                return f"g.activatable_in({zone})"  # cards of an active zone: where they are is known
            return _INLINE_BUILTINS[func](zone)
        if (func == "first" and len(e.args) == 1 and isinstance(e.args[0], ast.Call) and e.args[0].func == "others"
                and "others" not in self.names.functions and self.names.player_count >= 2
                and not self._iterable_depth):  # the first other player, without listing them
            p, held = self.ex(e.args[0].args[0], scope), self.temp("_w")
            if self.is_player(e.args[0].args[0], scope):
                return f"g.players[{p}.seat == 1]"  # (seat 1: the second player, index True)
            return (f"(g.players[1 if {held}.seat == 1 else 0] if type({held} := {p}) is _PlayerRef "
                    f"else _head(_bf_others(g, {held})))")
        if func == "labelled" and all(isinstance(a, (ast.StrLit, ast.IntLit, ast.BoolLit)) for a in e.args):
            return self.const(Labelled(e.args[0].value, str(e.args[1].value)))  # (never changed: shared)
        if func == "labelled" and len(e.args) == 2 and not isinstance(e.args[1], ast.StrLit):
            pieces = self._text_pieces(e.args[1])
            if pieces is not None:  # text and texts of values: joined when first read
                written = [self.const(p.value) if isinstance(p, ast.StrLit) else self.ex(p.args[0], scope)
                           for p in pieces]
                return f"_Labelled({self.ex(e.args[0], scope)}, None, (g, ({', '.join(written)},)))"
        if func == "ability_card" and isinstance(e.args[0], ast.Name):
            a = self.ex(e.args[0], scope)
            if e.args[0].id in scope.abilities:
                return f"{a}.card"
            return f"({a}.card if isinstance({a}, _AbilityRef) else None)"
        if (func == "ability_cost" and isinstance(e.args[0], ast.Name) and e.args[0].id in scope.abilities
                and not self._iterable_depth):
            a, fixed = self.ex(e.args[0], scope), self.temp("_w")
            return f"({fixed} if ({fixed} := {a}.ability.fixed_cost) is not None else g.ability_cost({a}))"
        if func in ("max_of", "min_of") and not (len(e.args) == 1 and isinstance(e.args[0], ast.Name)):
            return f"_bf_{func}(g, {self.ex(e.args[0], scope)})"
        if func in _LIST_ARGUMENTS:
            args = [self.as_list(a, scope) for a in e.args]
        else:
            args = [self.ex(a, scope) for a in e.args]
        inline = _INLINE_BUILTINS.get(func)
        if inline is not None:
            return inline(*args)
        return f"_bf_{self._check(func)}(g{''.join(', ' + a for a in args)})"

    def _over_players(self, e: ast.Expr, scope: Scope) -> bool:
        """A selection from `players` itself (a list of a known, small length)."""
        return (isinstance(e, ast.Select) and isinstance(e.source, ast.Name) and e.order_by is None
                and e.where is not None and self.is_player_list(e.source, scope) and self.names.player_count <= 4)

    def _each_player(self, func: str, sel: ast.Select, scope: Scope) -> str:
        """count(...) or first(...) of a selection from the players, its test written once per
        player: no list is made."""
        tests = []
        for i in range(self.names.player_count):
            inner = Scope(scope.frame, {**scope.names, sel.var: f"g.players[{i}]"}, scope.players | {sel.var},
                          scope.lists - {sel.var}, scope.cards - {sel.var})
            inner.uses_frame_locals = scope.uses_frame_locals
            tests.append(self.ex(sel.where, inner))
            self._merge(scope, inner)
        if func == "count":
            return "(" + " + ".join(f"(1 if {t} else 0)" for t in tests) + ")"
        return "(" + " else ".join(f"g.players[{i}] if {t}" for i, t in enumerate(tests)) + " else None)"

    def zone_key(self, e: ast.Expr, scope: Scope) -> str:
        """Source for the key of a zone reference `name(player[, row])` or `name()`."""
        if not (isinstance(e, ast.Call) and e.func in self.names.zones):
            raise ValidationError("expected a zone, such as hand(you)", e.span)
        name, spec = e.func, self.names.zones[e.func]
        args = [self.ex(a, scope) for a in e.args]
        if not args and not spec.per_player and not spec.rows:
            return self.const(ZoneKey(name, 0, ""))
        if not args:
            return f"g.zone_key({literal(name)}, None, None)"
        fixed_row = len(args) == 2 and isinstance(e.args[1], ast.StrLit) and e.args[1].value in spec.rows
        if (len(args) == 1 and not spec.rows or fixed_row) and spec.per_player and (
                isinstance(e.args[0], ast.Name) or not self._iterable_depth or self.is_player(e.args[0], scope)):
            # each seat's key, made once (for a row named in the code, that row's)
            row = e.args[1].value if fixed_row else ""
            keys = self.const((None, *(ZoneKey(name, seat, row) for seat in range(1, self.names.player_count + 1))))
            p = held = args[0]
            if self.is_player(e.args[0], scope):
                return f"{keys}[{p}.seat]"
            if not isinstance(e.args[0], ast.Name):
                held = self.temp("_w")
                p = f"({held} := {p})"
            return (f"({keys}[{held}.seat] if type({p}) is _PlayerRef "
                    f"else g.zone_key({literal(name)}, {held}, {args[1] if fixed_row else None}))")
        if len(args) == 1:
            return f"g.zone_key({literal(name)}, {args[0]}, None)"
        if spec.per_player and spec.rows:  # the keys made once: (seat, row) -> key
            table = self._row_tables.get(name)
            if table is None:
                table = self._row_tables[name] = self.const({
                    (seat, row): ZoneKey(name, seat, row)
                    for seat in range(1, self.names.player_count + 1) for row in spec.rows})
            return f"g.row_zone_key({table}, {literal(name)}, {args[0]}, {args[1]})"
        return f"g.zone_key({literal(name)}, {args[0]}, {args[1]})"

    # ------------------------------------------------------------------ statements
    def statements(self, body, scope: Scope, loop_depth: int, mode: str) -> list[Line]:
        """Lines for statements that cannot suspend, each tagged with its statement's span.

        mode: 'pure' (a procedure: `stop` returns) or 'frame' (inside a resumable function: see
        `resumable`)."""
        lines: list[Line] = []
        for s in body:
            lines.extend(self.statement(s, scope, loop_depth, mode))
        return lines

    def statement(self, s: ast.Stmt, scope: Scope, loop_depth: int, mode: str) -> list[Line]:
        if self.rollout:
            return self.rollout_statement(s, scope, loop_depth, mode)
        before = [] if isinstance(s, ast.While) else self.valued_calls(value_calls(s, self.host.value_procedures),
                                                                      scope, mode)
        produced = [*before, *getattr(self, "s_" + type(s).__name__)(s, scope, loop_depth, mode)]
        if isinstance(s, (ast.Win, ast.Lose, ast.Tie, ast.Emit, ast.CallStmt)) and self.host.may_end(s):
            produced = [*produced, "if g.halted:", "    return" if mode == "pure" else "    return None"]
        return [line if type(line) is tuple else (line, s.span) for line in produced]

    def _block(self, body, scope: Scope, loop_depth: int, mode: str) -> list[Line]:
        return indent(self.statements(body or (), scope, loop_depth, mode)) or [("    pass", None)]

    def valued_calls(self, calls: list[ast.Call], scope: Scope, mode: str) -> list[str]:
        """Lines that call these procedures (that never suspend), innermost first, each value in
        a Python local (in `choices`), stopping there if one ends the game: a procedure's value is
        worked out before its statement, as a `choose` is."""
        lines = []
        form = "r_" if self.rollout else "p_"
        for call in calls:
            if id(call) in self.choices:  # (called already, before a statement that may suspend)
                continue
            var = self.temp("_r")
            before, args = self.arguments(call, scope, "frame" if mode == "frame" else "pure")
            lines += [*before, f"{var} = {form}{self._check(call.func)}(g, f{''.join(', ' + a for a in args)})"]
            if self.rollout or call.func in self.host.ending_procedures:
                lines += ["if g.halted:", "    return" if mode == "pure" else "    return None"]
            self.choices[id(call)] = var
        return lines

    def s_Let(self, s: ast.Let, scope, loop_depth, mode):
        before, value = self.lowered(s.value, scope, mode)
        return [*before, f"{scope.bind(s.name)} = {value}"]

    def s_Assign(self, s: ast.Assign, scope, loop_depth, mode):
        before, value = self.lowered(s.value, scope, mode)
        target = s.target
        if s.op == "=" and isinstance(target, ast.Attribute):
            if isinstance(target.obj, ast.Name) and target.obj.id == "game" and "game" not in scope.names:
                value = self.typed(value, s.value, ("game", target.name), scope)
            else:
                value = self.typed(value, s.value, ("attribute", target.name), scope)
        return [*before, *self._assigned(s, value, scope)]

    def typed(self, value: str, e: ast.Expr, slot: tuple[str, str], scope: Scope) -> str:
        """The source of a value written into a typed global or attribute: tested to be of its
        type (else the game stops at the statement) unless the code says what kind it is (the
        checker has refused a wrong kind at load)."""
        held = self.names.held.get(slot)
        if held is None or self.names.kinds is None or self.names.kinds.of(e, scope.names.keys()) is not None:
            return value
        v = self.temp("_v")
        return f"({v} if type({v} := {value}) in {self.const(held.types)} else _refuse({v}, {self.const(held)}, g))"

    def _assigned(self, s: ast.Assign, value: str, scope: Scope) -> list[str]:
        target = s.target
        if isinstance(target, ast.Name):
            var = scope.bind(target.id)
            if s.op == "=":
                return [f"{var} = {value}"]
            return [f"{var} = {var} {'+' if s.op == '+=' else '-'} {value}"]
        assert isinstance(target, ast.Attribute)
        attr = literal(target.name)
        obj = self.ex(target.obj, scope)
        if target.name in self.names.enumerated_attributes:  # every write checked against `values:`
            o = self.temp()
            new = value if s.op == "=" else f"g.read_base({o}, {attr}) {'+' if s.op == '+=' else '-'} {value}"
            return [f"{o} = {obj}", f"g.write({o}, {attr}, g.allowed_value({o}, {attr}, {new}))"]
        limits = self.names.limited_attributes.get(target.name)
        if target.name in self.names.plain_attributes or limits is not None:
            return self._plain_write(target, obj, attr, s.op, value, scope, limits)
        if target.name in self.names.player_attributes and self.is_player(target.obj, scope):
            # a player's: set in place within the players' limits, as `g.write` does; static
            # abilities that read it look again
            store = f"{_player_attrs(obj)}[{attr}]"
            new = value if s.op == "=" else f"{store} {'+' if s.op == '+=' else '-'} {value}"
            lo, hi = self.names.player_limits.get(target.name) or (None, None)
            new = f"max({lo!r}, {new})" if lo is not None else new
            new = f"min({hi!r}, {new})" if hi is not None else new
            return [f"{store} = {new}", *(["g.version += 1"] if target.name in self.names.static_reads else [])]
        if s.op == "=":
            if target.name in ("part", "controller"):
                return self._placing_write(target.name, obj, value)
            return [f"g.write({obj}, {attr}, {value})"]
        o = self.temp()
        return [f"{o} = {obj}", f"g.write({o}, {attr}, g.read_base({o}, {attr}) {'+' if s.op == '+=' else '-'} {value})"]

    def _placing_write(self, name: str, obj: str, value: str) -> list[str]:
        """Set a card's part or controller in place, as `g.write` does (which handles every
        other value): what its abilities do and where they work may change with it."""
        o, d = self.temp(), self.temp("_d")
        store = self.const(_STORED_PROPERTIES[name])
        rearranged = (f"    g._rearranged({o}.defn)" if name in self.names.static_reads else
                      f"    if g.card_zone[{o}.id][0] in {self.const(self.names.watched_zones)}:\n"
                      f"        g._rearranged({o}.defn)")
        return [f"{o} = {obj}", f"if type({o}) is _CardRef and ({d} := g.attrs.get({o}.id)) is not None:",
                f"    {d}[{store}] = {value}", *rearranged.split("\n"),
                "else:", f"    g.write({o}, {literal(name)}, {value})"]

    def _plain_write(self, target: ast.Attribute, obj: str, attr: str, op: str, value: str,
                     scope: Scope, limits: tuple | None = None) -> list[str]:
        """Set an attribute that no continuous effect reads, in place, held within its limits
        if it has the same ones wherever it is declared (`g.write` does the same, and handles
        every other case)."""
        sign = "+" if op == "+=" else "-"
        if isinstance(target.obj, ast.Name) and target.obj.id == "game":
            store = f"g.globals[{attr}]"  # (a game attribute has no limits)
            return [f"{store} = {value}" if op == "=" else f"{store} = {store} {sign} {value}"]

        def held(v: str) -> str:  # the value within the limits
            lo, hi = limits or (None, None)
            if re.fullmatch(r"-?[0-9]+", v) and (lo is None or lo <= int(v)) and (hi is None or int(v) <= hi):
                return v  # a number already within them
            if lo is not None:
                v = f"max({lo!r}, {v})"
            if hi is not None:
                v = f"min({hi!r}, {v})"
            return v

        if target.name in self.names.player_attributes and self.is_player(target.obj, scope):
            store = f"{_player_attrs(obj)}[{attr}]"
            if limits is None:
                return [f"{store} = {value}" if op == "=" else f"{store} {op} {value}"]
            return [f"{store} = {held(value if op == '=' else f'{store} {sign} {value}')}"]
        o, d = self.temp(), self.temp("_d")
        if self._is_handle(target.obj, scope):  # a card handle: no other kind of value to test for
            o = obj
        if op == "=":
            card = f"    {d}[{attr}] = {held(value)}"
            player = f"    g.player_attrs[{o}.seat - 1][{attr}] = {held(value)}"
            other = f"    g.write({o}, {attr}, {value})"
        else:
            card = f"    {d}[{attr}] = {held(f'{d}[{attr}] {sign} {value}')}"
            player = f"    {d}[{attr}] = {held(f'{d}[{attr}] {sign} {value}')}"
            other = f"    g.write({o}, {attr}, g.read_base({o}, {attr}) {sign} {value})"
        if o == obj:
            return [f"if {attr} in ({d} := g.attrs[{o}.id]):", card, "else:", other]
        lines = [f"{o} = {obj}", f"if type({o}) is _CardRef and {attr} in ({d} := g.attrs[{o}.id]):", card]
        if target.name in self.names.player_attributes:
            lines.append(f"elif type({o}) is _PlayerRef:")
            if op != "=":
                lines.append(f"    {d} = g.player_attrs[{o}.seat - 1]")
            lines.append(player)
        lines += ["else:", other]
        return lines

    def s_CallStmt(self, s: ast.CallStmt, scope, loop_depth, mode):
        call = s.call
        assert isinstance(call, ast.Call)
        if call.func in self.names.procedures:
            if call.func not in self.host.native_procedures:
                raise AssertionError(f"procedure {call.func} may suspend")
            before, args = self.arguments(call, scope, mode)
            return [*before, f"p_{self._check(call.func)}(g, f{''.join(', ' + a for a in args)})"]
        if call.func == "reveal":
            return [f"g.reveal({self.ex(call.args[0], scope)})"]
        if call.func in ("run", "use", "aim"):
            raise AssertionError(f"{call.func} may suspend")
        return [self.ex(call, scope)]

    def arguments(self, call: ast.Call, scope: Scope, mode: str) -> tuple[list[str], list[str]]:
        """The arguments of a call of a procedure (`lowered`, each in turn), and the lines before."""
        before: list[str] = []
        args = []
        for a in call.args:
            lines, code = self.lowered(a, scope, mode)
            before += lines
            args.append(code)
        for a in call.kwargs:
            lines, code = self.lowered(a.value, scope, mode)
            before += lines
            args.append(f"{identifier(a.name)}={code}")
        return before, args

    def s_If(self, s: ast.If, scope, loop_depth, mode):
        lines = []
        for i, branch in enumerate(s.branches):
            if i == 0:  # (an `elif` test is worked out only if the tests before fail)
                before, condition = self.lowered(branch.condition, scope, mode)
                lines += [*before, f"if {condition}:"]
            else:
                lines.append(f"elif {self.ex(branch.condition, scope)}:")
            outer = scope.players
            scope.players = outer | self._players_tested(branch.condition, branch.body, scope)
            try:
                lines.extend(self._block(branch.body, scope, loop_depth, mode))
            finally:
                scope.players = outer
        if s.orelse:
            lines.append("else:")
            lines.extend(self._block(s.orelse, scope, loop_depth, mode))
        return lines

    def _players_tested(self, condition: ast.Expr, body, scope: Scope) -> frozenset[str]:
        """Local names that a branch's condition finds to be players (`x is player`, alone or
        joined by `and`) and its body does not bind again: players wherever the body uses them."""
        tested = set()
        stack = [condition]
        while stack:
            e = stack.pop()
            if isinstance(e, ast.BinOp) and e.op == "and":
                stack += [e.left, e.right]
            elif (isinstance(e, ast.IsType) and e.type_name == "player" and not e.negated
                  and self._is_local(e.operand, scope)):
                tested.add(e.operand.id)
        return frozenset(tested - set(local_bindings(body)))

    def s_For(self, s: ast.For, scope, loop_depth, mode):
        before, items = self.lowered(s.iterable, scope, mode)
        items = self.owned_list(s.iterable, scope, items)
        head = f"for {scope.bind(s.var)} in {items}:"
        # the loop's items are card handles from the start (a copy of the zones' lists); the
        # name holds one in the body unless the body binds it again
        handle = self.is_card_list(s.iterable, scope) and s.var not in local_bindings(s.body)
        outside = scope.handles
        scope.handles = outside | {s.var} if handle else outside - {s.var}
        try:
            return [*before, head, *self._block(s.body, scope, loop_depth + 1, mode)]
        finally:
            scope.handles = outside

    def s_Repeat(self, s: ast.Repeat, scope, loop_depth, mode):
        before, count = self.lowered(s.count, scope, mode)
        return [*before, f"for _ in range({count}):", *self._block(s.body, scope, loop_depth + 1, mode)]

    def s_While(self, s: ast.While, scope, loop_depth, mode):
        budget = self.temp()
        span = self.const(s.span)
        message = self.const(WHILE_BUDGET_MESSAGE)
        called = self.valued_calls(value_calls(s, self.host.value_procedures), scope, mode)
        before, condition = self.lowered(s.condition, scope, mode)
        before = [*called, *before]
        head = [f"while {condition}:"] if not before else [  # (what the test needs, built at each test)
            "while True:", *(f"    {line}" for line in before), f"    if not {condition}:", "        break"]
        return [f"{budget} = g.rules.step_budget",
                *head,
                f"    {budget} -= 1",
                f"    if {budget} < 0:",
                f"        g.runtime_error({message}, {span})",
                *self._block(s.body, scope, loop_depth + 1, mode)]

    def s_Break(self, s, scope, loop_depth, mode):
        if loop_depth or mode == "frame":  # (in resumable code, its loops are Python loops)
            return ["break"]
        return ["return"]

    def s_Stop(self, s, scope, loop_depth, mode):
        if mode == "frame" and self.stop_breaks:  # the end of an inlined procedure (see `resumable`)
            return ["break"]
        cleared = ["g.returned = None"] if self.returning == "register" else []
        return [*cleared, "return" if mode == "pure" else "return True"]

    def s_Return(self, s: ast.Return, scope, loop_depth, mode):
        before, value = self.lowered(s.value, scope, mode)
        if self.returning == "value" and mode == "pure":
            return [*before, f"return {value}"]
        if self.returning is None:
            raise AssertionError("return where no value is taken")
        return [*before, f"g.returned = {value}", "return" if mode == "pure" else "return True"]

    def s_Move(self, s: ast.Move, scope, loop_depth, mode):
        card = self.temp()
        before, moved = self.lowered(s.card, scope, mode)
        position = self.ex(s.position, scope)
        return [*before, f"{card} = {moved}",
                f"if type({card}) is _CardRef:",
                f"    g.move({card}, {self.zone_key(s.zone, scope)}, {position})",
                f"elif {card} is not None:",
                f"    g.move_each(_as_list({card}), {self.zone_key(s.zone, scope)}, {position})"]

    def s_Create(self, s: ast.Create, scope, loop_depth, mode):
        key = self.temp()
        attrs = ", ".join(f"{literal(a.name)}: {self.typed(self.ex(a.value, scope), a.value, ('attribute', a.name), scope)}"
                          for a in s.attrs)
        lines = [f"{key} = {self.zone_key(s.zone, scope)}"]
        checked = [a.name for a in s.attrs if a.name in self.names.enumerated_attributes]
        if checked:  # the values given for attributes declared with `values:`, checked on the new card
            given, card = self.temp(), self.temp()
            lines += [f"{given} = {{{attrs}}}", f"{card} = g.create({self.ex(s.card_name, scope)}, {key}, {given}, f)",
                      *(f"g.allowed_value({card}, {literal(n)}, {given}[{literal(n)}])" for n in checked)]
            return [*lines, f"{scope.bind(s.bind)} = {card}"] if s.bind is not None else lines
        made = f"g.create({self.ex(s.card_name, scope)}, {key}, {{{attrs}}}, f)"
        lines.append(f"{scope.bind(s.bind)} = {made}" if s.bind is not None else made)
        return lines

    def s_Shuffle(self, s: ast.Shuffle, scope, loop_depth, mode):
        return [f"g.shuffle({self.zone_key(s.zone, scope)})"]

    def s_Emit(self, s: ast.Emit, scope, loop_depth, mode):
        args = ", ".join(f"{literal(a.name)}: {self.ex(a.value, scope)}" for a in s.args)
        logged = ["if g.logging:", f"    g.log_entries.append(('event', {literal(s.event)}, {{{args}}}))"]
        if s.event in self.names.witnessed_events and (s.event in self.names.quiet_events
                                                       or s.event in self.names.ending_only_events):
            values = self.temp()  # (logged and witnessed: `g.emit` does both for the other events)
            witnessed = (f"g.seen = ({literal(s.event)}, {values}, 0, g.seen)"  # (every player: in short)
                         if self.names.witnessed_events[s.event] == "" else f"g.witness({literal(s.event)}, {values})")
            logged = [f"{values} = {{{args}}}", "if g.logging:",
                      f"    g.log_entries.append(('event', {literal(s.event)}, {values}))", witnessed]
        if s.event in self.names.quiet_events:  # nothing waits for it: it is only logged
            return logged
        if s.event in self.names.ending_only_events:  # logged, then the end conditions checked
            return [*logged, f"{self.end_checks(s.event)}(g)"]
        return [f"g.emit({literal(s.event)}, {{{args}}})"]

    def end_checks(self, event: str) -> str:
        """The name of a function `(g)` that checks the end conditions of an event that only
        they wait for, as `Game.emit` would, and ends the game by the first that holds."""
        name = self._end_check_names.get(event)
        if name is None:
            scope = Scope(frame=True)
            lines: list[Line] = []
            for i, when in enumerate(self.names.ending_only_events[event]):
                before, test = self.lowered(when, scope, "pure")
                lines += [*((line, when.span) for line in before), (f"if {test}:", when.span),
                          (f"    return g.end_by_check({literal(event)}, {i})", when.span)]
            root = self.const(Frame(None, {}))  # (end conditions are read in a frame of their own)
            name = self.ns.constant(self.compile_lines(f"end conditions at {event}", ["g", f"f={root}"], lines, scope))
            self._end_check_names[event] = name
        return name

    def s_Win(self, s: ast.Win, scope, loop_depth, mode):
        return [f"g.finish(winner={self.ex(s.player, scope)}, reason={self.const(s.reason or 'win')})"]

    def s_Lose(self, s: ast.Lose, scope, loop_depth, mode):
        return [f"g.finish(loser={self.ex(s.player, scope)}, reason={self.const(s.reason or 'loss')})"]

    def s_Tie(self, s: ast.Tie, scope, loop_depth, mode):
        return [f"g.finish(reason={self.const(s.reason or 'draw')})"]

    def s_Attach(self, s: ast.Attach, scope, loop_depth, mode):
        return [f"g.attach({self.ex(s.card, scope)}, {self.ex(s.target, scope)})"]

    def s_Detach(self, s: ast.Detach, scope, loop_depth, mode):
        return [f"g.detach({self.ex(s.card, scope)})"]

    def s_Delete(self, s: ast.Delete, scope, loop_depth, mode):
        one = self.temp()
        return [f"for {one} in _as_list({self.ex(s.card, scope)}):", f"    g.delete({one})"]

    def s_ModifyUntil(self, s: ast.ModifyUntil, scope, loop_depth, mode):
        assert isinstance(s.target, ast.Attribute)
        one = self.temp()
        return [f"for {one} in _as_list({self.ex(s.target.obj, scope)}):",
                f"    g.add_temporary_modifier({one}, {literal(s.target.name)}, {self.const(s.mode)}, "
                f"{self.ex(s.amount, scope)}, {self.const(s.until)}, f)"]

    def s_GrantUntil(self, s: ast.GrantUntil, scope, loop_depth, mode):
        one, values = self.temp(), self.temp()
        args = "(" + "".join(self.ex(a, scope) + ", " for a in s.args) + ")"
        keyword = self.const(s.keyword) if s.keyword in self.names.keywords else scope.get(s.keyword)
        return [f"{values} = {args}",
                f"for {one} in _as_list({self.ex(s.target, scope)}):",
                f"    g.add_temporary_grant({one}, {keyword}, {values}, {self.const(s.until)}, f)"]
