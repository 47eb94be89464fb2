"""An end condition's `reason:` that shows values, worked out when the game ends:

    end:
      - when: "count(all p in players where p.health <= 0) > 0"
        winner: "first(all p in players where p.health > 0)"
        reason: "a player fell on turn {game.turn}, the winner at {max_of(players.health)} health"

`{expr}` is a value, shown as `text(...)` shows it, and `{{` and `}}` are braces; each expression is
checked at load as the condition's own are, located at its place in the YAML value. A reason
without values is its text (the rates of a report's end reasons group games by it: a reason that
shows values makes a group per value).
"""

from __future__ import annotations

from typing import Any

from ..lang import ast
from ..lang.interpolation import joined, pieces_of


def reason_value(loader: Any, text: Any, *key_path) -> ast.Expr | None:
    """The reason as an expression when it shows values (or writes a brace), else None."""
    text = str(text)
    if "{" not in text and "}" not in text:
        return None
    src = loader.located.source(*key_path)
    line, column, _block = src.code_origin(*key_path)
    span = src.span(*key_path)
    pieces = pieces_of(text, src.file, line, column, "the reason", escaped=False)
    return joined(pieces, span) or ast.StrLit("".join(pieces), span=span)
