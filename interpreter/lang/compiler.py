"""Compile checked AST into closures and flat instruction lists for the engine's frame machine.

Expressions become closures `fn(g, f)` (g: the running game, f: the current frame). Statements
become instructions, also closures `op(g, f)`, in a flat list per code block with jumps, so
that execution can stop at any decision and resume later: the whole continuation is the list of
frames (code, pc, locals), which is plain data to copy for `clone()` and to write for `to_json()`.
A `choose` inside an expression is lifted out into an instruction that runs before the statement
and stores the answer in a temporary local (A-normal form).

The runtime interface the closures use (`g.read`, `g.move`, `g.choose`, ...) is implemented by
`interpreter.engine.game.Game`; this module never imports the engine.
"""

from __future__ import annotations

import operator
import string
from typing import Any

from ..errors import Span, ValidationError
from . import ast
from .analysis import binders, chooses_in, constant, free_name_counts, substitute, trivial  # noqa: F401  (constant is re-exported)
from .native import BREAK, NativeStatements, nothing
from .runtime import (  # noqa: F401  (BUILTIN_FUNCTIONS and Frame re-exported for older imports)
    BINOPS,
    BUILTIN_FUNCTIONS,
    BUILTIN_PROCEDURES,
    CONTEXT_NAMES,
    TYPE_NAMES,
    Ability,
    CardDefinition,
    Code,
    Fn,
    Frame,
    Names,
    StaticEffect,
    _as_list,
    _index,
    _is_card,
    _is_player,
)
from .values import AbilityRef, CardRef, PlayerRef, ZoneKey


class Compiler(NativeStatements):
    """Compiles procedures, functions, keyword bundles and cards against a `Names` table."""

    def __init__(self, names: Names) -> None:
        self.names = names
        self.procedure_codes: dict[str, Code] = {}
        self.function_impls: dict[str, list] = {}
        self.codes: dict[str, Code] = {}
        self._temp = 0
        self._span: Span | None = None
        self._inlining: list[str] = []
        for name, proc in names.procedures.items():
            self.procedure_codes[name] = Code(f"procedure {name}", proc.span, proc.params)
        for name in names.functions:
            self.function_impls[name] = [None]

    def compile_all(self) -> None:
        self._find_native_procedures()
        for name, proc in self.names.procedures.items():
            code = self.procedure_codes[name]
            self._compile_body(proc.body, code)
            self.codes[code.name] = code
        for name, fn in self.names.functions.items():
            self.function_impls[name][0] = self.expr(fn.body)
        for name in self.native_procedures:
            body = self.names.procedures[name].body
            self._native_bodies[name][0] = self.native_block(body) if body else nothing

    # ----------------------------------------------------------------- blocks
    def block(self, name: str, body: tuple[ast.Stmt, ...], span: Span) -> Code:
        code = Code(name, span)
        self._compile_body(body, code)
        if name in self.codes:
            raise ValidationError(f"two code blocks are named {name!r}", span)
        self.codes[name] = code
        return code

    def _compile_body(self, body, code: Code) -> None:
        self.stmts(body, code, [])

    def stmts(self, body, code: Code, loops: list) -> None:
        """Compile statements; runs of statements that cannot suspend become one native instruction."""
        run: list[ast.Stmt] = []
        for st in body:
            if self.is_native(st):
                run.append(st)
                continue
            if run:
                self._native_instr(run, code, loops)
                run = []
            self.stmt(st, code, loops)
        if run:
            self._native_instr(run, code, loops)

    def _native_instr(self, run: list[ast.Stmt], code: Code, loops: list) -> None:
        block = self.native_block(run)
        end = loops[-1][0] if loops else None

        def op(g, f):
            signal = block(g, f)
            if signal is not None:
                f.pc = end[0] if signal is BREAK and end is not None else len(f.code.instrs)

        code.instrs.append(op)
        code.spans.append(run[0].span)

    def _tmp(self) -> str:
        self._temp += 1
        return f"${self._temp}"

    # ----------------------------------------------------------------- statements
    def stmt(self, s: ast.Stmt, code: Code, loops: list) -> None:
        subst: dict[int, str] = {}
        for choose in chooses_in(s):
            var = self._tmp()
            self._emit_choose(choose, var, code, subst)
            subst[id(choose)] = var
        self._subst = subst
        parent = self._span
        code.spans.extend([parent] * (len(code.instrs) - len(code.spans)))
        self._span = s.span
        method = getattr(self, "s_" + type(s).__name__)
        method(s, code, loops)
        code.spans.extend([s.span] * (len(code.instrs) - len(code.spans)))
        self._span = parent

    def _emit_choose(self, c: ast.Choose, var: str, code: Code, subst: dict[int, str]) -> None:
        self._subst = subst
        source = self.expr(c.source)
        chooser = self.expr(c.chooser) if c.chooser is not None else None
        count = self.expr(c.count) if c.count is not None else None
        kind, span = c.kind, c.span
        prompt = self.prompt(c.label)

        def op(g, f):
            who = chooser(g, f) if chooser is not None else f.controller
            n = count(g, f) if count is not None else 1
            g.choose(f, var, kind, n, prompt(g, f), _as_list(source(g, f)), who, span)

        code.instrs.append(op)

    def prompt(self, text: str | None) -> Fn:
        """A decision's prompt; `{name}` or `{name.attr}` in it shows that value (as options show
        values) when the decision is asked: "a target for {card} to hit"."""
        if text is None or "{" not in text:
            return lambda g, f: text
        pieces: list = []
        for literal, field_name, _spec, _conv in string.Formatter().parse(text):
            if literal:
                pieces.append(literal)
            if field_name:
                head, *attrs = field_name.split(".")
                getter = self.expr(ast.Name(head))
                pieces.append((getter, tuple(attrs)))

        def render(g, f):
            out = []
            for piece in pieces:
                if type(piece) is str:
                    out.append(piece)
                    continue
                getter, attrs = piece
                value = getter(g, f)
                for attr in attrs:
                    value = g.read(value, attr)
                out.append(g.label(value))
            return "".join(out)

        return render

    def s_Let(self, s: ast.Let, code: Code, loops) -> None:
        value = self.expr(s.value)
        name = s.name

        def op(g, f):
            f.locals[name] = value(g, f)

        code.instrs.append(op)

    def s_Assign(self, s: ast.Assign, code: Code, loops) -> None:
        value = self.expr(s.value)
        target = s.target
        if isinstance(target, ast.Name):
            name = target.id
            if s.op == "=":
                def op(g, f):
                    f.locals[name] = value(g, f)
            else:
                sign = 1 if s.op == "+=" else -1

                def op(g, f):
                    f.locals[name] = f.locals[name] + sign * value(g, f)
        else:
            assert isinstance(target, ast.Attribute)
            obj = self.expr(target.obj)
            attr = target.name
            local = target.obj.id if isinstance(target.obj, ast.Name) and target.obj.id not in CONTEXT_NAMES \
                and target.obj.id not in self.names.keywords else None
            if s.op == "=" and local is not None:
                def op(g, f):
                    g.write(f.locals[local], attr, value(g, f))
            elif s.op == "=":
                def op(g, f):
                    g.write(obj(g, f), attr, value(g, f))
            else:
                sign = 1 if s.op == "+=" else -1

                def op(g, f):
                    o = obj(g, f)
                    g.write(o, attr, g.read_base(o, attr) + sign * value(g, f))
        code.instrs.append(op)

    def s_CallStmt(self, s: ast.CallStmt, code: Code, loops) -> None:
        call = s.call
        assert isinstance(call, ast.Call)
        if call.func in self.names.procedures:
            proc_code = self.procedure_codes[call.func]
            params = proc_code.params
            args = [self.expr(a) for a in call.args]
            named = {a.name: self.expr(a.value) for a in call.kwargs}
            proc_name = call.func

            def op(g, f):
                values = {p: a(g, f) for p, a in zip(params, args, strict=False)}
                for k, a in named.items():
                    values[k] = a(g, f)
                g.call(proc_name, proc_code, values, f)

            code.instrs.append(op)
        elif call.func == "run":
            card, part = (self.expr(a) for a in call.args)

            def op(g, f):
                g.run_part(card(g, f), part(g, f))

            code.instrs.append(op)
        elif call.func == "reveal":
            what = self.expr(call.args[0])

            def op(g, f):
                g.reveal(what(g, f))

            code.instrs.append(op)
        elif call.func == "aim":  # run an activated ability's target block
            ability = self.expr(call.args[0])

            def op(g, f):
                g.aim(ability(g, f))

            code.instrs.append(op)
        elif call.func == "use":  # run an activated ability's effect
            ability = self.expr(call.args[0])

            def op(g, f):
                g.activate(ability(g, f))

            code.instrs.append(op)
        else:
            fn = self.expr(call)

            def op(g, f):
                fn(g, f)

            code.instrs.append(op)

    def s_If(self, s: ast.If, code: Code, loops) -> None:
        end_jumps: list[list[int]] = []
        conditions = [self.expr(branch.condition) for branch in s.branches]
        for branch, cond in zip(s.branches, conditions):
            skip = [0]

            def test(g, f, cond=cond, skip=skip):
                if not cond(g, f):
                    f.pc = skip[0]

            code.instrs.append(test)
            self.stmts(branch.body, code, loops)
            end = [0]
            end_jumps.append(end)
            code.instrs.append(_jump(end))
            skip[0] = len(code.instrs)
        if s.orelse:
            self.stmts(s.orelse, code, loops)
        for end in end_jumps:
            end[0] = len(code.instrs)

    def s_For(self, s: ast.For, code: Code, loops) -> None:
        iterable = self.expr(s.iterable)
        seq_var, idx_var, var = self._tmp(), self._tmp(), s.var

        def init(g, f):
            f.locals[seq_var] = list(_as_list(iterable(g, f)))
            f.locals[idx_var] = 0

        code.instrs.append(init)
        head = len(code.instrs)
        end = [0]

        def step(g, f):
            i = f.locals[idx_var]
            seq = f.locals[seq_var]
            if i >= len(seq):
                f.pc = end[0]
            else:
                f.locals[var] = seq[i]
                f.locals[idx_var] = i + 1

        code.instrs.append(step)
        loops.append((end, head))
        self.stmts(s.body, code, loops)
        loops.pop()
        code.instrs.append(_jump([head]))
        end[0] = len(code.instrs)

    def s_Repeat(self, s: ast.Repeat, code: Code, loops) -> None:
        count = self.expr(s.count)
        left = self._tmp()

        def init(g, f):
            f.locals[left] = count(g, f)

        code.instrs.append(init)
        head = len(code.instrs)
        end = [0]

        def step(g, f):
            n = f.locals[left]
            if n <= 0:
                f.pc = end[0]
            else:
                f.locals[left] = n - 1

        code.instrs.append(step)
        loops.append((end, head))
        self.stmts(s.body, code, loops)
        loops.pop()
        code.instrs.append(_jump([head]))
        end[0] = len(code.instrs)

    def s_While(self, s: ast.While, code: Code, loops) -> None:
        # chooses in the condition were lifted before the loop: re-run them at each test.
        head = len(code.instrs)
        lifted = len(self._subst)
        if lifted:
            head -= lifted
        cond = self.expr(s.condition)
        end = [0]

        def test(g, f):
            if not cond(g, f):
                f.pc = end[0]

        code.instrs.append(test)
        loops.append((end, head))
        self.stmts(s.body, code, loops)
        loops.pop()
        code.instrs.append(_jump([head]))
        end[0] = len(code.instrs)

    def s_Break(self, s: ast.Break, code: Code, loops) -> None:
        end, _head = loops[-1]
        code.instrs.append(_jump(end))

    def s_Stop(self, s: ast.Stop, code: Code, loops) -> None:
        def op(g, f):
            f.pc = len(f.code.instrs)

        code.instrs.append(op)

    def s_Move(self, s: ast.Move, code: Code, loops) -> None:
        card = self.expr(s.card)
        zone = self.zone_key(s.zone)
        pos = self.expr(s.position) if s.position is not None else None

        def op(g, f):
            c = card(g, f)
            if c is None:
                return
            key = zone(g, f)
            p = pos(g, f) if pos is not None else None
            for one in _as_list(c):
                g.move(one, key, p)

        code.instrs.append(op)

    def s_Create(self, s: ast.Create, code: Code, loops) -> None:
        name = self.expr(s.card_name)
        zone = self.zone_key(s.zone)
        attrs = [(a.name, self.expr(a.value)) for a in s.attrs]
        bind = s.bind

        def op(g, f):
            key = zone(g, f)
            card = g.create(name(g, f), key, {k: v(g, f) for k, v in attrs}, f)
            if bind is not None:
                f.locals[bind] = card

        code.instrs.append(op)

    def s_Shuffle(self, s: ast.Shuffle, code: Code, loops) -> None:
        zone = self.zone_key(s.zone)

        def op(g, f):
            g.shuffle(zone(g, f))

        code.instrs.append(op)

    def s_Emit(self, s: ast.Emit, code: Code, loops) -> None:
        args = [(a.name, self.expr(a.value)) for a in s.args]
        name = s.event
        if not args:
            def op(g, f):
                g.emit(name, {})
        elif len(args) == 1:
            (k0, v0), = args

            def op(g, f):
                g.emit(name, {k0: v0(g, f)})
        else:
            def op(g, f):
                g.emit(name, {k: v(g, f) for k, v in args})

        code.instrs.append(op)

    def s_Attach(self, s: ast.Attach, code: Code, loops) -> None:
        card, target = self.expr(s.card), self.expr(s.target)

        def op(g, f):
            g.attach(card(g, f), target(g, f))

        code.instrs.append(op)

    def s_Detach(self, s: ast.Detach, code: Code, loops) -> None:
        card = self.expr(s.card)

        def op(g, f):
            g.detach(card(g, f))

        code.instrs.append(op)

    def s_Delete(self, s: ast.Delete, code: Code, loops) -> None:
        card = self.expr(s.card)

        def op(g, f):
            for c in _as_list(card(g, f)):
                g.delete(c)

        code.instrs.append(op)

    def s_ModifyUntil(self, s: ast.ModifyUntil, code: Code, loops) -> None:
        assert isinstance(s.target, ast.Attribute)
        obj, attr, amount = self.expr(s.target.obj), s.target.name, self.expr(s.amount)
        mode, until = s.mode, s.until

        def op(g, f):
            for o in _as_list(obj(g, f)):
                g.add_temporary_modifier(o, attr, mode, amount(g, f), until, f)

        code.instrs.append(op)

    def s_GrantUntil(self, s: ast.GrantUntil, code: Code, loops) -> None:
        target = self.expr(s.target)
        args = [self.expr(a) for a in s.args]
        keyword, until = s.keyword, s.until
        dynamic = keyword not in self.names.keywords

        def op(g, f):
            values = tuple(a(g, f) for a in args)
            name = f.locals[keyword] if dynamic else keyword
            for o in _as_list(target(g, f)):
                g.add_temporary_grant(o, name, values, until, f)

        code.instrs.append(op)

    def s_May(self, s: ast.May, code: Code, loops) -> None:
        var = self._tmp()
        chooser = self.expr(s.chooser) if s.chooser is not None else None
        span = s.span
        prompt = self.prompt(s.label or "may")

        def ask(g, f):
            who = chooser(g, f) if chooser is not None else f.controller
            g.choose(f, var, "one", 1, prompt(g, f), [True, False], who, span, always_ask=True)

        code.instrs.append(ask)
        skip = [0]

        def test(g, f):
            if not f.locals[var]:
                f.pc = skip[0]

        code.instrs.append(test)
        self.stmts(s.body, code, loops)
        end = [0]
        code.instrs.append(_jump(end))
        skip[0] = len(code.instrs)
        self.stmts(s.orelse or (), code, loops)
        end[0] = len(code.instrs)

    def s_Win(self, s: ast.Win, code: Code, loops) -> None:
        player, reason = self.expr(s.player), s.reason

        def op(g, f):
            g.finish(winner=player(g, f), reason=reason or "win")

        code.instrs.append(op)

    def s_Lose(self, s: ast.Lose, code: Code, loops) -> None:
        player, reason = self.expr(s.player), s.reason

        def op(g, f):
            g.finish(loser=player(g, f), reason=reason or "loss")

        code.instrs.append(op)

    def s_Tie(self, s: ast.Tie, code: Code, loops) -> None:
        reason = s.reason

        def op(g, f):
            g.finish(reason=reason or "draw")

        code.instrs.append(op)

    # ----------------------------------------------------------------- zones
    def zone_key(self, e: ast.Expr) -> Fn:
        """A zone reference `name(player[, row])` or `name()` for a shared zone -> its key."""
        if isinstance(e, ast.Call) and e.func in self.names.zones:
            name = e.func
            args = [self.expr(a) for a in e.args]
            spec = self.names.zones[name]
            if not args:
                return lambda g, f: g.zone_key(name, None, None)
            if len(args) == 1:
                a0 = args[0]
                if spec.per_player and not spec.rows:
                    keys = [None] + [ZoneKey(name, seat, "") for seat in range(1, self.names.player_count + 1)]
                    kind, what = self._operand(e.args[0])
                    if kind == "local":
                        def local_player_key(g, f):
                            p = f.locals[what]
                            if type(p) is PlayerRef:
                                return keys[p.seat]
                            return g.zone_key(name, p, None)

                        return local_player_key

                    def per_player_key(g, f):
                        p = a0(g, f)
                        if type(p) is PlayerRef:
                            return keys[p.seat]
                        return g.zone_key(name, p, None)

                    return per_player_key
                return lambda g, f: g.zone_key(name, a0(g, f), None)
            a0, a1 = args
            return lambda g, f: g.zone_key(name, a0(g, f), a1(g, f))
        raise ValidationError("expected a zone, such as hand(you)", e.span)

    # ----------------------------------------------------------------- expressions
    def expr(self, e: ast.Expr | None) -> Fn:
        if e is None:
            return lambda g, f: None
        method = getattr(self, "e_" + type(e).__name__)
        return method(e)

    def _operand(self, e: ast.Expr) -> tuple[str, Any]:
        """('local', name), ('const', value) or ('fn', closure): lets hot expressions read a local
        or a constant directly instead of calling a closure for it."""
        if isinstance(e, ast.Name) and e.id not in CONTEXT_NAMES and e.id not in self.names.keywords:
            return "local", e.id
        if isinstance(e, (ast.IntLit, ast.StrLit, ast.BoolLit)):
            return "const", e.value
        if isinstance(e, ast.NoneLit):
            return "const", None
        return "fn", self.expr(e)

    def e_IntLit(self, e):
        v = e.value
        return lambda g, f: v

    e_StrLit = e_IntLit
    e_BoolLit = e_IntLit

    def e_NoneLit(self, e):
        return lambda g, f: None

    def e_Name(self, e: ast.Name):
        name = e.id
        if name == "self":
            return lambda g, f: f.self_card
        if name == "you":
            return lambda g, f: f.controller
        if name == "event":
            return lambda g, f: f.event
        if name == "players":
            return lambda g, f: g.players
        if name == "game":
            return lambda g, f: g.GAME
        if name == "options":
            return lambda g, f: g.OPTIONS
        if name in self.names.keywords:
            return lambda g, f: name

        return lambda g, f: f.locals[name]

    def e_Attribute(self, e: ast.Attribute):
        attr = e.name
        if isinstance(e.obj, ast.Name):
            if e.obj.id == "game":
                return lambda g, f: g.read_global(attr)
            if e.obj.id == "options":
                return lambda g, f: g.options[attr]
            if e.obj.id == "event":
                return lambda g, f: f.event.get(attr)
            if e.obj.id == "self":
                return lambda g, f: g.read(f.self_card, attr)
            if e.obj.id not in CONTEXT_NAMES and e.obj.id not in self.names.keywords:
                local = e.obj.id
                return lambda g, f: g.read(f.locals[local], attr)
        obj = self.expr(e.obj)
        return lambda g, f: g.read(obj(g, f), attr)

    def e_Index(self, e: ast.Index):
        obj, idx = self.expr(e.obj), self.expr(e.index)
        return lambda g, f: _index(obj(g, f), idx(g, f))

    def e_Call(self, e: ast.Call):
        func = e.func
        args = [self.expr(a) for a in e.args]
        if func in self.names.zones:
            spec = self.names.zones[func]
            if not args:
                return lambda g, f: g.zone_cards_all(func)
            if spec.rows and spec.per_player and len(args) == 1:  # a player's side: every row
                a0 = args[0]
                return lambda g, f: g.zone_cards_of(func, a0(g, f))
            key = self.zone_key(e)
            return lambda g, f: list(g.zones[key(g, f)])
        if func in ("count", "first") and len(e.args) == 1 and isinstance(e.args[0], ast.Call) \
                and e.args[0].func in self.names.zones and e.args[0].args:
            key = self.zone_key(e.args[0])  # count(zone(p)) / first(zone(p)): no copy of the zone
            if func == "count":
                return lambda g, f: len(g.zones[key(g, f)])

            def first_of_zone(g, f):
                cards = g.zones[key(g, f)]
                return cards[0] if cards else None

            return first_of_zone
        if func in self.names.functions:
            fn_def = self.names.functions[func]
            inlined = self._inline(fn_def, e.args)
            if inlined is not None:
                self._inlining.append(func)
                try:
                    return self.expr(inlined)
                finally:
                    self._inlining.pop()
            impl = self.function_impls[func]
            params = fn_def.params

            def call_function(g, f):
                inner = Frame(None, {p: a(g, f) for p, a in zip(params, args, strict=False)}, f.self_card, f.controller, f.event)
                return impl[0](g, inner)

            return call_function
        _lo, _hi, fn = BUILTIN_FUNCTIONS[func]
        if len(args) == 1:
            kind, what = self._operand(e.args[0])
            if kind == "local":
                return lambda g, f: fn(g, f.locals[what])
            a0 = args[0]
            return lambda g, f: fn(g, a0(g, f))
        if len(args) == 2:
            a0, a1 = args
            return lambda g, f: fn(g, a0(g, f), a1(g, f))
        return lambda g, f: fn(g, *[a(g, f) for a in args])

    def _inline(self, fn_def: ast.Function, args: tuple[ast.Expr, ...]) -> ast.Expr | None:
        """The function's body with its parameters replaced by the call's arguments, when that is
        safe: not recursive, no argument evaluated twice unless trivial, no name captured."""
        if fn_def.name in self._inlining or len(args) != len(fn_def.params):
            return None
        uses = free_name_counts(fn_def.body)
        for param, arg in zip(fn_def.params, args):
            if uses.get(param, 0) > 1 and not trivial(arg):
                return None
        arg_names: set[str] = set()
        for arg in args:
            arg_names.update(free_name_counts(arg))
        if binders(fn_def.body) & arg_names:
            return None
        return substitute(fn_def.body, dict(zip(fn_def.params, args)))

    def e_ListLit(self, e: ast.ListLit):
        items = [self.expr(i) for i in e.items]
        return lambda g, f: [i(g, f) for i in items]

    def e_Comprehension(self, e: ast.Comprehension):
        element, source, var = self.expr(e.element), self.expr(e.source), e.var
        cond = self.expr(e.condition) if e.condition is not None else None

        def comp(g, f):
            out = []
            saved = f.locals.get(var, _MISSING)
            for v in _as_list(source(g, f)):
                f.locals[var] = v
                if cond is None or cond(g, f):
                    out.append(element(g, f))
            _restore(f, var, saved)
            return out

        return comp

    def e_Select(self, e: ast.Select):
        source, var = self.expr(e.source), e.var
        where = self.expr(e.where) if e.where is not None else None
        key = self.expr(e.order_by) if e.order_by is not None else None
        desc = e.descending

        def select(g, f):
            items = source(g, f)
            if type(items) is not list:
                items = _as_list(items)
            locals_ = f.locals
            saved = locals_.get(var, _MISSING)
            if where is not None:
                out = []
                for v in items:
                    locals_[var] = v
                    if where(g, f):
                        out.append(v)
            else:
                out = list(items)
            if key is not None:
                keyed = []
                for v in out:
                    locals_[var] = v
                    keyed.append((key(g, f), v))
                keyed.sort(key=lambda kv: kv[0], reverse=desc)
                out = [v for _k, v in keyed]
            if saved is _MISSING:
                locals_.pop(var, None)
            else:
                locals_[var] = saved
            return out

        return select

    def e_Choose(self, e: ast.Choose):
        var = self._subst.get(id(e))
        if var is None:
            raise ValidationError("'choose' is not allowed here (only in statements of effects)", e.span)
        return lambda g, f: f.locals[var]

    def e_BinOp(self, e: ast.BinOp):
        left, right = self.expr(e.left), self.expr(e.right)
        if e.op == "and":
            return lambda g, f: left(g, f) and right(g, f)
        if e.op == "or":
            return lambda g, f: left(g, f) or right(g, f)
        if e.op == "in" and isinstance(e.right, ast.Call) and e.right.func in self.names.zones and e.right.args:
            key = self.zone_key(e.right)  # membership in one zone: no copy of its list
            return lambda g, f: left(g, f) in g.zones[key(g, f)]
        if e.op == "in":
            def contains(g, f):
                r = right(g, f)
                return left(g, f) in (r if type(r) is list else _as_list(r))
            return contains
        if isinstance(e.right, (ast.IntLit, ast.StrLit, ast.NoneLit, ast.BoolLit)) and e.op in (
                "==", "!=", "<", "<=", ">", ">=", "-", "+"):
            k = None if isinstance(e.right, ast.NoneLit) else e.right.value
            op_name = e.op
            if op_name == "==":
                return lambda g, f: left(g, f) == k
            if op_name == "!=":
                return lambda g, f: left(g, f) != k
            if op_name == "<":
                return lambda g, f: left(g, f) < k
            if op_name == "<=":
                return lambda g, f: left(g, f) <= k
            if op_name == ">":
                return lambda g, f: left(g, f) > k
            if op_name == ">=":
                return lambda g, f: left(g, f) >= k
            if op_name == "-":
                return lambda g, f: left(g, f) - k
        lk, lv = self._operand(e.left)
        rk, rv = self._operand(e.right)
        if lk == "local" and rk == "local" and e.op in ("==", "!="):
            if e.op == "==":
                return lambda g, f: f.locals[lv] == f.locals[rv]
            return lambda g, f: f.locals[lv] != f.locals[rv]
        if lk == "local" and rk == "const" and e.op in ("==", "!=", "<", "<=", ">", ">=", "+", "-"):
            op_fn = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
                     ">=": operator.ge, "+": operator.add, "-": operator.sub}[e.op]
            return lambda g, f: op_fn(f.locals[lv], rv)
        if e.op == "==":
            return lambda g, f: left(g, f) == right(g, f)
        if e.op == "!=":
            return lambda g, f: left(g, f) != right(g, f)
        if e.op == "<":
            return lambda g, f: left(g, f) < right(g, f)
        if e.op == "<=":
            return lambda g, f: left(g, f) <= right(g, f)
        if e.op == ">":
            return lambda g, f: left(g, f) > right(g, f)
        if e.op == ">=":
            return lambda g, f: left(g, f) >= right(g, f)
        if e.op == "-":
            return lambda g, f: left(g, f) - right(g, f)
        if e.op == "*":
            return lambda g, f: left(g, f) * right(g, f)
        op = BINOPS[e.op]
        return lambda g, f: op(left(g, f), right(g, f))

    def e_Not(self, e: ast.Not):
        inner = self.expr(e.operand)
        return lambda g, f: not inner(g, f)

    def e_Neg(self, e: ast.Neg):
        inner = self.expr(e.operand)
        return lambda g, f: -inner(g, f)

    def e_IsType(self, e: ast.IsType):
        inner, t, neg = self.expr(e.operand), e.type_name, e.negated
        if t == "player":
            test = _is_player
        elif t == "card":
            test = _is_card
        elif t == "list":
            def test(v):
                return isinstance(v, list)
        elif t == "none":
            def test(v):
                return v is None
        elif t == "int":
            def test(v):
                return isinstance(v, int) and not isinstance(v, bool)
        elif t == "text":
            def test(v):
                return isinstance(v, str)
        elif t == "bool":
            def test(v):
                return isinstance(v, bool)
        elif t == "ability":
            def test(v):
                return isinstance(v, AbilityRef)
        else:  # a card type of the ruleset
            def test(v):
                return isinstance(v, CardRef) and v.defn.type == t
        if neg:
            return lambda g, f: not test(inner(g, f))
        return lambda g, f: test(inner(g, f))

    # ----------------------------------------------------------------- abilities and cards
    def abilities(self, owner: str, items, part: str | None, keyword: str = "",
                  params: tuple[str, ...] = ()) -> list[Ability]:
        out = []
        for i, a in enumerate(items):
            base = f"{'keyword ' + keyword if keyword else owner}{'/' + part if part else ''}#{i}"
            self._subst = {}
            if isinstance(a, ast.Static):
                effects = []
                for eff in a.effects:
                    cond = self.expr(eff.condition) if eff.condition is not None else None
                    if isinstance(eff, ast.StaticModify):
                        assert isinstance(eff.target, ast.Attribute)
                        effects.append(StaticEffect(eff.target.name, self.expr(eff.target.obj), eff.mode,
                                                    self.expr(eff.amount), cond))
                    else:
                        dynamic = eff.keyword in params
                        name = eff.keyword
                        effects.append(StaticEffect("", self.expr(eff.target), "grant", None, cond,
                                                    "" if dynamic else name, tuple(self.expr(x) for x in eff.args),
                                                    (lambda g, f, n=name: f.locals[n]) if dynamic else None))
                out.append(Ability("static", owner, i, part, statics=tuple(effects), keyword=keyword,
                                   keyword_params=params, span=a.span))
            elif isinstance(a, (ast.Triggered, ast.Replacement)):
                kind = "triggered" if isinstance(a, ast.Triggered) else "replacement"
                cond = self.expr(a.condition) if a.condition is not None else None
                code = self.block(f"{kind} {base} on {a.event}", a.body, a.span)
                out.append(Ability(kind, owner, i, part, event=a.event, condition=cond, code=code,
                                   keyword=keyword, keyword_params=params, span=a.span))
            else:
                cond = self.expr(a.condition) if a.condition is not None else None
                cost = self.expr(a.cost) if a.cost is not None else None
                code = self.block(f"activated {base}", a.body, a.span)
                target = self.block(f"activated {base} target", a.target, a.span) if a.target is not None else None
                out.append(Ability("activated", owner, i, part, condition=cond, code=code, label=a.label,
                                   cost=cost, keyword=keyword, keyword_params=params, span=a.span,
                                   target_code=target))
        return out

    def keyword_bundle(self, kw: ast.KeywordDef) -> list[Ability]:
        return self.abilities(kw.name, kw.abilities, None, keyword=kw.name, params=kw.params)

    def card(self, c: ast.CardDef, attrs: dict[str, Any], token: bool) -> CardDefinition:
        parts: dict[str, Code] = {}
        abilities: list[Ability] = self.abilities(c.name, c.abilities, None)
        for p in c.parts:
            self._subst = {}
            parts[p.name] = self.block(f"card {c.name}/{p.name}", p.body, p.span)
            abilities.extend(self.abilities(c.name, p.abilities, p.name))
        keywords = tuple((k.name, tuple(constant(a) for a in k.args)) for k in c.keywords)
        return CardDefinition(c.name, c.type, attrs, keywords, parts, tuple(abilities), c.span, token, c)

    def code_block(self, name: str, body: tuple[ast.Stmt, ...], span: Span) -> Code:
        self._subst = {}
        return self.block(name, body, span)

    def expression(self, e: ast.Expr) -> Fn:
        self._subst = {}
        return self.expr(e)


_MISSING = object()


def _restore(f, var, saved) -> None:
    if saved is _MISSING:
        f.locals.pop(var, None)
    else:
        f.locals[var] = saved


def _jump(target: list[int]) -> Fn:
    def op(g, f):
        f.pc = target[0]

    return op
