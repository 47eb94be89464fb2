"""Analyses of the AST that the checker and the compiler still ask (those of the lowered form are
lang/ir_analysis.py's): the names a block binds, the procedures it calls, whether a procedure
gives a value, constant values, the seed-free start of the set-up."""

from __future__ import annotations

from typing import Any

from ..errors import ValidationError
from . import ast
from .builtins import RANDOM as RANDOM_BUILTINS


def local_bindings(stmts) -> dict[str, list]:
    """Each local name a block binds (in nested blocks too), with what binds it each time: the
    value of a `let` or `=`, ("each", iterable) for a `for`, None otherwise (`+=`, `create as`)."""
    found: dict[str, list] = {}

    def visit(block) -> None:
        for st in block or ():
            if isinstance(st, ast.Let):
                found.setdefault(st.name, []).append(st.value)
            elif isinstance(st, ast.Assign) and isinstance(st.target, ast.Name):
                found.setdefault(st.target.id, []).append(st.value if st.op == "=" else None)
            elif isinstance(st, ast.For):
                found.setdefault(st.var, []).append(("each", st.iterable))
            elif isinstance(st, ast.Create) and st.bind:
                found.setdefault(st.bind, []).append(None)
            visit(getattr(st, "body", None))
            visit(getattr(st, "orelse", None))
            for branch in getattr(st, "branches", ()):
                visit(branch.body)

    visit(stmts)
    return found

def procedure_calls(body, procedures) -> set[str]:
    """The procedures a block calls as statements (in nested blocks too)."""
    return {n.call.func for n in ast.walk(tuple(body or ())) if isinstance(n, ast.CallStmt)
            and isinstance(n.call, ast.Call) and n.call.func in procedures}


def stops_in_loops(body, in_loop: bool = False) -> bool:
    """Whether a `stop` of the block is inside one of its loops."""
    for st in body or ():
        if isinstance(st, ast.Stop) and in_loop:
            return True
        nested = in_loop or isinstance(st, (ast.For, ast.Repeat, ast.While))
        blocks = [getattr(st, "body", None), getattr(st, "orelse", None)]
        blocks += [br.body for br in getattr(st, "branches", ())]
        if any(stops_in_loops(b, nested) for b in blocks if b):
            return True
    return False


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
