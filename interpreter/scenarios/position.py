"""An arranged `given`: the position a scenario states, built in an empty game, then started.

Cards go by name into zones (and rows) with their attributes and labels; player attributes and
game globals are set once every card exists (a value may name a labelled card); `rest_of_deck`
puts the rest of each player's deck in a zone. Every value is checked against the ruleset's
declared types and limits, and every error is located at the value in the scenario file.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..engine.state import GameState
from ..engine.state_fields import reset_caches
from ..errors import CardrulesError, RulesError, Span, did_you_mean
from ..lang.runtime import Frame
from ..lang.values import CardRef, PlayerRef, TeamRef, ZoneKey
from ..rules.decks import Deck
from .expectations import shown

# what a value given for an attribute of each declared type must be: (said as, test)
_ACCEPTED = {
    "int": ("a whole number", lambda v: type(v) is int),
    "bool": ("true or false", lambda v: type(v) is bool),
    "text": ("text", lambda v: type(v) is str),
    "list": ("a list", lambda v: type(v) is list),
    "player": ("a player (P1, P2, ...)", lambda v: v is None or type(v) is PlayerRef),
    "card": ("a card ($label of a card given here)", lambda v: v is None or type(v) is CardRef),
    "host": ("a card ($label) or a player (P1, ...)", lambda v: v is None or type(v) in (CardRef, PlayerRef)),
}


def player_of(game: GameState, value: Any, span: Span) -> PlayerRef:
    """The player a scenario names: 1, "1" or "P1"."""
    seat = value
    if isinstance(value, str) and value.upper().startswith("P") and value[1:].isdigit():
        seat = int(value[1:])
    if isinstance(seat, str) and seat.isdigit():
        seat = int(seat)
    if type(seat) is not int or not 1 <= seat <= len(game.players):
        raise RulesError(f"{value!r} is not a player (use 1..{len(game.players)} or P1..)", span)
    return game.players[seat - 1]


class Setter:
    """Builds the `given` position in an empty game."""

    def __init__(self, game: GameState, marks) -> None:
        self.game = game
        self.marks = marks
        self.labels: dict[str, CardRef] = {}
        self.pending_refs: list[tuple] = []

    def span(self, *path) -> Span:
        return self.marks.span(path)

    def player(self, value: Any, *path) -> PlayerRef:
        return player_of(self.game, value, self.span(*path))

    def value(self, raw: Any, *path) -> Any:
        """A value in `given`: '$label' is a card given elsewhere, 'P1' a player, lists recursively."""
        if isinstance(raw, list):
            return [self.value(v, *path, i) for i, v in enumerate(raw)]
        if isinstance(raw, str) and raw.startswith("$"):
            card = self.labels.get(raw[1:])
            if card is None:
                raise RulesError(f"no card labelled {raw!r} (give one with 'as: {raw[1:]}')"
                                 f"{did_you_mean(raw[1:], self.labels)}", self.span(*path))
            return card
        if isinstance(raw, str) and len(raw) >= 2 and raw[0] == "P" and raw[1:].isdigit():
            return self.player(raw, *path)
        return raw

    def zone(self, key: ZoneKey, entries: list, *path) -> None:
        rules = self.game.rules
        for card in list(self.game.zones[key]):
            self.game.delete(card)
        for i, entry in enumerate(entries):
            spec = entry if isinstance(entry, dict) else {"card": entry}
            name = spec.get("card")
            defn = rules.card_defs.get(name)
            if defn is None:
                raise RulesError(rules.unknown_card(str(name)), self.span(*path, i))
            owner = self.game.players[key.seat - 1] if key.seat else self.game.players[0]
            if "owner" in spec:
                owner = self.player(spec["owner"], *path, i, "owner")
            card = self.game.new_card(defn, key, owner)
            for attr, raw in spec.items():
                if attr in ("card", "owner"):
                    continue
                if attr == "as":
                    self.labels[str(raw)] = card
                    continue
                if attr == "revealed":  # shown to every player wherever it is (reveal(card))
                    if raw:
                        self.game.revealed.add(card.id)
                    continue
                self.pending_refs.append((card, attr, raw, (*path, i, attr)))

    def spec_of(self, obj: Any, attr: str) -> tuple[str, int | None, int | None, tuple | None] | None:
        """(type, min, max, values) declared for the attribute of a card, player or the game; None for
        one the ruleset does not declare (writing it reports that)."""
        rules = self.game.rules
        if type(obj) is CardRef:
            if attr in ("controller", "owner"):
                return ("player", None, None, None)
            if attr == "attached_to":
                return ("host", None, None, None)
            if attr == "part":
                return ("text", None, None, None)
            spec = rules.ruleset.card_types[obj.defn.type].attributes.get(attr)
        elif type(obj) is PlayerRef:
            spec = rules.ruleset.player_attributes.get(attr)
        elif type(obj) is TeamRef:
            spec = rules.ruleset.teams.attributes.get(attr)
        else:
            if attr == "active":
                return ("player", None, None, None)
            spec = rules.ruleset.globals.get(attr)
        return None if spec is None else (spec.type, spec.min, spec.max, spec.values)

    def check_value(self, obj: Any, attr: str, value: Any, path: tuple) -> None:
        """A value of the wrong type, outside the declared limits or not one of the declared
        values, is an error at its line."""
        spec = self.spec_of(obj, attr)
        if spec is None:
            return
        kind, lo, hi, values = spec
        accepted = _ACCEPTED.get(kind)
        if accepted is not None and not accepted[1](value):
            raise RulesError(f"{attr!r} takes {accepted[0]}, not {shown(value)!r}", self.span(*path))
        if kind == "int" and ((lo is not None and value < lo) or (hi is not None and value > hi)):
            bounds = " and ".join(x for x in (f"at least {lo}" if lo is not None else "",
                                              f"at most {hi}" if hi is not None else "") if x)
            raise RulesError(f"{attr!r} is {bounds}, not {value}", self.span(*path))
        if values is not None and value is not None and value not in values:
            raise RulesError(f"{attr!r} takes one of {', '.join(values)}, not {shown(value)!r}"
                             f"{did_you_mean(value, values)}", self.span(*path))

    def apply_refs(self) -> None:
        for obj, attr, raw, path in self.pending_refs:
            value = self.value(raw, *path)
            self.check_value(obj, attr, value, path)
            try:
                if attr == "attached_to":
                    self.game.attach(obj, value)
                else:
                    self.game.write(obj, attr, value)
            except CardrulesError as err:
                raise RulesError(f"cannot set {attr!r}: {err.message}", self.span(*path)) from None

    def rest_of_deck(self, raw: Any, decks: list[Deck] | None) -> None:
        """`rest_of_deck: ZONE` (every player) or {SEAT: ZONE}: each card of a player's deck that
        the position does not give them already goes to that zone of theirs, in deck order."""
        targets = raw if isinstance(raw, dict) else {p.seat: raw for p in self.game.players}
        for seat_raw, zone in targets.items():
            path = ("given", "rest_of_deck", seat_raw) if isinstance(raw, dict) else ("given", "rest_of_deck")
            player = self.player(seat_raw, *path)
            spec = self.game.rules.zones.get(zone)
            if spec is None or not spec.per_player or spec.rows:
                own = [z for z, s in self.game.rules.zones.items() if s.per_player and not s.rows]
                raise RulesError(f"no zone {zone!r} of a player to put the rest of the deck in"
                                 f"{did_you_mean(str(zone), own)}", self.span(*path))
            given = Counter(card.defn.name for key, cards in self.game.zones.items() if key.seat == player.seat
                            for card in cards)
            deck = decks[player.seat - 1] if decks else None
            for name in deck.cards if deck is not None else ():
                if given[name] > 0:
                    given[name] -= 1
                    continue
                self.game.new_card(self.game.rules.card_defs[name], ZoneKey(zone, player.seat, ""), player)


def build_given(game: GameState, given: dict, marks, decks: list[Deck] | None = None) -> Setter:
    """The arranged position of `given`, in `game` (made with empty decks)."""
    rules = game.rules
    setter = Setter(game, marks)
    turn = given.get("turn") or {}
    for key in ("active", "player"):  # a seat of the game (`start` sets it)
        if key in turn:
            setter.player(turn[key], "given", "turn", key)
    # zones first (cards get labels), then attributes that may refer to them
    for seat_raw, pdata in (given.get("players") or {}).items():
        player = setter.player(seat_raw, "given", "players", seat_raw)
        for key, raw in (pdata or {}).items():
            path = ("given", "players", seat_raw, key)
            if key in rules.zones:
                spec = rules.zones[key]
                if not spec.per_player:
                    raise RulesError(f"zone {key!r} is shared: give it under given.zones", setter.span(*path))
                if spec.rows:
                    if not isinstance(raw, dict):
                        raise RulesError(f"zone {key!r} has rows {list(spec.rows)}: give a mapping row -> cards",
                                         setter.span(*path))
                    for row, cards in raw.items():
                        if row not in spec.rows:
                            raise RulesError(f"zone {key!r} has no row {row!r}{did_you_mean(str(row), spec.rows)}",
                                             setter.span(*path, row))
                        setter.zone(ZoneKey(key, player.seat, row), cards or [], *path, row)
                else:
                    setter.zone(ZoneKey(key, player.seat, ""), raw or [], *path)
            elif key in rules.ruleset.player_attributes:
                setter.pending_refs.append((player, key, raw, path))
            else:
                known = [*rules.zones, *rules.ruleset.player_attributes]
                raise RulesError(f"{key!r} is neither a zone nor a player attribute{did_you_mean(key, known)}",
                                 setter.span(*path))
    for name, raw in (given.get("zones") or {}).items():
        path = ("given", "zones", name)
        spec = rules.zones.get(name)
        if spec is None or spec.per_player:
            raise RulesError(f"no shared zone {name!r}{did_you_mean(name, rules.zones)}", setter.span(*path))
        if spec.rows:
            for row, cards in raw.items():
                setter.zone(ZoneKey(name, 0, row), cards or [], *path, row)
        else:
            setter.zone(ZoneKey(name, 0, ""), raw or [], *path)
    if given.get("rest_of_deck") is not None:
        setter.rest_of_deck(given["rest_of_deck"], decks)
    for name, values in (given.get("teams") or {}).items():  # a team's attributes, by its name
        team = next((t for t in rules.team_refs if t.name == name), None)
        names = [t.name for t in rules.team_refs]
        if team is None:
            raise RulesError(f"no team {name!r}{did_you_mean(name, names)}" if names else
                             "the ruleset declares no teams", setter.span("given", "teams", name))
        for attr, raw in (values or {}).items():
            if attr not in rules.team_defaults:
                raise RulesError(f"teams have no attribute {attr!r}{did_you_mean(attr, rules.team_defaults)}",
                                 setter.span("given", "teams", name, attr))
            setter.pending_refs.append((team, attr, raw, ("given", "teams", name, attr)))
    for name, raw in (given.get("globals") or {}).items():
        known = {*rules.ruleset.globals, "active"}
        if name not in known:
            raise RulesError(f"no global {name!r}{did_you_mean(name, known)}", setter.span("given", "globals", name))
        setter.pending_refs.append((game.GAME, name, raw, ("given", "globals", name)))
    setter.apply_refs()
    reset_caches(game)  # (the position was set behind the runtime's back)
    return setter


def start(game: GameState, given: dict, marks) -> None:
    """Start the arranged game at the turn and phase given (by default, turn 1's start)."""
    rules = game.rules
    turn = given.get("turn") or {}
    phase = turn.get("phase")
    if phase is None:
        pc = rules.phase_pcs[""]  # the start of a turn
        game.globals["turn"] = int(turn.get("number", 1)) - 1
    else:
        if phase not in rules.phase_pcs or not phase:
            raise RulesError(f"{rules.name} has no phase {phase!r}{did_you_mean(phase, [p for p in rules.phase_pcs if p])}",
                             marks.span(("given", "turn", "phase")))
        pc = rules.phase_pcs[phase]
        game.globals["turn"] = int(turn.get("number", 1))
    for key in ("active", "player"):
        if key in turn:
            game.globals["active"] = player_of(game, turn[key], marks.span(("given", "turn", key)))
    frame = Frame(rules.main, {})
    frame.pc = pc
    game.start(frame)
