"""A card's abilities in plain words, generated from its AST: what triggers each one and what it
changes. Nothing here knows a game: events, attributes, zones and procedures are named as the
ruleset names them, expressions are quoted as the canonical printer writes them, and the words
around them come from the constructs of the language (a trigger, a replacement, a continuous
effect, a move, a change of an attribute, a choice...).

A card's printed text (`text = "..."`) comes first. A call of a ruleset procedure reads as the
procedure's `text "..."` template with the call's arguments in its fields ("give this card +1/+0"),
else as the procedure's name with each argument under its parameter's name ("does `boost` (c: this
card, attack: 1, health: 0)"). Numbers and texts read plainly, `self` as "this card" and
`self.x` as "the x of this card".
"""

from __future__ import annotations

import contextvars
import dataclasses
import string
from collections.abc import Callable

from . import ast
from .members import MEMBERS, member, printed_text
from .printer import quote, to_source

# the ruleset's procedures while a card is explained (`explain_card`): their parameters and texts
_PROCEDURES: contextvars.ContextVar[dict[str, ast.Procedure] | None] = contextvars.ContextVar("procedures",
                                                                                             default=None)


def code(expr: ast.Node) -> str:
    """An expression in words where it has some (`self` as "this card", a number or a text as it
    is, `self.x` as "the x of this card", a choice), else as written (canonical form), in backticks."""
    if isinstance(expr, ast.Name) and expr.id == "self":
        return "this card"
    if isinstance(expr, ast.Name) and expr.id == "you":
        return "you"
    if isinstance(expr, ast.IntLit) or isinstance(expr, ast.Neg) and isinstance(expr.operand, ast.IntLit):
        return to_source(expr)
    if isinstance(expr, ast.StrLit):
        return quote(expr.value)
    if isinstance(expr, ast.Attribute) and isinstance(expr.obj, ast.Name) and expr.obj.id == "self":
        return f"the {expr.name} of this card"
    if isinstance(expr, ast.Choose):
        return _choice(expr)
    return f"`{to_source(expr)}`"


def _choice(expr: ast.Choose) -> str:
    who = f" by {code(expr.chooser)}" if expr.chooser is not None else ""
    if expr.kind == "one" and expr.label:  # 'one target chosen from `any_target()`'
        return f"{expr.label} chosen{who} from {code(expr.source)}"
    label = f" ({expr.label})" if expr.label else ""
    count = {"one": "one", "exactly": f"{code(expr.count) if expr.count else ''} items",
             "up_to": f"up to {code(expr.count) if expr.count else ''} items", "order": "an order of all"}[expr.kind]
    return f"{count} chosen{who} from {code(expr.source)}{label}"


def _target(expr: ast.Expr) -> str:
    """`x.attr` as "the attr of x"."""
    if isinstance(expr, ast.Attribute):
        return f"the {expr.name} of {code(expr.obj)}"
    return code(expr)


def _amount(value: ast.Expr) -> str:
    return code(value)


def statement(node: ast.Stmt) -> list[str]:
    """What a statement does, as one or more lines (nested steps indented by two spaces)."""
    handler = _STATEMENTS.get(type(node))
    if handler is None:  # pragma: no cover - every statement has words below
        return [f"runs `{to_source(node)}`"]
    return handler(node)


def block(body: tuple[ast.Stmt, ...]) -> list[str]:
    if not body:
        return ["nothing"]
    return [line for st in body for line in statement(st)]


def _nested(head: str, body: tuple[ast.Stmt, ...]) -> list[str]:
    inner = block(body)
    if len(inner) == 1 and not inner[0].startswith("  "):
        return [f"{head}: {inner[0]}"]
    return [f"{head}:"] + ["  " + line for line in inner]


def _assign(node: ast.Assign) -> list[str]:
    target = _target(node.target)
    if node.op == "+=":
        return [f"increases {target} by {_amount(node.value)}"]
    if node.op == "-=":
        return [f"decreases {target} by {_amount(node.value)}"]
    return [f"sets {target} to {_amount(node.value)}"]


def _if(node: ast.If) -> list[str]:
    lines: list[str] = []
    for i, branch in enumerate(node.branches):
        lines += _nested(f"{'if' if i == 0 else 'otherwise, if'} {code(branch.condition)}", branch.body)
    if node.orelse is not None:
        lines += _nested("otherwise", node.orelse)
    return lines


def _may(node: ast.May) -> list[str]:
    who = code(node.chooser) if node.chooser is not None else "the player deciding"
    label = f" ({node.label})" if node.label else ""
    lines = _nested(f"{who} may choose to{label}", node.body)
    if node.orelse is not None:
        lines += _nested("if not", node.orelse)
    return lines


def _args(args: tuple, kwargs: tuple = ()) -> str:
    parts = [code(a) for a in args] + [f"{k.name}: {code(k.value)}" for k in kwargs]
    return ", ".join(parts)


def _call(node: ast.CallStmt) -> list[str]:
    call = node.call
    if not isinstance(call, ast.Call):
        return [f"evaluates {code(call)}"]
    procedure = (_PROCEDURES.get() or {}).get(call.func)
    if procedure is None:  # (a built-in: its arguments as written)
        with_args = f" with {_args(call.args, call.kwargs)}" if call.args or call.kwargs else ""
        return [f"does `{call.func}`{with_args}"]
    given = dict(zip(procedure.params, call.args))
    given.update((k.name, k.value) for k in call.kwargs)
    if procedure.text is not None:
        filled = fill_text(procedure.text, {name: code(value) for name, value in given.items()})
        if filled is not None:
            return [filled]
    with_args = ", ".join(f"{name}: {code(value)}" for name, value in given.items())
    return [f"does `{call.func}`" + (f" ({with_args})" if with_args else "")]


def fill_text(template: str, values: dict[str, str]) -> str | None:
    """A procedure's text template with its fields filled (None if one is missing: the call
    leaves a parameter out, which the checker refuses)."""
    out = []
    for literal, field, _spec, _conv in string.Formatter().parse(template):
        out.append(literal)
        if field is not None:
            if field not in values:
                return None
            out.append(values[field])
    return "".join(out)


def _create(node: ast.Create) -> list[str]:
    attrs = f", with {', '.join(f'{a.name} {code(a.value)}' for a in node.attrs)}" if node.attrs else ""
    bind = f" (called `{node.bind}` below)" if node.bind else ""
    return [f"creates {code(node.card_name)} in {code(node.zone)}{attrs}{bind}"]


def _modify_until(node: ast.ModifyUntil) -> list[str]:
    change = f"by {_amount(node.amount)}" if node.mode == "by" else f"to {_amount(node.amount)}"
    return [f"changes {_target(node.target)} {change} {_lasting(node)}"]


def _lasting(node: ast.ModifyUntil | ast.GrantUntil) -> str:
    """How long a modifier or grant lasts, in words."""
    if node.until:
        return f"until the event `{node.until}`"
    if node.leaves is None:
        return "until removed"
    return f"while {code(node.leaves)} stays in its zone"


def _silence(node: ast.Silence) -> list[str]:
    until = f" (until the event `{node.until}`)" if node.until else ""
    return [f"silences {code(node.card)}: it loses its printed keywords and abilities, and the effects on it end, "
            f"until it leaves its zone{until}"]


def _remove_effects(node: ast.RemoveEffects) -> list[str]:
    text = "ends the effects"
    if node.source is not None:
        text += f" that {code(node.source)} gave"
    if node.target is not None:
        text += f" on {code(node.target)}"
    return [text]


def _ending(word: str) -> Callable[[ast.Stmt], list[str]]:
    def say(node) -> list[str]:
        reason = f" ({node.reason})" if getattr(node, "reason", None) else ""
        who = f"{code(node.player)} " if hasattr(node, "player") else ""
        return [f"{who}{word}{reason}"]
    return say


_STATEMENTS: dict[type, Callable] = {
    ast.Let: lambda n: [f"lets `{n.name}` be {code(n.value)}"],
    ast.Assign: _assign,
    ast.CallStmt: _call,
    ast.If: _if,
    ast.For: lambda n: (_nested(f"for each `{n.var}` in {code(n.iterable)} where {code(n.filtered_parts()[0])}",
                                n.filtered_parts()[1]) if n.filtered
                        else _nested(f"for each `{n.var}` in {code(n.iterable)}", n.body)),
    ast.Repeat: lambda n: _nested(f"{code(n.count)} times", n.body),
    ast.While: lambda n: (_nested(f"again and again, until {code(n.until_parts()[1])} (tested after each round)",
                                  n.until_parts()[0]) if n.until
                          else _nested(f"as long as {code(n.condition)}", n.body)),
    ast.Move: lambda n: [f"moves {code(n.card)} to {code(n.zone)}"
                         + (f" at {code(n.position)}" if n.position is not None else "")],
    ast.Create: _create,
    ast.Shuffle: lambda n: [f"shuffles {code(n.zone)}"],
    ast.Emit: lambda n: [f"announces the event `{n.event}`" + (f" ({_args((), n.args)})" if n.args else "")],
    ast.Attach: lambda n: [f"attaches {code(n.card)} to {code(n.target)}"],
    ast.Detach: lambda n: [f"detaches {code(n.card)}"],
    ast.Delete: lambda n: [f"removes {code(n.card)} from the game"],
    ast.ModifyUntil: _modify_until,
    ast.GrantUntil: lambda n: [f"gives {code(n.target)} the keyword `{_keyword(n.keyword, n.args)}` {_lasting(n)}"],
    ast.Silence: _silence,
    ast.RemoveEffects: _remove_effects,
    ast.May: _may,
    ast.Break: lambda n: ["stops the loop"],
    ast.Stop: lambda n: ["stops here"],
    ast.Win: _ending("wins the game"),
    ast.Lose: _ending("loses the game"),
    ast.Tie: _ending("the game ends in a draw"),
}


def _keyword(name: str, args: tuple) -> str:
    return name + (f"({', '.join(to_source(a) for a in args)})" if args else "")


def _condition(condition: ast.Expr | None) -> str:
    return f", if {code(condition)}" if condition is not None else ""


def ability(node: ast.Node) -> list[str]:
    """An ability in words: its trigger (or its kind) on the first line, its effect below."""
    if isinstance(node, ast.Triggered):
        return _nested(f"Whenever the event `{node.event}` happens{_condition(node.condition)}, it", node.body)
    if isinstance(node, ast.Replacement):
        return _nested(f"Instead of `{node.event}`{_condition(node.condition)}, it", node.body)
    if isinstance(node, ast.Activated):
        label = f" \"{node.label}\"" if node.label else ""
        cost = f", paying {code(node.cost)}" if node.cost is not None else ""
        lines = []
        if node.target is not None:
            lines += _nested("first (when it is used), it", node.target)
        lines += _nested("then it", node.body) if node.target is not None else block(node.body)
        return [f"Can be used{label}{cost}{_condition(node.condition)}:"] + ["  " + line for line in lines]
    if isinstance(node, ast.Static):
        return ["Continuously:"] + ["  " + _static(e) for e in node.effects]
    return [f"`{to_source(node)}`"]  # pragma: no cover - the four kinds above are all


def _static(effect: ast.StaticModify | ast.StaticGrant) -> str:
    when = f", while {code(effect.condition)}" if effect.condition is not None else ""
    if isinstance(effect, ast.StaticModify):
        change = f"is changed by {_amount(effect.amount)}" if effect.mode == "by" else f"is {_amount(effect.amount)}"
        return f"{_target(effect.target)} {change}{when}"
    return f"{code(effect.target)} has the keyword `{_keyword(effect.keyword, effect.args)}`{when}"


def explain_card(card: ast.CardDef, keywords: dict[str, ast.KeywordDef] | None = None,
                 docs: dict[str, str] | None = None,
                 procedures: dict[str, ast.Procedure] | None = None) -> list[str]:
    """The card in plain words: its type, printed attributes and keywords, then each ability, its
    parts and the abilities its keywords bring, then the ruleset procedures it calls (each with
    its doc comment from `docs`, by name, as for keywords)."""
    token = _PROCEDURES.set(procedures or {})
    try:
        return _explain_card(card, keywords or {}, docs or {}, procedures or {})
    finally:
        _PROCEDURES.reset(token)


def _explain_card(card: ast.CardDef, keywords: dict[str, ast.KeywordDef], docs: dict[str, str],
                  procedures: dict[str, ast.Procedure]) -> list[str]:
    flag = member(card, "token")
    kind = ", a token" if isinstance(flag, ast.BoolLit) and flag.value else ""
    lines = [f"{quote(card.name)}: a card of type {card.type}{kind}"]
    text = printed_text(card)
    if text is not None:
        lines.append(f"text: {text}")
    printed = [a for a in card.attrs if a.name not in MEMBERS and not isinstance(a.value, ast.CodeValue)]
    if printed:
        lines.append("printed: " + ", ".join(f"{a.name} {to_source(a.value)}" for a in printed))
    for a in card.attrs:  # code the rules call (`c.aims(t)`), as written
        if isinstance(a.value, ast.CodeValue):
            lines.append(f"code {a.name}: {a.name}{to_source(a.value)}")
    for i, node in enumerate(card.abilities, start=1):
        lines.append("")
        lines += _numbered(i, ability(node))
    for part in card.parts:
        lines.append("")
        lines += _nested(f"Part `{part.name}` (run when the rules run it), it", part.body)
        for node in part.abilities:
            lines += ["  while the card's part is " + quote(part.name) + ":"] + ["    " + x for x in ability(node)]
    for use in card.keywords:
        lines.append("")
        lines += _keyword_lines(use, keywords.get(use.name), docs.get(use.name, ""))
    if not (card.abilities or card.parts or card.keywords):
        lines += ["", "No abilities: only what is printed."]
    called = list(dict.fromkeys(n.func for n in ast.walk(card) if isinstance(n, ast.Call) and n.func in procedures))
    if called:
        lines += ["", "The ruleset's procedures it uses:"]
        for name in called:
            params = ", ".join(procedures[name].params)
            lines.append(f"- `{name}({params})`" + (f": {_one_line(docs[name])}" if docs.get(name) else ""))
    return lines


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _numbered(i: int, lines: list[str]) -> list[str]:
    return [f"{i}. {lines[0]}"] + ["   " + line for line in lines[1:]]


def _keyword_lines(use: ast.KeywordUse, definition: ast.KeywordDef | None, doc: str) -> list[str]:
    head = f"Keyword `{_keyword(use.name, use.args)}`"
    lines = [head + (f": {_one_line(doc)}" if doc else "")]
    if definition is None:
        return lines + ["  (not defined by the ruleset)"]
    if not definition.abilities:
        return lines + ["  no ability of its own: the rules ask whether a card has it"]
    given = dict(zip(definition.params, use.args))
    for node in definition.abilities:
        lines += ["  " + x for x in ability(_substituted(node, given))]
    return lines


def _substituted(node, given: dict[str, ast.Expr]):
    """A keyword's ability with its parameters replaced by the arguments the card gives them (a
    name standing for a keyword, in `grant k`, by the keyword the argument names)."""
    if not given:
        return node
    if isinstance(node, ast.Name) and node.id in given:
        return given[node.id]
    if isinstance(node, tuple):
        return tuple(_substituted(item, given) for item in node)
    if not isinstance(node, ast.Node):
        return node
    changes = {}
    for name, value in node.__dict__.items():
        new = _substituted(value, given) if isinstance(value, (ast.Node, tuple)) else value
        if name == "keyword" and isinstance(value, str) and isinstance(given.get(value), ast.Name):
            new = given[value].id  # type: ignore[union-attr]
        if new is not value:
            changes[name] = new
    return dataclasses.replace(node, **changes) if changes else node
