"""The shared part of the OpenSpiel games (openspiel_game.py) that needs no OpenSpiel: each
ruleset with its options loaded once, and per (ruleset, options, copies) the rules, action space
and observation encoding every state shares; the `copies` game parameter's text form."""

from __future__ import annotations

import json
from typing import Any

from .. import load
from .actions import ActionCatalogue
from .encoding import ObservationEncoding
from .openspiel_recall import RecallEncoding


def canonical(value: Any) -> str:
    """A value as canonical JSON text (sorted keys, no spaces): what information states compare."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


class Spec:
    """What every state of one (ruleset, options, copies) shares: the rules, action space,
    observation encoding and the recall part of the information state tensor."""

    def __init__(self, source: str, options: dict[str, Any], copies: str, rules) -> None:
        self.source = source
        self.options = dict(options)
        self.copies = copies
        self.rules = rules
        self.catalogue = ActionCatalogue(rules, parse_copies(copies))
        self.encoding = ObservationEncoding(rules)
        self.recall = RecallEncoding(self.encoding, self.catalogue)
        self.players = rules.player_count


_RULES: dict[tuple, Any] = {}
_SPECS: dict[tuple, Spec] = {}


def rules_for(source: str, options: dict[str, Any]):
    """The ruleset with these options (the others at their defaults), loaded once."""
    default = _RULES.get((source, None))
    if default is None:
        default = _RULES[(source, None)] = load(source)
    full = {**default.options, **options}
    if full == default.options:
        return default
    key = (source, tuple(sorted(full.items())))
    rules = _RULES.get(key)
    if rules is None:
        rules = _RULES[key] = load(source, full)
    return rules


def spec_for(source: str, options: dict[str, Any], copies: str = "") -> Spec:
    rules = rules_for(source, options)
    key = (source, tuple(sorted(rules.options.items())), copies)
    spec = _SPECS.get(key)
    if spec is None:
        spec = _SPECS[key] = Spec(source, rules.options, copies, rules)
    return spec


def format_copies(copies: dict[str, int] | None) -> str:
    """The `copies` parameter's text for {card name: ordinals}: 'Name:16;Other name:4', sorted."""
    for name in copies or {}:
        if any(c in name for c in ":;,=()"):
            raise ValueError(f"copies: the card name {name!r} cannot be written in a game parameter")
    return ";".join(f"{name}:{int(n)}" for name, n in sorted((copies or {}).items()))


def parse_copies(text: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for part in filter(None, text.split(";")):
        name, sep, number = part.rpartition(":")
        if not sep or not number.strip().isdigit():
            raise ValueError(f"copies: {part!r} is not NAME:NUMBER (parts separated by ';')")
        out[name.strip()] = int(number)
    return out
