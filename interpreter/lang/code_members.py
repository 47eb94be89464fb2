"""Code written on a card, for an attribute of type `function` or `condition` (issue 32.8):

    card "Frost Bolt" : spell { aims(t) = player_of(t) != self.owner  part play { ... } }

and its call by the rules, `s.aims(x)`, the same as `call(s.aims, x)`. Both calls are one AST node,
`Call("call", (Attribute(s, "aims"), x))`, which the printer writes in the first form; the member
is an `AttrDef` whose value is a `CodeValue`. This module holds the parse-tree transformations
(mixed into `to_ast.ToAst`) and what the rest of the language asks of these nodes.
"""

from __future__ import annotations

from lark import v_args

from ..errors import did_you_mean
from . import ast
from .kinds import KIND_WORDS
from .runtime import Frame
from .values import CardRef

CALL = "call"  # the built-in form `call(c.NAME, args...)`, which `c.NAME(args...)` also makes


def is_code(a: ast.AttrDef) -> bool:
    """Whether a card's `NAME ... = ...` member is code (`aims(t) = ...`) rather than a value."""
    return isinstance(a.value, ast.CodeValue)


def code_call(e: ast.Expr, functions) -> ast.Attribute | None:
    """The called attribute `c.NAME` of `call(c.NAME, ...)` (or `c.NAME(...)`), unless the
    ruleset defines a function `call` of its own; None for another expression."""
    if (isinstance(e, ast.Call) and e.func == CALL and CALL not in functions and e.args
            and isinstance(e.args[0], ast.Attribute)):
        return e.args[0]
    return None


class CodeMembers:
    """The parse-tree rules of code members and calls (see the module docstring)."""

    @v_args(meta=True)
    def code_def(self, meta, children):
        name, params, body = children
        span = self._span(meta)
        return ast.AttrDef(str(name), ast.CodeValue(tuple(params or ()), body, span=span), span=span)

    @v_args(meta=True)
    def block_code_def(self, meta, children):
        name, params, body = children
        span = self._span(meta)
        return ast.AttrDef(str(name), ast.CodeValue(tuple(params or ()), ast.BlockValue(body, span=span), span=span),
                           span=span)

    @v_args(meta=True)
    def code_call(self, meta, children):
        obj, name, args = children
        span = self._span(meta)
        args = args or []
        positional = tuple(a for a in args if not isinstance(a, ast.NamedArg))
        named = tuple(a for a in args if isinstance(a, ast.NamedArg))
        return ast.Call(CALL, (ast.Attribute(obj, str(name), span=span), *positional), named, span=span)


def run_code(g, card, name: str, *args):
    """`card.NAME(args...)` at run time: the code the card holds for its attribute NAME, run with
    `self` the card and `you` its controller (generated code calls this as `_code_call`)."""
    code = card.defn.code.get(name) if type(card) is CardRef else None
    if code is None:
        what = "none" if card is None else g.label(card)
        g.runtime_error(f"cannot call {name!r} of {what}: " + (
            "it is not a card" if type(card) is not CardRef else f"{card.defn.name!r} has no code {name!r}"))
    return code(g, Frame(None, {}, card, g.read(card, "controller")), *args)


class CodeCallChecks:
    """The load checks of a call of a card's code (mixed into the language checker, whose
    `ctx.code_attributes` maps each code attribute's name to its declared parameters)."""

    def code_call(self, c: ast.Call, called: ast.Attribute, scope: set[str], choose_ok: bool) -> None:
        self.expr(called.obj, scope, choose_ok)
        for a in c.args[1:]:
            self.expr(a, scope, choose_ok)
        for a in c.kwargs:
            self.error("a card's code takes its arguments in order, not by name", a.span,
                       f"write {called.name}(...) with the values only")
        declared = self.ctx.code_attributes
        params = declared.get(called.name)
        if params is None:
            self.error(f"no card type declares code {called.name!r} (an attribute of type function or condition)"
                       f"{did_you_mean(called.name, declared)}", called.span,
                       "code attributes: " + (", ".join(sorted(declared)) or "none"))
            return
        if len(c.args) - 1 != len(params):
            self.error(f"{called.name!r} takes {len(params)} argument(s) ({', '.join(params)}), got {len(c.args) - 1}",
                       c.span)
        kind = self.ctx.kinds.of(called.obj, scope) if self.ctx.kinds is not None else None
        if kind is not None and kind != "card":
            self.error(f"only a card holds code: this is {KIND_WORDS[kind]}, not a card", called.obj.span)
