"""The event log beside the table: for each player the events they witnessed and the decisions
they may see, and for the full view of a replay every event and decision.

A player's lines come from their own observation (`seen`, cards masked there), so a card they
may not see is never named; another player's decision about such a card, or with a private
prompt, is shown as "P2 chooses (hidden)". Events are counted from the game's log (who
witnesses each event is declared by the ruleset) and read from the observation after each
decision.
"""

from __future__ import annotations

import re
from typing import Any

from ..engine.game import on_automatic_choice
from ..engine.serialize import readable
from ..lang.values import CardRef
from ..presentation import ability_of
from ..presentation.cards import fill_label
from .views import event_text, option_card_ids, result_text

FULL = "full"  # the viewer key of the full view
_ID_SUFFIX = re.compile(r"#\d+")
_CARD_TEXT = re.compile(r"(.+)#(\d+)")  # a card as the game's log writes it: 'Name#12'
_ABILITY_TEXT = re.compile(r"(.+)#(\d+): (?:ability (\d+)|(.+))")  # 'Name#12: ability 1', 'Name#12: label'


def _full_value(value: Any, rules: Any = None, names: dict[int, str] | None = None) -> str:
    """An event argument as the game's log writes it, for a line of the full view: a card by
    name (a token by its label, from `names`), an ability as `ability_of` reads it; no ids."""
    if isinstance(value, (list, tuple)):
        return ", ".join(_full_value(v, rules, names) for v in value) if value else "nothing"
    if isinstance(value, dict):
        return ", ".join(f"{k} {_full_value(v, rules, names)}" for k, v in value.items())
    if value is True:
        return "yes"
    if value is False:
        return "no"
    if value is None:
        return "nobody"
    text = str(value)
    m = _ABILITY_TEXT.fullmatch(text)
    if m is not None and rules is not None:
        return ability_of(m.group(1), int(m.group(3)), rules) if m.group(3) else f"{m.group(1)}: {m.group(4)}"
    m = _CARD_TEXT.fullmatch(text)
    if m is not None and names and int(m.group(2)) in names:
        return names[int(m.group(2))]
    return _ID_SUFFIX.sub("", text)


class EventLog:
    """Lines per viewer (a seat, or FULL), kept up to date by `before_decision` and `record`."""

    def __init__(self, game: Any, full: bool = False) -> None:
        self.game = game
        self.rules = game.rules
        self.viewers: list[Any] = [p.seat for p in game.players] + ([FULL] if full else [])
        self.lines: dict[Any, list[str]] = {v: [] for v in self.viewers}
        self.cursor = 0
        self._decision: dict[Any, str] = {}
        # per viewer: the tokens it has seen, by id -> their label (a token is often gone when
        # the event that names it is read: 'ability of X resolves' as it leaves the stack)
        self.names: dict[Any, dict[int, str]] = {v: {} for v in self.viewers}
        on_automatic_choice(game, self.note_tokens)
        self.record()

    def decision_line(self, viewer: Any, option: Any) -> str:
        """How the coming decision (an Option of the pending one) reads for `viewer`."""
        game = self.game
        seat = game.pending.seat
        if viewer == seat:
            return f"you choose: {option.label}"
        if viewer != FULL:
            if self.rules.is_private(game.pending):
                return f"P{seat} chooses (hidden)"
            for card_id in option_card_ids(option.id):
                card = game.cards.get(card_id)
                if card is not None and not game.visible(card, viewer):
                    return f"P{seat} chooses (hidden)"
        return f"P{seat} chooses: {option.label}"

    def before_decision(self, option: Any) -> None:
        """Call before applying `option` (while its cards are still where they were)."""
        self._decision = {v: self.decision_line(v, option) for v in self.viewers}

    def _witnesses(self, entry: dict) -> list[int]:
        who = self.rules.event_witnesses.get(entry["event"])
        if who is None:
            return []
        seats = [p.seat for p in self.game.players]
        if who == "":
            return seats
        return [s for s in seats if entry["args"].get(who) == f"P{s}"]

    def note_tokens(self) -> None:
        """Remember, for each viewer, the label of every token it may see (its type's `label:`
        with the cards in it by name: 'ability of Mistveil Adept'; a token whose label names a
        card the viewer may not see is left to its name). Called at each `record` and at each
        choice the engine takes on its own (`on_automatic_choice`), since a token is often gone when
        the event that names it is read ('ability of X resolves' as it leaves the stack)."""
        game = self.game
        types = self.rules.ruleset.card_types
        for card in list(game.cards.values()):
            ctype = types.get(card.defn.type)
            if ctype is None or not card.defn.token or not ctype.label:
                continue
            values = {k: game.read(card, k) for k in card.defn.label_fields}
            texts = {k: _full_value(readable(v, game), self.rules) for k, v in values.items()}
            label = fill_label(ctype.label, {"name": card.defn.name, **texts})
            if label is None:
                continue
            refs = [card, *(v for v in values.values() if type(v) is CardRef)]
            for viewer in self.viewers:
                if viewer == FULL or all(game.visible(c, viewer) for c in refs):
                    self.names[viewer][card.id] = label

    def record(self) -> None:
        """Add the lines of what happened since the last call."""
        game = self.game
        new = game.log_since(self.cursor)
        self.cursor += len(new)
        counts: dict[Any, int] = {v: 0 for v in self.viewers}
        self.note_tokens()
        for entry in new:
            if entry["type"] == "decision":
                for v in self.viewers:
                    self.lines[v].append(self._decision.get(v) or f"P{entry['player']} chooses")
                self._decision = {}
            elif entry["type"] == "event":
                for seat in self._witnesses(entry):
                    counts[seat] += 1
                if FULL in self.lines:
                    texts = {k: _full_value(v, self.rules, self.names[FULL]) for k, v in entry["args"].items()}
                    line = event_text({"event": entry["event"], "args": texts}, self.rules)
                    if line is not None:
                        self.lines[FULL].append(line)
        for seat, n in counts.items():
            if seat == FULL:
                continue
            if not n:
                continue
            seen = game.observation(seat)["seen"]
            if n > len(seen):
                self.lines[seat].append(f"({n - len(seen)} earlier events not listed)")
            for event in seen[-n:]:
                line = event_text(event, self.rules, self.names[seat])
                if line is not None:
                    self.lines[seat].append(line)
        if game.result is not None and new and new[-1]["type"] == "end":
            for v in self.viewers:
                self.lines[v].append("game over: " + (result_text(game.result.to_dict()) or ""))
