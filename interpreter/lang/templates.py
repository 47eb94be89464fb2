"""Card templates: many cards made by rule from one definition.

    cards for k in ["a", "b"], n in range(1, 4): "{label_of(n)}{k}" : item {
      kind = k
      level = n
    }

makes one card per combination of the loops' values, the first loop outermost (1a, 2a, 3a,
1b, ...), `label_of` being a function of the rule files.
Everything of a template is worked out at load (`consteval`): the loops' lists, the name (its
`{...}` show values as `text(...)` does), each attribute value and keyword argument, which
become constants. In parts and abilities, a loop name stands for its value. A made card is then
an ordinary `CardDef`, checked and compiled as a written one is; its `made_by` says which
template made it with which values, for the messages about it.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any

from ..errors import ValidationError
from . import ast
from .builtins import text_at_load
from .consteval import ConstantEvaluator

# The most cards one template may make (a slip such as range(1, 1000) twice would make a million).
MAX_CARDS = 10_000


def literal(value: Any, like: ast.Node) -> ast.Expr:
    """The constant expression for a value worked out at load, placed where `like` is."""
    span = like.span
    if value is None:
        return ast.NoneLit(span=span)
    if isinstance(value, bool):
        return ast.BoolLit(value, span=span)
    if isinstance(value, int):
        return ast.IntLit(value, span=span) if value >= 0 else ast.Neg(ast.IntLit(-value, span=span), span=span)
    if isinstance(value, str):
        return ast.StrLit(value, span=span)
    if isinstance(value, list):
        return ast.ListLit(tuple(literal(v, like) for v in value), span=span)
    raise ValidationError(f"a card cannot hold {value!r}", span)


def _bound_again(template: ast.CardTemplate) -> list[ast.Node]:
    """The places where the template's code binds a loop name again (which would hide it)."""
    names = {loop.var for loop in template.loops}
    found = []
    for node in ast.walk((template.parts, template.abilities)):
        bound = (getattr(node, "name", None) if isinstance(node, ast.Let) else
                 node.bind if isinstance(node, ast.Create) else getattr(node, "var", None))
        if bound in names and not isinstance(node, ast.TemplateLoop):
            found.append(node)
    return found


def _put_values(node: Any, values: Mapping[str, ast.Expr]) -> Any:
    """A copy of code with each loop name replaced by its value, at the name's place."""
    if isinstance(node, tuple):
        return tuple(_put_values(n, values) for n in node)
    if not isinstance(node, ast.Node):
        return node
    if isinstance(node, ast.Name):
        value = values.get(node.id)
        return node if value is None else literal(_constant_of(value), node)
    changes = {}
    for key, child in node.__dict__.items():
        if isinstance(child, (ast.Node, tuple)):
            new = _put_values(child, values)
            if new is not child:
                changes[key] = new
    return type(node)(**{**node.__dict__, **changes}) if changes else node


def _constant_of(e: ast.Expr) -> Any:
    if isinstance(e, ast.NoneLit):
        return None
    if isinstance(e, ast.Neg):
        return -e.operand.value
    if isinstance(e, ast.ListLit):
        return [_constant_of(i) for i in e.items]
    return e.value


def expand(template: ast.CardTemplate, functions: Mapping[str, ast.Function]) -> list[ast.CardDef]:
    """The cards a template makes, in order; a mistake in it is a located ValidationError."""
    for node in _bound_again(template):
        raise ValidationError(f"{getattr(node, 'name', None) or getattr(node, 'var', None) or node.bind!r} is a "
                              "loop name of the template: its value here; choose another name", node.span)
    evaluator = ConstantEvaluator(functions)
    lists = []
    env: dict[str, Any] = {}
    for loop in template.loops:  # (a loop's list may not depend on another's value)
        items = evaluator.value(loop.source, dict(env))
        if not isinstance(items, list):
            raise ValidationError(f"the loop over {loop.var!r} needs a list of values, like [1, 2] or range(2, 15), "
                                  f"not {items!r}", loop.source.span)
        lists.append(items)
    total = 1
    for items in lists:
        total *= len(items)
    if total > MAX_CARDS:
        raise ValidationError(f"the template would make {total:,} cards; at most {MAX_CARDS:,}", template.span)
    made = []
    names = [loop.var for loop in template.loops]
    for combination in itertools.product(*lists):
        env = dict(zip(names, combination))
        name = "".join(p if isinstance(p, str) else text_at_load(evaluator.value(p, env)) for p in template.pieces)
        values = {n: literal(v, template) for n, v in env.items()}
        attrs = tuple(_put_values((a,), values)[0] if isinstance(a.value, ast.CodeValue)  # (code: as parts are)
                      else ast.AttrDef(a.name, literal(evaluator.value(a.value, env), a.value), span=a.span)
                      for a in template.attrs)
        keywords = tuple(ast.KeywordUse(k.name, tuple(literal(evaluator.value(x, env), x) for x in k.args),
                                        span=k.span) for k in template.keywords)
        made.append(ast.CardDef(name, template.type, attrs, keywords, _put_values(template.parts, values),
                                _put_values(template.abilities, values), span=template.span,
                                made_by=ast.MadeBy(template, tuple(env.items()))))
    return made


def fold_errors(errors: list, cards: Mapping[str, ast.CardDef]) -> list:
    """The errors of a load with those about cards of one template folded: the same mistake at the
    same place of a template, for each card it makes, is reported once, saying how many cards
    have it (the message of its first card, which names that card)."""
    templates = {id(c.made_by.template): c.made_by.template for c in cards.values() if c.made_by is not None}
    if not templates:
        return errors
    made_names = sorted((name for name, c in cards.items() if c.made_by is not None), key=len, reverse=True)
    spans = {(t.span.file, t.span.line) for t in templates.values()}
    kept: list = []
    seen: dict[tuple, list] = {}
    for err in errors:
        span = err.span
        located = span is not None and any(span.file == f and span.line >= line for f, line in spans)
        if not located:
            kept.append(err)
            continue
        shape = err.message
        for name in made_names:  # (the card's name, which differs from card to card)
            if repr(name) in shape:
                shape = shape.replace(repr(name), "'*'")
                break
        key = (span.file, span.line, span.column, shape)
        if key in seen:
            seen[key].append(err)
            continue
        seen[key] = [err]
        kept.append(err)
    for group in seen.values():
        if len(group) > 1:
            group[0].hint = (group[0].hint + "; " if group[0].hint else "") + (
                f"and {len(group) - 1} more card(s) of the template the same way")
    return kept
