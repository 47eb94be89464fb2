"""The recall part of the OpenSpiel game's information state tensor (docs/envs.md "Information
state"): what the player did at their last `RECALL` decisions and what they witnessed before
each, appended to the observation tensor (the encoding of what they see now, with their choice in
progress and the events since their last decision).

Each of the last RECALL decisions, newest first, is a record of fixed width: present; the site,
one-hot; the number of actions taken (the parts of a multi-part choice, STOP included); per kind of
element taken (card, ability, player, value, stop) how many; per card name (a card, or an
ability's card) how many; per relation (the decider's, the next player's, ..., nobody's) how many;
per plain value of the action space's table how many; and per event how many the player witnessed
between their decision before and this one (within the `seen` window). Needs no OpenSpiel.

It is a function of the information state (two states with one string have one tensor). It is
bounded: two information states that differ only before those RECALL decisions, or only in the
order of the parts of one choice, share a tensor, which the string tells apart."""

from __future__ import annotations

from collections.abc import MutableSequence

from .encoding import fresh_from_keys

RECALL = 16  # the decisions a tensor remembers; the string remembers them all
KINDS = ("card", "ability", "player", "value", "stop")


class RecallEncoding:
    """The layout of the recall part, after `base` entries (the observation encoding's size)."""

    def __init__(self, encoding, catalogue, recall: int = RECALL) -> None:
        self.base = encoding.size
        self.catalogue = catalogue
        self.recall = recall
        self.players = catalogue.players
        self.names = encoding.names
        self._names = {n: i for i, n in enumerate(self.names)}
        self.literals = encoding.literals
        self._literals = {(type(v).__name__, v): i for i, v in enumerate(self.literals)}
        self.events = encoding.event_names
        self._events = {e: i for i, e in enumerate(self.events)}
        self.sites = catalogue.site_count
        self.at_kinds = 2 + self.sites
        self.at_names = self.at_kinds + len(KINDS)
        self.at_relations = self.at_names + len(self.names)
        self.at_values = self.at_relations + self.players + 1
        self.at_events = self.at_values + len(self.literals)
        self.width = self.at_events + len(self.events)
        self.size = self.base + recall * self.width

    def labels(self) -> list[str]:
        out = []
        for k in range(self.recall):
            head = f"decision -{k + 1} (newest first)"
            out += [f"{head}: present", *(f"{head}: site {s}" for s in range(self.sites)), f"{head}: actions taken",
                    *(f"{head}: took a {kind}" for kind in KINDS), *(f"{head}: took a {n}" for n in self.names),
                    f"{head}: took the decider's", *(f"{head}: took seat +{r}'s" for r in range(1, self.players)),
                    f"{head}: took nobody's", *(f"{head}: took value {v!r}" for v in self.literals),
                    *(f"{head}: witnessed {e} before it" for e in self.events)]
        return out

    def write_records(self, records: list, out: MutableSequence) -> None:
        """From the player's records (newest first, one more than `recall` if there is one: `took`,
        and `window_keys()`, the keys of the events they had witnessed when they decided): the
        events of each that came after the one before, then `write` (`out`: a numpy array)."""
        out[self.base:] = 0.0
        pairs = []
        for k, record in enumerate(records[:self.recall]):
            window = record.window_keys()
            fresh = fresh_from_keys(records[k + 1].window_keys() if k + 1 < len(records) else None, window)
            pairs.append((record.took, [key[0] for key in window[len(window) - fresh:]]))
        self.write(pairs, out)

    def write(self, records: list[tuple[list[int], list[str]]], out: MutableSequence) -> None:
        """`records`: (the action ids taken, the names of the events witnessed since the decision
        before), newest first; at most `recall` are written."""
        for k, (took, events) in enumerate(records[:self.recall]):
            at = self.base + k * self.width
            out[at] = 1.0
            out[at + 1 + self.catalogue.site_of_action(took[0])] = 1.0
            out[at + 1 + self.sites] = float(len(took))
            for action in took:
                slot = self.catalogue.slot_of_action(action)
                out[at + self.at_kinds + KINDS.index(slot.kind)] += 1.0
                if slot.kind in ("card", "ability"):
                    name = slot.name if slot.kind == "card" else slot.name[0]
                    out[at + self.at_names + self._names[name]] += 1.0
                if slot.kind in ("card", "ability", "player"):
                    out[at + self.at_relations + slot.relation] += 1.0
                elif slot.kind == "value":
                    i = self._literals.get(slot.name)
                    if i is not None:
                        out[at + self.at_values + i] += 1.0
            for event in events:
                i = self._events.get(event)
                if i is not None:
                    out[at + self.at_events + i] += 1.0
