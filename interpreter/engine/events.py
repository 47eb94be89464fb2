"""The engine's procedures and events: calling rule code (now or as a frame), replacements,
emitting events to the abilities that listen (and to the players who witness them), the end
conditions, and the end of the game. A part of `GameState` (engine/state.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NoReturn

from ..lang.kinds import KIND_WORDS
from ..lang.runtime import Frame
from ..lang.values import (
    ATTACHED,
    CONTROLLER,
    PART,
    SILENCED,
    STAMP,
    CardRef,
    PlayerRef,
    TeamRef,
    type_name,
)
from .playout import RULE_ERRORS

DIRECT_DEPTH = 64  # frames deep that `descend` still runs frames from inside generated code
_DIRECT_DEPTH = DIRECT_DEPTH
_RULE_ERRORS = RULE_ERRORS


@dataclass(frozen=True)
class Result:
    """How a game ended.

    `winners`: the seats that won (sorted; several for a shared win, `win TEAM` or `win LIST`);
    `losers`: those that lost (`lose players`: every seat, a shared loss); neither: a draw.
    `winner`: the one winner's seat, None when no one or several won. `scores`: per seat (index
    seat - 1) in a scoring game (`score:`; in a game scored per team each member carries its
    team's score), else None. `teams`: the declared partnerships (seats), else None.
    `unfinished`: the game was stopped at its cap of decisions (`GameState.max_decisions`), not ended
    by its rules: no winner, and not a draw either."""

    winner: int | None
    reason: str
    turns: int
    unfinished: bool = False
    winners: tuple[int, ...] = ()
    scores: tuple[float, ...] | None = None
    teams: tuple[tuple[int, ...], ...] | None = None
    losers: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if self.winner is not None and not self.winners:  # (made the old way: one winner)
            object.__setattr__(self, "winners", (self.winner,))

    @property
    def draw(self) -> bool:
        return not self.winners and not self.losers and not self.unfinished

    @property
    def shared_loss(self) -> bool:
        """Every player lost (`lose players`): no winner, and no draw."""
        return not self.winners and bool(self.losers)

    @property
    def plain(self) -> bool:
        """A result the one-winner form says in full (no teams, no scores, at most one winner,
        and every other player a loser): its log entry is the one it always was."""
        return self.teams is None and self.scores is None and len(self.winners) <= 1 and \
            not (self.losers and not self.winners)

    def outcome(self, seat: int) -> float:
        """The result for the player in `seat`: +1 won, -1 lost, 0 a draw (0 for every seat of
        an unfinished game). Where the ruleset has teams a seat's result is its team's: won when
        a member is among the winners, else lost when a member is among the losers (so partners
        always share one result, and `win p` of one member is a win for the team)."""
        seats = next((t for t in self.teams if seat in t), (seat,)) if self.teams else (seat,)
        if any(s in self.winners for s in seats):
            return 1.0
        if any(s in self.losers for s in seats):
            return -1.0
        return 0.0

    def value(self, seat: int) -> float:
        """`outcome` from 0 to 1: 1 won, 0 lost, 0.5 a draw (what a search backs up)."""
        return (self.outcome(seat) + 1.0) / 2.0

    def to_dict(self) -> dict:
        return {"winner": self.winner, "draw": self.draw, "reason": self.reason, "turns": self.turns,
                "unfinished": self.unfinished, "winners": list(self.winners), "losers": list(self.losers),
                "scores": list(self.scores) if self.scores is not None else None,
                "teams": [list(t) for t in self.teams] if self.teams is not None else None}

    def observed(self) -> dict:
        """The result as observations show it: `to_dict`, but a plain result (see `plain`) as
        it always was, without the keys of teams and scores."""
        d = self.to_dict()
        if self.plain:
            for key in ("winners", "losers", "scores", "teams"):
                del d[key]
        return d

    @classmethod
    def from_dict(cls, r: dict) -> Result:
        """The result `to_dict` gave (or one saved before teams: its winner alone)."""
        winner = r["winner"]
        scores, teams = r.get("scores"), r.get("teams")
        return cls(winner, r["reason"], r["turns"], bool(r.get("unfinished")),
                   tuple(r.get("winners") or ((winner,) if winner is not None else ())),
                   tuple(scores) if scores is not None else None,
                   tuple(tuple(t) for t in teams) if teams is not None else None, tuple(r.get("losers") or ()))


class ProceduresAndEvents:
    """Calls, replacements, events and the end of the game, for `GameState`."""

    def call_now(self, name: str, code, values: dict, f) -> bool:
        """`call` and `descend` in one, for generated code: run the procedure at once; True when
        it has ended and `f` may go on, False when it stopped for a decision or the game ended."""
        frames = self.frames
        if name in self.rules.replaced or len(frames) > _DIRECT_DEPTH:
            self.call(name, code, values, f)
            return self.descend(f)
        return self._run_now(Frame(code, values, f.self_card, f.controller, f.event, f.applied), f)

    def _run_now(self, frame: Frame, f: Frame) -> bool:
        """Push a frame and run it now, above `f`: True when it has ended and `f` may go on."""
        if self.rolling:  # (the rollout form runs to its end, unless the game ends)
            self._roll(frame)
            return not self.halted
        frames = self.frames
        frames.append(frame)
        if frame.code.entries[frame.pc](self, frame):
            frames.pop()
            self.steps_left -= 1
            if self.steps_left < 0:
                self.out_of_steps(frame)
            return True
        return False if self.halted else self.descend(f)

    def call(self, name: str, code, values: dict, f) -> None:
        replacement = self._replacement(name, values, f) if name in self.rules.replaced else None
        self.frames.append(replacement or Frame(code, values, f.self_card, f.controller, f.event, f.applied))

    def replace_now(self, name: str, values: dict, f) -> bool:
        """For native code calling a procedure that may be replaced (by replacements that run
        natively): run the first replacement that applies to this call, to its end, and say
        whether one did (then the call is done)."""
        frame = self._replacement(name, values, f)
        if frame is None:
            return False
        self.frames.append(frame)
        try:
            (frame.code.rollout if self.rolling else frame.code.entries[0])(self, frame)
        except _RULE_ERRORS as err:
            raise self._located(err, frame) from None
        finally:
            self.frames.pop()
        return True

    def _replacement(self, name: str, values: dict, f) -> Frame | None:
        """The frame of the first replacement of a procedure that applies to a call of it from
        `f` (each applies once in a chain of replacements), or None."""
        anchor = self.rules.replacement_anchors.get(name)
        candidates = (self._active_with(name, "replacements") if anchor is None
                      else self._anchored_replacements(name, values.get(anchor[0]), anchor[1]))
        for card, ability, local_values in candidates:
            key = (card.id, ability.key)
            if key in f.applied:
                continue
            d = self.attrs[card.id]
            frame = Frame(ability.code, dict(local_values), card, d[CONTROLLER], values, f.applied | {key})
            if ability.condition is None or ability.condition(self, frame):
                return frame
        return None

    def _anchored_replacements(self, name: str, value, via: str) -> list[tuple]:
        """`_active_with(name, "replacements")` when every replacement of name applies only to
        its own card (via "self") or to what its card is attached to (via "attached_to"), and the
        call passes `value` there (`rules.replacement_anchors`): only those cards are looked at."""
        attrs = self.attrs
        if via == "self":
            if type(value) is not CardRef:
                return []
            cards = (value,)
        elif value is None:  # (every unattached card is attached to none)
            return self._active_with(name, "replacements")
        else:
            cards = [self.cards[i] for i in self.attached_ids if attrs[i][ATTACHED] is value]
            if len(cards) > 1:
                cards.sort(key=lambda c: attrs[c.id][STAMP])
        active = self.rules.active_zone_names
        out = []
        for card in cards:
            key = self.card_zone.get(card.id)
            if key is None or key[0] not in active:
                continue
            part = attrs[card.id][PART]
            for ability, local_values in self._abilities(card, "replacements", name):
                if ability.part is None or ability.part == part:
                    out.append((card, ability, local_values))
        return out

    def _active_with(self, name: str, table: str) -> list[tuple]:
        """Cards in active zones whose abilities (of table) listen to name, in timestamp order:
        (card, ability, keyword locals).

        Cached until a card with such abilities comes, goes or changes part or controller, or
        temporary grants change or any card moves while they last (`listener_layout`); or until
        anything static effects may read changes (the state version) where a keyword that some
        static ability grants brings abilities for name."""
        key = (name, table)
        # (negative: a state version, which a layout never equals)
        stamp = -1 - self.version if name in self.rules.grant_listened[table] else self.listener_layout
        hit = self._active_cache.get(key)
        if hit is not None and hit[0] == stamp:
            return hit[1]
        attrs = self.attrs
        zones = self.zones
        # only cards some grant applies to may have more than their printed abilities
        granted = self._granted() if self.temp_grants or stamp < 0 else ()
        silencing = self.rules.silencing
        holders = []
        for zone in self.rules.active_zone_keys:
            for card in zones[zone]:
                if id(card) in granted:
                    abilities = self._abilities(card, table, name)
                elif silencing and attrs[card.id][SILENCED] is not None:
                    abilities = None  # (a silenced card listens with what is granted to it alone)
                else:
                    abilities = getattr(card.defn, table).get(name)
                if abilities:
                    holders.append((card, abilities))
        if len(holders) > 1:  # (stable: a card's abilities stay in their order)
            holders.sort(key=lambda held: attrs[held[0].id][STAMP])
        result = []
        for card, abilities in holders:
            part = attrs[card.id][PART]
            for ability, local_values in abilities:
                if ability.part is None or ability.part == part:
                    result.append((card, ability, local_values))
        self._active_cache[key] = (stamp, result)
        return result

    def emit(self, name: str, args: dict) -> None:
        rules = self.rules
        if self.logging:
            self.log_entries.append(("event", name, args))
        witnessed = rules.event_witnesses.get(name)
        if witnessed == "":  # (every player witnesses it: `witness`, in short)
            if self.sight_kept:
                self.seen = (name, args, 0, self.seen)
        elif witnessed is not None:
            self.witness(name, args)
        if name in rules.until_events:  # temporary effects (and silences) that last until this event end
            self.end_temporary(name)
        for check in rules.end_checks.get(name, rules.end_checks_any):
            if check.when(self, rules.root_frame):
                self._end_by(check)
                return
        if name in rules.listened:
            triggered = []
            for card, ability, local_values in self._active_with(name, "triggers"):
                d = self.attrs[card.id]
                frame = Frame(ability.code, dict(local_values), card, d[CONTROLLER], args)
                if ability.condition is None or ability.condition(self, frame):
                    triggered.append(frame)
            self.frames.extend(reversed(triggered))

    def witness(self, name: str, args: dict) -> None:
        """Record an event for the observations of the players who witness it (`seen`, see
        `Rules.event_witnesses`): every player, or the one in the argument its visibility names
        (nobody if that holds no player). Its cards are shown, when an observation lists it, by
        where they are then, as anywhere else."""
        if not self.sight_kept:  # (see `GameState.sight_kept`)
            return
        argument = self.rules.event_witnesses[name]
        if not argument:
            self.seen = (name, args, 0, self.seen)
            return
        who = args.get(argument)
        if type(who) is PlayerRef:
            self.seen = (name, args, who.seat, self.seen)

    def end_by_check(self, event: str, index: int) -> None:
        """End the game by the end condition (of those checked after event) at index, which
        holds: for generated code that checks them itself (`CodeGenerator.end_checks`)."""
        rules = self.rules
        self._end_by(rules.end_checks.get(event, rules.end_checks_any)[index])

    def _end_by(self, check) -> None:
        frame = self.rules.root_frame
        # (a reason that shows values, "reached {...} points", is worked out now, before the end)
        reason = check.reason if check.reason_code is None else check.reason_code(self, frame)
        if check.draw:
            self.finish(reason=reason)
        elif check.winner is not None:
            self.finish(winner=check.winner(self, frame), reason=reason, span=check.span)
        else:
            self.finish(loser=check.loser(self, frame), reason=reason, span=check.span)

    def finish(self, winner=None, loser=None, reason: str = "", span=None) -> None:
        """End the game: `winner` wins, or `loser` loses (the others win), or neither (a draw).
        Each may be a player, a team (`teams:`) or a list of players (a shared result: `lose
        players` is a loss for everyone). `span`: where the result is given (default: the
        statement running)."""
        if self.result is not None:
            return
        seats = tuple(p.seat for p in self.players)
        winners: tuple[int, ...] = ()
        losers: tuple[int, ...] = ()
        if winner is not None:
            winners = self._seats_of("winner", winner, span)
            losers = tuple(s for s in seats if s not in winners)
        elif loser is not None:
            losers = self._seats_of("loser", loser, span)
            winners = tuple(s for s in seats if s not in losers)
        seat = winners[0] if len(winners) == 1 else None
        result = self.result = Result(seat, reason, self.turns_before + self.globals["turn"], False, winners,
                                      self._scores(), self._partnerships(), losers)
        self.pending = None
        self.halted = True
        if self.logging:
            self.log_entries.append(("end", seat, reason) if result.plain else ("end", seat, reason, False, result))

    def _seats_of(self, role: str, who, span) -> tuple[int, ...]:
        """The seats a result names as its winners or losers: a player's, a team's, or those of
        a list of players (not empty); anything else stops with a rule error."""
        kind = type(who)
        if kind is PlayerRef:
            return (who.seat,)
        if kind is TeamRef:
            return who.seats
        if kind is list and who and all(type(p) is PlayerRef for p in who):
            return tuple(sorted({p.seat for p in who}))
        self._not_players(role, who, span)

    def _scores(self) -> tuple | None:
        """Each seat's score in a scoring game (`score:`), else None."""
        score = self.rules.score
        if score is None:
            return None
        if score.per == "player":
            return tuple(d[score.attribute] for d in self.player_attrs)
        attrs = self.team_attrs
        return tuple(attrs[t.index - 1][score.attribute] for t in self.rules.team_of_seat)

    def _partnerships(self) -> tuple | None:
        return tuple(t.seats for t in self.rules.team_refs) if self.rules.teams is not None else None

    def _not_players(self, role: str, who, span) -> NoReturn:
        """Stop with a rule error: a result names something else than a player, a team or a
        list of players as its winner or loser (the load refuses it where the code says the
        kind, see `Checker.result_players`)."""
        shown = repr(who) if isinstance(who, str) else self.label(who)
        kind = type_name(who)
        what = "an empty list" if type(who) is list and not who else KIND_WORDS.get(kind, 'a ' + kind)
        self.runtime_error(f"the {role} of a game is a player, a team or a list of players, not {shown} ({what})",
                           span)

    def stop_unfinished(self) -> None:
        """End the game as unfinished: a decision is due past its cap (`max_decisions`)."""
        reason = f"unfinished: the cap of {self.max_decisions} decisions was reached"
        result = self.result = Result(None, reason, self.turns_before + self.globals["turn"], True, (),
                                      self._scores(), self._partnerships())
        self.pending = None
        self.halted = True
        if self.logging:
            self.log_entries.append(("end", None, reason, True) if result.plain else ("end", None, reason, True, result))


# rule code that is no card's, whatever card's frame it is evaluated in (see `runtime_error`)
