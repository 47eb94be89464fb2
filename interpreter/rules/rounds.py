"""The ruleset's nested turn structure (`turn.rounds`): levels that hold turns, read and checked.

A level (a deal, a trick, ...) has a name, which becomes a built-in whole-number global counting
its rounds within the enclosing one; `start` and `end` steps, each code or a list of phases; and
`until`, the condition that ends one of its rounds, tried after each round (or turn) it holds.
The outermost level's rounds follow one another until the game ends.
"""

from __future__ import annotations

from typing import Any, Protocol

from ..errors import RulesError
from .model import AttrSpec, Phase, Round


class _Reader(Protocol):
    errors: list

    def span(self, *key_path): ...
    def guarded(self, fn, *args): ...
    def code(self, text: str, *key_path): ...
    def expression(self, text: str, *key_path): ...


def read_rounds(reader: _Reader, turn: dict, taken: dict[str, str]) -> list[Round]:
    """The levels of `turn.rounds`, outermost first. `taken`: names already in use (globals,
    zones, attributes, built-ins) and what they are, for clashes with a level's counter."""
    levels: list[Round] = []
    seen: set[str] = set()
    raw_levels = turn.get("rounds") or []
    for i, raw in enumerate(raw_levels):
        name = raw["name"]
        span = reader.span("turn", "rounds", i, "name")
        if name in seen:
            reader.errors.append(RulesError(f"two levels of turn.rounds are named {name!r}", span))
        elif name in taken:
            reader.errors.append(RulesError(
                f"the level {name!r} of turn.rounds counts its rounds in game.{name}, but {name!r} is "
                f"already {taken[name]}", span, hint="give the level another name"))
        seen.add(name)
        until = None
        if "until" in raw:
            until = reader.guarded(reader.expression, raw["until"], "turn", "rounds", i, "until")
        else:
            reader.errors.append(RulesError(
                f"the level {name!r} of turn.rounds needs an until: the condition, tried after each "
                f"{_inner(raw_levels, i)}, that ends a {name}", reader.span("turn", "rounds", i)))
        levels.append(Round(name, _steps(reader, raw.get("start"), i, "start"),
                            _steps(reader, raw.get("end"), i, "end"), until, reader.span("turn", "rounds", i)))
    return levels


def _inner(raw_levels: list, i: int) -> str:
    return raw_levels[i + 1]["name"] if i + 1 < len(raw_levels) else "turn"


def _steps(reader: _Reader, raw: Any, i: int, key: str) -> tuple[Phase, ...]:
    """A level's `start` or `end`: code (one step with no phase name) or a list of phases."""
    if raw is None:
        return ()
    if isinstance(raw, str):
        body = reader.guarded(reader.code, raw, "turn", "rounds", i, key)
        return (Phase("", body or (), reader.span("turn", "rounds", i, key)),)
    steps = []
    for j, phase in enumerate(raw):
        body = reader.guarded(reader.code, phase.get("do", ""), "turn", "rounds", i, key, j, "do")
        steps.append(Phase(phase["name"], body or (), reader.span("turn", "rounds", i, key, j)))
    return tuple(steps)


def counter_globals(levels: list[Round]) -> dict[str, AttrSpec]:
    """The built-in global of each level: how many of its rounds have begun (within the
    enclosing level's round), 0 before the first."""
    return {level.name: AttrSpec(level.name, "int", 0, 0, None, "public", False, level.span) for level in levels}


def phase_name_problems(levels: list[Round], turn_phases: list[Phase]) -> list[RulesError]:
    """Two phases of the turn structure with one name would be one place to start at."""
    problems = []
    names: set[str] = {p.name for p in turn_phases}
    for level in levels:
        for phase in (*level.start, *level.end):
            if phase.name and phase.name in names:
                problems.append(RulesError(
                    f"phase {phase.name!r} of the {level.name} has the name of another phase", phase.span, hint="phases of the turn structure need "
                    "names of their own"))
            names.add(phase.name)
    return problems
