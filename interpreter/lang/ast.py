"""The AST of the card-effect language: frozen dataclasses that carry their source span.

Spans are excluded from equality so that parse -> print -> parse compares equal. Node classes
mirror the grammar in grammar/cardrules.lark one to one; the transformer in `parser.py` builds
them and the printer in `printer.py` turns them back into canonical text.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field

from ..errors import NO_SPAN, Span


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
class IntLit(Expr):
    value: int
    span: Span = _span()


@dataclass(frozen=True)
class StrLit(Expr):
    value: str
    span: Span = _span()


@dataclass(frozen=True)
class BoolLit(Expr):
    value: bool
    span: Span = _span()


@dataclass(frozen=True)
class NoneLit(Expr):
    span: Span = _span()


@dataclass(frozen=True)
class Name(Expr):
    id: str
    span: Span = _span()


@dataclass(frozen=True)
class Attribute(Expr):
    obj: Expr
    name: str
    span: Span = _span()


@dataclass(frozen=True)
class Index(Expr):
    obj: Expr
    index: Expr
    span: Span = _span()


@dataclass(frozen=True)
class NamedArg(Node):
    name: str
    value: Expr
    span: Span = _span()


@dataclass(frozen=True)
class Call(Expr):
    func: str
    args: tuple[Expr, ...] = ()
    kwargs: tuple[NamedArg, ...] = ()
    span: Span = _span()


@dataclass(frozen=True)
class ListLit(Expr):
    items: tuple[Expr, ...]
    span: Span = _span()


@dataclass(frozen=True)
class Comprehension(Expr):
    element: Expr
    var: str
    source: Expr
    condition: Expr | None
    span: Span = _span()


@dataclass(frozen=True)
class ComprehensionClause(Node):
    """One `for VAR in SOURCE [if CONDITION]` of a comprehension with several."""

    var: str
    source: Expr
    condition: Expr | None
    span: Span = _span()


@dataclass(frozen=True)
class MultiComprehension(Expr):
    """`[ELEMENT for x in XS [if C] for y in YS [if D] ...]`: the clauses nest left to right (each
    sees the names of the clauses before it), one item per combination that passes the tests.
    A comprehension with one clause is a `Comprehension`."""

    element: Expr
    clauses: tuple[ComprehensionClause, ...]
    span: Span = _span()


@dataclass(frozen=True)
class Conditional(Expr):
    """`if TEST then THEN else ORELSE`: one of two values; only the chosen one is worked out."""

    test: Expr
    then: Expr
    orelse: Expr
    span: Span = _span()


@dataclass(frozen=True)
class BlockValue(Expr):
    """The body of a function written as a block (`function f(x) { let y = x + 1  return y }`):
    the value of its first `return`, none if it ends without one. Only ever a function's body."""

    body: tuple[Stmt, ...]
    span: Span = _span()


@dataclass(frozen=True)
class Select(Expr):
    """`all VAR in SOURCE [where COND] [ordered by KEY [desc]]`: a filtered, ordered list."""

    var: str
    source: Expr
    where: Expr | None
    order_by: Expr | None
    descending: bool
    span: Span = _span()


@dataclass(frozen=True)
class Choose(Expr):
    """A decision: `choose [N | up to N | order] ["label"] from OPTIONS [by PLAYER]`.

    kind is 'one' (a single value), 'exactly' (a list of `count` values), 'up_to' (a list of
    0..count values) or 'order' (a permutation of all the options).
    """

    kind: str
    count: Expr | None
    label: str | None
    source: Expr
    chooser: Expr | None
    span: Span = _span()


@dataclass(frozen=True)
class BinOp(Expr):
    """Arithmetic, comparison, `and`, `or` and `in` (op is the operator text)."""

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


# ----------------------------------------------------------------- statements
@dataclass(frozen=True)
class Stmt(Node):
    pass


@dataclass(frozen=True)
class AttrDef(Node):
    name: str
    value: Expr
    span: Span = _span()


@dataclass(frozen=True)
class CodeValue(Expr):
    """The value of a code attribute written on a card (`aims(t) = t is minion`, or a block as a
    function's): parameters and a body, called by the rules with `self` the card. Only ever the
    value of a card's `AttrDef`."""

    params: tuple[str, ...]
    body: Expr
    span: Span = _span()


@dataclass(frozen=True)
class Let(Stmt):
    name: str
    value: Expr
    span: Span = _span()


@dataclass(frozen=True)
class Assign(Stmt):
    target: Expr
    op: str
    value: Expr
    span: Span = _span()
    op_span: Span = _span()  # where the operator (`=`, `+=`, `-=`) is written


@dataclass(frozen=True)
class CallStmt(Stmt):
    call: Expr
    span: Span = _span()


@dataclass(frozen=True)
class IfBranch(Node):
    condition: Expr
    body: tuple[Stmt, ...]
    span: Span = _span()


@dataclass(frozen=True)
class If(Stmt):
    branches: tuple[IfBranch, ...]
    orelse: tuple[Stmt, ...] | None
    span: Span = _span()


@dataclass(frozen=True)
class For(Stmt):
    var: str
    iterable: Expr
    body: tuple[Stmt, ...]
    span: Span = _span()
    # written `for x in L where C { B }`: the body is then `if C { B }` (one If), which every
    # pass sees as such; the printer and `explain` give the `where` back (`filtered_parts`)
    filtered: bool = False

    def filtered_parts(self) -> tuple[Expr, tuple[Stmt, ...]] | None:
        """(C, B) of a `for x in L where C { B }`, else None."""
        if not self.filtered:
            return None
        branch = self.body[0].branches[0]  # type: ignore[attr-defined]
        return branch.condition, branch.body


@dataclass(frozen=True)
class Repeat(Stmt):
    count: Expr
    body: tuple[Stmt, ...]
    span: Span = _span()


@dataclass(frozen=True)
class While(Stmt):
    condition: Expr
    body: tuple[Stmt, ...]
    span: Span = _span()
    # written `repeat { B } until C`: the loop is then `while true { B if C { break } }`, which every
    # pass sees as such; the printer gives the `repeat ... until` back (`until_parts`)
    until: bool = False

    def until_parts(self) -> tuple[tuple[Stmt, ...], Expr] | None:
        """(B, C) of a `repeat { B } until C`, else None."""
        if not self.until:
            return None
        return self.body[:-1], self.body[-1].branches[0].condition  # type: ignore[attr-defined]


@dataclass(frozen=True)
class Move(Stmt):
    card: Expr
    zone: Expr
    position: Expr | None
    span: Span = _span()


@dataclass(frozen=True)
class Create(Stmt):
    card_name: Expr
    zone: Expr
    attrs: tuple[AttrDef, ...]
    bind: str | None
    span: Span = _span()


@dataclass(frozen=True)
class Shuffle(Stmt):
    zone: Expr
    span: Span = _span()


@dataclass(frozen=True)
class Emit(Stmt):
    event: str
    args: tuple[NamedArg, ...]
    span: Span = _span()


@dataclass(frozen=True)
class Attach(Stmt):
    card: Expr
    target: Expr
    span: Span = _span()


@dataclass(frozen=True)
class Detach(Stmt):
    card: Expr
    span: Span = _span()


@dataclass(frozen=True)
class Delete(Stmt):
    card: Expr
    span: Span = _span()


@dataclass(frozen=True)
class ModifyUntil(Stmt):
    """`modify TARGET.attr by|to AMOUNT until DURATION`: a modifier that ends when the event
    `until` is emitted; or (`until` "") when the card `leaves` holds leaves its zone (`until c
    leaves`); or (`until` "" and no `leaves`) only when removed (`until removed`: `remove
    effects`, a silence). Any of them ends sooner when removed."""

    target: Expr
    mode: str
    amount: Expr
    until: str
    span: Span = _span()
    leaves: Expr | None = None


@dataclass(frozen=True)
class GrantUntil(Stmt):
    """`grant KEYWORD[(args)] to TARGET until DURATION`: `until` and `leaves` as `ModifyUntil`'s."""

    keyword: str
    args: tuple[Expr, ...]
    target: Expr
    until: str
    span: Span = _span()
    leaves: Expr | None = None


@dataclass(frozen=True)
class Silence(Stmt):
    """`silence CARDS [until EVENT]`: each card loses its printed keywords, abilities and parts,
    and the temporary modifiers and grants on it end, until it leaves its zone (or EVENT)."""

    card: Expr
    until: str | None
    span: Span = _span()


@dataclass(frozen=True)
class RemoveEffects(Stmt):
    """`remove effects [of SOURCE] [from CARDS]`: end the temporary modifiers and grants that
    SOURCE gave (a card, or a list), on CARDS (a card, a player or a list); at least one of them."""

    source: Expr | None
    target: Expr | None
    span: Span = _span()


@dataclass(frozen=True)
class May(Stmt):
    """A yes/no decision: `may ["label"] [by PLAYER] { yes } [else { no }]`."""

    label: str | None
    chooser: Expr | None
    body: tuple[Stmt, ...]
    orelse: tuple[Stmt, ...] | None
    span: Span = _span()


@dataclass(frozen=True)
class Break(Stmt):
    span: Span = _span()


@dataclass(frozen=True)
class Stop(Stmt):
    span: Span = _span()


@dataclass(frozen=True)
class Win(Stmt):
    player: Expr
    reason: str | None  # as written (`{...}` values, `{{` braces)
    span: Span = _span()
    # the reason as an expression, when it shows values ("reached {p.score} points"); else None
    reason_value: Expr | None = None


@dataclass(frozen=True)
class Lose(Stmt):
    player: Expr
    reason: str | None  # as written (`{...}` values, `{{` braces)
    span: Span = _span()
    # the reason as an expression, when it shows values ("reached {p.score} points"); else None
    reason_value: Expr | None = None


@dataclass(frozen=True)
class Tie(Stmt):
    reason: str | None  # as written (`{...}` values, `{{` braces)
    span: Span = _span()
    # the reason as an expression, when it shows values ("reached {p.score} points"); else None
    reason_value: Expr | None = None


@dataclass(frozen=True)
class Return(Stmt):
    """`return EXPR`: end a procedure (or a function's block) with a value."""

    value: Expr
    span: Span = _span()


# ----------------------------------------------------------------- abilities
@dataclass(frozen=True)
class StaticModify(Node):
    target: Expr
    mode: str
    amount: Expr
    condition: Expr | None
    span: Span = _span()


@dataclass(frozen=True)
class StaticGrant(Node):
    keyword: str
    args: tuple[Expr, ...]
    target: Expr
    condition: Expr | None
    span: Span = _span()


@dataclass(frozen=True)
class Static(Node):
    effects: tuple[StaticModify | StaticGrant, ...]
    span: Span = _span()


@dataclass(frozen=True)
class Triggered(Node):
    event: str
    condition: Expr | None
    body: tuple[Stmt, ...]
    span: Span = _span()


@dataclass(frozen=True)
class Replacement(Node):
    event: str
    condition: Expr | None
    body: tuple[Stmt, ...]
    span: Span = _span()


@dataclass(frozen=True)
class Activated(Node):
    """`activate ["label"] [pay COST] [if COND] [target { ... }] { effect }`: the target block runs
    when the ability is used (put on a stack, say), the effect when it resolves."""

    label: str | None
    cost: Expr | None
    condition: Expr | None
    body: tuple[Stmt, ...]
    target: tuple[Stmt, ...] | None = None
    span: Span = _span()


Ability = Static | Triggered | Replacement | Activated


# ----------------------------------------------------------------- definitions
@dataclass(frozen=True)
class KeywordUse(Node):
    name: str
    args: tuple[Expr, ...]
    span: Span = _span()


@dataclass(frozen=True)
class Part(Node):
    """A named part of a card (a zone of an Initiative card, a face of a keep): its effect and
    the abilities that work while the card has this part active."""

    name: str
    body: tuple[Stmt, ...]
    abilities: tuple[Ability, ...]
    span: Span = _span()


@dataclass(frozen=True)
class MadeBy:
    """Where a card made by a template comes from: the template and its loops' values."""

    template: CardTemplate
    values: tuple[tuple[str, object], ...]

    def describe(self, where: str | None = None) -> str:
        """`the template "{n}{k}" at f:3:1 with k = "a", n = 10`; `where` stands for the
        template's place (the command line gives its file relative to the working folder)."""
        shown = ", ".join(f"{name} = {json.dumps(value) if isinstance(value, str) else value}"
                          for name, value in self.values)
        at = self.template.span if where is None else where
        return f"the template {json.dumps(self.template.name)} at {at} with {shown}"


@dataclass(frozen=True)
class CardDef(Node):
    name: str
    type: str
    attrs: tuple[AttrDef, ...]
    keywords: tuple[KeywordUse, ...]
    parts: tuple[Part, ...]
    abilities: tuple[Ability, ...]
    span: Span = _span()
    # a card made by a template (`cards for ...`): which, and with what values; None when written
    made_by: MadeBy | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class TemplateLoop(Node):
    """`VAR in SOURCE` of a card template: SOURCE is worked out at load, to a list."""

    var: str
    source: Expr
    span: Span = _span()


@dataclass(frozen=True)
class CardTemplate(Node):
    """`cards for x in XS, y in YS: "NAME" : TYPE { MEMBERS }`: one card per combination of the
    loops' values (the first loop outermost). NAME is a text in which `{expr}` shows a value
    (`{{` and `}}` are braces); `pieces` is NAME split into texts and those expressions. In the
    members, the loop names stand for their values; attribute values are worked out at load."""

    loops: tuple[TemplateLoop, ...]
    name: str
    pieces: tuple[str | Expr, ...]
    type: str
    attrs: tuple[AttrDef, ...]
    keywords: tuple[KeywordUse, ...]
    parts: tuple[Part, ...]
    abilities: tuple[Ability, ...]
    span: Span = _span()


@dataclass(frozen=True)
class Procedure(Node):
    name: str
    params: tuple[str, ...]
    body: tuple[Stmt, ...]
    span: Span = _span()
    # `procedure f(a, b) text "..." {...}`: how `explain` reads a call of it, {a} its argument
    # (text, not code: a str, with where it is written)
    text: str | None = None
    text_span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Function(Node):
    name: str
    params: tuple[str, ...]
    body: Expr
    span: Span = _span()


@dataclass(frozen=True)
class KeywordDef(Node):
    name: str
    params: tuple[str, ...]
    abilities: tuple[Ability, ...]
    span: Span = _span()


Definition = CardDef | CardTemplate | Procedure | Function | KeywordDef


@dataclass(frozen=True)
class Module(Node):
    items: tuple[Definition, ...]
    span: Span = _span()


def walk(node: object) -> Iterator[Node]:
    """Every node under `node` (a node, or a tuple of nodes), itself first, depth first.

    An explicit stack rather than nested generators: those pass each node up through one
    generator per level, which made a walk of a deep tree (a long chain `1 + 1 + ...`)
    quadratic; this is linear at any depth.
    """
    stack: list[object] = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, Node):
            yield item
            stack.extend(value for value in reversed(item.__dict__.values()) if isinstance(value, (Node, tuple)))
        elif isinstance(item, tuple):
            stack.extend(reversed(item))
