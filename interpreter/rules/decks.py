"""Deck lists: read a deck (file, mapping or list of names) and check it against the deck rules.

A deck that breaks its size, a max-copies rule (in any part of the deck) or an allowed card type
is rejected before the game starts, with an error that names the deck file and the card, located
at the card's name (or at its count, for a count that is wrong). Every name and count is checked,
and every size summed from the counts, before the list of cards is made: a count above
`MAX_COPIES` is an error too, not a list too long to build.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

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


# No deck holds more copies of one card: a count is checked before any list of names is built.
MAX_COPIES = 10_000


def _check_format(data: dict, marks, path: Path, rules) -> None:
    """A deck that declares its format must be loaded with the rules of that format (one of the
    values of the ruleset's format option)."""
    option = rules.ruleset.deck_format_option
    wanted = data.get("format")
    if option is None or wanted is None or str(wanted) == str(rules.options.get(option)):
        return
    deck = f"deck {data.get('name', path.stem)!r} ({path})"
    spec = rules.ruleset.option_specs.get(option)
    if spec is not None and spec.values and str(wanted) not in spec.values:
        raise DeckError(f"{deck} is a {wanted} deck, but {rules.name} has no format {str(wanted)!r}"
                        f"{did_you_mean(str(wanted), spec.values)}", marks.span(("format",)),
                        hint=f"formats: {', '.join(spec.values)}")
    raise DeckError(f"{deck} is a {wanted} deck, but the rules are loaded "
                    f"with {option} = {rules.options.get(option)}", marks.span(("format",)),
                    hint=f"load the rules with the option {option}={wanted}")


def _counts(value: Any, what: str) -> dict[Any, Any]:
    """A part of a deck given in Python: a mapping of card names to counts."""
    if not isinstance(value, dict):
        raise DeckError(f"{what} of a deck is a mapping of card names to counts, not {value!r}")
    return dict(value)


def _read(source: Any, rules, marks=None, file: str | None = None
          ) -> tuple[str, str, dict[str, int], Any, dict[str, dict[str, int]]]:
    """(deck name, file, counts, marks-or-None, other sections' counts). A mapping written
    inside another file (a scenario's deck) may come with its marks and that file's name."""
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
        cards = _counts(source.get("cards", source), "the cards")
        others = {k: dict(v) for k, v in source.items() if isinstance(v, dict) and k != "cards"}
        if marks is not None:
            _check_format(source, marks, Path(file or "<deck>"), rules)
        return str(source.get("name", "deck")), file or "<deck>", cards, marks, others
    if isinstance(source, (list, tuple)):
        counts: dict[str, int] = {}
        for name in source:
            if not isinstance(name, str):
                raise DeckError(f"a deck list holds card names, not {name!r}")
            counts[name] = counts.get(name, 0) + 1
        return "deck", "<deck>", counts, None, {}
    raise DeckError(f"a deck is a file, a mapping of card names to counts or a list of names, not {source!r}")


def load_deck(source: Any, rules, seat: int = 1, marks=None, file: str | None = None) -> Deck:
    """Read a deck and check it against the deck rules: every name, count and size is checked
    before the list of cards is made. A mapping may come with the marks of the file it is
    written in (and that file's name): its errors are then located there."""
    name, file, counts, marks, others = _read(source, rules, marks, file)

    def where(card: str | None = None, part: str = "cards", key: bool = False) -> Span | None:
        """Where a part, a card's name (key=True) or its count is in the deck file."""
        if marks is None:
            return None
        try:
            return marks.span((part, card) if card else (part,), key=key)
        except (KeyError, IndexError, TypeError):
            return None

    rule = rules.ruleset.decks
    declared = {sec.name: sec for sec in (rule.sections if rule is not None else ())}
    for part in others:
        if part not in declared:
            raise DeckError(f"deck {name!r} ({file}) has a part {part!r} that {rules.name} decks do not have"
                            f"{did_you_mean(part, declared)}", where(part=part))
    deck = _DeckCheck(rules, name, file, where)
    deck.main(counts, rule)
    parts = {sec.name: others.get(sec.name, {}) for sec in declared.values()}
    for sec in declared.values():
        deck.section(sec, parts[sec.name])
    deck.copies(rule, {"cards": counts, **parts})
    cards = _names(counts)
    sections = [(sec.name, tuple(_names(parts[sec.name]))) for sec in declared.values()]
    if rule is not None and rule.cover is not None:
        _check_cover(rules, name, file, cards, dict(sections), rule.cover, where)
    return Deck(name, file, tuple(cards), tuple(sections))


def _names(counts: dict[str, int]) -> list[str]:
    """One name per copy, in list order (counts already checked)."""
    cards: list[str] = []
    for card, count in counts.items():
        cards.extend([card] * count)
    return cards


def _values(value: Any) -> list:
    return list(value) if isinstance(value, (list, tuple)) else ([] if value in (None, "") else [value])


class _DeckCheck:
    """The checks of one deck's parts, on their counts alone (nothing is built here)."""

    def __init__(self, rules, name: str, file: str, where) -> None:
        self.rules = rules
        self.head = f"deck {name!r} ({file})"
        self.name = name
        self.file = file
        self.where = where

    def entry(self, card: Any, count: Any, part: str, allowed: tuple[str, ...] | None) -> None:
        """One card of a part: a card of the ruleset (not a token, in any part), a count in
        1..MAX_COPIES, a type the part may hold."""
        rules = self.rules
        head = self.head if part == "cards" else f"{self.head}, {part}"
        defn = rules.card_defs.get(card) if isinstance(card, str) else None
        if defn is not None and defn.token:
            self.token(card, defn, head, part)
        if defn is None:
            what = (f"no card named {card!r}{did_you_mean(card, self.deckable())}" if isinstance(card, str)
                    else f"a card name is text, not {card!r}")
            raise DeckError(f"{head}: {what}", self.where(card, part, key=True))
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            raise DeckError(f"{head}: the count of {card!r} must be a whole number ≥ 1, not {count!r}",
                            self.where(card, part))
        if count > MAX_COPIES:
            raise DeckError(f"{head}: {count} copies of {card!r}; no deck holds more than {MAX_COPIES} copies "
                            f"of a card", self.where(card, part))
        if allowed is not None and not set(self.lineage(defn.type)) & set(allowed):
            where = "decks" if part == "cards" else "this part"
            raise DeckError(f"{head}: {card!r} is a {defn.type}, which {where} may not hold "
                            f"(allowed: {', '.join(allowed)})", self.where(card, part, key=True))

    def lineage(self, type_name: str) -> tuple[str, ...]:
        """The card type and those it extends: a deck that may hold a type may hold its subtypes."""
        ctype = self.rules.ruleset.card_types.get(type_name)
        return (ctype.lineage if ctype is not None else ()) or (type_name,)

    def token(self, card: str, defn, head: str, part: str) -> NoReturn:
        """Refuse a token in any part of a deck: the rules make tokens during a game."""
        ctype = self.rules.ruleset.card_types.get(defn.type)
        why = f"card type {defn.type!r} has token: true" if ctype is not None and ctype.token else "it says token = true"
        raise DeckError(f"{head}: {card!r} is a token ({why}): tokens are "
                        "made by the rules during a game and cannot be in a deck", self.where(card, part, key=True),
                        hint=f"remove {card!r} from the deck")

    def deckable(self) -> list[str]:
        """The names a deck may hold, for did-you-mean: the cards that are not tokens."""
        return [name for name, defn in self.rules.card_defs.items() if not defn.token]

    def main(self, counts: dict, rule) -> None:
        """The main deck's cards, then its size."""
        allowed = rule.allowed_types if rule is not None else None
        for card, count in counts.items():
            self.entry(card, count, "cards", allowed)
            if rule is not None and rule.max_copies is not None:
                self.at_most(card, count, rule.max_copies, "cards")
        if rule is None:
            return
        size = sum(counts.values())
        if rule.size is not None and size != rule.size:
            raise DeckError(f"{self.head} has {size} cards; {self.rules.name} decks have exactly "
                            f"{rule.size}", self.where())
        if rule.min_size is not None and size < rule.min_size:
            raise DeckError(f"{self.head} has {size} cards; {self.rules.name} decks need at least "
                            f"{rule.min_size}", self.where())

    def section(self, sec, counts: dict) -> None:
        """Another part of the deck: its cards, its size and its counts of attribute values."""
        rules, part = self.rules, sec.name
        for card, count in counts.items():
            self.entry(card, count, part, sec.allowed_types)
        size = sum(counts.values())
        if sec.size is not None and size != sec.size:
            raise DeckError(f"{self.head} has {size} cards in {part}; {rules.name} decks have "
                            f"exactly {sec.size} there", self.where(part=part))
        if sec.min_size is not None and size < sec.min_size:
            raise DeckError(f"{self.head} has {size} cards in {part}; {rules.name} decks need at "
                            f"least {sec.min_size} there", self.where(part=part))
        for attribute, value, want in sec.counts:
            have = sum(n for c, n in counts.items() if value in _values(rules.card_defs[c].initial.get(attribute)))
            if have != want:
                raise DeckError(f"{self.head} has {have} cards with {attribute} {value!r} in {part}; "
                                f"{rules.name} decks have {want}", self.where(part=part))

    def at_most(self, card: str, count: int, attribute: str, part: str) -> None:
        """At most as many copies as the card's max_copies attribute says."""
        limit = self.rules.card_defs[card].initial.get(attribute)
        if isinstance(limit, int) and not isinstance(limit, bool) and count > limit:
            head = self.head if part == "cards" else f"{self.head}, {part}"
            raise DeckError(f"{head}: {count} copies of {card!r}, but at most {limit} are allowed",
                            self.where(card, part))

    def copies(self, rule, parts: dict[str, dict]) -> None:
        """max_copies holds for the whole deck: the other parts' cards too, and a card in two
        parts counts its copies in both."""
        if rule is None or rule.max_copies is None:
            return
        total: dict[str, int] = {}
        last: dict[str, str] = {}
        for part, counts in parts.items():
            for card, count in counts.items():
                total[card] = total.get(card, 0) + count
                last[card] = part
        for card, count in total.items():
            self.at_most(card, count, rule.max_copies, last[card])


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
                            f"which no card of its {cover.section} has ({cover.by}: {have})", where(card, key=True))


def unknown(name: str, known) -> str:
    return f"{name!r}{did_you_mean(name, known)}"
