"""A running game: the state, the frame machine that runs compiled rule code, and the play API.

The state is flat and cheap to copy: each card's stored values as a row (a list: the engine's
properties at fixed slots, then its attributes at the slots `Rules.attr_slots` gives; see
lang/values.py), the rows in a list by card id, zone lists of card handles, player attribute
dicts, game globals, temporary modifiers, one seeded random generator and the stack of frames (the continuation of the rules). Decisions suspend the frame
machine; `apply` stores the answer in the waiting frame and resumes it.

`GameState` is assembled from parts, one responsibility each: zones.py (where cards are, how they
move), abilities.py (activated abilities), events.py (calls, replacements, events, the end),
effects.py (continuous effects), decisions.py (asking and answering), playout.py (playing to
the end), attributes.py (reading and writing values, a card's row owned before it is written);
this module holds the state, the public API and the frame machine.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, NoReturn, Protocol

from ..errors import GameStateError, IllegalDecisionError, RuntimeRuleError, Span
from ..lang.rule_runtime import RuleRuntime
from ..lang.runtime import Frame
from ..lang.values import (
    SHOWN,
    CardRef,
    Labelled,
    PlayerRef,
    ZoneKey,
)
from .abilities import ActivatedAbilities
from .attributes import GAME, OPTIONS, Attributes
from .decisions import Decisions, Option, Pending
from .effects import ContinuousEffects
from .events import DIRECT_DEPTH as _DIRECT_DEPTH
from .events import ProceduresAndEvents, Result
from .playout import RULE_ERRORS, PlayingOut
from .rule_errors import rule_error_words
from .state_fields import init_runtime, make_clone
from .zones import ZonesAndCards

_new_random = random.Random.__new__




class GameWatcher(Protocol):
    """Follows a game as it is played, for a record of it (`GameState.watcher`): told when a turn
    begins (before its `turn_start` event), when a card moves from one zone to another, and when
    a zone was shuffled."""

    def turn_began(self, game: GameState) -> None: ...

    def moved(self, game: GameState, card: CardRef, old: ZoneKey, new: ZoneKey) -> None: ...

    def shuffled(self, game: GameState, key: ZoneKey) -> None: ...


class GameState(ZonesAndCards, ActivatedAbilities, ProceduresAndEvents, ContinuousEffects, Decisions, PlayingOut,
                Attributes):
    """One game of a compiled ruleset. Create it with `Rules.new_game`.

    It is the runtime that generated rule code calls: `RuleRuntime` (lang/rule_runtime.py)
    declares every member of it that code may use."""

    GAME = GAME
    OPTIONS = OPTIONS

    # ------------------------------------------------------------------ creation
    def __init__(self, rules, seed: int, log: bool | str = True) -> None:
        # every field is declared in engine/state_fields.py (how copies and saved games keep it)
        self.rules = rules
        self.options = rules.options
        self.seed = seed
        self.players = [PlayerRef(i + 1) for i in range(rules.player_count)]
        self.all_seats = sum(1 << p.seat for p in self.players)
        self.decks: list = []
        self.cards: dict[int, CardRef] = {}
        self.attrs: list[list] = [[]]  # each card's row of stored values, by card id (empty: no card, or gone)
        self.attrs_owned = bytearray(1)  # 1 where this game owns the row (see `own_row`)
        self.card_zone: dict[int, ZoneKey] = {}
        self.zones: dict[ZoneKey, list[CardRef]] = {k: [] for k in rules.zone_keys}
        self.player_attrs = [dict(rules.player_defaults) for _ in self.players]
        self.team_attrs = [dict(rules.team_defaults) for _ in rules.team_refs]
        self.globals = dict(rules.global_defaults)
        self.globals.update({"turn": 0, "phase": "", "active": None})
        self.temp_mods: list[tuple] = []
        self.temp_grants: list[tuple] = []
        self._rng = random.Random(seed)
        self._rng_share: list[int] | None = None
        self.frames: list[Frame] = []
        self.pending: Pending | None = None
        self.result: Result | None = None
        self.log_entries: list[tuple] = []
        self.logging = log
        self.next_id = 1
        self.clock = 0
        self.revealed: set[int] = set()
        self.seen: tuple | None = None
        self.sight_kept = True
        self.stamps_kept = True
        self.steps = 0
        self.turns_before = 0
        self.decisions = 0
        self.max_decisions: int = rules.max_decisions
        self.halted = False
        self.attached_ids: set[int] = set()
        self.answered = 0
        self.broken = ""
        self.returned: Any = None
        self.steps_left = rules.step_budget  # (set again by `_run` and `play_out` before rule code runs)
        self.kept = 0
        self.after_shuffle: Callable[[GameState, ZoneKey], None] | None = None
        # called as (game, decision) for a choice with one option, which the engine takes without
        # asking: a scenario's (which names such choices, or has them asked: True asks it)
        self.one_option: Callable[[GameState, Pending], bool] | None = None
        init_runtime(self)  # what plays or watches this one game, and the caches (as declared there)

    # ------------------------------------------------------------------ public API
    @property
    def is_over(self) -> bool:
        return self.result is not None

    def decision(self) -> tuple[int, Pending]:
        """The player who must decide now (seat, 1-based) and the legal options (a read-only
        sequence of Option, each made when first read)."""
        pending = self.pending
        if pending is None:
            raise GameStateError(self._no_decision("there is no decision to take"))
        return pending.seat, pending

    @property
    def prompt(self) -> str:
        return self.pending.prompt if self.pending else ""

    def apply(self, option: Option | int | str) -> None:
        """Take a decision: an Option from `decision()`, its index, its id or its label.

        An illegal decision raises IllegalDecisionError (a ValueError) and leaves the state
        unchanged; with no decision pending, GameStateError.
        """
        pending = self.pending
        if pending is None:
            raise GameStateError(self._no_decision("no decision can be taken"))
        value = self._answer_value(pending, option)
        pending.taken_by(self)  # (a copy may wait on the same decision: its texts must not follow this game)
        self.frames[-1].locals[pending.var] = value
        self.pending = None
        self.halted = False
        self._run()

    def _answer_value(self, pending: Pending, option) -> Any:
        """The value of an answer to the pending decision, the decision logged; an answer that
        is not one of its options raises IllegalDecisionError."""
        if type(option) is int and self.logging is not True and 0 <= option < len(pending._values):
            value = pending._values[option]  # (by index, no decision logged: no Option needed)
            if pending._unwrap or type(value) is Labelled:
                value = pending.value_at(option)
            return value
        chosen = self._find_option(pending, option)
        if self.logging is True:  # (not for a log of events alone: see `Rules.new_game`)
            self.log_entries.append(("decision", pending.seat, chosen.id, chosen.label))
        return chosen.value

    def _find_option(self, pending: Pending, option) -> Option:
        options = pending
        if isinstance(option, Option):
            if option.index < len(options) and options[option.index] is option:
                return option
            if option.decision is not None and option.decision is not pending:
                raise IllegalDecisionError(
                    f"{option!r} is an option of an earlier decision, not of P{pending.seat}'s decision "
                    f"'{pending.prompt}': take the options from game.decision()")
            for o in options:
                if o.id == option.id:
                    return o
        elif isinstance(option, bool):
            pass
        elif isinstance(option, int):
            if 0 <= option < len(options):
                return options[option]
            raise IllegalDecisionError(
                f"option index {option} is out of range for P{pending.seat}'s decision '{pending.prompt}' "
                f"(0..{len(options) - 1})")
        elif isinstance(option, str):
            for o in options:
                if o.id == option:
                    return o
            for o in options:
                if o.label == option:
                    return o
        legal = ", ".join(f"[{o.index}] {o.label} ({o.id})" for o in options[:12])
        more = " ..." if len(options) > 12 else ""
        raise IllegalDecisionError(
            f"{option!r} is not a legal option for P{pending.seat}'s decision '{pending.prompt}'; "
            f"legal options: {legal}{more}")

    @property
    def log(self) -> list[dict]:
        """The events and decisions so far, as JSON-ready dicts."""
        from .serialize import log_entry

        return [log_entry(self, e) for e in self.log_entries]

    def log_since(self, start: int) -> list[dict]:
        """The log entries from index `start` on (cheap to poll after each decision)."""
        from .serialize import log_entry

        return [log_entry(self, e) for e in self.log_entries[start:]]

    @property
    def log_length(self) -> int:
        return len(self.log_entries)

    def visible(self, card: CardRef, seat: int) -> bool:
        """Whether the player in `seat` may see this card (its zone's visibility, or revealed to
        every player or to them)."""
        key = self.card_zone.get(card.id)
        if key is None or card.id in self.revealed or self.attrs[card.id][SHOWN] >> seat & 1:
            return True
        visibility = self.rules.zones[key[0]].visibility
        return (visibility == "public" or (visibility == "owner" and key[1] == seat)
                or (visibility == "others" and key[1] != seat))

    # `clone(rng=None)`, an independent copy for search, is written from engine/state_fields.py
    # (after the class)
    clone: Callable[..., GameState]

    @property
    def rng(self) -> random.Random:
        """The game's random generator. A copy made by `clone()` shares its original's (copying
        the state of a generator is half the time of a copy) until either draws from it: this
        is how both get at it, and the first of them to ask gets a copy of the state, the last
        one the generator itself (`_rng_share`: how many games share `_rng`, or None)."""
        share = self._rng_share
        if share is not None:
            self._rng_share = None
            if share[0] > 1:
                share[0] -= 1
                rng = _new_random(random.Random)  # (Random() would seed itself from the OS first)
                rng.setstate(self._rng.getstate())
                self._rng = rng
        return self._rng

    @rng.setter
    def rng(self, value: random.Random) -> None:
        self._rng = value
        self._rng_share = None

    def determinize(self, player: int | PlayerRef, rng: random.Random) -> GameState:
        """An independent copy in which everything `player` may not see (hidden cards, hidden
        picks of others, the random generator) is drawn anew from `rng`, consistently with what
        they see: the copy gives them the same observation and options. Two games that differ
        only in what is hidden from them give the same copy for the same `rng`. For search by
        a player who must not peek (see engine/determinize.py). The copy's `kept`: how many
        hidden cards it had to keep as they are, or of their card type (0 in the shipped games'
        decisions, for the player deciding)."""
        from .determinize import determinize

        self.sight_needed("a copy drawn for a player")
        return determinize(self, player if isinstance(player, int) else player.seat, rng)

    def observation(self, player: int | PlayerRef, detail: bool = True) -> dict:
        """What the player may see, as plain JSON (see engine/observe.py), with the latest events
        they witnessed (`seen`); `detail=False` leaves out the attributes of the cards seen
        (their names stay), the labels of the player's options (their number stays) and the
        events seen, which is much cheaper."""
        from .observe import observation

        self.sight_needed("a player's observation")
        return observation(self, player if isinstance(player, int) else player.seat, detail)

    def to_json(self) -> dict:
        self._not_rolling("saved")
        self.sight_needed("its saved form")
        from .serialize import game_to_json

        return game_to_json(self)

    def perform(self, procedure: str, controller: int | None = None, **args: Any) -> None:
        """Run a ruleset procedure now (for tests and scripts), until it ends or a decision is due."""
        code = self.rules.compiler.procedure_codes.get(procedure)
        if code is None:
            raise RuntimeRuleError(f"no procedure {procedure!r}")
        player = self.players[controller - 1] if controller else None
        self.halted = False
        depth = len(self.frames)
        self.call(procedure, code, dict(args), Frame(None, {}, None, player))
        self._run(depth)

    # ------------------------------------------------------------------ the frame machine
    def start(self, frame: Frame) -> None:
        self.frames.append(frame)
        self._run()

    def run_through(self, frame: Frame) -> None:
        """Run a block that cannot stop (no decision, nothing that hands control to other rule
        code) to its end, alone."""
        self.frames.append(frame)
        try:
            ended = frame.code.entries[frame.pc](self, frame)
        except _RULE_ERRORS as err:
            raise self._located(err, frame) from None
        finally:
            self.frames.pop()
        if not ended:
            raise AssertionError(f"{frame.code.name} stopped")

    def _run(self, depth: int = 0) -> None:
        """Run frames until a decision is due, the game ends, or the frames above `depth` end."""
        frames = self.frames
        budget = self.rules.step_budget
        self.steps_left = budget
        while len(frames) > depth:
            f = frames[-1]
            try:
                ended = f.code.entries[f.pc](self, f)
            except _RULE_ERRORS as err:
                raise self._located(err, frames[-1]) from None
            if ended:
                frames.pop()
            elif self.halted:
                break
            self.steps_left -= 1
            if self.steps_left < 0:
                self.out_of_steps(f)
        self.steps += budget - self.steps_left
        if not frames and not depth and self.result is None:
            self.finish(reason="the rules ended without a result")

    def descend(self, f: Frame) -> bool:
        """Run the frames pushed above `f` (a call, triggered abilities) right away, as `_run`
        would next; True when they have all ended and `f` may go on, False when they stopped
        for a decision or the game ended. Saves unwinding to `_run` and re-entering `f`. While
        `rolling`, the frames pushed run in their rollout form, at any depth: rule code in that
        form calls this after a statement that pushed frames, and cannot unwind to `_run`."""
        frames = self.frames
        if len(frames) > _DIRECT_DEPTH and not self.rolling:  # deep recursion of rule calls: let
            return False  # `_run` go on
        while True:
            top = frames[-1]
            if top is f:
                return True
            if self.rolling and top.pc == 0:  # (a frame pushed while rolling: its rollout form)
                top.code.rollout(self, top)
                ended = not self.halted
            else:
                ended = top.code.entries[top.pc](self, top)
            if ended:
                frames.pop()
            elif self.halted:
                return False
            self.steps_left -= 1
            if self.steps_left < 0:
                self.out_of_steps(top)

    def out_of_steps(self, f: Frame) -> NoReturn:
        budget = self.rules.step_budget
        raise RuntimeRuleError(
            f"step budget of {budget} exceeded without a decision: a rule loop ran away in "
            f"{self._code_at(f.code.span, f)}" + (f" (card {f.self_card.name})" if f.self_card is not None else ""),
            f.code.span)

    def _located(self, err: Exception, f: Frame) -> RuntimeRuleError:
        """A Python error inside rule code, turned into an error at the rule's statement."""
        if type(err) is RecursionError:
            return self.too_deep(err, f)
        span = self.rules.compiler.gen.ns.span_of(err) or f.code.span
        card = f" (card {f.self_card.defn.name})" if f.self_card is not None else ""
        return RuntimeRuleError(f"{rule_error_words(err)} in {self._code_at(span, f)}{card}", span)

    def _code_at(self, span: Span | None, f: Frame) -> str:
        """The rule code that holds the span: a procedure or a function (one written into its
        caller's frame runs under the caller's name), the set-up, a phase, an end condition;
        else the frame's block. The main program is named by the part of it running."""
        where = self.rules.place_of(span)
        if where is not None:
            return where
        if f.code is not None and f.code is not self.rules.main and f.code.name != "set-up start":
            return f.code.name
        phase = self.globals.get("phase")
        return f"phase {phase}" if phase else "the set-up"

    def runtime_error(self, message: str, span: Span | None = None):
        """Stop with an error in rule code: the message, the procedure that holds the span (or
        the running block) and the card whose ability runs, at the span (by default, the rule
        statement running)."""
        if span is None:
            span = self.rules.compiler.gen.ns.span_running()
        if not self.frames:
            raise RuntimeRuleError(f"{message} (in the rules)", span)
        f = self.frames[-1]
        if span is None and f.code is not None:
            span = f.code.span
        where = self._code_at(span, f)
        if f.self_card is not None and not where.startswith(_NOT_OF_A_CARD):
            where += f", card {f.self_card.defn.name}"
        raise RuntimeRuleError(f"{message} (in {where})", span)

    # ------------------------------------------------------------------ turn structure
    def begin_turn(self) -> None:
        g = self.globals
        rules = self.rules
        turn = g["turn"] = g["turn"] + 1
        if rules.turn_active == "alternate":
            if g["active"] is None:
                g["active"] = self.players[0]
            elif turn > 1:
                g["active"] = self.players[g["active"].seat % len(self.players)]
        if rules.turn_read:  # (as `write` would: static abilities that read these look again)
            self.version += 1
        if self.watcher is not None:
            self.watcher.turn_began(self)
        if self.logging or "turn_start" in rules.wanted_events or rules.end_checks_any:
            self.emit("turn_start", {"turn": turn, "player": g["active"]})

    def begin_round(self, level: int) -> None:
        """A round of the turn structure's level `level` begins (`turn.rounds`): its counter
        goes up, those of the levels inside it and `game.turn` start again from 0."""
        g = self.globals
        names = self.rules.round_names
        g[names[level]] += 1
        for inner in names[level + 1:]:
            g[inner] = 0
        self.turns_before += g["turn"]
        g["turn"] = 0
        self.version += 1  # (as `write` would)

    def begin_phase(self, name: str) -> None:
        self.globals["phase"] = name  # (as `write` would)
        if "phase" in self.rules.static_reads:
            self.version += 1
        if "phase_start" in self.rules.wanted_events:
            self.emit("phase_start", {"phase": name})


GameState.clone = make_clone(GameState)  # type: ignore[method-assign]

# GameState is the runtime generated rule code calls (a static check; tests/test_rule_runtime.py
# checks the members and their parameters at run time)
_: type[RuleRuntime] = GameState

_NOT_OF_A_CARD = ("card ", "phase ", "end condition", "the set-up", "evaluate")
_RULE_ERRORS = RULE_ERRORS
