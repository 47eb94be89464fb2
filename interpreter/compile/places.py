"""Which part of the rules holds a place in rule code: for errors raised while the rules run.

A runtime error names the rule code it happened in, as a load-time error does: a procedure or
function of a code file, or the set-up, a phase, an end condition or `evaluate:` written in the
ruleset file (a card's or a keyword's block is named by the block itself). The main program the
engine writes from the set-up and the phases is never named: its code comes from those parts.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import Span
from ..lang import ast


@dataclass(frozen=True)
class Place:
    """A region of one file, from (line, column) to (end line, end column), and what it is."""

    file: str
    start: tuple[int, int]
    end: tuple[int, int]
    name: str

    def holds(self, span: Span) -> bool:
        at = (span.line, span.column)
        return span.file == self.file and self.start <= at <= self.end


def _region(nodes, name: str) -> list[Place]:
    """One place per file for these nodes (a part written in a YAML file may span lines)."""
    bounds: dict[str, tuple[tuple[int, int], tuple[int, int]]] = {}
    for node in ast.walk(nodes):
        span = node.span
        if span is None or span.line <= 0:
            continue
        start = (span.line, span.column)
        end = (span.end_line, span.end_column) if span.end_line else (span.line, 1 << 30)
        low, high = bounds.get(span.file, (start, end))
        bounds[span.file] = (min(low, start), max(high, end))
    return [Place(file, low, high, name) for file, (low, high) in bounds.items()]


def _definition(span: Span | None, name: str) -> list[Place]:
    if span is None or span.line <= 0:
        return []
    end = (span.end_line, span.end_column) if span.end_line else (span.line, 1 << 30)
    return [Place(span.file, (span.line, span.column), end, name)]


def rule_places(ruleset, definitions) -> list[Place]:
    """The places of a ruleset's code, the definitions of its code files first (a procedure's
    text lies inside no other place)."""
    places: list[Place] = []
    for name, proc in definitions.procedures.items():
        places += _definition(proc.span, f"procedure {name}")
    for name, func in definitions.functions.items():
        places += _definition(func.span, f"function {name}")
    places += _region(ruleset.setup, "the set-up")
    for where, phase in ruleset.steps():
        places += _region(phase.body, where)
    for level in ruleset.rounds:
        if level.until is not None:
            places += _region(level.until, f"the until of a {level.name}")
    for i, end in enumerate(ruleset.end, start=1):
        parts = tuple(e for e in (end.when, end.winner, end.loser) if e is not None)
        places += _region(parts, f"end condition {i} ({end.reason})" if end.reason else f"end condition {i}")
    if ruleset.evaluate is not None:
        places += _region(ruleset.evaluate, "evaluate")
    return places


def place_of(places: list[Place], span: Span | None) -> str | None:
    """The name of the first place holding the span, or None."""
    if span is None:
        return None
    for place in places:
        if place.holds(span):
            return place.name
    return None
