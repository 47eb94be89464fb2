"""What a designer who wrote something the grammar lacks meant, and what exists instead.

As Lark's `examples/advanced/error_reporting_lalr.py` does with `match_examples`: each hint comes
with short snippets that make the same mistake. They are parsed once per start rule; a syntax
error whose parser state and unexpected token are those of a snippet's error gets the snippet's
hint (`parser._syntax_error`). The snippets are real code, so the hints follow the grammar as it
changes: a snippet that stops failing (the grammar took the form up) simply matches nothing.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

from lark.exceptions import UnexpectedInput, UnexpectedToken

CONDITIONAL = ("in an expression, a choice of values is written `if C then A else B`; for statements, give the "
               "function a block: function f(x) { if C { return A } return B }")
ELSE_IF = "write `elif C { ... }` for another test after `if`"
RANGE = "for the whole numbers from 2 to 14 write range(2, 15); `..` is not an operator"
BRACES = ("braces hold statements, not a value: write a list as [1, 2] and a set as set([1, 2]); in an expression "
          "write `if C then A else B`")
NESTED = "a comprehension over two lists repeats `for`: [x + y for x in xs for y in ys if x != y]"
FUNCTION_BLOCK = ("a function with locals or steps is written as a block: function f(x) { let y = x + 1  "
                  "return y * 2 }; `= ...` is one expression")
RETURN_VALUE = "`return` gives a value: return x; to end without one, write stop"
TERNARY = "`?` is not an operator: write if C then A else B"
PLUS_ASSIGN = "there is no unary `+`: `x += 1` adds to x (`=+` is no operator), `x = 1` sets it"

# hint -> snippets per start rule ("start": a file; "block_start": statements; "expr_start": an
# expression), each making the mistake the hint is about.
EXAMPLES: dict[str, dict[str, tuple[str, ...]]] = {
    "start": {
        CONDITIONAL: ("function f(x) = if x > 0 { 1 } else { 2 }", "function f(x) = if x { 1 }"),
        ELSE_IF: ("procedure p() { if a { } else if b { } }",),
        RANGE: ("function f() = 2..14", "function f(x) = x..14"),
        BRACES: ("function f() = {1, 2}", "function f() = {}"),
        NESTED: ("function f(xs, ys) = [x for x in xs, y in ys]",),
        RETURN_VALUE: ("procedure p() { return }",),
        PLUS_ASSIGN: ("procedure p() { x =+ 1 }", "procedure p() { x.y =+ 1 }"),
    },
    "block_start": {
        CONDITIONAL: ("let y = if x > 0 { 1 } else { 2 }", "let y = if x { 1 }"),
        ELSE_IF: ("if a { } else if b { }",),
        RANGE: ("let r = 2..14", "let r = x..14"),
        BRACES: ("let s = {1, 2}", "let s = {}"),
        NESTED: ("let z = [x for x in xs, y in ys]",),
        RETURN_VALUE: ("if a { return }",),
        PLUS_ASSIGN: ("x =+ 1", "x.y =+ 1"),
    },
    "expr_start": {
        CONDITIONAL: ("if x > 0 { 1 } else { 2 }", "if x { 1 }"),
        RANGE: ("2..14", "x..14"),
        BRACES: ("{1, 2}", "{}"),
        NESTED: ("[x for x in xs, y in ys]",),
    },
}


@functools.cache
def _known_errors(start: str, parse: Callable[[str], object]) -> dict[tuple[int, str], str]:
    """(parser state, unexpected token type) -> hint, from the snippets of a start rule."""
    known: dict[tuple[int, str], str] = {}
    for hint, snippets in EXAMPLES.get(start, {}).items():
        for text in snippets:
            try:
                parse(text)
            except UnexpectedToken as err:
                known.setdefault((_position(err), err.token.type), hint)
            except UnexpectedInput:
                continue
    return known


def _position(err: UnexpectedToken) -> int:
    """The number of the parser's state at the error (Lark gives the state object)."""
    state = err.state
    return getattr(state, "position", state)


# A statement's keyword where a function's one expression starts: `function f(x) = let y = ...`
# (the word reads as a name there, and the error comes at the next one).
_STATEMENT_IN_EXPRESSION = re.compile(r"=\s*(let|return)\s+$")


def hint_for(err: UnexpectedInput, start: str, parse: Callable[[str], object], text: str = "") -> str:
    """The hint for a syntax error of `text` parsed from `start` by `parse` ('' if none fits)."""
    if isinstance(err, UnexpectedToken):
        position = getattr(err.token, "start_pos", None)
        if text and position is not None and _STATEMENT_IN_EXPRESSION.search(text[:position]):
            return FUNCTION_BLOCK
        return _known_errors(start, parse).get((_position(err), err.token.type), "")
    if getattr(err, "char", None) == "?":
        return TERNARY
    return ""
