"""The tree of a resumable block (see resumable.py) and how it is laid out: the lines that run it
from its start (`layout`), and from just after each point where it may stop (`resumed`).

A block is first built as a small tree (straight lines, points, ifs, loops, inlined bodies), each
statement written once; the start and every resume function are then laid out from that tree. A
point inside a loop resumes with the rest of that round, then the loop:

    for _once in _ONE:           # the rest of the round that stopped
        ...                      # (a `break` here leaves the loop: the `else` is passed over)
    else:
        while ...:               # the loop's next rounds
            ...

(without the one-round `for` when no `break` leaves the loop).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .codegen_tables import Line, indent


@dataclass
class Straight:
    """Lines that cannot stop; `breaks`: they may leave the loop around them by `break`."""

    lines: list[Line]
    breaks: bool = False


@dataclass
class Point:
    """Lines that may stop (they set `f.pc` to `label` first); a resume goes on after them. The
    labels of the main program are points with no lines: a resume starts there."""

    label: int
    lines: list[Line]


@dataclass
class If:
    tests: list[tuple[str, list]]  # (Python condition, body) of `if` and each `elif`
    orelse: list | None
    span: Any


@dataclass
class Loop:
    test: str  # the Python condition tested before each round
    head: list  # run at the start of each round, before the body (a `while` condition's decisions)
    body: list
    tail: list[Line]  # lines at the end of each round (counting it against the step budget)
    span: Any
    breaks: bool  # a round may leave the loop by `break`


@dataclass
class Inlined:
    """The statements of a procedure written into its caller; `wrapped`: its `stop` leaves it by
    `break`, out of a one-round `for`; `end`: lines run when it has ended however it ended (the
    procedure's names leave the caller's frame, as a called procedure's frame would go)."""

    body: list
    wrapped: bool
    end: list[Line]


def layout(nodes: list) -> list[Line]:
    """The lines that run the nodes from their start."""
    out: list[Line] = []
    for n in nodes:
        kind = type(n)
        if kind is Straight or kind is Point:
            out.extend(n.lines)
        elif kind is If:
            for i, (condition, body) in enumerate(n.tests):
                out.append((f"{'if' if i == 0 else 'elif'} {condition}:", n.span))
                out.extend(indented(layout(body)))
            if n.orelse is not None:
                out.append(("else:", n.span))
                out.extend(indented(layout(n.orelse)))
        elif kind is Loop:
            out.append((f"while {n.test}:", n.span))
            out.extend(indented(layout(n.head) + layout(n.body) + n.tail))
        elif n.wrapped:
            out.append(("for _once in _ONE:", None))
            out.extend(indented(layout(n.body)))
            out.extend(n.end)
        else:
            out.extend(layout(n.body))
            out.extend(n.end)
    return out


def resumed(nodes: list, label: int) -> list[Line] | None:
    """The lines that run the nodes from just after point `label` to their end; None when the
    point is not among them."""
    for i, n in enumerate(nodes):
        kind = type(n)
        found = None
        if kind is Point:
            if n.label == label:
                found = []
        elif kind is If:
            for body in [b for _c, b in n.tests] + ([n.orelse] if n.orelse is not None else []):
                found = resumed(body, label)
                if found is not None:
                    break
        elif kind is Loop:
            rest = resumed(n.head, label)
            if rest is not None:
                rest += layout(n.body)
            else:
                rest = resumed(n.body, label)
            if rest is not None:
                rest += n.tail
                if n.breaks:
                    found = [("for _once in _ONE:", n.span), *indented(rest), ("else:", n.span),
                             *indent(layout([n]))]
                else:
                    found = rest + layout([n])
        elif kind is Inlined:
            found = resumed(n.body, label)
            if found is not None:
                if n.wrapped:
                    found = [("for _once in _ONE:", None), *indented(found)]
                found += n.end
        if found is not None:
            return found + layout(nodes[i + 1:])
    return None


def indented(lines: list[Line]) -> list[Line]:
    return indent(lines) or [("    pass", None)]


def leaves_loop(nodes: list) -> bool:
    """Whether the nodes hold a `break` of the loop around them (not of a loop inside them)."""
    for n in nodes:
        kind = type(n)
        if kind is Straight and n.breaks:
            return True
        if kind is If and any(leaves_loop(b) for b in [b for _c, b in n.tests] + [n.orelse or []]):
            return True
    return False
