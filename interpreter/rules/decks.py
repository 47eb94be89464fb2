"""Deck lists: read a deck (file, mapping or list of names) and check it against the deck rules.

A deck that breaks its size, a max-copies rule or an allowed card type is rejected before the
game starts, with an error that names the deck file and the card.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import DeckError, Span, did_you_mean


@dataclass(frozen=True)
class Deck:
    name: str
    file: str
    cards: tuple[str, ...]  # one entry per copy, in list order
    sections: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (section name, cards) for the other parts

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for c in self.cards:
            out[c] = out.get(c, 0) + 1
        return out


def _check_format(data: dict, marks, path: Path, rules) -> None:
    """A deck that declares its format must be loaded with the rules of that format."""
    option = rules.ruleset.extra.get("deck_format_option")
    wanted = data.get("format")
    if option is None or wanted is None or str(wanted) == str(rules.options.get(option)):
        return
    raise DeckError(f"deck {data.get('name', path.stem)!r} ({path}) is a {wanted} deck, but the rules are loaded "
                    f"with {option} = {rules.options.get(option)}", marks.span(("format",)),
                    hint=f"load the rules with the option {option}={wanted}")


def _read(source: Any, rules) -> tuple[str, str, dict[str, int], Any, dict[str, dict[str, int]]]:
    """(deck name, file, counts, marks-or-None, other sections' counts)."""
    if isinstance(source, (str, Path)):
        from .schema import validate
        from .yamlload import load_yaml

        path = Path(source)
        data, marks = load_yaml(path, error=DeckError)
        validate(data, marks, "deck", str(path), error=DeckError)
        _check_format(data, marks, path, rules)
        others = {k: dict(v) for k, v in data.items() if isinstance(v, dict) and k != "cards"}
        return str(data.get("name", path.stem)), str(path), dict(data["cards"]), marks, others
    if isinstance(source, dict):
        cards = source.get("cards", source)
        others = {k: dict(v) for k, v in source.items() if isinstance(v, dict) and k != "cards"}
        return str(source.get("name", "deck")), "<deck>", dict(cards), None, others
    if isinstance(source, (list, tuple)):
        counts: dict[str, int] = {}
        for name in source:
            counts[name] = counts.get(name, 0) + 1
        return "deck", "<deck>", counts, None, {}
    raise DeckError(f"a deck is a file, a mapping of card names to counts or a list of names, not {source!r}")


def load_deck(source: Any, rules, seat: int = 1) -> Deck:
    name, file, counts, marks, others = _read(source, rules)

    def where(card: str | None = None, part: str = "cards") -> Span | None:
        if marks is None:
            return None
        try:
            return marks.span((part, card) if card else (part,))
        except (KeyError, IndexError, TypeError):
            return None

    rule = rules.ruleset.decks
    cards = _checked_cards(rules, name, file, counts, rule, where)
    sections = []
    declared = {sec.name: sec for sec in (rule.sections if rule is not None else ())}
    for part in others:
        if part not in declared:
            raise DeckError(f"deck {name!r} ({file}) has a part {part!r} that {rules.name} decks do not have"
                            f"{did_you_mean(part, declared)}", where(part=part))
    for sec in declared.values():
        part_cards = _section_cards(rules, name, file, sec, others.get(sec.name, {}), where)
        sections.append((sec.name, tuple(part_cards)))
    if rule is not None and rule.cover is not None:
        _check_cover(rules, name, file, cards, dict(sections), rule.cover, where)
    return Deck(name, file, tuple(cards), tuple(sections))


def _values(value: Any) -> list:
    return list(value) if isinstance(value, (list, tuple)) else ([] if value in (None, "") else [value])


def _section_cards(rules, name: str, file: str, sec, counts: dict[str, int], where) -> list[str]:
    cards: list[str] = []
    for card, count in counts.items():
        defn = rules.card_defs.get(card)
        if defn is None:
            raise DeckError(f"deck {name!r} ({file}), {sec.name}: {rules.unknown_card(card)}", where(card, sec.name))
        if sec.allowed_types is not None and defn.type not in sec.allowed_types:
            raise DeckError(f"deck {name!r} ({file}), {sec.name}: {card!r} is a {defn.type}, which this part may "
                            f"not hold (allowed: {', '.join(sec.allowed_types)})", where(card, sec.name))
        cards.extend([card] * count)
    if sec.size is not None and len(cards) != sec.size:
        raise DeckError(f"deck {name!r} ({file}) has {len(cards)} cards in {sec.name}; {rules.name} decks have "
                        f"exactly {sec.size} there", where(part=sec.name))
    if sec.min_size is not None and len(cards) < sec.min_size:
        raise DeckError(f"deck {name!r} ({file}) has {len(cards)} cards in {sec.name}; {rules.name} decks need at "
                        f"least {sec.min_size} there", where(part=sec.name))
    for attribute, value, count in sec.counts:
        have = sum(1 for c in cards if value in _values(rules.card_defs[c].initial.get(attribute)))
        if have != count:
            raise DeckError(f"deck {name!r} ({file}) has {have} cards with {attribute} {value!r} in {sec.name}; "
                            f"{rules.name} decks have {count}", where(part=sec.name))
    return cards


def _check_cover(rules, name: str, file: str, cards: list[str], sections: dict, cover, where) -> None:
    """Every value of cover.attribute on a main-deck card must be offered by the cover.section."""
    offered: set = set()
    for card in sections.get(cover.section, ()):
        offered.update(_values(rules.card_defs[card].initial.get(cover.by)))
    for card in dict.fromkeys(cards):
        missing = [v for v in _values(rules.card_defs[card].initial.get(cover.attribute)) if v not in offered]
        if missing:
            have = ", ".join(sorted(map(str, offered))) or "none"
            raise DeckError(f"deck {name!r} ({file}): {card!r} needs {cover.attribute} {', '.join(map(str, missing))}, "
                            f"which no card of its {cover.section} has ({cover.by}: {have})", where(card))


def _checked_cards(rules, name: str, file: str, counts: dict[str, int], rule, where) -> list[str]:
    cards: list[str] = []
    for card, count in counts.items():
        defn = rules.card_defs.get(card)
        if defn is None or defn.token:
            raise DeckError(f"deck {name!r} ({file}): {rules.unknown_card(card)}", where(card))
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            raise DeckError(f"deck {name!r} ({file}): the count of {card!r} must be a whole number ≥ 1, "
                            f"not {count!r}", where(card))
        if rule is not None and rule.allowed_types is not None and defn.type not in rule.allowed_types:
            raise DeckError(f"deck {name!r} ({file}): {card!r} is a {defn.type}, which decks may not hold "
                            f"(allowed: {', '.join(rule.allowed_types)})", where(card))
        if rule is not None and rule.max_copies is not None:
            limit = defn.initial.get(rule.max_copies)
            if isinstance(limit, int) and count > limit:
                raise DeckError(f"deck {name!r} ({file}): {count} copies of {card!r}, but at most {limit} "
                                f"are allowed", where(card))
        cards.extend([card] * count)
    if rule is not None:
        if rule.size is not None and len(cards) != rule.size:
            raise DeckError(f"deck {name!r} ({file}) has {len(cards)} cards; {rules.name} decks have exactly "
                            f"{rule.size}", where())
        if rule.min_size is not None and len(cards) < rule.min_size:
            raise DeckError(f"deck {name!r} ({file}) has {len(cards)} cards; {rules.name} decks need at least "
                            f"{rule.min_size}", where())
    return cards


def unknown(name: str, known) -> str:
    return f"{name!r}{did_you_mean(name, known)}"
