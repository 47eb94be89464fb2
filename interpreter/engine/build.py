"""Compile a checked `Ruleset` into runnable `Rules`: generated code, ability indexes, the main program.

`Rules` is immutable after construction and shared by every game made from it; `new_game`
creates the cards of the decks and starts the main program (set-up, then the turn loop).
"""

from __future__ import annotations

import math
import random
from pathlib import Path
from typing import Any

from ..errors import NO_SPAN, DeckError, ErrorList, RulesError, RuntimeRuleError, Span, did_you_mean
from ..lang import ast
from ..lang.analysis import constant
from ..lang.compiler import SET_UP_START, Compiler
from ..lang.runtime import Frame, Names
from ..lang.values import ATTACHED, CONTROLLER, OWNER, PART, STAMP, ZoneKey
from ..rules.checker import Definitions, held_slots, label_fields, value_kinds
from ..rules.decks import Deck, load_deck
from ..rules.model import EVALUATED_PLAYER, Ruleset
from .analyses import (
    ability_events,
    ability_nodes,
    declared_attributes,
    event_witnesses,
    grantable_keywords,
    modified_attributes,
    private_points,
    replacement_anchors,
    static_reads,
    uniform_limits,
    until_events,
    watched_zones,
)
from .game import Game, GameWatcher
from .places import Place, place_of, rule_places
from .playout import RULE_ERRORS
from .rule_errors import rule_error_words
from .sites import DecisionSite, decision_sites, site_key
from .statistics import compile_statistics, number_of


class EndCheck:
    __slots__ = ("when", "winner", "loser", "draw", "reason", "span")

    def __init__(self, when, winner, loser, draw, reason, span=None) -> None:
        self.when, self.winner, self.loser, self.draw, self.reason = when, winner, loser, draw, reason
        self.span = span  # where its winner (or loser) is written, for a rule error


class Rules:
    """A loaded, checked and compiled ruleset with its options: make games with `new_game`."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self.name = ruleset.name
        self.title = ruleset.title
        self.options = dict(ruleset.options)
        self.player_count = ruleset.player_count
        # the numbers of players this ruleset may be loaded with (`--option players=N`)
        self.player_range = ruleset.player_range or (ruleset.player_count, ruleset.player_count)
        self.step_budget = ruleset.step_budget
        self.max_decisions = ruleset.max_decisions  # (a game's own may differ: `new_game`)
        self.turn_active = ruleset.turn_active
        self.zones = ruleset.zones
        self.events = ruleset.events
        defs: Definitions = ruleset.extra["definitions"]
        self.definitions = defs
        # what loaded but likely means something else (RuleWarning, located): `validate` shows them
        self.warnings = tuple(ruleset.extra.get("warnings", ()))

        keys, by_name, active = [], {}, []
        for z in ruleset.zones.values():
            seats = range(1, ruleset.player_count + 1) if z.per_player else [0]
            rows = z.rows or ("",)
            by_name[z.name] = [ZoneKey(z.name, s, r) for s in seats for r in rows]
            keys.extend(by_name[z.name])
            if z.active:
                active.extend(by_name[z.name])
        self.zone_keys = tuple(keys)
        self.zone_keys_by_name = by_name
        self.active_zone_keys = tuple(active)
        self.active_zone_names = {z.name for z in ruleset.zones.values() if z.active}
        self.player_defaults = {n: _copy(s.default) for n, s in ruleset.player_attributes.items()}
        self.player_clamps = {n: s.clamp for n, s in ruleset.player_attributes.items() if s.clamp}
        self.global_defaults = {n: _copy(s.default) for n, s in ruleset.globals.items()}
        self.global_clamps = {n: s.clamp for n, s in ruleset.globals.items() if s.clamp}
        # the values text attributes declared with `values:` may hold (`Game.allowed_value`)
        self.player_values = {n: s.values for n, s in ruleset.player_attributes.items() if s.values is not None}
        self.global_values = {n: s.values for n, s in ruleset.globals.items() if s.values is not None}
        self.root_frame = Frame(None, {})

        triggers, replaced = ability_events(defs)
        self.static_reads = static_reads(defs)
        self.watched_zones = watched_zones(ruleset, defs, self.static_reads)
        self.watched_keys = frozenset(k for k in keys if k[0] in self.watched_zones)
        ending: set[str] | None = set()  # events after which an end condition is checked
        for e in ruleset.end:
            if e.check_on is None:
                ending = None
                break
            ending.update(e.check_on)
        # built-in events are emitted only when something waits for them: a trigger, an end
        # condition's check_on, or a temporary effect's `until`
        self.until_events = until_events(ruleset)  # events that end temporary effects
        self.wanted_events = set(triggers) | self.until_events
        for e in ruleset.end:
            self.wanted_events.update(e.check_on or ())
        self.moves_wanted = "moved" in self.wanted_events  # (the built-in event of `Game.move`)
        names = Names(ruleset.zones, defs.procedures, defs.functions, defs.keywords, set(ruleset.card_types),
                      set(defs.cards), ruleset.player_count, set(triggers), replaced, ending)
        names.wanted_events = self.wanted_events
        # who witnesses each event (observations' `seen`; see `Game.witness`)
        self.event_witnesses = names.witnessed_events = event_witnesses(ruleset)
        for node in ability_nodes(defs):
            if isinstance(node, ast.Replacement):
                names.replacement_bodies.setdefault(node.event, []).append(node.body)
        names.zone_keys_by_name = self.zone_keys_by_name
        names.modified_attributes = modified_attributes(ruleset)
        names.player_attributes = set(ruleset.player_attributes)
        names.player_limits = {n: a.clamp for n, a in ruleset.player_attributes.items() if a.clamp}
        names.global_limits = dict(self.global_clamps)
        names.static_reads = self.static_reads
        names.watched_zones = self.watched_zones
        clamped = {n for n, a in ruleset.player_attributes.items() if a.clamp} | {
            n for t in ruleset.card_types.values() for n, a in t.attributes.items() if a.clamp}
        every = set(ruleset.player_attributes) | set(ruleset.globals) | {
            n for t in ruleset.card_types.values() for n in t.attributes}
        names.plain_attributes = every - clamped - self.static_reads
        self.enumerated_attributes = frozenset(a.name for a in declared_attributes(ruleset) if a.values is not None)
        names.enumerated_attributes = set(self.enumerated_attributes)
        names.limited_attributes = uniform_limits(ruleset, clamped - self.static_reads)
        if ending is not None:
            names.quiet_events = set(ruleset.events) - set(triggers) - ending - self.wanted_events
            names.ending_only_events = {
                event: [e.when for e in ruleset.end if event in e.check_on]
                for event in ending - set(triggers) - self.until_events}
        names.type_attributes = {name: frozenset(t.attributes) for name, t in ruleset.card_types.items()}
        names.card_attributes = set().union(*names.type_attributes.values())
        names.player_valued = {"active", "controller", "owner"} | {
            a.name for a in declared_attributes(ruleset) if a.type == "player"}
        names.held = held_slots(ruleset)
        names.kinds = value_kinds(ruleset, defs)
        compiler = Compiler(names)
        compiler.compile_all()
        self.compiler = compiler
        self.keyword_abilities = {name: compiler.keyword_bundle(k) for name, k in defs.keywords.items()}
        self.keyword_tables = {"triggers": {}, "replacements": {}}
        for name, abilities in self.keyword_abilities.items():
            params = defs.keywords[name].params
            for a in abilities:
                table = {"triggered": "triggers", "replacement": "replacements"}.get(a.kind)
                if table:
                    self.keyword_tables[table].setdefault(name, {}).setdefault(a.event, []).append((a, params))

        self.card_defs = {}
        for name, c in defs.cards.items():
            self.card_defs[name] = self._card(c, compiler)
        self.playable_card_names = [n for n, d in self.card_defs.items() if not d.token]
        self.grantable_keywords = grantable_keywords(self.card_defs.values())
        # the events and procedures for which a keyword that a static ability grants brings abilities
        self.grant_listened = {table: {name for k in self.grantable_keywords for name in by_keyword.get(k, {})}
                               for table, by_keyword in self.keyword_tables.items()}

        self.listened: set[str] = set()
        self.replaced: set[str] = set()
        self.statically_modified: set[str] = set()
        for abilities in [*self.keyword_abilities.values(), *(d.abilities for d in self.card_defs.values())]:
            for a in abilities:
                if a.kind == "triggered":
                    self.listened.add(a.event)
                elif a.kind == "replacement":
                    self.replaced.add(a.event)
                elif a.kind == "static":
                    self.statically_modified.update(e.attr for e in a.statics)
        self.static_grants = "" in self.statically_modified  # some static ability grants a keyword
        self.replacement_anchors = replacement_anchors(
            [*self.keyword_abilities.values(), *(d.abilities for d in self.card_defs.values())])
        self.turn_read = bool({"turn", "active"} & self.static_reads)  # static abilities read them
        self.round_names = tuple(level.name for level in self.ruleset.rounds)  # levels of `turn.rounds`

        self.end_checks: dict[str, list[EndCheck]] = {}
        self.end_checks_any: list[EndCheck] = []
        checks = []
        for e in ruleset.end:
            check = EndCheck(compiler.expression(e.when),
                             compiler.expression(e.winner) if e.winner is not None else None,
                             compiler.expression(e.loser) if e.loser is not None else None, e.draw, e.reason,
                             (e.winner or e.loser or e.when).span)
            checks.append((e.check_on, check))
        events = set(ruleset.events) | {ev for on, _ in checks if on for ev in on}
        for ev in events:
            self.end_checks[ev] = [c for on, c in checks if on is None or ev in on]
        self.end_checks_any = [c for on, c in checks if on is None]
        self._evaluate = compiler.expression(ruleset.evaluate) if ruleset.evaluate is not None else None
        self.statistics = compile_statistics(ruleset, compiler, self._evaluate)
        self._reward = compiler.expression(ruleset.reward) if ruleset.reward is not None else None
        self.decision_sites = decision_sites(ruleset)
        self._sites = {site_key(site.span): site for site in self.decision_sites}
        # the `choose` and `may` asked with a private prompt (`is_private`): their spans, in order,
        # and their site keys
        self.private_points = private_points(ruleset)
        self.private_sites = frozenset(site_key(span) for span in self.private_points)
        self.seen_count = ruleset.observing.seen  # events an observation lists (`seen`)

        self.main, self.phase_pcs, self.set_up_start = compiler.main_program(
            self.ruleset.setup, self.ruleset.phases, self.ruleset.rounds)
        self.set_up_pc = self.phase_pcs.pop(SET_UP_START, 0)  # where a game goes on after that start
        self._default_decks: list[Deck] | None = None
        self._prototypes: dict[tuple, Game] = {}  # the decks' cards in place, by the decks' contents
        self._started: dict[tuple, tuple] = {}  # by the decks' contents: (game, frame locals) after the set-up's start
        self._places: list[Place] | None = None  # where each part of the rule code is (`place_of`)
        self._check_requirements(compiler)
        self.codes = dict(compiler.codes)
        self.codes[self.main.name] = self.main

    # ------------------------------------------------------------------ pieces
    def _card(self, c, compiler: Compiler):
        ctype = self.ruleset.card_types[c.type]
        printed = {a.name: constant(a.value) for a in c.attrs}
        defn = compiler.card(c, printed, ctype.token)
        initial = {n: _copy(s.default) for n, s in ctype.attributes.items()}
        initial.update(printed)
        defn.initial = initial
        # a new card's attribute dict, copied by Game.new_card (which sets owner, controller, stamp)
        defn.new_state = {**initial, PART: None, ATTACHED: None, CONTROLLER: None, OWNER: None, STAMP: 0}
        defn.clamps = {n: s.clamp for n, s in ctype.attributes.items() if s.clamp}
        defn.allowed_values = {n: s.values for n, s in ctype.attributes.items() if s.values is not None}
        defn.label = ctype.label
        defn.keyword_names = frozenset(k for k, _args in defn.keywords)
        defn.label_fields = label_fields(ctype.label)  # (the loader checked the template)
        bound = [(a, {}) for a in defn.abilities]
        for kw_name, args in defn.keywords:
            params = self.ruleset.extra["definitions"].keywords[kw_name].params
            for a in self.keyword_abilities[kw_name]:
                bound.append((a, dict(zip(params, args))))
        defn.triggers = {}
        defn.replacements = {}
        defn.static_abilities = []
        for a, local_values in bound:
            if a.kind == "triggered":
                defn.triggers.setdefault(a.event, []).append((a, local_values))
            elif a.kind == "replacement":
                defn.replacements.setdefault(a.event, []).append((a, local_values))
            elif a.kind == "static":
                defn.static_abilities.append((a, local_values))
        defn.listens = bool(defn.triggers or defn.replacements)  # (see `Game.listener_layout`)
        defn.activated = [(a, lv) for a, lv in bound if a.kind == "activated"]
        # what `Game.activatable` checks, ability by ability: (index, part, condition)
        defn.activation = tuple((i, a.part, a.condition) for i, (a, _lv) in enumerate(defn.activated))
        # every one of them usable wherever the card is active, whatever its part (no `if`, no part)
        defn.activation_plain = all(part is None and condition is None for _i, part, condition in defn.activation)
        return defn

    def _check_requirements(self, compiler: Compiler) -> None:
        """The ruleset's `requires:` conditions, evaluated on an empty game at load time."""
        if not self.ruleset.requires:
            return
        game = Game(self, 0, log=False)
        errors = []
        for req in self.ruleset.requires:
            if not compiler.expression(req.that)(game, self.root_frame):
                errors.append(RulesError(req.message, req.span))
        if errors:
            raise ErrorList(errors) if len(errors) > 1 else errors[0]

    # ------------------------------------------------------------------ games
    def is_private(self, pending) -> bool:
        """Whether only the deciding player may see this decision's prompt and site (its prompt
        is one of the ruleset's `observation: {private_prompts}`)."""
        return bool(self.private_sites) and site_key(pending.span) in self.private_sites

    def site_of(self, pending) -> DecisionSite | None:
        """The `choose` a decision comes from (None for one the rules' code did not ask)."""
        return self._sites.get(site_key(pending.span))

    @property
    def has_evaluation(self) -> bool:
        """Whether the ruleset declares `evaluate:` (else every unfinished position is worth 0)."""
        return self._evaluate is not None

    def evaluate(self, game: Game, seat: int) -> float:
        """How well the player in `seat` stands: +inf for a game they won, -inf for one they
        lost, 0 for a draw; in a game not over, the ruleset's `evaluate:` expression with `p`
        bound to them, or 0 if it declares none."""
        result = game.result
        if result is not None:
            if result.winner is None:
                return 0.0
            return math.inf if result.winner == seat else -math.inf
        if self._evaluate is None:
            return 0.0
        try:
            value = self._evaluate(game, Frame(None, {EVALUATED_PLAYER: game.players[seat - 1]}))
        except RULE_ERRORS as err:  # (as `Game._located` reports them in rule code)
            raise RuntimeRuleError(f"evaluate: {rule_error_words(err)}", self.ruleset.evaluate.span) from None
        if type(value) is bool or not isinstance(value, (int, float)):
            raise RuntimeRuleError(f"evaluate: gave {value!r}, not a number", self.ruleset.evaluate.span)
        return float(value)

    @property
    def declares_reward(self) -> bool:
        """Whether the ruleset declares `reward:` (else a game's reward is its result's)."""
        return self._reward is not None

    def reward(self, game: Game, seat: int) -> float:
        """What the player in `seat` scores for a finished game: the ruleset's `reward:`
        expression with `p` bound to them, or +1 for a win, -1 for a loss, 0 for a draw; 0 for
        every player of a game stopped unfinished at its cap of decisions."""
        result = game.result
        if result is None:
            raise ValueError("a game has a reward only when it is over")
        if result.unfinished:
            return 0.0
        if self._reward is None:
            return 0.0 if result.winner is None else (1.0 if result.winner == seat else -1.0)
        return float(number_of(game, seat, self._reward, self.ruleset.reward, "reward"))

    def deck(self, source: Any, seat: int = 1) -> Deck:
        """Load and validate one deck: a deck file path, a mapping {card: count} or a list of names."""
        return load_deck(source, self, seat)

    def default_decks(self) -> list[Deck]:
        """The ruleset's default decks, one per seat (loaded once, then reused)."""
        if self._default_decks is None:
            d = self.ruleset.decks
            files = list(d.defaults) if d is not None else []
            for file in files:  # (at the ruleset's decks: a missing file has no place of its own)
                if not Path(file).is_file():
                    raise DeckError(f"the default deck {file} does not exist", d.span,
                                    hint="default: entries are relative to the ruleset file's folder")
            self._default_decks = [self.deck(files[i % len(files)], i + 1)
                                   for i in range(self.deck_count)] if files else []
        return self._default_decks

    def new_game(self, seed: int = 0, decks: list | None = None, log: bool = True,
                 watcher: GameWatcher | None = None, max_decisions: int | None = None) -> Game:
        """A new game, set up and running until its first decision (a `watcher` follows it
        from its start). `max_decisions`: its cap of decisions (default: the ruleset's
        `limits: {max_decisions}`, else 100000); a decision due past it ends the game unfinished.

        The seed-free start of the set-up (see `Compiler.main_program`) runs once per set of
        decks, in a game kept for that; each new game starts from a copy of it."""
        game, frame = self._started_game(seed, decks, log)
        game.watcher = watcher
        game.max_decisions = self.decision_cap(max_decisions)
        game.start(frame)
        return game

    def decision_cap(self, max_decisions: int | None) -> int:
        """A game's cap of decisions: the one given (a whole number from 1 on), else the ruleset's."""
        if max_decisions is None:
            return self.max_decisions
        if type(max_decisions) is not int or max_decisions < 1:
            raise ValueError(f"max_decisions must be a whole number from 1 on, not {max_decisions!r}")
        return max_decisions

    def _started_game(self, seed: int, decks: list | None, log: bool) -> tuple[Game, Frame]:
        """A game after the seed-free start of the set-up (if the set-up has one), and its main
        program's frame there."""
        if self.set_up_start is None:
            return self.empty_game(seed, decks, log), Frame(self.main, {})
        loaded = self._decks(decks)
        key = tuple((d.cards, d.sections) for d in loaded)
        started = self._started.get(key)
        if started is None:
            prototype = self.empty_game(0, decks, log=False)
            frame = Frame(self.set_up_start, {})
            prototype.run_through(frame)
            started = (prototype, frame.locals)
            _keep(self._started, key, started)
        prototype, names = started
        game = _copy_of(prototype, seed, loaded, log)
        frame = Frame(self.main, dict(names))
        frame.pc = self.set_up_pc
        return game, frame

    def play_out(self, decide, seed: int = 0, decks: list | None = None, log: bool = False,
                 watcher: GameWatcher | None = None, max_decisions: int | None = None) -> Game:
        """A new game played to its end by `decide`, as `new_game(...).play_out(decide,
        fast=True)` plays it, and faster: the set-up and the turns run in their rollout form
        too. Returns the game (`answered`: its number of decisions); if `decide` fails, its
        error is raised (see `Game.play_out`). A `watcher` follows the game from its start;
        `max_decisions` as for `new_game`."""
        game, frame = self._started_game(seed, decks, log)
        game.watcher = watcher
        game.max_decisions = self.decision_cap(max_decisions)
        game.play_from_start(decide, frame)
        return game

    def empty_game(self, seed: int = 0, decks: list | None = None, log: bool = True, made: bool = True) -> Game:
        """A game with its decks in place and nothing run yet (scenarios arrange it further;
        `made=False`: without the cards of `decks.made` either, for a position given in full).

        The cards of each set of decks are made once; later games start from a copy of them."""
        loaded = self._decks(decks)
        key = (tuple((d.cards, d.sections) for d in loaded), made)
        prototype = self._prototypes.get(key)
        if prototype is None:
            prototype = self._place_decks(Game(self, 0, log=False), loaded, made)
            _keep(self._prototypes, key, prototype)
        return _copy_of(prototype, seed, loaded, log)

    def _decks(self, decks: list | None) -> list[Deck]:
        if decks is None:
            return self.default_decks()
        if len(decks) != self.deck_count:
            needs = f"{self.deck_count} decks" if self.deck_count > 1 else "one deck, for the table"
            raise DeckError(f"{self.name} needs {needs}, got {len(decks)}")
        return [d if isinstance(d, Deck) else self.deck(d, i + 1) for i, d in enumerate(decks)]

    @property
    def deck_count(self) -> int:
        """How many decks a game takes: one per player, or one for the table when the decks go to
        a shared zone."""
        d = self.ruleset.decks
        shared = d is not None and d.zone in self.ruleset.zones and not self.ruleset.zones[d.zone].per_player
        return 1 if shared else self.player_count

    def _place_decks(self, game: Game, loaded: list[Deck], made: bool = True) -> Game:
        rules = self.ruleset.decks
        zone = rules.zone if rules else None
        section_zones = {sec.name: sec.zone for sec in (rules.sections if rules else ())}
        shared = self.deck_count == 1 and self.player_count > 1
        for seat, deck in enumerate(loaded, start=1):
            owner = None if shared else game.players[seat - 1]
            for name in deck.cards:
                game.new_card(self.card_defs[name], ZoneKey(zone, 0 if shared else seat, ""), owner)
            for section, names in deck.sections:
                key = game.zone_key(section_zones[section], owner, None)
                for name in names:
                    game.new_card(self.card_defs[name], key, owner)
        for zone in rules.made if rules and made else ():
            spec = self.ruleset.zones[zone.zone]
            owners = game.players if spec.per_player else [None]
            for owner in owners:
                key = ZoneKey(zone.zone, owner.seat if owner else 0, "")
                for defn in self._made_cards(zone):
                    game.new_card(defn, key, owner)
        return game

    def _made_cards(self, made) -> list:
        """The cards `decks.made` puts in its zone, one entry per copy, in the card set's order."""
        out = []
        for defn in self.card_defs.values():
            if defn.token or (made.types is not None and defn.type not in made.types):
                continue
            if isinstance(made.copies, int):
                copies = made.copies
            else:  # (the card's printed value, else its type's default)
                spec = self.ruleset.card_types[defn.type].attributes[made.copies]
                copies = defn.attrs.get(made.copies, spec.default)
            out += [defn] * int(copies or 0)
        return out

    def place_of(self, span: Span | None) -> str | None:
        """The part of the rules whose code holds the span (a procedure, a function, the set-up, a
        phase, an end condition), or None: for runtime errors (found once, on the first)."""
        if self._places is None:
            self._places = rule_places(self.ruleset, self.definitions)
        return place_of(self._places, span)

    def card_span(self, name: str) -> Span:
        defn = self.card_defs.get(name)
        return defn.span if defn else NO_SPAN

    def unknown_card(self, name: str) -> str:
        return f"no card named {name!r}{did_you_mean(name, self.card_defs)}"


def _copy_of(prototype: Game, seed: int, decks: list[Deck], log: bool) -> Game:
    """A new game from a copy of a prototype game, with its own seed, decks and logging."""
    game = prototype.clone(rng=random.Random(seed))
    game.seed = seed
    game.logging = log
    game.decks = decks
    return game


def _keep(cache: dict, key: tuple, value) -> None:
    """Keep a prototype for these decks, up to 32 sets of decks."""
    if len(cache) < 32:
        cache[key] = value


def _copy(value):
    return list(value) if isinstance(value, list) else value
