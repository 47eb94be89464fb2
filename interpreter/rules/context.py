"""Code that surely runs with no `you`: decisions and zones that need a player there.

`you` is the controller of the card whose part or ability runs; procedures and functions see
their caller's. The set-up, the phases, the end conditions and the ruleset's `evaluate`,
`reward` and `statistics` expressions run with no card, so `you` is none in them and in every
procedure and function that only they call (directly or through others). There a `choose` or
`may` without `by PLAYER` (or `by you`) stops the game as soon as it has something to ask, and
a zone of each player given `you` names no zone: both are reported at load.

Conservative: a procedure or function that a card or a keyword may also call (directly or
through others) is not looked at, and neither is one that no rule code calls (Python may run it
with a player, `Game.perform`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ..errors import ValidationError
from ..lang import ast
from .model import Ruleset

if TYPE_CHECKING:
    from .checker import Definitions

Callee = tuple[str, str]  # ("procedure" or "function", name)


def _callees(node: Any, defs: Definitions) -> set[Callee]:
    """The procedures and functions that code calls (a name is a procedure's first, as for the checker)."""
    found: set[Callee] = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Call):
            if n.func in defs.procedures:
                found.add(("procedure", n.func))
            elif n.func in defs.functions:
                found.add(("function", n.func))
    return found


def _body(callee: Callee, defs: Definitions) -> Any:
    return (defs.procedures[callee[1]] if callee[0] == "procedure" else defs.functions[callee[1]]).body


def _contextless_roots(ruleset: Ruleset) -> Iterator[tuple[str, Any]]:
    """The ruleset's code that runs with no card: (how a message names it, the code)."""
    yield "the set-up", ruleset.setup
    for where, phase in ruleset.steps():
        yield where, phase.body
    for level in ruleset.rounds:
        if level.until is not None:
            yield f"the until of a {level.name}", level.until
    for end in ruleset.end:
        yield "an end condition", tuple(e for e in (end.when, end.winner, end.loser) if e is not None)
    stats = ruleset.statistics
    for label, expr in (("evaluate", ruleset.evaluate), ("reward", ruleset.reward), ("statistics", stats.score),
                        *(("statistics", e) for _name, e in stats.counters)):
        if expr is not None:
            yield label, expr


def _without_you(node: Any, where: str, why: str, zones: dict) -> Iterator[ValidationError]:
    """What in this code needs a `you` that it cannot have (zones: each zone's spec)."""
    hint = f"{where} has no 'you': {why}"
    for n in ast.walk(node):
        if isinstance(n, (ast.Choose, ast.May)):
            if n.chooser is None:
                yield ValidationError("a choice needs a player: write 'by PLAYER' here", n.span, hint)
            elif isinstance(n.chooser, ast.Name) and n.chooser.id == "you":
                yield ValidationError("a choice needs a player: 'you' is none here, write 'by PLAYER' with a "
                                      "player", n.chooser.span, hint)
        elif (isinstance(n, ast.Call) and n.func in zones and zones[n.func].per_player and n.args
              and isinstance(n.args[0], ast.Name) and n.args[0].id == "you"):
            yield ValidationError(f"'you' is none here, so {n.func}(you) is no player's zone: give "
                                  f"{n.func}(...) a player", n.args[0].span, hint)


def contextless_problems(ruleset: Ruleset, defs: Definitions) -> list[ValidationError]:
    """Decisions without a player and zones of `you` in code that surely runs with no `you`."""
    # what a card or keyword may call, directly or through others: it may run with a `you`
    with_you: set[Callee] = set()
    todo = [c for node in [*defs.cards.values(), *defs.keywords.values()] for c in _callees(node, defs)]
    while todo:
        callee = todo.pop()
        if callee not in with_you:
            with_you.add(callee)
            todo.extend(_callees(_body(callee, defs), defs))
    problems: list[ValidationError] = []
    reached: dict[Callee, str] = {}  # what only card-free code calls -> how it is reached
    queue: list[tuple[Callee, str]] = []
    for label, code in _contextless_roots(ruleset):
        problems.extend(_without_you(code, label, "it runs with no card", ruleset.zones))
        queue += [(callee, f"{label} -> {callee[1]}") for callee in sorted(_callees(code, defs))]
    while queue:
        callee, path = queue.pop(0)
        if callee in reached or callee in with_you:
            continue
        reached[callee] = path
        body = _body(callee, defs)
        queue += [(c, f"{path} -> {c[1]}") for c in sorted(_callees(body, defs))]
        problems.extend(_without_you(body, f"{callee[0]} {callee[1]!r}",
                                     f"only code with no card calls it ({path})", ruleset.zones))
    return problems
