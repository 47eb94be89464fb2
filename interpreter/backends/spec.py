"""What a batch of games is, in a form any process can rebuild the rules from: the ruleset (a
shipped game's name or a path), its options, card overrides and deck replacements, the agents by
seat, each game's decks by seat (deck files; none: the ruleset's default decks), each game's cap
of decisions, and what each game should bring back (a full record, its log). Each worker process
loads the rules of a spec once (`rules_for`), and each set of decks once."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import CardrulesError, DeckError

# one card text of an override: (text, file, line, column of where it starts)
CardText = tuple[str, str, int, int]


@dataclass(frozen=True)
class BatchSpec:
    game: str
    options: tuple[tuple[str, Any], ...] = ()
    agents: tuple[str, ...] = ("random", "random")
    override: tuple[CardText, ...] = ()  # cards redefined (compare's variant side)
    replace: tuple[tuple[str, str], ...] = ()  # every copy of a card in the decks swapped for another
    records: bool = False  # bring back each game's full record (per-card figures), not only its result
    logs: bool = False  # bring back each game's JSON Lines log
    max_decisions: int | None = None  # each game's cap of decisions (None: the ruleset's)
    decks: tuple[str, ...] = ()  # deck files by seat (docs/balance.md "Decks and seats"); (): the defaults
    label: str = field(default="", compare=False)  # how the CLI names this side ("base", "variant")

    @staticmethod
    def of(game: str, options: dict | None = None, agents: list[str] | tuple[str, ...] = ("random", "random"),
           **kwargs: Any) -> BatchSpec:
        return BatchSpec(game, tuple(sorted((options or {}).items())), tuple(agents), **kwargs)

    @property
    def rules_key(self) -> tuple:
        return (self.game, self.options, self.override, self.replace, self.decks)


_LOADED: dict[tuple, tuple[Any, list | None]] = {}
_RULES: dict[tuple, Any] = {}  # the compiled rules by (game, options, override): shared by every set of decks


def rules_for(spec: BatchSpec) -> tuple[Any, list | None]:
    """The spec's compiled rules and its decks (None: the ruleset's defaults), loaded once per
    process. Raises CardrulesError (located) for a ruleset, override, replacement or deck that is wrong."""
    key = spec.rules_key
    found = _LOADED.get(key)
    if found is None:
        rules_key = (spec.game, spec.options, spec.override)
        rules = _RULES.get(rules_key)
        if rules is None:
            from ..engine.rules import Rules
            from ..rules.loader import load_ruleset

            rules = Rules(load_ruleset(spec.game, dict(spec.options), override_cards=list(spec.override)))
            if len(_RULES) > 4:
                _RULES.clear()
            _RULES[rules_key] = rules
        if spec.decks:
            decks = [rules.deck(file, seat) for seat, file in enumerate(spec.decks, start=1)]
            if spec.replace:
                decks = replaced_decks(rules, spec.replace, decks)
        else:
            decks = replaced_decks(rules, spec.replace) if spec.replace else None
        found = (rules, decks)
        if len(_LOADED) > 64:
            _LOADED.clear()
        _LOADED[key] = found
    return found


def deck_names(rules, decks: list | None) -> list[str] | None:
    """The name of each seat's deck (None: the ruleset deals no decks to the players)."""
    if decks is None:
        decks = rules.default_decks()
    if not decks or len(decks) != rules.player_count:
        return None
    return [d.name for d in decks]


def remember(spec: BatchSpec, rules, decks: list | None) -> None:
    """Rules already loaded in this process for a spec (a forked worker inherits them)."""
    _LOADED[spec.rules_key] = (rules, decks)


def replaced_decks(rules, replace: tuple[tuple[str, str], ...], decks: list | None = None) -> list:
    """The decks (default: the ruleset's) with every copy of each named card swapped for another,
    each deck checked again by the ruleset's deck rules."""
    decks = rules.default_decks() if decks is None else decks
    if not decks:
        raise DeckError(f"{rules.name} has no decks to replace cards in (its cards are dealt by its rules)")
    names = {c for d in decks for c in d.cards} | {c for d in decks for _s, cs in d.sections for c in cs}
    from ..errors import did_you_mean

    for old, new in replace:
        if old not in names:
            raise DeckError(f"--replace: no deck holds {old!r}{did_you_mean(old, sorted(names))}")
        if new not in rules.card_defs:
            raise DeckError(f"--replace: no card named {new!r}{did_you_mean(new, sorted(rules.card_defs))}")
    swap = dict(replace)
    out = []
    for seat, deck in enumerate(decks, start=1):
        counts: dict[str, int] = {}
        for name in deck.cards:
            counts[swap.get(name, name)] = counts.get(swap.get(name, name), 0) + 1
        source: dict[str, Any] = {"name": deck.name, "cards": counts}
        for section, cards in deck.sections:
            part: dict[str, int] = {}
            for name in cards:
                part[swap.get(name, name)] = part.get(swap.get(name, name), 0) + 1
            source[section] = part
        try:
            out.append(rules.deck(source, seat))
        except DeckError as err:
            raise DeckError(f"--replace {', '.join(f'{o}={n}' for o, n in replace)} breaks the deck rules: "
                            f"{err.message}") from None
    return out


class BackendError(CardrulesError):
    """A backend cannot run the batch: its extra is not installed, its cluster cannot be reached."""

    phase = "backend"
