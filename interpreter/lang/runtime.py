"""The objects compiled code works with: frames, code blocks, abilities, card definitions, the
name table the compiler is given, and the helpers the built-in functions of the language are
made of (the built-ins themselves: builtins.py).

The engine implements the game side of the interface the generated code calls (`g.read`, `g.move`,
`g.choose`, ...); nothing here imports the engine.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..errors import Span
from . import ast
from .values import AbilityRef, CardRef, PlayerRef, type_name

Fn = Callable[[Any, Any], Any]


class Frame:
    """One activation: a code block, the label to resume it at, locals and the ability context."""

    __slots__ = ("code", "pc", "locals", "self_card", "controller", "event", "applied")

    def __init__(self, code, locals_, self_card=None, controller=None, event=None, applied=frozenset()):
        self.code = code
        self.pc = 0
        self.locals = locals_
        self.self_card = self_card
        self.controller = controller
        self.event = event
        self.applied = applied

    def copy(self) -> Frame:
        new = Frame.__new__(Frame)
        new.code = self.code
        new.pc = self.pc
        new.locals = dict(self.locals)
        new.self_card = self.self_card
        new.controller = self.controller
        new.event = self.event
        new.applied = self.applied
        return new


class Code:
    """A compiled block: a name (stable, for logs, errors and saved games) and its resumable
    function `run(g, f)`, which runs from `f.pc` and returns True when the block has ended (None
    when it stopped). `entries[pc]` is the function that `run` calls for `f.pc`.

    `rollout(g, f)`, once the compiler has written it (`Compiler.compile_rollout`), runs the
    block from its start to its end as plain Python, each decision answered as it comes (see
    `Game.play_out`); `source` keeps the statements and bound names it is written from."""

    __slots__ = ("name", "run", "entries", "span", "params", "rollout", "source", "returns")

    def __init__(self, name: str, span: Span | None, params: tuple[str, ...] = (), returns: bool = False) -> None:
        self.name = name
        # the block gives a value (a procedure with `return`, a replacement of one): it leaves it
        # in `g.returned` on every way out, for the caller to read (`Compiler`)
        self.returns = returns
        self.run: Fn | None = None
        self.entries: list[Fn] = []
        self.span = span
        self.params = params
        self.rollout: Fn | None = None
        self.source: tuple[tuple, tuple[str, ...]] = ((), ())

    def __repr__(self) -> str:
        return f"<code {self.name}>"


@dataclass
class StaticEffect:
    """A continuous effect: `modify OBJ.attr by|to AMOUNT [if COND]` or `grant K to OBJ`."""

    attr: str  # attribute modified, or '' for a keyword grant
    target: Fn
    mode: str  # 'by', 'to' or 'grant'
    amount: Fn | None
    condition: Fn | None
    keyword: str = ""
    keyword_args: tuple[Fn, ...] = ()
    keyword_fn: Fn | None = None  # the keyword named by a keyword parameter, read at run time
    keyword_param: str = ""  # that parameter's name


@dataclass
class Ability:
    """A compiled ability of a card or keyword."""

    kind: str  # 'static' | 'triggered' | 'replacement' | 'activated'
    owner_name: str  # card or keyword name, for errors
    index: int
    part: str | None = None  # active only while the card has this part
    event: str = ""  # triggered / replacement: event or procedure name
    condition: Fn | None = None
    code: Code | None = None
    statics: tuple[StaticEffect, ...] = ()
    label: str | None = None
    cost: Fn | None = None
    keyword: str = ""  # set when the ability comes from a keyword
    keyword_params: tuple[str, ...] = ()
    span: Span | None = None
    target_code: Code | None = None  # activated: the `target` block, run when the ability is used
    fixed_cost: int | None = None  # activated: the cost when it is a number (0 without `pay`)
    # replacement: (X, "self") when the condition starts `event.X == self`, so that only the card
    # passed as X can replace the procedure; (X, "attached_to") for `event.X == self.attached_to`
    # (see `Game.call`)
    anchor: tuple[str, str] | None = None

    @property
    def key(self) -> tuple[str, str, int]:
        return (self.keyword or self.owner_name, self.part or "", self.index)


@dataclass
class CardDefinition:
    """A card as written: type, printed attributes, keywords, parts and abilities."""

    name: str
    type: str
    attrs: dict[str, Any]
    keywords: tuple[tuple[str, tuple[Any, ...]], ...]
    parts: dict[str, Code]
    abilities: tuple[Ability, ...]
    span: Span
    token: bool = False
    source: ast.CardDef | None = None
    text: str | None = None  # its printed rules text (`text = "..."`), for people only
    all_abilities: tuple[Ability, ...] = field(default=())
    # its code attributes (`aims(t) = ...`), compiled: name -> fn(g, f, *params), f's card the card
    code: dict[str, Any] = field(default_factory=dict)


class Names:
    """What names mean, given by the loader from the rule model (the checker has already run)."""

    def __init__(
        self,
        zones: dict[str, Any],
        procedures: dict[str, ast.Procedure],
        functions: dict[str, ast.Function],
        keywords: dict[str, ast.KeywordDef],
        card_types: set[str],
        card_names: set[str],
        player_count: int = 2,
        suspending_events: set[str] | None = None,
        replaced_procedures: set[str] | None = None,
        ending_events: set[str] | None = None,
    ) -> None:
        self.player_count = player_count
        # events whose emission may run triggers (None: every event may)
        self.suspending_events = suspending_events
        # events whose emission may end the game (an end condition is checked; None: every event)
        self.ending_events = ending_events
        self.replaced_procedures = replaced_procedures or set()
        # the bodies of the replacement abilities of each procedure (set by the builder)
        self.replacement_bodies: dict[str, list[tuple]] = {}
        self.wanted_events: set[str] = set()  # built-in events some rule waits for (set by the builder)
        # attributes that continuous or temporary effects may change (None: any may)
        self.modified_attributes: set[str] | None = None
        self.player_attributes: set[str] = set()
        self.player_limits: dict[str, tuple] = {}  # player attribute -> (min, max), where it has limits
        self.global_limits: dict[str, tuple] = {}  # global -> (min, max), where it has limits
        self.static_reads: set[str] = set()  # attributes that static abilities read
        # zones whose contents continuous effects and abilities depend on (set by the builder)
        self.watched_zones: frozenset[str] = frozenset()
        # a move changes only a card's place, first owner and reveal to every player once no time
        # stamps are kept (`Rules.plain_moves`, compile/analyses.py; set by the builder)
        self.plain_moves = False
        # card type -> the types `is` it holds for: itself and the types extending it (set by the builder)
        self.subtypes: dict[str, frozenset[str]] = {}
        # card type -> the attributes every card of the type has (set by the builder)
        self.type_attributes: dict[str, frozenset[str]] = {}
        # card attribute -> its slot in a card's row of stored values (set by the builder)
        self.attr_slots: dict[str, int] = {}
        # attributes (and globals) declared to hold a player, `controller` and `owner` among them
        self.player_valued: set[str] = set()
        # attributes with no limits that no continuous effect reads: set in place by compiled code
        self.plain_attributes: set[str] = set()
        # attributes with the same limits (min, max) wherever declared, that no continuous effect
        # reads: set in place by compiled code, held within their limits
        self.limited_attributes: dict[str, tuple] = {}
        # attributes declared somewhere with `values:`: compiled code has every write checked
        self.enumerated_attributes: set[str] = set()
        # events that nothing waits for (no trigger, end check or `until`): emitting one only logs it
        self.quiet_events: set[str] = set()
        # events some player witnesses (observations' `seen`): the argument naming the one player
        # who does, or "" for every player (set by the builder)
        self.witnessed_events: dict[str, str] = {}
        # events whose emission only checks end conditions (no trigger or `until` waits for them),
        # with the `when` of each condition checked then, in order (set by the builder)
        self.ending_only_events: dict[str, list[ast.Expr]] = {}
        self.card_attributes: set[str] = set()
        # what the typed globals and attributes hold, ("game", name) or ("attribute", name), and the
        # kinds of expressions: a write of a value whose kind the code does not say is tested
        # (set by the builder; see lang/kinds.py)
        self.held: dict[tuple[str, str], Any] = {}
        self.kinds: Any = None
        self.zone_keys_by_name: dict[str, list] = {}  # each zone's keys, in the engine's order
        self.zones = zones
        self.procedures = procedures
        self.functions = functions
        self.keywords = keywords
        self.card_types = card_types
        self.card_names = card_names


CONTEXT_NAMES = {"self", "you", "event", "players", "teams", "game", "options"}
TYPE_NAMES = {"player", "card", "list", "int", "text", "bool", "none", "ability"}



def _as_list(v) -> list:
    if type(v) is list:
        return v
    if v is None:
        return []
    if isinstance(v, list):
        return v
    if isinstance(v, tuple):
        return list(v)
    return [v]


def _first(v):
    v = _as_list(v)
    return v[0] if v else None


def _last(v):
    v = _as_list(v)
    return v[-1] if v else None


def _max_of(v):
    v = _as_list(v)
    return max(v) if v else 0


def _min_of(v):
    v = _as_list(v)
    return min(v) if v else 0


def _index(seq, i):
    seq = _as_list(seq)
    if not isinstance(i, int) or i < 1 or i > len(seq):
        return None
    return seq[i - 1]


# The most numbers `range` makes: a game's counts are small, and a slip (range(1, 10^15)) must
# not fill the memory.
MAX_RANGE = 100_000


def _range(a, b) -> list[int]:
    """The whole numbers from a up to b, b not included (`range(2, 15)`: 2 to 14)."""
    for v in (a, b):
        if type(v) is not int:
            raise TypeError(f"range takes whole numbers, not {type_name(v)}")
    if b - a > MAX_RANGE:
        raise ValueError(f"range({a}, {b}) would make {b - a:,} numbers; at most {MAX_RANGE:,}")
    return list(range(a, b))


def _flatten(v) -> list:
    """The items of a list of lists, joined (one level): an item that is not a list stays."""
    out: list = []
    for item in _as_list(v):
        if type(item) is list:
            out += item
        else:
            out.append(item)
    return out


def _set_key(v) -> tuple:
    """Where a value goes in a set: by kind, then by value (cards by id, players by seat), so that
    a set's order never depends on the process (no hashing of texts)."""
    kind = type(v)
    if v is None:
        return (0, 0)
    if kind is bool:
        return (1, int(v))
    if kind is int:
        return (2, v)
    if kind is str:
        return (3, v)
    if kind is PlayerRef:
        return (4, v.seat)
    if kind is CardRef:
        return (5, v.id)
    if kind is AbilityRef:
        return (6, v.card.id, v.index)
    raise TypeError(f"a set holds numbers, texts, true/false, players, cards and abilities, not {type_name(v)}")


def _set(v) -> list:
    """A set: the items of a list without repeats, in one order for any process (`_set_key`)."""
    found = {}
    for item in _as_list(v):
        found.setdefault(_set_key(item), item)
    return [found[k] for k in sorted(found)]


def _union(a, b) -> list:
    return _set(_as_list(a) + _as_list(b))


def _intersection(a, b) -> list:
    keys = {_set_key(item) for item in _as_list(b)}
    return [item for item in _set(a) if _set_key(item) in keys]


def _difference(a, b) -> list:
    keys = {_set_key(item) for item in _as_list(b)}
    return [item for item in _set(a) if _set_key(item) not in keys]


def _floordiv(a, b):
    return a // b if b else 0


def _mod(a, b):
    return a % b if b else 0


BINOPS: dict[str, Callable[[Any, Any], Any]] = {
    "+": lambda a, b: (_as_list(a) + _as_list(b)) if isinstance(a, list) or isinstance(b, list) else a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "/": _floordiv,
    "%": _mod,
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
}
