"""Continuous effects: static abilities, temporary modifiers and keyword grants; attribute limits.

`ContinuousEffects` is a part of `GameState`: it works out which static effects are active (cards in
active zones, in timestamp order), what they apply to (cached per state version), an attribute's
value through them, and the keywords a card has (printed, granted, temporary). `clamp` holds a
number within an attribute's `min`/`max`; `allowed_value` refuses a text outside its `values:`.

Temporary modifiers (`temp_mods`: target, attribute, mode, amount, until, time stamp, source) and
grants (`temp_grants`: target, keyword, arguments, until, time stamp, source) last until an event
(`until` its name), until removed (None), or while a card stays in its zone (`until c leaves`:
("leaves", card)); the source is the card whose code made them (None for the rules'), which
`remove effects of SOURCE` reads. A silenced card (`SILENCED` in its attributes) has none of its
printed keywords and abilities (static, triggered, replacement, activated) nor its parts until it
leaves its zone (`left_zone`) or the silence's event; what is granted to it later it has.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import did_you_mean
from ..lang.runtime import Frame
from ..lang.values import CONTROLLER, LEAVING, PART, SILENCED, STAMP, CardRef, PlayerRef


class ContinuousEffects:
    """Mixin of GameState: reads through static and temporary effects; keywords of cards."""

    def _modifiable(self, name: str) -> bool:
        if self._temporarily_modified(name):
            return True
        if name not in self.rules.statically_modified:
            return False
        return bool(self._statics().get(name))

    def _temporarily_modified(self, name: str) -> bool:
        for m in self.temp_mods:
            if m[1] == name:
                return True
        return False

    def _statics(self) -> dict[str, list]:
        """Active static effects by attribute ('' for keyword grants), in timestamp order."""
        if self._static_version == self.static_layout:
            return self._static_index
        attrs = self.attrs
        zones = self.zones
        holders = [card for key in self.rules.active_zone_keys for card in zones[key] if card.defn.static_abilities]
        if self.rules.silencing:  # (a silenced card's static abilities are not active)
            holders = [card for card in holders if attrs[card.id][SILENCED] is None]
        if len(holders) > 1:  # (stable: a card's effects stay in the order they are written)
            holders.sort(key=lambda card: attrs[card.id][STAMP])
        index: dict[str, list] = {}
        for card in holders:
            d = attrs[card.id]
            part = d[PART]
            for ability, local_values in card.defn.static_abilities:
                if ability.part is not None and ability.part != part:
                    continue
                frame = Frame(None, local_values, card, d[CONTROLLER])  # (expressions only read a frame)
                for eff in ability.statics:
                    effects = index.get(eff.attr)
                    if effects is None:
                        index[eff.attr] = [(eff, frame, card)]
                    else:
                        effects.append((eff, frame, card))
        self._static_index = index
        self._static_version = self.static_layout
        return index

    def _modified(self, obj, name: str, base):
        """An attribute's value: its base, then static effects (timestamp order), then temporary
        modifiers, then its limits. While the targets of the static effects on an attribute are
        being worked out, that attribute reads without static effects: a static ability that
        selects by the attribute it changes ("allies with offense above 1 get -1") sees the same
        values whenever it is asked, so the result does not depend on what was read before."""
        key = (id(obj), name)
        value = base
        if name not in self._computing and key not in self._reading:
            self._reading.add(key)
            try:
                for eff, frame, targets in self._static_targets(name):
                    if id(obj) in targets:
                        amount = eff.amount(self, frame)
                        value = amount if eff.mode == "to" else value + amount
            finally:
                self._reading.discard(key)
        for m in self.temp_mods:
            if m[0] is obj and m[1] == name:
                value = m[3] if m[2] == "to" else value + m[3]
        clamps = obj.defn.clamps if type(obj) is CardRef else self.rules.player_clamps
        lo_hi = clamps.get(name)
        return clamp(value, lo_hi) if lo_hi is not None else value

    def allowed_value(self, obj, name: str, value):
        """The value, if the attribute of obj that it is written to may hold it: an attribute
        declared with `values:` holds one of them, or none. Any other value stops the game with
        a runtime error at the rule statement writing it (the write is refused, not adjusted)."""
        if value is None:
            return value
        if type(obj) is CardRef:
            allowed, whose = obj.defn.allowed_values.get(name), f"of {obj.defn.name} "
        elif type(obj) is PlayerRef:
            allowed, whose = self.rules.player_values.get(name), f"of P{obj.seat} "
        elif obj is self.GAME:
            allowed, whose = self.rules.global_values.get(name), "of the game "
        else:
            return value
        if allowed is None or value in allowed:
            return value
        self.runtime_error(f"attribute {name!r} {whose}takes one of {', '.join(allowed)}, not {value!r}"
                           + (did_you_mean(value, allowed) if isinstance(value, str) else ""))

    def add_temporary_modifier(self, obj, attr: str, mode: str, amount, until: str, f) -> None:
        if obj is self.GAME:  # (`game.x` is refused at load; this is the game reached some other way)
            self.runtime_error(f"'modify' works on an attribute of a card or a player, not on a global: "
                               f"game.{attr} always reads its stored value")
        if mode == "to" and attr in self.rules.enumerated_attributes:
            amount = self.allowed_value(obj, attr, amount)
        if until is False:  # (tied to a card no longer in the game: it ends at once)
            return
        self.clock += 1
        self.temp_mods.append((obj, attr, mode, amount, until, self.clock, f.self_card if f is not None else None))
        if attr in self.rules.static_reads:  # static abilities that read it must look again
            self.version += 1

    def add_temporary_grant(self, obj, keyword: str, args: tuple, until, f) -> None:
        if until is False:
            return
        self.clock += 1
        self.temp_grants.append((obj, keyword, args, until, self.clock, f.self_card if f is not None else None))
        self.version += 1
        self.layout += 1
        self.listener_layout += 1

    def _static_targets(self, name: str) -> list:
        """(effect, frame, ids of the objects it applies to) of the active static effects on an
        attribute ('' for keyword grants); targets are computed once per state version (writes to
        attributes that static abilities read bump the version)."""
        if self._targets_version != self.version:
            self._targets_cache = {}
            self._keywords_cache = {}
            self._targets_version = self.version
        hit = self._targets_cache.get(name)
        if hit is not None:
            return hit
        out = []
        self._computing.add(name)
        try:
            for eff, frame, _src in self._statics().get(name, ()):
                if eff.condition is not None and not eff.condition(self, frame):
                    continue
                target = eff.target(self, frame)
                ids = {id(t) for t in target} if type(target) is list else {id(target)}
                out.append((eff, frame, ids))
        finally:
            self._computing.discard(name)
        self._targets_cache[name] = out
        return out

    def _granted(self) -> frozenset[int]:
        """The ids of the objects some static or temporary grant applies to, in this state version
        (the only objects whose keywords may differ from their printed ones). Rebuilt, never
        changed in place: a clone may share it, as it shares the version it was made in."""
        if self._granted_version == self.version:
            return self._granted_ids
        version = self.version
        ids: set[int] = set()
        for _eff, _frame, targets in self._static_targets(""):
            ids.update(targets)
        for grant in self.temp_grants:
            ids.add(id(grant[0]))
        self._granted_ids = frozenset(ids)
        self._granted_version = version
        return self._granted_ids

    def keywords_of(self, card: CardRef) -> Sequence[tuple[str, tuple]]:
        """Printed keywords, then granted ones (static grants, temporary grants); cached per
        state version like the targets of static effects. The result may be the card
        definition's own tuple: read it, never change it."""
        if self.rules.silencing and self._silenced_row(card.id):
            return self._keywords_now(card, ())
        if id(card) not in self._granted():
            return card.defn.keywords
        if self._targets_version == self.version:
            hit = self._keywords_cache.get(card.id)
            if hit is not None:
                return hit
        out = self._keywords_now(card)
        if self._targets_version == self.version:  # still valid after computing the targets
            self._keywords_cache[card.id] = out
        return out

    def _keywords_now(self, card: CardRef, printed=None) -> Sequence[tuple[str, tuple]]:
        """The card's keywords now: printed (or those given: none for a silenced card), then granted."""
        if printed is None:
            printed = card.defn.keywords
            have = card.defn.keyword_names
        else:
            have = frozenset(k for k, _args in printed)
        out = None
        key = id(card)
        for eff, frame, targets in self._static_targets(""):
            if key in targets:
                keyword = eff.keyword or eff.keyword_fn(self, frame)
                if keyword not in have:
                    if out is None:
                        out, have = list(printed), set(have)
                    out.append((keyword, tuple(a(self, frame) for a in eff.keyword_args)))
                    have.add(keyword)
        for grant in self.temp_grants:
            keyword = grant[1]
            if grant[0] is card and keyword not in have:
                if out is None:
                    out, have = list(printed), set(have)
                out.append((keyword, grant[2]))
                have.add(keyword)
        return printed if out is None else out

    def has_keyword(self, card, keyword: str) -> bool:
        if type(card) is not CardRef:
            return False
        if self.rules.silencing and self._silenced_row(card.id):
            return any(k == keyword for k, _args in self.keywords_of(card))
        if keyword in card.defn.keyword_names:  # grants add keywords (a silence alone takes them away)
            return True
        if not self.temp_grants and keyword not in self.rules.grantable_keywords:
            return False  # (no static ability grants it: whom they grant to need not be worked out)
        if id(card) not in (self._granted_ids if self._granted_version == self.version else self._granted()):
            return False
        for k, _args in self.keywords_of(card):
            if k == keyword:
                return True
        return False

    def _abilities(self, card: CardRef, table: str, name: str):
        """(ability, keyword locals) of a card for an event or procedure, printed and granted."""
        own = getattr(card.defn, table).get(name, ())
        printed = card.defn.keyword_names
        if self.rules.silencing and self._silenced_row(card.id):
            own, printed = (), frozenset()  # (what it prints is gone; what is granted to it stays)
        if not self.temp_grants and not self.rules.static_grants:
            return own
        if id(card) not in self._granted():
            return own
        extra = []
        for keyword, args in self.keywords_of(card):
            if keyword in printed:
                continue
            for ability, params in self.rules.keyword_tables[table].get(keyword, {}).get(name, ()):
                extra.append((ability, dict(zip(params, args))))
        return list(own) + extra if extra else own

    # ------------------------------------------------------------------ silence, removable effects
    def _silenced_row(self, card_id: int) -> bool:
        """Whether the card of this id (one of the game's) is in the game and silenced."""
        d = self.attrs[card_id]
        return bool(d) and d[SILENCED] is not None

    def is_silenced(self, card) -> bool:
        """`silenced(card)`: the card is silenced (and has not left the zone it was silenced in)."""
        return type(card) is CardRef and self._silenced_row(card.id)

    def silence(self, cards, until: str | None, f) -> None:
        """`silence CARDS [until EVENT]`: each card in the game loses its printed keywords, its
        abilities and its parts until it leaves its zone (or EVENT comes first), and the temporary
        modifiers and grants on it end. Silencing a silenced card again keeps the longer silence."""
        ended = set()
        for card in cards if type(cards) is list else (cards,):
            if card is None:
                continue
            if type(card) is not CardRef:
                self.runtime_error(f"'silence' takes cards: {self.label(card)} is not a card")
            d = self.own_row(card.id)
            if not d or card.id not in self.card_zone:
                continue
            if d[SILENCED] is not True:
                d[SILENCED] = True if until is None else until
            d[LEAVING] = True
            ended.add(id(card))
        if ended:
            self._end_effects(lambda m, _i: id(m[0]) in ended)
            self._abilities_changed()

    def tied_to(self, card):
        """The duration `until CARD leaves`: while the card stays in the zone it is in now (False
        for a card no longer in the game: the effect ends at once, it is not made)."""
        if type(card) is not CardRef:
            self.runtime_error(f"'until ... leaves' follows a card, not {self.label(card)}")
        d = self.own_row(card.id)
        if not d or card.id not in self.card_zone:
            return False
        d[LEAVING] = True
        return ("leaves", card)

    def left_zone(self, card: CardRef) -> None:
        """The card (marked `LEAVING`) has left its zone, or the game: its silence ends, and so do
        the effects that last until it leaves. Called by the engine's moves."""
        d = self.own_row(card.id)
        if d:
            d[LEAVING] = False
            d[SILENCED] = None
        self._end_effects(lambda m, i: type(m[i]) in _TIES and m[i][1] is card)
        self._abilities_changed()

    def remove_effects(self, source, target, by_source: bool, on_target: bool) -> None:
        """`remove effects [of SOURCE] [from CARDS]`: end the temporary modifiers and grants that
        the card(s) SOURCE gave (`by_source`), on the cards or players CARDS (`on_target`)."""
        sources = {id(c) for c in (source if type(source) is list else (source,)) if c is not None}
        targets = {id(t) for t in (target if type(target) is list else (target,)) if t is not None}
        if (by_source and not sources) or (on_target and not targets):
            return
        self._end_effects(lambda m, i: (not by_source or id(m[i + 2] if len(m) > i + 2 else None) in sources)
                          and (not on_target or id(m[0]) in targets))

    def end_temporary(self, event: str) -> None:
        """The event `event` was emitted: the temporary effects and silences that last until it end."""
        self._end_effects(lambda m, i: m[i] == event)
        if self.rules.silencing:
            ended = [d for d in self.attrs if d and d[SILENCED] == event]
            for d in ended:
                d[SILENCED] = None
            if ended:
                self._abilities_changed()

    def _end_effects(self, ends) -> None:
        """End the temporary modifiers and grants for which `ends(effect, index of its until)` holds."""
        if self.temp_mods:
            kept = [m for m in self.temp_mods if not ends(m, 4)]
            if len(kept) != len(self.temp_mods):
                self.temp_mods = kept
                self.version += 1
        if self.temp_grants:
            kept = [m for m in self.temp_grants if not ends(m, 3)]
            if len(kept) != len(self.temp_grants):
                self.temp_grants = kept
                self.version += 1
                self.layout += 1
                self.listener_layout += 1

    def _abilities_changed(self) -> None:
        """A card's abilities came or went (a silence began or ended): every cache of them is stale."""
        self.version += 1
        self.layout += 1
        self.static_layout += 1
        self.listener_layout += 1


_TIES = (tuple, list)  # (a duration `until c leaves`, ("leaves", card); a list once loaded from a save)


def clamp(value, lo_hi):
    """A value held within (min, max), either of which may be None; none stays none."""
    if value is None:
        return None
    lo, hi = lo_hi
    if lo is not None and value < lo:
        return lo
    if hi is not None and value > hi:
        return hi
    return value
