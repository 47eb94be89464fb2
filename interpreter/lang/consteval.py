"""Work out expressions at load, where there is no game: what a card template's loops, name and
attribute values say (`templates.py`). An interpreter of the lowered form (lang/ir.py): the
template's expressions and the rule functions they call are lowered once (lang/lower.py) and
worked out from their IR.

Such an expression may use numbers, texts, `true`/`false`/`none`, lists, the operators, `if ...
then ... else`, selections and comprehensions, the names the template binds, the built-in
functions that may be worked out at load (builtins.py: `constant`, and `text` with its `at_load`
meaning) and the rule files' own functions (expression bodies and block bodies alike: `let`, `=`,
`+=`, `-=`, `if`, `for`, `repeat`, `while`, `break`, `return`). Anything that needs a game (a
zone, `game.x`, a card's attribute, `players`, a decision, an operation on the game) is refused
where it stands, as an error that says what may be used. The meaning is the compiled code's: the
same operators (`runtime.BINOPS`) and built-in functions (builtins.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import ValidationError, did_you_mean
from . import ast, ir
from .builtins import CONSTANT, FUNCTIONS
from .lower import Lowering, Names
from .runtime import BINOPS, _as_list, _index

# How many expressions one template may work out: enough for a card set of any size, and a function
# that loops without end is stopped with a located error instead of keeping the load busy.
MAX_STEPS = 2_000_000

_TYPE_TESTS = {"int": lambda x: type(x) is int, "text": lambda x: isinstance(x, str),
               "bool": lambda x: isinstance(x, bool), "list": lambda x: isinstance(x, list),
               "none": lambda x: x is None}
_NAMES = (ir.Local, ir.Context, ir.KeywordName, ir.Unbound)  # (at load, each is a name of the values at hand)
_READS = (ir.GetAttr, ir.Global, ir.Option, ir.EventArg)


class _Returned(Exception):
    """A function block's `return`, on its way out of the statements."""

    def __init__(self, value: Any) -> None:
        self.value = value


class _Break(Exception):
    pass


class ConstantEvaluator:
    """Works out expressions of a card template against the rule files' functions."""

    def __init__(self, functions: Mapping[str, ast.Function], what: str = "a card template") -> None:
        self.functions = functions
        self.what = what
        self.steps = 0
        self._depth = 0
        # (one lowering per evaluator, so per template: each function it calls is lowered once)
        self.lowering = Lowering(Names(functions=frozenset(functions)))
        self._values = {
            ir.Const: lambda e, env: e.value,
            **{name: self._name for name in _NAMES},
            ir.ListOf: lambda e, env: [self._value(i, env) for i in e.items],
            ir.BinOp: self._binop,
            ir.Not: lambda e, env: not self._value(e.operand, env),
            ir.Neg: lambda e, env: -self._number(e.operand, env),
            ir.IfExpr: lambda e, env: self._value(e.then if self._value(e.test, env) else e.orelse, env),
            ir.GetIndex: lambda e, env: _index(self._value(e.obj, env), self._value(e.index, env)),
            ir.IsType: self._is_type,
            ir.Call: self._call,
            ir.Comprehension: self._comprehension,
            ir.Select: self._select,
        }

    def refuse(self, node: ast.Node | ir.Node, thing: str) -> ValidationError:
        return ValidationError(f"{thing} has no value in {self.what}: its values are worked out at load, before "
                               "any game", node.span,
                               "use numbers, texts, lists, the loop names, range(...), if-then-else, "
                               "comprehensions and functions of them")

    # ------------------------------------------------------------------ the public entry points (AST in)
    def value(self, e: ast.Expr, env: dict[str, Any]) -> Any:
        """The value of an expression where the names of `env` have their values."""
        return self._value(self.lowering.expression(e, frozenset(env)), env)

    def block(self, body: tuple[ast.Stmt, ...], env: dict[str, Any]) -> None:
        """Run a function's statements in `env` (a `return` leaves as `_Returned`)."""
        self._block(self.lowering.statements(tuple(body), frozenset(env)), env)

    def statement(self, s: ast.Stmt, env: dict[str, Any]) -> None:
        self._block(self.lowering.statements((s,), frozenset(env)), env)

    # ------------------------------------------------------------------ expressions
    def _value(self, e: ir.Expr, env: dict[str, Any]) -> Any:
        self.steps += 1
        if self.steps > MAX_STEPS:
            raise ValidationError(f"{self.what} works out more than {MAX_STEPS:,} values: a loop without end?",
                                  e.span)
        work = self._values.get(type(e))
        if work is not None:
            return work(e, env)
        if isinstance(e, _READS):
            raise self.refuse(e, f"'{e.name}' of a value (a card's or a player's attribute, a global)")
        if isinstance(e, ir.Ask):
            raise self.refuse(e, "a decision")
        raise self.refuse(e, "this expression")

    def _name(self, e: ir.Local, env: dict[str, Any]) -> Any:
        if e.name in env:
            return env[e.name]
        # (a name is a value's name here, never its own text as in a written card's attribute)
        quoted = f'text is written in quotes: "{e.name}"'
        raise ValidationError(f"unknown name {e.name!r} in {self.what}{did_you_mean(e.name, env)}", e.span,
                              f"names here: {', '.join(sorted(env))}; {quoted}" if env else quoted)

    def _number(self, e: ir.Expr, env: dict[str, Any]) -> int:
        v = self._value(e, env)
        if type(v) is not int:
            raise ValidationError(f"expected a number here, got {v!r}", e.span)
        return v

    def _binop(self, e: ir.BinOp, env: dict[str, Any]) -> Any:
        left = self._value(e.left, env)
        if e.op == "and":
            return left and self._value(e.right, env)
        if e.op == "or":
            return left or self._value(e.right, env)
        right = self._value(e.right, env)
        if e.op == "in":
            return left in _as_list(right)
        try:
            return BINOPS[e.op](left, right)
        except TypeError as err:
            raise ValidationError(f"cannot work out {left!r} {e.op} {right!r}: {err}", e.span) from None

    def _is_type(self, e: ir.IsType, env: dict[str, Any]) -> bool:
        v = self._value(e.operand, env)
        test = _TYPE_TESTS.get(e.type_name)
        if test is None:
            raise self.refuse(e, f"a test for {e.type_name!r}")
        return test(v) != e.negated

    def _comprehension(self, e: ir.Comprehension, env: dict[str, Any]) -> list:
        out: list = []
        clauses = e.clauses

        def run(i: int, scope: dict[str, Any]) -> None:
            if i == len(clauses):
                out.append(self._value(e.element, scope))
                return
            clause = clauses[i]
            for item in _as_list(self._value(clause.source, scope)):
                inner = {**scope, clause.var: item}
                if clause.condition is None or self._value(clause.condition, inner):
                    run(i + 1, inner)

        run(0, env)
        return out

    def _select(self, e: ir.Select, env: dict[str, Any]) -> list:
        items = [x for x in _as_list(self._value(e.source, env))
                 if e.where is None or self._value(e.where, {**env, e.var: x})]
        if e.order_by is not None:
            items.sort(key=lambda x: self._value(e.order_by, {**env, e.var: x}), reverse=e.descending)
        return items

    def _call(self, e: ir.Call, env: dict[str, Any]) -> Any:
        if e.kwargs:
            raise ValidationError(f"{e.name!r} takes no named arguments", e.span)
        if e.callee == ir.FUNCTION:
            return self._function(e, env)
        builtin = CONSTANT.get(e.name) if e.callee == ir.BUILTIN else None
        if builtin is None:
            known = [*self.functions, *sorted(CONSTANT)]
            if e.callee == ir.BUILTIN and e.name in FUNCTIONS:
                raise self.refuse(e, f"{e.name}(...)")
            raise ValidationError(f"unknown function {e.name!r} in {self.what}{did_you_mean(e.name, known)}", e.span,
                                  "zones and procedures have no value before a game")
        args = [self._value(a, env) for a in e.args]
        lo, hi = builtin.arity
        if not lo <= len(args) <= hi:
            want = str(lo) if lo == hi else f"{lo} to {hi}"
            raise ValidationError(f"{e.name!r} takes {want} argument(s), got {len(args)}", e.span)
        impl = builtin.implementation if builtin.at_load is None else lambda _g, *xs: builtin.at_load(*xs)
        try:
            return impl(None, *args)
        except (TypeError, ValueError) as err:
            raise ValidationError(f"{e.name}(...): {err}", e.span) from None

    def _function(self, e: ir.Call, env: dict[str, Any]) -> Any:
        fn = self.lowering.function(self.functions[e.name])
        if len(e.args) != len(fn.params):
            raise ValidationError(f"function {e.name!r} takes {len(fn.params)} argument(s), got {len(e.args)}",
                                  e.span)
        args = {p: self._value(a, env) for p, a in zip(fn.params, e.args)}
        self._depth += 1
        try:
            if self._depth > 200:
                raise ValidationError(f"function {e.name!r} calls itself without end in {self.what}", e.span)
            if fn.body is not None:
                try:
                    self._block(fn.body, args)
                except _Returned as done:
                    return done.value
                return None
            return self._value(fn.value, args)
        finally:
            self._depth -= 1

    # ------------------------------------------------------------------ a function's statements
    def _block(self, body: tuple[ir.Stmt, ...], env: dict[str, Any]) -> None:
        for s in body:
            self._statement(s, env)

    def _statement(self, s: ir.Stmt, env: dict[str, Any]) -> None:
        if not (isinstance(s, ir.If) and s.chained):  # (an `elif` is part of its `if`)
            self.steps += 1
        if isinstance(s, ir.Return):
            raise _Returned(self._value(s.value, env))
        if isinstance(s, ir.Let):
            env[s.name] = self._value(s.value, env)
        elif isinstance(s, ir.Set) and isinstance(s.place, _NAMES):
            value = self._value(s.value, env)
            if s.op != "=":
                was, op = env.get(s.place.name), s.op[0]
                try:
                    value = BINOPS[op](was, value)
                except TypeError as err:
                    raise ValidationError(f"cannot work out {was!r} {op} {value!r}: {err}", s.span) from None
            env[s.place.name] = value
        elif isinstance(s, ir.If) and not isinstance(s.test, ir.Ask):  # (an Ask test: a `may`, refused below)
            if self._value(s.test, env):
                self._block(s.then, env)
            else:
                self._block(s.orelse or (), env)
        elif isinstance(s, ir.Loop):
            self._loop(s, env)
        elif isinstance(s, ir.Break):
            raise _Break()
        else:
            raise self.refuse(s, "this statement")

    def _loop(self, s: ir.Loop, env: dict[str, Any]) -> None:
        try:
            if s.kind == "for":
                for item in list(_as_list(self._value(s.over, env))):
                    env[s.var] = item
                    self._block(s.body, env)
            elif s.kind == "repeat":
                for _ in range(self._number(s.over, env)):
                    self._block(s.body, env)
            else:
                while self._value(s.over, env):
                    self.steps += 1
                    if self.steps > MAX_STEPS:
                        raise ValidationError(f"a 'while' loop ran without end in {self.what}", s.span)
                    self._block(s.body, env)
        except _Break:
            pass
