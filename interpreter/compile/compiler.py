"""Compile checked AST into Python functions that the engine runs.

The compiler decides what each piece of rule code becomes and hands the writing to `codegen`
(expressions, statements that cannot suspend, procedures and functions that never suspend) and
`resumable` (blocks that may stop for a decision: plain Python with a function to resume at each
point where it may stop, so that its frame (code, pc, locals) is the whole continuation, plain
data to copy for `clone()` and to write for `to_json()`). A
`choose` inside an expression is lifted out to run before its statement, its answer stored in a
temporary local (A-normal form). It also compiles cards, abilities and keyword bundles.

The writing itself is lang/'s (codegen, resumable, rollout); this module decides what to write.
The runtime interface the generated code uses (`g.read`, `g.move`, `g.choose`, ...) is
implemented by `interpreter.engine.state.GameState`; this module never imports the engine.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import Any

from ..errors import Span, ValidationError
from ..lang import ast, ir, ir_analysis
from ..lang.analysis import (
    constant,
    gives_value,
    item_statements,
    seed_free_start,
)
from ..lang.codegen import CodeGenerator
from ..lang.resumable import ResumableWriter, dispatch
from ..lang.runtime import Ability, CardDefinition, Code, Fn, Names, StaticEffect
from .native import NativeStatements

SET_UP_START = "$set-up"  # the main program's label after the seed-free start of the set-up

def _simple(arg: ir.Expr) -> bool:
    """An argument that a function's body may read any number of times in its place: reading a
    name or a constant again costs nothing and gives the same."""
    return type(arg) in (ir.Const, ir.Local, ir.Context, ir.KeywordName, ir.Unbound)


# The names of the procedures' rollout forms in a namespace (see `Compiler.compile_rollout`).
_ROLLOUT_NAME = re.compile(r"ru?_")


class Compiler(NativeStatements):
    """Compiles procedures, functions, keyword bundles and cards against a `Names` table."""

    def __init__(self, names: Names) -> None:
        self.names = names
        self.procedure_codes: dict[str, Code] = {}
        self.codes: dict[str, Code] = {}
        self._temp = 0
        self._span: Span | None = None
        self._inlining: list[str] = []
        # the procedures that give a value (`return EXPR`): called in expressions, before their
        # statement, as a `choose` is asked
        self.value_procedures = frozenset(name for name, proc in names.procedures.items() if gives_value(proc))
        for name, proc in names.procedures.items():
            self.procedure_codes[name] = Code(f"procedure {name}", proc.span, proc.params, gives_value(proc))
        self.gen = CodeGenerator(self)
        self.writer = ResumableWriter(self.gen, self)
        self._rolled_out: int | None = None  # len(codes) when `compile_rollout` last ran
        self._main_items: list = []  # the main program's items after the seed-free start
        self._main_bound: tuple[str, ...] = ()  # and the names that start binds
        self.main_rollout: Callable | None = None  # (g, f): their rollout form
        self._turn_bound: tuple[str, ...] = ()  # the names the whole set-up binds
        self.turns_rollout: Callable | None = None  # (g, f): the turns' rollout form (see `main_program`)
        self._base: Compiler | None = None  # the compiler this one extends (see `extended`)

    def extended(self, names: Names) -> Compiler:
        """A compiler for this one's ruleset with more cards: `names` must differ from this one's
        `names` by the card names only (compile/program.py checks it), so that every procedure,
        function and block written here is what the other would write. It has them all (shared,
        not written again) and writes its own blocks into a namespace of its own: this one never
        sees them. Its rollout forms are this one's, written by this one on first use."""
        twin = _shallow_copy(self, names=names, _base=self, _native_memo={})
        twin.gen = _shallow_copy(self.gen, host=twin, names=names)
        twin.gen.ns = _shallow_copy(self.gen.ns)
        twin.gen.lowering = type(self.gen.lowering)(self.gen.lowering.names)  # (its own blocks: lowered apart)
        twin.writer = _shallow_copy(self.writer, gen=twin.gen, host=twin)
        return twin

    def compile_all(self) -> None:
        self._find_native_procedures()
        for name, proc in self.names.procedures.items():
            code = self.procedure_codes[name]
            self._compile_body(proc.body, code)
            self.codes[code.name] = code
        for name, fn in self.names.functions.items():
            self.gen.define_function(name, fn)
        for name in sorted(self.native_procedures):
            self.gen.define_procedure(name, self.names.procedures[name])

    # ----------------------------------------------------------------- blocks
    def block(self, name: str, body: tuple[ast.Stmt, ...], span: Span, bound: tuple[str, ...] = (),
              returns: bool = False) -> Code:
        """A code block whose frame starts with the names `bound` (keyword parameters...);
        `returns`: it gives a value (the replacement of a procedure that gives one)."""
        code = Code(name, span, returns=returns)
        self._compile_body(body, code, bound)
        if name in self.codes:
            raise ValidationError(f"two code blocks are named {name!r}", span)
        self.codes[name] = code
        return code

    def _compile_body(self, body, code: Code, bound: tuple[str, ...] = ()) -> None:
        code.entries = self.writer.function(code.name, list(body), bound=(*code.params, *bound), returns=code.returns)
        code.run = dispatch(code.entries)
        code.source = (tuple(body), (*code.params, *bound))

    def blocks(self) -> list[tuple[tuple, tuple[str, ...], str | None]]:
        """Every block of rule code compiled so far, as (statements, the names it starts with,
        the procedure it is the body of or None): procedures, cards' and keywords' blocks, the
        main program."""
        own = {id(code) for code in self.procedure_codes.values()}
        found = [(proc.body, proc.params, name) for name, proc in self.names.procedures.items()]
        found += [(*code.source, None) for code in self.codes.values() if id(code) not in own]
        found.append((tuple(item_statements(self._main_items)), self._main_bound, None))
        return found

    def compile_rollout(self) -> None:
        """Write every procedure and block in its rollout form (`rollout`: decisions answered as
        they come, nothing to resume), on first use; blocks made since (a scenario's cards) too."""
        if self._rolled_out == len(self.codes):
            return
        gen = self.gen
        base = self._base
        if base is not None and self._rolled_out is None:
            # the procedures' forms and the main program's are the compiler extended's (its
            # guess of player parameters is over its blocks: a guess that only saves tests)
            base.compile_rollout()
            for name, value in base.gen.ns.values.items():
                if _ROLLOUT_NAME.match(name) and name not in gen.ns.values:
                    gen.ns.values[name] = value
            gen._player_parameters = base.gen._player_parameters
            self.main_rollout = base.main_rollout
            self.turns_rollout = base.turns_rollout
        elif self._rolled_out is None:
            given = gen.player_parameters()
            for name, proc in self.names.procedures.items():
                if name in self.native_procedures and not given.get(name):  # (one form already)
                    gen.ns.values["r_" + name] = gen.ns.values["p_" + name]
                else:
                    gen.define_rollout_procedure(name, proc)
            for name, code in self.procedure_codes.items():
                code.rollout = gen.procedure_rollout(name, code.params)
        for code in self.codes.values():
            if code.rollout is None:
                body, bound = code.source
                code.rollout = gen.rollout_block(code.name, body, bound, code.returns)
        if self.main_rollout is None:
            self.main_rollout = gen.rollout_main(self._main_items, self._main_bound)
        if self.turns_rollout is None:
            self.turns_rollout = gen.rollout_turns(self._main_items, self._turn_bound)
        self._rolled_out = len(self.codes)

    def main_program(self, setup: tuple[ast.Stmt, ...], phases: list,
                     rounds: list = ()) -> tuple[Code, dict[str, int], Code | None]:
        """The game's main code: set-up, then turns forever, each running the phases in order
        (within the rounds of `rounds`, the levels of the turn structure, if any).
        Returns it with the label of each phase ('' for the start of a turn, `SET_UP_START` for
        where the set-up goes on after its seed-free start), and that start as a block of its own
        (None if there is none): what every game of the ruleset does first, whatever its seed,
        which the engine runs once and copies."""
        body = self._set_up_statements(setup)
        seed_free = seed_free_start(body, self.names.functions)
        items: list = list(body[:seed_free])
        if seed_free:
            items.append(("label", SET_UP_START))
        items += body[seed_free:]
        # a turn's or a phase's start stops nothing unless some rule waits for its event (or
        # every event may end the game)
        wanted = self.names.wanted_events
        turn_hook = "hook" if "turn_start" in wanted or self.names.ending_events is None else "line"
        hook = "hook" if "phase_start" in wanted else "line"
        for k in range(len(rounds)):
            items += self._round_begins(rounds, k, hook)
        # a game played out fast from its resumable form (a copy a search plays out) goes on in
        # the turns' rollout form from the start of its next turn (`GameState.roll_turns`)
        items += [("label", ""), ("rolling", "if g.rolling:\n    return g.roll_turns(f)"), (turn_hook, "g.begin_turn()")]
        for phase in phases:
            items += [("label", phase.name), (hook, f"g.begin_phase({self.gen.const(phase.name)})")]
            items += list(phase.body)
        if rounds:
            items.append(("if", rounds[-1].until, self._round_ends(rounds, len(rounds) - 1, hook)))
        items.append(("jump", ""))
        self._main_items = items[seed_free + 1 if seed_free else 0:]  # (what a new game runs: see `main_rollout`)
        # (the names the seed-free start binds, and those the whole set-up binds)
        self._main_bound = tuple(ir_analysis.local_bindings(self.gen.lowered_body(body[:seed_free])))
        self._turn_bound = tuple(ir_analysis.local_bindings(self.gen.lowered_body(body)))
        labels: dict[str, int] = {}
        main = Code("main", None)
        self._subst = {}
        main.entries = self.writer.function("main", items, labels)
        main.run = dispatch(main.entries)
        start = self.block("set-up start", tuple(body[:seed_free]), body[0].span) if seed_free else None
        return main, labels, start

    def _round_begins(self, rounds: list, k: int, hook: str) -> list:
        """Items that begin a round of level k: its counter, then its start steps."""
        return [("line", f"g.begin_round({k})"), *self._steps(rounds[k].start, hook)]

    def _round_ends(self, rounds: list, k: int, hook: str) -> list:
        """Items run when a round of level k ends: its end steps; the enclosing level's round
        ends too if its `until` holds; then the next round of level k begins."""
        items = self._steps(rounds[k].end, hook)
        if k > 0:
            items.append(("if", rounds[k - 1].until, self._round_ends(rounds, k - 1, hook)))
        return items + self._round_begins(rounds, k, hook)

    def _steps(self, phases, hook: str) -> list:
        items: list = []
        for phase in phases:
            if phase.name:
                items.append((hook, f"g.begin_phase({self.gen.const(phase.name)})"))
            items += list(phase.body)
        return items

    def _set_up_statements(self, setup: tuple[ast.Stmt, ...]) -> list[ast.Stmt]:
        """The set-up, with a first call of a procedure without parameters, which nothing
        replaces and which has no `stop`, written out as its statements (the same code: the
        seed-free start of the set-up may lie inside it)."""
        body = list(setup)
        seen: set[str] = set()
        while body and isinstance(body[0], ast.CallStmt) and isinstance(body[0].call, ast.Call):
            call = body[0].call
            proc = self.names.procedures.get(call.func)
            if (proc is None or proc.params or call.args or call.kwargs or call.func in seen
                    or call.func in self.names.replaced_procedures
                    or any(isinstance(n, ast.Stop) for n in ast.walk(proc.body))):
                break
            seen.add(call.func)
            body[:1] = list(proc.body)
        return body

    def _tmp(self) -> str:
        self._temp += 1
        return f"${self._temp}"

    # ----------------------------------------------------------------- expressions (generated code)
    def expr(self, e: ast.Expr | None) -> Fn:
        if e is None:
            return _none
        return self.gen.expression_function(e, self._subst, self._label(e))

    def _label(self, e: ast.Node) -> str:
        span = e.span
        return f"{span.file}:{span.line}" if span is not None else "expression"

    def inline_lowered(self, func: str, args: tuple[ir.Expr, ...],
                       bind: Callable[[ir.Expr], ir.Expr] | None = None) -> ir.Expr | None:
        """The lowered body of a rule function (lang/lower.py) with the call's lowered arguments in
        place of its parameters (lang/ir_analysis.py), or None when it cannot be inlined; after
        a non-None result, call `end_inline`.

        Each argument is worked out once, as in a call: one that the body would work out more
        than once (read twice, or once per item of a selection), or perhaps not at all (in a
        branch of if-then-else, or not read), or that draws at random, is put in place only if it
        is a name or a constant; else `bind(arg)` gives what to put there instead (a name the
        caller has worked it out into, first), and without `bind` the call is not inlined."""
        fn_def = self.names.functions[func]
        if fn_def.name in self._inlining or len(args) != len(fn_def.params) or isinstance(fn_def.body, ast.BlockValue):
            return None
        body = self.gen.lowering.definition(fn_def).value
        if ir_analysis.has_clauses(body):
            return None
        uses = ir_analysis.free_name_counts(body)
        again = ir_analysis.per_item_names(body)
        once = [_simple(arg) or (uses.get(param, 0) == 1 and param not in again and not self.gen._draws(arg))
                for param, arg in zip(fn_def.params, args)]
        if not all(once) and bind is None:
            return None
        arg_names: set[str] = set()
        for arg, fine in zip(args, once):
            if fine:
                arg_names.update(ir_analysis.free_name_counts(arg))
        if ir_analysis.binders(body) & arg_names:
            return None
        mapping = {param: arg if fine else bind(arg) for param, arg, fine in zip(fn_def.params, args, once)}
        self._inlining.append(func)
        return ir_analysis.substitute(body, mapping)

    def end_inline(self) -> None:
        self._inlining.pop()

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
                                                    (lambda g, f, n=name: f.locals[n]) if dynamic else None,
                                                    name if dynamic else ""))
                out.append(Ability("static", owner, i, part, statics=tuple(effects), keyword=keyword,
                                   keyword_params=params, span=a.span))
            elif isinstance(a, (ast.Triggered, ast.Replacement)):
                kind = "triggered" if isinstance(a, ast.Triggered) else "replacement"
                cond = self.expr(a.condition) if a.condition is not None else None
                code = self.block(f"{kind} {base} on {a.event}", a.body, a.span, params,
                                  kind == "replacement" and a.event in self.value_procedures)
                anchor = _event_anchor(a.condition, params) if kind == "replacement" else None
                out.append(Ability(kind, owner, i, part, event=a.event, condition=cond, code=code,
                                   keyword=keyword, keyword_params=params, span=a.span, anchor=anchor))
            else:
                cond = self.expr(a.condition) if a.condition is not None else None
                cost = self.expr(a.cost) if a.cost is not None else None
                # the names the target block binds: the body sees them
                aimed = tuple(ir_analysis.local_bindings(self.gen.lowered_body(a.target, params))) if a.target else ()
                code = self.block(f"activated {base}", a.body, a.span, (*params, *aimed))
                target = (self.block(f"activated {base} target", a.target, a.span, params)
                          if a.target is not None else None)
                out.append(Ability("activated", owner, i, part, condition=cond, code=code, label=a.label,
                                   cost=cost, keyword=keyword, keyword_params=params, span=a.span,
                                   target_code=target, fixed_cost=_fixed_cost(a.cost)))
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
        defn = CardDefinition(c.name, c.type, attrs, keywords, parts, tuple(abilities), c.span, token, c)
        for a in c.attrs:  # code on the card (`aims(t) = ...`): a function of its own, `self` the card
            if isinstance(a.value, ast.CodeValue):
                defn.code[a.name] = self.gen.code_function(f"{c.name}/{a.name}", a.value)
        return defn

    def expression(self, e: ast.Expr) -> Fn:
        self._subst = {}
        return self.expr(e)


def _none(g, f):
    return None


def _shallow_copy(obj: Any, **changes: Any) -> Any:
    """A shallow copy of an object whose dicts, sets and lists are copies too (what the copy
    adds to them stays its own), with some attributes changed."""
    twin = copy.copy(obj)
    for name, value in vars(obj).items():
        if isinstance(value, (dict, set, list)):
            setattr(twin, name, copy.copy(value))
    for name, value in changes.items():
        setattr(twin, name, value)
    return twin


def _fixed_cost(cost: ast.Expr | None) -> int | None:
    if cost is None:
        return 0
    return cost.value if isinstance(cost, ast.IntLit) else None


def _event_anchor(condition: ast.Expr | None, params: tuple[str, ...]) -> tuple[str, str] | None:
    """(X, "self") when a condition is `event.X == self`, or a conjunction that starts with it:
    the condition is false unless the event's X is the ability's own card; (X, "attached_to")
    when it starts `event.X == self.attached_to`: false unless the card is attached to X."""
    if condition is None or "event" in params or "self" in params:
        return None
    while isinstance(condition, ast.BinOp) and condition.op == "and":
        condition = condition.left
    if not (isinstance(condition, ast.BinOp) and condition.op == "=="):
        return None
    for field, other in ((condition.left, condition.right), (condition.right, condition.left)):
        if not (isinstance(field, ast.Attribute) and isinstance(field.obj, ast.Name) and field.obj.id == "event"):
            continue
        if isinstance(other, ast.Name) and other.id == "self":
            return field.name, "self"
        if (isinstance(other, ast.Attribute) and other.name == "attached_to" and isinstance(other.obj, ast.Name)
                and other.obj.id == "self"):
            return field.name, "attached_to"
    return None
