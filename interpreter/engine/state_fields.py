"""The fields of a running game (`GameState`), declared once: how a copy gets each, whether and how
a saved game keeps it, and which are the runtime's caches.

Every attribute a `GameState` has is one `Field` of `FIELDS` (tests/test_state_fields.py fails on one
that is not). From this table:

- `GameState.clone` is written (its Python source generated here once, at import: `clone_source`), as
  fast as a hand-written one: the copy starts from the original's attribute dict and then takes,
  field by field, what its kind says (a copied list, rows shared until written, fresh caches, ...);
- `to_json` and `game_from_json` (engine/serialize.py) save and load the fields that have a
  `Save`, in the order of this table, each by its codec;
- `reset_caches` empties the caches (a copy starts without them; a loaded or determinized game
  too): caches and the counters that stamp them (`version`, the layouts) belong to the runtime,
  are never saved, and nothing but the speed of the game depends on them.

A new field: set it in `GameState.__init__` and declare it below with its kind and, if a saved game
keeps it, its `Save` (a codec of serialize.py's `CODECS`); a cache or per-copy field is declared
below only (`__init__` gets those from `init_runtime`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..lang.runtime import Frame

# ------------------------------------------------------------------ kinds: how a copy gets a field
SHARED = "shared"  # an immutable value, or one never changed in place: the copy refers to it
LIST = "copied list"  # list(value): its items are immutable or shared
DICT = "copied dict"  # dict(value)
SET = "copied set"  # set(value)
DICT_OF_LISTS = "dict of copied lists"  # {k: list(v)}
LIST_OF_DICTS = "list of copied dicts"  # [dict(v)]
ROWS = "rows shared until written"  # list(value): the copy and the original share every row until one writes
# it; each copies a row first (`GameState.own_row`), as its partner field `<name>_owned` marks the rows it owns
FRAMES = "frames"  # each frame copied (`Frame.copy`: its locals too)
GENERATOR = "generator"  # the generator given to `clone`, else the original's, shared until one draws from it
# (its partner field `<name>_share` counts the games that share it: see `GameState.rng`)
DECISION = "decision"  # the waiting decision, shared and marked `shared` (see `Pending`)
PER_COPY = "per copy"  # each copy starts from `fresh` (who watches or plays this one game)
CACHE = "cache"  # the runtime's: each copy starts from `fresh`, as do loaded and determinized games

KINDS = (SHARED, LIST, DICT, SET, DICT_OF_LISTS, LIST_OF_DICTS, ROWS, FRAMES, GENERATOR, DECISION, PER_COPY,
         CACHE)
# the Python type of a field of each copied kind (tests check the declaration against the game)
CONTAINER_TYPES: dict[str, type] = {LIST: list, DICT: dict, SET: set, DICT_OF_LISTS: dict,
                                    LIST_OF_DICTS: list, ROWS: list, FRAMES: list}

# ------------------------------------------------------------------ what a loaded game has of a field not saved
DERIVED = "derived"  # rebuilt from the saved fields (serialize.py's `_derive`)
FRESH = "fresh"  # as a new game has it: from the rules, or a count or hook that starts again


@dataclass(frozen=True)
class Save:
    """How a saved game keeps a field: its JSON key and codec (serialize.py's `CODECS`).
    `optional`: games saved before the field was kept lack the key (a loaded one keeps the new
    game's value); `restored=False`: saved for readers only, a loaded game takes it from its rules."""

    key: str
    codec: str = "raw"
    optional: bool = False
    restored: bool = True


@dataclass(frozen=True)
class Field:
    """One attribute of a `GameState`: its name, how a copy gets it (`kind`), how a saved game keeps
    it (`save`, else `load`: DERIVED or FRESH), the source of the value a copy starts from (`fresh`,
    for PER_COPY and CACHE fields) and what it holds (`doc`)."""

    name: str
    kind: str
    doc: str
    save: Save | None = None
    load: str | None = None
    fresh: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"field {self.name}: unknown kind {self.kind!r}")
        if (self.kind in (PER_COPY, CACHE)) != (self.fresh is not None):
            raise ValueError(f"field {self.name}: a {self.kind} field {'needs' if self.fresh is None else 'has no'} `fresh`")
        if self.kind == CACHE and self.save is not None:
            raise ValueError(f"field {self.name}: a cache is never saved")
        if (self.save is None) == (self.load is None) or self.load not in (None, DERIVED, FRESH):
            raise ValueError(f"field {self.name}: give either `save` or `load` (DERIVED or FRESH)")


# Saved fields come in the order of a saved game's keys (after "format", "ruleset" and
# "ruleset_file", which name the rules): loading follows it, cards before what refers to them.
FIELDS: tuple[Field, ...] = (
    # ---------------------------------------------------------------- what the game is
    Field("rules", SHARED, "the compiled rules (`Rules`); a saved game names them in its header", load=FRESH),
    Field("options", SHARED, "the ruleset's option values (`options.x`)", Save("options", restored=False)),
    Field("seed", SHARED, "the seed the game was made with (None for a determinized copy)", Save("seed")),
    Field("players", SHARED, "the players by seat (`PlayerRef`), seat 1 first", load=FRESH),
    Field("all_seats", SHARED, "a mask of every seat (as `KNOWN` marks them)", load=FRESH),
    Field("decks", SHARED, "the decks the game was dealt from (`Deck`s, for records; none when loaded)",
          load=FRESH),
    # ---------------------------------------------------------------- the table
    Field("cards", DICT, "each card's handle (`CardRef`) by card id", Save("cards", "cards")),
    Field("attrs", ROWS, "each card's row of stored values (its properties, then its attributes: see "
          "`PART` in lang/values.py) by card id; empty for a card gone (and for id 0); written through "
          "`own_row` (copies share rows until written)", Save("attrs", "attrs")),
    Field("attrs_owned", SHARED, "a byte by card id: 1 where this game owns its row of `attrs`, 0 where a copy "
          "may share it (a 0 is always safe: the row is copied before it is written); changed in place, so "
          "never shared: `clone` gives both games a new one (see ROWS)", load=DERIVED),
    Field("card_zone", DICT, "the zone each card is in, by card id", load=DERIVED),
    Field("zones", DICT_OF_LISTS, "the cards of each zone, in order, by zone key", Save("zones", "zones")),
    Field("player_attrs", LIST_OF_DICTS, "each player's attributes (index seat - 1)", Save("players", "encoded items")),
    Field("team_attrs", LIST_OF_DICTS, "each team's attributes (index: the team's, from 0; `teams:`)",
          Save("teams", "encoded items", optional=True)),
    Field("globals", DICT, "the game's globals (`game.turn`, `game.phase`, `game.active`, declared globals)",
          Save("globals", "encoded")),
    Field("temp_mods", LIST, "temporary modifiers, until an event (tuples)", Save("temp_mods", "tuples")),
    Field("temp_grants", LIST, "temporary grants of keywords, until an event (tuples)", Save("temp_grants", "tuples")),
    Field("_rng", GENERATOR, "the game's seeded random generator (read it as `GameState.rng`: copies share it until "
          "one draws from it)", Save("rng", "generator")),
    Field("_rng_share", SHARED, "how many games share `_rng` (a list of one count, shared by them), or None: "
          "see `GameState.rng`", load=FRESH),
    # ---------------------------------------------------------------- the continuation of the rules
    Field("frames", FRAMES, "the stack of frames: where the rules stand", Save("frames", "frames")),
    Field("pending", DECISION, "the decision the game waits for (`Pending`), or None", Save("pending", "decision")),
    Field("result", SHARED, "how the game ended (`Result`), or None while it goes on", Save("result", "result")),
    Field("log_entries", LIST, "the log: events, decisions and the end, as tuples", Save("log", "log")),
    Field("logging", SHARED, "what is logged: True, events and decisions; \"events\", events alone; False, "
          "nothing (see `Rules.new_game`)", Save("logging", optional=True)),
    Field("next_id", SHARED, "the id the next card made gets", Save("next_id")),
    Field("clock", SHARED, "the time stamp the next card that moves gets (`STAMP`)", Save("clock")),
    Field("revealed", SET, "the ids of the cards revealed to every player", Save("revealed", "sorted")),
    Field("seen", SHARED, "the events players witnessed, newest first, as a chain of cells (name, args, seat, "
          "older cell): seat 0 for an event every player witnessed, else its one witness (see `witness`); "
          "never changed, so shared by copies", Save("seen", "seen", optional=True)),
    Field("steps", SHARED, "the steps rule code has taken so far", Save("steps", optional=True)),
    Field("turns_before", SHARED, "turns of the rounds before this one (`turn.rounds`: game.turn starts again)",
          Save("turns_before", optional=True)),
    Field("decisions", SHARED, "decisions offered so far (a decision due past `max_decisions` ends the game "
          "unfinished: `stop_unfinished`)", Save("decisions", optional=True)),
    Field("max_decisions", SHARED, "the game's cap of decisions", Save("max_decisions", optional=True)),
    # ---------------------------------------------------------------- not saved
    Field("halted", SHARED, "true once a decision is due or the game has ended: the frame machine stops",
          load=DERIVED),
    Field("attached_ids", SET, "the ids of the cards attached to something (see `attachments`)", load=DERIVED),
    Field("answered", SHARED, "decisions taken by `play_out` (a loaded game counts from 0)", load=FRESH),
    Field("broken", SHARED, "why the game cannot go on (a fast `play_out` stopped half-way), or \"\"",
          load=FRESH),
    Field("returned", SHARED, "the value a procedure's `return` leaves for its caller, which generated code "
          "reads at once (`RuleRuntime.returned`)", load=FRESH),
    Field("steps_left", SHARED, "steps left before the step budget runs out (set before rule code runs)",
          load=FRESH),
    Field("kept", SHARED, "of a determinized copy: the hidden cards it kept as they are (see `determinize`)",
          load=FRESH),
    Field("after_shuffle", SHARED, "called as (game, zone key) after each shuffle of a zone: a scenario's "
          "rigged order, which copies keep", load=FRESH),
    Field("one_option", SHARED, "called as (game, decision) for a choice with one option, which the engine "
          "takes without asking: a scenario's (which names such choices, or has them asked)", load=FRESH),
    # ---------------------------------------------------------------- each copy its own
    Field("watcher", PER_COPY, "follows the game for a record (see `GameWatcher`); never copied into clones",
          load=FRESH, fresh="None"),
    Field("decide", PER_COPY, "the deciding function while `play_out` runs (a copy made while it asks is not "
          "played out itself)", load=FRESH, fresh="None"),
    Field("choose_by_count", PER_COPY, "while `play_out` runs with a decider by count (`ByCount`), its "
          "`choose(seat, n)`, asked without making the decision's object", load=FRESH, fresh="None"),
    Field("sight_kept", SHARED, "false once a play-out by count has run unlogged and unwatched (`play_out`): "
          "what each player saw (known places, dealt marks, witnessed events) was not kept, so the game's "
          "observations, copies drawn for a player and saving are refused", load=FRESH),
    Field("stamps_kept", SHARED, "false once such a play-out has run for rules whose moves need change nothing "
          "but a card's place, first owner and reveal to every player (`Rules.plain_moves`): its moves kept no "
          "time stamps, which only order abilities and attachments, and these rules have none; rule code "
          "then moves cards itself, as list operations (`_plain_move` in lang/codegen_statements.py)",
          load=FRESH),
    Field("rolling", PER_COPY, "while `play_out(fast=True)` runs: blocks run in their rollout form",
          load=FRESH, fresh="False"),
    Field("_interrupted", PER_COPY, "an error of the deciding function `play_out` met, raised once it unwound",
          load=FRESH, fresh="None"),
    Field("_answer_box", PER_COPY, "where `ask_now` has an answer put", load=FRESH, fresh="Frame(None, {})"),
    # ---------------------------------------------------------------- the runtime's caches
    Field("version", CACHE, "changes with anything continuous effects may read (generated code bumps it)",
          load=FRESH, fresh="0"),
    Field("layout", CACHE, "changes only with what cards are where and how they are set up (zones, parts, "
          "controllers, attachments, grants)", load=FRESH, fresh="0"),
    Field("static_layout", CACHE, "changes only with where the cards with static abilities are and how they are "
          "set up (the index of static effects, `_statics`)", load=FRESH, fresh="0"),
    Field("listener_layout", CACHE, "likewise with the cards with triggered or replacement abilities, and any card "
          "while temporary grants last (who listens to what, `_active_with`)", load=FRESH, fresh="0"),
    Field("_static_version", CACHE, "the `static_layout` `_static_index` was made at", load=FRESH, fresh="-1"),
    Field("_static_index", CACHE, "the static effects by the name they modify", load=FRESH, fresh="{}"),
    Field("_active_cache", CACHE, "(event, table) -> (stamp, `_active_with`)", load=FRESH, fresh="{}"),
    Field("_targets_version", CACHE, "the `version` `_targets_cache` and `_keywords_cache` hold for",
          load=FRESH, fresh="-1"),
    Field("_targets_cache", CACHE, "the targets of static effects by name", load=FRESH, fresh="{}"),
    Field("_keywords_cache", CACHE, "each card's keywords by card id", load=FRESH, fresh="{}"),
    Field("_granted_version", CACHE, "the `version` `_granted_ids` holds for", load=FRESH, fresh="-1"),
    Field("_granted_ids", CACHE, "the cards some grant applies to (see `_granted`)", load=FRESH, fresh="frozenset()"),
    Field("_reading", CACHE, "the reads of modified values under way (against loops)", load=FRESH, fresh="set()"),
    Field("_computing", CACHE, "the targets of static effects being worked out (against loops)", load=FRESH,
          fresh="set()"),
    Field("_determinize_plans", CACHE, "by seat, what determinizing at the decision pending shares "
          "(see engine/determinize.py's `_Plan`)", load=FRESH, fresh="{}"),
)

BY_NAME: dict[str, Field] = {f.name: f for f in FIELDS}
if len(BY_NAME) != len(FIELDS):
    raise ValueError("a field of engine/state_fields.py is declared twice")
SAVED: tuple[Field, ...] = tuple(f for f in FIELDS if f.save is not None)
CACHES: tuple[Field, ...] = tuple(f for f in FIELDS if f.kind == CACHE)
RUNTIME: tuple[Field, ...] = tuple(f for f in FIELDS if f.kind in (PER_COPY, CACHE))

# how a copy takes a field of each copied kind from the original's value `x`
_COPY_EXPRESSIONS = {
    LIST: "list({x})",
    DICT: "dict({x})",
    SET: "set({x})",
    DICT_OF_LISTS: "{{k: list(v) for k, v in {x}.items()}}",
    LIST_OF_DICTS: "[dict(v) for v in {x}]",
    FRAMES: "[f.copy() for f in {x}]",
}
_IMMUTABLE_FRESH = ("None", "False", "True", "0", "-1", "frozenset()", '""')


def _fresh_constants() -> dict[str, Any]:
    """The per-copy fields and caches that start from an immutable value, with it: a copy takes
    them all at once."""
    return {f.name: eval(f.fresh, {}) for f in RUNTIME if f.fresh in _IMMUTABLE_FRESH}


def clone_source() -> str:
    """The Python source of `GameState.clone`, written from `FIELDS` (`_FRESH`: `_fresh_constants()`)."""
    lines = [
        "def clone(self, rng=None):",
        '    """An independent copy for search: same rules, copied state and continuation (and the',
        '    random generator, shared until one of the two draws from it, unless one is given);',
        '    caches and what plays or watches this one game start afresh in it. Written from engine/state_fields.py."""',
        "    if self.rolling:",
        "        self._not_rolling('copied')",
        "    s = self.__dict__",
        "    new = _new(GameState)",
        "    d = new.__dict__",
        "    d.update(s)",
        "    d.update(_FRESH)",
    ]
    constants = _fresh_constants()
    for f in FIELDS:
        x = f"s[{f.name!r}]"
        if f.kind in _COPY_EXPRESSIONS:
            lines.append(f"    d[{f.name!r}] = " + _COPY_EXPRESSIONS[f.kind].format(x=x))
        elif f.kind == GENERATOR:
            share = f"{f.name}_share"
            lines += ["    if rng is None:  # (shared until one of the games draws from it: see `GameState.rng`)",
                      f"        share = s[{share!r}]",
                      "        if share is None:",
                      f"            share = s[{share!r}] = [1]",
                      "        share[0] += 1",
                      f"        d[{share!r}] = share",
                      "    else:",
                      f"        d[{f.name!r}] = rng",
                      f"        d[{share!r}] = None"]
        elif f.kind == ROWS:
            owned = f"{f.name}_owned"
            lines += [f"    d[{f.name!r}] = list({x})",
                      "    # (both games share every row now: each copies one before its first write)",
                      f"    s[{owned!r}] = bytearray(len({x}))",
                      f"    d[{owned!r}] = bytearray(len({x}))"]
        elif f.kind == DECISION:
            lines += [f"    if {x} is not None:",
                      f"        {x}.shared = True  # (the copy shares it: see Pending)"]
        elif f.kind in (PER_COPY, CACHE) and f.name not in constants:
            lines.append(f"    d[{f.name!r}] = {f.fresh}")
    lines.append("    return new")
    return "\n".join(lines) + "\n"


def _runtime_source(name: str, fields: tuple[Field, ...]) -> str:
    body = [f"    game.{f.name} = {f.fresh}" for f in fields]
    return f"def {name}(game):\n" + "\n".join(body) + "\n"


def _compiled(source: str, name: str, namespace: dict[str, Any]) -> Callable:
    exec(compile(source, f"<engine/state_fields.py: {name}>", "exec"), namespace)
    return namespace[name]


def make_clone(game_class: type) -> Callable:
    """`GameState.clone`, compiled from `clone_source()` for the class."""
    namespace = {"GameState": game_class, "_new": game_class.__new__, "Frame": Frame, "_FRESH": _fresh_constants()}
    return _compiled(clone_source(), "clone", namespace)


def _runtime_function(name: str, fields: tuple[Field, ...]) -> Callable[[Any], None]:
    return _compiled(_runtime_source(name, fields), name, {"Frame": Frame})


init_runtime: Callable[[Any], None] = _runtime_function("init_runtime", RUNTIME)
init_runtime.__doc__ = "Give a new game its per-copy fields and its caches, as `FIELDS` declares them."
reset_caches: Callable[[Any], None] = _runtime_function("reset_caches", CACHES)
reset_caches.__doc__ = ("Empty the game's caches (after its state was changed from outside the runtime: "
                        "loaded, determinized).")


def undeclared(game: Any) -> list[str]:
    """The attributes a game has that `FIELDS` does not declare."""
    return sorted(name for name in vars(game) if name not in BY_NAME)


def undeclared_message(names: list[str]) -> str:
    """What a test says of attributes `FIELDS` does not declare."""
    return (f"GameState has attributes that interpreter/engine/state_fields.py does not declare: {', '.join(names)}. "
            f"Declare each in FIELDS there: its kind (how a copy gets it: shared, a copied list, a cache, ...) "
            f"and its Save (how a saved game keeps it), else load=DERIVED or FRESH")
