"""Generate resumable Python functions for code that may stop for a decision.

A block of rule code that may suspend (take a decision, call a procedure that may, emit an event
that may trigger abilities) is written as plain structured Python: its `if`s are Python `if`s and
its loops Python `while` loops. Each point where it may stop first records its number in `f.pc`:

    f.pc = 3
    g.choose_one(f, '$1', ...)
    if g.halted:
        return None              # stopped: the frame resumes at point 3
    ...                          # not stopped: go on at once

To resume, the block has one more function per point: the code that follows the point, to the
end of the block. A point inside a loop resumes with the rest of that round, then the loop:

    for _once in _ONE:           # the rest of the round that stopped
        ...                      # (a `break` here leaves the loop: the `else` is passed over)
    else:
        while ...:               # the loop's next rounds
            ...

(without the one-round `for` when no `break` leaves the loop). `Code.run(g, f)` calls the function
for `f.pc` (0: the start); it returns None when it stopped and True when the block has ended. All
of the block's names live in the frame's locals, so a frame (code, pc, locals) is the whole
continuation: plain data for `clone()` and `to_json()`.

The code is first built as a small tree (straight lines, points, ifs, loops, inlined bodies), each
statement written once; the start and every resume function are then laid out from that tree
(resumable_tree.py). The statements come lowered (lang/ir.py): `ResumableWriter._method` says how
each that may stop is written, the others are written as the direct form writes them.
A procedure call is a point: `if not g.call_now(...): return None`, the engine running the
procedure's frame at once and saying whether the caller may go on.
"""

from __future__ import annotations

import string
from collections.abc import Callable
from typing import Any

from . import ir, ir_analysis
from .analysis import item_statements
from .codegen import CodeGenerator
from .codegen_scope import Scope, identifier, literal
from .codegen_tables import Line
from .kinds import name_of
from .resumable_tree import If, Inlined, Loop, Point, Straight, layout, leaves_loop, resumed

_SUSPENDED = "if g.halted or g.frames[-1] is not f and not g.descend(f):"

# A call to a procedure of at most this many statements is written into its caller, this many
# calls deep at most (see `ResumableWriter._inlined`).
_INLINE_STATEMENTS = 30
_INLINE_DEPTH = 2


def _breaks(s: ir.Stmt) -> bool:
    """Whether a statement holds a `break` of the loop around it."""
    if type(s) is ir.Break:
        return True
    if type(s) is not ir.If:  # (a loop's own breaks are its own)
        return False
    return any(_breaks(x) for b in (s.then, s.orelse) if b for x in b)


def dispatch(entries: list[Callable]) -> Callable:
    """`Code.run`: the entry for the frame's pc."""
    if len(entries) == 1:
        return entries[0]

    def run(g, f):
        return entries[f.pc](g, f)
    return run


class ResumableWriter:
    """Writes resumable functions with the expression and statement generator of a compiler."""

    def __init__(self, gen: CodeGenerator, host: Any) -> None:
        self.gen = gen
        self.host = host  # the compiler: which statements are native, temporaries, procedure codes
        self._inline_depth = 0
        self._recursive: set[str] | None = None  # procedures that may call themselves
        self._labels = 0
        self._body: tuple = ()  # the lowered statements of the function or inlined procedure being written
        self._bound: tuple[str, ...] = ()  # and the names it starts with

    def function(self, name: str, items: list, labels: dict[str, int] | None = None,
                 bound: tuple[str, ...] = (), returns: bool = False) -> list[Callable]:
        """The entries of a resumable function for statements (`Code.entries`: the start, then
        one per point to resume at). Items may also be ('label', key) to record a point to
        start at in `labels`, ('hook', python_call) for an engine call that may suspend,
        ('line', python_call) for one that cannot, ('rolling', python_lines) for lines of this form
        alone (the rollout form has no use for them), ('if', condition, items) for items run when
        the condition (an expression) holds (the ends of the rounds of the turn structure), and
        last ('jump', key) to go back to a label for ever (the main program's turns).
        `bound`: the names the frame's locals hold before it starts (parameters).
        `returns`: the block gives a value (`return`): it leaves it in `g.returned` on every way
        out (none when it ends without a `return`), where its caller reads it."""
        outer, self.gen.returning = self.gen.returning, "register" if returns else None
        try:
            return self._function(name, items, labels, bound, returns)
        finally:
            self.gen.returning = outer

    def _function(self, name: str, items: list, labels: dict[str, int] | None, bound: tuple[str, ...],
                  returns: bool) -> list[Callable]:
        self._labels = 0
        statements = item_statements(items)
        # (each item's IR, its names resolved in order: see `_items`)
        self._body, self._bound = self.gen.lowered_body(statements, bound), bound
        scope = Scope(frame=True, players=self.gen.player_names(self._body, bound),
                      lists=self.gen.list_names(self._body, bound), distinct=self.gen.distinct_names(self._body, bound))
        self.gen.stop_breaks = False
        nodes: list = []
        if items and isinstance(items[-1], tuple) and items[-1][0] == "jump":
            start = items.index(("label", items[-1][1]))
            self._items(items[:start], nodes, scope, labels)
            rounds: list = []
            self._items(items[start:-1], rounds, scope, labels)
            nodes.append(Loop("True", [], rounds, _budget(None), None, False))
        else:
            self._items(items, nodes, scope, labels)
        entries = []
        end = [("g.returned = None", None)] if returns else []  # (ended without a `return`)
        for label in range(self._labels + 1):
            lines = layout(nodes) if label == 0 else resumed(nodes, label)
            assert lines is not None, f"point {label} of {name} is missing"
            entries.append(self.gen.compile_lines(name if label == 0 else f"{name} resuming at {label}", ["g", "f"],
                                                  [("L = f.locals", None), *lines, *end, ("return True", None)],
                                                  Scope(frame=False)))
        return entries

    def _items(self, items: list, out: list, scope: Scope, labels: dict[str, int] | None) -> None:
        for item in items:
            if not isinstance(item, tuple):
                self.stmt(self.gen.lowering.statement(item), out, scope)
            elif item[0] == "label":
                label = self._new_label()
                out.append(Point(label, []))
                if labels is not None:
                    labels[item[1]] = label
            elif item[0] == "hook":
                self._point(out, item[1], None)
            elif item[0] == "line":
                out.append(Straight([(item[1], None)]))
            elif item[0] == "rolling":  # (lines for the resumable form only)
                out.append(Straight([(line, None) for line in item[1].split("\n")]))
            elif item[0] == "if":
                body: list = []
                self._items(item[2], body, scope, labels)
                out.append(If([(self.gen.ex(self.gen.lowering.expression(item[1]), scope), body)], None, item[1].span))
            else:
                raise AssertionError(f"a jump must come last: {item!r}")

    def _new_label(self) -> int:
        self._labels += 1
        return self._labels

    def _point(self, out: list, call: str, span, check: str | None = _SUSPENDED) -> None:
        """A call that may push frames or halt: resume after it."""
        label = self._new_label()
        lines = [(f"f.pc = {label}", span), (call, span)]
        if check is not None:  # (None: the call is itself the test)
            lines.append((check, span))
        lines.append(("    return None", span))
        out.append(Point(label, lines))

    # ------------------------------------------------------------------ statements
    def stmts(self, body, out: list, scope: Scope) -> None:
        for s in body or ():
            self.stmt(s, out, scope)

    def stmt(self, s: ir.Stmt, out: list, scope: Scope) -> None:
        gen = self.gen
        if self.host.is_native(s):
            gen.choices = {}
            own = {var: gen.temp("_v") for var in _loop_own_names(s, self._body, self._bound)}
            saved = scope.names
            scope.names = {**saved, **own}  # (Python locals: the statement cannot stop)
            try:
                out.append(Straight(gen.statement(s, scope, 0, "frame"), _breaks(s)))
            finally:
                scope.names = saved
            return
        subst: dict[int, str] = {}
        while_loop = type(s) is ir.Loop and s.kind == "while"
        head = [] if while_loop else out  # chooses in a condition are asked at each test
        for lifted in ir_analysis.chooses_in(s, self.host.value_procedures):
            var = self.host._tmp()
            if type(lifted) is ir.Ask:
                self._choose(lifted, var, head, scope, subst)
            else:
                self._value_call(lifted, var, head, scope, subst)
            subst[id(lifted)] = var
        gen.choices = subst
        method = self._method(s)
        if method is None:  # a native statement made suspending only by its choose
            out.append(Straight(gen.statement(s, scope, 0, "frame"), _breaks(s)))
        elif while_loop:
            method(s, out, scope, head)
            return  # (its condition's answers are asked again at each test)
        else:
            method(s, out, scope)
        if subst:  # the answers were read by the statement alone: they end with it
            out.append(Straight(_forgotten(subst.values(), s.span)))

    def _method(self, s: ir.Stmt) -> Callable | None:
        """How a statement that may stop is written (None: as the direct form writes it, its
        decisions asked before it): a call, an `if` (or a `may`), a loop, an event, a move."""
        kind = type(s)
        if kind is ir.If:
            return self.s_may if type(s.test) is ir.Ask else self.s_if
        if kind is ir.Loop:
            return getattr(self, "loop_" + s.kind)
        if kind is ir.GameOp:
            return self._suspending if s.op == "move" else None
        return {ir.CallStmt: self.s_call, ir.Emit: self._suspending}.get(kind)

    def _choose(self, c: ir.Ask, var: str, out: list, scope: Scope, subst: dict[int, str]) -> None:
        gen = self.gen
        gen.choices = subst
        held = self._held_names(c, scope)
        if held:  # frame names read more than once: read once, into Python locals
            out.append(Straight([(f"{temp} = {scope.get(name)}", c.span) for name, temp in held.items()]))
        saved = scope.names
        scope.names = {**saved, **held}
        try:
            source = gen.as_list(c.options, scope)
            chooser = gen.ex(c.chooser, scope) if c.chooser is not None else "f.controller"
            count = gen.ex(c.count, scope) if c.count is not None else "1"
        finally:
            scope.names = saved
        prompt = self.prompt(c.label, scope)
        if c.kind == "one":
            distinct = ", True" if gen.distinct_tags(c.options, scope) is not None else ""
            call = f"g.choose_one(f, {literal(var)}, {prompt}, {source}, {chooser}, {gen.const(c.span)}{distinct})"
        else:
            call = (f"g.choose(f, {literal(var)}, {gen.const(c.kind)}, {count}, {prompt}, {source}, "
                    f"{chooser}, {gen.const(c.span)})")
        self._point(out, call, c.span, "if g.halted:")

    def _value_call(self, call: ir.Call, var: str, out: list, scope: Scope, subst: dict[int, str]) -> None:
        """A call of a procedure for its value, before its statement: the value in the frame's
        local `var`. A procedure that may suspend is a point (`g.call_now`), the value read from
        `g.returned` right after it, where the frame resumes once it has ended."""
        gen, func = self.gen, call.name
        gen.choices = subst
        params = self.host.procedure_codes[func].params
        values = [f"{literal(p)}: {gen.ex(a, scope)}" for p, a in zip(params, call.args)]
        values += [f"{literal(name)}: {gen.ex(value, scope)}" for name, value in call.kwargs]
        target = f"L[{literal(var)}]"
        if func in self.host.native_procedures:
            args = [gen.ex(a, scope) for a in call.args]
            args += [f"{identifier(name)}={gen.ex(value, scope)}" for name, value in call.kwargs]
            lines = [(f"{target} = p_{gen._check(func)}(g, f{''.join(', ' + a for a in args)})", call.span)]
            if func in self.host.ending_procedures:
                lines += [("if g.halted:", call.span), ("    return None", call.span)]
            out.append(Straight(lines))
            return
        code = gen.const(self.host.procedure_codes[func])
        self._point(out, f"if not g.call_now({literal(func)}, {code}, {{{', '.join(values)}}}, f):",
                    call.span, None)
        out.append(Straight([(f"{target} = g.returned", call.span)]))

    def _held_names(self, c: ir.Ask, scope: Scope) -> dict[str, str]:
        """The block's names that a choice's options, chooser and count read more than once
        (inside a selection, once per item), each with a Python local to read it from: working
        out the options cannot change the frame's names (a `choose` inside them has been asked
        already, and an expression binds no name)."""
        reads: dict[str, int] = {}
        for part in (c.options, c.chooser, c.count):
            if part is not None:
                for name, n in ir_analysis.free_name_counts(part).items():
                    reads[name] = reads.get(name, 0) + n
        repeated = {name for name, n in reads.items() if n > 1}
        repeated |= {name for sel in ir.walk(c.options) if type(sel) in (ir.Select, ir.Comprehension)
                     for name in ir_analysis.names_in(sel)} & set(reads)
        locals_ = set(ir_analysis.local_bindings(self._body)) | set(self._bound)
        held = {}
        for name in sorted(repeated):
            known = scope.names.get(name)
            if known is not None and known.startswith("L[") or known is None and name in locals_:
                held[name] = self.gen.temp("_h")
        return held

    def prompt(self, text: str | None, scope: Scope) -> str:
        """A decision's prompt; `{name}` or `{name.attr}` in it shows that value (as options show
        values) when the decision is asked: "a target for {card} to hit". Such a prompt is a
        function of the waiting frame's locals, called only if someone reads it."""
        gen = self.gen
        if text is None or "{" not in text:
            return gen.const(text)
        pieces: list[str] = []
        for literal_text, field_name, _spec, _conv in string.Formatter().parse(text):
            if literal_text:
                pieces.append(gen.const(literal_text))
            if field_name:
                head, *attrs = field_name.split(".")
                value = gen.ex(gen.lowering.name(head), scope)
                for attr in attrs:
                    value = f"g.read({value}, {literal(attr)})"
                pieces.append(f"g.label({value})")
        return "(lambda: " + " + ".join(pieces) + ")"  # read when the prompt is shown (Pending)

    def s_call(self, s: ir.CallStmt, out: list, scope: Scope) -> None:
        gen, call = self.gen, s.call
        assert type(call) is ir.Call
        func = call.name
        if func in gen.names.procedures:
            if self._inlined(call, out, scope):
                return
            code = gen.const(self.host.procedure_codes[func])
            params = self.host.procedure_codes[func].params
            values = [f"{literal(p)}: {gen.ex(a, scope)}" for p, a in zip(params, call.args)]
            values += [f"{literal(name)}: {gen.ex(value, scope)}" for name, value in call.kwargs]
            self._point(out, f"if not g.call_now({literal(func)}, {code}, {{{', '.join(values)}}}, f):",
                        s.span, None)
            return
        args = [gen.ex(a, scope) for a in call.args]
        if func == "run":
            self._point(out, f"if not g.run_part_now(f, {', '.join(args)}):", s.span, None)
            return
        method = {"use": "activate", "aim": "aim"}.get(func)
        if method is None:
            out.append(Straight(gen.statement(s, scope, 0, "frame")))
            return
        self._point(out, f"g.{method}({', '.join(args)})", s.span)

    def _inlined(self, call: ir.Call, out: list, scope: Scope) -> bool:
        """Write a call to a small procedure into the caller, when that is safe: its statements
        run in the caller's frame, under names of their own (`$12.c` for `c`), and its `stop`
        leaves them (by `break`, out of a one-round loop around them). The frame's context
        (self, you, event) is the caller's, as in a call. This saves a frame, and running it,
        per call.

        Not for a procedure that replacement abilities may replace, that may call itself, that
        stops from inside a loop, or that has a loop that may stop for a decision. Returns False
        when the call must be made."""
        gen, name = self.gen, call.name
        proc = gen.names.procedures[name]
        body = gen.lowered_body(proc.body, proc.params)
        if (self._inline_depth >= _INLINE_DEPTH or name in gen.names.replaced_procedures
                or name in self.host.value_procedures
                or name in self._recursive_procedures() or _stops_in_loops(body)
                or sum(isinstance(n, ir.Stmt) and not (type(n) is ir.If and n.chained)  # (an elif is its if's)
                       for n in ir.walk(body)) > _INLINE_STATEMENTS
                or any(type(n) is ir.Loop and not self.host.is_native(n) for n in ir.walk(body))):
            return False
        site = self.host._tmp()
        assigned = set(ir_analysis.local_bindings(body))
        names = {n: f"L[{literal(site + '.' + n)}]" for n in set(proc.params) | assigned}
        args = list(zip(proc.params, call.args)) + list(call.kwargs)
        players, lists, lines = set(), set(), []
        for param, arg in args:
            if param not in assigned and type(arg) in (ir.Const, ir.Local, ir.Context, ir.KeywordName, ir.Unbound):
                names[param] = gen.ex(arg, scope)  # a name or a constant, which the body cannot change
                if gen.is_player(arg, scope):
                    players.add(param)
                if gen.is_list(arg, scope):
                    lists.add(param)
            else:
                lines.append((f"{names[param]} = {gen.ex(arg, scope)}", call.span))
        out.append(Straight(lines))
        inner = Scope(frame=True, names=names, players=gen.player_names(body, proc.params) | players,
                      lists=gen.list_names(body, proc.params) | lists, distinct=gen.distinct_names(body, proc.params))
        wrapped = any(type(n) is ir.Halt and n.kind == "stop" for n in ir.walk(body))
        nodes: list = []
        saved = gen.stop_breaks
        gen.stop_breaks = wrapped
        self._inline_depth += 1
        outer = self._body, self._bound
        self._body, self._bound = body, tuple(proc.params)
        try:
            self.stmts(self._body, nodes, inner)
        finally:
            self._inline_depth -= 1
            gen.stop_breaks = saved
            self._body, self._bound = outer
        own = sorted(n for n, held in names.items() if held == f"L[{literal(site + '.' + n)}]")
        out.append(Inlined(nodes, wrapped, _forgotten([f"{site}.{n}" for n in own], call.span)))
        return True

    def _recursive_procedures(self) -> set[str]:
        if self._recursive is None:
            procedures = self.gen.names.procedures
            calls = {n: _procedure_calls(self.gen.lowered_body(p.body, p.params), procedures)
                     for n, p in procedures.items()}
            self._recursive = set()
            for name in procedures:
                seen, todo = set(), list(calls[name])
                while todo:
                    other = todo.pop()
                    if other == name:
                        self._recursive.add(name)
                        break
                    if other not in seen:
                        seen.add(other)
                        todo.extend(calls[other])
        return self._recursive

    def _suspending(self, s: ir.Stmt, out: list, scope: Scope) -> None:
        """A statement that may push frames or end the game (an emit, a move others listen to):
        its lines, then a resume point."""
        lines = self.gen.statement(s, scope, 0, "frame")
        label = self._new_label()
        out.append(Point(label, [(f"f.pc = {label}", s.span), *lines, (_SUSPENDED, s.span),
                                 ("    return None", s.span)]))

    def s_if(self, s: ir.If, out: list, scope: Scope) -> None:
        branches = [s]  # (the `if`, then each `elif`: an If chained in the orelse)
        while branches[-1].orelse and len(branches[-1].orelse) == 1 and getattr(branches[-1].orelse[0], "chained", False):
            branches.append(branches[-1].orelse[0])
        conditions = [self.gen.ex(branch.test, scope) for branch in branches]
        tests = []
        for condition, branch in zip(conditions, branches):
            body: list = []
            self.stmts(branch.then, body, scope)
            tests.append((condition, body))
        orelse = None
        if branches[-1].orelse:
            orelse = []
            self.stmts(branches[-1].orelse, orelse, scope)
        out.append(If(tests, orelse, s.span))

    def _loop(self, out: list, scope: Scope, s: ir.Loop, test: str, head: list, budget: bool = False) -> None:
        """A loop; only a `while` loop, which need not end by itself, counts its rounds against
        the step budget (`for` and `repeat` run a known number of rounds)."""
        body: list = []
        self.stmts(s.body, body, scope)
        out.append(Loop(test, head, body, _budget(s.span) if budget else [], s.span,
                        leaves_loop(head) or leaves_loop(body)))

    def loop_for(self, s: ir.Loop, out: list, scope: Scope) -> None:
        gen = self.gen
        names = [self.host._tmp(), self.host._tmp()]
        seq, idx = literal(names[0]), literal(names[1])
        out.append(Straight([(f"L[{seq}] = {gen.owned_list(s.over, scope)}", s.span),
                             (f"L[{idx}] = 0", s.span)]))
        head = Straight([(f"{scope.bind(s.var)} = L[{seq}][L[{idx}]]", s.span), (f"L[{idx}] += 1", s.span)])
        self._loop(out, scope, s, f"L[{idx}] < len(L[{seq}])", [head])
        out.append(Straight(_forgotten(names, s.span)))

    def loop_repeat(self, s: ir.Loop, out: list, scope: Scope) -> None:
        name = self.host._tmp()
        left = literal(name)
        out.append(Straight([(f"L[{left}] = {self.gen.ex(s.over, scope)}", s.span)]))
        self._loop(out, scope, s, f"L[{left}] > 0", [Straight([(f"L[{left}] -= 1", s.span)])])
        out.append(Straight(_forgotten([name], s.span)))

    def loop_while(self, s: ir.Loop, out: list, scope: Scope, head: list) -> None:
        condition = self.gen.ex(s.over, scope)
        if not head:
            self._loop(out, scope, s, condition, [], budget=True)
            return
        head.append(Straight([(f"if not {condition}:", s.span), ("    break", s.span)], True))
        self._loop(out, scope, s, "True", head, budget=True)

    def s_may(self, s: ir.If, out: list, scope: Scope) -> None:
        gen, ask = self.gen, s.test
        var = literal(self.host._tmp())
        chooser = gen.ex(ask.chooser, scope) if ask.chooser is not None else "f.controller"
        prompt = self.prompt(ask.label or "may", scope)
        self._point(out, f"g.choose(f, {var}, 'one', 1, {prompt}, [True, False], {chooser}, "
                         f"{gen.const(s.span)}, always_ask=True)", s.span, "if g.halted:")
        body: list = []
        self.stmts(s.then, body, scope)
        orelse = None
        if s.orelse:
            orelse = []
            self.stmts(s.orelse, orelse, scope)
        out.append(If([(f"L[{var}]", body)], orelse, s.span))


def _forgotten(names, span) -> list[Line]:
    """Lines that drop frame names nothing reads any more: a finished procedure's names, a
    statement's answers, a loop's list and counter. Else they would outlive it in the frame (for
    ever in the main program's), holding cards that a determinization would have to keep."""
    return [(f"L.pop({literal(name)}, None)", span) for name in names]


def _budget(span) -> list[Line]:
    """The end of a round of a loop that need not end by itself: count it against the budget."""
    return [("g.steps_left -= 1", span), ("if g.steps_left < 0:", span), ("    g.out_of_steps(f)", span)]


def _loop_own_names(s: ir.Stmt, body: tuple, bound: tuple[str, ...]) -> list[str]:
    """The names of the `for` loops in a statement that cannot stop whose every use in the
    (lowered) block is in their loop's body, which does not bind them again: each round binds
    the name before it is read, and nothing after the statement reads it, so it may be a Python
    local instead of a frame local."""
    own = []
    for loop in ir.walk(s):
        if (type(loop) is not ir.Loop or loop.kind != "for" or loop.var in bound
                or loop.var in ir_analysis.local_bindings(loop.body)):
            continue
        inside = {id(n) for n in ir.walk(loop.body) if name_of(n) == loop.var}
        if all(_only_reads(n, loop, inside) for n in ir.walk(body)):
            own.append(loop.var)
    return own


def _only_reads(node, loop: ir.Loop, inside: set[int]) -> bool:
    """Whether a node of the block leaves the loop's name alone: not a use of it outside the
    loop's body, nor another binding of it, nor a prompt that shows it."""
    var = loop.var
    name = name_of(node)
    if name is not None:
        return name != var or id(node) in inside
    if node is not loop and getattr(node, "var", None) == var:  # another loop, selection, comprehension clause
        return False
    if type(node) is ir.Let and node.name == var or type(node) is ir.GameOp and node.op == "create" and (
            node.arg("bind") == var):
        return False
    if type(node) is ir.Ask and node.kind != "may" and node.label and "{" in node.label:
        return var not in node.label
    return True


def _procedure_calls(body: tuple[ir.Stmt, ...], procedures) -> set[str]:
    """The procedures a lowered block calls as statements (in nested blocks too)."""
    return {n.call.name for n in ir.walk(body) if type(n) is ir.CallStmt and type(n.call) is ir.Call
            and n.call.name in procedures}


def _stops_in_loops(body: tuple[ir.Stmt, ...] | None, in_loop: bool = False) -> bool:
    """Whether a `stop` of a lowered block is inside one of its loops."""
    for st in body or ():
        kind = type(st)
        if kind is ir.Halt and st.kind == "stop" and in_loop:
            return True
        if kind is ir.Loop and _stops_in_loops(st.body, True):
            return True
        if kind is ir.If and (_stops_in_loops(st.then, in_loop) or _stops_in_loops(st.orelse, in_loop)):
            return True
    return False
