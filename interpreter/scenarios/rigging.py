"""`given: {setup: run}`: the ruleset's own set-up runs, with decks or shared zones in a stated
order, so that dealing, mulligans and the first draws can be tested.

A stated order is the zone's order after its first shuffle: the cards named come first, in that
order (position 1 first), the others after them as the shuffle left them. A deck's order (under
`decks:`, by seat) names cards of that player's deck (the scenario's `decks:`, else the ruleset's
default), so it is checked as that deck: each name a card of the ruleset, no more copies than
the deck holds. A shared zone's order (under `zones:`) names cards of the ruleset. Each error is
at the name in the scenario file.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..engine.game import Game
from ..errors import RulesError, did_you_mean
from ..lang.runtime import Frame
from ..lang.values import ZoneKey
from ..rules.decks import Deck

RUN = "run"
ALLOWED = ("setup", "decks", "zones", "description")  # what `given` may say with `setup: run`


@dataclass
class Rig:
    """One zone's stated order; `used` once the set-up has shuffled that zone."""

    key: ZoneKey
    names: list[str]
    path: tuple
    used: bool = False


def rigs_for(rules, given: dict, decks: list[Deck], marks) -> list[Rig]:
    """The stated orders of `given` (with `setup: run`), checked."""
    for key in given:
        if key not in ALLOWED:
            raise RulesError(f"with setup: run the set-up makes the position: {key!r} cannot be given "
                             "(give the order of decks under decks:, of shared zones under zones:)",
                             marks.span(("given", key), key=True))
    rigs = []
    deck_rules = rules.ruleset.decks
    for seat_raw, names in (given.get("decks") or {}).items():
        path = ("given", "decks", seat_raw)
        if deck_rules is None:
            raise RulesError(f"{rules.name} has no decks to put in order", marks.span(path, key=True))
        seat = player_of_seat(rules, seat_raw, marks.span(path, key=True))
        if not decks:
            raise RulesError(f"{rules.name} has no default decks: give the decks under decks: (top level)",
                             marks.span(path, key=True))
        deck = decks[seat - 1]
        have = Counter(deck.cards)
        for i, name in enumerate(names):
            if name not in rules.card_defs:
                raise RulesError(rules.unknown_card(str(name)), marks.span((*path, i)))
            have[name] -= 1
            if have[name] < 0:
                held = Counter(deck.cards)[name]
                raise RulesError(f"P{seat}'s deck {deck.name!r} holds {held} {name!r}: this order names more",
                                 marks.span((*path, i)), hint=f"the deck is {deck.file}")
        rigs.append(Rig(ZoneKey(deck_rules.zone, seat, ""), list(names), path))
    for zone, names in (given.get("zones") or {}).items():
        path = ("given", "zones", zone)
        spec = rules.zones.get(zone)
        if spec is None or spec.per_player or spec.rows:
            shared = [z for z, s in rules.zones.items() if not s.per_player and not s.rows]
            raise RulesError(f"no shared zone {zone!r} without rows to put in order{did_you_mean(zone, shared)}",
                             marks.span(path, key=True))
        for i, name in enumerate(names):
            if name not in rules.card_defs:
                raise RulesError(rules.unknown_card(str(name)), marks.span((*path, i)))
        rigs.append(Rig(ZoneKey(zone, 0, ""), list(names), path))
    return rigs


def player_of_seat(rules, raw, span) -> int:
    digits = str(raw)[1:] if str(raw)[:1] in ("P", "p") else str(raw)
    if not digits.isdigit() or not 1 <= int(digits) <= rules.player_count:
        raise RulesError(f"{raw!r} is not a player (use 1..{rules.player_count})", span)
    return int(digits)


def arrange(game: Game, rig: Rig, marks) -> None:
    """Put the named cards of the zone first, in their order; the others keep theirs."""
    cards = game.zones[rig.key]
    rest = list(cards)
    first = []
    for i, name in enumerate(rig.names):
        found = next((card for card in rest if card.defn.name == name), None)
        if found is None:
            raise RulesError(f"zone {rig.key.name} holds no {'more ' if i else ''}{name!r} when the set-up "
                             f"shuffles it ({len(cards)} cards)", marks.span((*rig.path, i)))
        rest.remove(found)
        first.append(found)
    cards[:] = first + rest


def start_rigged(game: Game, rigs: list[Rig], marks) -> None:
    """Run the set-up from its start, each stated order in place before it and again right after
    the first shuffle of its zone."""
    for rig in rigs:
        if rig.key.seat:  # (a deck is there before the set-up: a set-up that never shuffles keeps it)
            arrange(game, rig, marks)

    def after_shuffle(game: Game, key: ZoneKey) -> None:
        for rig in rigs:
            if rig.key == key and not rig.used:
                rig.used = True
                arrange(game, rig, marks)

    game.after_shuffle = after_shuffle
    game.start(Frame(game.rules.main, {}))


def unused(rigs: list[Rig], marks) -> list[str]:
    """Failures for the shared zones whose order the set-up never used (it never shuffled them)."""
    return [f"given.zones.{rig.key.name}: the set-up never shuffled zone {rig.key.name}, so its order was "
            f"not used ({marks.span(rig.path, key=True)})" for rig in rigs if not rig.key.seat and not rig.used]
