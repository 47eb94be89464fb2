"""The built-ins of the language, in one table: each built-in function and procedure with its
arity, the kinds of value it takes and gives, whether it may be worked out at load or draws from
the game's generator, its documentation, and its implementation (the Python callable, and the
template the code generator writes in its place where it has one).

Everything else reads its facts from here: the checker (names, arity, argument kinds), the
kind inference (kinds.py and the code generator's value analyses), constant evaluation
(consteval.py), the code generator (codegen.py, codegen_tables.py), the seed-free analysis
(analysis.py), the language server's hover and completion, and docs/language.md section 9 (a test
checks that its table is this one, word for word). Adding a built-in function is one `Builtin`
entry below, and one row of that documented table; see docs/contributing.md.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from .runtime import (
    _as_list,
    _difference,
    _first,
    _flatten,
    _index,
    _intersection,
    _last,
    _max_of,
    _min_of,
    _range,
    _set,
    _union,
)
from .values import AbilityRef, Labelled, PlayerRef, TeamRef


@dataclass(frozen=True)
class Builtin:
    """One built-in function (a value in an expression) or procedure (a statement).

    `implementation(game, *args)` gives a function's value (game is None when it is worked out
    at load). `inline`, when given, writes the call's Python source from its arguments' sources
    instead of calling `implementation` (see codegen.py `x_Call`)."""

    name: str
    params: str  # the parameters as written in a call, "(L, n)": the signature shown on hover
    doc: str  # what it gives or does, one line (docs/language.md section 9 holds the same words)
    implementation: Callable[..., Any] | None = None  # (game, *args) -> value; None for a procedure
    arity: tuple[int, int] = (1, 1)  # the least and the most arguments
    procedure: bool = False  # a statement (`reveal(c)`), with no value; the code generator writes it
    # The kind of value it gives: "int", "bool", "text", "player", "card", "list", or "any" when
    # that depends on its arguments (None: a procedure, no value). A list is a new list at every
    # call (the generated code keeps it without a copy); a list, a text or a player is never none
    # (`position` and `ability_card` may give none, as every declared kind may hold it).
    gives: str | None = None
    # The kind each parameter must hold, by position, where another kind surely fails ("int",
    # "player"); None: any. The checker refuses an argument whose kind the code says is contrary.
    takes: tuple[str | None, ...] = ()
    constant: bool = False  # needs no game: may be worked out at load, in a card template
    at_load: Callable[..., Any] | None = None  # its meaning at load when that differs (`text`)
    random: bool = False  # draws from the game's seeded generator
    keeps_items: bool = False  # its list holds items of its first argument only, each at most once
    gives_players: bool = False  # its list is of players, each at most once (`others`)
    gives_item: bool = False  # it gives an item of its first argument (or none): `first(L)`
    inline: Callable[..., str] | None = None  # the code generator's template over argument sources
    reads_argument: bool = False  # only reads its list argument: given a zone, it reads the zone's list
    list_arguments: bool = False  # the inline template wants its arguments as Python lists
    strict: bool = False  # its code works out each argument, every time

    @property
    def kind(self) -> str | None:
        """The kind of value it surely gives, for the kind inference (None: the code does not say)."""
        return None if self.gives == "any" else self.gives

    @property
    def signature(self) -> str:
        return self.name + self.params

    def param_names(self) -> list[str]:
        return [p.strip() for p in self.params.strip("()").split(",") if p.strip()]


def text_at_load(v: Any) -> str:
    """A value in a name, worked out at load: as `text(...)` shows numbers, texts and true/false."""
    if v is True:
        return "yes"
    if v is False:
        return "no"
    if v is None:
        return "nothing"
    if isinstance(v, list):
        return " + ".join(text_at_load(x) for x in v)
    return str(v)


def _team(g: Any, p: Any) -> TeamRef:
    """`team(p)`: the team of player p (the ruleset's `teams:`)."""
    if type(p) is not PlayerRef:
        g.runtime_error(f"team() takes a player, not {g.label(p)}")
    return g.rules.team_of_seat[p.seat - 1]


def _members(g: Any, t: Any) -> list:
    """`members(t)`: the players of team t, in seat order."""
    if type(t) is not TeamRef:
        g.runtime_error(f"members() takes a team, not {g.label(t)}")
    return [g.players[seat - 1] for seat in t.seats]


def _f(name: str, params: str, doc: str, implementation: Callable[..., Any], arity: tuple[int, int] | int = 1, *,
       gives: str = "any", **facts: Any) -> Builtin:
    """A built-in function (`arity`: how many arguments, or the least and the most)."""
    lo_hi = (arity, arity) if isinstance(arity, int) else arity
    return Builtin(name, params, doc, implementation, lo_hi, gives=gives, **facts)


_LIST_READ = dict(reads_argument=True, list_arguments=True, strict=True)  # count, first, any, is_empty

_TABLE: tuple[Builtin, ...] = (
    _f("count", "(L)", "the number of items", lambda g, x: len(_as_list(x)), gives="int", constant=True,
       inline=lambda x: f"len({x})", **_LIST_READ),
    _f("first", "(L)", "the first item, `none` if empty", lambda g, x: _first(x), constant=True,
       inline=lambda x: f"_head({x})", **_LIST_READ, gives_item=True),
    _f("last", "(L)", "the last item, `none` if empty", lambda g, x: _last(x), constant=True, gives_item=True),
    _f("nth", "(L, i)", "the i-th item counting from 1, `none` out of range (same as `L[i]`)",
       lambda g, x, i: _index(x, i), 2, constant=True, inline=lambda x, i: f"_index({x}, {i})", gives_item=True),
    _f("max", "(a, b, ...)", "the largest of 1 to 99 values; for the largest item of a list use `max_of`",
       lambda g, *xs: _max_of(xs[0]) if len(xs) == 1 else max(xs), (1, 99), constant=True),
    _f("min", "(a, b, ...)", "the smallest of 1 to 99 values; for a list use `min_of`",
       lambda g, *xs: _min_of(xs[0]) if len(xs) == 1 else min(xs), (1, 99), constant=True),
    # (max_of and min_of name their argument twice: inlined only for a plain name, see codegen.py)
    _f("max_of", "(L)", "the largest item, `0` if empty", lambda g, x: _max_of(x), constant=True,
       inline=lambda x: f"(max({x}) if {x} else 0)", list_arguments=True, strict=True),
    _f("min_of", "(L)", "the smallest item, `0` if empty", lambda g, x: _min_of(x), constant=True,
       inline=lambda x: f"(min({x}) if {x} else 0)", list_arguments=True, strict=True),
    _f("sum_of", "(L)", "the sum of the items", lambda g, x: sum(_as_list(x)), gives="int", constant=True,
       strict=True),
    _f("abs", "(n)", "the absolute value", lambda g, x: abs(x), gives="int", takes=("int",), constant=True),
    _f("any", "(L)", "true when the list is not empty", lambda g, x: bool(_as_list(x)), gives="bool",
       constant=True, inline=lambda x: f"bool({x})", **_LIST_READ),
    _f("is_empty", "(L)", "true when the list is empty", lambda g, x: not _as_list(x), gives="bool",
       constant=True, inline=lambda x: f"(not {x})", **_LIST_READ),
    _f("reverse", "(L)", "the items in reverse order", lambda g, x: list(reversed(_as_list(x))), gives="list",
       constant=True, keeps_items=True),
    _f("take", "(L, n)", "the first n items", lambda g, x, n: _as_list(x)[:max(0, n)], 2, gives="list",
       takes=(None, "int"), constant=True, keeps_items=True),
    _f("drop", "(L, n)", "all but the first n items", lambda g, x, n: _as_list(x)[max(0, n):], 2, gives="list",
       takes=(None, "int"), constant=True, keeps_items=True),
    _f("distinct", "(L)", "the items without repeats, first occurrence kept; repeats are the *same* object (the "
                          "same card or player), so equal texts or numbers made separately may both stay",
       lambda g, x: list({id(v): v for v in _as_list(x)}.values()), gives="list", constant=True),
    _f("combinations", "(L, k)", "every list of k items of L, in order",
       lambda g, x, k: list(map(list, itertools.combinations(_as_list(x), k))), 2, gives="list",
       takes=(None, "int"), constant=True),
    _f("permutations", "(L)", "every order of the items",
       lambda g, x: list(map(list, itertools.permutations(_as_list(x)))), gives="list", constant=True),
    _f("product", "(A, B)", "every pair `[a, b]`", lambda g, a, b: [[x, y] for x in _as_list(a) for y in _as_list(b)],
       2, gives="list", constant=True),
    _f("others", "(p)", "the other players, in seat order", lambda g, p: [q for q in g.players if q is not p],
       gives="list", takes=("player",), gives_players=True,
       inline=lambda p: f"_bf_others(g, {p})"),  # (a comprehension here would make g a closure's cell)
    _f("next_player", "(p)", "the player in the next seat, after the last seat the first",
       lambda g, p: g.players[p.seat % len(g.players)], gives="player", takes=("player",)),
    _f("team", "(p)", "the team of player p (the ruleset's `teams:`)", _team, gives="team", takes=("player",)),
    _f("members", "(t)", "the players of team t, in seat order", _members, gives="list", takes=("team",),
       gives_players=True),
    _f("random", "(L)", "an item chosen with the game's seeded generator, `none` if empty",
       lambda g, x: g.random_choice(_as_list(x)), random=True, inline=lambda x: f"g.random_choice({x})",
       reads_argument=True, list_arguments=True, gives_item=True),
    _f("shuffled", "(L)", "a copy of the list in a random order (the game's seeded generator)",
       lambda g, x: g.shuffled(_as_list(x)), gives="list", random=True, keeps_items=True,
       inline=lambda x: f"g.shuffled({x})", list_arguments=True),
    _f("card_names", "()", "the names of the ruleset's cards that are not tokens, in the order they are defined "
                           "(card files of a folder in name order)", lambda g: g.card_names(), 0, gives="list"),
    _f("attachments", "(x)", "the cards attached to a card or player, in any zone", lambda g, x: g.attachments(x),
       gives="list", inline=lambda x: f"g.attachments({x})"),
    _f("position", "(c)", "a card's position in its zone, from 1; `none` if it is in no zone",
       lambda g, c: g.position(c), gives="int", inline=lambda c: f"g.position({c})"),
    _f("has", "(c, k)", "whether card c has keyword k (printed or granted); false for a non-card",
       lambda g, c, k: g.has_keyword(c, k), 2, gives="bool", inline=lambda c, k: f"g.has_keyword({c}, {k})"),
    _f("silenced", "(c)", "whether card c is silenced (see `silence`); false for a non-card",
       lambda g, c: g.is_silenced(c), gives="bool", inline=lambda c: f"g.is_silenced({c})"),
    _f("text", "(x)", "a value's label, as options show it", lambda g, x: g.label(x), gives="text",
       at_load=text_at_load, inline=lambda x: f"g.label({x})"),
    _f("labelled", '(v, "label")', 'v, shown as "label" when offered in a `choose`',
       lambda g, x, label: Labelled(x, str(label)), 2, inline=lambda x, label: f"_Labelled({x}, str({label}))"),
    _f("abilities", "(cards)", "the activated abilities of these cards that may be used now",
       lambda g, x: g.activatable(_as_list(x)), gives="list", inline=lambda x: f"g.activatable({x})", **_LIST_READ),
    _f("ability_cost", "(a)", "an ability's `pay` cost, 0 without one", lambda g, a: g.ability_cost(a), gives="int",
       inline=lambda a: (f"({a}.ability.fixed_cost if type({a}) is _AbilityRef and {a}.ability.fixed_cost is not "
                         f"None else g.ability_cost({a}))" if a.isidentifier() else f"g.ability_cost({a})")),
    _f("ability_card", "(a)", "the card an ability belongs to",
       lambda g, a: a.card if isinstance(a, AbilityRef) else None, gives="card"),
    _f("range", "(a, b)", "the whole numbers from a up to b, b left out (at most 100,000)",
       lambda g, a, b: _range(a, b), 2, gives="list", takes=("int", "int"), constant=True),
    _f("flatten", "(L)", "the items of the lists in L joined, one level deep (an item that is not a list stays)",
       lambda g, x: _flatten(x), gives="list", constant=True),
    _f("set", "(L)", "the items of L without repeats, in the set order (see [Sets](#sets))", lambda g, x: _set(x),
       gives="list", constant=True),
    _f("union", "(A, B)", "the set of the items of A and of B", lambda g, a, b: _union(a, b), 2, gives="list",
       constant=True),
    _f("intersection", "(A, B)", "the set of the items of A that are in B", lambda g, a, b: _intersection(a, b), 2,
       gives="list", constant=True),
    _f("difference", "(A, B)", "the set of the items of A that are not in B", lambda g, a, b: _difference(a, b), 2,
       gives="list", constant=True),
    # the built-in procedures (statements: the code generator writes each, see codegen_statements.py)
    Builtin("run", '(card, "part")', "runs the statements of the card's part of that name", arity=(2, 2),
            procedure=True),
    Builtin("reveal", "(cards)", "shows a card (or a list of cards) to every player until it changes zone; "
            "`reveal c to P`: to the player P (or a list of players) alone", arity=(1, 2), procedure=True),
    Builtin("aim", "(ability)", "runs an activated ability's `target { ... }` block (its choices are made then)",
            procedure=True),
    Builtin("use", "(ability)", "runs an activated ability's effect", procedure=True),
)

BUILTINS: dict[str, Builtin] = {b.name: b for b in _TABLE}


# The kinds a built-in may give, and those the checker can hold its arguments to (param_kinds.py).
KINDS = ("int", "bool", "text", "list", "player", "card", "ability", "team", "any")
ARGUMENT_KINDS = (None, "int", "player", "team")


def problems(builtin: Builtin) -> list[str]:
    """What is wrong with a built-in's entry (nothing, for each of the table's)."""
    found = []
    if not builtin.name.isidentifier():
        found.append(f"a built-in's name is a name, not {builtin.name!r}")
    if not builtin.doc or not builtin.params.startswith("(") or not builtin.params.endswith(")"):
        found.append(f"{builtin.name!r} needs its parameters as written in a call, (L, n), and a doc")
    lo, hi = builtin.arity
    if not 0 <= lo <= hi:
        found.append(f"{builtin.name!r} has the arity {builtin.arity}")
    if builtin.procedure:
        if builtin.gives is not None or builtin.implementation is not None:
            found.append(f"procedure {builtin.name!r} gives no value and is written by the code generator")
        return found
    if builtin.implementation is None:
        found.append(f"built-in function {builtin.name!r} has no implementation")
    if builtin.gives not in KINDS:
        found.append(f"{builtin.name!r} gives {builtin.gives!r}: one of {', '.join(KINDS)}")
    if len(builtin.takes) > hi or any(k not in ARGUMENT_KINDS for k in builtin.takes):
        found.append(f"{builtin.name!r} takes {builtin.takes!r}: one kind (None, 'int', 'player', 'team') per parameter")
    return found


def define(builtin: Builtin) -> None:
    """Add a built-in function to the language: the extension point (a test adds a toy one with it).
    Rulesets loaded afterwards may call it; every part of the interpreter learns of it from here.
    A built-in procedure is a statement that the code generator writes: it is added to `_TABLE`
    with its code in codegen_statements.py (see docs/contributing.md), not here."""
    if builtin.name in BUILTINS:
        raise ValueError(f"{builtin.name!r} is a built-in already")
    if builtin.procedure:
        raise ValueError(f"define adds built-in functions; {builtin.name!r} is a procedure")
    found = problems(builtin)
    if found:
        raise ValueError("; ".join(found))
    BUILTINS[builtin.name] = builtin


def undefine(name: str) -> None:
    """Remove a built-in that `define` added (the table's own stay)."""
    if any(b.name == name for b in _TABLE):
        raise ValueError(f"{name!r} is one of the language's own built-ins")
    BUILTINS.pop(name, None)


class _Names(Mapping[str, Any]):
    """A live view of the built-ins that have a fact, name -> what `value` gives of each (the
    table may grow through `define`)."""

    def __init__(self, has: Callable[[Builtin], bool], value: Callable[[Builtin], Any] = lambda b: b) -> None:
        self._has, self._value = has, value

    def __getitem__(self, name: str) -> Any:
        b = BUILTINS.get(name)
        if b is None or not self._has(b):
            raise KeyError(name)
        return self._value(b)

    def __iter__(self) -> Iterator[str]:
        return (name for name, b in BUILTINS.items() if self._has(b))

    def __len__(self) -> int:
        return sum(1 for b in BUILTINS.values() if self._has(b))


def having(fact: Callable[[Builtin], Any], value: Callable[[Builtin], Any] = lambda b: b) -> Mapping[str, Any]:
    """The built-ins for which `fact` holds, by name (a live view), each as `value` gives it."""
    return _Names(lambda b: bool(fact(b)), value)


# The views most readers want (live: they follow `define`).
FUNCTIONS = having(lambda b: not b.procedure)
PROCEDURES = having(lambda b: b.procedure)
CONSTANT = having(lambda b: not b.procedure and (b.constant or b.at_load is not None))
RANDOM = having(lambda b: b.random)


def builtin_doc(name: str) -> tuple[str, str, str] | None:
    """('function' or 'procedure', the signature, the documentation) of a built-in, or None."""
    b = BUILTINS.get(name)
    if b is None:
        return None
    return ("procedure" if b.procedure else "function"), b.signature, b.doc
