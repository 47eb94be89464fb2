"""One game at the table: the server keeps the Game; each seat gets only its own observation.

Humans send moves as `{"type": "move", "decision": N, "option": K}`: N is the number of the
decision they answer (the table's `version`, in every state sent), K the option index of one of
their moves. Anything else is refused with a `MoveRefused` saying why, and the game is left as
it was: a malformed message, a move for a seat this connection does not play, a move when it is
another player's decision, a decision that is no longer current, an option that is not offered.
The other seats are played by agents, until a human must decide or the game is over.

After each decision every seat's state carries `last_move`: who moved, the move as that seat may
read it (the log's line) and the cards it touched that the seat sees (the cards its option names,
unless the decision is private to the mover, and the cards that changed zone), which the page
highlights. Before an agent takes a decision the pages are sent `{"type": "thinking", "seat",
"name", "version"}` (`thinking_message`), and a state after each of its decisions.

Each human seat has a secret token (`tokens`, random per session): only a page that shows it
sits at that seat (the server checks it, `app.seat_for`). Agent seats have none, so no page sees
them while the game runs.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

from ..agents import answer_of, view_of
from ..errors import CardrulesError
from ..presentation import card_places
from .eventlog import EventLog
from .views import option_card_ids, table_view


class MoveRefused(Exception):
    """A message from a page that the table does not act on; `code` says which kind."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def to_json(self) -> dict:
        return {"type": "error", "code": self.code, "message": self.message}


MOVE_SHAPE = '{"type": "move", "decision": <number>, "option": <option index>}'


class TableSession:
    """A game between humans (seats whose agent is None) and agents."""

    mode = "table"

    def __init__(self, rules: Any, seed: int, names: Sequence[str], agents: Sequence[Any | None]) -> None:
        if len(agents) != rules.player_count or len(names) != rules.player_count:
            raise ValueError(f"{rules.player_count} seats, {len(agents)} agents, {len(names)} names")
        self.rules = rules
        self.seed = seed
        self.names = list(names)
        self.agents = list(agents)
        self.humans = [seat for seat, agent in enumerate(self.agents, start=1) if agent is None]
        self.tokens = {seat: secrets.token_urlsafe(16) for seat in self.humans}  # (128 random bits each)
        self.game = rules.new_game(seed=seed, log=True)
        self.log = EventLog(self.game)
        self.version = 0  # decisions taken so far: the number of the current decision
        self.failure: str | None = None  # why the game stopped (an agent or a rule failed)
        self.last_move: dict[int, dict] = {}  # per seat: the last decision taken, as that seat sees it

    # ------------------------------------------------------------ playing
    def _where(self) -> dict[int, dict[int, tuple[str, str]]]:
        """Per seat: each card it sees, by id -> (owner, zone key)."""
        return {seat: {i: (p.owner, p.zone) for i, p in card_places(self.game.observation(seat, detail=False)).items()}
                for seat in range(1, self.rules.player_count + 1)}

    def _take(self, option: Any) -> None:
        game = self.game
        mover = game.pending.seat
        private = self.rules.is_private(game.pending)
        before = self._where()
        self.log.before_decision(option)
        lines = {seat: self.log.decision_line(seat, option) for seat in before}
        game.apply(option)
        self.version += 1
        self.log.record()
        after = self._where()
        for seat, seen in after.items():
            named = [] if private and seat != mover else option_card_ids(option.id)
            moved = [i for i, where in seen.items() if before[seat].get(i) != where]
            cards = [i for i in dict.fromkeys([*named, *moved]) if i in seen]
            self.last_move[seat] = {"number": self.version - 1, "seat": mover, "name": self.names[mover - 1],
                                    "text": lines[seat], "cards": cards}

    def thinking_message(self) -> dict:
        """What the pages are sent when an agent starts a decision."""
        seat = self.game.pending.seat
        return {"type": "thinking", "seat": seat, "name": self.names[seat - 1], "version": self.version}

    def waiting_for_agent(self) -> bool:
        game = self.game
        return (not game.is_over and self.failure is None and game.pending is not None
                and self.agents[game.pending.seat - 1] is not None)

    def advance(self, limit: int | None = None) -> int:
        """Let the agents take their decisions until a human must decide, the game is over, or
        `limit` decisions were taken; returns how many were taken. An agent or rule that fails
        stops the game with `failure` set."""
        taken = 0
        while self.waiting_for_agent() and (limit is None or taken < limit):
            view = view_of(self.game)
            try:
                answer = answer_of(self.agents[view.seat - 1], view)
                self._take(view.options[answer] if type(answer) is int else answer)
            except CardrulesError as err:
                self.failure = f"P{view.seat} ({self.names[view.seat - 1]}) failed: {err}"
                break
            taken += 1
        return taken

    def submit(self, seat: int, message: Any) -> None:
        """A human's move from the page of `seat`; raises MoveRefused, the game unchanged."""
        if not isinstance(message, dict):
            raise MoveRefused("malformed", f"a message is a JSON object such as {MOVE_SHAPE}")
        kind = message.get("type")
        if kind != "move":
            raise MoveRefused("malformed", f"unknown message type {kind!r}: send {MOVE_SHAPE}")
        decision, option = message.get("decision"), message.get("option")
        for key, value in (("decision", decision), ("option", option)):
            if type(value) is not int:
                raise MoveRefused("malformed", f"'{key}' must be a whole number, not {value!r}: send {MOVE_SHAPE}")
        claimed = message.get("seat", seat)
        if claimed != seat:
            raise MoveRefused("other-seat", f"this page plays P{seat}; a move for P{claimed} is refused "
                                            f"(P{claimed} plays from its own address)")
        game = self.game
        if game.is_over:
            raise MoveRefused("game-over", "the game is over: no more moves")
        if self.failure is not None:
            raise MoveRefused("stopped", f"the game has stopped: {self.failure}")
        pending = game.pending
        if seat not in self.humans:
            raise MoveRefused("other-seat", f"P{seat} is played by {self.names[seat - 1]}, not from this page")
        if pending.seat != seat:
            raise MoveRefused("not-your-decision",
                              f"it is P{pending.seat}'s decision ({self._prompt_for(seat)}), not P{seat}'s")
        if decision != self.version:
            raise MoveRefused("stale", f"decision {decision} is no longer current: this is decision "
                                       f"{self.version} ('{pending.prompt}'); the table has been redrawn")
        if not 0 <= option < len(pending):
            raise MoveRefused("illegal", f"option {option} is not one of the {len(pending)} options of "
                                         f"'{pending.prompt}' (0..{len(pending) - 1})")
        self._take(pending[option])

    def _prompt_for(self, seat: int) -> str:
        decision = self.game.observation(seat, detail=False)["decision"] or {}
        return f"'{decision['prompt']}'" if decision.get("prompt") else "a hidden decision"

    # ------------------------------------------------------------ what a page sees
    def state(self, seat: int) -> dict:
        """Everything the page of `seat` draws, from that seat's observation only."""
        obs = self.game.observation(seat)
        view = table_view(obs, self.rules)
        thinking = self.waiting_for_agent()
        return {
            "type": "state",
            "mode": self.mode,
            "title": self.rules.title,
            "seat": seat,
            "version": self.version,
            "seats": [{"seat": s, "name": n, "human": s in self.humans} for s, n in enumerate(self.names, start=1)],
            "thinking": thinking,
            "thinking_seat": self.game.pending.seat if thinking else None,
            "last_move": self.last_move.get(seat),
            "failure": self.failure,
            "log": self.log.lines[seat][-200:],
            **view,
        }
