"""The members of a card that are not attributes of its card type, written like them:

    card "Spirit" : piece { attack = 1  health = 1  token = true  text = "Leaves at the end of the turn." }

`token = true` (or `false`) says whether this card is a token whatever its type says (a token is
made by the rules, never in a deck, and need not print the type's required attributes); `text` is
the card's printed rules text, for people (`cardrules cards`, the terminal, the browser table,
`explain`), which the rules never run. These names are card properties (`c.token`, `c.text`), so
no card type may declare them as attributes.
"""

from __future__ import annotations

from ..errors import ValidationError
from . import ast

# member -> (the constant it takes, as a message says it; whether a node is one)
MEMBERS = {
    "token": ("true or false", lambda v: isinstance(v, ast.BoolLit)),
    "text": ("a string in double quotes", lambda v: isinstance(v, ast.StrLit)),
}


def attributes_of(card: ast.CardDef) -> tuple[ast.AttrDef, ...]:
    """The card's printed attribute values: its `NAME = VALUE` members that are not `MEMBERS`
    (nor code, `NAME(PARAMS) = ...`: see code_members.py)."""
    return tuple(a for a in card.attrs if a.name not in MEMBERS and not isinstance(a.value, ast.CodeValue))


def member(card: ast.CardDef, name: str) -> ast.Expr | None:
    """The value a card gives one of `MEMBERS` (the first, if given twice), or None."""
    return next((a.value for a in card.attrs if a.name == name), None)


def is_token(card: ast.CardDef, type_token: bool) -> bool:
    """Whether the card is a token: its own `token = ...`, else its card type's `token:`."""
    given = member(card, "token")
    return given.value if isinstance(given, ast.BoolLit) else type_token


def printed_text(card: ast.CardDef) -> str | None:
    """The card's printed rules text (`text = "..."`), or None."""
    given = member(card, "text")
    return given.value if isinstance(given, ast.StrLit) else None


def member_problems(card: ast.CardDef) -> list[ValidationError]:
    """Members given twice or with a value of the wrong kind, at the value."""
    problems = []
    seen: set[str] = set()
    for a in card.attrs:
        if a.name not in MEMBERS:
            continue
        if a.name in seen:
            problems.append(ValidationError(f"{a.name!r} is given twice", a.span))
        seen.add(a.name)
        words, fits = MEMBERS[a.name]
        if not fits(a.value):
            problems.append(ValidationError(f"{a.name!r} of {card.name!r} must be {words}", a.value.span))
    return problems
