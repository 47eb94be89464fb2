"""The code generator's statements, written from the IR (lang/ir.py): `Let`, `Set`, `CallStmt`,
`If`, `Loop` (for, repeat, while), `Break`, `Return`, `Emit`, `Halt` (win, lose, tie, stop) and
each `GameOp` (move, create, shuffle, ...), in the direct form: plain Python that never stops
half-way. A part of `CodeGenerator` (codegen.py). What a decision, a procedure's call, `run` and
what follows a statement are differs by the form written (`CodeGenerator.form`, codegen_forms.py):
native (nothing asks) or rollout (decisions asked in place, rollout.py).

The statements come lowered (`CodeGenerator.lowered_body`), and so do their expressions; the
analyses of a statement (the decisions and values it asks for, whether it may end the game or
runs natively) read the IR too (lang/ir_analysis.py, compile/native.py)."""

from __future__ import annotations

import re

from . import ast, ir, ir_analysis
from .codegen_scope import Scope, identifier, literal
from .codegen_tables import (
    _STORED_PROPERTIES,
    WHILE_BUDGET_MESSAGE,
    Line,
    _player_attrs,
    indent,
)
from .kinds import called, name_of
from .runtime import Frame
from .values import CONTROLLER, OWNER


class StatementCode:
    """Statements as Python, for `CodeGenerator`."""

    # ------------------------------------------------------------------ statements
    def statements(self, body, scope: Scope, loop_depth: int, mode: str) -> list[Line]:
        """Lines for statements that cannot suspend, each tagged with its statement's span.

        mode: 'pure' (a procedure: `stop` returns) or 'frame' (inside a resumable function: see
        `resumable`)."""
        lines: list[Line] = []
        for s in body:
            lines.extend(self.statement(s, scope, loop_depth, mode))
        return lines

    def statement(self, s: ir.Stmt, scope: Scope, loop_depth: int, mode: str) -> list[Line]:
        """A statement's lines in the form being written (`form`, codegen_forms.py): what it asks
        first (decisions, values of procedures), the statement, then what follows it."""
        outer = self.choices
        self.choices = dict(outer)  # (its answers are its own: they end with it)
        try:
            before = [] if _is_while(s) else self.asked(ir_analysis.chooses_in(s, self.host.value_procedures),
                                                        scope, mode)
            produced = [*before, *self.dispatch(s)(s, scope, loop_depth, mode), *self.form.after(self, s, mode)]
        finally:
            self.choices = outer
        return [line if type(line) is tuple else (line, s.span) for line in produced]

    def dispatch(self, s: ir.Stmt):
        """The method that writes a statement: `s_KIND`, and for a game operation `op_OP`."""
        return getattr(self, "op_" + s.op if type(s) is ir.GameOp else "s_" + type(s).__name__)

    def _block(self, body, scope: Scope, loop_depth: int, mode: str) -> list[Line]:
        return indent(self.statements(body or (), scope, loop_depth, mode)) or [("    pass", None)]

    def asked(self, chooses: list, scope: Scope, mode: str) -> list[str]:
        """Lines that work out, in order, what a statement asks before it runs (`chooses_in`):
        each decision (as the form asks it) and each value of a procedure (a call, stopping there
        if the game may be over), its answer in a Python local (in `choices`). What is there
        already was asked before (by the resumable form, before a statement that may stop)."""
        lines = []
        for c in chooses:
            if id(c) in self.choices:
                continue
            if type(c) is ir.Call:
                var = self.temp("_r")
                before, args = self.arguments(c, scope, "frame" if mode == "frame" else "pure")
                lines += [*before, f"{var} = {self.form.procedure(self, c.name)}(g, f{''.join(', ' + a for a in args)})"]
                if self.form.stops_after(self, c.name):
                    lines += ["if g.halted:", "    return" if mode == "pure" else "    return None"]
            else:
                more, var = self.form.ask(self, c, scope, mode)
                lines += more
            self.choices[id(c)] = var
        return lines

    def s_Let(self, s: ir.Let, scope, loop_depth, mode):
        before, value = self.lowered(s.value, scope, mode)
        return [*before, f"{scope.bind(s.name)} = {value}"]

    def s_Set(self, s: ir.Set, scope, loop_depth, mode):
        before, value = self.lowered(s.value, scope, mode)
        place = s.place
        if s.op == "=" and type(place) in (ir.GetAttr, ir.Global):
            slot = ("game" if type(place) is ir.Global else "attribute", place.name)
            value = self.typed(value, s.value, slot, scope)
        return [*before, *self._assigned(s, value, scope)]

    def _kind_of(self, e: ir.Expr, scope: Scope) -> str | None:
        """The checker's kind of a value (kinds.py `Kinds`, kept with the IR: `facts`)."""
        return self.facts(e).kind

    def typed(self, value: str, e: ir.Expr, slot: tuple[str, str], scope: Scope) -> str:
        """The source of a value written into a typed global or attribute: tested to be of its
        type (else the game stops at the statement) unless the code says what kind it is (the
        checker has refused a wrong kind at load)."""
        held = self.names.held.get(slot)
        if held is None or self.names.kinds is None or self._kind_of(e, scope) is not None:
            return value
        v = self.temp("_v")
        return f"({v} if type({v} := {value}) in {self.const(held.types)} else _refuse({v}, {self.const(held)}, g))"

    def _assigned(self, s: ir.Set, value: str, scope: Scope) -> list[str]:
        target = s.place
        name = name_of(target)
        if name is not None:
            var = scope.bind(name)
            if s.op == "=":
                return [f"{var} = {value}"]
            return [f"{var} = {var} {'+' if s.op == '+=' else '-'} {value}"]
        assert type(target) in (ir.GetAttr, ir.Global), "the checker refuses another place"
        attr = literal(target.name)
        obj = self.ex(target.obj if type(target) is ir.GetAttr else ir.Context("game"), scope)
        if target.name in self.names.enumerated_attributes:  # every write checked against `values:`
            o = self.temp()
            new = value if s.op == "=" else f"g.read_base({o}, {attr}) {'+' if s.op == '+=' else '-'} {value}"
            return [f"{o} = {obj}", f"g.write({o}, {attr}, g.allowed_value({o}, {attr}, {new}))"]
        # (a value written by `=` that may be none is stored as it is, not held within limits)
        maybe_none = s.op == "=" and (self.names.kinds is None or self._kind_of(s.value, scope) != "int")
        if type(target) is ir.Global:
            return self._global_write(target.name, s.op, value, maybe_none)
        limits = self.names.limited_attributes.get(target.name)
        if target.name in self.names.plain_attributes or limits is not None:
            return self._plain_write(target, obj, attr, s.op, value, scope, limits, maybe_none)
        if target.name in self.names.player_attributes and self.is_player(target.obj, scope):
            # a player's: set in place within the players' limits, as `g.write` does; static
            # abilities that read it look again
            store = f"{_player_attrs(obj)}[{attr}]"
            new = value if s.op == "=" else f"{store} {'+' if s.op == '+=' else '-'} {value}"
            new = self._within(new, self.names.player_limits.get(target.name), maybe_none)
            return [f"{store} = {new}", *(["g.version += 1"] if target.name in self.names.static_reads else [])]
        if s.op == "=":
            if target.name in ("part", "controller"):
                return self._placing_write(target.name, obj, value)
            return [f"g.write({obj}, {attr}, {value})"]
        o = self.temp()
        return [f"{o} = {obj}", f"g.write({o}, {attr}, g.read_base({o}, {attr}) {'+' if s.op == '+=' else '-'} {value})"]

    def _global_write(self, name: str, op: str, value: str, maybe_none: bool) -> list[str]:
        """Set a global in place, held within its declared `min`/`max` as `g.write` does (none
        is stored as it is); static abilities that read it look again."""
        store = f"g.globals[{literal(name)}]"
        new = value if op == "=" else f"{store} {'+' if op == '+=' else '-'} {value}"
        new = self._within(new, self.names.global_limits.get(name), maybe_none)
        return [f"{store} = {new}", *(["g.version += 1"] if name in self.names.static_reads else [])]

    def _within(self, v: str, limits: tuple | None, maybe_none: bool) -> str:
        """The source of a value held within limits (min, max), either of which may be None; a
        value that may be none (`maybe_none`) is left none, as `effects.clamp` leaves it."""
        lo, hi = limits or (None, None)
        if lo is None and hi is None or v == "None":
            return v
        if re.fullmatch(r"-?[0-9]+", v) and (lo is None or lo <= int(v)) and (hi is None or int(v) <= hi):
            return v  # a number already within them
        held = self.temp("_v") if maybe_none else v
        inner = held if lo is None else f"max({lo!r}, {held})"
        inner = inner if hi is None else f"min({hi!r}, {inner})"
        return f"({held} if ({held} := {v}) is None else {inner})" if maybe_none else inner

    def _placing_write(self, name: str, obj: str, value: str) -> list[str]:
        """Set a card's part or controller in place, as `g.write` does (which handles every
        other value): what its abilities do and where they work may change with it."""
        o, d = self.temp(), self.temp("_d")
        store = _STORED_PROPERTIES[name]
        rearranged = (f"    g._rearranged({o}.defn)" if name in self.names.static_reads else
                      f"    if g.card_zone[{o}.id][0] in {self.const(self.names.watched_zones)}:\n"
                      f"        g._rearranged({o}.defn)")
        return [f"{o} = {obj}", f"if type({o}) is _CardRef and ({d} := {_own_row(o)}):",
                f"    {d}[{store}] = {value}", *rearranged.split("\n"),
                "else:", f"    g.write({o}, {literal(name)}, {value})"]

    def _plain_write(self, target: ir.GetAttr, obj: str, attr: str, op: str, value: str,
                     scope: Scope, limits: tuple | None = None, maybe_none: bool = False) -> list[str]:
        """Set an attribute that no continuous effect reads, in place, held within its limits
        if it has the same ones wherever it is declared (`g.write` does the same, and handles
        every other case)."""
        sign = "+" if op == "+=" else "-"

        def held(v: str) -> str:  # the value within the limits
            return self._within(v, limits, maybe_none and op == "=")

        if target.name in self.names.player_attributes and self.is_player(target.obj, scope):
            store = f"{_player_attrs(obj)}[{attr}]"
            if limits is None:
                return [f"{store} = {value}" if op == "=" else f"{store} {op} {value}"]
            return [f"{store} = {held(value if op == '=' else f'{store} {sign} {value}')}"]
        o, d = self.temp(), self.temp("_d")
        if self._is_handle(target.obj, scope):  # a card handle: no other kind of value to test for
            o = obj
        slot = self.names.attr_slots.get(target.name)  # (where a card's row holds it, if any card has it)
        if op == "=":
            card = f"    {d}[{slot}] = {held(value)}"
            player = f"    g.player_attrs[{o}.seat - 1][{attr}] = {held(value)}"
            other = f"    g.write({o}, {attr}, {value})"
        else:
            card = f"    {d}[{slot}] = {held(f'{d}[{slot}] {sign} {value}')}"
            player = f"    {d}[{attr}] = {held(f'{d}[{attr}] {sign} {value}')}"
            other = f"    g.write({o}, {attr}, g.read_base({o}, {attr}) {sign} {value})"
        if slot is None:  # (no card has it: a player's, or an error `g.write` reports)
            lines = [f"{o} = {obj}"] if o != obj else []
            if target.name in self.names.player_attributes:
                lines.append(f"if type({o}) is _PlayerRef:")
                if op != "=":
                    lines.append(f"    {d} = g.player_attrs[{o}.seat - 1]")
                lines += [player, "else:"]
                return lines + [other]
            return lines + [other[4:]]
        if o == obj:
            return [f"if ({d} := {_own_row(o)})[{slot}] is not _ABSENT:", card, "else:", other]
        lines = [f"{o} = {obj}", f"if type({o}) is _CardRef and ({d} := {_own_row(o)})[{slot}] is not _ABSENT:",
                 card]
        if target.name in self.names.player_attributes:
            lines.append(f"elif type({o}) is _PlayerRef:")
            if op != "=":
                lines.append(f"    {d} = g.player_attrs[{o}.seat - 1]")
            lines.append(player)
        lines += ["else:", other]
        return lines

    def s_CallStmt(self, s: ir.CallStmt, scope, loop_depth, mode):
        call = s.call
        func = called(call)
        assert func is not None
        if func in self.names.procedures:
            function = self.form.procedure(self, func)
            before, args = self.arguments(call, scope, mode)
            return [*before, f"{function}(g, f{''.join(', ' + a for a in args)})"]
        if func == "reveal":  # (`reveal c to P`: a second argument)
            return [f"g.reveal({', '.join(self.ex(a, scope) for a in call.args)})"]
        if func in ("run", "use", "aim"):
            return self.form.run(self, func, call, scope)
        return [self.ex(call, scope)]

    def arguments(self, call: ast.Call | ir.Call, scope: Scope, mode: str) -> tuple[list[str], list[str]]:
        """The arguments of a call of a procedure (`lowered`, each in turn), and the lines before."""
        before: list[str] = []
        args = []
        for a in call.args:
            lines, code = self.lowered(a, scope, mode)
            before += lines
            args.append(code)
        for a in call.kwargs:
            name, value = a if type(call) is ir.Call else (a.name, a.value)
            lines, code = self.lowered(value, scope, mode)
            before += lines
            args.append(f"{identifier(name)}={code}")
        return before, args

    def s_If(self, s: ir.If, scope, loop_depth, mode):
        if type(s.test) is ir.Ask:  # a `may`
            return self.form.may(self, s, scope, loop_depth, mode)
        lines = []
        branch: ir.If | None = s
        while branch is not None:
            test = branch.test
            if branch is s:  # (an `elif` test is worked out only if the tests before fail)
                before, condition = self.lowered(test, scope, mode)
                lines += [*before, f"if {condition}:"]
            else:
                lines.append(f"elif {self.ex(test, scope)}:")
            outer = scope.players
            scope.players = outer | self._players_tested(test, branch.then, scope)
            try:
                lines.extend(self._block(branch.then, scope, loop_depth, mode))
            finally:
                scope.players = outer
            orelse = branch.orelse
            branch = None
            if orelse and len(orelse) == 1 and type(orelse[0]) is ir.If and orelse[0].chained:
                branch = orelse[0]
            elif orelse:
                lines.append("else:")
                lines.extend(self._block(orelse, scope, loop_depth, mode))
        return lines

    def _players_tested(self, condition: ast.Expr, body, scope: Scope) -> frozenset[str]:
        """Local names that a branch's condition finds to be players (`x is player`, alone or
        joined by `and`) and its body does not bind again: players wherever the body uses them."""
        tested = set()
        stack = [condition]
        while stack:
            e = stack.pop()
            if type(e) in (ast.BinOp, ir.BinOp) and e.op == "and":
                stack += [e.left, e.right]
            elif (type(e) in (ast.IsType, ir.IsType) and e.type_name == "player" and not e.negated
                  and self._is_local(e.operand, scope)):
                tested.add(name_of(e.operand))
        return frozenset(tested - set(ir_analysis.local_bindings(body)))

    def s_Loop(self, s: ir.Loop, scope, loop_depth, mode):
        return getattr(self, "loop_" + s.kind)(s, scope, loop_depth, mode)

    def loop_for(self, s: ir.Loop, scope, loop_depth, mode):
        iterable = s.over
        before, items = self.lowered(iterable, scope, mode)
        items = self.owned_list(iterable, scope, items)
        head = f"for {scope.bind(s.var)} in {items}:"
        # the loop's items are card handles from the start (a copy of the zones' lists); the
        # name holds one in the body unless the body binds it again
        handle = self.is_card_list(iterable, scope) and s.var not in ir_analysis.local_bindings(s.body)
        outside = scope.handles
        scope.handles = outside | {s.var} if handle else outside - {s.var}
        try:
            return [*before, head, *self._block(s.body, scope, loop_depth + 1, mode)]
        finally:
            scope.handles = outside

    def loop_repeat(self, s: ir.Loop, scope, loop_depth, mode):
        before, count = self.lowered(s.over, scope, mode)
        return [*before, f"for _ in range({count}):", *self._block(s.body, scope, loop_depth + 1, mode)]

    def loop_while(self, s: ir.Loop, scope, loop_depth, mode):
        budget = self.temp()
        span = self.const(s.span)
        message = self.const(WHILE_BUDGET_MESSAGE)
        asked = self.asked(ir_analysis.chooses_in(s, self.host.value_procedures), scope, mode)  # (at each test)
        before, condition = self.lowered(s.over, scope, mode)
        before = [*asked, *before]
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

    def s_Halt(self, s: ir.Halt, scope, loop_depth, mode):
        return getattr(self, "halt_" + s.kind)(s, scope, loop_depth, mode)

    def halt_stop(self, s: ir.Halt, scope, loop_depth, mode):
        if mode == "frame" and self.stop_breaks:  # the end of an inlined procedure (see `resumable`)
            return ["break"]
        cleared = ["g.returned = None"] if self.returning == "register" else []
        return [*cleared, "return" if mode == "pure" else "return True"]

    def s_Return(self, s: ir.Return, scope, loop_depth, mode):
        before, value = self.lowered(s.value, scope, mode)
        if self.returning == "value" and mode == "pure":
            return [*before, f"return {value}"]
        if self.returning is None:
            raise AssertionError("return where no value is taken")
        return [*before, f"g.returned = {value}", "return" if mode == "pure" else "return True"]

    def op_move(self, s: ir.GameOp, scope, loop_depth, mode):
        card = self.temp()
        moving, zone = s.arg("card"), s.arg("zone")
        before, moved = self.lowered(moving, scope, mode)
        position = self.ex(s.arg("position"), scope)
        key = self.zone_key(zone, scope)
        plain = self.names.plain_moves and position == "None"
        if self.is_list(moving, scope):  # (no test of what it holds: `_as_list` gives a list itself)
            return [*before, *self._moves(f"g.move_each({moved}, {key}, {position})", moved, key, plain, False)]
        if self._is_card(moving, scope) or self._is_handle(moving, scope):
            return [*before, *self._moves(f"g.move({moved}, {key}, {position})", moved, key, plain, True)]
        return [*before, f"{card} = {moved}",
                f"if type({card}) is _CardRef:",
                *_indented(self._moves(f"g.move({card}, {key}, {position})", card, key, plain, True)),
                f"elif {card} is not None:",
                *_indented(self._moves(f"g.move_each(_as_list({card}), {key}, {position})", f"_as_list({card})",
                                       key, plain, False))]

    def _moves(self, call: str, moved: str, key: str, plain: bool, one: bool) -> list[str]:
        """The lines of a move: the engine's `call`, and for rules whose moves can be plain
        (`Names.plain_moves`), while a play-out keeps no time stamps (`stamps_kept`), the move
        written out as what it then is: list operations, the card's place, its first owner, the
        end of a reveal to every player. `moved`: the code of the card (`one`) or list moved."""
        if not plain:
            return [call]
        # (what is moved is worked out before the zone, as for the call; a card in a name, which
        # the error message shows)
        held = moved if moved.isidentifier() else self.temp()
        to, dst, card = self.temp(), self.temp(), held if one else self.temp()
        moving = _plain_move(card, to, dst, self.temp(), self.temp(), self.temp())
        if not one:
            moving = [f"for {card} in {held}:", *_indented(moving)]
        first = [f"{held} = {moved}"] if held != moved else []
        return ["if g.stamps_kept:", f"    {call}", "else:",
                *_indented([*first, f"{to} = {key}", f"{dst} = g.zones[{to}]", *moving])]

    def op_create(self, s: ir.GameOp, scope, loop_depth, mode):
        key = self.temp()
        given_attrs = s.arg("attrs")
        attrs = ", ".join(f"{literal(name)}: {self.typed(self.ex(value, scope), value, ('attribute', name), scope)}"
                          for name, value in given_attrs)
        lines = [f"{key} = {self.zone_key(s.arg('zone'), scope)}"]
        checked = [name for name, _value in given_attrs if name in self.names.enumerated_attributes]
        bind = s.arg("bind")
        if checked:  # the values given for attributes declared with `values:`, checked on the new card
            given, card = self.temp(), self.temp()
            lines += [f"{given} = {{{attrs}}}", f"{card} = g.create({self.ex(s.arg('card_name'), scope)}, {key}, "
                      f"{given}, f)", *(f"g.allowed_value({card}, {literal(n)}, {given}[{literal(n)}])" for n in checked)]
            return [*lines, f"{scope.bind(bind)} = {card}"] if bind is not None else lines
        made = f"g.create({self.ex(s.arg('card_name'), scope)}, {key}, {{{attrs}}}, f)"
        lines.append(f"{scope.bind(bind)} = {made}" if bind is not None else made)
        return lines

    def op_shuffle(self, s: ir.GameOp, scope, loop_depth, mode):
        return [f"g.shuffle({self.zone_key(s.arg('zone'), scope)})"]

    def s_Emit(self, s: ir.Emit, scope, loop_depth, mode):
        args = ", ".join(f"{literal(name)}: {self.ex(value, scope)}" for name, value in s.args)
        logged = ["if g.logging:", f"    g.log_entries.append(('event', {literal(s.event)}, {{{args}}}))"]
        if s.event in self.names.witnessed_events and (s.event in self.names.quiet_events
                                                       or s.event in self.names.ending_only_events):
            values = self.temp()  # (logged and witnessed: `g.emit` does both for the other events)
            witnessed = (f"g.seen = ({literal(s.event)}, {values}, 0, g.seen)"  # (every player: in short)
                         if self.names.witnessed_events[s.event] == "" else f"g.witness({literal(s.event)}, {values})")
            logged = ["if g.sight_kept:", f"    {values} = {{{args}}}", "    if g.logging:",
                      f"        g.log_entries.append(('event', {literal(s.event)}, {values}))", f"    {witnessed}"]
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
                before, test = self.lowered(self.lowering.expression(when), scope, "pure")
                lines += [*((line, when.span) for line in before), (f"if {test}:", when.span),
                          (f"    return g.end_by_check({literal(event)}, {i})", when.span)]
            root = self.const(Frame(None, {}))  # (end conditions are read in a frame of their own)
            name = self.ns.constant(self.compile_lines(f"end conditions at {event}", ["g", f"f={root}"], lines, scope))
            self._end_check_names[event] = name
        return name

    def halt_win(self, s: ir.Halt, scope, loop_depth, mode):
        return [f"g.finish(winner={self.ex(s.player, scope)}, reason={self._reason(s, 'win', scope)})"]

    def halt_lose(self, s: ir.Halt, scope, loop_depth, mode):
        return [f"g.finish(loser={self.ex(s.player, scope)}, reason={self._reason(s, 'loss', scope)})"]

    def halt_tie(self, s: ir.Halt, scope, loop_depth, mode):
        return [f"g.finish(reason={self._reason(s, 'draw', scope)})"]

    def _reason(self, s: ir.Halt, default: str, scope) -> str:
        """A result's reason: its text, or the text its values make when the game ends."""
        if isinstance(s.reason, ir.Expr):
            return self.ex(s.reason, scope)
        return self.const(s.reason or default)

    def op_attach(self, s: ir.GameOp, scope, loop_depth, mode):
        return [f"g.attach({self.ex(s.arg('card'), scope)}, {self.ex(s.arg('target'), scope)})"]

    def op_detach(self, s: ir.GameOp, scope, loop_depth, mode):
        return [f"g.detach({self.ex(s.arg('card'), scope)})"]

    def op_delete(self, s: ir.GameOp, scope, loop_depth, mode):
        one = self.temp()
        return [f"for {one} in _as_list({self.ex(s.arg('card'), scope)}):", f"    g.delete({one})"]

    def op_modify_until(self, s: ir.GameOp, scope, loop_depth, mode):
        target = s.arg("target")
        assert isinstance(target, ir.GetAttr)
        one = self.temp()
        return [f"for {one} in _as_list({self.ex(target.obj, scope)}):",
                f"    g.add_temporary_modifier({one}, {literal(target.name)}, {self.const(s.arg('mode'))}, "
                f"{self.ex(s.arg('amount'), scope)}, {self._duration(s, scope)}, f)"]

    def op_grant_until(self, s: ir.GameOp, scope, loop_depth, mode):
        one, values = self.temp(), self.temp()
        args = "(" + "".join(self.ex(a, scope) + ", " for a in s.arg("args")) + ")"
        name = s.arg("keyword")
        keyword = self.const(name) if name in self.names.keywords else scope.get(name)
        return [f"{values} = {args}",
                f"for {one} in _as_list({self.ex(s.arg('target'), scope)}):",
                f"    g.add_temporary_grant({one}, {keyword}, {values}, {self._duration(s, scope)}, f)"]

    def _duration(self, s: ir.GameOp, scope) -> str:
        """The `until` of a temporary effect: the event's name, None (until removed), or what
        `tied_to` makes of the card whose leaving ends it."""
        if s.arg("until"):
            return self.const(s.arg("until"))
        leaves = s.arg("leaves")
        return "None" if leaves is None else f"g.tied_to({self.ex(leaves, scope)})"

    def op_silence(self, s: ir.GameOp, scope, loop_depth, mode):
        return [f"g.silence({self.ex(s.arg('card'), scope)}, {self.const(s.arg('until'))}, f)"]

    def op_remove_effects(self, s: ir.GameOp, scope, loop_depth, mode):
        source, target = s.arg("source"), s.arg("target")
        return [f"g.remove_effects({self.ex(source, scope)}, {self.ex(target, scope)}, {source is not None}, "
                f"{target is not None})"]


def _is_while(s: ir.Stmt) -> bool:
    return type(s) is ir.Loop and s.kind == "while"


def _indented(lines: list[str]) -> list[str]:
    return ["    " + line for line in lines]


def _plain_move(card: str, to: str, dst: str, cid: str, old: str, row: str) -> list[str]:
    """A card (the Python name `card`) moved to the end of the zone whose key is in `to` (its list
    in `dst`), in rules
    whose moves can be plain (`Names.plain_moves`) while no time stamps are kept: its place, its
    first owner if the zone is a player's, no longer revealed to every player."""
    return [f"{cid} = {card}.id",
            f"{old} = g.card_zone.get({cid})",
            f"if {old} is None:",
            f"    g.runtime_error(f'card {{{card}!r}} is no longer in the game')",
            f"g.zones[{old}].remove({card})",
            f"{dst}.append({card})",
            f"if {old} != {to}:",
            f"    g.card_zone[{cid}] = {to}",
            "    if g.revealed:",
            f"        g.revealed.discard({cid})",
            f"    if {to}[1]:",
            f"        {row} = g.attrs[{cid}] if g.attrs_owned[{cid}] else g.own_row({cid})",
            f"        if {row}[{OWNER}] is None:",
            f"            {row}[{OWNER}] = {row}[{CONTROLLER}] = g.players[{to}[1] - 1]"]


def _own_row(card: str) -> str:
    """The source of the row of the card held in `card`, to be written: as `g.own_row`, with the
    common case (the game owns the row: no copy shares it) tested in place."""
    return f"(g.attrs[{card}.id] if g.attrs_owned[{card}.id] else g.own_row({card}.id))"
