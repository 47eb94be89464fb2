"""Generate Python functions from checked expressions and non-suspending statements.

Expressions, runs of statements that cannot stop for a decision, user functions and procedures
that never suspend are turned into Python source at load time and compiled once, so that a
rule runs as ordinary Python code rather than as a tree of small closures.

What reaches the generated source is built here, never copied from a rule file: identifiers are
made by this module (`v_` plus a name the grammar already restricted to letters, digits and
underscores, or a counter), numbers are written as numbers, and every other value read from a
file (strings, spans, card names) is handed to the code as a constant in its namespace. The
functions run with an empty set of Python built-ins apart from the few listed in `ALLOWED_BUILTINS`.

`CodeGenerator` is assembled from parts, one responsibility each: codegen_expressions.py
(expressions), codegen_attributes.py (attribute reads), codegen_statements.py (statements),
value_kinds.py `ValueKinds` (what values names and expressions hold), rollout.py (the entry points of
the rollout form); codegen_scope.py holds the scopes and codegen_tables.py the tables and helpers
they share. This module holds the entry points, the namespace of the generated code, and calls and
zones. Every part writes the lowered form (lang/ir.py): the entry points lower what they are given.
The parts write one direct form in two variants (`form`, codegen_forms.py): native, where nothing
asks, and rollout, where decisions are asked in place (rollout.py's `ROLLOUT`).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from types import CodeType
from typing import Any

from ..errors import Span, ValidationError
from . import ast, ir
from . import lower as _lower
from .builtins import FUNCTIONS as BUILTIN_FUNCTIONS
from .code_members import CALL, run_code
from .codegen_attributes import AttributeCode
from .codegen_expressions import ExpressionCode
from .codegen_forms import NATIVE, Form
from .codegen_scope import IDENTIFIER as _IDENTIFIER
from .codegen_scope import Scope, identifier, literal
from .codegen_statements import StatementCode
from .codegen_tables import (
    _INLINE_BUILTINS,
    _LIST_ARGUMENTS,
    _READ_ONLY_ARGUMENT,
    ALLOWED_BUILTINS,
    Line,
    NestedTooDeeply,
    _head,
    _is_int,
    _is_of_type,
)
from .kinds import called, is_selection, name_of, refuse, text_written
from .rollout import RolloutEntries
from .runtime import BINOPS, _as_list, _index
from .value_kinds import Facts, ValueKinds
from .values import (
    ABSENT,
    AbilityRef,
    CardRef,
    Labelled,
    PlayerRef,
    ZoneKey,
)

# Python's compile() of generated sources, by source text. A scenario run loads many rulesets that
# differ by a few cards and so writes the same sources again and again; the code object of a
# source is the same whatever loads it (only its file name, by which errors are located, differs).
_COMPILED: dict[str, CodeType] = {}
_COMPILED_MAX = 100_000  # (sources; cleared when full: a cache, never needed for correctness)


def compiled(source: str, filename: str) -> CodeType:
    """compile(source, filename, "exec"), from the cache when that source was compiled before."""
    code = _COMPILED.get(source)
    if code is None:
        code = compile(source, filename, "exec")
        if len(_COMPILED) >= _COMPILED_MAX:
            _COMPILED.clear()
        _COMPILED[source] = code
        return code
    return _renamed(code, filename)


def _renamed(code: CodeType, filename: str) -> CodeType:
    """A code object (and those nested in it) with another file name."""
    consts = tuple(_renamed(c, filename) if isinstance(c, CodeType) else c for c in code.co_consts)
    return code.replace(co_filename=filename, co_consts=consts)


# `game.NAME`, `options.NAME`, `event.NAME` lowered: the context name each reads
_OBJECT_OF = {ir.Global: "game", ir.Option: "options", ir.EventArg: "event"}


def _is_attribute(e: Any) -> bool:
    """`OBJ.NAME` (of the AST, or lowered: `game.NAME` and the like too)."""
    return type(e) in (ast.Attribute, ir.GetAttr, *_OBJECT_OF)


def _literal(e: Any) -> bool:
    """A number, a text or true/false written in the code."""
    if type(e) in (ast.StrLit, ast.IntLit, ast.BoolLit):
        return True
    return type(e) is ir.Const and type(e.value) in (str, int, bool)


class Namespace:
    """The globals the generated functions share: helpers, constants, and each other."""

    def __init__(self) -> None:
        self.values: dict[str, Any] = {
            "__builtins__": ALLOWED_BUILTINS, "_as_list": _as_list, "_index": _index, "_head": _head,
            "_is_int": _is_int, "_is_of_type": _is_of_type,
            "_plus": BINOPS["+"], "_floordiv": BINOPS["/"], "_mod": BINOPS["%"], "_CardRef": CardRef, "_ABSENT": ABSENT,
            "_PlayerRef": PlayerRef, "_AbilityRef": AbilityRef,
            "_Labelled": Labelled, "_ONE": (0,), "_refuse": refuse, "_code_call": run_code,
        }
        for name, builtin in BUILTIN_FUNCTIONS.items():
            self.values["_bf_" + name] = builtin.implementation
        self._by_id: dict[int, str] = {}
        self._files = 0
        self.line_spans: dict[str, list[Span | None]] = {}
        self.sources: dict[str, str] = {}  # generated source by file name, to read when debugging
        self.labels: dict[str, str] = {}  # what each file's function was written for, by file name

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
        self.labels[filename] = label
        try:
            code = compiled(source, filename)
        except SyntaxError as err:  # what rule code can meet: Python's limit of 20 nested blocks
            if "nested" not in err.msg:
                raise  # (anything else is the compiler's own mistake)
            del self.sources[filename], self.line_spans[filename], self.labels[filename]  # (nothing of it was defined)
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


class CodeGenerator(ExpressionCode, AttributeCode, StatementCode, ValueKinds, RolloutEntries):
    """Writes Python source for expressions and native statements, given the names of a ruleset
    (and, on first use, every block in its rollout form: see rollout.py).

    `host` is the compiler: it knows which procedures are native and how to inline functions."""

    def __init__(self, host: Any) -> None:
        self.host = host
        self.names = host.names
        names = self.names  # (statements are written from their lowered form: see `lowered_body`)
        self.lowering = _lower.Lowering(_lower.Names(frozenset(names.functions), frozenset(names.procedures),
                                                     frozenset(names.zones), frozenset(names.keywords)))
        if names.kinds is not None:  # (the checker's kinds of lowered expressions follow lowered functions)
            names.kinds.lowered_function = lambda name: self.lowering.definition(names.functions[name])
        self.ns = Namespace()
        self._counter = 0
        self.choices: dict[int, str] = {}  # the temporary local holding each lifted choose's answer
        self._iterable_depth = 0
        self._visiting: set[tuple[str, str]] = set()  # (analysis, function) under way: see `_through_body`
        self._facts: dict[int, tuple[ir.Expr, Facts]] = {}  # the kind inference's, by lowered expression
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
        self.form: Form = NATIVE  # the form of the direct emitter's output being written (codegen_forms.py)

    # ------------------------------------------------------------------ the lowered form
    def lowered_body(self, body, bound=()) -> tuple[ir.Stmt, ...]:
        """The IR of a block of statements run with the names `bound` bound (parameters, the
        frame's names): lowered once per block and names."""
        return self.lowering.statements(tuple(body), frozenset(bound))


    # ------------------------------------------------------------------ entry points
    def expression_function(self, e: ast.Expr, subst: dict[int, str], name: str = "expr") -> Callable:
        scope = Scope(frame=True)
        self.choices = subst
        body = self.ex(self.lowering.expression(e), scope)  # (no name bound: each is read from the frame)
        return self.compile_lines(name, ["g", "f"], [(f"return {body}", e.span)], scope)

    def define_procedure(self, name: str, proc: ast.Procedure) -> None:
        """A procedure that never suspends, as `p_NAME(g, f, params...)` (f: the caller's frame)."""
        self.loops_if_they_fit(lambda: self._define_procedure(name, proc))

    def _define_procedure(self, name: str, proc: ast.Procedure) -> None:
        params = [identifier(p) for p in proc.params]
        body = self.lowered_body(proc.body, proc.params)
        scope = Scope(frame=False, names=dict(zip(proc.params, params)), players=self.player_names(body, proc.params),
                      lists=self.list_names(body, proc.params))
        self._define("p_" + self._check(name), ["g", "f", *params], self.procedure_lines(name, proc, scope),
                     f"procedure {name}")

    def procedure_lines(self, name: str, proc: ast.Procedure, scope: Scope) -> list[Line]:
        """The body of a procedure's function in the form being written (`form`), its parameters
        in Python locals; first, if replacement abilities may replace it, the replacement's test
        (every replacement runs in the same form)."""
        self.choices = {}
        outer, self.returning = self.returning, "value"
        try:
            lines = self.statements(self.lowered_body(proc.body, proc.params), scope, loop_depth=0,
                                    mode="pure") or [("pass", None)]
        finally:
            self.returning = outer
        if name in self.names.replaced_procedures:
            values = ", ".join(f"{literal(p)}: {identifier(p)}" for p in proc.params)
            done = "    return g.returned" if name in self.host.value_procedures else "    return"
            lines = [(f"if g.replace_now({literal(name)}, {{{values}}}, f):", proc.span), (done, proc.span), *lines]
        return lines

    def define_function(self, name: str, fn: ast.Function) -> None:
        if isinstance(fn.body, ast.BlockValue):  # statements, as a procedure's that never suspends
            self.loops_if_they_fit(lambda: self._define_block_function(name, fn))
            return
        params = [identifier(p) for p in fn.params]
        scope = Scope(frame=False, names=dict(zip(fn.params, params)))
        self.choices = {}
        body = self.ex(self.lowering.definition(fn).value, scope)
        self._define("fn_" + self._check(name), ["g", "f", *params], [(f"return {body}", fn.body.span)],
                     f"function {name}")

    def _define_block_function(self, name: str, fn: ast.Function) -> None:
        body = self.lowering.definition(fn).body
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

    def code_function(self, label: str, code: ast.CodeValue) -> Callable:
        """The function `fn(g, f, *params)` of code written on a card (`label`: "Card/attribute"),
        defined as a rule function is, under a name no rule file can define."""
        name = self.temp("_code")
        self.define_function(name, ast.Function(label, code.params, code.body, span=code.span))
        return self.ns.values.pop("fn_" + name)

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

    # ------------------------------------------------------------------ calls and zones
    def _is_zone_call(self, e: ast.Expr | ir.Expr) -> bool:
        """A reference to one zone (a player's, or a shared zone without rows)."""
        zone = called(e)
        if zone not in self.names.zones:
            return False
        spec = self.names.zones[zone]
        if spec.per_player:  # a player's zone, and its row if it has rows
            return len(e.args) == (2 if spec.rows else 1)
        return len(e.args) == (1 if spec.rows else 0)

    def i_Call(self, e: ir.Call, scope: Scope) -> str:
        """A call: a card's code, a zone, a rule function (inlined where it can be), a procedure's
        value (asked before the statement), a built-in."""
        func = e.name
        if func == CALL and CALL not in self.names.functions and e.args and _is_attribute(e.args[0]):
            # `c.NAME(args)`: the card's code (see code_members.py)
            called_obj = e.args[0].obj if type(e.args[0]) in (ast.Attribute, ir.GetAttr) else ir.Context(
                _OBJECT_OF[type(e.args[0])])
            args = "".join(", " + self.ex(a, scope) for a in e.args[1:])
            return f"_code_call(g, {self.ex(called_obj, scope)}, {literal(e.args[0].name)}{args})"
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
            inlined = self.host.inline_lowered(func, e.args, self._binder(scope, bound))
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
        if func in ("take", "drop") and len(e.args) == 2 and self._is_zone_call(e.args[0]):
            zone = f"g.zones[{self.zone_key(e.args[0], scope)}]"  # (a slice of the zone: no copy of all of it)
            n = self.ex(e.args[1], scope)
            return f"{zone}[:max(0, {n})]" if func == "take" else f"{zone}[max(0, {n}):]"
        if func in _READ_ONLY_ARGUMENT and len(e.args) == 1 and self._is_zone_call(e.args[0]):
            zone = f"g.zones[{self.zone_key(e.args[0], scope)}]"  # (no copy of the zone)
            if func == "abilities" and self.names.zones[called(e.args[0])].active:
                return f"g.activatable_in({zone})"  # cards of an active zone: where they are is known
            return _INLINE_BUILTINS[func](zone)
        if (func == "first" and len(e.args) == 1 and called(e.args[0]) == "others"
                and "others" not in self.names.functions and self.names.player_count >= 2
                and not self._iterable_depth):  # the first other player, without listing them
            p, held = self.ex(e.args[0].args[0], scope), self.temp("_w")
            if self.is_player(e.args[0].args[0], scope):
                return f"g.players[{p}.seat == 1]"  # (seat 1: the second player, index True)
            return (f"(g.players[1 if {held}.seat == 1 else 0] if type({held} := {p}) is _PlayerRef "
                    f"else _head(_bf_others(g, {held})))")
        if func == "labelled" and all(_literal(a) for a in e.args):
            return self.const(Labelled(e.args[0].value, str(e.args[1].value)))  # (never changed: shared)
        if func == "labelled" and len(e.args) == 2 and text_written(e.args[1]) is None:
            pieces = self._text_pieces(e.args[1])
            if pieces is not None:  # text and texts of values: joined when first read
                written = [self.const(p.value) if text_written(p) is not None else self.ex(p.args[0], scope)
                           for p in pieces]
                return f"_Labelled({self.ex(e.args[0], scope)}, None, (g, ({', '.join(written)},)))"
        if func == "ability_card" and name_of(e.args[0]) is not None:
            a = self.ex(e.args[0], scope)
            if name_of(e.args[0]) in scope.abilities:
                return f"{a}.card"
            return f"({a}.card if isinstance({a}, _AbilityRef) else None)"
        if (func == "ability_cost" and name_of(e.args[0]) in scope.abilities
                and not self._iterable_depth):
            a, fixed = self.ex(e.args[0], scope), self.temp("_w")
            return f"({fixed} if ({fixed} := {a}.ability.fixed_cost) is not None else g.ability_cost({a}))"
        if func in ("max_of", "min_of") and not (len(e.args) == 1 and name_of(e.args[0]) is not None):
            return f"_bf_{func}(g, {self.ex(e.args[0], scope)})"
        if func in _LIST_ARGUMENTS:
            args = [self.as_list(a, scope) for a in e.args]
        else:
            args = [self.ex(a, scope) for a in e.args]
        inline = _INLINE_BUILTINS.get(func)
        if inline is not None:
            return inline(*args)
        return f"_bf_{self._check(func)}(g{''.join(', ' + a for a in args)})"

    def _over_players(self, e: ast.Expr | ir.Expr, scope: Scope) -> bool:
        """A selection from `players` itself (a list of a known, small length)."""
        return (is_selection(e) and name_of(e.source) is not None and e.order_by is None
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

    def zone_key(self, e: ast.Expr | ir.Expr, scope: Scope) -> str:
        """Source for the key of a zone reference `name(player[, row])` or `name()`."""
        name = called(e)
        if name not in self.names.zones:
            raise ValidationError("expected a zone, such as hand(you)", e.span)
        spec = self.names.zones[name]
        args = [self.ex(a, scope) for a in e.args]
        if not args and not spec.per_player and not spec.rows:
            return self.const(ZoneKey(name, 0, ""))
        if not args:
            return f"g.zone_key({literal(name)}, None, None)"
        fixed_row = len(args) == 2 and text_written(e.args[1]) in spec.rows
        if (len(args) == 1 and not spec.rows or fixed_row) and spec.per_player and (
                name_of(e.args[0]) is not None or not self._iterable_depth or self.is_player(e.args[0], scope)):
            # each seat's key, made once (for a row named in the code, that row's)
            row = text_written(e.args[1]) if fixed_row else ""
            keys = self.const((None, *(ZoneKey(name, seat, row) for seat in range(1, self.names.player_count + 1))))
            p = held = args[0]
            if self.is_player(e.args[0], scope):
                return f"{keys}[{p}.seat]"
            if name_of(e.args[0]) is None:
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
