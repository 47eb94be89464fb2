"""An unordered pick of cards (`choose exactly N` / `choose up to N`) offered as the cards to pick
and a confirmation, instead of one move per combination.

The engine offers such a decision as every combination of the cards (the options' ids are the
picked cards' ids joined by `+`, the empty pick `nothing`): 64 options for "up to 6 of 6 cards".
A player picks the cards one by one (each a toggle) and confirms; `Pick.option_for` maps the
picked set, in any order, to the one option whose value is that set (None if no option is: too
many or too few cards). A decision is a pick when its `choose` site is `exactly` or `up_to`,
every option names cards the viewer sees, and some option picks two cards or more (a pick of
one card at most stays a list of moves, one click each).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .cards import card_places, card_text
from .moves import _site_kind

_CARD = re.compile(r"c(\d+)")


@dataclass(frozen=True)
class PickCard:
    """One card that may be picked: its id, the label it is listed with, and its view."""

    id: int
    label: str
    view: dict


@dataclass(frozen=True)
class Pick:
    """The cards of an unordered pick, the kind ("exactly" or "up_to"), the fewest and most
    cards an option picks, and each option's set of card ids -> its index."""

    kind: str
    cards: tuple[PickCard, ...]
    sets: dict[frozenset[int], int]
    least: int
    most: int

    def option_for(self, ids) -> int | None:
        """The index of the option that picks exactly the cards `ids` (in any order), or None."""
        return self.sets.get(frozenset(ids))

    def why_not(self, ids) -> str:
        """Why the picked cards are not an option (for a player)."""
        n = len(set(ids))
        wanted = f"exactly {self.least}" if self.least == self.most else \
            f"{self.least} to {self.most}" if self.least else f"up to {self.most}"
        return f"pick {wanted} card{'s' if self.most != 1 else ''}: {n} picked"


def _tokens(option_id: str) -> list[str]:
    return option_id.split("+") if option_id not in ("", "nothing") else []


def pick_of(obs: dict, rules) -> Pick | None:
    """The observation's decision as a `Pick` (see the module), or None when it is not one."""
    decision = obs.get("decision") or {}
    options = decision.get("options") or []
    if not options or decision.get("player") != obs.get("viewer"):
        return None
    kind = _site_kind(obs, rules)
    if kind not in ("exactly", "up_to"):
        return None
    places = card_places(obs)
    sets: dict[frozenset[int], int] = {}
    order: list[int] = []
    singles: dict[int, str] = {}
    for index, option in enumerate(options):
        ids = []
        for token in _tokens(str(option["id"])):
            m = _CARD.fullmatch(token)
            if m is None or int(m.group(1)) not in places:
                return None  # (a value that is not a card the viewer sees: the moves list it)
            ids.append(int(m.group(1)))
        picked = frozenset(ids)
        if len(picked) != len(ids):
            return None
        sets.setdefault(picked, index)
        order += [i for i in ids if i not in order]
        if len(ids) == 1:
            singles.setdefault(ids[0], str(option.get("label", "")))
    sizes = [len(s) for s in sets]
    if max(sizes) < 2:
        return None
    labels = [singles.get(i) or card_text(places[i].view, rules, places[i].zone) for i in order]
    seen: dict[str, int] = {}
    cards = []
    for card_id, label in zip(order, labels):
        seen[label] = seen.get(label, 0) + 1
        if labels.count(label) > 1:  # (copies that look the same: told apart by their rank)
            label = f"{label} (copy {seen[label]})"
        cards.append(PickCard(card_id, label, places[card_id].view))
    return Pick(kind, tuple(cards), sets, min(sizes), max(sizes))
