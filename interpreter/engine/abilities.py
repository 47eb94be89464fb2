"""The engine's activated abilities: which may be used now, their costs, aiming and using
them. A part of `GameState` (engine/state.py)."""

from __future__ import annotations

from ..lang.runtime import Frame
from ..lang.values import (
    CONTROLLER,
    PART,
    SILENCED,
    AbilityRef,
    CardRef,
)


class ActivatedAbilities:
    """Activated abilities of cards in play, for `GameState`."""

    def activatable(self, cards: list) -> list[AbilityRef]:
        """The activated abilities of these cards that may be used now: the card is in an active
        zone and not silenced, the ability's part is the card's part, and its `if` condition holds."""
        active = self.rules.active_zone_names
        card_zone = self.card_zone
        return self.activatable_in([card for card in cards if type(card) is CardRef and card.defn.activation
                                    and (key := card_zone.get(card.id)) is not None and key[0] in active])

    def activatable_in(self, cards: list) -> list[AbilityRef]:
        """`activatable` for cards known to be in an active zone (the cards of one)."""
        out = []
        attrs = self.attrs
        silencing = self.rules.silencing
        for card in cards:
            defn = card.defn
            if not defn.activation or silencing and attrs[card.id][SILENCED] is not None:
                continue
            refs = card._abilities or card.abilities
            if defn.activation_plain:
                out += refs
                continue
            d = attrs[card.id]
            for index, part, condition in defn.activation:
                if part is not None and part != d[PART]:
                    continue
                ref = refs[index]
                if condition is not None:
                    frame = ref.frame  # (the frame kept on the handle, as `_ability_frame` gives it)
                    if frame is None or frame.controller is not d[CONTROLLER]:
                        frame = self._ability_frame(ref, d)
                    if not condition(self, frame):
                        continue
                out.append(ref)
        return out

    @staticmethod
    def _ability_frame(ref: AbilityRef, d: list) -> Frame:
        """The frame an activated ability's condition and cost are read in, kept on the ability's
        handle while its card's controller stays (expressions only read a frame; a copy of the
        game that changes the controller makes its own)."""
        frame = ref.frame
        if frame is None or frame.controller is not d[CONTROLLER]:
            frame = ref.frame = Frame(None, ref.local_values, ref.card, d[CONTROLLER])
        return frame

    def ability_cost(self, ref) -> int:
        if type(ref) is not AbilityRef:
            self.runtime_error(f"ability_cost needs an ability, not {ref!r}")
        fixed = ref.ability.fixed_cost
        if fixed is not None:
            return fixed
        return ref.ability.cost(self, self._ability_frame(ref, self.attrs[ref.card.id]))

    def aim(self, ref) -> None:
        """Run an activated ability's `target` block (its choices are made now), if it has one."""
        frame = self.ability_frame(ref, "aim", target=True)
        if frame is not None:
            self.frames.append(frame)

    def activate(self, ref) -> None:
        """Run an activated ability's effect (its cost is the rules' business: pay it first)."""
        frame = self.ability_frame(ref, "use", target=False)
        if frame is not None:
            self.frames.append(frame)

    def ability_frame(self, ref, verb: str, target: bool) -> Frame | None:
        """A frame to run an activated ability's `target` block (`target`) or effect in, or None
        if it has none; `verb` names the statement, for the error when ref is no ability."""
        if ref is None:
            return None
        if not isinstance(ref, AbilityRef):
            self.runtime_error(f"{verb} needs an ability, not {ref!r}")
        code = ref.ability.target_code if target else ref.ability.code
        if code is None:
            return None
        d = self.attrs[ref.card.id]
        return Frame(code, dict(ref.local_values), ref.card, d[CONTROLLER] if d else None)

    def card_names(self) -> list[str]:
        return list(self.rules.playable_card_names)

    def shuffled(self, values: list) -> list:
        """A copy of the list in a random order (the game's seeded generator)."""
        out = list(values)
        self.rng.shuffle(out)
        return out

    def random_choice(self, values: list):
        if not values:
            return None
        return values[self.rng.randrange(len(values))]
