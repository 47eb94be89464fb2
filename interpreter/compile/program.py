"""Compile a checked `Ruleset` into a `Program`: generated code, ability indexes, the main program
and what the analyses of the rules' code found.

`compile_ruleset(ruleset)` does all of the work done once per ruleset; the `Program` it gives is
immutable (no field is set after construction, and no container in it is changed after) and is
shared by every game made from it, through the runtime's `Rules` (engine/rules.py), which reads it
and nothing else of the compilation. Two things stay the runtime's: the `requires:` conditions are
compiled here but evaluated by `Rules` on an empty game, and the places of the rule code
(compile/places.py) are found by `Rules` on the first runtime error only.

The compiler inside (`Program.compiler`) keeps the code it writes on first use: the rollout form
(`Compiler.compile_rollout`) and the blocks of a scenario's own cards.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, is_dataclass, replace
from typing import Any

from ..errors import Span
from ..lang import ast, ir
from ..lang.analysis import constant
from ..lang.lower import lowered
from ..lang.members import attributes_of, is_token, printed_text
from ..lang.runtime import CardDefinition, Code, Fn, Names
from ..lang.values import ABSENT, ATTACHED, PROPERTY_DEFAULTS, PROPERTY_KEYS, TeamRef, ZoneKey
from ..rules.card_types import subtypes
from ..rules.checker import Definitions, held_slots, label_fields, value_kinds
from ..rules.model import Ruleset, Score, Teams
from .analyses import (
    ability_events,
    all_abilities,
    declared_attributes,
    event_witnesses,
    grantable_keywords,
    modified_attributes,
    plain_moves,
    private_points,
    replacement_anchors,
    static_reads,
    uniform_limits,
    until_events,
    watched_zones,
)
from .compiler import SET_UP_START, Compiler
from .sites import DecisionSite, decision_sites, site_key
from .statistics import CompiledStatistics, compile_statistics


class EndCheck:
    """An end condition, compiled: `when` holds -> the game ends with its winner, loser or draw."""

    __slots__ = ("when", "winner", "loser", "draw", "reason", "span", "reason_code")

    def __init__(self, when, winner, loser, draw, reason, span=None, reason_code=None) -> None:
        self.when, self.winner, self.loser, self.draw, self.reason = when, winner, loser, draw, reason
        self.span = span  # where its winner (or loser) is written, for a rule error
        self.reason_code = reason_code  # a reason that shows values ("{...}"): its text, worked out at the end


@dataclass(frozen=True)
class Requirement:
    """A `requires:` condition, compiled: the runtime evaluates `that` on an empty game."""

    that: Fn
    message: str
    span: Span | None


@dataclass(frozen=True, slots=True)
class Program:
    """A compiled ruleset: everything the runtime (`Rules`, `GameState`) reads of its rules.

    Every field is readable as an attribute of `Rules` too (`rules.card_defs`, ...)."""

    ruleset: Ruleset
    # the ruleset's own declarations, as the runtime reads them
    name: str
    title: str
    options: dict[str, Any]
    player_count: int
    player_range: tuple[int, int]  # the numbers of players this ruleset may be loaded with
    step_budget: int
    max_decisions: int  # the ruleset's cap of decisions (a game's own may differ)
    turn_active: str
    zones: dict
    events: dict
    definitions: Definitions  # the checker's definitions: cards, keywords, procedures, functions
    warnings: tuple  # what loaded but likely means something else (RuleWarning, located)
    # zones and attributes
    zone_keys: tuple[ZoneKey, ...]
    zone_keys_by_name: dict[str, list[ZoneKey]]
    active_zone_keys: tuple[ZoneKey, ...]
    active_zone_names: set[str]
    player_defaults: dict[str, Any]
    player_clamps: dict[str, tuple]
    global_defaults: dict[str, Any]
    global_clamps: dict[str, tuple]
    player_values: dict[str, tuple]  # the values text attributes declared with `values:` may hold
    global_values: dict[str, tuple]
    enumerated_attributes: frozenset[str]
    # card attribute -> its slot in a card's row of stored values (see lang/values.py's PART, ...)
    attr_slots: dict[str, int]
    # the slots of a card's row that may hold a card or an ability (what determinization follows)
    reference_slots: tuple[int, ...]
    # what the analyses found (compile/analyses.py)
    static_reads: set[str]
    watched_zones: frozenset[str]
    watched_keys: frozenset[ZoneKey]
    until_events: set[str]  # events that end temporary effects
    wanted_events: set[str]  # built-in events some rule waits for (else never emitted)
    moves_wanted: bool  # (the built-in event of `GameState.move`)
    plain_moves: bool  # without sight kept, a move changes only a place, a first owner, a reveal to all
    event_witnesses: dict[str, str]  # who witnesses each event (observations' `seen`)
    # the compiled code
    compiler: Compiler
    keyword_abilities: dict[str, list]
    keyword_tables: dict[str, dict]
    card_defs: dict[str, CardDefinition]
    playable_card_names: list[str]
    grantable_keywords: frozenset[str]
    grant_listened: dict[str, set[str]]  # events and procedures a granted keyword brings abilities for
    listened: set[str]
    replaced: set[str]
    statically_modified: set[str]
    static_grants: bool  # some static ability grants a keyword
    replacement_anchors: dict[str, tuple[str, str]]
    turn_read: bool  # static abilities read `turn` or `active`
    round_names: tuple[str, ...]  # levels of `turn.rounds`
    end_checks: dict[str, list[EndCheck]]  # by event: the end conditions checked after it
    end_checks_any: list[EndCheck]  # those checked after every event
    evaluate_code: Fn | None  # `evaluate:`, compiled
    reward_code: Fn | None  # `reward:`, compiled
    statistics: CompiledStatistics
    decision_sites: tuple[DecisionSite, ...]
    sites_by_key: dict[tuple, DecisionSite]
    private_points: tuple[Span, ...]  # the `choose` and `may` asked with a private prompt, in order
    private_sites: frozenset[tuple]  # and their site keys
    seen_count: int  # events an observation lists (`seen`)
    main: Code  # set-up, then the turns
    phase_pcs: dict[str, int]  # where each phase starts in `main`
    set_up_start: Code | None  # the seed-free start of the set-up, run once per set of decks
    set_up_pc: int  # where a game goes on after that start
    requirements: tuple[Requirement, ...]
    codes: dict[str, Code]  # every code block by name, with `main`
    # teams and scores (`teams:`, `score:`; rules/teams.py)
    teams: Teams | None  # the declared teams, None without
    team_refs: list[TeamRef]  # one handle per team, in order (`teams` in the language)
    team_of_seat: tuple[TeamRef, ...]  # each seat's team (index seat - 1); () without teams
    team_defaults: dict[str, Any]
    team_clamps: dict[str, tuple]
    score: Score | None  # a scoring game's score, None for another
    # some code silences cards (`silence`): abilities and keywords are looked up through it
    silencing: bool = False

    def with_options(self, options: dict[str, Any]) -> Program:
        """This program for its ruleset loaded with other option values (`options_only_differ`
        says when that is the program a compilation of that ruleset gives): the compiled code
        reads the options at run time (`g.options[...]`, from `Rules.options`), and nothing
        else compiled here depends on them (only `ruleset.options` and `options` hold them), so
        every other field is this program's, shared. The ruleset is this one's with the options
        replaced: its definitions and warnings kept, and what it keeps of itself once found (its
        code nodes, the checker's name context: of its code and declarations, which name the
        options but never read their values)."""
        ruleset = replace(self.ruleset, options=dict(options))
        for name, value in vars(self.ruleset).items():
            vars(ruleset).setdefault(name, value)
        return replace(self, ruleset=ruleset, options=dict(options))


def options_only_differ(ruleset: Ruleset, loaded: Ruleset) -> bool:
    """Whether `ruleset` (as built by the loader, not checked yet) is `loaded` (checked and
    compiled) but for its option values: every other field of the two, and of everything in
    them, exactly the same -- spans and the other fields left out of their `==` included, types
    too (1 is not True), dicts in the same order. The number of players and the deck rules are
    fields of their own, so a `players:` option or a deck format option that changes them makes
    the two differ (what the checker sets, `definitions` and `warnings`, is left out: it is
    found from the other fields alone, the option values never read)."""
    if type(ruleset) is not type(loaded):
        return False
    return all(_identical(getattr(ruleset, f.name), getattr(loaded, f.name))
               for f in fields(Ruleset) if f.name not in ("options", "definitions", "warnings"))


def _identical(a: Any, b: Any) -> bool:
    """Whether two values of a ruleset are the same in every field, recursively."""
    if a is b:
        return True
    if type(a) is not type(b):
        return False
    if is_dataclass(a):
        return all(_identical(getattr(a, f.name), getattr(b, f.name)) for f in fields(a))
    if isinstance(a, dict):
        return len(a) == len(b) and all(
            _identical(ka, kb) and _identical(va, vb) for (ka, va), (kb, vb) in zip(a.items(), b.items()))
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(_identical(x, y) for x, y in zip(a, b))
    if isinstance(a, (str, int, float, bool, type(None), frozenset, set)):
        return a == b
    return False  # (anything else, e.g. an object compared by identity: not known to be the same)


def compile_ruleset(ruleset: Ruleset, base: Program | None = None) -> Program:
    """Compile a checked ruleset (the checker has set its definitions) into its `Program`.

    `base`: the program of a ruleset this one extends with more cards (a scenario's own cards on
    top of its shared ruleset). When the added cards change nothing the compiler reads but the
    card names (no new trigger, replacement, static read, witnessed event...: `_extends`), the
    base's procedures, functions, keywords, cards, main program and expressions are reused and
    only the new cards are compiled; else the whole ruleset is, as without a base. Either way
    the program is what a compilation of the whole would give."""
    defs = ruleset.definitions
    if defs is None:
        raise ValueError(f"the ruleset {ruleset.name!r} is not checked: load it with rules.loader.load_ruleset")
    keys, by_name, active = [], {}, []
    for z in ruleset.zones.values():
        seats = range(1, ruleset.player_count + 1) if z.per_player else [0]
        rows = z.rows or ("",)
        by_name[z.name] = [ZoneKey(z.name, s, r) for s in seats for r in rows]
        keys.extend(by_name[z.name])
        if z.active:
            active.extend(by_name[z.name])
    global_clamps = {n: s.clamp for n, s in ruleset.globals.items() if s.clamp}

    low = lowered(ruleset, defs, base.ruleset if base is not None else None)  # (what the analyses read)
    triggers, replaced = ability_events(low)
    reads = static_reads(low)
    watched = watched_zones(ruleset, low, reads)
    ending: set[str] | None = set()  # events after which an end condition is checked
    for e in ruleset.end:
        if e.check_on is None:
            ending = None
            break
        ending.update(e.check_on)
    # built-in events are emitted only when something waits for them: a trigger, an end
    # condition's check_on, or a temporary effect's `until`
    until = until_events(low)
    wanted = set(triggers) | until
    for e in ruleset.end:
        wanted.update(e.check_on or ())
    names = Names(ruleset.zones, defs.procedures, defs.functions, defs.keywords, set(ruleset.card_types),
                  set(defs.cards), ruleset.player_count, set(triggers), replaced, ending)
    names.wanted_events = wanted
    witnesses = names.witnessed_events = event_witnesses(ruleset, low)
    for a in all_abilities(low):
        if a.kind == "replacement":
            names.replacement_bodies.setdefault(a.event, []).append(a.body)
    names.zone_keys_by_name = by_name
    names.modified_attributes = modified_attributes(low)
    names.player_attributes = set(ruleset.player_attributes)
    names.player_limits = {n: a.clamp for n, a in ruleset.player_attributes.items() if a.clamp}
    names.global_limits = dict(global_clamps)
    names.static_reads = reads
    names.watched_zones = watched
    names.plain_moves = plain_moves(low, watched, wanted)
    clamped = {n for n, a in ruleset.player_attributes.items() if a.clamp} | {
        n for t in ruleset.card_types.values() for n, a in t.attributes.items() if a.clamp}
    every = set(ruleset.player_attributes) | set(ruleset.globals) | {
        n for t in ruleset.card_types.values() for n in t.attributes}
    names.plain_attributes = every - clamped - reads
    enumerated = frozenset(a.name for a in declared_attributes(ruleset) if a.values is not None)
    names.enumerated_attributes = set(enumerated)
    names.limited_attributes = uniform_limits(ruleset, clamped - reads)
    if ending is not None:
        names.quiet_events = set(ruleset.events) - set(triggers) - ending - wanted
        names.ending_only_events = {
            event: [e.when for e in ruleset.end if event in e.check_on]
            for event in ending - set(triggers) - until}
    names.type_attributes = {name: frozenset(t.attributes) for name, t in ruleset.card_types.items()}
    names.subtypes = subtypes(ruleset.card_types)
    names.card_attributes = set().union(*names.type_attributes.values())
    names.attr_slots = attribute_slots(ruleset, defs)
    names.player_valued = {"active", "controller", "owner"} | {
        a.name for a in declared_attributes(ruleset) if a.type == "player"}
    names.held = held_slots(ruleset)
    reuse = base is not None and _extends(ruleset, names, base)
    if reuse:
        assert base is not None
        names.kinds = base.compiler.names.kinds  # (of the same declarations, functions and keywords)
        compiler = base.compiler.extended(names)
        keyword_abilities, keyword_tables = base.keyword_abilities, base.keyword_tables
    else:
        names.kinds = value_kinds(ruleset, defs)
        compiler = Compiler(names)
        compiler.compile_all()
        keyword_abilities = {name: compiler.keyword_bundle(k) for name, k in defs.keywords.items()}
        keyword_tables = {"triggers": {}, "replacements": {}}
        for name, abilities in keyword_abilities.items():
            params = defs.keywords[name].params
            for a in abilities:
                table = {"triggered": "triggers", "replacement": "replacements"}.get(a.kind)
                if table:
                    keyword_tables[table].setdefault(name, {}).setdefault(a.event, []).append((a, params))

    card_defs = {name: base.card_defs[name] if reuse and name in base.card_defs
                 else _card(ruleset, defs, c, compiler, keyword_abilities) for name, c in defs.cards.items()}
    grantable = grantable_keywords(card_defs.values())

    listened: set[str] = set()
    replaced_events: set[str] = set()
    statically_modified: set[str] = set()
    for abilities in [*keyword_abilities.values(), *(d.abilities for d in card_defs.values())]:
        for a in abilities:
            if a.kind == "triggered":
                listened.add(a.event)
            elif a.kind == "replacement":
                replaced_events.add(a.event)
            elif a.kind == "static":
                statically_modified.update(e.attr for e in a.statics)

    if reuse:  # (none of these reads a card)
        assert base is not None
        end_checks, end_checks_any = base.end_checks, base.end_checks_any
        evaluate_code, statistics, reward_code = base.evaluate_code, base.statistics, base.reward_code
        main, phase_pcs, set_up_start, set_up_pc = base.main, base.phase_pcs, base.set_up_start, base.set_up_pc
        requirements = base.requirements
    else:
        checks = []
        for e in ruleset.end:
            check = EndCheck(compiler.expression(e.when),
                             compiler.expression(e.winner) if e.winner is not None else None,
                             compiler.expression(e.loser) if e.loser is not None else None, e.draw, e.reason,
                             (e.winner or e.loser or e.when).span,
                             compiler.expression(e.reason_value) if e.reason_value is not None else None)
            checks.append((e.check_on, check))
        events = set(ruleset.events) | {ev for on, _ in checks if on for ev in on}
        end_checks = {ev: [c for on, c in checks if on is None or ev in on] for ev in events}
        end_checks_any = [c for on, c in checks if on is None]
        evaluate_code = compiler.expression(ruleset.evaluate) if ruleset.evaluate is not None else None
        statistics = compile_statistics(ruleset, compiler, evaluate_code)
        reward_code = compiler.expression(ruleset.reward) if ruleset.reward is not None else None
        main, phase_pcs, set_up_start = compiler.main_program(ruleset.setup, ruleset.phases, ruleset.rounds)
        set_up_pc = phase_pcs.pop(SET_UP_START, 0)
        requirements = tuple(Requirement(compiler.expression(req.that), req.message, req.span)
                             for req in ruleset.requires)
    references = reference_slots(ruleset, compiler.names.attr_slots)
    for defn in card_defs.values():  # (printed values hold no card: determinization need not walk them)
        defn.printed_references = tuple(defn.new_row[slot] for slot in references)
    sites = decision_sites(ruleset)
    privates = private_points(ruleset)
    codes = dict(compiler.codes)
    codes[main.name] = main

    return Program(
        ruleset=ruleset, name=ruleset.name, title=ruleset.title, options=dict(ruleset.options),
        player_count=ruleset.player_count,
        player_range=ruleset.player_range or (ruleset.player_count, ruleset.player_count),
        step_budget=ruleset.step_budget, max_decisions=ruleset.max_decisions, turn_active=ruleset.turn_active,
        zones=ruleset.zones, events=ruleset.events, definitions=defs,
        warnings=ruleset.warnings,
        zone_keys=tuple(keys), zone_keys_by_name=by_name, active_zone_keys=tuple(active),
        active_zone_names={z.name for z in ruleset.zones.values() if z.active},
        player_defaults={n: _copy(s.default) for n, s in ruleset.player_attributes.items()},
        player_clamps={n: s.clamp for n, s in ruleset.player_attributes.items() if s.clamp},
        global_defaults={n: _copy(s.default) for n, s in ruleset.globals.items()},
        global_clamps=global_clamps,
        player_values={n: s.values for n, s in ruleset.player_attributes.items() if s.values is not None},
        global_values={n: s.values for n, s in ruleset.globals.items() if s.values is not None},
        enumerated_attributes=enumerated, attr_slots=compiler.names.attr_slots,
        reference_slots=references,
        static_reads=reads, watched_zones=watched, watched_keys=frozenset(k for k in keys if k[0] in watched),
        until_events=until, wanted_events=wanted, moves_wanted="moved" in wanted, event_witnesses=witnesses,
        plain_moves=names.plain_moves,
        compiler=compiler, keyword_abilities=keyword_abilities, keyword_tables=keyword_tables,
        card_defs=card_defs, playable_card_names=[n for n, d in card_defs.items() if not d.token],
        grantable_keywords=grantable,
        grant_listened={table: {name for k in grantable for name in by_keyword.get(k, {})}
                        for table, by_keyword in keyword_tables.items()},
        listened=listened, replaced=replaced_events, statically_modified=statically_modified,
        static_grants="" in statically_modified,
        replacement_anchors=replacement_anchors(
            [*keyword_abilities.values(), *(d.abilities for d in card_defs.values())]),
        turn_read=bool({"turn", "active"} & reads),
        round_names=tuple(level.name for level in ruleset.rounds),
        end_checks=end_checks, end_checks_any=end_checks_any,
        evaluate_code=evaluate_code, reward_code=reward_code, statistics=statistics,
        decision_sites=sites, sites_by_key={site_key(site.span): site for site in sites},
        private_points=privates, private_sites=frozenset(site_key(span) for span in privates),
        seen_count=ruleset.observing.seen,
        main=main, phase_pcs=phase_pcs, set_up_start=set_up_start, set_up_pc=set_up_pc,
        requirements=requirements, codes=codes, **_team_fields(ruleset),
        silencing=any(type(n) is ir.GameOp and n.op == "silence" for n in low.nodes()))


def _team_fields(ruleset: Ruleset) -> dict[str, Any]:
    """The program's fields of teams and scores."""
    teams = ruleset.teams
    refs = [TeamRef(i + 1, name, seats) for i, (name, seats) in enumerate(zip(teams.names, teams.seats))] \
        if teams is not None else []
    attributes = teams.attributes if teams is not None else {}
    return dict(teams=teams, team_refs=refs,
                team_of_seat=tuple(refs[teams.team_of(s)] for s in range(1, ruleset.player_count + 1))
                if teams is not None else (),
                team_defaults={n: _copy(s.default) for n, s in attributes.items()},
                team_clamps={n: s.clamp for n, s in attributes.items() if s.clamp}, score=ruleset.score)


# What the compiler reads of a ruleset (`Names`) that cards may change, besides their names;
# `kinds` and `held` come from the declarations, functions and keywords (checked the same by
# `_extends`), which cards do not change.
_NOT_COMPARED = frozenset({"card_names", "kinds"})
# The fields of a ruleset that its cards are not: the same objects in a ruleset and its extension.
_RULESET_FIELDS = tuple(f.name for f in fields(Ruleset) if f.name not in ("card_modules", "definitions", "warnings"))


def _extends(ruleset: Ruleset, names: Names, base: Program) -> bool:
    """Whether `ruleset` is `base`'s ruleset with more cards that change nothing the compiler
    reads but the card names: the same declarations, code files, procedures, functions and
    keywords, the base's cards first (the same definitions, in the same order), and `names` (what
    the compiler reads) equal to the base's but for the card names. Then every procedure,
    function, keyword, card, expression and main program the base compiled is what compiling
    `ruleset` would write, and only the new cards need compiling."""
    old, defs, old_defs = base.ruleset, ruleset.definitions, base.definitions
    if defs is None or any(getattr(ruleset, f) is not getattr(old, f) for f in _RULESET_FIELDS):
        return False
    if old.card_modules != ruleset.card_modules[:len(old.card_modules)]:
        return False
    if not (defs.procedures == old_defs.procedures and defs.functions == old_defs.functions
            and defs.keywords == old_defs.keywords):
        return False
    if list(old_defs.cards.items()) != list(defs.cards.items())[:len(old_defs.cards)]:
        return False
    old_names = base.compiler.names
    mine, theirs = vars(names), vars(old_names)
    return mine.keys() == theirs.keys() and all(
        mine[key] == theirs[key] for key in mine if key not in _NOT_COMPARED)


def _card(ruleset: Ruleset, defs: Definitions, c: ast.CardDef, compiler: Compiler,
          keyword_abilities: dict[str, list]) -> CardDefinition:
    """A card's definition: its compiled abilities and parts, its initial attributes, and the
    tables the runtime looks its abilities up in."""
    ctype = ruleset.card_types[c.type]
    printed = {a.name: constant(a.value) for a in attributes_of(c)}
    defn = compiler.card(c, printed, is_token(c, ctype.token))
    defn.text = printed_text(c)
    # (code attributes, `aims(t) = ...`, are no state: `defn.code` holds them)
    initial = {n: _copy(s.default) for n, s in ctype.attributes.items() if s.params is None}
    initial.update(printed)
    defn.initial = initial
    # a new card's row of stored values, copied by GameState.new_card (which sets owner, controller,
    # stamp), and where its attributes are in it, in their order
    slots = compiler.names.attr_slots
    defn.slots = tuple((n, slots[n]) for n in initial)
    defn.new_row = [*PROPERTY_DEFAULTS, *[ABSENT] * len(slots)]
    for n, slot in defn.slots:
        defn.new_row[slot] = initial[n]
    defn.clamps = {n: s.clamp for n, s in ctype.attributes.items() if s.clamp}
    defn.allowed_values = {n: s.values for n, s in ctype.attributes.items() if s.values is not None}
    defn.label = ctype.label
    defn.keyword_names = frozenset(k for k, _args in defn.keywords)
    defn.label_fields = label_fields(ctype.label)  # (the loader checked the template)
    bound = [(a, {}) for a in defn.abilities]
    for kw_name, args in defn.keywords:
        params = defs.keywords[kw_name].params
        for a in keyword_abilities[kw_name]:
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
    defn.listens = bool(defn.triggers or defn.replacements)  # (see `GameState.listener_layout`)
    defn.activated = [(a, lv) for a, lv in bound if a.kind == "activated"]
    # what `GameState.activatable` checks, ability by ability: (index, part, condition)
    defn.activation = tuple((i, a.part, a.condition) for i, (a, _lv) in enumerate(defn.activated))
    # every one of them usable wherever the card is active, whatever its part (no `if`, no part)
    defn.activation_plain = all(part is None and condition is None for _i, part, condition in defn.activation)
    return defn


def attribute_slots(ruleset: Ruleset, defs: Definitions) -> dict[str, int]:
    """Where each card attribute is in a card's row of stored values (see `PROPERTY_KEYS`): the
    engine's properties first, then the attributes of every card type (and any printed on a card
    alone), in the order they are declared; code attributes (`aims(t) = ...`) are no state."""
    slots: dict[str, int] = {}
    names = [n for t in ruleset.card_types.values() for n, s in t.attributes.items() if s.params is None]
    names += [a.name for c in defs.cards.values() for a in attributes_of(c)]
    for n in names:
        if n not in slots:
            slots[n] = len(PROPERTY_KEYS) + len(slots)
    return slots


def reference_slots(ruleset: Ruleset, slots: dict[str, int]) -> tuple[int, ...]:
    """The slots of a card's row that may hold a card or an ability: `ATTACHED`, and each attribute
    some card type declares a card, an ability or a list (or none declares: printed on a card alone)."""
    declared: dict[str, set[str]] = {}
    for t in ruleset.card_types.values():
        for n, spec in t.attributes.items():
            declared.setdefault(n, set()).add(spec.type)
    return (ATTACHED, *(slot for n, slot in slots.items()
                        if n not in declared or declared[n] & {"card", "ability", "list"}))


def _copy(value):
    return list(value) if isinstance(value, list) else value
