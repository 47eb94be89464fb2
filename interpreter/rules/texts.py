"""Text for people that rule files carry: a procedure's `text "..."` template, checked at load.

    procedure boost(c, attack, health) text "give {c} +{attack}/+{health}" { ... }

`explain` reads a call `boost(self, 1, 0)` as "give this card +1/+0". Each `{field}` must be a
parameter of the procedure (`{{` and `}}` are braces); anything else is an error at the text
with a did-you-mean.
"""

from __future__ import annotations

import string

from ..errors import ValidationError, did_you_mean
from ..lang import ast


def template_fields(text: str) -> list[str]:
    """The `{field}` names of a text template, in order (ValueError for a stray brace)."""
    return [name for _literal, name, _spec, _conv in string.Formatter().parse(text) if name is not None]


def procedure_text_problems(procedures: dict[str, ast.Procedure]) -> list[ValidationError]:
    """Each procedure's text: braces paired, and every field one of its parameters, whole."""
    problems = []
    for p in procedures.values():
        if p.text is None:
            continue
        where = p.text_span or p.span
        try:
            fields = template_fields(p.text)
        except ValueError as err:
            problems.append(ValidationError(f"the text of procedure {p.name!r} is not a template: {err}", where,
                                            "write {name} for a parameter, {{ and }} for a brace"))
            continue
        for name in fields:
            if name not in p.params:
                problems.append(ValidationError(
                    f"the text of procedure {p.name!r} shows {{{name}}}, which is not one of its parameters"
                    f"{did_you_mean(name, p.params)}", where,
                    "parameters: " + (", ".join(p.params) or "none") + "; {{ and }} write a brace"))
    return problems
