"""The engine's zones and cards: zone keys, the cards of zones, making, moving, shuffling,
attaching and deleting cards, running a card's part. A part of `GameState` (engine/state.py)."""

from __future__ import annotations

from ..lang.runtime import Frame
from ..lang.values import (
    ATTACHED,
    CONTROLLER,
    DEALT,
    KNOWN,
    LEAVING,
    OWNER,
    SHOWN,
    STAMP,
    CardRef,
    PlayerRef,
    ZoneKey,
)
from .events import DIRECT_DEPTH as _DIRECT_DEPTH


class ZonesAndCards:
    """Where cards are and how they move, for `GameState`."""

    def zone_key(self, name: str, player, row) -> ZoneKey:
        spec = self.rules.zones[name]
        seat = 0
        if spec.per_player:
            if not isinstance(player, PlayerRef):
                self.runtime_error(f"zone '{name}' belongs to a player: got {player!r}")
            seat = player.seat
        elif player is not None and row is None and spec.rows and isinstance(player, str):
            row, player = player, None
        if spec.rows:
            if row is None:
                self.runtime_error(f"zone '{name}' has rows {spec.rows}: say which")
            if row not in spec.rows:
                self.runtime_error(f"zone '{name}' has no row {row!r} (rows: {', '.join(spec.rows)})")
        return ZoneKey(name, seat, row or "")

    def row_zone_key(self, keys: dict, name: str, player, row) -> ZoneKey:
        """`zone_key` for a player's zone made of rows, from a table of its keys made at load."""
        key = keys.get((player.seat, row)) if type(player) is PlayerRef and type(row) is str else None
        return key if key is not None else self.zone_key(name, player, row)

    def zone_cards(self, key: ZoneKey) -> list[CardRef]:
        return self.zones[key]

    def zone_cards_of(self, name: str, player) -> list[CardRef]:
        """A player's cards in a zone made of rows, all rows in their declared order."""
        out: list[CardRef] = []
        for row in self.rules.zones[name].rows:
            out.extend(self.zones[self.zone_key(name, player, row)])
        return out

    def zone_cards_all(self, name: str) -> list[CardRef]:
        out: list[CardRef] = []
        for key in self.rules.zone_keys_by_name[name]:
            out.extend(self.zones[key])
        return out

    def position(self, card: CardRef) -> int | None:
        key = self.card_zone.get(card.id)
        if key is None:
            return None
        return self.zones[key].index(card) + 1

    def new_card(self, defn, key: ZoneKey, owner: PlayerRef | None) -> CardRef:
        card_id = self.next_id
        self.next_id = card_id + 1
        card = CardRef(card_id, defn, (key[0], key[1]))
        self.clock = clock = self.clock + 1
        d = defn.new_row.copy()  # the card's own properties, then its type's attributes
        d[CONTROLLER] = d[OWNER] = owner
        d[STAMP] = clock
        self.cards[card_id] = card
        self.attrs.append(d)  # (at index card_id: ids are given in order)
        self.attrs_owned.append(1)
        self.card_zone[card_id] = key
        self.zones[key].append(card)
        if key[0] in self.rules.watched_zones:
            self._rearranged(defn)
        return card

    def create(self, name: str, key: ZoneKey, attrs: dict, f) -> CardRef:
        defn = self.rules.card_defs.get(name)
        if defn is None:
            self.runtime_error(f"no card named {name!r}")
        seat = key[1]
        card = self.new_card(defn, key, self.players[seat - 1] if seat else f.controller)
        if attrs:
            for k, v in attrs.items():
                self.write(card, k, v)
        return card

    def move(self, card: CardRef, key: ZoneKey, position) -> None:
        cid = card.id
        old = self.card_zone.get(cid)
        if old is None:
            self.runtime_error(f"card {card!r} is no longer in the game")
        zones = self.zones
        zones[old].remove(card)
        dst = zones[key]
        if position is None:
            dst.append(card)
        else:
            dst.insert(min(max(position - 1, 0), len(dst)), card)
        rules = self.rules
        if old != key:
            self.card_zone[cid] = key
            d = self.attrs[cid] if self.attrs_owned[cid] else self.own_row(cid)
            if d[ATTACHED] is not None:
                d[ATTACHED] = None
                self.attached_ids.discard(cid)
            sight = self.sight_kept  # (what each player saw: see `GameState.sight_kept`)
            if d[OWNER] is None and key[1]:  # an unowned card (made in a shared zone) is owned by
                d[OWNER] = d[CONTROLLER] = self.players[key[1] - 1]  # the first player it goes to
                if sight:
                    self._dealt_unseen(d, cid, old, key)
            revealed = self.revealed
            if revealed and cid in revealed or d[SHOWN]:
                if sight:
                    d[KNOWN] = self._known_mask(cid, old, key)
                revealed.discard(cid)  # (what was shown stays shown in its zone only: see `reveal`)
                d[SHOWN] = 0
            elif sight:
                known = rules.known_masks.get((old, key))  # (see `_known_mask`)
                d[KNOWN] = known if known is not None else self._known_mask(cid, old, key)
            self.clock = d[STAMP] = self.clock + 1
            if d[LEAVING]:  # (its silence, or effects that last while it stays, end)
                self.left_zone(card)
            watched = rules.watched_keys  # (tested empty first: a zone key is hashed at each `in`)
            if watched and (old in watched or key in watched):
                self._rearranged(card.defn)
            if self.watcher is not None:
                self.watcher.moved(self, card, old, key)
        elif rules.watched_keys and key in rules.watched_keys:  # (a move within a zone)
            self.version += 1
            self.layout += 1
        if rules.moves_wanted:
            self.emit("moved", {"card": card, "from": old[0], "to": key[0]})

    def own_rows_of(self, cards: list[CardRef]) -> None:
        """Own the rows of these cards (see `GameState.own_row`), before a loop writes them all."""
        owned = self.attrs_owned
        if 0 in owned:  # (none shared, as in a game played out: nothing to test card by card)
            for card in cards:
                if not owned[card.id]:
                    self.own_row(card.id)

    def move_each(self, cards: list, key: ZoneKey, position) -> None:
        """`move LIST to ZONE`: each card in turn, as `move` does, in one loop when nothing
        watches the moves (no `moved` event wanted, no watcher, no position, a zone whose
        contents continuous effects do not read)."""
        rules = self.rules
        if (position is not None or rules.moves_wanted or self.watcher is not None
                or rules.watched_keys and key in rules.watched_keys or len(cards) < 2):
            for card in cards:
                self.move(card, key, position)
            return
        self.own_rows_of(cards)
        zones, card_zone, attrs, dst = self.zones, self.card_zone, self.attrs, self.zones[key]
        watched, revealed = rules.watched_keys, self.revealed
        old_key = src = known_default = None
        masks = rules.known_masks
        old_watched = False
        sight = self.sight_kept  # (what each player saw: see `GameState.sight_kept`)
        clock = self.clock
        for card in cards:
            cid = card.id
            old = card_zone.get(cid)
            if old is None:
                self.clock = clock
                self.runtime_error(f"card {card!r} is no longer in the game")
            if old is not old_key:  # (cards mostly come from one zone: its list, test and mask once)
                old_key, src, old_watched = old, zones[old], old in watched
                if sight:
                    known_default = masks.get((old, key))
                    if known_default is None:
                        known_default = self._known_mask(-1, old, key)
            src.remove(card)
            dst.append(card)
            if old != key:
                card_zone[cid] = key
                d = attrs[cid]
                if d[ATTACHED] is not None:
                    d[ATTACHED] = None
                    self.attached_ids.discard(cid)
                if d[OWNER] is None and key[1]:
                    d[OWNER] = d[CONTROLLER] = self.players[key[1] - 1]
                    if sight:
                        self._dealt_unseen(d, cid, old, key)
                if revealed and cid in revealed or d[SHOWN]:
                    if sight:
                        d[KNOWN] = self._known_mask(cid, old, key)
                    revealed.discard(cid)
                    d[SHOWN] = 0
                elif sight:
                    d[KNOWN] = known_default
                clock += 1
                d[STAMP] = clock
                if d[LEAVING]:
                    self.left_zone(card)
                if old_watched:
                    self.clock = clock
                    self._rearranged(card.defn)
        self.clock = clock

    def _dealt_unseen(self, d: list, cid: int, old: ZoneKey, key: ZoneKey) -> None:
        """Mark a card that just went to its first owner (`DEALT`) unless every player saw it go:
        from or to a public zone, or revealed. Which player got a card dealt face down is what
        the others do not know (determinization mixes such cards across hands)."""
        zones = self.rules.zones
        if not (zones[old[0]].visibility == "public" or zones[key[0]].visibility == "public"
                or cid in self.revealed):
            d[DEALT] = True

    def _known_mask(self, cid: int, old: ZoneKey, key: ZoneKey) -> int:
        """Who knows where a card is after it moved from `old` into `key`, a zone hidden from
        them (`KNOWN`, a mask of seats): the players who saw it before the move (in a zone they
        see, or revealed), since they saw it go. A player who knew it only by such a memory did
        not see it move, and forgets it. The mask of a card not revealed depends on the two zones
        alone: it is kept in `Rules.known_masks` (a revealed card's, `cid` among `revealed` or
        revealed to some players, `SHOWN`, is not)."""
        zones = self.rules.zones
        before = zones[old[0]].visibility
        shown = cid in self.revealed
        shown_to = self.attrs[cid][SHOWN] if cid >= 0 else 0
        if before == "public" or shown:
            saw = self.all_seats
        elif before == "owner" and old[1]:
            saw = 1 << old[1]
        elif before == "others" and old[1]:
            saw = self.all_seats & ~(1 << old[1])
        else:
            saw = 0
        saw |= shown_to
        after = zones[key[0]].visibility
        if after == "public":
            saw = 0
        elif after == "owner" and key[1]:
            saw &= ~(1 << key[1])
        elif after == "others" and key[1]:
            saw &= 1 << key[1]
        if not shown and not shown_to:
            self.rules.known_masks[(old, key)] = saw
        return saw

    def _rearranged(self, defn) -> None:
        """A card of this definition came into or left a watched zone, or changed part or
        controller: what continuous effects see has changed, and so has the layout; so has the
        index of static effects if the card has any, and who listens if the card has triggered
        or replacement abilities (or any card may, while temporary grants last)."""
        self.version += 1
        self.layout += 1
        if defn.static_abilities:
            self.static_layout += 1
        if defn.listens or self.temp_grants:
            self.listener_layout += 1

    def shuffle(self, key: ZoneKey) -> None:
        cards = self.zones[key]
        self.rng.shuffle(cards)
        self.own_rows_of(cards)
        attrs = self.attrs
        for card in cards:  # (a shuffled card's place is known to no one: see `KNOWN`)
            attrs[card.id][KNOWN] = 0
        if self.watcher is not None:
            self.watcher.shuffled(self, key)
        if self.after_shuffle is not None:
            self.after_shuffle(self, key)
        if key[0] in self.rules.watched_zones:
            self.version += 1
            self.layout += 1

    def attach(self, card, target) -> None:
        if card is None:
            return
        self.own_row(card.id)[ATTACHED] = target
        if target is None:
            self.attached_ids.discard(card.id)
        else:
            self.attached_ids.add(card.id)
        self.version += 1
        self.layout += 1

    def detach(self, card) -> None:
        if card is None:
            return
        self.own_row(card.id)[ATTACHED] = None
        self.attached_ids.discard(card.id)
        self.version += 1
        self.layout += 1

    def attachments(self, target) -> list[CardRef]:
        """The cards attached to a card or player, wherever they are (zone by zone, in order)."""
        attrs = self.attrs
        found = [card_id for card_id in self.attached_ids if attrs[card_id][ATTACHED] is target]
        if len(found) < 2:
            return [self.cards[card_id] for card_id in found]
        zones = self.zones  # the order: zones in their declared order, then positions
        return [card for key in self.rules.zone_keys for card in zones[key] if attrs[card.id][ATTACHED] is target]

    def delete(self, card: CardRef) -> None:
        key = self.card_zone.pop(card.id, None)
        if key is None:
            return
        self.zones[key].remove(card)
        if self.attrs[card.id][LEAVING]:
            self.left_zone(card)
        self.attrs[card.id] = []
        del self.cards[card.id]
        self.attached_ids.discard(card.id)
        if key[0] in self.rules.watched_zones:
            self._rearranged(card.defn)

    def reveal(self, what, to=None) -> None:
        """Show cards to every player (or to the players `to`: a player or a list of players)
        until each moves to another zone (another name, owner or row: a card passed face down
        from one hand to another is hidden again). A reveal to every player is a reveal."""
        mask = self.all_seats if to is None else self._seats_mask(to)
        for c in what if isinstance(what, list) else [what]:
            if not isinstance(c, CardRef):
                continue
            if mask == self.all_seats:
                self.revealed.add(c.id)
                if c.id in self.card_zone:
                    self.own_row(c.id)[SHOWN] = 0
            elif mask and c.id in self.card_zone and c.id not in self.revealed:
                d = self.own_row(c.id)
                shown = d[SHOWN] | mask
                if shown == self.all_seats:
                    self.revealed.add(c.id)
                    d[SHOWN] = 0
                else:
                    d[SHOWN] = shown

    def _seats_mask(self, to) -> int:
        """The seats of `reveal ... to PLAYERS` as a mask; anything but players is a rule error."""
        mask = 0
        for p in to if isinstance(to, list) else [to]:
            if type(p) is not PlayerRef:
                self.runtime_error(f"'reveal ... to' needs players: got {p!r}")
            mask |= 1 << p.seat
        return mask

    def part_frame(self, card: CardRef | None, part: str) -> Frame | None:
        """A frame to run a card's part in (under its controller), or None if it has no such part."""
        code = card.defn.parts.get(part) if card is not None else None
        if code is None or self.rules.silencing and self.is_silenced(card):  # (a silenced card has no parts)
            return None
        d = self.attrs[card.id]
        return Frame(code, {}, card, d[CONTROLLER] if d else None)

    def run_part(self, card: CardRef, part: str) -> None:
        frame = self.part_frame(card, part)
        if frame is not None:
            self.frames.append(frame)

    def run_part_now(self, f: Frame, card: CardRef, part: str) -> bool:
        """`run_part` and `descend` in one, for generated code, as `call_now` is for calls."""
        frame = self.part_frame(card, part)
        if frame is None:
            return True
        if len(self.frames) > _DIRECT_DEPTH:
            self.frames.append(frame)
            return self.descend(f)
        return self._run_now(frame, f)
