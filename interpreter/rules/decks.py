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

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for c in self.cards:
            out[c] = out.get(c, 0) + 1
        return out


def _read(source: Any) -> tuple[str, str, dict[str, int], Any]:
    """(deck name, file, counts, marks-or-None)."""
    if isinstance(source, (str, Path)):
        from .schema import validate
        from .yamlload import load_yaml

        path = Path(source)
        data, marks = load_yaml(path, error=DeckError)
        validate(data, marks, "deck", str(path), error=DeckError)
        return str(data.get("name", path.stem)), str(path), dict(data["cards"]), marks
    if isinstance(source, dict):
        cards = source.get("cards", source)
        return str(source.get("name", "deck")), "<deck>", dict(cards), None
    if isinstance(source, (list, tuple)):
        counts: dict[str, int] = {}
        for name in source:
            counts[name] = counts.get(name, 0) + 1
        return "deck", "<deck>", counts, None
    raise DeckError(f"a deck is a file, a mapping of card names to counts or a list of names, not {source!r}")


def load_deck(source: Any, rules, seat: int = 1) -> Deck:
    name, file, counts, marks = _read(source)

    def where(card: str | None = None) -> Span | None:
        if marks is None:
            return None
        try:
            return marks.span(("cards", card) if card else ("cards",))
        except (KeyError, IndexError, TypeError):
            return None

    rule = rules.ruleset.decks
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
    return Deck(name, file, tuple(cards))


def unknown(name: str, known) -> str:
    return f"{name!r}{did_you_mean(name, known)}"
