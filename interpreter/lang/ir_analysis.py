"""Analyses of lowered expressions (lang/ir.py) that the code generator's inlining of rule
functions asks (`Compiler.inline_lowered`): the free names of an expression and how often each is
read, the names read once per item or in a branch, the names bound inside, and an expression with
names put in place of others. They say of the IR what lang/analysis.py's `free_name_counts`,
`per_item_names`, `binders` and `substitute` say of the AST.

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
