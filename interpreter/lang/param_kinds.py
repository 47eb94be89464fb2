"""The kind of value a procedure's or function's parameter must hold, where its body fixes it.

A parameter used as a number (`amount <= 0`, `n - 1`, `-n`, `repeat n`, `x.score += n` into a
whole-number attribute) or as the player of a zone of each player (`hand(p)`) fails at run time
with any other kind of value (`none` aside, which code commonly tests for). A call whose argument
the code says is of another kind (`deal(t, "one")`) is refused at load, at the argument, naming
the use that fixes the parameter's kind (see `Checker.argument_kinds`). A built-in function's
parameters have the kinds its table entry says (`Builtin.takes`, `builtin_argument_problems`).

Inferred conservatively, so that no correct rule is refused: only a parameter that the body never
binds anew (`let`, `=`, `for`, a selection's item) and never tests with `is`, only the uses above,
and a parameter passed on unchanged to another that is fixed (to a fixed point).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ..errors import Span
from . import ast
from .analysis import bound_names
from .builtins import Builtin
from .kinds import KIND_WORDS, Kinds
from .printer import to_source

_ARITHMETIC = {"-", "/"}  # (`+` joins lists, `*` and `%` work on text: they fix nothing)
_ORDER = {"<", "<=", ">", ">="}
# the kinds of argument that cannot stand where a parameter of this kind is used
CONTRARY = {
    "int": frozenset({"text", "bool", "list", "player", "card", "ability", "team"}),
    "player": frozenset({"int", "text", "bool", "list", "card", "ability", "team"}),
    "team": frozenset({"int", "text", "bool", "list", "player", "card", "ability"}),
}


@dataclass(frozen=True)
class FixedBy:
    """Why a parameter holds one kind of value: the use (its code and where it is), or the call
    that passes it on to a parameter whose kind is fixed (`then`, that parameter's reason)."""

    kind: str  # "int" or "player"
    span: Span
    code: str  # the use, as written ("amount <= 0"), or the callee's name
    then: tuple[str, FixedBy] | None = None  # (the callee's parameter, why its kind is fixed)

    def reason(self, param: str) -> str:
        if self.then is None:
            return f"{param!r} is used as {KIND_WORDS[self.kind]} at {self.span} ({self.code})"
        inner, why = self.then
        return f"{param!r} is passed to {self.code}(...) as {inner!r} at {self.span}; {why.reason(inner)}"


def parameter_kinds(bodies: Mapping[str, tuple[tuple[str, ...], object]], kinds: Kinds,
                    zones: Mapping[str, tuple[bool, tuple[str, ...]]],
                    int_slots: Iterable[tuple[str, str]]) -> dict[str, dict[str, FixedBy]]:
    """For each procedure or function (name -> (parameters, body)), the parameters whose kind
    its body fixes. `int_slots`: the globals ("game", NAME) and attributes ("attribute", NAME)
    declared to hold whole numbers only."""
    int_slots = frozenset(int_slots)
    direct: dict[str, dict[str, FixedBy]] = {}
    passing: dict[str, list[tuple[str, str, int, ast.Call]]] = {}  # (param, callee, index, call)
    for name, (params, body) in bodies.items():
        free = _free_parameters(params, body)
        found: dict[str, FixedBy] = {}
        passes: list[tuple[str, str, int, ast.Call]] = []
        local = frozenset(params) | frozenset(bound_names(body))
        for node in ast.walk(body):
            for param, fixed in _uses(node, free, kinds, local, zones, int_slots):
                found.setdefault(param, fixed)
            if isinstance(node, ast.Call) and node.func in bodies:
                callee_params = bodies[node.func][0]
                pairs = [*enumerate(node.args)]
                pairs += [(callee_params.index(a.name), a.value) for a in node.kwargs if a.name in callee_params]
                for index, arg in pairs:
                    if isinstance(arg, ast.Name) and arg.id in free and index < len(callee_params):
                        passes.append((arg.id, node.func, index, node))
        direct[name], passing[name] = found, passes
    changed = True
    while changed:  # a parameter passed on unchanged to one whose kind is fixed
        changed = False
        for name, passes in passing.items():
            for param, callee, index, call in passes:
                if param in direct[name]:
                    continue
                inner = bodies[callee][0][index]
                why = direct[callee].get(inner)
                if why is not None:
                    direct[name][param] = FixedBy(why.kind, call.span, callee, (inner, why))
                    changed = True
    return {name: found for name, found in direct.items() if found}


def _free_parameters(params: tuple[str, ...], body: object) -> frozenset[str]:
    """The parameters that hold the caller's value wherever the body reads them: never bound
    anew, never tested with `is` (a body that tests the kind of a value takes several kinds)."""
    rebound = set(bound_names(body))
    tested = {n.operand.id for n in ast.walk(body) if isinstance(n, ast.IsType) and isinstance(n.operand, ast.Name)}
    return frozenset(p for p in params if p not in rebound and p not in tested)


def _param(e: ast.Expr | None, free: frozenset[str]) -> str | None:
    return e.id if isinstance(e, ast.Name) and e.id in free else None


def _uses(node: ast.Node, free: frozenset[str], kinds: Kinds, local: frozenset[str],
          zones: Mapping[str, tuple[bool, tuple[str, ...]]],
          int_slots: frozenset[tuple[str, str]]):
    """(parameter, FixedBy) for each use of a parameter in this node that fixes its kind."""
    if isinstance(node, ast.BinOp) and (node.op in _ARITHMETIC or node.op in _ORDER):
        for side, other in ((node.left, node.right), (node.right, node.left)):
            param = _param(side, free)
            if param is not None and (node.op in _ARITHMETIC or kinds.of(other, local) == "int"):
                yield param, FixedBy("int", side.span, to_source(node))
    elif isinstance(node, ast.Neg):
        param = _param(node.operand, free)
        if param is not None:
            yield param, FixedBy("int", node.operand.span, to_source(node))
    elif isinstance(node, ast.Repeat):
        param = _param(node.count, free)
        if param is not None:
            yield param, FixedBy("int", node.count.span, f"repeat {param}")
    elif isinstance(node, ast.Assign) and node.op in ("+=", "-=") and isinstance(node.target, ast.Attribute):
        param = _param(node.value, free)
        target = node.target
        game = isinstance(target.obj, ast.Name) and target.obj.id == "game" and "game" not in local
        if param is not None and ("game" if game else "attribute", target.name) in int_slots:
            yield param, FixedBy("int", node.value.span, f"{to_source(target)} {node.op} {param}")
    elif isinstance(node, ast.Call) and node.func in zones and zones[node.func][0] and node.args:
        param = _param(node.args[0], free)
        if param is not None:
            yield param, FixedBy("player", node.args[0].span, to_source(node))


def builtin_argument_problems(c: ast.Call, builtin: Builtin, kinds: Kinds,
                              local: frozenset[str] | set[str]) -> list[tuple[str, Span]]:
    """(message, where) for each argument of a built-in call whose kind the code says and that
    the built-in cannot take there (`Builtin.takes`: `take(L, "two")` would fail in every game)."""
    found = []
    names = builtin.param_names()
    for index, (wanted, arg) in enumerate(zip(builtin.takes, c.args)):
        kind = kinds.of(arg, local) if wanted else None
        if kind in CONTRARY.get(wanted, ()):
            param = names[index] if index < len(names) else f"argument {index + 1}"
            found.append((f"{c.func!r} takes {KIND_WORDS[wanted]} as {param!r}, not {KIND_WORDS[kind]}", arg.span))
    return found
