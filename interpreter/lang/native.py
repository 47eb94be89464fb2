"""Statements that cannot suspend, compiled to plain Python closures.

A statement that can neither take a decision, nor push a frame (a procedure that may be
replaced or may suspend, an event that may trigger abilities or end the game), nor end the game
runs as plain Python: no instruction dispatch, no frame for the procedures it calls. The
`NativeStatements` mixin gives the `Compiler` this second way of compiling.
"""

from __future__ import annotations

from . import ast
from .analysis import has_choose
from .runtime import Code, Fn, Frame, _as_list

BREAK = object()
STOP = object()


def nothing(g, f):
    return None


def _loop(body: Fn, var: str | None) -> Fn:
    """Runs a loop body over items (binding `var` to each, if given): `break` ends the loop,
    `stop` ends it and is passed on."""

    def run(g, f, items):
        locals_ = f.locals
        for v in items:
            if var is not None:
                locals_[var] = v
            signal = body(g, f)
            if signal is not None:
                return STOP if signal is STOP else None
        return None

    return run


class NativeStatements:
    """Compiles statements that cannot suspend into closures returning None, BREAK or STOP."""

    # A statement that can neither take a decision, nor push a frame (a procedure that may be
    # replaced or may suspend, an event that may trigger abilities or end the game), nor end the
    # game runs as plain Python: no instruction dispatch, no frame for the procedures it calls.

    def _find_native_procedures(self) -> None:
        self.native_procedures: set[str] = set()
        self._native_memo: dict[int, bool] = {}
        changed = True
        while changed:
            changed = False
            for name, proc in self.names.procedures.items():
                if name in self.native_procedures or name in self.names.replaced_procedures:
                    continue
                self._native_memo = {}
                if all(self.is_native(st) for st in proc.body):
                    self.native_procedures.add(name)
                    changed = True
        self._native_memo = {}
        self._native_bodies: dict[str, list] = {n: [None] for n in self.native_procedures}

    def is_native(self, s: ast.Stmt) -> bool:
        key = id(s)
        memo = self._native_memo
        if key not in memo:
            memo[key] = self._is_native(s)
        return memo[key]

    def _is_native(self, s: ast.Stmt) -> bool:
        if has_choose(s):
            return False
        if isinstance(s, (ast.May, ast.Win, ast.Lose, ast.Tie)):
            return False
        if isinstance(s, ast.CallStmt):
            c = s.call
            if not isinstance(c, ast.Call):
                return False
            if c.func in self.names.procedures:
                return c.func in self.native_procedures
            return c.func not in ("run", "use", "aim")
        if isinstance(s, ast.Emit):
            events = self.names.suspending_events
            return events is not None and s.event not in events
        if isinstance(s, ast.Move):
            events = self.names.suspending_events
            return events is not None and "moved" not in events and "moved" not in self.names.wanted_events
        if isinstance(s, ast.If):
            return all(self.is_native(st) for br in s.branches for st in br.body) and all(
                self.is_native(st) for st in s.orelse or ())
        if isinstance(s, (ast.For, ast.Repeat, ast.While)):
            return all(self.is_native(st) for st in s.body)
        return True

    def native_block(self, body) -> Fn:
        parts = [self.native(st) for st in body]
        if len(parts) == 1:
            return parts[0]
        if len(parts) == 2:
            a, b = parts

            def two(g, f):
                return a(g, f) or b(g, f)

            return two

        def block(g, f):
            for part in parts:
                signal = part(g, f)
                if signal is not None:
                    return signal
            return None

        return block

    def native(self, s: ast.Stmt) -> Fn:
        self._subst = {}
        if isinstance(s, ast.Break):
            return lambda g, f: BREAK
        if isinstance(s, ast.Stop):
            return lambda g, f: STOP
        if isinstance(s, ast.If):
            tests = [(self.expr(br.condition), self.native_block(br.body) if br.body else nothing)
                     for br in s.branches]
            orelse = self.native_block(s.orelse) if s.orelse else nothing
            if len(tests) == 1:
                (cond, body), = tests

                def if_one(g, f):
                    if cond(g, f):
                        return body(g, f)
                    return orelse(g, f)

                return if_one

            def if_many(g, f):
                for cond, body in tests:
                    if cond(g, f):
                        return body(g, f)
                return orelse(g, f)

            return if_many
        if isinstance(s, ast.For):
            iterable, var = self.expr(s.iterable), s.var
            body = self.native_block(s.body) if s.body else nothing
            loop = _loop(body, var)

            def for_loop(g, f):
                return loop(g, f, list(_as_list(iterable(g, f))))

            return for_loop
        if isinstance(s, ast.Repeat):
            count = self.expr(s.count)
            body = self.native_block(s.body) if s.body else nothing
            loop = _loop(body, None)

            def repeat_loop(g, f):
                return loop(g, f, range(count(g, f)))

            return repeat_loop
        if isinstance(s, ast.While):
            cond = self.expr(s.condition)
            body = self.native_block(s.body) if s.body else nothing
            span = s.span

            def while_loop(g, f):
                budget = g.rules.step_budget
                while cond(g, f):
                    budget -= 1
                    if budget < 0:
                        g.runtime_error("a 'while' loop ran past the step budget", span)
                    signal = body(g, f)
                    if signal is not None:
                        if signal is STOP:
                            return STOP
                        break
                return None

            return while_loop
        if isinstance(s, ast.CallStmt) and isinstance(s.call, ast.Call) and s.call.func in self.native_procedures:
            call = s.call
            params = self.names.procedures[call.func].params
            args = [self.expr(a) for a in call.args]
            named = [(a.name, self.expr(a.value)) for a in call.kwargs]
            cell = self._native_bodies[call.func]

            def call_native(g, f):
                values = {p: a(g, f) for p, a in zip(params, args)}
                for k, a in named:
                    values[k] = a(g, f)
                cell[0](g, Frame(None, values, f.self_card, f.controller, f.event, f.applied))
                return None

            return call_native
        scratch = Code("native", s.span)
        getattr(self, "s_" + type(s).__name__)(s, scratch, [])
        (op,) = scratch.instrs
        return op
