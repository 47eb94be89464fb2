"""Analyses of the lowered form (lang/ir.py) that the compiler asks. Of expressions, for the
inlining of rule functions (`Compiler.inline_lowered`): the free names of an expression and how
often each is read, the names read once per item or in a branch, the names bound inside, and an
expression with names put in place of others. Of statements: the decisions and values of
procedures a statement asks before it runs (`chooses_in`, `value_calls`: compile/native.py, the
emitters) and the names a block binds (`local_bindings`: the kind inference's name analyses).

A name is a `Local`, `Context`, `KeywordName` or `Unbound`; `game.x`, `options.x` and `event.x`
(a `Global`, an `Option`, an `EventArg`) read the name `game`, `options`, `event`, as the AST
they come from does. A selection's or a comprehension clause's name is bound in what follows its
source: the selection's test and key, the clause's test, later clauses and the element.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from . import ir

_NAMES = (ir.Local, ir.Context, ir.KeywordName, ir.Unbound)
_OBJECT_NAMES = {ir.Global: "game", ir.Option: "options", ir.EventArg: "event"}


def free_name_counts(e: ir.Node, bound: frozenset[str] = frozenset()) -> dict[str, int]:
    """Each name an expression reads and does not bind, with how many times it is written."""
    counts: dict[str, int] = {}

    def read(name: str, bound: frozenset[str]) -> None:
        if name not in bound:
            counts[name] = counts.get(name, 0) + 1

    def walk(node: Any, bound: frozenset[str]) -> None:
        kind = type(node)
        if kind in _NAMES:
            read(node.name, bound)
        elif kind in _OBJECT_NAMES:
            read(_OBJECT_NAMES[kind], bound)
        elif kind is ir.Select:
            walk(node.source, bound)
            for part in (node.where, node.order_by):
                if part is not None:
                    walk(part, bound | {node.var})
        elif kind is ir.Comprehension:
            inner = bound
            for clause in node.clauses:
                walk(clause.source, inner)
                inner = inner | {clause.var}
                if clause.condition is not None:
                    walk(clause.condition, inner)
            walk(node.element, inner)
        elif isinstance(node, ir.Node):
            for child in ir.children(node):
                walk(child, bound)

    walk(e, bound)
    return counts


def per_item_names(e: ir.Node) -> set[str]:
    """The free names of an expression that it reads once per item of a selection or
    comprehension (in a test, a key, the element, a later clause), or in a branch of `if ... then
    ... else` (which may not be worked out)."""
    found: set[str] = set()
    for node in ir.walk(e):
        if type(node) is ir.Select:
            parts: list[Any] = [node.where, node.order_by]
        elif type(node) is ir.Comprehension and len(node.clauses) == 1:
            parts = [node.element, node.clauses[0].condition]
        elif type(node) is ir.Comprehension:  # (as the AST's: every clause after the first, its test, the element)
            parts = [node.element, *node.clauses[1:], node.clauses[0].condition]
        elif type(node) is ir.IfExpr:
            parts = [node.then, node.orelse]
        else:
            continue
        for part in parts:
            if part is not None:
                found.update(free_name_counts(part))
    return found


def binders(e: ir.Node) -> set[str]:
    """The names that selections and comprehension clauses bind in an expression."""
    return {n.var for n in ir.walk(e) if type(n) in (ir.Select, ir.Clause)}


def has_clauses(e: ir.Node) -> bool:
    """Whether an expression holds a comprehension of several clauses."""
    return any(type(n) is ir.Comprehension and len(n.clauses) > 1 for n in ir.walk(e))


def substitute(node: Any, mapping: dict[str, ir.Expr]) -> Any:
    """A copy of an expression with the locals named in `mapping` replaced (a selection's or a
    comprehension's own name hides a name of the mapping from its test, key and element)."""
    if not mapping or not isinstance(node, ir.Node):
        return node
    if type(node) is ir.Local:
        return mapping.get(node.name, node)
    if type(node) is ir.Select and node.var in mapping:
        inner = {k: v for k, v in mapping.items() if k != node.var}
        return dataclasses.replace(node, source=substitute(node.source, mapping), where=substitute(node.where, inner),
                                   order_by=substitute(node.order_by, inner))
    if type(node) is ir.Comprehension:
        clauses, inner = [], mapping
        for clause in node.clauses:
            source = substitute(clause.source, inner)
            inner = {k: v for k, v in inner.items() if k != clause.var}
            clauses.append(dataclasses.replace(clause, source=source, condition=substitute(clause.condition, inner)))
        return dataclasses.replace(node, clauses=tuple(clauses), element=substitute(node.element, inner))
    changes = {}
    for name, value in node.__dict__.items():
        if isinstance(value, ir.Node):
            new = substitute(value, mapping)
        elif isinstance(value, tuple):
            new = tuple(_substituted(v, mapping) for v in value)
            if all(a is b for a, b in zip(new, value)):
                new = value
        else:
            continue
        if new is not value:
            changes[name] = new
    return dataclasses.replace(node, **changes) if changes else node


def _substituted(item: Any, mapping: dict[str, ir.Expr]) -> Any:
    """`substitute` of an item of a node's tuple: a node, or a (name, node) pair (a call's named
    arguments)."""
    if isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], ir.Node):
        value = substitute(item[1], mapping)
        return item if value is item[1] else (item[0], value)
    return substitute(item, mapping)


# ----------------------------------------------------------------- the analyses of a statement
def chooses_in(s: ir.Stmt, procedures: frozenset[str] | set[str] = frozenset()) -> list:
    """The decisions (`Ask`s but a `may`'s own) of one statement's expressions (not of nested
    blocks: but an `elif`'s test is the statement's), innermost first; with `procedures` (those
    that give a value), also the calls of them: both run before the statement, in this order."""
    found: list = []

    def walk(node: Any) -> None:
        kind = type(node)
        if kind is ir.Ask:
            for child in (node.count, node.options, node.chooser):
                if child is not None:
                    walk(child)
            if node.kind != "may":
                found.append(node)
            return
        if kind in (ir.Select, ir.Comprehension):
            return  # the checker rejects choose inside these
        for child in ir.children(node):
            walk(child)
        if kind is ir.Call and node.name in procedures:
            found.append(node)

    kind = type(s)
    if kind is ir.If:
        branch: Any = s
        while branch is not None:  # (each test of an if ... elif ...)
            walk(branch.test)
            orelse = branch.orelse
            branch = orelse[0] if orelse and len(orelse) == 1 and type(orelse[0]) is ir.If and orelse[0].chained else None
        return found
    if kind is ir.Loop:
        walk(s.over)
        return found
    for value in s.__dict__.values():
        if isinstance(value, ir.Expr):
            walk(value)
        elif isinstance(value, tuple):
            for item in value:  # (a game operation's arguments, an event's, a create's attributes)
                item = item[1] if isinstance(item, tuple) and len(item) == 2 else item
                if isinstance(item, ir.Expr):
                    walk(item)
                elif isinstance(item, tuple):
                    for v in item:
                        v = v[1] if isinstance(v, tuple) and len(v) == 2 else v
                        if isinstance(v, ir.Expr):
                            walk(v)
    return found


def value_calls(s: ir.Stmt, procedures: frozenset[str] | set[str]) -> list[ir.Call]:
    """The calls of procedures that give a value in one statement's expressions, innermost first."""
    return [n for n in chooses_in(s, procedures) if type(n) is ir.Call] if procedures else []


def local_bindings(body: Any) -> dict[str, list]:
    """Each local name a block binds (in nested blocks too), with what binds it each time: the
    value of a `let` or `=`, ("each", list) for a `for`, None otherwise (`+=`, `create as`)."""
    found: dict[str, list] = {}

    def visit(block: Any) -> None:
        for st in block or ():
            kind = type(st)
            if kind is ir.Let:
                found.setdefault(st.name, []).append(st.value)
            elif kind is ir.Set and type(st.place) in _NAMES:
                found.setdefault(st.place.name, []).append(st.value if st.op == "=" else None)
            elif kind is ir.Loop:
                if st.kind == "for":
                    found.setdefault(st.var, []).append(("each", st.over))
                visit(st.body)
            elif kind is ir.GameOp and st.op == "create" and st.arg("bind"):
                found.setdefault(st.arg("bind"), []).append(None)
            elif kind is ir.If and type(st.test) is ir.Ask and st.test.kind == "may":
                visit(st.then)
                visit(st.orelse)
            elif kind is ir.If:  # (as the AST's if is visited: its else, then each branch in turn)
                thens, tail = [], st
                while tail is not None:
                    thens.append(tail.then)
                    orelse = tail.orelse
                    tail = orelse[0] if orelse and len(orelse) == 1 and type(orelse[0]) is ir.If and orelse[0].chained \
                        else None
                visit(orelse)
                for then in thens:
                    visit(then)

    visit(body)
    return found


def names_in(e: ir.Node) -> set[str]:
    """Every name an expression reads, bound inside it or not (`game.x` reads `game`)."""
    return {n.name if type(n) in _NAMES else _OBJECT_NAMES[type(n)] for n in ir.walk(e)
            if type(n) in _NAMES or type(n) in _OBJECT_NAMES}
