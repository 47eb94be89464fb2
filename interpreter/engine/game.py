"""A running game: the state, the frame machine that runs compiled rule code, and the play API.

The state is flat and cheap to copy: per-card attribute dicts keyed by card id, zone lists of
card handles, player attribute dicts, game globals, temporary modifiers, one seeded random
generator and the stack of frames (the continuation of the rules). Decisions suspend the frame
machine; `apply` stores the answer in the waiting frame and resumes it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from ..errors import IllegalDecisionError, RuntimeRuleError, Span
from ..lang.runtime import Frame
from ..lang.values import (
    ATTACHED,
    CONTROLLER,
    OWNER,
    PART,
    STAMP,
    AbilityRef,
    CardRef,
    Labelled,
    PlayerRef,
    ZoneKey,
)
from .decisions import Decisions, Option, Pending
from .effects import ContinuousEffects, clamp
from .playout import RULE_ERRORS, PlayingOut


class _Marker:
    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


GAME = _Marker("game")
OPTIONS = _Marker("options")


@dataclass(frozen=True)
class Result:
    """How a game ended: the winner's seat (None for a draw), the reason, the turns played."""

    winner: int | None
    reason: str
    turns: int

    @property
    def draw(self) -> bool:
        return self.winner is None

    def to_dict(self) -> dict:
        return {"winner": self.winner, "draw": self.draw, "reason": self.reason, "turns": self.turns}


class GameWatcher(Protocol):
    """Follows a game as it is played, for a record of it (`Game.watcher`): told when a turn
    begins (before its `turn_start` event) and when a card moves from one zone to another."""

    def turn_began(self, game: Game) -> None: ...

    def moved(self, game: Game, card: CardRef, old: ZoneKey, new: ZoneKey) -> None: ...


class Game(ContinuousEffects, Decisions, PlayingOut):
    """One game of a compiled ruleset. Create it with `Rules.new_game`."""

    GAME = GAME
    OPTIONS = OPTIONS

    # ------------------------------------------------------------------ creation
    def __init__(self, rules, seed: int, log: bool = True) -> None:
        self.rules = rules
        self.options = rules.options
        self.seed = seed
        self.players = [PlayerRef(i + 1) for i in range(rules.player_count)]
        self.cards: dict[int, CardRef] = {}
        self.attrs: dict[int, dict] = {}
        self.card_zone: dict[int, ZoneKey] = {}
        self.zones: dict[ZoneKey, list[CardRef]] = {k: [] for k in rules.zone_keys}
        self.player_attrs = [dict(rules.player_defaults) for _ in self.players]
        self.globals = dict(rules.global_defaults)
        self.globals.update({"turn": 0, "phase": "", "active": None})
        self.turns_before = 0  # turns of the rounds before this one (`turn.rounds`: game.turn starts again)
        self.temp_mods: list[tuple] = []
        self.temp_grants: list[tuple] = []
        self.rng = random.Random(seed)
        self.frames: list[Frame] = []
        self.pending: Pending | None = None
        self.decide: Callable[[Game], Any] | None = None  # while `play_out` runs
        self.rolling = False  # while `play_out(fast=True)` runs: blocks run in their rollout form
        self.broken = ""  # why the game cannot go on (a fast `play_out` stopped half-way), or ""
        self.answered = 0
        self._interrupted: BaseException | None = None
        self._answer_box = Frame(None, {})  # where `ask_now` has an answer put
        self.result: Result | None = None
        self.halted = False
        self.logging = log
        self.log_entries: list[tuple] = []
        self.next_id = 1
        self.clock = 0
        # `version` changes with anything continuous effects may read; `layout` only with what
        # cards are where and how they are set up (zones, parts, controllers, attachments,
        # grants): caches that depend on that alone survive writes of attributes;
        # `static_layout` only with where the cards with static abilities are and how they are
        # set up (the index of static effects, `_statics`); `listener_layout` likewise with the
        # cards with triggered or replacement abilities, and any card while temporary grants
        # last (who listens to what, `_active_with`)
        self.version = 0
        self.layout = 0
        self.static_layout = 0
        self.listener_layout = 0
        self.revealed: set[int] = set()
        # the events players witnessed, newest first, as a chain of cells (name, args, seat,
        # older cell): seat 0 for an event every player witnessed, else its one witness (see
        # `witness`). Never changed, so shared by copies: a copy costs nothing, an event a tuple
        self.seen: tuple | None = None
        self.attached_ids: set[int] = set()  # cards attached to something (see `attachments`)
        self._static_version = -1
        self._static_index: dict[str, list] = {}
        self._active_cache: dict[tuple, tuple] = {}  # (event, table) -> (stamp, `_active_with`)
        self._targets_version = -1
        self._targets_cache: dict[str, list] = {}
        self._keywords_cache: dict[int, list] = {}
        self._reading: set = set()
        self._computing: set[str] = set()
        self.steps = 0
        # follows the game for a record (see `watch`); never copied into clones
        self.watcher: GameWatcher | None = None
        # called as (game, zone key) after each shuffle of a zone: a scenario's rigged order
        self.after_shuffle: Callable[[Game, ZoneKey], None] | None = None

    # ------------------------------------------------------------------ public API
    @property
    def is_over(self) -> bool:
        return self.result is not None

    def decision(self) -> tuple[int, Pending]:
        """The player who must decide now (seat, 1-based) and the legal options (a read-only
        sequence of Option, each made when first read)."""
        pending = self.pending
        if pending is None:
            raise IllegalDecisionError(self._no_decision("there is no decision to take"))
        return pending.seat, pending

    @property
    def prompt(self) -> str:
        return self.pending.prompt if self.pending else ""

    def apply(self, option: Option | int | str) -> None:
        """Take a decision: an Option from `decision()`, its index, its id or its label.

        An illegal decision raises IllegalDecisionError and leaves the state unchanged.
        """
        pending = self.pending
        if pending is None:
            raise IllegalDecisionError(self._no_decision("no decision can be taken"))
        value = self._answer_value(pending, option)
        if pending.shared:  # a copy waits on the same decision: its text must not follow this game
            pending.settle()
        self.frames[-1].locals[pending.var] = value
        self.pending = None
        self.halted = False
        self._run()

    def _answer_value(self, pending: Pending, option) -> Any:
        """The value of an answer to the pending decision, the decision logged; an answer that
        is not one of its options raises IllegalDecisionError."""
        if type(option) is int and not self.logging and 0 <= option < len(pending._values):
            value = pending._values[option]  # (by index, unlogged: no Option needed)
            if pending._unwrap or type(value) is Labelled:
                value = pending.value_at(option)
            return value
        chosen = self._find_option(pending, option)
        if self.logging:
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
        """Whether the player in `seat` may see this card (its zone's visibility, or revealed)."""
        key = self.card_zone.get(card.id)
        if key is None or card.id in self.revealed:
            return True
        visibility = self.rules.zones[key[0]].visibility
        return visibility == "public" or (visibility == "owner" and key[1] == seat)

    def clone(self, rng: random.Random | None = None) -> Game:
        """An independent copy for search: same rules, copied state and continuation (and a copy
        of the random generator, unless one is given)."""
        self._not_rolling("copied")
        new = Game.__new__(Game)
        new.__dict__.update(self.__dict__)
        new.cards = dict(self.cards)
        new.attrs = {k: v.copy() for k, v in self.attrs.items()}
        new.card_zone = dict(self.card_zone)
        new.zones = {k: list(v) for k, v in self.zones.items()}
        new.player_attrs = [dict(p) for p in self.player_attrs]
        new.globals = dict(self.globals)
        new.temp_mods = list(self.temp_mods)
        new.temp_grants = list(self.temp_grants)
        if rng is None:
            rng = random.Random.__new__(random.Random)  # Random() would seed itself from the OS first
            rng.setstate(self.rng.getstate())
        new.rng = rng
        new.watcher = None
        new.decide = None  # (a copy made while `play_out` asks is not played out itself)
        new.rolling = False
        new._interrupted = None
        new._answer_box = Frame(None, {})
        new.frames = [f.copy() for f in self.frames]
        if self.pending is not None:
            self.pending.shared = True  # (the copy shares it: see Pending)
        new.log_entries = list(self.log_entries)
        new.revealed = set(self.revealed)
        new.attached_ids = set(self.attached_ids)
        new._static_version = -1
        new._static_index = {}
        new._active_cache = {}
        new._targets_version = -1
        new._targets_cache = {}
        new._keywords_cache = {}
        new._granted_version = -1  # (a copy works out its own caches, as from the start)
        new._reading = set()
        new._computing = set()
        return new

    def determinize(self, player: int | PlayerRef, rng: random.Random) -> Game:
        """An independent copy in which everything `player` may not see (hidden cards, hidden
        picks of others, the random generator) is drawn anew from `rng`, consistently with what
        they see: the copy gives them the same observation and options. Two games that differ
        only in what is hidden from them give the same copy for the same `rng`. For search by
        a player who must not peek (see engine/determinize.py)."""
        from .determinize import determinize

        return determinize(self, player if isinstance(player, int) else player.seat, rng)

    def observation(self, player: int | PlayerRef, detail: bool = True) -> dict:
        """What the player may see, as plain JSON (see engine/observe.py), with the latest events
        they witnessed (`seen`); `detail=False` leaves out the attributes of the cards seen
        (their names stay), the labels of the player's options (their number stays) and the
        events seen, which is much cheaper."""
        from .observe import observation

        return observation(self, player if isinstance(player, int) else player.seat, detail)

    def to_json(self) -> dict:
        self._not_rolling("saved")
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

    def out_of_steps(self, f: Frame) -> None:
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
        return RuntimeRuleError(f"{type(err).__name__}: {err} in {self._code_at(span, f)}{card}", span)

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

    # ------------------------------------------------------------------ reading and writing
    def read_global(self, name: str):
        return self.globals[name]

    def read(self, obj, name: str):
        if type(obj) is CardRef:
            d = self.attrs.get(obj.id)
            if d is None:
                return self._card_gone(obj, name)
            if name in d:
                if self.temp_mods or name in self.rules.statically_modified:
                    index = self._static_index if self._static_version == self.static_layout else self._statics()
                    if name in index or self.temp_mods and self._temporarily_modified(name):
                        return self._modified(obj, name, d[name])
                return d[name]
            return self._card_property(obj, d, name)
        if type(obj) is PlayerRef:
            if name == "seat":
                return obj.seat
            v = self.player_attrs[obj.seat - 1][name]
            if (self.temp_mods or name in self.rules.statically_modified) and self._modifiable(name):
                return self._modified(obj, name, v)
            return v
        if type(obj) is list:
            return [self.read(x, name) for x in obj]
        if type(obj) is dict:
            return obj.get(name)
        if obj is GAME:
            return self.globals[name]
        if obj is None:
            self.runtime_error(f"cannot read '{name}' of none")
        self.runtime_error(f"cannot read '{name}' of {obj!r}")

    def read_base(self, obj, name: str):
        if type(obj) is CardRef:
            return self.attrs[obj.id][name]
        if type(obj) is PlayerRef:
            return self.player_attrs[obj.seat - 1][name]
        if obj is GAME:
            return self.globals[name]
        return self.read(obj, name)

    def _card_gone(self, card: CardRef, name: str):
        if name == "name":
            return card.defn.name
        if name == "zone":
            return None
        return None

    def _card_property(self, card: CardRef, d: dict, name: str):
        if name == "name":
            return card.defn.name
        if name == "zone":
            return self.card_zone[card.id][0]
        if name == "position":
            return self.position(card)
        if name == "owner":
            return d[OWNER]
        if name == "controller":
            return d[CONTROLLER]
        if name == "attached_to":
            return d[ATTACHED]
        if name == "part":
            return d[PART]
        if name == "id":
            return card.id
        if name == "type":
            return card.defn.type
        if name == "row":
            return self.card_zone[card.id][2]
        if name == "token":
            return card.defn.token
        self.runtime_error(f"card {card.defn.name} has no attribute '{name}'")

    def write(self, obj, name: str, value) -> None:
        if type(obj) is CardRef:
            d = self.attrs[obj.id]
            if name in d:
                lo_hi = obj.defn.clamps.get(name)
                if lo_hi is not None:
                    value = clamp(value, lo_hi)
                d[name] = value
                if name in self.rules.static_reads:
                    self.version += 1
            elif name == "part" or name == "controller":
                d[PART if name == "part" else CONTROLLER] = value
                # what a card's part or controller changes: its abilities where they work, and
                # static abilities that read them
                if self.card_zone[obj.id][0] in self.rules.watched_zones or name in self.rules.static_reads:
                    self._rearranged(obj.defn)
            else:
                self.runtime_error(f"card {obj.defn.name} has no attribute '{name}' to set")
        elif type(obj) is PlayerRef:
            lo_hi = self.rules.player_clamps.get(name)
            if lo_hi is not None:
                value = clamp(value, lo_hi)
            self.player_attrs[obj.seat - 1][name] = value
            if name in self.rules.static_reads:
                self.version += 1
        elif obj is GAME:
            self.globals[name] = value
            if name in self.rules.static_reads:
                self.version += 1
        elif obj is None:
            self.runtime_error(f"cannot set '{name}' of none")
        else:
            self.runtime_error(f"cannot set '{name}' of {obj!r}")

    # ------------------------------------------------------------------ zones and cards
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
        card = CardRef(card_id, defn)
        self.clock = clock = self.clock + 1
        d = defn.new_state.copy()  # the card type's attributes, then the card's own properties
        d[CONTROLLER] = d[OWNER] = owner
        d[STAMP] = clock
        self.cards[card_id] = card
        self.attrs[card_id] = d
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
            d = self.attrs[cid]
            if d[ATTACHED] is not None:
                d[ATTACHED] = None
                self.attached_ids.discard(cid)
            if d[OWNER] is None and key[1]:  # an unowned card (made in a shared zone) is owned by
                d[OWNER] = d[CONTROLLER] = self.players[key[1] - 1]  # the first player it goes to
            self.clock = d[STAMP] = self.clock + 1
            if self.revealed:  # (what was shown stays shown in its zone only: see `reveal`)
                self.revealed.discard(cid)
            if old in rules.watched_keys or key in rules.watched_keys:
                self._rearranged(card.defn)
            if self.watcher is not None:
                self.watcher.moved(self, card, old, key)
        elif key in rules.watched_keys:  # (a move within a zone)
            self.version += 1
            self.layout += 1
        if rules.moves_wanted:
            self.emit("moved", {"card": card, "from": old[0], "to": key[0]})

    def move_each(self, cards: list, key: ZoneKey, position) -> None:
        """`move LIST to ZONE`: each card in turn, as `move` does, in one loop when nothing
        watches the moves (no `moved` event wanted, no watcher, no position, a zone whose
        contents continuous effects do not read)."""
        rules = self.rules
        if (position is not None or rules.moves_wanted or self.watcher is not None
                or key in rules.watched_keys or len(cards) < 2):
            for card in cards:
                self.move(card, key, position)
            return
        zones, card_zone, attrs, dst = self.zones, self.card_zone, self.attrs, self.zones[key]
        watched = rules.watched_keys
        for card in cards:
            cid = card.id
            old = card_zone.get(cid)
            if old is None:
                self.runtime_error(f"card {card!r} is no longer in the game")
            zones[old].remove(card)
            dst.append(card)
            if old != key:
                card_zone[cid] = key
                d = attrs[cid]
                if d[ATTACHED] is not None:
                    d[ATTACHED] = None
                    self.attached_ids.discard(cid)
                if d[OWNER] is None and key[1]:
                    d[OWNER] = d[CONTROLLER] = self.players[key[1] - 1]
                self.clock = d[STAMP] = self.clock + 1
                if self.revealed:
                    self.revealed.discard(cid)
                if old in watched:
                    self._rearranged(card.defn)

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
        self.rng.shuffle(self.zones[key])
        if self.after_shuffle is not None:
            self.after_shuffle(self, key)
        if key[0] in self.rules.watched_zones:
            self.version += 1
            self.layout += 1

    def attach(self, card, target) -> None:
        if card is None:
            return
        self.attrs[card.id][ATTACHED] = target
        if target is None:
            self.attached_ids.discard(card.id)
        else:
            self.attached_ids.add(card.id)
        self.version += 1
        self.layout += 1

    def detach(self, card) -> None:
        if card is None:
            return
        self.attrs[card.id][ATTACHED] = None
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
        del self.attrs[card.id]
        del self.cards[card.id]
        self.attached_ids.discard(card.id)
        if key[0] in self.rules.watched_zones:
            self._rearranged(card.defn)

    def reveal(self, what) -> None:
        """Show cards to every player until each moves to another zone (another name, owner or
        row: a card passed face down from one hand to another is hidden again)."""
        for c in what if isinstance(what, list) else [what]:
            if isinstance(c, CardRef):
                self.revealed.add(c.id)

    def part_frame(self, card: CardRef | None, part: str) -> Frame | None:
        """A frame to run a card's part in (under its controller), or None if it has no such part."""
        code = card.defn.parts.get(part) if card is not None else None
        if code is None:
            return None
        d = self.attrs.get(card.id)
        return Frame(code, {}, card, d[CONTROLLER] if d is not None else None)

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

    # ------------------------------------------------------------------ activated abilities
    def activatable(self, cards: list) -> list[AbilityRef]:
        """The activated abilities of these cards that may be used now: the card is in an active
        zone, the ability's part is the card's part, and its `if` condition holds."""
        active = self.rules.active_zone_names
        card_zone = self.card_zone
        return self.activatable_in([card for card in cards if type(card) is CardRef and card.defn.activation
                                    and (key := card_zone.get(card.id)) is not None and key[0] in active])

    def activatable_in(self, cards: list) -> list[AbilityRef]:
        """`activatable` for cards known to be in an active zone (the cards of one)."""
        out = []
        attrs = self.attrs
        for card in cards:
            defn = card.defn
            if not defn.activation:
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
    def _ability_frame(ref: AbilityRef, d: dict) -> Frame:
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
        d = self.attrs.get(ref.card.id)
        return Frame(code, dict(ref.local_values), ref.card, d[CONTROLLER] if d is not None else None)

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

    # ------------------------------------------------------------------ procedures and events
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
        holders = []
        for zone in self.rules.active_zone_keys:
            for card in zones[zone]:
                if id(card) in granted:
                    abilities = self._abilities(card, table, name)
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
            self.seen = (name, args, 0, self.seen)
        elif witnessed is not None:
            self.witness(name, args)
        if name in rules.until_events:  # temporary effects that last until this event end
            if self.temp_mods:
                kept = [m for m in self.temp_mods if m[4] != name]
                if len(kept) != len(self.temp_mods):
                    self.temp_mods = kept
                    self.version += 1
            if self.temp_grants:
                before = len(self.temp_grants)
                self.temp_grants = [m for m in self.temp_grants if m[3] != name]
                if len(self.temp_grants) != before:
                    self.version += 1
                    self.layout += 1
                    self.listener_layout += 1
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
        if check.draw:
            self.finish(reason=check.reason)
        elif check.winner is not None:
            self.finish(winner=check.winner(self, frame), reason=check.reason)
        else:
            self.finish(loser=check.loser(self, frame), reason=check.reason)

    def finish(self, winner=None, loser=None, reason: str = "") -> None:
        if self.result is not None:
            return
        if loser is not None and winner is None:
            others = [p for p in self.players if p is not loser]
            winner = others[0] if len(others) == 1 else None
        seat = winner.seat if isinstance(winner, PlayerRef) else None
        self.result = Result(seat, reason, self.turns_before + self.globals["turn"])
        self.pending = None
        self.halted = True
        if self.logging:
            self.log_entries.append(("end", seat, reason))

# rule code that is no card's, whatever card's frame it is evaluated in (see `runtime_error`)
_NOT_OF_A_CARD = ("card ", "phase ", "end condition", "the set-up", "evaluate")
_DIRECT_DEPTH = 64  # frames deep that `descend` still runs frames from inside generated code
_RULE_ERRORS = RULE_ERRORS
