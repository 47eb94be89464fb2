"""A fixed observation encoding for a ruleset (docs/envs.md "Observations"): one vector of numbers
per observation, the same layout in every state, generated from the ruleset's declarations: the
encoding of `game.observation(player)` (with the player's own partial choice), so nothing hidden
from the player can leak into it. This module is the layout (what each index means) and the
reference encoder of an observation dict (`encode_from_observation`); the adapters fill the same
vector straight from the game's state (`encode_state_into`: the engine's reader, engine/encode.py,
which applies observe.py's visibility rules without building the dict), bit for bit the same
(tests/test_envs_state_encoding.py).

Seats are relative to the viewer (0 = the viewer, k = the k-th next player). The layout, in order:
1. zones: for each zone (per player: once per seat; shared: once; each row of a zone with rows
   apart), its size and the count of each card name seen in it (a hidden zone: its revealed and
   known cards);
2. card slots: for each of those zones, fixed slots (16 by default, 8 for a zone of visibility
   `hidden`; `slots={zone: N}` sets them),
   one per card seen there in its order (a hidden zone: revealed cards, then known ones; cards
   past the last slot are only counted in 1.): present, position (1-based, 0 for a known card
   whose place is not known), name and type one-hot, the part of the viewer's choice in progress
   it was taken as (0: not taken), whether it is revealed, its controller when not its owner
   (one-hot seat), the card it is attached to, its part, then every attribute the card types
   declare (`Value` below);
3. players: each seat's attributes the viewer may see;
4. globals: the ruleset's globals, the turn, the phase one-hot and the active player;
5. the decision: whether the viewer decides, whether the game is over, the site one-hot, the
   number of options (the viewer's decision), and the viewer's choice in progress: its parts
   taken, the players and plain values taken (cards taken are marked in their slots);
6. events: the latest `events` events the viewer witnessed (the ruleset's `observation: {seen}`
   window, at most 8 by default), newest first: present, witnessed since the viewer's last
   decision, the event one-hot, the players in it, the names of the cards in it, its first
   whole-number argument.

A value is a number (int, bool: 0/1, none: 0), a one-hot over a vocabulary (a text: the declared
`values:`, else the values the card definitions give it, else every declared `values:` of the
ruleset, else the texts written in its code; then one "another text" entry; none and "" are all
zeros; a player: one entry per seat), a card as (it is set, the 1-based number of its slot in 2., 0 if it has none), a
list as its length and a multi-hot of the texts in it, an ability as set or not.
"""

from __future__ import annotations

from collections.abc import Iterable, MutableSequence
from typing import Any

from ..compile.sites import literal_values
from ..lang.values import AbilityRef, CardRef, PlayerRef

DEFAULT_SLOTS = 16  # per zone: in 30 random games of each shipped game only piles (discards) held more
HIDDEN_SLOTS = 8  # per hidden zone, whose slots hold only the cards revealed or known in it
DEFAULT_EVENTS = 8


class Value:
    """How one declared value is encoded: its kind, its vocabulary, its width."""

    __slots__ = ("name", "kind", "vocab", "index", "width")

    def __init__(self, name: str, kind: str, vocab: Iterable[Any] = ()) -> None:
        self.name = name
        self.kind = kind  # number, text, player, card, list, ability
        self.vocab = list(vocab)
        self.index = {v: i for i, v in enumerate(self.vocab)}
        self.width = {"number": 1, "text": len(self.vocab) + 1, "card": 2, "list": 1 + len(self.vocab),
                      "ability": 1}.get(kind, len(self.vocab))

    def labels(self) -> list[str]:
        if self.kind == "number":
            return [self.name]
        if self.kind == "text":
            return [f"{self.name} = {v!r}" for v in self.vocab] + [f"{self.name}: another text"]
        if self.kind == "player":
            return [f"{self.name} is seat +{k}" for k in range(len(self.vocab))]
        if self.kind == "card":
            return [f"{self.name} is set", f"{self.name}: slot number of that card"]
        if self.kind == "list":
            return [f"{self.name}: length"] + [f"{self.name} holds {v!r}" for v in self.vocab]
        return [f"{self.name} is set"]

    def write(self, out: MutableSequence, at: int, value: Any, ctx: _Context) -> None:
        if value is None:
            return
        kind = self.kind
        if kind == "number":
            if value is True:
                out[at] = 1.0
            elif type(value) is int or type(value) is float:
                out[at] = float(value)
        elif kind == "text":
            if value != "":
                out[at + self.index.get(value, len(self.vocab))] = 1.0
        elif kind == "player":
            if type(value) is str and value[:1] == "P":
                out[at + (int(value[1:]) - ctx.viewer) % ctx.players] = 1.0
        elif kind == "card":
            if isinstance(value, dict):
                out[at] = 1.0
                out[at + 1] = float(ctx.slot_of.get(value.get("card"), 0))
        elif kind == "list":
            if isinstance(value, list):
                out[at] = float(len(value))
                for v in value:
                    i = self.index.get(v) if type(v) is str else None
                    if i is not None:
                        out[at + 1 + i] = 1.0
        else:
            out[at] = 1.0


class _Context:
    __slots__ = ("viewer", "players", "slot_of")

    def __init__(self, viewer: int, players: int) -> None:
        self.viewer = viewer
        self.players = players
        self.slot_of: dict[int, int] = {}


def _texts_of(values: Iterable[Any]) -> list[str]:
    out: set[str] = set()
    for v in values:
        if type(v) is str:
            out.add(v)
        elif isinstance(v, (list, tuple)):
            out.update(x for x in v if type(x) is str)
    out.discard("")  # (an empty text is no value: it is encoded as none)
    return sorted(out)


class ObservationEncoding:
    """The encoding of one ruleset (see the module). `size` entries; `describe(i)` names entry i."""

    def __init__(self, rules, slots: dict[str, int] | None = None, events: int | None = None) -> None:
        ruleset = rules.ruleset
        self.players = players = rules.player_count
        self.names = sorted(rules.card_defs)
        self.name_index = {name: i for i, name in enumerate(self.names)}
        self.types = sorted(ruleset.card_types)
        self.type_index = {t: i for i, t in enumerate(self.types)}
        unknown = sorted(set(slots or {}) - set(ruleset.zones))
        if unknown:
            raise ValueError(f"{', '.join(map(repr, unknown))} is not a zone of {rules.name} "
                             f"(its zones: {', '.join(ruleset.zones)})")
        self.slots = {name: max(0, int((slots or {}).get(name, HIDDEN_SLOTS if z.visibility == "hidden" else
                                                             DEFAULT_SLOTS))) for name, z in ruleset.zones.items()}
        self.event_count = max(0, min(rules.seen_count, DEFAULT_EVENTS if events is None else int(events)))
        defs = list(rules.card_defs.values())
        literals = literal_values(ruleset, self.names)
        declared_texts = sorted({v for spec in (*ruleset.globals.values(), *ruleset.player_attributes.values(),
                                                *(a for t in ruleset.card_types.values() for a in t.attributes.values()))
                                 for v in (spec.values or ())})
        seat = [f"+{k}" for k in range(players)]

        def value(spec, card_values: list | None = None) -> Value:
            if spec.type in ("int", "bool"):
                return Value(spec.name, "number")
            if spec.type == "text":
                vocab = spec.values or (_texts_of(card_values) if card_values else declared_texts) or \
                    [v for v in literals if type(v) is str]
                return Value(spec.name, "text", vocab)
            if spec.type == "player":
                return Value(spec.name, "player", seat)
            if spec.type == "list":
                return Value(spec.name, "list", _texts_of(card_values or ()))
            return Value(spec.name, spec.type if spec.type in ("card", "ability") else "number")

        attributes: dict[str, Value] = {}
        for type_name in self.types:
            for name, spec in ruleset.card_types[type_name].attributes.items():
                if name not in attributes:
                    attributes[name] = value(spec, [d.initial.get(name) for d in defs if name in d.initial])
        self.card_values = [attributes[n] for n in sorted(attributes)]
        parts = sorted({p for d in defs for p in (d.parts or {})})
        self.fixed_values = [Value("controller", "player", seat), Value("attached_to", "card"), Value("part", "text", parts)]
        self.player_values = [value(spec) for name, spec in sorted(ruleset.player_attributes.items())
                              if spec.visibility != "hidden"]
        self.global_values = [value(spec) for name, spec in sorted(ruleset.globals.items())]
        self.active = Value("active player", "player", seat)
        self.phases = ["", *dict.fromkeys(p.name for _where, p in ruleset.steps() if p.name)]
        self.phase_index = {p: i for i, p in enumerate(self.phases)}
        self.site_count = len(rules.decision_sites) + 1
        self.literals = list(literals)
        self.literal_index = {(type(v).__name__, v): i for i, v in enumerate(self.literals)}
        self.event_names = list(ruleset.events)
        self.event_index = {e: i for i, e in enumerate(self.event_names)}

        self.labels: list[str] = []
        add = self.labels.extend
        self.zones: list[tuple[str, str, int | None]] = []  # (zone, row, relation or None if shared)
        for zone in ruleset.zones.values():
            for row in zone.rows or ("",):
                for relation in (range(players) if zone.per_player else (None,)):
                    self.zones.append((zone.name, row, relation))
        self.zone_index = {z: i for i, z in enumerate(self.zones)}
        self.zone_width = 1 + len(self.names)
        for z in self.zones:
            where = _where(z)
            add([f"{where}: size", *(f"{where}: count of {n}" for n in self.names)])
        self.slots_at = len(self.labels)
        self.slot_width = 4 + len(self.names) + len(self.types) + sum(v.width for v in self.fixed_values) + \
            sum(v.width for v in self.card_values)
        self.slot_base: list[int] = []  # per zone instance: the index of its first slot's number
        number = 0
        for z in self.zones:
            self.slot_base.append(number)
            for k in range(self.slots[z[0]]):
                head = f"slot {number + k + 1} ({_where(z)} #{k + 1})"
                add([f"{head}: present", f"{head}: position"])
                add(f"{head}: name {n}" for n in self.names)
                add(f"{head}: type {t}" for t in self.types)
                add([f"{head}: taken as part N of the viewer's choice in progress",
                     f"{head}: revealed (in a zone the viewer may not see)"])
                for v in (*self.fixed_values, *self.card_values):
                    add(f"{head}: {label}" for label in v.labels())
            number += self.slots[z[0]]
        self.slot_count = number
        self.taken_at = 2 + len(self.names) + len(self.types)
        self.card_layout: dict[str, tuple[int, Value | None]] = {}  # card key -> (offset in a slot, how)
        offset = self.taken_at + 2
        for v in (*self.fixed_values, *self.card_values):
            self.card_layout.setdefault(v.name, (offset, None if v.kind == "number" else v))
            offset += v.width
        self.players_at = len(self.labels)
        self.player_width = sum(v.width for v in self.player_values)
        for relation in range(players):
            for v in self.player_values:
                add(f"player seat +{relation}: {label}" for label in v.labels())
        self.globals_at = len(self.labels)
        for v in self.global_values:
            add(f"global {label}" for label in v.labels())
        add(["turn", *(f"phase {p or '(set-up)'}" for p in self.phases)])
        add(f"global {label}" for label in self.active.labels())
        self.decision_at = len(self.labels)
        add(["the viewer decides", "the game is over", *(f"decision site {i}" for i in range(self.site_count)),
             "the viewer's number of options", "choice in progress: parts taken",
             *(f"choice in progress: took player seat +{k}" for k in range(players)),
             *(f"choice in progress: took value {v!r}" for v in self.literals),
             "choice in progress: took another value"])
        self.events_at = len(self.labels)
        self.event_width = 3 + len(self.event_names) + players + len(self.names)
        for k in range(self.event_count):
            head = f"event {k + 1} (newest first)"
            add([f"{head}: present", f"{head}: witnessed since the viewer's last decision",
                 *(f"{head}: {e}" for e in self.event_names), *(f"{head}: involves seat +{r}" for r in range(players)),
                 *(f"{head}: involves a {n}" for n in self.names), f"{head}: first whole-number argument"])
        self.size = len(self.labels)

    # ------------------------------------------------------------------ encoding
    def encode_game(self, game, seat: int, choosing: Iterable[Any] = (), fresh: int | None = None) -> list[float]:
        """The vector of `seat`'s observation of the game now, as a list of floats, read from the
        state (see `encode_state_into`). `choosing`: the elements the viewer has taken so far in
        the choice they are making (values of the options: cards, players, plain values);
        `fresh`: how many of the newest events of their `seen` window they witnessed since their
        last decision (None: all)."""
        out = [0.0] * self.size
        self.encode_state_into(game, seat, out, choosing, fresh)
        return out

    def encode_state_into(self, game, seat: int, out: MutableSequence, choosing: Iterable[Any] = (),
                          fresh: int | None = None) -> None:
        """`seat`'s vector written into `out` (a numpy array or a list of `size` zeros), filled
        straight from the game's state by the engine (`rules.observation_encoder`): no observation
        dict is built, and the vector is, bit for bit, `encode_from_observation` of
        `game.observation(seat)` (tests/test_envs_state_encoding.py)."""
        entries = game.rules.observation_encoder(self, seat).entries(game, choosing, fresh)
        if not entries:
            return
        put = getattr(out, "put", None)
        if put is not None:  # (a numpy array: one call)
            put(list(entries), list(entries.values()))
        else:
            for i, x in entries.items():
                out[i] = x

    def window(self, game, seat: int) -> list[tuple]:
        """The keys (`event_key`) of the events of `seat`'s `seen` window now, oldest first, read
        from the state: what `fresh_count` aligns with the window at their last decision."""
        return game.rules.observation_encoder(self, seat).window(game)

    def encode_from_observation(self, observation: dict, choosing: Iterable[Any] = (),
                                fresh: int | None = None) -> list[float]:
        """The vector of one observation (`game.observation(player)`), as a list of floats: the
        reference the state-read vector is checked against (the tests), and what encodes an
        observation that has no game behind it. `choosing` and `fresh` as `encode_game` takes them."""
        out = [0.0] * self.size
        self.encode_from_observation_into(observation, out, choosing, fresh)
        return out

    def encode_from_observation_into(self, observation: dict, out: MutableSequence, choosing: Iterable[Any] = (),
                                     fresh: int | None = None) -> None:
        """`encode_from_observation`, written into `out` (a list or a numpy array of `size` zeros)."""
        viewer = observation["viewer"]
        players = self.players
        ctx = _Context(viewer, players)
        placed: list[tuple[int, dict, int, bool]] = []  # (index of the slot's first entry, card, position, revealed)
        zone_width = self.zone_width
        names = self.name_index
        for owner, zones in observation["zones"].items():
            relation = None if owner == "shared" else (int(owner[1:]) - viewer) % players
            for label, content in zones.items():
                name, _, row = label.partition(".")
                at = self.zone_index.get((name, row, relation))
                if at is None:
                    continue
                base = at * zone_width
                if type(content) is list:
                    out[base] = float(len(content))
                    cards = content
                    positions = range(1, len(content) + 1)
                    revealed = False
                else:
                    out[base] = float(content["count"])
                    shown = content.get("revealed", [])
                    cards = shown + content.get("known", [])
                    positions = [c.get("position", 0) for c in shown] + [0] * (len(cards) - len(shown))
                    revealed = True
                room = self.slots[name]
                number = self.slot_base[at]
                for k, (card, position) in enumerate(zip(cards, positions)):
                    i = names.get(card.get("name"))
                    if i is not None:
                        out[base + 1 + i] += 1.0
                    if k < room:
                        ctx.slot_of[card["id"]] = number + k + 1
                        placed.append((self.slots_at + (number + k) * self.slot_width, card, position,
                                       revealed and k < len(content.get("revealed", ()))))
        taken: dict[int, int] = {}
        chose_players: list[int] = []
        chose_values: list[Any] = []
        parts = 0
        for element in choosing:
            parts += 1
            if type(element) is AbilityRef:
                element = element.card
            if type(element) is CardRef:
                taken.setdefault(element.id, parts)
            elif type(element) is PlayerRef:
                chose_players.append((element.seat - viewer) % players)
            else:
                chose_values.append(element)
        layout = self.card_layout
        head = 2 + len(names)
        for at, card, position, revealed in placed:
            out[at] = 1.0
            if position:
                out[at + 1] = float(position)
            i = names.get(card.get("name"))
            if i is not None:
                out[at + 2 + i] = 1.0
            t = self.type_index.get(card.get("type"))
            if t is not None:
                out[at + head + t] = 1.0
            if taken:
                out[at + self.taken_at] = float(taken.get(card["id"], 0))
            if revealed:
                out[at + self.taken_at + 1] = 1.0
            for key, x in card.items():
                entry = layout.get(key)
                if entry is None or x is None or x is False:
                    continue
                offset, v = entry
                if v is None:  # (a number: most attributes; a zero is the zero already there)
                    if x is True:
                        out[at + offset] = 1.0
                    elif x and (type(x) is int or type(x) is float):
                        out[at + offset] = float(x)
                else:
                    v.write(out, at + offset, x, ctx)
        for p in observation["players"]:
            at = self.players_at + ((p["seat"] - viewer) % players) * self.player_width
            for v in self.player_values:
                v.write(out, at, p.get(v.name), ctx)
                at += v.width
        values = observation["globals"]
        at = self.globals_at
        for v in self.global_values:
            v.write(out, at, values.get(v.name), ctx)
            at += v.width
        out[at] = float(observation.get("turn") or 0)
        phase = self.phase_index.get(observation.get("phase") or "")
        if phase is not None:
            out[at + 1 + phase] = 1.0
        self.active.write(out, at + 1 + len(self.phases), values.get("active"), ctx)
        at = self.decision_at
        decision = observation.get("decision")
        if decision is not None:
            mine = decision["player"] == viewer
            out[at] = 1.0 if mine else 0.0
            site = decision.get("site")
            out[at + 2 + (site if site is not None else self.site_count - 1)] = 1.0
            if mine:
                count = decision.get("option_count")
                out[at + 2 + self.site_count] = float(len(decision.get("options", ())) if count is None else count)
        out[at + 1] = 1.0 if observation.get("result") is not None else 0.0
        at += 3 + self.site_count
        out[at] = float(parts)
        for relation in chose_players:
            out[at + 1 + relation] = 1.0
        at += 1 + players
        for v in chose_values:
            i = self.literal_index.get((type(v).__name__, v))
            out[at + (len(self.literals) if i is None else i)] += 1.0
        self._encode_events(observation.get("seen") or [], out, ctx, fresh)

    def _encode_events(self, seen: list, out: MutableSequence, ctx: _Context, fresh: int | None) -> None:
        newest = seen[::-1][:self.event_count]
        fresh = len(seen) if fresh is None else fresh
        width = self.event_width
        events = len(self.event_names)
        for k, event in enumerate(newest):
            at = self.events_at + k * width
            out[at] = 1.0
            out[at + 1] = 1.0 if k < fresh else 0.0
            i = self.event_index.get(event.get("event"))
            if i is not None:
                out[at + 2 + i] = 1.0
            number = None
            for arg in event.get("args", {}).values():
                for v in (arg if isinstance(arg, list) else (arg,)):
                    if type(v) is str and v[:1] == "P" and v[1:].isdigit():
                        out[at + 2 + events + (int(v[1:]) - ctx.viewer) % ctx.players] = 1.0
                    elif isinstance(v, dict):
                        n = self.name_index.get(v.get("name"))
                        if n is not None:
                            out[at + 2 + events + ctx.players + n] = 1.0
                    elif number is None and type(v) is int:
                        number = v
            if number is not None:
                out[at + width - 1] = float(number)

    def describe(self, index: int) -> str:
        """What one entry of the vector is."""
        if not 0 <= index < self.size:
            return f"no entry {index} (the encoding has {self.size})"
        return self.labels[index]

    def sections(self) -> list[tuple[str, int, int]]:
        """The parts of the layout: (what, first index, one past the last)."""
        return [("zones: sizes and counts of names", 0, self.slots_at),
                (f"card slots ({self.slot_count} of {self.slot_width} entries)", self.slots_at, self.players_at),
                ("players' attributes", self.players_at, self.globals_at),
                ("globals, turn, phase, active player", self.globals_at, self.decision_at),
                ("the decision and the choice in progress", self.decision_at, self.events_at),
                (f"the latest {self.event_count} events witnessed", self.events_at, self.size)]


def event_key(event: dict) -> tuple:
    """What two windows of `seen` are aligned by: the event and its plain arguments, by name (a
    card's masking can change between two looks at the same event; a window read back from
    canonical JSON has its arguments in another order than one read from the game)."""
    args = event.get("args") or {}
    return (event.get("event"), tuple(sorted((k, v) for k, v in args.items() if v is None or type(v) in (int, str, bool))))


def fresh_count(before: list | None, now: list) -> int:
    """How many of the newest events of the window `now` came after the window `before` (the
    viewer's `seen` at their last decision; None: they have not decided yet, all are new): the
    longest overlap of the end of `before` with the start of `now`. Exact but where the window
    was full at both looks and repeats the same events (then it can say too few)."""
    if before is None:
        return len(now)
    return fresh_from_keys([event_key(e) for e in before], [event_key(e) for e in now])


def fresh_from_keys(old: list | None, new: list) -> int:
    """`fresh_count` of two windows given by their events' keys (`event_key`, or
    `ObservationEncoding.window`)."""
    if old is None:
        return len(new)
    for overlap in range(min(len(old), len(new)), 0, -1):
        if old[len(old) - overlap:] == new[:overlap]:
            return len(new) - overlap
    return len(new)


def _where(zone: tuple[str, str, int | None]) -> str:
    name, row, relation = zone
    return f"{name}{'.' + row if row else ''} ({'shared' if relation is None else f'seat +{relation}'})"
