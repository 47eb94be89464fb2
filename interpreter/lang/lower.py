"""Lowering: the AST of a definition -> the IR (lang/ir.py), once per definition.

A `Lowering` resolves names against what a ruleset defines (`Names`: its functions, procedures,
zones and keywords; the built-ins come from the table) and keeps what it made, by the identity
of the AST node and the names bound around it, so each definition is lowered once however often
it is asked for. Lowering is deterministic (the same AST gives equal IR) and total over the
language: a node it does not know is a `LoweringError` naming the node and its span.

What is bound where follows the code's order, as the evaluators keep names: a parameter, a `let`,
a loop's name, a `create ... as`, a name assigned to, from that statement on (a name bound inside
an `if` stays bound after it); a comprehension's or a selection's name inside it only.

`lowered(ruleset, definitions)` lowers every definition of a checked ruleset (its functions,
procedures, keywords, cards, the templates its cards come from, its set-up and phases), once:
the result is kept on the ruleset. consteval.py lowers a template's expressions and the
functions they call (once per template: card templates are worked out before the checker).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..errors import NO_SPAN, ValidationError
from . import ast, ir
from .builtins import BUILTINS
from .runtime import CONTEXT_NAMES

_OBJECT_NAMES = {"game": ir.Global, "options": ir.Option, "event": ir.EventArg}


class LoweringError(ValidationError):
    """A node the lowering does not know (a form added to the AST and not to lower.py)."""


@dataclass(frozen=True)
class Names:
    """What the names of a ruleset's code mean, for the lowering."""

    functions: frozenset[str] = frozenset()
    procedures: frozenset[str] = frozenset()
    zones: frozenset[str] = frozenset()
    keywords: frozenset[str] = frozenset()


class Lowering:
    """Lowers definitions, bodies and expressions against `names`, each once (see the module doc)."""

    def __init__(self, names: Names, origins: bool = False, base: Lowering | None = None) -> None:
        self.names = names
        self._made: dict[tuple, tuple[object, Any]] = {}  # (id(node), bound) -> (node, its IR)
        # a lowering of the same names whose IR this one reuses, adding nothing to it (a ruleset
        # with a scenario's own cards, on its ruleset's: the base does not grow with each)
        self.base = base
        # the IR of each AST statement (its last lowering), by id: the nodes are held by `_made`
        self._lowered: dict[int, ir.Stmt] = {}
        # with `origins`, what each IR node was lowered from (for tests that compare an analysis
        # of the IR with the same analysis of the AST; no evaluator reads the AST)
        self._origins: dict[int, ast.Node] | None = {} if origins else None

    def __getstate__(self) -> dict:
        """A copy (pickled, for another process) starts with empty caches: they are keyed by the
        identity of nodes, which a copy's nodes do not keep."""
        return {**self.__dict__, "_made": {}, "_lowered": {}, "_origins": None if self._origins is None else {},
                "base": None}

    def origin(self, node: ir.Node) -> ast.Node:
        """The AST node an IR statement or expression was lowered from (a Lowering made with
        `origins`)."""
        found = None if self._origins is None else self._origins.get(id(node))
        if found is None:
            raise LoweringError(f"{type(node).__name__} was not lowered from the AST here", getattr(node, "span", None))
        return found

    def statement(self, s: ast.Stmt) -> ir.Stmt:
        """The IR of a statement: as lowered within its definition, else lowered on its own (once)."""
        found = self._lowered.get(id(s))
        if found is None:
            found = self._cached(s, frozenset(), lambda: self._stmt(s, set()))
        return found

    def _cached(self, node: object, bound: frozenset[str], make) -> Any:
        key = (id(node), bound)
        found = self._made.get(key)
        base = self.base
        while found is None and base is not None:
            found, base = base._made.get(key), base.base
        if found is None:
            found = self._made[key] = (node, make())  # (holding the node keeps its id its own)
        return found[1]

    # ----------------------------------------------------------------- definitions
    def definition(self, d: ast.Node) -> ir.Definition:
        """A function, procedure, keyword, card or card template, lowered (once)."""
        return self._cached(d, frozenset(), lambda: self._definition(d))

    def function(self, fn: ast.Function) -> ir.Function:
        return self.definition(fn)

    def _definition(self, d: ast.Node) -> ir.Definition:
        if isinstance(d, ast.Function):
            bound = set(d.params)
            if isinstance(d.body, ast.BlockValue):
                return ir.Function(d.name, d.params, None, self._block(d.body.body, bound), span=d.span)
            return ir.Function(d.name, d.params, self._expr(d.body, frozenset(bound)), None, span=d.span)
        if isinstance(d, ast.Procedure):
            return ir.Procedure(d.name, d.params, self._block(d.body, set(d.params)), span=d.span)
        if isinstance(d, ast.KeywordDef):
            return ir.Keyword(d.name, d.params, self.abilities(d.abilities, set(d.params)), span=d.span)
        if isinstance(d, ast.CardDef):
            return self._card(d, d.name, set(), (), ())
        if isinstance(d, ast.CardTemplate):
            loops = tuple((loop.var, self._expr(loop.source, frozenset())) for loop in d.loops)
            bound = {loop.var for loop in d.loops}
            pieces = tuple(p if isinstance(p, str) else self._expr(p, frozenset(bound)) for p in d.pieces)
            return self._card(d, d.name, bound, loops, pieces)
        raise LoweringError(f"cannot lower {type(d).__name__}", getattr(d, "span", None))

    def _card(self, d: ast.CardDef | ast.CardTemplate, name: str, bound: set[str], loops, pieces) -> ir.Card:
        at = frozenset(bound)
        attrs = tuple((a.name, self._expr(a.value, at)) for a in d.attrs if not isinstance(a.value, ast.CodeValue))
        code = tuple(self._code(a.name, a.value, bound) for a in d.attrs if isinstance(a.value, ast.CodeValue))
        keywords = tuple((k.name, tuple(self._expr(x, at) for x in k.args)) for k in d.keywords)
        parts = tuple(ir.Part(p.name, self._block(p.body, set(bound)), self.abilities(p.abilities, bound), span=p.span)
                      for p in d.parts)
        return ir.Card(name, d.type, attrs, keywords, parts, self.abilities(d.abilities, bound), loops, pieces,
                       span=d.span, code=code)

    def _code(self, name: str, code: ast.CodeValue, bound: set[str]) -> ir.Function:
        """Code written on a card (`aims(t) = ...`), lowered as a rule function of that name is."""
        inner = set(bound) | set(code.params)
        if isinstance(code.body, ast.BlockValue):
            return ir.Function(name, code.params, None, self._block(code.body.body, inner), span=code.span)
        return ir.Function(name, code.params, self._expr(code.body, frozenset(inner)), None, span=code.span)

    def abilities(self, abilities: Iterable[ast.Node], bound: set[str]) -> tuple[ir.Ability, ...]:
        return tuple(self._ability(a, set(bound)) for a in abilities)

    def _ability(self, a: ast.Node, bound: set[str]) -> ir.Ability:
        at = frozenset(bound)
        if isinstance(a, ast.Static):
            return ir.Ability("static", effects=tuple(self._static(e, at) for e in a.effects), span=a.span)
        if isinstance(a, (ast.Triggered, ast.Replacement)):
            kind = "triggered" if isinstance(a, ast.Triggered) else "replacement"
            return ir.Ability(kind, event=a.event, condition=self._maybe(a.condition, at),
                              body=self._block(a.body, bound), span=a.span)
        if isinstance(a, ast.Activated):
            target = None if a.target is None else self._block(a.target, bound)  # (its names reach the effect)
            return ir.Ability("activated", label=a.label, cost=self._maybe(a.cost, at),
                              condition=self._maybe(a.condition, at), target=target,
                              body=self._block(a.body, bound), span=a.span)
        raise LoweringError(f"cannot lower {type(a).__name__}", getattr(a, "span", None))

    def _static(self, e: ast.Node, at: frozenset[str]) -> ir.StaticEffect:
        if isinstance(e, ast.StaticModify):
            return ir.StaticEffect("modify", self._expr(e.target, at), self._maybe(e.condition, at), mode=e.mode,
                                   amount=self._expr(e.amount, at), span=e.span)
        if isinstance(e, ast.StaticGrant):
            return ir.StaticEffect("grant", self._expr(e.target, at), self._maybe(e.condition, at),
                                   keyword=e.keyword, args=tuple(self._expr(x, at) for x in e.args), span=e.span)
        raise LoweringError(f"cannot lower {type(e).__name__}", getattr(e, "span", None))

    # ----------------------------------------------------------------- statements
    def statements(self, body: tuple[ast.Stmt, ...], bound: frozenset[str]) -> tuple[ir.Stmt, ...]:
        """Statements run with the names `bound` already bound (once per body and names)."""
        return self._cached(body, bound, lambda: self._block(body, set(bound)))

    def _block(self, body: Iterable[ast.Stmt], bound: set[str]) -> tuple[ir.Stmt, ...]:
        return tuple(self._stmt(s, bound) for s in body)

    def _stmt(self, s: ast.Stmt, bound: set[str]) -> ir.Stmt:
        made = self._statement(s, bound)
        if self._origins is not None:
            self._origins[id(made)] = s
        self._lowered[id(s)] = made
        return made

    def _statement(self, s: ast.Stmt, bound: set[str]) -> ir.Stmt:
        ex = self._expr
        if isinstance(s, ast.Let):
            value = ex(s.value, frozenset(bound))
            bound.add(s.name)
            return ir.Let(s.name, value, span=s.span)
        if isinstance(s, ast.Assign):
            value = ex(s.value, frozenset(bound))
            target = s.target
            if isinstance(target, ast.Name) and target.id not in CONTEXT_NAMES:
                bound.add(target.id)
            return ir.Set(ex(target, frozenset(bound)), s.op, value, span=s.span, op_span=s.op_span)
        if isinstance(s, ast.CallStmt):
            return ir.CallStmt(ex(s.call, frozenset(bound)), span=s.span)
        if isinstance(s, ast.If):
            return self._if(s.branches, s.orelse, bound, False, s.span)
        if isinstance(s, ast.For):
            over = ex(s.iterable, frozenset(bound))
            bound.add(s.var)
            return ir.Loop("for", s.var, over, self._block(s.body, bound), span=s.span)
        if isinstance(s, ast.Repeat):
            return ir.Loop("repeat", None, ex(s.count, frozenset(bound)), self._block(s.body, bound), span=s.span)
        if isinstance(s, ast.While):
            return ir.Loop("while", None, ex(s.condition, frozenset(bound)), self._block(s.body, bound), span=s.span)
        if isinstance(s, ast.May):
            at = frozenset(bound)
            ask = ir.Ask("may", None, s.label, None, self._maybe(s.chooser, at), span=s.span)
            then = self._block(s.body, bound)
            orelse = None if s.orelse is None else self._block(s.orelse, bound)
            return ir.If(ask, then, orelse, span=s.span)
        if isinstance(s, ast.Break):
            return ir.Break(span=s.span)
        if isinstance(s, ast.Return):
            return ir.Return(ex(s.value, frozenset(bound)), span=s.span)
        if isinstance(s, ast.Emit):
            at = frozenset(bound)
            return ir.Emit(s.event, tuple((a.name, ex(a.value, at)) for a in s.args), span=s.span)
        if isinstance(s, ast.Stop):
            return ir.Halt("stop", None, None, span=s.span)
        if isinstance(s, (ast.Win, ast.Lose)):
            kind = "win" if isinstance(s, ast.Win) else "lose"
            return ir.Halt(kind, ex(s.player, frozenset(bound)), self._reason(s, bound), span=s.span)
        if isinstance(s, ast.Tie):
            return ir.Halt("tie", None, self._reason(s, bound), span=s.span)
        return self._game_op(s, bound)

    def _reason(self, s: ast.Win | ast.Lose | ast.Tie, bound) -> str | ir.Expr | None:
        """A result's reason: its text, or the expression of a reason that shows values."""
        return s.reason if s.reason_value is None else self._expr(s.reason_value, frozenset(bound))

    def _if(self, branches: tuple[ast.IfBranch, ...], orelse, bound: set[str], chained: bool, span) -> ir.If:
        first, rest = branches[0], branches[1:]
        test = self._expr(first.condition, frozenset(bound))
        then = self._block(first.body, bound)
        if rest:
            tail: tuple[ir.Stmt, ...] | None = (self._if(rest, orelse, bound, True, rest[0].span),)
        else:
            tail = None if orelse is None else self._block(orelse, bound)
        return ir.If(test, then, tail, chained, span=span)

    def _game_op(self, s: ast.Stmt, bound: set[str]) -> ir.GameOp:
        at = frozenset(bound)
        ex = self._expr
        if isinstance(s, ast.Move):
            args: tuple = (("card", ex(s.card, at)), ("zone", ex(s.zone, at)), ("position", self._maybe(s.position, at)))
            return ir.GameOp("move", args, span=s.span)
        if isinstance(s, ast.Create):
            attrs = tuple((a.name, ex(a.value, at)) for a in s.attrs)
            args = (("card_name", ex(s.card_name, at)), ("zone", ex(s.zone, at)), ("attrs", attrs), ("bind", s.bind))
            if s.bind is not None:
                bound.add(s.bind)
            return ir.GameOp("create", args, span=s.span)
        if isinstance(s, ast.Shuffle):
            return ir.GameOp("shuffle", (("zone", ex(s.zone, at)),), span=s.span)
        if isinstance(s, ast.Attach):
            return ir.GameOp("attach", (("card", ex(s.card, at)), ("target", ex(s.target, at))), span=s.span)
        if isinstance(s, (ast.Detach, ast.Delete)):
            op = "detach" if isinstance(s, ast.Detach) else "delete"
            return ir.GameOp(op, (("card", ex(s.card, at)),), span=s.span)
        if isinstance(s, ast.ModifyUntil):
            args = (("target", ex(s.target, at)), ("mode", s.mode), ("amount", ex(s.amount, at)), ("until", s.until),
                    ("leaves", self._maybe(s.leaves, at)))
            return ir.GameOp("modify_until", args, span=s.span)
        if isinstance(s, ast.GrantUntil):
            args = (("keyword", s.keyword), ("args", tuple(ex(x, at) for x in s.args)), ("target", ex(s.target, at)),
                    ("until", s.until), ("leaves", self._maybe(s.leaves, at)))
            return ir.GameOp("grant_until", args, span=s.span)
        if isinstance(s, ast.Silence):
            return ir.GameOp("silence", (("card", ex(s.card, at)), ("until", s.until)), span=s.span)
        if isinstance(s, ast.RemoveEffects):
            args = (("source", self._maybe(s.source, at)), ("target", self._maybe(s.target, at)))
            return ir.GameOp("remove_effects", args, span=s.span)
        raise LoweringError(f"cannot lower the statement {type(s).__name__}", getattr(s, "span", None))

    # ----------------------------------------------------------------- expressions
    def expression(self, e: ast.Expr, bound: frozenset[str] = frozenset()) -> ir.Expr:
        """An expression where the names `bound` are bound (once per expression and names)."""
        return self._cached(e, bound, lambda: self._expr(e, bound))

    def name(self, name: str, bound: frozenset[str] = frozenset()) -> ir.Expr:
        """What a name means where the names `bound` are bound (a prompt's `{name}`)."""
        return self._name(name, NO_SPAN, bound)

    def _maybe(self, e: ast.Expr | None, bound: frozenset[str]) -> ir.Expr | None:
        return None if e is None else self._expr(e, bound)

    def _name(self, name: str, span, bound: frozenset[str]) -> ir.Expr:
        if name in bound:
            return ir.Local(name, span=span)
        if name in CONTEXT_NAMES:
            return ir.Context(name, span=span)
        if name in self.names.keywords:
            return ir.KeywordName(name, span=span)
        return ir.Unbound(name, span=span)

    def _call(self, e: ast.Call, bound: frozenset[str]) -> ir.Call:
        names, name = self.names, e.func
        builtin = None
        if name in names.procedures:  # (the checker's order)
            callee = ir.PROCEDURE
        elif name in names.functions:
            callee = ir.FUNCTION
        elif name in names.zones:
            callee = ir.ZONE
        elif name in BUILTINS:
            callee, builtin = ir.BUILTIN, BUILTINS[name]
        else:
            callee = ir.UNKNOWN
        return ir.Call(callee, name, tuple(self._expr(a, bound) for a in e.args),
                       tuple((a.name, self._expr(a.value, bound)) for a in e.kwargs), builtin, span=e.span)

    def _expr(self, e: ast.Expr, bound: frozenset[str]) -> ir.Expr:
        made = self._expression(e, bound)
        if self._origins is not None:
            self._origins[id(made)] = e
        return made

    def _expression(self, e: ast.Expr, bound: frozenset[str]) -> ir.Expr:
        ex = self._expr
        kind = type(e)
        if kind in (ast.IntLit, ast.StrLit, ast.BoolLit):
            return ir.Const(e.value, span=e.span)
        if kind is ast.NoneLit:
            return ir.Const(None, span=e.span)
        if kind is ast.Name:
            return self._name(e.id, e.span, bound)
        if kind is ast.Attribute:
            if isinstance(e.obj, ast.Name) and e.obj.id in _OBJECT_NAMES and e.obj.id not in bound:
                return _OBJECT_NAMES[e.obj.id](e.name, span=e.span)
            return ir.GetAttr(ex(e.obj, bound), e.name, span=e.span)
        if kind is ast.Index:
            return ir.GetIndex(ex(e.obj, bound), ex(e.index, bound), span=e.span)
        if kind is ast.Call:
            return self._call(e, bound)
        if kind is ast.ListLit:
            return ir.ListOf(tuple(ex(i, bound) for i in e.items), span=e.span)
        if kind is ast.Comprehension:
            inner = bound | {e.var}
            clause = ir.Clause(e.var, ex(e.source, bound), self._maybe(e.condition, inner), span=e.span)
            return ir.Comprehension(ex(e.element, inner), (clause,), span=e.span)
        if kind is ast.MultiComprehension:
            clauses = []
            inner = bound
            for c in e.clauses:
                source = ex(c.source, inner)
                inner = inner | {c.var}
                clauses.append(ir.Clause(c.var, source, self._maybe(c.condition, inner), span=c.span))
            return ir.Comprehension(ex(e.element, inner), tuple(clauses), span=e.span)
        if kind is ast.Select:
            inner = bound | {e.var}
            return ir.Select(e.var, ex(e.source, bound), self._maybe(e.where, inner), self._maybe(e.order_by, inner),
                             e.descending, span=e.span)
        if kind is ast.Conditional:
            return ir.IfExpr(ex(e.test, bound), ex(e.then, bound), ex(e.orelse, bound), span=e.span)
        if kind is ast.BinOp:
            return ir.BinOp(e.op, ex(e.left, bound), ex(e.right, bound), span=e.span)
        if kind is ast.Not:
            return ir.Not(ex(e.operand, bound), span=e.span)
        if kind is ast.Neg:
            return ir.Neg(ex(e.operand, bound), span=e.span)
        if kind is ast.IsType:
            return ir.IsType(ex(e.operand, bound), e.type_name, e.negated, span=e.span)
        if kind is ast.Choose:
            return ir.Ask(e.kind, self._maybe(e.count, bound), e.label, ex(e.source, bound),
                          self._maybe(e.chooser, bound), span=e.span)
        raise LoweringError(f"cannot lower the expression {kind.__name__}", getattr(e, "span", None))


def names_of(ruleset: Any, definitions: Any) -> Names:
    """The names of a checked ruleset (rules/model.Ruleset) with its checker's Definitions."""
    return Names(frozenset(definitions.functions), frozenset(definitions.procedures), frozenset(ruleset.zones),
                 frozenset(definitions.keywords))


@dataclass(frozen=True)
class LoweredRuleset:
    """Every definition of a ruleset, lowered: by name, and the set-up's and phases' statements."""

    functions: dict[str, ir.Function]
    procedures: dict[str, ir.Procedure]
    keywords: dict[str, ir.Keyword]
    cards: dict[str, ir.Card]  # (the cards a template makes too)
    templates: tuple[ir.Card, ...]
    steps: dict[str, tuple[ir.Stmt, ...]]  # "set-up" and each step of the turn structure, by its name
    rounds: dict[str, ir.Expr]  # the `until` of each level of rounds that has one
    # the definitions as the code and card files write them, in their order (a template as one)
    written: tuple[ir.Definition, ...] = ()
    lowering: Lowering | None = field(default=None, compare=False, repr=False)  # (what lowered it)

    def nodes(self) -> tuple[ir.Node, ...]:
        """Every node of the code as written (`Ruleset.code_nodes` of the lowered form): the
        definitions of the code and card files, the set-up and phases, the rounds' tests (walked
        once: the compiler's analyses each look through them)."""
        found = self.__dict__.get("_nodes")
        if found is None:
            found = self.__dict__["_nodes"] = tuple(ir.walk((self.written, tuple(self.steps.values()),
                                                             tuple(self.rounds.values()))))
        return found


def lower_ruleset(ruleset: Any, definitions: Any, lowering: Lowering | None = None) -> LoweredRuleset:
    """Lower every definition of a checked ruleset, and the code its turn structure runs (with
    `lowering`, one of the same names, its own or on a base: what it has is not lowered again)."""
    lowering = lowering or Lowering(names_of(ruleset, definitions))
    items = [item for module in [*ruleset.modules, *ruleset.card_modules] for item in module.items]
    templates = tuple(lowering.definition(item) for item in items if isinstance(item, ast.CardTemplate))
    steps = {"set-up": lowering.statements(tuple(ruleset.setup), frozenset())}
    for where, phase in ruleset.steps():
        steps[where] = lowering.statements(tuple(phase.body), frozenset())
    rounds = {level.name: lowering.expression(level.until) for level in ruleset.rounds if level.until is not None}
    return LoweredRuleset({n: lowering.definition(f) for n, f in definitions.functions.items()},
                          {n: lowering.definition(p) for n, p in definitions.procedures.items()},
                          {n: lowering.definition(k) for n, k in definitions.keywords.items()},
                          {n: lowering.definition(c) for n, c in definitions.cards.items()}, templates, steps, rounds,
                          tuple(lowering.definition(item) for item in items), lowering)


def lowered(ruleset: Any, definitions: Any, base: Any = None) -> LoweredRuleset:
    """`lower_ruleset`, once per checked ruleset: kept on the ruleset (as its `code_nodes` are).
    `base`: a ruleset this one adds cards to; if its names are the same and it was lowered, what
    it shares with this one is not lowered again (a scenario's own cards on its ruleset)."""
    found = ruleset.__dict__.get("_lowered")
    if found is None or found[0] is not definitions:
        shared = base.__dict__.get("_lowered") if base is not None else None
        names = names_of(ruleset, definitions)
        lowering = None
        if shared is not None and shared[1].lowering is not None and shared[1].lowering.names == names:
            lowering = Lowering(names, base=shared[1].lowering)
        else:
            shared = None
        found = ruleset.__dict__["_lowered"] = (definitions, lower_ruleset(ruleset, definitions, lowering))
        if shared is not None:
            _nodes_after(found[1], shared[1])
    return found[1]


def _nodes_after(low: LoweredRuleset, base: LoweredRuleset) -> None:
    """Give `low` its nodes as `base`'s and those of the definitions written after base's, when
    it is `base` with more definitions (as `Ruleset.code_nodes` of a ruleset with more cards)."""
    known = base.written
    if (len(low.written) >= len(known) and all(a is b for a, b in zip(low.written, known))
            and low.steps == base.steps and low.rounds == base.rounds):
        low.__dict__["_nodes"] = base.nodes() + tuple(ir.walk(low.written[len(known):]))
