"""A logged game, step by step: step k is the table before the k-th logged decision (the last
step the end), seen from any seat or in full, with the decision taken there.

The game is re-run from the log's header (seed, decks, options) and its decisions; a decision
the game does not offer is a `ReplayError` located at its line. The full view is the
observation of a copy of the step's game in which every card is revealed, each player's own
attributes taken from their own observation.
"""

from __future__ import annotations

from typing import Any

from ..errors import CardrulesError, Span
from .eventlog import FULL, EventLog
from .views import table_view


class ReplayError(CardrulesError):
    """A log whose decisions do not fit the game it describes."""

    phase = "log"


class ReplaySession:
    """The steps of a logged game; `state(step, viewer)` for a seat (int) or FULL."""

    mode = "replay"

    def __init__(self, rules: Any, header: dict, entries: list[tuple[int, dict]], path: str = "log") -> None:
        self.rules = rules
        self.path = path
        self.names = list(header.get("players") or [f"P{p}" for p in range(1, rules.player_count + 1)])
        game = rules.new_game(seed=header["seed"], decks=header.get("decks") or None, log=True,
                              max_decisions=header.get("max_decisions"))
        log = EventLog(game, full=True)
        self.steps: list[dict] = []
        for number, entry in entries:
            if entry.get("type") != "decision":
                continue
            if game.is_over or game.pending is None:
                raise ReplayError("the log has a decision after the game is over", Span(path, number, 1))
            wanted = str(entry.get("option"))
            option = next((o for o in game.pending if o.id == wanted), None)
            if option is None:
                offered = ", ".join(o.id for o in list(game.pending)[:12])
                raise ReplayError(f"P{game.pending.seat}'s decision '{game.pending.prompt}' has no option "
                                  f"{wanted!r} (it offers {offered}): the log does not fit the game",
                                  Span(path, number, 1))
            log.before_decision(option)
            self.steps.append(self._snapshot(game, log, taken={v: log._decision[v] for v in log.viewers},
                                             line=number))
            game.apply(option)
            log.record()
        self.steps.append(self._snapshot(game, log, taken=None, line=None))

    @staticmethod
    def _snapshot(game: Any, log: EventLog, taken: dict | None, line: int | None) -> dict:
        return {"game": game.clone() if not game.is_over else game, "taken": taken, "line": line,
                "log": {v: list(lines) for v, lines in log.lines.items()}}

    def viewers(self) -> list[Any]:
        return [p for p in range(1, self.rules.player_count + 1)] + [FULL]

    def observation(self, step: int, viewer: Any) -> dict:
        game = self.steps[step]["game"]
        if viewer != FULL:
            return game.observation(viewer)
        deciding = game.pending.seat if game.pending is not None else 1
        obs = game.observation(deciding, reveal_all=True)
        obs["players"] = [game.observation(p.seat)["players"][p.seat - 1] for p in game.players]
        obs["viewer"] = FULL
        return obs

    def state(self, step: int, viewer: Any) -> dict:
        """What the page draws at step `step` (0-based) for `viewer` (a seat or FULL)."""
        snap = self.steps[step]
        obs = self.observation(step, viewer)
        view = table_view(obs, self.rules, open_piles=viewer == FULL)
        if view["decision"] is not None:  # (shown, not taken: a replay only steps)
            view["decision"]["yours"] = False
        taken = snap["taken"]
        return {
            "type": "state",
            "mode": self.mode,
            "title": self.rules.title,
            "seat": viewer,
            "viewers": self.viewers(),
            "step": step,
            "steps": len(self.steps),
            "line": snap["line"],
            "taken": taken[viewer] if taken else None,
            "seats": [{"seat": s, "name": n, "human": False} for s, n in enumerate(self.names, start=1)],
            "log": snap["log"][viewer][-200:],
            **view,
        }
