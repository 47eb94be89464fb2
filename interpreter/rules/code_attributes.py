"""Card attributes that hold code (issue 32.8): a card type declares one

    card_types:
      spell:
        attributes:
          aims: {type: condition, params: [t]}                        # true or false
          bonus: {type: function, params: [t], returns: int}          # a number

each card of the type writes it as code (`aims(t) = t is minion and t.owner != self.owner`, or a
block with `return`s), and the rules call it: `s.aims(x)` (or `call(s.aims, x)`), with `self` the
card that holds the code and `you` its controller. So a spell's legal targets, a cost rule, a
score... are written on the card instead of a closed list of kinds in the rules.

Checked at load, each at its place: `params`/`returns` on another type, code on a player, a global
or a team, a default, a function without `returns`; on a card, code for an attribute its type does
not declare (did-you-mean), code for a value attribute or a value for a code attribute, another
number of parameters than declared, an unknown name in the code (the language checker), and a
body that surely gives another kind than declared (`returns`, or true/false for a condition).
A card that gives no code for such an attribute has none: calling it is a rule error naming it.
"""

from __future__ import annotations

from ..errors import RulesError, ValidationError, did_you_mean
from ..lang import ast
from ..lang.code_members import is_code
from ..lang.kinds import KIND_WORDS, Kinds

CODE_TYPES = ("function", "condition")


def read_code_spec(loader, name: str, raw: dict, key_path: tuple) -> tuple[tuple[str, ...] | None, str | None]:
    """The `params` and `returns` of an attribute declaration (None, None for a value attribute);
    problems go to `loader.errors`, at their keys."""
    kind = raw.get("type", "int")
    errors = loader.errors
    if kind not in CODE_TYPES:
        for key in ("params", "returns"):
            if key in raw:
                errors.append(RulesError(f"attribute {name!r}: {key} is for code attributes (type function or "
                                         f"condition), and this one is {kind}", loader.span(*key_path, key)))
        return None, None
    if key_path[0] != "card_types":
        errors.append(RulesError(f"attribute {name!r}: only a card holds code (type {kind}); "
                                 f"{key_path[0].replace('_', ' ')} hold values", loader.span(*key_path, "type"),
                                 hint="declare it under a card type's attributes"))
    if "default" in raw:
        errors.append(RulesError(f"attribute {name!r}: code has no default; each card writes its own "
                                 f"({name}(...) = ...)", loader.span(*key_path, "default")))
    if kind == "condition" and "returns" in raw:
        errors.append(RulesError(f"attribute {name!r}: a condition gives true or false; returns is for a "
                                 "function", loader.span(*key_path, "returns"), hint="remove returns, or make it a function"))
    if kind == "function" and "returns" not in raw:
        errors.append(RulesError(f"attribute {name!r}: a function says what kind of value its code gives",
                                 loader.span(*key_path), hint="add returns: int (or bool, text, list, player, card)"))
    returns = "bool" if kind == "condition" else raw.get("returns")
    return tuple(str(p) for p in raw.get("params") or ()), returns


def code_attribute_params(ruleset) -> dict[str, tuple[str, ...]]:
    """Each code attribute's name with its declared parameters (the first card type's, by name)."""
    found: dict[str, tuple[str, ...]] = {}
    for ctype in ruleset.card_types.values():
        for name, spec in ctype.attributes.items():
            if spec.type in CODE_TYPES:
                found.setdefault(name, spec.params or ())
    return found


def code_returns(ruleset) -> dict[str, str]:
    """Each code attribute's name with the kind of value its code gives, where every card type
    declaring it agrees."""
    kinds: dict[str, set] = {}
    for ctype in ruleset.card_types.values():
        for name, spec in ctype.attributes.items():
            if spec.type in CODE_TYPES:
                kinds.setdefault(name, set()).add(spec.returns)
    return {name: next(iter(k)) for name, k in kinds.items() if len(k) == 1 and None not in k}


def code_member_problems(ruleset, defs, checker, kinds: Kinds) -> list[ValidationError]:
    """The problems of the code and value members of every card against its type's declarations
    (the language checker's own go to `checker.errors`)."""
    problems: list[ValidationError] = []
    for card in defs.cards.values():
        ctype = ruleset.card_types.get(card.type)
        if ctype is None:
            continue
        seen: set[str] = set()
        for a in card.attrs:
            spec = ctype.attributes.get(a.name)
            if not is_code(a):
                if spec is not None and spec.type in CODE_TYPES:
                    params = ", ".join(spec.params or ())
                    problems.append(ValidationError(
                        f"attribute {a.name!r} of card type {card.type!r} is a {spec.type}: write code, not a value",
                        a.span, hint=f"{a.name}({params}) = ..."))
                continue
            if spec is None:
                problems.append(ValidationError(
                    f"card type {card.type!r} has no attribute {a.name!r}{did_you_mean(a.name, ctype.attributes)}",
                    a.span, "attributes: " + ", ".join(sorted(ctype.attributes))))
                continue
            if spec.type not in CODE_TYPES:
                problems.append(ValidationError(
                    f"attribute {a.name!r} of card type {card.type!r} is {spec.type}: give it a value "
                    f"({a.name} = ...), not code", a.span))
                continue
            if a.name in seen:
                problems.append(ValidationError(f"{a.name!r} is given twice", a.span))
            seen.add(a.name)
            problems += _code_problems(card, a, spec, checker, kinds)
    return problems


def _code_problems(card: ast.CardDef, a: ast.AttrDef, spec, checker, kinds: Kinds) -> list[ValidationError]:
    code = a.value
    declared = spec.params or ()
    if len(code.params) != len(declared):
        return [ValidationError(
            f"{a.name!r} of card type {card.type!r} takes {len(declared)} parameter(s) "
            f"({', '.join(declared) or 'none'}); this code takes {len(code.params)}", a.span,
            hint=f"{a.name}({', '.join(declared)}) = ...")]
    checker.function(ast.Function(a.name, code.params, code.body, span=a.span))
    if spec.returns is None:
        return []
    if isinstance(code.body, ast.BlockValue):
        local = set(code.params) | {n.name for n in ast.walk(code.body) if isinstance(n, ast.Let)} | {
            n.var for n in ast.walk(code.body) if isinstance(n, ast.For)}
        given = [r.value for r in ast.walk(code.body) if isinstance(r, ast.Return)]
    else:
        local, given = set(code.params), [code.body]
    problems = []
    for value in given:
        kind = kinds.of(value, frozenset(local))
        if kind is not None and kind not in (spec.returns, "none"):
            what = "a condition" if spec.type == "condition" else f"a function returning {spec.returns}"
            problems.append(ValidationError(
                f"{a.name!r} of {card.name!r} is {what}: its code must give {KIND_WORDS[spec.returns]}, "
                f"but this gives {KIND_WORDS[kind]}", value.span))
    return problems
