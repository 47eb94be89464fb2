"""Check a whole ruleset: collect its definitions, build the name context, check every piece of code.

Duplicate definitions, card types and attributes that do not exist, attribute values of the wrong
type, missing required attributes, and every error of `lang.checker` are gathered and raised
together.
"""

from __future__ import annotations

from ..errors import ErrorList, ValidationError, did_you_mean
from ..lang import ast
from ..lang.checker import BUILTIN_EVENTS, CARD_PROPERTIES, Checker, Context
from .model import EVALUATED_PLAYER, Ruleset

TYPE_CHECKS = {
    "int": lambda v: isinstance(v, ast.IntLit) or (isinstance(v, ast.Neg) and isinstance(v.operand, ast.IntLit)),
    "bool": lambda v: isinstance(v, ast.BoolLit),
    "text": lambda v: isinstance(v, ast.StrLit),
}


class Definitions:
    """The procedures, functions, keywords and cards a ruleset's code files define, by name."""

    def __init__(self, ruleset: Ruleset, errors: list) -> None:
        self.procedures: dict[str, ast.Procedure] = {}
        self.functions: dict[str, ast.Function] = {}
        self.keywords: dict[str, ast.KeywordDef] = {}
        self.cards: dict[str, ast.CardDef] = {}
        for module in [*ruleset.modules, *ruleset.card_modules]:
            for item in module.items:
                table = {ast.Procedure: self.procedures, ast.Function: self.functions,
                         ast.KeywordDef: self.keywords, ast.CardDef: self.cards}[type(item)]
                if item.name in table:
                    first = table[item.name].span
                    errors.append(ValidationError(f"{item.name!r} is defined twice (first at {first})", item.span))
                    continue
                table[item.name] = item


def _emitted_events(ruleset: Ruleset) -> dict[str, set[str]]:
    """Every event some code emits (or the ruleset declares), with the argument names it gets."""
    events: dict[str, set[str]] = {name: set() for name in ruleset.events}
    for node in ruleset.code_nodes():
        if isinstance(node, ast.Emit):
            events.setdefault(node.event, set()).update(a.name for a in node.args)
    return events


def build_context(ruleset: Ruleset, defs: Definitions) -> Context:
    attributes = set(ruleset.player_attributes)
    for ct in ruleset.card_types.values():
        attributes.update(ct.attributes)
    return Context(
        zones={z.name: (z.per_player, z.rows) for z in ruleset.zones.values()},
        procedures={n: p.params for n, p in defs.procedures.items()},
        functions={n: f.params for n, f in defs.functions.items()},
        keywords={n: k.params for n, k in defs.keywords.items()},
        attributes=attributes,
        globals=set(ruleset.globals),
        options=set(ruleset.option_specs),
        events=_emitted_events(ruleset),
        card_names=set(defs.cards),
        card_types=set(ruleset.card_types),
    )


def check_card(ruleset: Ruleset, card: ast.CardDef, errors: list) -> None:
    ctype = ruleset.card_types.get(card.type)
    if ctype is None:
        errors.append(ValidationError(
            f"card {card.name!r} has unknown type {card.type!r}{did_you_mean(card.type, ruleset.card_types)}",
            card.span, "card types: " + ", ".join(sorted(ruleset.card_types))))
        return
    given = set()
    for a in card.attrs:
        spec = ctype.attributes.get(a.name)
        if spec is None:
            errors.append(ValidationError(
                f"card type {card.type!r} has no attribute {a.name!r}{did_you_mean(a.name, ctype.attributes)}",
                a.span, "attributes: " + ", ".join(sorted(ctype.attributes))))
            continue
        if a.name in given:
            errors.append(ValidationError(f"attribute {a.name!r} is given twice", a.span))
        given.add(a.name)
        check = TYPE_CHECKS.get(spec.type)
        if check is not None and not check(a.value):
            errors.append(ValidationError(f"attribute {a.name!r} of {card.name!r} must be a constant of type "
                                          f"{spec.type}", a.value.span))
    if not ctype.token:
        for name, spec in ctype.attributes.items():
            if spec.required and name not in given:
                errors.append(ValidationError(f"card {card.name!r} needs attribute {name!r} ({spec.type})",
                                              card.span))
    part_names = [p.name for p in card.parts]
    for p in card.parts:
        if part_names.count(p.name) > 1:
            errors.append(ValidationError(f"card {card.name!r} has two parts named {p.name!r}", p.span))
            break


def check_ruleset(ruleset: Ruleset) -> Definitions:
    errors: list = []
    defs = Definitions(ruleset, errors)
    ctx = build_context(ruleset, defs)
    for spec_table in [ruleset.player_attributes, *[ct.attributes for ct in ruleset.card_types.values()]]:
        for name, spec in spec_table.items():
            if name in CARD_PROPERTIES:
                errors.append(ValidationError(f"'{name}' is a built-in property and cannot be declared as an "
                                              "attribute", spec.span))
    checker = Checker(ctx)
    for p in defs.procedures.values():
        checker.procedure(p)
    for f in defs.functions.values():
        checker.function(f)
    for k in defs.keywords.values():
        checker.keyword_def(k)
    for c in defs.cards.values():
        check_card(ruleset, c, errors)
        checker.card(c)
    checker.code(ruleset.setup)
    for phase in ruleset.phases:
        checker.code(phase.body)
    for req in ruleset.requires:
        checker.condition(req.that)
    if ruleset.evaluate is not None:
        checker.condition(ruleset.evaluate, {EVALUATED_PLAYER})
    known_events = {*ctx.events, *BUILTIN_EVENTS}
    for end in ruleset.end:
        for event in end.check_on or ():
            if event not in known_events:
                errors.append(ValidationError(f"check_on names {event!r}, an event nothing emits"
                                              f"{did_you_mean(event, known_events)}", end.span))
        checker.condition(end.when)
        for e in (end.winner, end.loser):
            if e is not None:
                checker.condition(e)
    if ruleset.decks is not None:
        d = ruleset.decks
        if d.zone not in ruleset.zones:
            errors.append(ValidationError(f"decks go to zone {d.zone!r}, which is not declared"
                                          f"{did_you_mean(d.zone, ruleset.zones)}", d.span))
        for t in d.allowed_types or ():
            if t not in ruleset.card_types:
                errors.append(ValidationError(f"deck rule names unknown card type {t!r}"
                                              f"{did_you_mean(t, ruleset.card_types)}", d.span))
        for sec in d.sections:
            if sec.zone not in ruleset.zones:
                errors.append(ValidationError(f"deck section {sec.name!r} goes to zone {sec.zone!r}, which is not "
                                              f"declared{did_you_mean(sec.zone, ruleset.zones)}", d.span))
        if d.cover is not None and d.cover.section not in {sec.name for sec in d.sections}:
            errors.append(ValidationError(f"decks.cover names section {d.cover.section!r}, which decks.sections "
                                          "does not declare", d.span))
        if d.max_copies is not None and d.max_copies not in ctx.attributes:
            errors.append(ValidationError(f"deck rule max_copies names unknown attribute {d.max_copies!r}"
                                          f"{did_you_mean(d.max_copies, ctx.attributes)}", d.span))
    errors.extend(checker.errors)
    if errors:
        errors.sort(key=lambda e: (e.span.file, e.span.line, e.span.column) if e.span else ("", 0, 0))
        raise ErrorList(errors) if len(errors) > 1 else errors[0]
    ruleset.extra["definitions"] = defs
    return defs
