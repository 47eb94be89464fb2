"""Check a whole ruleset: collect its definitions, build the name context, check every piece of code.

Duplicate definitions, card types and attributes that do not exist, attribute values of the wrong
type or outside their declared `min`/`max` or `values`, missing required attributes, card names in
strings that reach `create` (through procedure and keyword parameters) naming no card, a zone and a
player attribute of one name, decisions and zones that need a `you` in code that has none
(context.py), and every error of `lang.checker` are gathered and raised together.
`label_problems` checks a card type's label.
"""

from __future__ import annotations

import string
from collections.abc import Iterator
from typing import Any

from ..errors import ErrorList, Span, ValidationError, did_you_mean
from ..lang import ast
from ..lang.analysis import bound_names, gives_value
from ..lang.checker import BUILTIN_EVENTS, CARD_PROPERTIES, Checker, Context
from ..lang.kinds import BUILTIN_GLOBAL_KINDS, Held, Kinds
from ..lang.members import attributes_of, is_token, member_problems
from ..lang.param_kinds import parameter_kinds
from ..lang.templates import expand as expand_template
from ..lang.templates import fold_errors
from .avatars import avatar_problems
from .code_attributes import code_attribute_params, code_member_problems, code_returns
from .context import contextless_problems
from .handzone import hand_warning
from .model import EVALUATED_PLAYER, Ruleset
from .texts import procedure_text_problems

# What a card's label may show besides its type's attributes: the card properties that every card
# has (`seat` is a player's).
LABEL_PROPERTIES = frozenset(CARD_PROPERTIES - {"seat"})
# The kind of value of a property, for the format specs a label may give it.
_PROPERTY_KINDS = {"name": "text", "type": "text", "id": "int"}
_SPEC_SAMPLES: dict[str, tuple[Any, ...]] = {"int": (0, -1), "bool": (True,), "text": ("",)}

TYPE_CHECKS = {
    "int": lambda v: isinstance(v, ast.IntLit) or (isinstance(v, ast.Neg) and isinstance(v.operand, ast.IntLit)),
    "bool": lambda v: isinstance(v, ast.BoolLit),
    "text": lambda v: _printed_text(v) is not None,
}


def _printed_text(e: ast.Expr) -> str | None:
    """The text a card prints for a `text` attribute: a string, or a bare name, which stands for
    its text (`aim = character` is `aim = "character"`); None for anything else."""
    if isinstance(e, ast.StrLit):
        return e.value
    if isinstance(e, ast.Name):
        return e.id
    return None


class Definitions:
    """The procedures, functions, keywords and cards a ruleset's code files define, by name."""

    def __init__(self, ruleset: Ruleset, errors: list) -> None:
        self.procedures: dict[str, ast.Procedure] = {}
        self.functions: dict[str, ast.Function] = {}
        self.keywords: dict[str, ast.KeywordDef] = {}
        self.cards: dict[str, ast.CardDef] = {}
        items = [item for module in [*ruleset.modules, *ruleset.card_modules] for item in module.items]
        functions = {}  # (a card template may call any file's functions)
        for item in items:
            if isinstance(item, ast.Function):
                functions.setdefault(item.name, item)
        for item in items:
            for made in self._made(item, functions, errors):
                table = {ast.Procedure: self.procedures, ast.Function: self.functions,
                         ast.KeywordDef: self.keywords, ast.CardDef: self.cards}[type(made)]
                if made.name in table:
                    first = table[made.name]
                    errors.append(ValidationError(f"{_defined(made)} is defined twice (first at {_defined(first, True)})",
                                                  made.span))
                    continue
                table[made.name] = made

    @staticmethod
    def _made(item, functions: dict, errors: list) -> list:
        """The definitions an item gives: itself, or the cards a card template makes."""
        if not isinstance(item, ast.CardTemplate):
            return [item]
        try:
            return expand_template(item, functions)
        except ValidationError as err:
            errors.append(err)
            return []


def _defined(item, where: bool = False) -> str:
    """A definition in a message: its name (a made card's template and values), or where it is."""
    made = getattr(item, "made_by", None)
    if where:
        return f"{item.span}" + (f", by {made.describe()}" if made is not None else "")
    return f"{item.name!r}" + (f" (made by {made.describe()})" if made is not None else "")


def _statistics_problems(ruleset: Ruleset, events: dict[str, set[str]]) -> list[ValidationError]:
    """The zone and events that `statistics:` names must exist, and the events must carry the
    arguments the report reads from them."""
    stats = ruleset.statistics
    problems = []
    if stats.hand is not None:
        zone = ruleset.zones.get(stats.hand)
        if zone is None:
            problems.append(ValidationError(f"statistics.hand names {stats.hand!r}, which is not a declared zone"
                                            f"{did_you_mean(stats.hand, ruleset.zones)}", stats.spans.get("hand")))
        elif not zone.per_player:
            problems.append(ValidationError(f"statistics.hand: zone {stats.hand!r} is shared; the hand zone must be "
                                            "one per player", stats.spans.get("hand")))
    known = sorted({name for t in ruleset.card_types.values() for name in t.attributes})
    for i, name in enumerate(stats.attributes):
        if name not in known:
            problems.append(ValidationError(f"statistics.attributes names {name!r}, which no card type has"
                                            f"{did_you_mean(name, known)}", stats.spans.get(f"attributes.{i}")))
    wanted = [(f"played.{i}", name, "card") for i, name in enumerate(stats.played)]
    if stats.picked is not None:
        wanted += [("picked", stats.picked, "card"), ("picked", stats.picked, "player")]
    if stats.offered is not None:
        wanted.append(("offered", stats.offered, "cards"))
    for key, name, argument in wanted:
        where = stats.spans.get(key)
        if name not in events:
            problems.append(ValidationError(f"statistics.{key.split('.')[0]} names {name!r}, an event nothing emits"
                                            f"{did_you_mean(name, events)}", where))
        elif argument not in events[name]:
            has = f"it has {', '.join(sorted(events[name]))}" if events[name] else "it has none"
            problems.append(ValidationError(f"statistics.{key.split('.')[0]}: event {name!r} has no {argument!r} "
                                            f"argument ({has})", where))
    return problems


def emitted_events(ruleset: Ruleset) -> dict[str, set[str]]:
    """Every event some code emits (or the ruleset declares), with the argument names it gets."""
    events: dict[str, set[str]] = {name: set() for name in ruleset.events}
    for node in ruleset.code_nodes():
        if isinstance(node, ast.Emit):
            events.setdefault(node.event, set()).update(a.name for a in node.args)
    return events


_OPTION_KINDS = {"int": "int", "bool": "bool", "choice": "text", "text": "text", "list": "list"}


def value_kinds(ruleset: Ruleset, defs: Definitions) -> Kinds:
    """What the code says of the kinds of values, against what this ruleset declares."""
    player_kinds = {name: {spec.type} for name, spec in ruleset.player_attributes.items()}
    card_kinds: dict[str, set[str]] = {}
    for ct in ruleset.card_types.values():
        for name, spec in ct.attributes.items():
            card_kinds.setdefault(name, set()).add(spec.type)
    team_kinds = {name: {spec.type} for name, spec in _team_attributes(ruleset).items()}
    kinds = Kinds(ruleset.zones, defs.functions, defs.keywords, {n: a.type for n, a in ruleset.globals.items()},
                 player_kinds, card_kinds,
                 {n: _OPTION_KINDS[o.type] for n, o in ruleset.option_specs.items() if o.type in _OPTION_KINDS},
                 team_kinds)
    kinds.code_returns = code_returns(ruleset)
    return kinds


def _team_attributes(ruleset: Ruleset) -> dict:
    return ruleset.teams.attributes if ruleset.teams is not None else {}


def held_slots(ruleset: Ruleset) -> dict[tuple[str, str], Held]:
    """What each global, ("game", name), and each attribute name, ("attribute", name), holds
    (an attribute declared by players and card types with different types holds any of them)."""
    slots = {("game", name): Held.of(f"game.{name}", [kind]) for name, kind in BUILTIN_GLOBAL_KINDS.items()}
    for name, spec in ruleset.globals.items():
        slots["game", name] = Held.of(f"game.{name}", [spec.type])
    declared: dict[str, set[str]] = {}
    for spec in [*ruleset.player_attributes.values(),
                 *(a for ct in ruleset.card_types.values() for a in ct.attributes.values()),
                 *_team_attributes(ruleset).values()]:
        declared.setdefault(spec.name, set()).add(spec.type)
    for name, types in declared.items():
        slots["attribute", name] = Held.of(f"attribute {name!r}", types)
    return slots


def _declared_at(ruleset: Ruleset, kind: str, name: str) -> Span | None:
    """Where a global ("game") or an attribute is (first) declared; None for a built-in global."""
    if kind == "game":
        spec = ruleset.globals.get(name)
        return spec.span if spec is not None else None
    specs = [ruleset.player_attributes.get(name), *(ct.attributes.get(name) for ct in ruleset.card_types.values()),
             _team_attributes(ruleset).get(name)]
    return next(spec.span for spec in specs if spec is not None)


def build_context(ruleset: Ruleset, defs: Definitions) -> Context:
    attributes = set(ruleset.player_attributes)
    for ct in ruleset.card_types.values():
        attributes.update(ct.attributes)
    held_by_others = set(attributes)
    attributes.update(_team_attributes(ruleset))
    held = {slot: (h, _declared_at(ruleset, *slot)) for slot, h in held_slots(ruleset).items()}
    return Context(
        kinds=value_kinds(ruleset, defs),
        held=held,
        zones={z.name: (z.per_player, z.rows) for z in ruleset.zones.values()},
        procedures={n: p.params for n, p in defs.procedures.items()},
        functions={n: f.params for n, f in defs.functions.items()},
        keywords={n: k.params for n, k in defs.keywords.items()},
        attributes=attributes,
        globals=set(ruleset.globals),
        options=set(ruleset.option_specs),
        events=emitted_events(ruleset),
        card_names=set(defs.cards),
        card_types=set(ruleset.card_types),
        value_procedures={n for n, p in defs.procedures.items() if gives_value(p)},
        parameter_kinds=_parameter_kinds(ruleset, defs),
        team_attributes=set(ruleset.teams.attributes) if ruleset.teams is not None else None,
        held_by_others=held_by_others,
        code_attributes=code_attribute_params(ruleset),
    )


def _parameter_kinds(ruleset: Ruleset, defs: Definitions) -> dict:
    """The parameters of procedures and functions whose kind their body fixes (a call that
    passes a value of another kind is refused at load; lang/param_kinds.py)."""
    bodies = {n: (p.params, p.body) for n, p in defs.procedures.items()}
    bodies.update({n: (f.params, f.body) for n, f in defs.functions.items()})
    int_slots = [slot for slot, held in held_slots(ruleset).items() if held.declared == {"int"}]
    zones = {z.name: (z.per_player, z.rows) for z in ruleset.zones.values()}
    return parameter_kinds(bodies, value_kinds(ruleset, defs), zones, int_slots)


def label_fields(template: str | None) -> list[str]:
    """The attribute and property names a (checked) label template shows."""
    return [f for _lit, f, _spec, _conv in string.Formatter().parse(template or "") if f]


def label_problems(template: str, type_name: str, attributes: dict) -> list[str]:
    """What is wrong with a card type's label template: stray braces, fields that are not a name
    of the type's attributes or of a card property, format specs its values cannot take."""
    head = f"card type {type_name!r}: the label {template!r}"
    try:
        parsed = list(string.Formatter().parse(template))
    except ValueError as err:
        return [f"{head} has a stray brace ({err}); write {{{{ or }}}} for one"]
    known = [*attributes, *LABEL_PROPERTIES]
    problems = []
    for _literal, field_name, spec, conversion in parsed:
        if field_name is None:
            continue
        if not field_name.isidentifier():
            problems.append(f"{head} shows {{{field_name}}}: write an attribute's name alone, like {{name}}")
        elif field_name not in attributes and field_name not in LABEL_PROPERTIES:
            problems.append(f"{head} shows {{{field_name}}}, but {type_name!r} has no attribute {field_name!r}"
                            f"{did_you_mean(field_name, known)}")
        elif conversion not in (None, "r", "s", "a"):
            problems.append(f"{head} shows {{{field_name}!{conversion}}}: only !r, !s and !a convert a value")
        elif spec and not _spec_fits(spec, "text" if conversion else _field_kind(field_name, attributes)):
            problems.append(f"{head} shows {{{field_name}:{spec}}}, a format its values cannot take")
    return problems


# The card properties an observation shows besides the attributes, which `display:` may name.
DISPLAY_PROPERTIES = ("part", "attached_to", "controller")


def display_problems(names: list, type_name: str, attributes: dict) -> list[tuple[int, str]]:
    """What is wrong with a card type's `display:` list, each as (its index, the message): names
    that are not an attribute of the type nor a property an observation shows, repeats."""
    known = [*attributes, *DISPLAY_PROPERTIES]
    problems = []
    for i, name in enumerate(names):
        if name not in known:
            problems.append((i, f"card type {type_name!r}: display names {name!r}, which is not one of its "
                                f"attributes nor {', '.join(DISPLAY_PROPERTIES)}{did_you_mean(str(name), known)}"))
        elif name in names[:i]:
            problems.append((i, f"card type {type_name!r}: display names {name!r} twice"))
    return problems


def _field_kind(name: str, attributes: dict) -> str:
    spec = attributes.get(name)
    return spec.type if spec is not None else _PROPERTY_KINDS.get(name, "other")


def _spec_fits(spec: str, kind: str) -> bool:
    """Whether every value of this kind can be shown with this format spec."""
    samples = _SPEC_SAMPLES.get(kind)
    if samples is None:  # cards, players, lists, none: no spec is safe for all of them
        return False
    try:
        for sample in samples:
            format(sample, spec)
    except (ValueError, TypeError):
        return False
    return True


def _int_value(e: ast.Expr) -> int | None:
    """The value of an int literal (or a negated one), else None."""
    if isinstance(e, ast.IntLit):
        return e.value
    if isinstance(e, ast.Neg) and isinstance(e.operand, ast.IntLit):
        return -e.operand.value
    return None


def _check_limits(card: ast.CardDef, a: ast.AttrDef, spec, errors: list) -> None:
    """A printed int within its attribute's declared min and max."""
    value = _int_value(a.value)
    if value is None or spec.clamp is None:
        return
    low, high = spec.clamp
    if low is not None and value < low:
        errors.append(ValidationError(f"attribute {a.name!r} of {card.name!r} is {value}; {card.type} cards have "
                                      f"it at least {low}", a.value.span))
    elif high is not None and value > high:
        errors.append(ValidationError(f"attribute {a.name!r} of {card.name!r} is {value}; {card.type} cards have "
                                      f"it at most {high}", a.value.span))


def _check_values(card: ast.CardDef, a: ast.AttrDef, values: tuple[str, ...], errors: list) -> None:
    """A printed text (a string or a bare name) among its attribute's declared `values`."""
    text = _printed_text(a.value)
    if text is None or text in values:
        return
    errors.append(ValidationError(f"attribute {a.name!r} of {card.name!r} is {text!r}; {card.type} "
                                  f"cards have it one of {', '.join(values)}"
                                  f"{did_you_mean(text, values)}", a.value.span,
                                  f"values: {', '.join(values)}"))


def check_card(ruleset: Ruleset, card: ast.CardDef, errors: list) -> None:
    ctype = ruleset.card_types.get(card.type)
    if ctype is None:
        errors.append(ValidationError(
            f"card {card.name!r} has unknown type {card.type!r}{did_you_mean(card.type, ruleset.card_types)}",
            card.span, "card types: " + ", ".join(sorted(ruleset.card_types))))
        return
    given = set()
    errors.extend(member_problems(card))
    for a in attributes_of(card):
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
        elif spec.type == "int":
            _check_limits(card, a, spec, errors)
        elif spec.values is not None:
            _check_values(card, a, spec.values, errors)
    if not is_token(card, ctype.token):
        for name, spec in ctype.attributes.items():
            if spec.required and name not in given:
                errors.append(ValidationError(f"card {card.name!r} needs attribute {name!r} ({spec.type})",
                                              card.span))
    part_names = [p.name for p in card.parts]
    for p in card.parts:
        if part_names.count(p.name) > 1:
            errors.append(ValidationError(f"card {card.name!r} has two parts named {p.name!r}", p.span))
            break


# ------------------------------------------------------------------ card names that reach `create`
# A callable that can take a card name: ("procedure" or "keyword", name).
Callable = tuple[str, str]


def _bodies(defs: Definitions) -> Iterator[tuple[Callable, tuple[str, ...], Any]]:
    """Each procedure and keyword: its key, its parameters and its code."""
    for name, p in defs.procedures.items():
        yield ("procedure", name), p.params, p.body
    for name, k in defs.keywords.items():
        yield ("keyword", name), k.params, k.abilities


def _rebound(body: Any) -> set[str]:
    """The names a body binds anew (let, for, all/each, create ... as, assignment): a parameter
    rebound somewhere no longer surely holds what the caller passed."""
    return set(bound_names(body))


def _passed(node: Any, defs: Definitions) -> Iterator[tuple[Callable, int, ast.Expr]]:
    """The arguments a node passes to a procedure or keyword: (callee, parameter index, argument)."""
    if isinstance(node, ast.Call) and node.func in defs.procedures:
        params = defs.procedures[node.func].params
        for i, arg in enumerate(node.args):
            yield ("procedure", node.func), i, arg
        for named in node.kwargs:
            if named.name in params:
                yield ("procedure", node.func), params.index(named.name), named.value
    elif isinstance(node, (ast.KeywordUse, ast.GrantUntil, ast.StaticGrant)):
        name = node.name if isinstance(node, ast.KeywordUse) else node.keyword
        if name in defs.keywords:
            for i, arg in enumerate(node.args):
                yield ("keyword", name), i, arg


def name_parameters(defs: Definitions) -> dict[Callable, set[int]]:
    """The parameters of procedures and keywords whose value becomes the name in `create NAME`,
    directly or passed on to another such parameter (to a fixed point)."""
    sinks: dict[Callable, set[int]] = {}
    bodies = [(key, params, [*ast.walk(body)], set(params) - _rebound(body)) for key, params, body in _bodies(defs)]
    changed = True
    while changed:
        changed = False
        for key, params, nodes, held in bodies:
            found = sinks.get(key, set())
            before = len(found)
            for node in nodes:
                if isinstance(node, ast.Create) and isinstance(node.card_name, ast.Name):
                    if node.card_name.id in held:
                        found.add(params.index(node.card_name.id))
                for callee, i, arg in _passed(node, defs):
                    if isinstance(arg, ast.Name) and arg.id in held and i in sinks.get(callee, ()):
                        found.add(params.index(arg.id))
            if len(found) != before:
                sinks[key] = found
                changed = True
    return sinks


def check_created_names(ruleset: Ruleset, defs: Definitions, errors: list) -> None:
    """A text passed where a procedure or keyword makes a card of that name must name a card."""
    sinks = name_parameters(defs)
    if not sinks:
        return
    for node in ruleset.code_nodes():
        for callee, i, arg in _passed(node, defs):
            if isinstance(arg, ast.StrLit) and i in sinks.get(callee, ()) and arg.value not in defs.cards:
                errors.append(ValidationError(f"no card named {arg.value!r}{did_you_mean(arg.value, defs.cards)}",
                                              arg.span, f"the {callee[0]} {callee[1]!r} makes a card of the name "
                                              "given here"))


def made_zone_problems(ruleset: Ruleset, made) -> list[ValidationError]:
    """`decks.made`: declared zones and card types, and copies from a whole-number attribute of
    every card type it takes."""
    problems = []
    for m in made:
        if m.zone not in ruleset.zones:
            problems.append(ValidationError(f"decks.made fills zone {m.zone!r}, which is not declared"
                                            f"{did_you_mean(m.zone, ruleset.zones)}", m.span))
        types = m.types if m.types is not None else tuple(
            name for name, t in ruleset.card_types.items() if not t.token)
        for t in types:
            if t not in ruleset.card_types:
                problems.append(ValidationError(f"decks.made takes unknown card type {t!r}"
                                                f"{did_you_mean(t, ruleset.card_types)}", m.span))
            elif isinstance(m.copies, str):
                spec = ruleset.card_types[t].attributes.get(m.copies)
                if spec is None or spec.type != "int":
                    problems.append(ValidationError(
                        f"decks.made takes its copies from {m.copies!r}, which is not a whole-number attribute "
                        f"of card type {t!r}{did_you_mean(m.copies, ruleset.card_types[t].attributes)}", m.span))
    return problems


def name_clashes(ruleset: Ruleset) -> list[ValidationError]:
    """A zone and a player attribute may not share a name: a scenario's `players.1.NAME` would
    not say which it means."""
    problems = []
    for name, zone in ruleset.zones.items():
        spec = ruleset.player_attributes.get(name)
        if spec is not None:
            problems.append(ValidationError(
                f"{name!r} is declared twice: as a zone at {zone.span} and as a player attribute at {spec.span}",
                spec.span, f"rename one of them: scenarios name a player's zones and attributes alike "
                           f"(players.1.{name})"))
    return problems


def check_ruleset(ruleset: Ruleset) -> Definitions:
    errors: list = []
    defs = Definitions(ruleset, errors)
    ctx = build_context(ruleset, defs)
    told: set[int] = set()  # (a subtype holds its parent's declarations: each is told once)
    for spec_table in [ruleset.player_attributes, *[ct.attributes for ct in ruleset.card_types.values()]]:
        for name, spec in spec_table.items():
            if name in CARD_PROPERTIES and id(spec) not in told:
                told.add(id(spec))
                errors.append(ValidationError(f"'{name}' is a built-in property and cannot be declared as an "
                                              "attribute", spec.span))
    errors.extend(name_clashes(ruleset))
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
    for _where, phase in ruleset.steps():
        checker.code(phase.body)
    for level in ruleset.rounds:
        if level.until is not None:
            checker.condition(level.until)
    for req in ruleset.requires:
        checker.condition(req.that)
    check_created_names(ruleset, defs, errors)
    errors.extend(code_member_problems(ruleset, defs, checker, ctx.kinds))
    errors.extend(avatar_problems(ruleset, defs))
    errors.extend(procedure_text_problems(defs.procedures))
    errors.extend(contextless_problems(ruleset, defs))
    if ruleset.evaluate is not None:
        checker.condition(ruleset.evaluate, {EVALUATED_PLAYER})
    known_events = {*ctx.events, *BUILTIN_EVENTS}
    errors.extend(_statistics_problems(ruleset, {**ctx.events, **{k: set(v) for k, v in BUILTIN_EVENTS.items()}}))
    stats = ruleset.statistics
    for expr in (stats.score, ruleset.reward, *(e for _name, e in stats.counters)):
        if expr is not None:
            checker.condition(expr, {EVALUATED_PLAYER})
    for end in ruleset.end:
        for event in end.check_on or ():
            if event not in known_events:
                errors.append(ValidationError(f"check_on names {event!r}, an event nothing emits"
                                              f"{did_you_mean(event, known_events)}", end.span))
        checker.condition(end.when)
        if end.reason_value is not None:  # (a reason that shows values: issue 32.10)
            checker.condition(end.reason_value)
        for key, e in (("winner", end.winner), ("loser", end.loser)):
            if e is not None:
                checker.condition(e)
                checker.one_player(e, set(), key)
    if ruleset.decks is not None:
        d = ruleset.decks
        if (d.defaults or not d.made) and d.zone not in ruleset.zones:
            errors.append(ValidationError(f"decks go to zone {d.zone!r}, which is not declared"
                                          f"{did_you_mean(d.zone, ruleset.zones)}", d.span))
        errors.extend(made_zone_problems(ruleset, d.made))
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
    errors = fold_errors(errors, defs.cards)
    if errors:
        errors.sort(key=lambda e: (e.span.file, e.span.line, e.span.column) if e.span else ("", 0, 0))
        raise ErrorList(errors) if len(errors) > 1 else errors[0]
    ruleset.definitions = defs
    found = list(checker.warnings)
    hand = hand_warning(ruleset)  # (the balance report's hand zone, when it is a guess)
    if hand is not None:
        found.append(hand)
    ruleset.warnings = _warnings(found)
    ruleset.__dict__[_CONTEXT] = ctx
    return defs


_CONTEXT = "_checked_context"  # (where `checked_context` keeps it, in the ruleset's __dict__)


def checked_context(ruleset: Ruleset) -> Context:
    """The name context a checked ruleset's code was checked against (kept by `check_ruleset`,
    else built once): for code checked against the ruleset later (a scenario's expressions)."""
    ctx = ruleset.__dict__.get(_CONTEXT)
    if ctx is None:
        assert ruleset.definitions is not None, "the ruleset is not checked"
        ctx = ruleset.__dict__[_CONTEXT] = build_context(ruleset, ruleset.definitions)
    return ctx


def _warnings(found: list) -> tuple:
    """The warnings of a load in the order of their places, each once (the cards a template
    makes share its code, and so its places)."""
    unique = {(w.span, w.message): w for w in found}
    return tuple(sorted(unique.values(), key=lambda w: (w.span.file, w.span.line, w.span.column)))
