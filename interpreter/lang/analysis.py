"""Analyses of the AST that the checker and the compiler still ask (those of the lowered form are
lang/ir_analysis.py's): every name a piece of code binds (the checker's, the language server's),
whether a procedure gives a value, constant values, the seed-free start of the set-up, the
statements of the main program's items."""

from __future__ import annotations

from typing import Any

from ..errors import ValidationError
from . import ast
from .builtins import RANDOM as RANDOM_BUILTINS


def bound_names(node) -> list[str]:
    """Every name a piece of code binds (`let`, `=` to a name, `for`, `create ... as`, the items
    of selections and comprehensions), in the order written, each once."""
    names: list[str] = []
    for n in ast.walk(node):
        if isinstance(n, ast.Let):
            names.append(n.name)
        elif isinstance(n, (ast.For, ast.Select, ast.Comprehension, ast.ComprehensionClause)):
            names.append(n.var)
        elif isinstance(n, ast.Create) and n.bind:
            names.append(n.bind)
        elif isinstance(n, ast.Assign) and isinstance(n.target, ast.Name):
            names.append(n.target.id)
    return list(dict.fromkeys(names))


def gives_value(proc: ast.Procedure) -> bool:
    """Whether a procedure gives a value: its body has a `return EXPR`."""
    return any(isinstance(n, ast.Return) for n in ast.walk(proc.body))


def _constant(e: ast.Expr) -> Any:
    """The value of a constant expression (card attribute values, keyword arguments)."""
    if isinstance(e, (ast.IntLit, ast.StrLit, ast.BoolLit)):
        return e.value
    if isinstance(e, ast.NoneLit):
        return None
    if isinstance(e, ast.Neg):
        return -_constant(e.operand)
    if isinstance(e, ast.Name):
        return e.id
    if isinstance(e, ast.ListLit):
        return [_constant(i) for i in e.items]
    raise ValidationError("expected a constant (a number, a string, true/false, a name or a list)", e.span)

def constant(e: ast.Expr) -> Any:
    return _constant(e)


# Statements a seed-free start of the set-up may hold: they can neither decide, draw a random
# number, emit an event, move a card (others may listen) nor call a procedure.
_SEED_FREE_STATEMENTS = (ast.Let, ast.Assign, ast.For, ast.Repeat, ast.If, ast.Create)


def seed_free_start(body, functions: dict) -> int:
    """How many of the leading statements do the same in every game of a loaded ruleset, whatever
    its seed: no randomness, no decision, nothing that hands control to other rule code."""
    for i, s in enumerate(body):
        if not isinstance(s, _SEED_FREE_STATEMENTS) or not _seed_free(s, functions, set()):
            return i
    return len(body)


def _seed_free(node, functions: dict, seen: set) -> bool:
    for n in ast.walk(node):
        if isinstance(n, ast.Stmt) and not isinstance(n, _SEED_FREE_STATEMENTS):
            return False
        if isinstance(n, ast.Choose) or isinstance(n, ast.Call) and n.func in RANDOM_BUILTINS:
            return False
        if isinstance(n, ast.Call) and n.func in functions and n.func not in seen:
            seen.add(n.func)
            if not _seed_free(functions[n.func].body, functions, seen):
                return False
    return True


def item_statements(items: list) -> list:
    """The statements among a main program's items (see `ResumableWriter.function`), those of
    its conditional items ('if', condition, items) included, in order."""
    out: list = []
    for item in items:
        if not isinstance(item, tuple):
            out.append(item)
        elif item[0] == "if":
            out += item_statements(item[2])
    return out
