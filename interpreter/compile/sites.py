"""The decision sites of a ruleset: every `choose` in its rule code and cards, numbered in a
stable order (by file, line, column), with the literal values any decision may offer.

A decision (`GameState.decision()`) names its site through its span; adapters that need a fixed action
space (interpreter/envs) number the kinds of decision by these sites."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import Span
from ..lang import ast
from ..rules.model import Ruleset


@dataclass(frozen=True)
class DecisionSite:
    index: int
    span: Span
    label: str | None  # the prompt as written ("a card to place"), if any
    kind: str  # one, exactly, up_to, order


def decision_sites(ruleset: Ruleset) -> tuple[DecisionSite, ...]:
    found = {}
    for node in ruleset.code_nodes():
        if isinstance(node, ast.Choose):
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
    for node in ruleset.code_nodes():
        if isinstance(node, ast.StrLit):
            texts.add(node.value)
        elif isinstance(node, ast.IntLit):
            numbers.add(node.value)
    texts |= set(card_names)
    return (None, False, True, *sorted(numbers), *sorted(texts))
