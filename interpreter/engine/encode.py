"""A player's observation vector read straight from the game's state (`Rules.observation_encoder`).

The layout (what each index means) is envs/encoding.py's `ObservationEncoding`; this module fills
it without building `game.observation(viewer)` first, and gives, bit for bit, what encoding that
observation gives (tests/test_envs_state_encoding.py checks it over random games of every shipped
and test ruleset). So it applies exactly the visibility rules of engine/observe.py: a zone's cards
are read when `zone_shown` says the viewer sees them, else only its size, the cards revealed (to
all, or to the viewer) and those the viewer knows are there; player attributes of visibility
`owner` only for their owner; a card held in a value (an attribute, a global, an event's
argument) is named only where the card itself may be seen (`_visible_card`), anything unusual
being masked by observe.py's own `_masked` before it is written; events only those the viewer
witnessed; another player's private decision without its site.

What depends only on the ruleset and the viewer is worked out once, in `StateEncoder`: each
zone's place in the vector and whether the viewer sees it, each card definition's name, type and
attribute offsets, each player's attributes the viewer may see. Per call only the per-card work
is left. The result is sparse: {index: value} of the entries written (every other entry is 0),
which the caller puts into its preallocated array (envs/encoding.py `encode_state_into`).

The layout object is read through these attributes (all public in `ObservationEncoding`):
players, size, slots, zone_index, zone_width, slot_base, slots_at, slot_width, name_index,
type_index, taken_at, card_layout, players_at, player_width, player_values, globals_at,
global_values, phases, phase_index, active, decision_at, site_count, literals, literal_index,
events_at, event_width, event_names, event_index, event_count; a value (`Value`) through kind,
index, vocab.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any
from weakref import WeakKeyDictionary

from ..lang.values import (
    ATTACHED,
    CONTROLLER,
    KNOWN,
    OWNER,
    PART,
    SHOWN,
    SILENCED,
    AbilityRef,
    CardRef,
    Labelled,
    PlayerRef,
)
from .observe import _masked, _public, _visible_card, zone_shown

_PLAIN = (int, str, bool)


class _CardPlan:
    """What one card definition puts in a slot: its name and type entries, and its attributes'
    (name, where the card's row holds it, offset in the slot, how: None for a number, else the
    layout's `Value`)."""

    __slots__ = ("name", "type", "attributes")

    def __init__(self, defn, layout) -> None:
        self.name = layout.name_index.get(defn.name)
        self.type = layout.type_index.get(defn.type)
        self.attributes: list[tuple[str, int, int, Any]] = []
        for name, slot in defn.slots:
            entry = layout.card_layout.get(name)
            if entry is not None:
                self.attributes.append((name, slot, *entry))


class StateEncoder:
    """One ruleset's layout for one viewer (see the module): `entries(game, choosing, fresh)` is
    the vector of the viewer's observation, sparse; `window(game)` the keys of the events of
    their `seen` window (what envs/encoding.py's `fresh_count` aligns)."""

    def __init__(self, layout, rules, viewer: int) -> None:
        self.layout = layout
        self.rules = rules
        self.viewer = viewer
        self.players = players = layout.players
        self.cards: dict[int, tuple[Any, _CardPlan]] = {}  # id of a definition -> (it, its plan)
        self.zones: dict[tuple, tuple | None] = {}
        for key in rules.zone_keys:
            self.zones[key] = self._zone_plan(key)
        fixed = layout.card_layout
        self.part = fixed["part"]
        self.attached = fixed["attached_to"]
        self.controller = fixed["controller"]
        self.head = 2 + len(layout.name_index)
        self.static = frozenset(rules.statically_modified)
        self.always = frozenset({"silenced"} & set(fixed))  # (an attribute of that name: see `_modified`)
        self.seen_count = rules.seen_count
        self.keys: dict[int, tuple] = {}  # id of a cell of `game.seen` -> (it, its key): `_window`
        # per seat: [(name, value, its index)] of the attributes the viewer may see
        self.seats: list[list[tuple[str, Any, int]]] = []
        visibility = {name: spec.visibility for name, spec in rules.ruleset.player_attributes.items()}
        for seat in range(1, players + 1):
            at = layout.players_at + ((seat - viewer) % players) * layout.player_width
            shown = []
            for v in layout.player_values:
                seen = visibility.get(v.name)
                if seen != "hidden" and not (seen == "owner" and seat != viewer):
                    shown.append((v.name, v, at))
                at += v.width
            self.seats.append(shown)
        self.globals: list[tuple[str, Any, int]] = []
        at = layout.globals_at
        for v in layout.global_values:
            self.globals.append((v.name, v, at))
            at += v.width
        self.turn_at = at

    def _zone_plan(self, key: tuple) -> tuple | None:
        """(its size entry, whether the viewer sees its cards, its slots, the index of its first
        slot, the number of that slot less one), or None if the layout has no such zone."""
        layout = self.layout
        name, seat, row = key
        relation = None if not seat else (seat - self.viewer) % self.players
        at = layout.zone_index.get((name, row, relation))
        if at is None:
            return None
        visible = zone_shown(self.rules.zones[name].visibility, seat, self.viewer)
        number = layout.slot_base[at]
        return (at * layout.zone_width, visible, layout.slots[name], layout.slots_at + number * layout.slot_width, number)

    def _card(self, defn) -> _CardPlan:
        found = self.cards.get(id(defn))
        if found is None or found[0] is not defn:
            found = self.cards[id(defn)] = (defn, _CardPlan(defn, self.layout))
        return found[1]

    # ------------------------------------------------------------------ per call
    def entries(self, game, choosing: Iterable[Any] = (), fresh: int | None = None) -> dict[int, float]:
        """The viewer's vector now, as {index: value} (entries not listed are 0); `choosing` and
        `fresh` as envs/encoding.py's `encode_game` takes them (`game`: the public `Game`)."""
        game = game.state
        game.sight_needed("a player's encoded observation")
        layout = self.layout
        viewer = self.viewer
        out: dict[int, float] = {}
        bit = 1 << viewer
        attrs = game.attrs
        revealed_ids = game.revealed
        placed: list[tuple] = []  # (index of the slot, card, position, revealed, its _CardPlan)
        slot_of: dict[int, int] = {}  # cards in slots that the viewer may see: their slot numbers
        known_slot: dict[int, int] = {}  # cards in slots only known to be in their zone (never named elsewhere)
        card_plan = self._card
        width = layout.slot_width
        zones = self.zones
        for key, cards in game.zones.items():
            plan = zones.get(key, False)
            if plan is False:
                plan = zones[key] = self._zone_plan(key)
            if plan is None or not cards:
                continue
            base, visible, room, first, number = plan
            out[base] = float(len(cards))
            if visible:
                for k, card in enumerate(cards):
                    plan = card_plan(card.defn)
                    if plan.name is not None:
                        i = base + 1 + plan.name
                        out[i] = out.get(i, 0.0) + 1.0
                    if k < room:
                        slot_of[card.id] = number + k + 1
                        placed.append((first + k * width, card, k + 1, False, plan))
                continue
            shown = []
            known = []
            for i, c in enumerate(cards):
                d = attrs[c.id]
                if c.id in revealed_ids or d[SHOWN] & bit:
                    shown.append((c, i + 1))
                elif d[KNOWN] & bit:
                    known.append(c)
            if not shown and not known:
                continue
            known.sort(key=_by_id)
            for k, (card, position) in enumerate((*shown, *((c, 0) for c in known))):
                plan = card_plan(card.defn)
                if plan.name is not None:
                    i = base + 1 + plan.name
                    out[i] = out.get(i, 0.0) + 1.0
                if k < room:
                    if position:
                        slot_of[card.id] = number + k + 1
                    else:
                        known_slot[card.id] = number + k + 1
                    placed.append((first + k * width, card, position, bool(position), plan))
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
                chose_players.append((element.seat - viewer) % self.players)
            else:
                chose_values.append(element)
        ctx = (game, viewer, slot_of, known_slot, self.players)
        if placed:
            self._slots(game, placed, taken, out, ctx)
        for p in game.players:
            for name, v, at in self.seats[p.seat - 1]:
                _write(out, at, v, game.read(p, name), ctx)
        g = game.globals
        for name, v, at in self.globals:
            _write(out, at, v, g.get(name), ctx)
        at = self.turn_at
        out[at] = float(g["turn"] or 0)
        phase = layout.phase_index.get(g["phase"] or "")
        if phase is not None:
            out[at + 1 + phase] = 1.0
        _write(out, at + 1 + len(layout.phases), layout.active, g.get("active"), ctx)
        at = layout.decision_at
        pending = game.pending
        if pending is not None:
            mine = pending.seat == viewer
            out[at] = 1.0 if mine else 0.0
            site = None
            if mine or not self.rules.is_private(pending):
                found = self.rules.site_of(pending)
                site = found.index if found is not None else None
            out[at + 2 + (site if site is not None else layout.site_count - 1)] = 1.0
            if mine:
                out[at + 2 + layout.site_count] = float(len(pending))
        if game.result is not None:
            out[at + 1] = 1.0
        at += 3 + layout.site_count
        if parts:
            out[at] = float(parts)
        for relation in chose_players:
            out[at + 1 + relation] = 1.0
        at += 1 + self.players
        for v in chose_values:
            i = layout.literal_index.get((type(v).__name__, v))
            i = at + (len(layout.literals) if i is None else i)
            out[i] = out.get(i, 0.0) + 1.0
        if layout.event_count:
            self._events(game, out, fresh, ctx)
        return out

    def _slots(self, game, placed: list, taken: dict[int, int], out: dict[int, float], ctx: tuple) -> None:
        attrs = game.attrs
        head = self.head
        taken_at = self.layout.taken_at
        read = game.read
        modified = self._modified(game)
        part_at, part = self.part
        attached_at, attached = self.attached
        controller_at, controller = self.controller
        for at, card, position, revealed, plan in placed:
            out[at] = 1.0
            if position:
                out[at + 1] = float(position)
            if plan.name is not None:
                out[at + 2 + plan.name] = 1.0
            if plan.type is not None:
                out[at + head + plan.type] = 1.0
            if taken:
                out[at + taken_at] = float(taken.get(card.id, 0))
            if revealed:
                out[at + taken_at + 1] = 1.0
            d = attrs[card.id]
            for name, slot, offset, v in plan.attributes:
                if name in modified:
                    x = True if name == "silenced" and d[SILENCED] is not None else read(card, name)
                else:
                    x = d[slot]
                if x is None or x is False:
                    continue
                t = type(x)
                if v is None:  # (a number: most attributes)
                    if t is int or t is float:
                        if x:
                            out[at + offset] = float(x)
                    elif x is True:
                        out[at + offset] = 1.0
                    elif t is Labelled:
                        _write_number(out, at + offset, x)
                elif t is str and v.kind == "text":
                    if x:
                        out[at + offset + v.index.get(x, len(v.vocab))] = 1.0
                elif t is list and not x and v.kind == "list":  # (an empty list: length 0)
                    continue
                else:
                    _write(out, at + offset, v, x, ctx)
            x = d[PART]
            if x is not None and x is not False:
                _write(out, at + part_at, part, x, ctx)
            x = d[ATTACHED]
            if x is not None and x is not False:
                _write(out, at + attached_at, attached, x, ctx)
            x = d[CONTROLLER]
            if x is not d[OWNER]:
                x = _public(x)
                if x is not None and x is not False:
                    _write(out, at + controller_at, controller, x, ctx)

    def _modified(self, game) -> frozenset[str] | set[str]:
        """The attributes whose value `Game.read` works out now (static abilities, temporary
        modifiers) rather than reading it as stored; and `silenced`, shown as true on a silenced
        card (observe.py `card_view`)."""
        temporary = game.temp_mods
        if not temporary and not self.static:
            return self.always
        index = game._static_index if game._static_version == game.static_layout else game._statics()
        if temporary:
            return {*index, *(m[1] for m in temporary), *self.always}
        return {*(self.static & index.keys()), *self.always}

    def _events(self, game, out: dict[int, float], fresh: int | None, ctx: tuple) -> None:
        layout = self.layout
        viewer = self.viewer
        players = self.players
        limit = min(layout.event_count, self.seen_count)
        newest = []
        cell = game.seen
        while cell is not None and len(newest) < limit:
            name, args, seat, cell = cell
            if seat == 0 or seat == viewer:
                newest.append((name, args))
        if not newest:
            return
        if fresh is None:
            fresh = len(self._window(game, self.seen_count))
        width = layout.event_width
        events = len(layout.event_names)
        people = 2 + events
        names_at = people + players
        name_index = layout.name_index
        for k, (name, args) in enumerate(newest):
            at = layout.events_at + k * width
            out[at] = 1.0
            out[at + 1] = 1.0 if k < fresh else 0.0
            i = layout.event_index.get(name)
            if i is not None:
                out[at + 2 + i] = 1.0
            number = None
            for arg in args.values():
                t = type(arg)
                if t is int:
                    if number is None:
                        number = arg
                    continue
                if t is bool or arg is None:
                    continue
                if t is PlayerRef:
                    out[at + people + (arg.seat - viewer) % players] = 1.0
                    continue
                if t is CardRef:
                    if _visible_card(game, arg, viewer):
                        n = name_index.get(arg.defn.name)
                        if n is not None:
                            out[at + names_at + n] = 1.0
                    continue
                if t is not str:
                    arg = _masked(game, arg, viewer)
                for v in (arg if isinstance(arg, list) else (arg,)):
                    if type(v) is str and v[:1] == "P" and v[1:].isdigit():
                        out[at + people + (int(v[1:]) - viewer) % players] = 1.0
                    elif isinstance(v, dict):
                        n = name_index.get(v.get("name"))
                        if n is not None:
                            out[at + names_at + n] = 1.0
                    elif number is None and type(v) is int:
                        number = v
            if number is not None:
                out[at + width - 1] = float(number)

    def window(self, game) -> list[tuple]:
        """The keys (envs/encoding.py `event_key`) of the events of the viewer's `seen` window,
        oldest first: what `fresh_count` aligns, without building the events (`game`: the public
        `Game`)."""
        game.state.sight_needed("a player's window of events")
        return self._window(game.state, self.seen_count)

    def _window(self, game, limit: int) -> list[tuple]:
        viewer = self.viewer
        found = []
        cell = game.seen
        keys = self.keys
        while cell is not None and len(found) < limit:
            name, args, seat, after = cell
            if seat == 0 or seat == viewer:
                known = keys.get(id(cell))
                if known is not None and known[0] is cell:
                    found.append(known[1])
                    cell = after
                    continue
                plain = []
                for k, v in args.items():
                    t = type(v)
                    if v is None or t in _PLAIN:
                        plain.append((k, v))
                    elif t is PlayerRef:
                        plain.append((k, f"P{v.seat}"))
                    elif t is not CardRef and t is not AbilityRef and t is not list:
                        v = _masked(game, v, viewer)
                        if v is None or type(v) in _PLAIN:
                            plain.append((k, v))
                plain.sort()  # (by name: see envs/encoding.py `event_key`)
                key = (name, tuple(plain))
                if len(keys) > 4096:
                    keys.clear()
                keys[id(cell)] = (cell, key)  # (a key does not change: what masking changes is not in it)
                found.append(key)
            cell = after
        found.reverse()
        return found


def _by_id(card: CardRef) -> int:
    return card.id


def _write_number(out: dict[int, float], at: int, x: Any) -> None:
    while type(x) is Labelled:
        x = x.value
    if x is True:
        out[at] = 1.0
    elif x and (type(x) is int or type(x) is float):
        out[at] = float(x)


def _write(out: dict[int, float], at: int, v, value: Any, ctx: tuple) -> None:
    """One value of the state as the layout's `Value.write` writes it once masked (observe.py):
    the common kinds of value directly, any other through `_masked` first."""
    while type(value) is Labelled:
        value = value.value
    if value is None:
        return
    kind = v.kind
    t = type(value)
    if kind == "number":
        if value is True:
            out[at] = 1.0
        elif t is int or t is float:
            out[at] = float(value)
    elif kind == "card":
        if t is CardRef or t is AbilityRef:
            out[at] = 1.0
            card = value if t is CardRef else value.card
            slot = ctx[2].get(card.id)  # (a card the viewer may not see is in no such slot: 0)
            if slot:
                out[at + 1] = float(slot)
        elif t is dict:
            value = _masked(ctx[0], value, ctx[1])
            out[at] = 1.0
            found = value.get("card")
            slot = ctx[2].get(found, 0) or ctx[3].get(found, 0)
            if slot:
                out[at + 1] = float(slot)
    elif kind == "player":
        if t is PlayerRef:
            out[at + (value.seat - ctx[1]) % ctx[4]] = 1.0
            return
        if t is not str:
            value = _masked(ctx[0], value, ctx[1])
        if type(value) is str and value[:1] == "P":
            out[at + (int(value[1:]) - ctx[1]) % ctx[4]] = 1.0
    elif kind == "text":
        if t is not str and t is not int and t is not float and t is not bool:
            value = _masked(ctx[0], value, ctx[1])
        if value != "":
            out[at + v.index.get(value, len(v.vocab))] = 1.0
    elif kind == "list":
        if t is list or t is tuple:
            out[at] = float(len(value))
            for x in value:
                tx = type(x)
                if tx is not str and tx is not CardRef and tx is not AbilityRef:
                    x = _masked(ctx[0], x, ctx[1])
                if type(x) is str:
                    i = v.index.get(x)
                    if i is not None:
                        out[at + 1 + i] = 1.0
    else:
        out[at] = 1.0


_ENCODERS: WeakKeyDictionary = WeakKeyDictionary()  # layout -> {(id of the rules, viewer): StateEncoder}


def encoder_for(rules, layout, viewer: int) -> StateEncoder:
    """The encoder of `layout` for `viewer` in games of `rules` (`Rules.observation_encoder`):
    made once per layout, rules and viewer."""
    made = _ENCODERS.get(layout)
    if made is None:
        made = _ENCODERS[layout] = {}
    found = made.get((id(rules), viewer))
    if found is None or found.rules is not rules:
        found = made[(id(rules), viewer)] = StateEncoder(layout, rules, viewer)
    return found
