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

from .views import event_text, option_card_ids, result_text

FULL = "full"  # the viewer key of the full view
_ID_SUFFIX = re.compile(r"#\d+")


def _full_value(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return ", ".join(_full_value(v) for v in value) if value else "nothing"
    if isinstance(value, dict):
        return ", ".join(f"{k} {_full_value(v)}" for k, v in value.items())
    if value is True:
        return "yes"
    if value is False:
        return "no"
    if value is None:
        return "nobody"
    return _ID_SUFFIX.sub("", str(value))


class EventLog:
    """Lines per viewer (a seat, or FULL), kept up to date by `before_decision` and `record`."""

    def __init__(self, game: Any, full: bool = False) -> None:
        self.game = game
        self.rules = game.rules
        self.viewers: list[Any] = [p.seat for p in game.players] + ([FULL] if full else [])
        self.lines: dict[Any, list[str]] = {v: [] for v in self.viewers}
        self.cursor = 0
        self._decision: dict[Any, str] = {}
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

    def record(self) -> None:
        """Add the lines of what happened since the last call."""
        game = self.game
        new = game.log_since(self.cursor)
        self.cursor = game.log_length
        counts: dict[Any, int] = {v: 0 for v in self.viewers}
        for entry in new:
            if entry["type"] == "decision":
                for v in self.viewers:
                    self.lines[v].append(self._decision.get(v) or f"P{entry['player']} chooses")
                self._decision = {}
            elif entry["type"] == "event":
                for seat in self._witnesses(entry):
                    counts[seat] += 1
                if FULL in self.lines:
                    texts = {k: _full_value(v) for k, v in entry["args"].items()}
                    line = event_text({"event": entry["event"], "args": texts}, self.rules)
                    if line is not None:
                        self.lines[FULL].append(line)
        for seat, n in counts.items():
            if not n:
                continue
            seen = game.observation(seat)["seen"]
            if n > len(seen):
                self.lines[seat].append(f"({n - len(seen)} earlier events not listed)")
            for event in seen[-n:]:
                line = event_text(event, self.rules)
                if line is not None:
                    self.lines[seat].append(line)
        if game.result is not None and new and new[-1]["type"] == "end":
            for v in self.viewers:
                self.lines[v].append("game over: " + (result_text(game.result.to_dict()) or ""))
