"""The code generator's statements: `let`, writes, calls, control flow, moves, events and the
rest of the statements, for code that cannot stop for a decision. A part of `CodeGenerator`
(codegen.py)."""

from __future__ import annotations

import re

from . import ast
from .analysis import local_bindings, value_calls
from .codegen_scope import Scope, identifier, literal
from .codegen_tables import (
    _STORED_PROPERTIES,
    WHILE_BUDGET_MESSAGE,
    Line,
    _player_attrs,
    indent,
)
from .runtime import Frame


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
        # (a value written by `=` that may be none is stored as it is, not held within limits)
        maybe_none = s.op == "=" and (self.names.kinds is None or self.names.kinds.of(s.value, scope.names.keys()) != "int")
        if isinstance(target.obj, ast.Name) and target.obj.id == "game" and "game" not in scope.names:
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
        store = self.const(_STORED_PROPERTIES[name])
        rearranged = (f"    g._rearranged({o}.defn)" if name in self.names.static_reads else
                      f"    if g.card_zone[{o}.id][0] in {self.const(self.names.watched_zones)}:\n"
                      f"        g._rearranged({o}.defn)")
        return [f"{o} = {obj}", f"if type({o}) is _CardRef and ({d} := g.attrs.get({o}.id)) is not None:",
                f"    {d}[{store}] = {value}", *rearranged.split("\n"),
                "else:", f"    g.write({o}, {literal(name)}, {value})"]

    def _plain_write(self, target: ast.Attribute, obj: str, attr: str, op: str, value: str,
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
        if call.func == "reveal":  # (`reveal c to P`: a second argument)
            return [f"g.reveal({', '.join(self.ex(a, scope) for a in call.args)})"]
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
        if self.is_list(s.card, scope):  # (no test of what it holds: `_as_list` gives a list itself)
            return [*before, f"g.move_each({moved}, {self.zone_key(s.zone, scope)}, {position})"]
        if self._is_card(s.card, scope) or self._is_handle(s.card, scope):
            return [*before, f"g.move({moved}, {self.zone_key(s.zone, scope)}, {position})"]
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
        return [f"g.finish(winner={self.ex(s.player, scope)}, reason={self._reason(s, 'win', scope)})"]

    def s_Lose(self, s: ast.Lose, scope, loop_depth, mode):
        return [f"g.finish(loser={self.ex(s.player, scope)}, reason={self._reason(s, 'loss', scope)})"]

    def s_Tie(self, s: ast.Tie, scope, loop_depth, mode):
        return [f"g.finish(reason={self._reason(s, 'draw', scope)})"]

    def _reason(self, s: ast.Win | ast.Lose | ast.Tie, default: str, scope) -> str:
        """A result's reason: its text, or the text its values make when the game ends."""
        if s.reason_value is not None:
            return self.ex(s.reason_value, scope)
        return self.const(s.reason or default)

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
                f"{self.ex(s.amount, scope)}, {self._duration(s, scope)}, f)"]

    def s_GrantUntil(self, s: ast.GrantUntil, scope, loop_depth, mode):
        one, values = self.temp(), self.temp()
        args = "(" + "".join(self.ex(a, scope) + ", " for a in s.args) + ")"
        keyword = self.const(s.keyword) if s.keyword in self.names.keywords else scope.get(s.keyword)
        return [f"{values} = {args}",
                f"for {one} in _as_list({self.ex(s.target, scope)}):",
                f"    g.add_temporary_grant({one}, {keyword}, {values}, {self._duration(s, scope)}, f)"]

    def _duration(self, s: ast.ModifyUntil | ast.GrantUntil, scope) -> str:
        """The `until` of a temporary effect: the event's name, None (until removed), or what
        `tied_to` makes of the card whose leaving ends it."""
        if s.until:
            return self.const(s.until)
        return "None" if s.leaves is None else f"g.tied_to({self.ex(s.leaves, scope)})"

    def s_Silence(self, s: ast.Silence, scope, loop_depth, mode):
        return [f"g.silence({self.ex(s.card, scope)}, {self.const(s.until)}, f)"]

    def s_RemoveEffects(self, s: ast.RemoveEffects, scope, loop_depth, mode):
        source = "None" if s.source is None else self.ex(s.source, scope)
        target = "None" if s.target is None else self.ex(s.target, scope)
        return [f"g.remove_effects({source}, {target}, {s.source is not None}, {s.target is not None})"]
