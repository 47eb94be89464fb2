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

import json
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


def children(node: Node) -> Iterator[Node]:
    """The nodes directly under a node (through its tuples and (name, node) pairs), in order."""
    for value in node.__dict__.values():
        if isinstance(value, Node):
            yield value
        elif isinstance(value, tuple):
            for item in value:
                if isinstance(item, Node):
                    yield item
                elif isinstance(item, tuple):
                    yield from (v for v in item if isinstance(v, Node))


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


# ----------------------------------------------------------------- a readable print
def describe(node: object, depth: int = 0) -> str:
    """The lowered form as readable text (`cardrules explain GAME NAME --code`): a definition or
    statements one per line, nested blocks indented by two spaces, expressions inline; names as
    resolved (`you` a context name, `game.x` a global, `?x` a name bound nowhere)."""
    if isinstance(node, tuple):
        return "\n".join(describe(item, depth) for item in node)
    if isinstance(node, Expr):
        return "  " * depth + _expr(node)
    return "\n".join("  " * depth + line for line in _lines(node))


def _block(body: tuple[Stmt, ...] | None) -> list[str]:
    lines = [line for s in body or () for line in _lines(s)]
    return ["  " + line for line in lines] or ["  pass"]


def _lines(node: object) -> list[str]:
    kind = type(node)
    if kind is Let:
        return [f"let {node.name} = {_expr(node.value)}"]
    if kind is Set:
        return [f"set {_expr(node.place)} {node.op} {_expr(node.value)}"]
    if kind is CallStmt:
        return [f"call {_expr(node.call)}"]
    if kind is GameOp:
        return [f"{node.op} " + ", ".join(f"{name}={_value(value)}" for name, value in node.args)]
    if kind is If:
        lines = [f"{'elif' if node.chained else 'if'} {_expr(node.test)}:", *_block(node.then)]
        orelse = node.orelse
        if orelse and len(orelse) == 1 and type(orelse[0]) is If and orelse[0].chained:
            return lines + _lines(orelse[0])
        return lines + (["else:", *_block(orelse)] if orelse else [])
    if kind is Loop:
        head = {"for": f"for {node.var} in {_expr(node.over)}", "repeat": f"repeat {_expr(node.over)} times",
                "while": f"while {_expr(node.over)}"}[node.kind]
        return [f"loop {head}:", *_block(node.body)]
    if kind is Break:
        return ["break"]
    if kind is Return:
        return [f"return {_expr(node.value)}"]
    if kind is Emit:
        return [f"emit {node.event}(" + ", ".join(f"{name}={_expr(v)}" for name, v in node.args) + ")"]
    if kind is Halt:
        parts = [f"halt {node.kind}"] + ([_expr(node.player)] if node.player is not None else [])
        return [" ".join(parts + ([_value(node.reason)] if node.reason is not None else []))]
    if kind in (Function, Procedure):
        head = f"{'function' if kind is Function else 'procedure'} {node.name}({', '.join(node.params)})"
        if kind is Function and node.value is not None:
            return [f"{head} = {_expr(node.value)}"]
        return [f"{head}:", *_block(node.body)]
    if kind is Keyword:
        return [f"keyword {node.name}({', '.join(node.params)}):", *_indented(_abilities(node.abilities))]
    if kind is Card:
        loops = " ".join(f"for {var} in {_expr(source)}" for var, source in node.loops)
        lines = [f"card {_text(node.name)} : {node.type}{' (' + loops + ')' if loops else ''}:"]
        lines += [f"  {name} = {_expr(value)}" for name, value in node.attrs]
        lines += [f"  keyword {name}({', '.join(_expr(a) for a in args)})" for name, args in node.keywords]
        lines += _indented([line for fn in node.code for line in _lines(fn)])
        for part in node.parts:
            lines += [f"  part {part.name}:", *_indented(_block(part.body)), *_indented(_indented(
                _abilities(part.abilities)))]
        return lines + _indented(_abilities(node.abilities))
    raise TypeError(f"not an IR node: {node!r}")


def _indented(lines: list[str]) -> list[str]:
    return ["  " + line for line in lines]


def _abilities(abilities: tuple[Ability, ...]) -> list[str]:
    lines: list[str] = []
    for a in abilities:
        if a.kind == "static":
            for e in a.effects:
                what = (f"modify {_expr(e.target)} {e.mode} {_expr(e.amount)}" if e.kind == "modify" else
                        f"grant {e.keyword}({', '.join(_expr(x) for x in e.args)}) to {_expr(e.target)}")
                lines.append(f"static {what}" + (f" when {_expr(e.condition)}" if e.condition is not None else ""))
            continue
        head = {"triggered": f"triggered on {a.event}", "replacement": f"replacement of {a.event}",
                "activated": f"activated {_text(a.label or '')}"}[a.kind]
        if a.cost is not None:
            head += f" cost {_expr(a.cost)}"
        if a.condition is not None:
            head += f" if {_expr(a.condition)}"
        if a.target is not None:
            lines += [f"{head} target:", *_block(a.target), "effect:"]
        else:
            lines.append(f"{head}:")
        lines += _block(a.body)
    return lines


def _value(value: Any) -> str:
    """A GameOp's argument or a reason: an expression, a name, a tuple of them or pairs, none."""
    if isinstance(value, Expr):
        return _expr(value)
    if isinstance(value, tuple):
        return "(" + ", ".join(f"{v[0]}={_value(v[1])}" if isinstance(v, tuple) else _value(v) for v in value) + ")"
    return "none" if value is None else _text(value) if isinstance(value, str) else str(value)


def _text(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)


def _expr(e: Any) -> str:
    kind = type(e)
    if e is None:
        return "none"
    if kind is Const:
        value = e.value
        if isinstance(value, str):
            return _text(value)
        return {None: "none", True: "true", False: "false"}.get(value, str(value)) if value is None or isinstance(
            value, bool) else str(value)
    if kind in (Local, Context, KeywordName):
        return e.name
    if kind is Unbound:
        return "?" + e.name
    if kind in (Global, Option, EventArg):
        return {Global: "game", Option: "options", EventArg: "event"}[kind] + "." + e.name
    if kind is GetAttr:
        return f"{_expr(e.obj)}.{e.name}"
    if kind is GetIndex:
        return f"{_expr(e.obj)}[{_expr(e.index)}]"
    if kind is Call:
        args = [_expr(a) for a in e.args] + [f"{name}: {_expr(v)}" for name, v in e.kwargs]
        return f"{e.name}({', '.join(args)})"
    if kind is ListOf:
        return "[" + ", ".join(_expr(i) for i in e.items) + "]"
    if kind is Comprehension:
        clauses = " ".join(f"for {c.var} in {_expr(c.source)}" + (f" if {_expr(c.condition)}" if c.condition else "")
                           for c in e.clauses)
        return f"[{_expr(e.element)} {clauses}]"
    if kind is Select:
        text = f"all {e.var} in {_expr(e.source)}" + (f" where {_expr(e.where)}" if e.where is not None else "")
        if e.order_by is not None:
            text += f" ordered by {_expr(e.order_by)}" + (" desc" if e.descending else "")
        return f"({text})"
    if kind is IfExpr:
        return f"(if {_expr(e.test)} then {_expr(e.then)} else {_expr(e.orelse)})"
    if kind is BinOp:
        return f"({_expr(e.left)} {e.op} {_expr(e.right)})"
    if kind is Not:
        return f"(not {_expr(e.operand)})"
    if kind is Neg:
        return f"-{_expr(e.operand)}"
    if kind is IsType:
        return f"({_expr(e.operand)} is {'not ' if e.negated else ''}{e.type_name})"
    if kind is Ask:
        text = f"ask {e.kind}" + (f" {_expr(e.count)}" if e.count is not None else "")
        text += f" {_text(e.label)}" if e.label is not None else ""
        text += f" from {_expr(e.options)}" if e.options is not None else ""
        return f"({text}" + (f" by {_expr(e.chooser)}" if e.chooser is not None else "") + ")"
    raise TypeError(f"not an IR expression: {e!r}")
