"""The checks of who a result names and of teams, a part of the checker (`Checker`, checker.py):
`win`/`lose` and an end condition's `winner`/`loser` name a player, a team or a list of players;
`teams`, `team(p)` and `members(t)` need the ruleset's `teams:`; `t.x` of a team names a team
attribute (with did-you-mean), and a team attribute is not read of a player or a card."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import did_you_mean
from . import ast
from .kinds import KIND_WORDS
from .printer import to_source

if TYPE_CHECKING:
    from ..errors import Span
    from .checker import Context


class ResultChecks:
    """Checks for `Checker`: what results name, and the use of teams."""

    ctx: Context

    def error(self, message: str, span: Span | None, hint: str = "") -> None:
        raise NotImplementedError

    def one_player(self, e: ast.Expr, scope: set[str], what: str) -> None:
        """`win`/`lose` and an end condition's `winner`/`loser` name who wins or loses: a player,
        a team (`teams:`) or a list of players (a shared result); another kind of value is
        refused. `what` is the statement's word or the end condition's key."""
        kinds = self.ctx.kinds
        kind = kinds.of(e, scope) if kinds is not None else None
        if kind is None or kind in ("player", "team", "none"):
            return
        head = f"'{what}' takes" if what in ("win", "lose") else f"an end condition's '{what}' is"
        head += " a player, a team or a list of players"
        if kind == "list":
            items = kinds.items(e, scope)
            if items is not None and items != "player":
                self.error(f"{head}, not a list of {KIND_WORDS[items].split(' ', 1)[1]}s", e.span,
                           f"a list of teams: {what} each team's members, flatten([members(t) for t in ...])"
                           if items == "team" else "")
            return
        hint = "a name in quotes is a text: name the player, like players[1]" if kind == "text" else (
            "a number is not a seat: name the player, like players[3]" if kind == "int" else "")
        self.error(f"{head}, not {KIND_WORDS[kind]}", e.span, hint)

    def team_attribute(self, e: ast.Attribute, scope: set[str]) -> None:
        """`t.x` of a team must name a team attribute (or `name`); a team attribute read of a
        player or a card is refused with the way to its team's."""
        ctx = self.ctx
        if ctx.kinds is None or ctx.team_attributes is None:
            return
        kind = ctx.kinds.of(e.obj, scope)
        if kind == "team" and e.name not in ctx.team_attributes and e.name != "name":
            known = sorted(ctx.team_attributes)
            self.error(f"teams have no attribute {e.name!r}{did_you_mean(e.name, [*known, 'name'])}", e.span,
                       "team attributes: " + ", ".join(known) if known else
                       "team attributes are declared under 'teams: {attributes}'")
        elif kind in ("player", "card") and e.name in ctx.team_attributes and e.name not in ctx.held_by_others:
            hint = f"read the team's: team({to_source(e.obj)}).{e.name}" if kind == "player" else ""
            self.error(f"{e.name!r} is a team attribute, not {KIND_WORDS[kind]}'s", e.span, hint)

    def team_use(self, e: ast.Expr, scope: set[str]) -> None:
        """`teams`, `team(p)` and `members(t)` name the ruleset's teams: refused where it declares
        none (every game would stop there)."""
        if self.ctx.team_attributes is not None:
            return
        name = e.id if isinstance(e, ast.Name) else e.func if isinstance(e, ast.Call) else ""
        shown = name if isinstance(e, ast.Name) else f"{name}(...)"
        self.error(f"{shown!r} names the ruleset's teams, but it declares none", e.span,
                   "declare them under 'teams:' (partnerships: [[1, 3], [2, 4]], or all)")
