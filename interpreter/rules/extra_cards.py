"""Check card modules added to an already checked ruleset (a scenario's own cards), checking only
the new cards against the ruleset's definitions.

`with_cards(base, modules)` gives the ruleset `base` with `modules` added to its card modules,
checked: its definitions and warnings set as `check_ruleset` sets them, and nothing that
`check_ruleset` or `observing_problems` would refuse. It checks the new cards alone, which is
the same as checking the whole because the base passed both checks and new cards can only
take errors away from the base's code: they add card names, emitted events and callers, which
the checks of the base's code only look up (an unknown card name or event is the error, never
a known one); they add no procedure, function or keyword (else this gives up), so the kinds,
parameters and callees the base's code was checked against are the same.

It gives None when it cannot tell without checking the whole: the modules define something
else than cards, a card name is taken, or a new card has an error. The caller then checks (and
loads) the whole, which reports the errors exactly as a load reports them.
"""

from __future__ import annotations

import copy
from dataclasses import replace

from ..errors import ValidationError
from ..lang import ast
from ..lang.checker import Checker
from .checker import (
    _CONTEXT,
    Definitions,
    _passed,
    _warnings,
    check_card,
    checked_context,
    emitted_events,
    name_parameters,
)
from .model import Ruleset
from .observing import observing_problems

_FACTS = "_extra_cards_facts"  # (the key of what `_facts` keeps in a checked ruleset's __dict__)


def _facts(base: Ruleset) -> tuple[dict, int]:
    """The procedure and keyword parameters that become a created card's name, and how many of
    the base's code nodes its code and card files hold (its cards' come last): worked out once
    per checked ruleset."""
    found = base.__dict__.get(_FACTS)
    if found is None:
        defs = base.definitions
        assert defs is not None
        files = sum(1 for module in [*base.modules, *base.card_modules] for _node in ast.walk(module))
        found = base.__dict__[_FACTS] = (name_parameters(defs), files)
    return found


def with_cards(base: Ruleset, modules: list[ast.Module]) -> Ruleset | None:
    """`base` (checked) with card modules added, checked; None when the whole must be checked."""
    defs = base.definitions
    if defs is None:
        return None
    items = [item for module in modules for item in module.items]
    if not all(isinstance(item, (ast.CardDef, ast.CardTemplate)) for item in items):
        return None
    errors: list[ValidationError] = []
    cards = dict(defs.cards)
    new: list[ast.CardDef] = []
    for item in items:
        for card in Definitions._made(item, defs.functions, errors):
            if card.name in cards:  # ("defined twice": the whole check says where)
                return None
            cards[card.name] = card
            new.append(card)
    if errors:
        return None
    ruleset = replace(base, card_modules=[*base.card_modules, *modules], definitions=None, warnings=())
    sinks, files = _facts(base)
    nodes = tuple(node for module in modules for node in ast.walk(module))
    # (`Ruleset.code_nodes`, in its order -- code and card files, then the rest -- without
    # walking the base's code again)
    walked = base.code_nodes()
    ruleset.__dict__["_code_nodes"] = walked[:files] + nodes + walked[files:]
    # what `build_context` gives the whole: only the events and card names depend on cards
    context = replace(checked_context(base), events=emitted_events(ruleset), card_names=set(cards))
    checker = Checker(context)
    for card in new:
        check_card(ruleset, card, errors)
        checker.card(card)
    extended = copy.copy(defs)
    extended.cards = cards
    for node in nodes:  # (check_created_names, for the new code: the base's passed)
        for callee, i, arg in _passed(node, extended):
            if isinstance(arg, ast.StrLit) and i in sinks.get(callee, ()) and arg.value not in cards:
                return None
    if errors or checker.errors:
        return None
    ruleset.definitions = extended
    ruleset.warnings = _warnings([*base.warnings, *checker.warnings])
    ruleset.__dict__[_CONTEXT] = context
    if observing_problems(ruleset):
        return None
    return ruleset
