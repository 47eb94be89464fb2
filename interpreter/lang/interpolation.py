"""Texts that show values: `"{rank_name(rank)}{suit}"` (a card template's name), a result's reason
(`win p "reached {p.score} points"`, an end condition's `reason:`). `{expr}` is a value, `{{` and
`}}` are braces; each expression is parsed where it is written, so its errors are located there.
Also the reading of string literals, which to_ast.py shares.
"""

from __future__ import annotations

import ast as pyast

from lark import Token

from ..errors import CardSyntaxError, Span
from . import ast


def _unquote(token: Token) -> str:
    text = pyast.literal_eval(str(token))
    if any("\ud800" <= c <= "\udfff" for c in text):  # (pairs only: `_bad_escape` refused the rest)
        text = text.encode("utf-16", "surrogatepass").decode("utf-16")
    return text


def _field_end(raw: str, i: int) -> int:
    """Where the value that starts at i of a template's name ends (its '}'), or -1: a '}' inside
    a string literal of the value does not end it."""
    quoted = False
    while i < len(raw):
        char = raw[i]
        if char == "\\" and i + 1 < len(raw):
            if raw[i + 1] == '"':
                quoted = not quoted
            i += 2
            continue
        if char == "}" and not quoted:
            return i
        i += 1
    return -1


def _unescape(raw: str) -> str:
    """The text of part of a string literal as written (its escapes read)."""
    return _unquote(Token("STRING", '"' + raw + '"'))


def pieces_of(raw: str, file: str, line: int, column: int, what: str, escaped: bool = True
              ) -> tuple[str | ast.Expr, ...]:
    """A text with values split into its texts and the expressions it shows: `{expr}` is a value,
    `{{` and `}}` are braces; `raw` starts at (line, column) of `file` (on one line), and each
    expression is located at its place there. `what` names the text in messages ("the name");
    `escaped`: raw is a string literal's inside, its escapes not yet read (else text as it is)."""
    from .parser import _parse_at  # (parser.py imports this module)

    read = _unescape if escaped else (lambda text: text)
    pieces: list[str | ast.Expr] = []
    text, i = "", 0
    while i < len(raw):
        char = raw[i]
        if raw.startswith("{{", i) or raw.startswith("}}", i):
            text += char
            i += 2
        elif char == "{":
            end = _field_end(raw, i + 1)
            if end < 0:
                raise CardSyntaxError(f"a '{{' in {what} opens a value that no '}}' closes",
                                      Span(file, line, column + i), hint=f"write {{{{ for a brace in {what}")
            if text:
                pieces.append(read(text))
                text = ""
            field = raw[i + 1:end]
            if not field.strip():
                raise CardSyntaxError(f"'{{}}' in {what} shows nothing: put a value in it, like {{n}}",
                                      Span(file, line, column + i))
            pieces.append(_parse_at(read(field), file, "expr_start", line, column + 1 + i, False))
            i = end + 1
        elif char == "}":
            raise CardSyntaxError(f"a '}}' in {what} closes no value", Span(file, line, column + i),
                                  hint=f"write }}}} for a brace in {what}")
        else:
            text += raw[i:i + 2] if char == "\\" and escaped else char
            i += 2 if char == "\\" and escaped else 1
    if text:
        pieces.append(read(text))
    return tuple(pieces)


def joined(pieces: tuple[str | ast.Expr, ...], span: Span) -> ast.Expr | None:
    """The text a list of pieces makes, as one expression: `"a " + text(x) + " b"` (each value
    shown as `text(...)` shows it); None when no piece is a value (the text is fixed)."""
    if all(isinstance(p, str) for p in pieces):
        return None
    out: ast.Expr | None = None
    for p in pieces:
        part = ast.StrLit(p, span=span) if isinstance(p, str) else ast.Call("text", (p,), span=p.span)
        out = part if out is None else ast.BinOp("+", out, part, span=span)
    return out
