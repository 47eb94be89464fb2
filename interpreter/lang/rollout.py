"""The rollout form: every block of rule code as plain Python, for games whose decisions are
answered as they come.

When a game is played out by a function that answers each decision at once (`Game.play_out` with
`fast=True`: random playouts, simulations), no rule code ever needs to stop and resume, so every
procedure and block can run as plain Python, as the procedures that never suspend always do: names
in Python locals, a call a Python call, no frame per call. That is the direct emitter's output
(codegen_statements.py) in its second form, `ROLLOUT`, the `Form` (codegen_forms.py) that asks in
place; this module holds what differs from the native form, and the entry points that write every
block in it, on first use (`Compiler.compile_rollout`):

- a `choose` (or `may`) asks at once, `g.ask_one(...)` or `g.ask_now(...)` giving the answer;
  the chooses of a statement are asked before it, in the order the resumable form asks them
  (`chooses_in`), so that both forms take the same decisions in the same order;
- a call of any procedure is `r_NAME(g, f, ...)` (a procedure that never suspends has one form);
  where every call in the rules gives a parameter a player, `r_NAME` is written for a player
  there, and a test at its start hands any other value to `ru_NAME`, written for any value
  (`player_parameters`);
- `run`, `use` and `aim` run their block at once, in its rollout form (`Game.roll_part`,
  `roll_ability`); the triggered abilities of an event have their frames pushed by the engine as
  ever and run right after their statement (`Game.descend`), each in its rollout form;
- after anything that may run other rule code the game may be over: the code stops there, as
  the resumable form does;
- the main program has a rollout form too, from where every new game starts (`Rules.play_out`).

The resumable form stays the game's continuation for `clone()`, `to_json()` and `apply`; this form
never stops half-way, so a game whose deciding function fails in it cannot go on.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from . import ast, ir
from .analysis import item_statements
from .codegen_forms import Form, halted
from .codegen_scope import Scope, identifier, literal
from .codegen_tables import indent
from .kinds import is_join
from .values import Labelled

_ATTRIBUTES = (ir.GetAttr, ir.Global, ir.Option, ir.EventArg)  # (`c.NAME`, `game.NAME`, ...)

# a list display of lists held in Python names, then a constant ("... or pass")
_LISTS_THEN_CONSTANT = re.compile(r"\[((?:\*[A-Za-z_]\w*, )+)(_k\d+)\]")


def _procedure_calls(body: tuple[ir.Stmt, ...], procedures) -> list[ir.Call]:
    """The calls of procedures in a lowered block, as statements (in nested blocks too)."""
    return [n.call for n in ir.walk(body) if type(n) is ir.CallStmt and type(n.call) is ir.Call
            and n.call.name in procedures]


class RolloutForm(Form):
    """The rollout form: decisions asked in place, every procedure and block in its rollout form."""

    name = "rollout"

    def ask(self, gen: Any, c: ir.Ask, scope: Any, mode: str) -> tuple[list[str], str]:
        var = gen.temp("_c")
        before, source = gen.lowered(c.options, scope, mode)
        if not (c.kind == "one" and is_join(c.options) and type(c.options.right) is ir.ListOf):
            return [*before, f"{var} = {self._ask_now(gen, c, scope, source)}"], var
        # options that end with one written out ("... or pass") are often that one alone: then it
        # is taken here, without a call (as `ask_one` would take it)
        values = gen.temp("_a")
        display = gen.as_list_code(c.options, scope, source)
        who = chooser = gen.ex(c.chooser, scope) if c.chooser is not None else "f.controller"
        lists = _LISTS_THEN_CONSTANT.fullmatch(display)
        lines = list(before) if lists is not None else [*before, f"{values} = {display}"]
        if not (chooser.isidentifier() or chooser == "f.controller"):  # (worked out either way)
            who = gen.temp("_a")
            lines.append(f"{who} = {chooser}")
        if lists is None:
            lines.append(f"{var} = ({values}[0].value if type({values}[0]) is _Labelled else {values}[0]) "
                         f"if len({values}) == 1 else {self._ask_now(gen, c, scope, values, who)}")
            return lines, var
        # (lists made already, and a constant: no list to make to see)
        last = gen.ns.values[lists[2]]
        lines += [f"if {' or '.join(lists[1].replace('*', '').split(', ')[:-1])}:",
                  f"    {values} = {display}",
                  f"    {var} = {self._ask_now(gen, c, scope, values, who)}",
                  "else:", f"    {var} = {gen.const(last.value) if type(last) is Labelled else lists[2]}"]
        return lines, var

    def _ask_now(self, gen: Any, c: ir.Ask, scope: Any, source: str, chooser: str | None = None) -> str:
        """The call that asks a choose's question, its options `source` (code); `chooser`: the
        code of who chooses, if written already (then source is a list already)."""
        if chooser is None:
            source = gen.as_list_code(c.options, scope, source)
            chooser = gen.ex(c.chooser, scope) if c.chooser is not None else "f.controller"
        prompt = gen.host.writer.prompt(c.label, scope)
        if c.kind == "one":
            distinct = ", True" if gen.distinct_tags(c.options, scope) is not None else ""
            return f"g.ask_one({prompt}, {source}, {chooser}, {gen.const(c.span)}{distinct})"
        count = gen.ex(c.count, scope) if c.count is not None else "1"
        return f"g.ask_now({gen.const(c.kind)}, {count}, {prompt}, {source}, {chooser}, {gen.const(c.span)})"

    def may(self, gen: Any, s: ir.If, scope: Any, loop_depth: int, mode: str) -> list[str]:
        ask = s.test
        chooser = gen.ex(ask.chooser, scope) if ask.chooser is not None else "f.controller"
        prompt = gen.host.writer.prompt(ask.label or "may", scope)
        answer = gen.temp("_c")
        lines = [f"{answer} = g.ask_now('one', 1, {prompt}, [True, False], {chooser}, {gen.const(s.span)}, "
                 f"always_ask=True)", f"if {answer}:", *gen._block(s.then, scope, loop_depth, mode)]
        if s.orelse:
            lines += ["else:", *gen._block(s.orelse, scope, loop_depth, mode)]
        return lines

    def procedure(self, gen: Any, name: str) -> str:
        return "r_" + gen._check(name)

    def stops_after(self, gen: Any, name: str) -> bool:
        return True  # (any procedure may run rule code that ends the game: a triggered ability's)

    def run(self, gen: Any, func: str, call: ir.Call, scope: Any) -> list[str]:
        if func == "run":  # (the part runs at once: see `Game.roll_part`)
            return [f"g.roll_part({', '.join(gen.ex(a, scope) for a in call.args)})"]
        # (the block runs at once: see `Game.roll_ability`)
        return [f"g.roll_ability({gen.ex(call.args[0], scope)}, {literal(func)}, {func == 'aim'})"]

    def after(self, gen: Any, s: ir.Stmt, mode: str) -> list[str]:
        lines = []
        if _pushes_frames(gen.names, s):  # (triggered abilities, a card's part: run them now, in order)
            lines += ["if g.frames[-1] is not f:", "    g.descend(f)"]
        if _may_run_rules(gen, s):
            lines += halted(mode)
        return lines


def _pushes_frames(names: Any, s: ir.Stmt) -> bool:
    """Whether the engine may push frames for this statement, to run after it (as the resumable
    form runs them right after it: `Game.descend`)."""
    events = names.suspending_events
    if type(s) is ir.Emit:
        return events is None or s.event in events
    if type(s) is ir.GameOp and s.op == "move":
        return "moved" in names.wanted_events and (events is None or "moved" in events)
    return False


def _may_run_rules(gen: Any, s: ir.Stmt) -> bool:
    """Whether the game may be over after this statement: it ends it, or runs other rule code (a
    call, an event something waits for, a move something watches)."""
    names = gen.names
    if type(s) is ir.Halt:
        return s.kind != "stop"
    if type(s) is ir.CallStmt:
        c = s.call
        return type(c) is ir.Call and (c.name in names.procedures or c.name in ("run", "use", "aim")
                                       or gen.host.may_end(s))
    if type(s) is ir.Emit:
        return s.event not in names.quiet_events
    if type(s) is ir.GameOp and s.op == "move":
        return "moved" in names.wanted_events
    return False


ROLLOUT = RolloutForm()


class RolloutEntries:
    """Mixin of the CodeGenerator: every procedure and block written in the rollout form."""

    _player_parameters: dict[str, frozenset[str]] | None = None  # see `player_parameters`

    def in_rollout_form(self, write: Callable[[], Any]) -> Any:
        """`write()`, with the statements written in the rollout form."""
        outer, self.form = self.form, ROLLOUT
        try:
            return write()
        finally:
            self.form = outer

    def define_rollout_procedure(self, name: str, proc: ast.Procedure) -> None:
        """`r_NAME(g, f, params...)`: the procedure in its rollout form (f: the caller's frame)."""
        self.loops_if_they_fit(lambda: self._define_rollout_procedure(name, proc))

    def _define_rollout_procedure(self, name: str, proc: ast.Procedure) -> None:
        """`r_NAME`; where the calls in the rules give some parameters players, it is written for
        players there, and a test at its start sends any other call to `ru_NAME`, written for
        any values (see `player_parameters`)."""
        params = [identifier(p) for p in proc.params]
        given = self.player_parameters().get(name, frozenset())
        body = self.lowered_body(proc.body, proc.params)
        players = self.player_names(body, proc.params, given)
        given &= players  # (not those the procedure sets to something else)
        lines = self._rollout_body(name, proc, players)
        if given:
            test = " or ".join(f"type({identifier(p)}) is not _PlayerRef" for p in proc.params if p in given)
            lines = [(f"if {test}:", proc.span), (f"    return ru_{name}(g, f, {', '.join(params)})", proc.span),
                     *lines]
            self._define("ru_" + self._check(name), ["g", "f", *params],
                         self._rollout_body(name, proc, self.player_names(body, proc.params)),
                         f"procedure {name} (rollout, any values)")
        self._define("r_" + self._check(name), ["g", "f", *params], lines, f"procedure {name} (rollout)")

    def _rollout_body(self, name: str, proc: ast.Procedure, players: frozenset[str]) -> list:
        body = self.lowered_body(proc.body, proc.params)
        scope = Scope(frame=False, names={p: identifier(p) for p in proc.params}, players=players,
                      lists=self.list_names(body, proc.params), distinct=self.distinct_names(body, proc.params))
        return self.in_rollout_form(lambda: self.procedure_lines(name, proc, scope))

    def player_parameters(self) -> dict[str, frozenset[str]]:
        """For each procedure called in the rules, the parameters that every call gives a player,
        or a value declared to hold one (`game.active`, a card's `controller`: none at times).
        Worked out once, over the code known when the rollout form is first written; a guess,
        not a proof: the procedures test what they are given (`_define_rollout_procedure`)."""
        if self._player_parameters is None:
            self._player_parameters = self._guess_player_parameters()
        return self._player_parameters

    def _guess_player_parameters(self) -> dict[str, frozenset[str]]:
        procedures = self.names.procedures
        blocks = [(self.lowered_body(body, bound), bound, owner) for body, bound, owner in self.host.blocks()]
        given = {name: set(proc.params) for name, proc in procedures.items()}
        called: set[str] = set()
        changed = True
        while changed:  # (drop what a call does not give, until every call gives what is left)
            changed = False
            for body, bound, owner in blocks:
                scope = Scope(False, players=self.player_names(
                    body, bound, frozenset(given[owner]) if owner else frozenset()))
                for call in _procedure_calls(body, procedures):
                    called.add(call.name)
                    params = procedures[call.name].params
                    for param, arg in [*zip(params, call.args), *call.kwargs]:
                        if param in given[call.name] and not self._player_like(arg, scope):
                            given[call.name].discard(param)
                            changed = True
        return {name: frozenset(given[name]) for name in called if given[name]}

    def _player_like(self, e: ir.Expr, scope) -> bool:
        return self.is_player(e, scope) or type(e) in _ATTRIBUTES and e.name in self.names.player_valued

    def rollout_block(self, name: str, body: tuple, bound: tuple[str, ...], returns: bool = False):
        """`Code.rollout` of a block: `(g, f)`, the names it starts with read from the frame's
        locals, the others Python locals; `returns`: it leaves a value in `g.returned` (see
        `Code.returns`)."""
        return self.loops_if_they_fit(lambda: self._rollout_block(name, body, bound, returns))

    def _rollout_block(self, name: str, body: tuple, bound: tuple[str, ...], returns: bool = False):
        scope = self._block_scope(body, bound)
        self.choices = {}
        outer, self.returning = self.returning, "register" if returns else None
        try:
            lines = self._rollout_lines(body, scope)
        finally:
            self.returning = outer
        if returns:
            lines = [*lines, ("g.returned = None", None)]
        return self.compile_lines(f"{name} (rollout)", ["g", "f"], [("L = f.locals", None), *lines], scope)

    def _block_scope(self, body, bound: tuple[str, ...]):
        lowered = self.lowered_body(body, bound)
        return Scope(frame=False, names={n: f"L[{literal(n)}]" for n in bound},
                     players=self.player_names(lowered, bound), lists=self.list_names(lowered, bound),
                     distinct=self.distinct_names(lowered, bound))

    def rollout_main(self, items: list, bound: tuple[str, ...]):
        """The main program's rollout form, `(g, f)`: a new game from where every game starts
        (after the seed-free start of the set-up, which bound the names `bound`), its turns
        until the game is over. `items` as `ResumableWriter.function` takes them, ending with the
        jump back to the turn's label."""
        return self.loops_if_they_fit(lambda: self._rollout_main(items, bound))

    def _rollout_main(self, items: list, bound: tuple[str, ...]):
        scope = self._block_scope(item_statements(items), bound)
        self.choices = {}
        turn = items.index(("label", items[-1][1]))
        lines = self._rollout_items(items[:turn], scope)
        rounds = self._rollout_items(items[turn:-1], scope)
        rounds += [("g.steps_left -= 1", None), ("if g.steps_left < 0:", None), ("    g.out_of_steps(f)", None)]
        lines += [("while True:", None), *indent(rounds)]
        return self.compile_lines("main (rollout)", ["g", "f"], [("L = f.locals", None), *lines], scope)

    def rollout_turns(self, items: list, bound: tuple[str, ...]):
        """The turns of the main program in their rollout form, `(g, f)`: a game's turns from the
        start of one, each name the set-up binds (`bound`) in the frame's locals, as the main
        program's resumable form keeps them: for a game played out fast from there
        (`GameState.roll_turns`). `items` as `rollout_main` takes them."""
        return self.loops_if_they_fit(lambda: self._rollout_turns(items, bound))

    def _rollout_turns(self, items: list, bound: tuple[str, ...]):
        scope = self._block_scope(item_statements(items), bound)
        self.choices = {}
        turn = items.index(("label", items[-1][1]))
        rounds = self._rollout_items(items[turn:-1], scope)
        rounds += [("g.steps_left -= 1", None), ("if g.steps_left < 0:", None), ("    g.out_of_steps(f)", None)]
        lines = [("while True:", None), *indent(rounds)]
        return self.compile_lines("main's turns (rollout)", ["g", "f"], [("L = f.locals", None), *lines], scope)

    def _rollout_items(self, items: list, scope) -> list:
        lines: list = []
        for item in items:
            if not isinstance(item, tuple):
                lines += self._rollout_lines([item], scope)
            elif item[0] == "line":
                lines.append((item[1], None))
            elif item[0] == "hook":  # (an engine call that may push frames or end the game)
                lines += [(item[1], None), ("if g.frames[-1] is not f:", None), ("    g.descend(f)", None),
                          ("if g.halted:", None), ("    return", None)]
            elif item[0] == "if":
                lines += [(f"if {self.ex(self.lowering.expression(item[1]), scope)}:", item[1].span),
                          *indent(self._rollout_items(item[2], scope) or [("pass", None)])]
        return lines

    def procedure_rollout(self, name: str, params: tuple[str, ...]):
        """`Code.rollout` of a procedure's code: its frame's locals are the call's arguments."""
        args = "".join(f", f.locals[{literal(p)}]" for p in params)
        kept = "g.returned = " if name in self.host.value_procedures else ""  # (for the caller: `Code.returns`)
        return self.compile_lines(f"procedure {name} (rollout entry)", ["g", "f"],
                                  [(f"{kept}r_{self._check(name)}(g, f{args})", None)], Scope(frame=False))

    def _rollout_lines(self, body, scope) -> list:
        return self.in_rollout_form(lambda: self.statements(self.lowered_body(body, scope.names), scope, 0, "pure")
                                    or [("pass", None)])
