"""The lowered form of the card-effect language (issue 31, step 3): small frozen dataclasses that
lang/lower.py makes from the AST, once per definition, and that evaluators read instead of the AST.

Expressions stay trees, with their names resolved: a name is a `Local` (a parameter, a `let`, a
loop's or a comprehension's name, a `create ... as`), a `Context` name (`self`, `you`, `event`,
`players`, `game`, `options`), a `KeywordName` (a keyword of the ruleset, which stands for its
text) or `Unbound` (anything else: an error wherever it is worked out); `game.x`, `options.x`
and `event.x` are a `Global`, an `Option` and an `EventArg`; a call names what it calls
(`Call.callee`: a rule function, a built-in with its table entry, a procedure, a zone). A
decision (`choose`, the test of a `may`) is an `Ask` expression: the only one that suspends.

Statements are the operations of docs/contributing.md section 6: `Let`, `Set`, `CallStmt`,
`GameOp` (move, create, shuffle, attach, detach, delete, modify/grant until, silence, remove
effects), `If` (an `elif` is an `If` in the `orelse`), `Loop` (`for`, `repeat`, `while`), `Break`, `Return`, `Emit`, `Halt`
(win, lose, tie, stop). `may` is an `If` whose test is an `Ask`.

Every node keeps the span of the source it comes from (excluded from equality, as in the AST).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ..errors import NO_SPAN, Span
from .builtins import Builtin


def _span() -> Span:
    return field(default=NO_SPAN, compare=False, repr=False)


@dataclass(frozen=True)
class Node:
    pass


# ----------------------------------------------------------------- expressions
@dataclass(frozen=True)
class Expr(Node):
    pass


@dataclass(frozen=True)
class Const(Expr):
    """A literal: a number, a text, true/false, none."""

    value: Any
    span: Span = _span()


@dataclass(frozen=True)
class Local(Expr):
    """A name the code binds: a parameter, a `let`, a loop's or a comprehension's name."""

    name: str
    span: Span = _span()


@dataclass(frozen=True)
class Context(Expr):
    """`self`, `you`, `event`, `players`, `game` or `options`, where no local hides it."""

    name: str
    span: Span = _span()


@dataclass(frozen=True)
class KeywordName(Expr):
    """The name of a keyword of the ruleset: its text."""

    name: str
    span: Span = _span()


@dataclass(frozen=True)
class Unbound(Expr):
    """A name that means nothing where it stands (the checker refuses it in a game's code; a card
    template's code is worked out before the checker, and refuses it where it is reached)."""

    name: str
    span: Span = _span()


@dataclass(frozen=True)
class Global(Expr):
    """`game.NAME`."""

    name: str
    span: Span = _span()


@dataclass(frozen=True)
class Option(Expr):
    """`options.NAME`."""

    name: str
    span: Span = _span()


@dataclass(frozen=True)
class EventArg(Expr):
    """`event.NAME`."""

    name: str
    span: Span = _span()


@dataclass(frozen=True)
class GetAttr(Expr):
    """`OBJ.NAME`: a card's or a player's attribute or property."""

    obj: Expr
    name: str
    span: Span = _span()


@dataclass(frozen=True)
class GetIndex(Expr):
    obj: Expr
    index: Expr
    span: Span = _span()


# what a call calls
FUNCTION, BUILTIN, PROCEDURE, ZONE, UNKNOWN = "function", "builtin", "procedure", "zone", "unknown"


@dataclass(frozen=True)
class Call(Expr):
    """A call: `callee` is FUNCTION (a rule function), BUILTIN (`builtin` is its table entry, a
    function or a procedure), PROCEDURE (a rule procedure), ZONE, or UNKNOWN."""

    callee: str
    name: str
    args: tuple[Expr, ...] = ()
    kwargs: tuple[tuple[str, Expr], ...] = ()
    builtin: Builtin | None = field(default=None, compare=False, repr=False)
    span: Span = _span()


@dataclass(frozen=True)
class ListOf(Expr):
    items: tuple[Expr, ...]
    span: Span = _span()


@dataclass(frozen=True)
class Clause(Node):
    """`for VAR in SOURCE [if CONDITION]` of a comprehension."""

    var: str
    source: Expr
    condition: Expr | None
    span: Span = _span()


@dataclass(frozen=True)
class Comprehension(Expr):
    """`[ELEMENT for ... for ...]`: the clauses nest left to right."""

    element: Expr
    clauses: tuple[Clause, ...]
    span: Span = _span()


@dataclass(frozen=True)
class Select(Expr):
    var: str
    source: Expr
    where: Expr | None
    order_by: Expr | None
    descending: bool
    span: Span = _span()


@dataclass(frozen=True)
class IfExpr(Expr):
    """`if TEST then THEN else ORELSE`: only the chosen branch is worked out."""

    test: Expr
    then: Expr
    orelse: Expr
    span: Span = _span()


@dataclass(frozen=True)
class BinOp(Expr):
    """Arithmetic, comparison, `in`, and `and`/`or` (which work out `right` only when needed)."""

    op: str
    left: Expr
    right: Expr
    span: Span = _span()


@dataclass(frozen=True)
class Not(Expr):
    operand: Expr
    span: Span = _span()


@dataclass(frozen=True)
class Neg(Expr):
    operand: Expr
    span: Span = _span()


@dataclass(frozen=True)
class IsType(Expr):
    operand: Expr
    type_name: str
    negated: bool
    span: Span = _span()


@dataclass(frozen=True)
class Ask(Expr):
    """A decision: kind 'one', 'exactly', 'up_to', 'order' (`choose`, over `options`) or 'may'
    (yes or no; `options` is None). The only expression that suspends."""

    kind: str
    count: Expr | None
    label: str | None
    options: Expr | None
    chooser: Expr | None
    span: Span = _span()


# ----------------------------------------------------------------- statements
@dataclass(frozen=True)
class Stmt(Node):
    pass


@dataclass(frozen=True)
class Let(Stmt):
    name: str
    value: Expr
    span: Span = _span()


@dataclass(frozen=True)
class Set(Stmt):
    """`PLACE = VALUE`, `+=`, `-=`: `place` a Local, a Global, a GetAttr (or what the checker refuses)."""

    place: Expr
    op: str
    value: Expr
    span: Span = _span()
    op_span: Span = _span()


@dataclass(frozen=True)
class CallStmt(Stmt):
    """A call as a statement: a procedure, a built-in procedure (or a function, its value unused)."""

    call: Expr
    span: Span = _span()


@dataclass(frozen=True)
class GameOp(Stmt):
    """An operation on the game: `op` is move (card, zone, position), create (card_name, zone,
    attrs, bind), shuffle (zone), attach (card, target), detach (card), delete (card),
    modify_until (target, mode, amount, until, leaves) or grant_until (keyword, args, target, until,
    leaves), silence (card, until), remove_effects (source, target); `args` holds those by name,
    in that order."""

    op: str
    args: tuple[tuple[str, Any], ...]
    span: Span = _span()

    def arg(self, name: str) -> Any:
        return dict(self.args)[name]


@dataclass(frozen=True)
class If(Stmt):
    """`elif` is an If in `orelse`, marked `chained` (it is not a statement of its own)."""

    test: Expr
    then: tuple[Stmt, ...]
    orelse: tuple[Stmt, ...] | None
    chained: bool = False
    span: Span = _span()


@dataclass(frozen=True)
class Loop(Stmt):
    """kind 'for' (`var` over the list `over`), 'repeat' (`over` times) or 'while' (`over` the test)."""

    kind: str
    var: str | None
    over: Expr
    body: tuple[Stmt, ...]
    span: Span = _span()


@dataclass(frozen=True)
class Break(Stmt):
    span: Span = _span()


@dataclass(frozen=True)
class Return(Stmt):
    value: Expr
    span: Span = _span()


@dataclass(frozen=True)
class Emit(Stmt):
    event: str
    args: tuple[tuple[str, Expr], ...]
    span: Span = _span()


@dataclass(frozen=True)
class Halt(Stmt):
    """kind 'win', 'lose' (`player`), 'tie' or 'stop'."""

    kind: str
    player: Expr | None
    reason: str | Expr | None  # (an expression: a reason that shows values, "reached {p.score}")
    span: Span = _span()


# ----------------------------------------------------------------- definitions
@dataclass(frozen=True)
class StaticEffect(Node):
    """One effect of a static ability: kind 'modify' (mode, amount) or 'grant' (keyword, args)."""

    kind: str
    target: Expr
    condition: Expr | None
    mode: str | None = None
    amount: Expr | None = None
    keyword: str | None = None
    args: tuple[Expr, ...] = ()
    span: Span = _span()


@dataclass(frozen=True)
class Ability(Node):
    """kind 'static' (`effects`), 'triggered' or 'replacement' (`event`, `condition`, `body`) or
    'activated' (`label`, `cost`, `condition`, `target`, `body`)."""

    kind: str
    event: str | None = None
    label: str | None = None
    cost: Expr | None = None
    condition: Expr | None = None
    target: tuple[Stmt, ...] | None = None
    body: tuple[Stmt, ...] = ()
    effects: tuple[StaticEffect, ...] = ()
    span: Span = _span()


@dataclass(frozen=True)
class Part(Node):
    name: str
    body: tuple[Stmt, ...]
    abilities: tuple[Ability, ...]
    span: Span = _span()


@dataclass(frozen=True)
class Function(Node):
    """A rule function: `value` (an expression body) or `body` (a block: the value of its first
    `return`, none if it ends without one)."""

    name: str
    params: tuple[str, ...]
    value: Expr | None
    body: tuple[Stmt, ...] | None
    span: Span = _span()


@dataclass(frozen=True)
class Procedure(Node):
    name: str
    params: tuple[str, ...]
    body: tuple[Stmt, ...]
    span: Span = _span()


@dataclass(frozen=True)
class Card(Node):
    """A card (or a card template: `loops` are its loops, `pieces` its name's pieces)."""

    name: str
    type: str
    attrs: tuple[tuple[str, Expr], ...]
    keywords: tuple[tuple[str, tuple[Expr, ...]], ...]
    parts: tuple[Part, ...]
    abilities: tuple[Ability, ...]
    loops: tuple[tuple[str, Expr], ...] = ()
    pieces: tuple[str | Expr, ...] = ()
    span: Span = _span()
    code: tuple[Function, ...] = ()  # its code attributes (`aims(t) = ...`), as functions


@dataclass(frozen=True)
class Keyword(Node):
    name: str
    params: tuple[str, ...]
    abilities: tuple[Ability, ...]
    span: Span = _span()


Definition = Function | Procedure | Card | Keyword


def walk(node: object) -> Iterator[Node]:
    """Every IR node under `node` (a node, or a tuple of nodes and pairs), itself first."""
    stack: list[object] = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, Node):
            yield item
            stack.extend(value for value in reversed(item.__dict__.values()) if isinstance(value, (Node, tuple)))
        elif isinstance(item, tuple):
            stack.extend(reversed(item))
