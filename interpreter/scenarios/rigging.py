"""Rigged shuffles: `given: {setup: run}` runs the ruleset's own set-up with decks or shared zones
in a stated order, so that dealing, mulligans and the first draws can be tested; `given:
{shuffles: [...]}` (with the set-up or an arranged position) states the order of a zone after a
later shuffle of it (its n-th), so that later hands and reshuffles can be tested.

A stated order is the zone's order after that shuffle: the cards named come first, in that order
(position 1 first), the others after them as the shuffle left them. A deck's order (under
`decks:`, by seat) names cards of that player's deck (the scenario's `decks:`, else the ruleset's
default), so it is checked as that deck: each name a card of the ruleset, no more copies than
the deck holds. A shared zone's order (under `zones:`), or any order under `shuffles:`, names
cards of the ruleset. Each error is at its place in the scenario file; a zone that holds no card
named when it is shuffled is an error at the name; an order whose shuffle never came, a failure.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..engine.state import GameState
from ..errors import RulesError, did_you_mean
from ..lang.runtime import Frame
from ..lang.values import ZoneKey
from ..rules.decks import Deck

RUN = "run"
ALLOWED = ("setup", "decks", "zones", "shuffles", "description")  # what `given` may say with `setup: run`


@dataclass
class Rig:
    """One zone's stated order after its `nth` shuffle; `used` once that shuffle came. `listed`:
    stated under `shuffles:` (checked once the steps are over), else the set-up's."""

    key: ZoneKey
    names: list[str]
    path: tuple
    used: bool = False
    nth: int = 1
    listed: bool = False
    shuffled: int = 0  # how many times its zone was shuffled so far

    def zone_said(self) -> str:
        return f"P{self.key.seat}'s zone {self.key.name}" if self.key.seat else f"zone {self.key.name}"

    def said(self) -> str:
        return f"{self.zone_said()}, shuffle {self.nth}"


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
    return rigs + shuffle_rigs(rules, given, marks, rigs)


def shuffle_rigs(rules, given: dict, marks, earlier: list[Rig] = ()) -> list[Rig]:
    """The orders stated under `given.shuffles` ({zone, player?, shuffle: N, order: [names]}),
    checked: a zone without rows, a player for a zone of each player (none for a shared one), card
    names of the ruleset, each shuffle of a zone stated once."""
    rigs: list[Rig] = []
    for i, entry in enumerate(given.get("shuffles") or []):
        path = ("given", "shuffles", i)
        zone = entry["zone"]
        spec = rules.zones.get(zone)
        if spec is None or spec.rows:
            plain = [z for z, s in rules.zones.items() if not s.rows]
            raise RulesError(f"no zone {zone!r} without rows to put in order{did_you_mean(zone, plain)}",
                             marks.span((*path, "zone")))
        seat = 0
        if spec.per_player:
            if "player" not in entry:
                raise RulesError(f"zone {zone!r} belongs to each player: say whose (player: 1..{rules.player_count})",
                                 marks.span(path))
            seat = player_of_seat(rules, entry["player"], marks.span((*path, "player")))
        elif "player" in entry:
            raise RulesError(f"zone {zone!r} is shared: it has no player", marks.span((*path, "player"), key=True))
        for j, name in enumerate(entry["order"]):
            if name not in rules.card_defs:
                raise RulesError(rules.unknown_card(str(name)), marks.span((*path, "order", j)))
        rig = Rig(ZoneKey(zone, seat, ""), list(entry["order"]), path, nth=int(entry["shuffle"]), listed=True)
        twin = next((r for r in (*earlier, *rigs) if r.key == rig.key and r.nth == rig.nth), None)
        if twin is not None:
            raise RulesError(f"the order of {rig.said()} is stated twice: here and at "
                             f"{marks.span(twin.path, key=True)}", marks.span((*path, "shuffle")))
        rigs.append(rig)
    return rigs


def player_of_seat(rules, raw, span) -> int:
    digits = str(raw)[1:] if str(raw)[:1] in ("P", "p") else str(raw)
    if not digits.isdigit() or not 1 <= int(digits) <= rules.player_count:
        raise RulesError(f"{raw!r} is not a player (use 1..{rules.player_count})", span)
    return int(digits)


def arrange(game: GameState, rig: Rig, marks) -> None:
    """Put the named cards of the zone first, in their order; the others keep theirs."""
    cards = game.zones[rig.key]
    rest = list(cards)
    first = []
    for i, name in enumerate(rig.names):
        found = next((card for card in rest if card.defn.name == name), None)
        if found is None:
            when = f"at its shuffle {rig.nth}" if rig.listed else "when the set-up shuffles it"
            zone = rig.zone_said() if rig.listed else f"zone {rig.key.name}"
            raise RulesError(f"{zone} holds no {'more ' if i else ''}{name!r} {when} ({len(cards)} cards)",
                             marks.span((*rig.path, "order", i) if rig.listed else (*rig.path, i)))
        rest.remove(found)
        first.append(found)
    cards[:] = first + rest


def rig_shuffles(game: GameState, rigs: list[Rig], marks) -> None:
    """Count the shuffles of each zone from now on, and put each stated order in place right
    after the shuffle it is stated for."""
    counts: dict[ZoneKey, int] = {}

    def after_shuffle(game: GameState, key: ZoneKey) -> None:
        n = counts[key] = counts.get(key, 0) + 1
        for rig in rigs:
            if rig.key == key:
                rig.shuffled = n
                if rig.nth == n:
                    rig.used = True
                    arrange(game, rig, marks)

    game.after_shuffle = after_shuffle if rigs else None


def start_rigged(game: GameState, rigs: list[Rig], marks) -> None:
    """Run the set-up from its start, each deck's stated order in place before it, and each order
    right after the shuffle of its zone it is stated for."""
    for rig in rigs:
        if rig.key.seat and not rig.listed:  # (a deck is there before the set-up: a set-up that never shuffles keeps it)
            arrange(game, rig, marks)
    rig_shuffles(game, rigs, marks)
    game.start(Frame(game.rules.main, {}))


def unused(rigs: list[Rig], marks, listed: bool = False) -> list[str]:
    """Failures for the stated orders whose shuffle never came: the set-up's shared zones (after
    the set-up), or, `listed`, those under `shuffles:` (once the steps are over)."""
    if listed:
        return [f"given.shuffles[{rig.path[-1]}]: {rig.zone_said()} was shuffled {rig.shuffled} time"
                f"{'' if rig.shuffled == 1 else 's'}, so its order for shuffle {rig.nth} was not used "
                f"({marks.span(rig.path)})" for rig in rigs if rig.listed and not rig.used]
    return [f"given.zones.{rig.key.name}: the set-up never shuffled zone {rig.key.name}, so its order was "
            f"not used ({marks.span(rig.path, key=True)})"
            for rig in rigs if not rig.key.seat and not rig.used and not rig.listed]
