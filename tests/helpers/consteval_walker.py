"""The AST walker that worked out card templates' expressions at load before issue 31 step 3, kept
as the reference that tests/test_consteval_ir.py compares interpreter/lang/consteval.py (the
interpreter of the lowered form) with: the same values, the same errors at the same spans, the
same count of steps. Not used by the interpreter; frozen (a new form of the language goes into
consteval.py, and here only if the comparison is to cover it). One change since: `x += v` of
values that do not add is the located error of `x + v`, not a Python TypeError.

What it did: work out expressions at load, where there is no game: what a card template's loops, name and
attribute values say (`templates.py`).

Such an expression may use numbers, texts, `true`/`false`/`none`, lists, the operators, `if ...
then ... else`, selections and comprehensions, the names the template binds, the built-in
functions that may be worked out at load (builtins.py: `constant`, and `text` with its `at_load`
meaning) and the rule files' own
functions (expression bodies and block bodies alike). Anything that needs a game (a zone,
`game.x`, a card's attribute, `players`, a decision) is refused where it stands, as an error
that says what may be used. The meaning is the compiled code's: the same operators
(`runtime.BINOPS`) and built-in functions (builtins.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interpreter.errors import ValidationError, did_you_mean
from interpreter.lang import ast
from interpreter.lang.builtins import CONSTANT, FUNCTIONS
from interpreter.lang.runtime import BINOPS, _as_list, _index

# How many expressions one template may work out: enough for a card set of any size, and a function
# that loops without end is stopped with a located error instead of keeping the load busy.
MAX_STEPS = 2_000_000


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

    def refuse(self, node: ast.Node, thing: str) -> ValidationError:
        return ValidationError(f"{thing} has no value in {self.what}: its values are worked out at load, before "
                               "any game", node.span,
                               "use numbers, texts, lists, the loop names, range(...), if-then-else, "
                               "comprehensions and functions of them")

    def value(self, e: ast.Expr, env: dict[str, Any]) -> Any:
        self.steps += 1
        if self.steps > MAX_STEPS:
            raise ValidationError(f"{self.what} works out more than {MAX_STEPS:,} values: a loop without end?",
                                  e.span)
        kind = type(e)
        if kind in (ast.IntLit, ast.StrLit, ast.BoolLit):
            return e.value
        if kind is ast.NoneLit:
            return None
        if kind is ast.Name:
            if e.id in env:
                return env[e.id]
            # (a name is a value's name here, never its own text as in a written card's attribute)
            quoted = f'text is written in quotes: "{e.id}"'
            raise ValidationError(f"unknown name {e.id!r} in {self.what}{did_you_mean(e.id, env)}", e.span,
                                  f"names here: {', '.join(sorted(env))}; {quoted}" if env else quoted)
        if kind is ast.ListLit:
            return [self.value(i, env) for i in e.items]
        if kind is ast.BinOp:
            return self._binop(e, env)
        if kind is ast.Not:
            return not self.value(e.operand, env)
        if kind is ast.Neg:
            return -self._number(e.operand, env)
        if kind is ast.Conditional:
            return self.value(e.then if self.value(e.test, env) else e.orelse, env)
        if kind is ast.Index:
            return _index(self.value(e.obj, env), self.value(e.index, env))
        if kind is ast.IsType:
            return self._is_type(e, env)
        if kind is ast.Call:
            return self._call(e, env)
        if kind is ast.Comprehension:
            return self._clauses(e.element, [(e.var, e.source, e.condition)], env)
        if kind is ast.MultiComprehension:
            return self._clauses(e.element, [(c.var, c.source, c.condition) for c in e.clauses], env)
        if kind is ast.Select:
            return self._select(e, env)
        if kind is ast.Attribute:
            raise self.refuse(e, f"'{e.name}' of a value (a card's or a player's attribute, a global)")
        if kind is ast.Choose:
            raise self.refuse(e, "a decision")
        raise self.refuse(e, "this expression")

    def _number(self, e: ast.Expr, env: dict[str, Any]) -> int:
        v = self.value(e, env)
        if type(v) is not int:
            raise ValidationError(f"expected a number here, got {v!r}", e.span)
        return v

    def _binop(self, e: ast.BinOp, env: dict[str, Any]) -> Any:
        left = self.value(e.left, env)
        if e.op == "and":
            return left and self.value(e.right, env)
        if e.op == "or":
            return left or self.value(e.right, env)
        right = self.value(e.right, env)
        if e.op == "in":
            return left in _as_list(right)
        try:
            return BINOPS[e.op](left, right)
        except TypeError as err:
            raise ValidationError(f"cannot work out {left!r} {e.op} {right!r}: {err}", e.span) from None

    def _is_type(self, e: ast.IsType, env: dict[str, Any]) -> bool:
        v = self.value(e.operand, env)
        tests = {"int": lambda x: type(x) is int, "text": lambda x: isinstance(x, str),
                 "bool": lambda x: isinstance(x, bool), "list": lambda x: isinstance(x, list),
                 "none": lambda x: x is None}
        test = tests.get(e.type_name)
        if test is None:
            raise self.refuse(e, f"a test for {e.type_name!r}")
        return test(v) != e.negated

    def _clauses(self, element: ast.Expr, clauses: list, env: dict[str, Any]) -> list:
        out: list = []

        def run(i: int, scope: dict[str, Any]) -> None:
            if i == len(clauses):
                out.append(self.value(element, scope))
                return
            var, source, condition = clauses[i]
            for item in _as_list(self.value(source, scope)):
                inner = {**scope, var: item}
                if condition is None or self.value(condition, inner):
                    run(i + 1, inner)

        run(0, env)
        return out

    def _select(self, e: ast.Select, env: dict[str, Any]) -> list:
        items = [x for x in _as_list(self.value(e.source, env))
                 if e.where is None or self.value(e.where, {**env, e.var: x})]
        if e.order_by is not None:
            items.sort(key=lambda x: self.value(e.order_by, {**env, e.var: x}), reverse=e.descending)
        return items

    def _call(self, e: ast.Call, env: dict[str, Any]) -> Any:
        if e.kwargs:
            raise ValidationError(f"{e.func!r} takes no named arguments", e.span)
        fn = self.functions.get(e.func)
        if fn is not None:
            if len(e.args) != len(fn.params):
                raise ValidationError(f"function {e.func!r} takes {len(fn.params)} argument(s), got {len(e.args)}",
                                      e.span)
            args = {p: self.value(a, env) for p, a in zip(fn.params, e.args)}
            self._depth += 1
            try:
                if self._depth > 200:
                    raise ValidationError(f"function {e.func!r} calls itself without end in {self.what}", e.span)
                if isinstance(fn.body, ast.BlockValue):
                    try:
                        self.block(fn.body.body, args)
                    except _Returned as done:
                        return done.value
                    return None
                return self.value(fn.body, args)
            finally:
                self._depth -= 1
        builtin = CONSTANT.get(e.func)
        if builtin is None:
            known = [*self.functions, *sorted(CONSTANT)]
            if e.func in FUNCTIONS:
                raise self.refuse(e, f"{e.func}(...)")
            raise ValidationError(f"unknown function {e.func!r} in {self.what}{did_you_mean(e.func, known)}", e.span,
                                  "zones and procedures have no value before a game")
        args = [self.value(a, env) for a in e.args]
        lo, hi = builtin.arity
        if not lo <= len(args) <= hi:
            want = str(lo) if lo == hi else f"{lo} to {hi}"
            raise ValidationError(f"{e.func!r} takes {want} argument(s), got {len(args)}", e.span)
        impl = builtin.implementation if builtin.at_load is None else lambda _g, *xs: builtin.at_load(*xs)
        try:
            return impl(None, *args)
        except (TypeError, ValueError) as err:
            raise ValidationError(f"{e.func}(...): {err}", e.span) from None

    # ------------------------------------------------------------------ a function's block
    def block(self, body, env: dict[str, Any]) -> None:
        for s in body:
            self.statement(s, env)

    def statement(self, s: ast.Stmt, env: dict[str, Any]) -> None:
        self.steps += 1
        if isinstance(s, ast.Return):
            raise _Returned(self.value(s.value, env))
        if isinstance(s, ast.Let):
            env[s.name] = self.value(s.value, env)
        elif isinstance(s, ast.Assign) and isinstance(s.target, ast.Name):
            value = self.value(s.value, env)
            if s.op != "=":  # (since issue 31 step 3, as consteval.py: a located error, no TypeError)
                was, op = env.get(s.target.id), s.op[0]
                try:
                    value = BINOPS[op](was, value)
                except TypeError as err:
                    raise ValidationError(f"cannot work out {was!r} {op} {value!r}: {err}", s.span) from None
            env[s.target.id] = value
        elif isinstance(s, ast.If):
            for branch in s.branches:
                if self.value(branch.condition, env):
                    self.block(branch.body, env)
                    return
            self.block(s.orelse or (), env)
        elif isinstance(s, (ast.For, ast.Repeat, ast.While)):
            self._loop(s, env)
        elif isinstance(s, ast.Break):
            raise _Break()
        else:
            raise self.refuse(s, "this statement")

    def _loop(self, s: ast.For | ast.Repeat | ast.While, env: dict[str, Any]) -> None:
        try:
            if isinstance(s, ast.For):
                for item in list(_as_list(self.value(s.iterable, env))):
                    env[s.var] = item
                    self.block(s.body, env)
            elif isinstance(s, ast.Repeat):
                for _ in range(self._number(s.count, env)):
                    self.block(s.body, env)
            else:
                while self.value(s.condition, env):
                    self.steps += 1
                    if self.steps > MAX_STEPS:
                        raise ValidationError(f"a 'while' loop ran without end in {self.what}", s.span)
                    self.block(s.body, env)
        except _Break:
            pass
