"""The decision sites of a ruleset: every `choose` in its rule code and cards, numbered in a
stable order (by file, line, column), with the literal values any decision may offer; both read
from the code as written, lowered (`LoweredRuleset.nodes`: a card template once, with its loops).

A decision (`GameState.decision()`) names its site through its span; adapters that need a fixed action
space (interpreter/envs) number the kinds of decision by these sites."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import Span
from ..lang import ir
from ..lang.lower import lowered
from ..rules.model import Ruleset


@dataclass(frozen=True)
class DecisionSite:
    index: int
    span: Span
    label: str | None  # the prompt as written ("a card to place"), if any
    kind: str  # one, exactly, up_to, order


def decision_sites(ruleset: Ruleset) -> tuple[DecisionSite, ...]:
    found = {}
    for node in _written_nodes(ruleset):
        if type(node) is ir.Ask and node.kind != "may":
            found[_key(node.span)] = node
    ordered = sorted(found.items())
    return tuple(DecisionSite(i, node.span, node.label, node.kind) for i, (_key_, node) in enumerate(ordered))


def site_key(span: Span | None) -> tuple | None:
    return _key(span) if span is not None else None


def _key(span: Span) -> tuple:
    return (span.file, span.line, span.column)


def literal_values(ruleset: Ruleset, card_names) -> tuple:
    """Every plain value a decision may offer: the text and whole-number literals of the rule code
    and cards, every card name, true, false and none; in a stable order."""
    texts, numbers = set(), set()
    for node in _written_nodes(ruleset):
        if type(node) is ir.Const:
            kind = type(node.value)
            if kind is str:
                texts.add(node.value)
            elif kind is int:
                numbers.add(node.value)
    texts |= set(card_names)
    return (None, False, True, *sorted(numbers), *sorted(texts))


def _written_nodes(ruleset: Ruleset):
    """Every node of a checked ruleset's code as written, lowered."""
    return lowered(ruleset, ruleset.definitions).nodes()
