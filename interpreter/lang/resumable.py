"""Generate resumable Python functions for code that may stop for a decision.

A block of rule code that may suspend (take a decision, call a procedure that may, emit an event
that may trigger abilities, end the game) becomes one Python function `run(g, f)` in the shape
of a state machine: its statements are cut into labelled blocks at every point where execution
may stop, and `f.pc` holds the label to resume at. The function runs from `f.pc` until it
suspends (returns None, with `f.pc` set to where to go on) or ends (returns True). All of its
names live in the frame's locals, so a frame (code, pc, locals) is the whole continuation: plain
data for `clone()` and `to_json()`.

    while True:
        if pc == 0:
            ...                      # straight-line code of block 0
            f.pc = pc = 1            # a statement that may suspend: resume at 1
            g.emit(...)
            if g.halted or g.frames[-1] is not f and not g.descend(f):
                return None          # (descend runs the frames it pushed, unless they stop)
        if pc == 1:                  # falls through when nothing suspended
            ...

A procedure call is a single test, `if not g.call_now(...): return None`: the engine runs the
procedure's frame at once and says whether the caller may go on.
"""

from __future__ import annotations

import string
from collections.abc import Callable
from typing import Any

from . import ast
from .analysis import chooses_in, local_bindings, procedure_calls, stops_in_loops
from .codegen import CodeGenerator, Line, Scope, indent, literal

_SUSPENDED = "if g.halted or g.frames[-1] is not f and not g.descend(f):"
_REGION_BLOCKS = 3  # an `if` of this many blocks or more is written as a region (see FlatCode)

# A call to a procedure of at most this many statements is written into its caller, this many
# calls deep at most (see `ResumableWriter._inlined`).
_INLINE_STATEMENTS = 30
_INLINE_DEPTH = 2


class FlatCode:
    """The labelled blocks of one resumable function, written in order.

    A jump forward only sets `pc`: the blocks in between test it and are passed over. Only a
    jump back (a loop going round) or out of the middle of a block needs `continue`, which
    tests the labels again from the top. The blocks of an `if` go behind one test of whether
    `pc` is one of their labels (a region), so that code going around them, or resuming after
    them, passes over them at once."""

    def __init__(self) -> None:
        self.blocks: list[tuple[int, list[Line]]] = []
        self.lines: list[Line] = []
        self.label = 0
        self._labels = 1
        self.placed = {0}
        self.ended = False  # the current block has jumped: nothing after it runs
        self.regions: dict[int, list[int]] = {}  # first block's index -> ends (exclusive)

    def new_label(self) -> int:
        self._labels += 1
        return self._labels - 1

    def add(self, lines: list[Line]) -> None:
        if self.ended and lines:  # code after a jump is never reached: keep it out of the way
            self.place(self.new_label())
        self.lines.extend(lines)

    def place(self, label: int, assigned: bool = False) -> None:
        """End the current block, falling through to a new block with this label (`assigned`:
        `pc` already holds it)."""
        if not self.ended and not assigned:
            self.lines.append((f"pc = {label}", None))
        self.blocks.append((self.label, self.lines))
        self.label, self.lines = label, []
        self.placed.add(label)
        self.ended = False

    def jump(self, label: int, span=None, budget: bool = False) -> None:
        if budget:  # a loop going round: count it against the step budget
            self.add([("g.steps_left -= 1", span), ("if g.steps_left < 0:", span), ("    g.out_of_steps(f)", span)])
        self.add([(f"pc = {label}", span)])
        if label in self.placed:
            self.lines.append(("continue", span))
        self.ended = True

    def branch(self, lines: list[Line]) -> None:
        """Lines that end the block by setting `pc` to a later label on every path."""
        self.add(lines)
        self.ended = True

    def open_region(self) -> int:
        """Where a region starts: the block placed next (the current block has ended)."""
        return len(self.blocks) + 1

    def close_region(self, start: int) -> None:
        """End the region just after placing the label that follows it."""
        if len(self.blocks) - start >= _REGION_BLOCKS:
            self.regions.setdefault(start, []).append(len(self.blocks))

    def suspend_point(self, call: str, span, check: str | None = _SUSPENDED) -> None:
        """A call that may push frames or halt: resume after it, in a new block."""
        resume = self.new_label()
        self.add([(f"f.pc = pc = {resume}", span), (call, span)])
        if check is not None:  # (None: the call is itself the test)
            self.lines.append((check, span))
        self.lines.append(("    return None", span))
        self.place(resume, assigned=True)

    def source(self) -> list[Line]:
        self.lines.append(("return True", None))
        self.blocks.append((self.label, self.lines))
        out: list[Line] = [("L = f.locals", None), ("pc = f.pc", None), ("while True:", None)]
        self._write_blocks(0, len(self.blocks), 1, out)
        out.append(("    return True", None))
        return out

    def _write_blocks(self, lo: int, hi: int, depth: int, out: list[Line]) -> None:
        """Blocks lo..hi-1, each behind its label's test; regions inside behind one more."""
        i = lo
        while i < hi:
            ends = [e for e in self.regions.get(i, ()) if e < hi or (e == hi and i != lo)]
            if ends:
                end = max(ends)
                labels = ", ".join(str(label) for label, _lines in self.blocks[i:end])
                out.append((f"{'    ' * depth}if pc in {{{labels}}}:", None))
                self._write_blocks(i, end, depth + 1, out)
                i = end
                continue
            label, lines = self.blocks[i]
            out.append((f"{'    ' * depth}if pc == {label}:", None))
            out.extend(indent(lines, depth + 1) or [(f"{'    ' * (depth + 1)}pass", None)])
            i += 1


class ResumableWriter:
    """Writes resumable functions with the expression and statement generator of a compiler."""

    def __init__(self, gen: CodeGenerator, host: Any) -> None:
        self.gen = gen
        self.host = host  # the compiler: which statements are native, temporaries, procedure codes
        self._inline_depth = 0
        self._recursive: set[str] | None = None  # procedures that may call themselves

    def function(self, name: str, items: list, labels: dict[str, int] | None = None,
                 bound: tuple[str, ...] = ()) -> Callable:
        """A resumable function for statements; items may also be ('label', key) to record a
        label in `labels`, ('hook', python_call) for an engine call that may suspend, or
        ('line', python_call) for one that cannot.
        `bound`: the names the frame's locals hold before it starts (parameters)."""
        flat = FlatCode()
        statements = [i for i in items if not isinstance(i, tuple)]
        scope = Scope(frame=True, players=self.gen.player_names(statements, bound),
                      lists=self.gen.list_names(statements, bound))
        self.gen.frame_loops, self.gen.stop_label = [], None
        for item in items:
            if isinstance(item, tuple) and item[0] == "label":
                label = flat.new_label()
                flat.place(label)
                if labels is not None:
                    labels[item[1]] = label
            elif isinstance(item, tuple) and item[0] == "hook":
                flat.suspend_point(item[1], None)
            elif isinstance(item, tuple) and item[0] == "line":
                flat.add([(item[1], None)])
            elif isinstance(item, tuple) and item[0] == "jump":
                flat.jump(labels[item[1]], budget=True)
            else:
                self.stmt(item, flat, scope)
        return self.gen.compile_lines(name, ["g", "f"], flat.source(), Scope(frame=False))

    # ------------------------------------------------------------------ statements
    def stmts(self, body, flat: FlatCode, scope: Scope) -> None:
        for s in body or ():
            self.stmt(s, flat, scope)

    def stmt(self, s: ast.Stmt, flat: FlatCode, scope: Scope) -> None:
        gen = self.gen
        if self.host.is_native(s):
            gen.choices = {}
            flat.add(gen.statement(s, scope, 0, "frame"))
            return
        subst: dict[int, str] = {}
        head = None
        if isinstance(s, ast.While):  # chooses in the condition are asked again at each test
            head = flat.new_label()
            flat.place(head)
        for choose in chooses_in(s):
            var = self.host._tmp()
            self._choose(choose, var, flat, scope, subst)
            subst[id(choose)] = var
        gen.choices = subst
        method = getattr(self, "s_" + type(s).__name__, None)
        if method is None:  # a native statement made suspending only by its choose
            flat.add(gen.statement(s, scope, 0, "frame"))
        elif isinstance(s, ast.While):
            method(s, flat, scope, head)
        else:
            method(s, flat, scope)

    def _choose(self, c: ast.Choose, var: str, flat: FlatCode, scope: Scope, subst: dict[int, str]) -> None:
        gen = self.gen
        gen.choices = subst
        source = gen.as_list(c.source, scope)
        chooser = gen.ex(c.chooser, scope) if c.chooser is not None else "f.controller"
        count = gen.ex(c.count, scope) if c.count is not None else "1"
        prompt = self.prompt(c.label, scope)
        if c.kind == "one":
            call = f"g.choose_one(f, {literal(var)}, {prompt}, {source}, {chooser}, {gen.const(c.span)})"
        else:
            call = (f"g.choose(f, {literal(var)}, {gen.const(c.kind)}, {count}, {prompt}, {source}, "
                    f"{chooser}, {gen.const(c.span)})")
        flat.suspend_point(call, c.span, "if g.halted:")

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
                value = gen.ex(ast.Name(head), scope)
                for attr in attrs:
                    value = f"g.read({value}, {literal(attr)})"
                pieces.append(f"g.label({value})")
        return "(lambda: " + " + ".join(pieces) + ")"  # read when the prompt is shown (Pending)

    def s_CallStmt(self, s: ast.CallStmt, flat: FlatCode, scope: Scope) -> None:
        gen, call = self.gen, s.call
        assert isinstance(call, ast.Call)
        if call.func in gen.names.procedures:
            if self._inlined(call, flat, scope):
                return
            code = gen.const(self.host.procedure_codes[call.func])
            params = self.host.procedure_codes[call.func].params
            values = [f"{literal(p)}: {gen.ex(a, scope)}" for p, a in zip(params, call.args)]
            values += [f"{literal(a.name)}: {gen.ex(a.value, scope)}" for a in call.kwargs]
            flat.suspend_point(f"if not g.call_now({literal(call.func)}, {code}, {{{', '.join(values)}}}, f):",
                               s.span, None)
            return
        args = [gen.ex(a, scope) for a in call.args]
        if call.func == "run":
            flat.suspend_point(f"if not g.run_part_now(f, {', '.join(args)}):", s.span, None)
            return
        method = {"use": "activate", "aim": "aim"}.get(call.func)
        if method is None:
            flat.add(gen.statement(s, scope, 0, "frame"))
            return
        flat.suspend_point(f"g.{method}({', '.join(args)})", s.span)

    def _inlined(self, call: ast.Call, flat: FlatCode, scope: Scope) -> bool:
        """Write a call to a small procedure into the caller, when that is safe: its statements
        run in the caller's frame, under names of their own (`$12.c` for `c`), and its `stop`
        jumps to the end of them. The frame's context (self, you, event) is the caller's, as
        in a call. This saves a frame, and running it, per call.

        Not for a procedure that replacement abilities may replace, that may call itself, that
        stops from inside a loop, or that has a loop that may stop for a decision (each round
        would test the labels of the whole caller again). Returns False when the call must be
        made."""
        gen, name = self.gen, call.func
        proc = gen.names.procedures[name]
        if (self._inline_depth >= _INLINE_DEPTH or name in gen.names.replaced_procedures
                or name in self._recursive_procedures() or stops_in_loops(proc.body)
                or sum(isinstance(n, ast.Stmt) for n in ast.walk(proc.body)) > _INLINE_STATEMENTS
                or any(isinstance(n, (ast.For, ast.Repeat, ast.While)) and not self.host.is_native(n)
                       for n in ast.walk(proc.body))):
            return False
        site = self.host._tmp()
        assigned = set(local_bindings(proc.body))
        names = {n: f"L[{literal(site + '.' + n)}]" for n in set(proc.params) | assigned}
        args = list(zip(proc.params, call.args)) + [(a.name, a.value) for a in call.kwargs]
        players, lists, lines = set(), set(), []
        for param, arg in args:
            if param not in assigned and isinstance(arg, (ast.Name, ast.IntLit, ast.StrLit, ast.BoolLit,
                                                           ast.NoneLit)):
                names[param] = gen.ex(arg, scope)  # a name or a constant, which the body cannot change
                if gen.is_player(arg, scope):
                    players.add(param)
                if gen.is_list(arg, scope):
                    lists.add(param)
            else:
                lines.append((f"{names[param]} = {gen.ex(arg, scope)}", call.span))
        flat.add(lines)
        body = list(proc.body)
        inner = Scope(frame=True, names=names, players=gen.player_names(body, proc.params) | players,
                      lists=gen.list_names(body, proc.params) | lists)
        end = flat.new_label()
        saved = gen.frame_loops, gen.stop_label
        gen.frame_loops, gen.stop_label = [], end
        self._inline_depth += 1
        try:
            self.stmts(proc.body, flat, inner)
        finally:
            self._inline_depth -= 1
            gen.frame_loops, gen.stop_label = saved
        flat.place(end)
        return True

    def _recursive_procedures(self) -> set[str]:
        if self._recursive is None:
            procedures = self.gen.names.procedures
            calls = {n: procedure_calls(p.body, procedures) for n, p in procedures.items()}
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

    def _suspending(self, s: ast.Stmt, flat: FlatCode, scope: Scope) -> None:
        """A statement that may push frames or end the game (an emit, a move others listen to):
        its lines, then a resume point."""
        lines = self.gen.statement(s, scope, 0, "frame")
        resume = flat.new_label()
        flat.add([(f"f.pc = pc = {resume}", s.span), *lines,
                  (_SUSPENDED, s.span), ("    return None", s.span)])
        flat.place(resume, assigned=True)

    s_Emit = _suspending
    s_Move = _suspending

    def s_If(self, s: ast.If, flat: FlatCode, scope: Scope) -> None:
        gen = self.gen
        end = flat.new_label()
        tests = []
        for branch in s.branches:
            tests.append((gen.ex(branch.condition, scope), flat.new_label(), branch))
        orelse = flat.new_label() if s.orelse else end
        lines = []
        for i, (cond, label, _branch) in enumerate(tests):
            lines += [(f"{'if' if i == 0 else 'elif'} {cond}:", s.span), (f"    pc = {label}", s.span)]
        flat.branch(lines + [("else:", s.span), (f"    pc = {orelse}", s.span)])
        region = flat.open_region()
        for i, (_cond, label, branch) in enumerate(tests):
            flat.place(label)
            self.stmts(branch.body, flat, scope)
            if s.orelse or i < len(tests) - 1:
                flat.jump(end)
        if s.orelse:
            flat.place(orelse)
            self.stmts(s.orelse, flat, scope)
        flat.place(end)
        flat.close_region(region)

    def _loop(self, flat: FlatCode, scope: Scope, s, head: int, test: list[Line], budget: bool = False) -> None:
        """A loop's head test, body and jump back; only a `while` loop, which need not end by
        itself, counts its rounds against the step budget (`for` and `repeat` run a known
        number of rounds)."""
        end = flat.new_label()
        flat.add([(line.replace("{end}", str(end)), span) for line, span in test])
        self.gen.frame_loops.append(end)
        self.stmts(s.body, flat, scope)
        self.gen.frame_loops.pop()
        flat.jump(head, s.span, budget=budget)
        flat.place(end)

    def s_For(self, s: ast.For, flat: FlatCode, scope: Scope) -> None:
        gen = self.gen
        seq, idx = literal(self.host._tmp()), literal(self.host._tmp())
        flat.add([(f"L[{seq}] = {gen.owned_list(s.iterable, scope)}", s.span), (f"L[{idx}] = 0", s.span)])
        head = flat.new_label()
        flat.place(head)
        i = gen.temp()
        self._loop(flat, scope, s, head, [
            (f"{i} = L[{idx}]", s.span),
            (f"if {i} >= len(L[{seq}]):", s.span), ("    pc = {end}", s.span), ("    continue", s.span),
            (f"{scope.bind(s.var)} = L[{seq}][{i}]", s.span), (f"L[{idx}] = {i} + 1", s.span)])

    def s_Repeat(self, s: ast.Repeat, flat: FlatCode, scope: Scope) -> None:
        left = literal(self.host._tmp())
        flat.add([(f"L[{left}] = {self.gen.ex(s.count, scope)}", s.span)])
        head = flat.new_label()
        flat.place(head)
        self._loop(flat, scope, s, head, [
            (f"if L[{left}] <= 0:", s.span), ("    pc = {end}", s.span), ("    continue", s.span),
            (f"L[{left}] -= 1", s.span)])

    def s_While(self, s: ast.While, flat: FlatCode, scope: Scope, head: int) -> None:
        cond = self.gen.ex(s.condition, scope)
        test = [] if cond == "True" else [  # (`while true` leaves by break only)
            (f"if not {cond}:", s.span), ("    pc = {end}", s.span), ("    continue", s.span)]
        self._loop(flat, scope, s, head, test, budget=True)

    def s_May(self, s: ast.May, flat: FlatCode, scope: Scope) -> None:
        gen = self.gen
        var = literal(self.host._tmp())
        chooser = gen.ex(s.chooser, scope) if s.chooser is not None else "f.controller"
        prompt = self.prompt(s.label or "may", scope)
        flat.suspend_point(f"g.choose(f, {var}, 'one', 1, {prompt}, [True, False], {chooser}, "
                           f"{gen.const(s.span)}, always_ask=True)", s.span, "if g.halted:")
        body, orelse, end = flat.new_label(), flat.new_label(), flat.new_label()
        flat.branch([(f"if L[{var}]:", s.span), (f"    pc = {body}", s.span),
                     ("else:", s.span), (f"    pc = {orelse}", s.span)])
        flat.place(body)
        self.stmts(s.body, flat, scope)
        flat.jump(end)
        flat.place(orelse)
        self.stmts(s.orelse, flat, scope)
        flat.place(end)
