"""`cardrules explain GAME NAME --code`: the Python that a card, procedure, function or keyword of
a ruleset compiles to, every form of it that exists.

Rule code is compiled at load into Python functions (interpreter/lang/codegen.py and its parts):

- resumable: the form that may stop for a decision (`decision()`/`apply()`, `clone()`,
  `to_json()`): a function for the start of a block and one per point where it resumes;
- direct: plain Python for what never stops (a procedure that never suspends, a function, an
  ability's condition or cost, a continuous effect's parts);
- rollout: plain Python that asks each decision where it arises (`play_out(fast=True)`,
  simulations), written here on first use as the engine would.

First the definition's lowered form (the IR of lang/ir.py, `ir.describe`: what the code generator
writes from), as comments; then each function under a header naming its form, what it is, and the
rule source it came from (file:line: the first rule statement written into it, else the
definition).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from typing import Any

from ..errors import Span, did_you_mean
from ..lang import ir
from .cards import find_card
from .common import UsageError, shown

_CONSTANT = re.compile(r"\b_k\d+\b")
_SHOWN = 100  # characters of a constant's value shown at most


def run_explain_code(rules, name: str) -> int:
    """Print the generated code of NAME (a card, procedure, function or keyword of the rules)."""
    compiler = rules.compiler
    compiler.compile_rollout()  # (the rollout forms are written on first use)
    names = compiler.names
    # (title, definition's span, its AST (lowered to show), (form, fn))
    found: list[tuple[str, Any, Any, list[tuple[str, Any, str | None]]]] = []
    if name in names.procedures:
        found.append((f"procedure {name}", names.procedures[name].span, names.procedures[name],
                      list(_procedure(compiler, name))))
    if name in names.functions:
        found.append((f"function {name}", names.functions[name].span, names.functions[name],
                      [("direct", compiler.gen.ns.values["fn_" + name], None)]))
    if name in names.keywords:
        found.append((f"keyword {name}", names.keywords[name].span, names.keywords[name],
                      list(_abilities(rules.keyword_abilities[name]))))
    card = _card(rules, name)
    if card is not None:
        found.append((f"card {card.name!r}", card.span, card.source, list(_card_functions(card))))
    if not found:
        every = [*names.procedures, *names.functions, *names.keywords, *rules.card_defs]
        raise UsageError(f"{rules.name} has no card, procedure, function or keyword named {name!r}"
                         f"{did_you_mean(name, every)} ('cardrules cards {rules.name}' lists its cards)")
    out: list[str] = []
    for title, span, source, functions in found:
        out += _section(compiler.gen.ns, title, span, functions, _lowered(compiler, title, source))
        if title.startswith("card ") and card.keywords:
            words = ", ".join(k for k, _args in card.keywords)
            out.append(f"# its keywords' abilities: cardrules explain {rules.name} KEYWORD --code ({words})")
            out.append("")
    sys.stdout.write("\n".join(out).rstrip("\n") + "\n")
    return 0


def _card(rules, name: str):
    try:
        return find_card(rules, name)
    except UsageError:
        return None


def _procedure(compiler, name: str) -> Iterator[tuple[str, Any, str | None]]:
    values = compiler.gen.ns.values
    code = compiler.procedure_codes[name]
    yield from _code(code, with_rollout=False)
    native = name in compiler.native_procedures
    if native and values.get("r_" + name) is values["p_" + name]:
        yield "direct (also its rollout form)", values["p_" + name], None
    else:
        if native:  # (its rollout form is written for the players its calls give)
            yield "direct", values["p_" + name], None
        for prefix in ("r_", "ru_"):  # (ru_: written for any values, where r_ is written for players)
            if prefix + name in values:
                yield "rollout", values[prefix + name], None
    if code.rollout is not None and getattr(code.rollout, "__code__", None) is not None:
        yield "rollout (as a frame of its own)", code.rollout, None


def _code(code, with_rollout: bool = True) -> Iterator[tuple[str, Any, str | None]]:
    """The functions of a compiled block: its resumable entries, then its rollout form."""
    for fn in code.entries:
        yield "resumable", fn, None
    if with_rollout and code.rollout is not None:
        yield "rollout", code.rollout, None


def _card_functions(card) -> Iterator[tuple[str, Any, str | None]]:
    for code in card.parts.values():
        yield from _code(code)
    yield from _abilities(card.abilities)


def _abilities(abilities) -> Iterator[tuple[str, Any, str | None]]:
    for ability in abilities:
        what = f"{ability.kind} {ability.keyword or ability.owner_name}{'/' + ability.part if ability.part else ''}"
        what += f"#{ability.index}"
        parts = [("its condition", ability.condition), ("its cost", ability.cost)]
        for effect in ability.statics:
            parts += [("a continuous effect's target", effect.target), ("a continuous effect's amount", effect.amount),
                      ("a continuous effect's condition", effect.condition)]
            parts += [("a granted keyword's argument", fn) for fn in effect.keyword_args]
        for role, fn in parts:
            if fn is not None:
                yield "direct", fn, f"{what}: {role}"
        for code in (ability.target_code, ability.code):
            if code is not None:
                yield from _code(code)


def _lowered(compiler, title: str, source) -> list[str]:
    """The lowered form (the IR, lang/ir.py) of a definition, as comments under a header of its
    own: what the generated code below is written from."""
    if source is None:
        return []
    lowered = ir.describe(compiler.gen.lowering.definition(source))
    return [f"# lowered (IR): {title}", *(f"#   {line}" for line in lowered.split("\n")), ""]


def _section(ns, title: str, span, functions: list[tuple[str, Any, str | None]], lowered: list[str]) -> list[str]:
    """A definition's header and its lowered form, then each generated function (once) under its
    own header."""
    out = [f"# {title}: {_where(span)}", "", *lowered]
    seen: set[str] = set()
    for form, fn, what in functions:
        file = getattr(getattr(fn, "__code__", None), "co_filename", None)
        if file is None or file not in ns.sources or file in seen:
            continue  # (not generated: a helper of the engine; or printed already)
        seen.add(file)
        label = what or ns.labels.get(file) or file
        first = next((s for s in ns.line_spans.get(file, ()) if s is not None), span)
        out.append(f"# {form}: {label} ({_where(first)})")
        source = ns.sources[file]
        out += source.rstrip("\n").split("\n")
        out += _constants(ns, source)
        out.append("")
    if len(out) == 2 + len(lowered):
        out += ["# (no generated code: nothing of it runs as code of its own)", ""]
    return out


def _constants(ns, source: str) -> list[str]:
    """What the constants a function reads (`_k12`: values from the rule files) hold."""
    names = sorted(set(_CONSTANT.findall(source)), key=lambda n: int(n[2:]))
    out = []
    for name in names:
        value = ns.values.get(name)
        file = getattr(getattr(value, "__code__", None), "co_filename", None)
        if file in ns.labels:
            shown_value = f"<generated function: {ns.labels[file]}>"
        elif isinstance(value, Span):  # (where a decision or an error points)
            shown_value = f"<the place {_where(value)}:{value.column}>"
        else:
            shown_value = repr(value)
        if len(shown_value) > _SHOWN:
            shown_value = shown_value[:_SHOWN - 3] + "..."
        out.append(f"#   {name} = {shown_value}")
    return ["# constants:", *out] if out else []


def _where(span) -> str:
    return f"{shown(span.file)}:{span.line}" if span is not None and span.line else "-"
