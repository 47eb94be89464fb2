"""The runtime that generated rule code calls: every member of the game object it may use.

The code that `codegen`, `resumable` and `rollout` write takes the running game as its first
parameter, `g`, and uses nothing of it but the members `RuleRuntime` declares: state it reads
(and the four fields it writes: see `WRITTEN`) and methods it calls. `interpreter.engine.state.GameState`
implements it (checked in engine/state.py and by tests/test_rule_runtime.py, which parses the
generated code of every shipped and test ruleset and refuses a member that is not declared here,
or one declared here that nothing uses).

Generated code also hands `g` to a few hand-written helpers (the built-in functions of
lang/runtime.py, `kinds.refuse`, a lazily joined `Labelled`); what they use of it is declared
here too, and `USED_BY_HELPERS_ONLY` names the members only they use.

`undeclared_uses` is the checker: it reads generated Python source and lists each use of the game
object that this interface does not declare (or a write of a field not in `WRITTEN`).
"""

from __future__ import annotations

import ast as pyast
import functools
from typing import Any, NamedTuple, NoReturn, Protocol, get_type_hints

from ..errors import Span
from .runtime import Code, Frame
from .values import AbilityRef, CardRef, PlayerRef, ZoneKey


class RuleLimits(Protocol):
    """What generated code reads of the compiled rules (`g.rules`)."""

    step_budget: int  # how many steps rule code may take without a decision (`while` loops count them)
    team_refs: tuple  # the declared teams (`TeamRef`s, in declared order): `teams`, `team(p)`; () without teams


class RuleRuntime(Protocol):
    """The members of the running game that generated rule code uses (see the module docstring).

    Attributes are the game's state, read (and where `WRITTEN` says so, written) in place by
    generated code for speed; methods are the engine's services. A player is a `PlayerRef`, a card
    a `CardRef`, a zone a `ZoneKey`; `f` is the calling code's `Frame` (its locals, its card, its
    controller); `span` is where in the rule files the code stands, for errors."""

    # ------------------------------------------------------------------ state read in place
    GAME: Any  # the value of the name `game` used as a value (`g.GAME`); `game.x` reads `globals`
    OPTIONS: Any  # the value of the name `options` used as a value; `options.x` reads `options`
    rules: RuleLimits  # the compiled rules: `while` loops read their step budget
    players: list[PlayerRef]  # the players by seat (seat 1 first): `players`, `others`, the first other
    options: dict[str, Any]  # the ruleset's option values: `options.x`
    globals: dict[str, Any]  # the game's globals (`game.turn`, declared globals): read and set in place
    player_attrs: list[dict[str, Any]]  # each player's attributes (index seat - 1): read and set in place
    attrs: list[list]  # each card's row of stored values by card id (lang/values.py: PART, ...; empty: gone): read
    attrs_owned: bytearray  # 1 where the game owns the row of that card id; write a row only then (else `own_row`)
    card_zone: dict[int, ZoneKey]  # the zone each card is in, by card id
    zones: dict[ZoneKey, list[CardRef]]  # the cards of each zone, in order
    revealed: set[int]  # the ids of the cards revealed to every player
    # whether moves keep time stamps: false in a play-out by count of rules whose moves can be
    # plain (`Rules.plain_moves`), where code moves cards itself, changing `zones`, `card_zone`,
    # `revealed` and first owners in place (`_plain_move` in codegen_statements.py)
    stamps_kept: bool
    frames: list[Frame]  # the frame stack: code compares the top with its own frame after a call
    halted: bool  # true once a decision is due or the game has ended: resumable code stops then
    logging: bool | str  # whether events are logged (`log_entries`): True or "events"
    rolling: bool  # while `play_out(fast=True)` plays the game: the main program goes on in its rollout form
    log_entries: list[tuple]  # the log: an event is appended as ("event", name, args)
    seen: tuple | None  # WRITTEN: the events players witnessed, a chain of (name, args, seat, older)
    sight_kept: bool  # whether what each player saw is kept (`seen`): not in a play-out by count, unlogged
    steps_left: int  # WRITTEN: steps left before the step budget runs out (each loop round counts one)
    version: int  # WRITTEN: bumped when code changes something continuous effects read
    returned: Any  # WRITTEN: a procedure's `return` value, left here for its caller to read at once

    # ------------------------------------------------------------------ zones and cards
    def zone_key(self, name: str, player: Any, row: Any) -> ZoneKey:
        """The key of zone `name` of `player` (None: a shared zone) and `row` (None: no row), checked."""
        ...

    def row_zone_key(self, keys: dict, name: str, player: Any, row: Any) -> ZoneKey:
        """`zone_key` of a zone with rows, looked up first in `keys` ((seat, row) -> key, made at load)."""
        ...

    def zone_cards_of(self, name: str, player: Any) -> list[CardRef]:
        """A player's cards in a zone made of rows, every row in its declared order (`zone(p)`)."""
        ...

    def zone_cards_all(self, name: str) -> list[CardRef]:
        """The cards of every key of a zone, in the engine's key order (`zone()` of a large zone)."""
        ...

    def create(self, name: str, key: ZoneKey, attrs: dict, f: Frame) -> CardRef:
        """`create`: a new card named `name` in zone `key` with attributes `attrs`; the new card."""
        ...

    def own_row(self, card_id: int) -> list:
        """The row of the card of this id, to be written: copied first if a copy of the game may share it."""
        ...

    def move(self, card: CardRef, key: ZoneKey, position: int | None) -> None:
        """`move`: one card to zone `key` (at 1-based `position`, or last), with what moving does."""
        ...

    def move_each(self, cards: list, key: ZoneKey, position: int | None) -> None:
        """`move LIST to ZONE`: each card in turn, as `move` does."""
        ...

    def shuffle(self, key: ZoneKey) -> None:
        """`shuffle`: the cards of zone `key` in a random order (the game's generator)."""
        ...

    def delete(self, card: CardRef) -> None:
        """`delete`: the card leaves the game."""
        ...

    def attach(self, card: CardRef | None, target: Any) -> None:
        """`attach CARD to TARGET` (a card or a player)."""
        ...

    def detach(self, card: CardRef | None) -> None:
        """`detach CARD`."""
        ...

    def reveal(self, what: Any, to: Any = None) -> None:
        """`reveal`: a card (or list of cards) shown to every player, or to the players `to`
        (`reveal c to P`), until it changes zone."""
        ...

    def position(self, card: CardRef) -> int | None:
        """`position(card)`: its 1-based place in its zone, or None."""
        ...

    def attachments(self, target: Any) -> list[CardRef]:
        """`attachments(x)`: the cards attached to a card or a player."""
        ...

    def _rearranged(self, defn: Any) -> None:
        """A card of this definition changed part or controller: caches of continuous effects go stale."""
        ...

    # ------------------------------------------------------------------ attributes and effects
    def read(self, obj: Any, name: str) -> Any:
        """`obj.name` of a card, player, list or the game, continuous effects applied."""
        ...

    def read_base(self, obj: Any, name: str) -> Any:
        """`obj.name` as stored, without continuous effects (for a `static` ability's own reads)."""
        ...

    def write(self, obj: Any, name: str, value: Any) -> None:
        """`set obj.name = value` kept within the attribute's limits, with what the write changes."""
        ...

    def allowed_value(self, obj: Any, name: str, value: Any) -> Any:
        """The value, if attribute `name` of obj may hold it (`values:`); else a runtime error."""
        ...

    def add_temporary_modifier(self, obj: Any, attr: str, mode: str, amount: Any, until: Any, f: Frame) -> None:
        """`modify obj.attr by|to amount until DURATION`: a modifier that lasts until the event
        `until` (a name), until removed (None), or while a card stays in its zone (`tied_to`)."""
        ...

    def add_temporary_grant(self, obj: Any, keyword: str, args: tuple, until: Any, f: Frame) -> None:
        """`grant keyword(args) to obj until DURATION` (`until` as `add_temporary_modifier`'s)."""
        ...

    def tied_to(self, card: Any) -> Any:
        """The duration `until card leaves`: while that card stays in the zone it is in now."""
        ...

    def silence(self, cards: Any, until: str | None, f: Frame) -> None:
        """`silence CARDS [until EVENT]`: they lose what they print, and the effects on them end."""
        ...

    def remove_effects(self, source: Any, target: Any, by_source: bool, on_target: bool) -> None:
        """`remove effects [of SOURCE] [from CARDS]`: end the temporary modifiers and grants that
        source gave (`by_source`), on those cards or players (`on_target`)."""
        ...

    def is_silenced(self, card: Any) -> bool:
        """`silenced(card)`: the card is silenced (in the zone it was silenced in)."""
        ...

    def has_keyword(self, card: Any, keyword: str) -> bool:
        """`has(card, keyword)`: printed or granted."""
        ...

    def label(self, value: Any) -> str:
        """`text(value)`: how a value reads in logs and options (a card by its label template)."""
        ...

    # ------------------------------------------------------------------ abilities
    def activatable(self, cards: list) -> list[AbilityRef]:
        """`abilities(cards)`: their activated abilities that may be used now."""
        ...

    def activatable_in(self, cards: list) -> list[AbilityRef]:
        """`abilities(zone)` of an active zone: `activatable` for cards known to be in one."""
        ...

    def ability_cost(self, ref: AbilityRef) -> int:
        """`ability_cost(a)`: the cost of an activated ability now."""
        ...

    def activate(self, ref: AbilityRef) -> None:
        """`use(a)` in resumable code: pushes the ability's effect to run next."""
        ...

    def aim(self, ref: AbilityRef) -> None:
        """`aim(a)` in resumable code: pushes the ability's `target` block to run next."""
        ...

    def card_names(self) -> list[str]:
        """`card_names()`: the names of the cards that may be played (a helper's only)."""
        ...

    # ------------------------------------------------------------------ randomness
    def random_choice(self, values: list) -> Any:
        """`random(list)`: one item drawn by the game's generator, or None."""
        ...

    def shuffled(self, values: list) -> list:
        """`shuffled(list)`: a copy in a random order (the game's generator)."""
        ...

    # ------------------------------------------------------------------ calls, frames and events
    def call_now(self, name: str, code: Code, values: dict, f: Frame) -> bool:
        """A call of procedure `name` from resumable code, run at once: True when it ended and `f` goes on."""
        ...

    def replace_now(self, name: str, values: dict, f: Frame) -> bool:
        """Native code calling a replaceable procedure: run the replacement that applies; True if one did."""
        ...

    def run_part_now(self, f: Frame, card: CardRef, part: str) -> bool:
        """`run(card, part)` in resumable code, run at once: True when it ended and `f` goes on."""
        ...

    def descend(self, f: Frame) -> bool:
        """Run the frames pushed above `f` now: True when they all ended and `f` may go on."""
        ...

    def roll_part(self, card: CardRef, part: str) -> None:
        """`run(card, part)` in the rollout form: the part's block runs to its end at once."""
        ...

    def roll_ability(self, ref: AbilityRef, verb: str, target: bool) -> None:
        """`use(a)` / `aim(a)` in the rollout form: the block runs to its end at once."""
        ...

    def roll_turns(self, f: Frame) -> None:
        """The main program's resumable form at a turn's start while played out fast: the rest of
        the game in the turns' rollout form."""
        ...

    def emit(self, name: str, args: dict) -> None:
        """`emit`: log the event, record its witnesses, end temporary effects, check the end, trigger."""
        ...

    def witness(self, name: str, args: dict) -> None:
        """Record an event for the one player who witnesses it (a quiet `emit` written out)."""
        ...

    def out_of_steps(self, f: Frame) -> NoReturn:
        """The step budget ran out in `f`: a runtime error naming the runaway loop."""
        ...

    def runtime_error(self, message: str, span: Span | None = None) -> NoReturn:
        """Stop the game with an error in rule code at `span` (default: the statement running)."""
        ...

    # ------------------------------------------------------------------ decisions
    def choose_one(self, f: Frame, var: str, prompt: Any, values: list, who: Any, span: Span | None,
                   distinct: bool = False) -> None:
        """`choose` of one value in resumable code: the answer goes to `f.locals[var]` (now or on `apply`)."""
        ...

    def choose(self, f: Frame, var: str, kind: str, n: Any, prompt: Any, values: list, who: Any, span: Span | None,
               always_ask: bool = False) -> None:
        """`choose` of `kind` one/exactly/up_to/order (or a `may`) in resumable code, as `choose_one`."""
        ...

    def ask_one(self, prompt: Any, values: list, who: Any, span: Span | None, distinct: bool = False) -> Any:
        """`choose` of one value in the rollout form: the answer, asked at once."""
        ...

    def ask_now(self, kind: str, n: Any, prompt: Any, values: list, who: Any, span: Span | None,
                always_ask: bool = False) -> Any:
        """`choose` of any kind (or a `may`) in the rollout form: the answer, asked at once."""
        ...

    # ------------------------------------------------------------------ turns and the end
    def begin_turn(self) -> None:
        """A turn begins: `game.turn` goes up, the active player changes, `turn_start` is emitted."""
        ...

    def begin_round(self, level: int) -> None:
        """A round of the turn structure's level `level` begins (`turn.rounds`)."""
        ...

    def begin_phase(self, name: str) -> None:
        """A phase begins: `game.phase` is set, `phase_start` is emitted if anything waits for it."""
        ...

    def finish(self, winner: Any = None, loser: Any = None, reason: str = "", span: Span | None = None) -> None:
        """`win` / `lose` / `tie`: the game ends with this result."""
        ...

    def end_by_check(self, event: str, index: int) -> None:
        """End the game by end condition `index` of those checked after `event` (code that checked it)."""
        ...


# The fields of the game that generated code assigns (the others it only reads, or changes in place).
WRITTEN = frozenset({"seen", "steps_left", "version", "returned"})

# Members no generated code uses, only the hand-written helpers it hands the game to.
USED_BY_HELPERS_ONLY = frozenset({"card_names"})


def declared_names() -> frozenset[str]:
    """Every member `RuleRuntime` declares: its annotated attributes and its methods."""
    methods = {name for name, value in vars(RuleRuntime).items()
               if callable(value) and not (name.startswith("__") and name.endswith("__"))}
    return frozenset(get_type_hints(RuleRuntime)) | methods


def undeclared_uses(sources: dict[str, str]) -> list[str]:
    """Each use of the game object in generated Python source (file name -> source, as
    `Namespace.sources` keeps it) that `RuleRuntime` does not declare: a member it lacks, a write
    of a field not in `WRITTEN`, an attribute of `g.rules` that `RuleLimits` lacks; each named
    with the generated function it is in and that function's file (which names the rule code)."""
    declared = declared_names()
    limits = frozenset(get_type_hints(RuleLimits))
    found: list[str] = []
    for use in game_uses(sources):
        name, where = use.name, f"in {use.function} ({use.file}, line {use.line})"
        if name not in declared:
            found.append(f"g.{name} {where}: not declared by RuleRuntime")
        elif use.written and name not in WRITTEN:
            found.append(f"g.{name} is assigned {where}: not a field RuleRuntime lets generated code write")
        elif name == "rules" and use.then is not None and use.then not in limits:
            found.append(f"g.rules.{use.then} {where}: not declared by RuleLimits")
    return found


class Use(NamedTuple):
    """One use of a member of the game in generated code: `g.name` (then `.then`, if any)."""

    name: str
    written: bool
    then: str | None
    function: str
    file: str
    line: int  # in the generated source


def game_uses(sources: dict[str, str]) -> list[Use]:
    """Every use of a member of the game in generated source. The game is the first parameter of
    each generated function (and any name it is assigned to)."""
    out: list[Use] = []
    for file, source in sources.items():
        out += _uses_in(file, source)
    return out


@functools.lru_cache(maxsize=4096)
def _uses_in(file: str, source: str) -> tuple[Use, ...]:
    """`game_uses` of one file, remembered by its text (rulesets share many generated files)."""
    out: list[Use] = []
    for fn in pyast.parse(source).body:
        if isinstance(fn, pyast.FunctionDef) and fn.args.args:
            out += _game_attributes(fn, file)
    return tuple(out)


def _game_attributes(fn: pyast.FunctionDef, file: str) -> list[Use]:
    game = {fn.args.args[0].arg}
    parents: dict[pyast.AST, pyast.AST] = {}
    for node in pyast.walk(fn):
        for child in pyast.iter_child_nodes(node):
            parents[child] = node
        if isinstance(node, (pyast.Assign, pyast.NamedExpr)) and isinstance(node.value, pyast.Name):
            targets = node.targets if isinstance(node, pyast.Assign) else [node.target]
            if node.value.id in game:  # (an alias of the game is the game)
                game.update(t.id for t in targets if isinstance(t, pyast.Name))
    uses = []
    for node in pyast.walk(fn):
        if isinstance(node, pyast.Attribute) and isinstance(node.value, pyast.Name) and node.value.id in game:
            parent = parents.get(node)
            then = parent.attr if isinstance(parent, pyast.Attribute) else None
            uses.append(Use(node.attr, isinstance(node.ctx, pyast.Store), then, fn.name, file, node.lineno))
    return sorted(uses, key=lambda use: use.line)
