"""Decisions: the options a player is offered, and how values read in options and logs.

`Decisions` is a part of `GameState`: `choose` turns the values a rule offers into numbered options
(one value, exactly or up to N of them, or an order) and suspends the game until `apply`.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..errors import Span
from ..lang.values import AbilityRef, CardRef, Labelled, PlayerRef, value_id

if TYPE_CHECKING:
    from .state import GameState


class Option:
    """One legal answer to a decision: a stable id, a readable label, the value.

    The id and label are computed on first use: an agent that picks by index never pays for them.
    """

    __slots__ = ("value", "index", "_id", "_label", "_game", "decision")

    def __init__(self, id: str | None, label: str | None, value: Any, index: int, game: GameState | None = None,
                 decision: OptionList | None = None) -> None:
        self.value = value
        self.index = index
        self._id = id
        self._label = label
        self._game = game
        self.decision = decision  # the decision it is an option of (an older one's is refused)

    @property
    def id(self) -> str:
        if self._id is None:
            self._id = value_id(self.value)
        return self._id

    @property
    def label(self) -> str:
        if self._label is None:
            self._label = self._game.label(self.value) if self._game is not None else str(self.value)
        return self._label

    def __str__(self) -> str:
        return self.label

    def __repr__(self) -> str:
        return f"Option({self.index}, {self.id!r}, {self.label!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Option) and other.id == self.id

    def __hash__(self) -> int:
        return hash(self.id)


class OptionList(Sequence):
    """The legal options of a decision, in order. Each Option is made when it is first read: an
    agent that picks by index (a random playout, a search) never pays for the others.

    Made from the values a rule offers: a `Labelled` value gives its own label; a combination
    (a list) that holds labelled values is offered as the list of their values and read as
    their labels joined."""

    __slots__ = ("_values", "_built", "_game", "_unwrap")

    def __init__(self, values: list, game: GameState | None, unwrap: bool = False) -> None:
        self._values = values
        self._built: list[Option | None] | None = None
        self._game = game
        self._unwrap = unwrap

    def __len__(self) -> int:
        return len(self._values)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self._values)))]
        built = self._built
        if built is None:
            built = self._built = [None] * len(self._values)
        option = built[index]
        if option is None:
            if index < 0:
                index += len(built)
            option = built[index] = self._make(index)
        return option

    def __iter__(self):
        for i in range(len(self._values)):
            yield self[i]

    def value_at(self, index: int) -> Any:
        """The value of the option at this index (0 <= index < len), without making the Option
        (an Option made already holds the same value)."""
        v = self._values[index]
        if self._unwrap:
            return [x.value if type(x) is Labelled else x for x in v]
        return v.value if type(v) is Labelled else v

    def _make(self, index: int) -> Option:
        v = self._values[index]
        if self._unwrap:
            return Option(None, self._game.label(v), self.value_at(index), index, None, self)
        if type(v) is Labelled:
            return Option(None, v.label, v.value, index, None, self)
        return Option(None, None, v, index, self._game, self)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({list(self)!r})"


class Pending(OptionList):
    """A decision the game waits for: who decides, the frame local that takes the answer, the
    prompt, and its options (a Pending is its own list of options: one object per decision). A
    prompt that shows values ("a target for {card}") may be given as a function, called on first
    use, and options work out their labels on first use: an agent that never reads them never
    pays for them.

    `clone()` shares the waiting decision with the copy and marks it `shared`. Its texts are read
    from the state of the game that asked it, so that game settles them before it takes the
    decision (`taken_by`), while every state that shares it is still the same; a copy taking it
    changes only its own state, and settles nothing."""

    __slots__ = ("seat", "var", "_prompt", "span", "shared")

    def __init__(self, seat: int, var: str, prompt, values: list, game: GameState | None, unwrap: bool = False,
                 span: Span | None = None) -> None:
        self._values = values
        self._built = None
        self._game = game
        self._unwrap = unwrap
        self.seat = seat
        self.var = var
        self._prompt = prompt
        self.span = span
        self.shared = False

    @classmethod
    def of_options(cls, seat: int, var: str, prompt, options: list[Option]) -> Pending:
        """A decision whose options are already made (a saved game's)."""
        new = cls(seat, var, prompt, [o.value for o in options], None)
        new._built = list(options)
        for o in options:
            o.decision = new
        return new

    @property
    def prompt(self) -> str:
        if not isinstance(self._prompt, str):
            self._prompt = self._prompt()
        return self._prompt

    def _make(self, index: int) -> Option:
        """An option; one that names a card its chooser may not see is named by where the card
        is instead (`Decisions.unseen_option`): its id and label name no hidden card."""
        option = OptionList._make(self, index)
        game = self._game
        if game is not None and self.seat:
            unseen = game.unseen_option(self._values[index], self.seat)
            if unseen is not None:
                option._id, option._label = unseen
        return option

    def taken_by(self, game: GameState) -> None:
        """`game` is about to take this decision: if the decision is shared and asked by `game`,
        settle its texts first (see the class)."""
        if self.shared and self._game is game:
            self.settle()

    def settle(self) -> None:
        """Work out the prompt and every option's label now."""
        _ = self.prompt
        for o in self:
            _ = o.label
        self.shared = False


class Decisions:
    """Mixin of GameState: offering a choice, and readable labels of values."""

    def choose_one(self, f, var: str, prompt, values: list, who, span, distinct: bool = False) -> None:
        """`choose` of one value: the common case, in short. `distinct`: the compiler has found
        that the values cannot repeat an option (see `CodeGenerator.distinct_tags`)."""
        if len(values) < 2:  # nothing to ask
            if values and self.one_option is not None and self._one_option(f, var, prompt, values, who, span, False):
                return
            only = values[0] if values else None
            f.locals[var] = only.value if type(only) is Labelled else only
            return
        candidates = values if distinct else distinct_values(values)
        if len(candidates) == 1:
            if self.one_option is not None and self._one_option(f, var, prompt, candidates, who, span, False):
                return
            only = candidates[0]
            f.locals[var] = only.value if type(only) is Labelled else only
            return
        if type(who) is not PlayerRef:
            self.runtime_error("a choice needs a player: write 'by PLAYER' here", span)
        self._ask(Pending(who.seat, var, prompt or "choose", candidates, self, False, span), f)

    def choose(self, f, var: str, kind: str, n, prompt, values: list, who, span, always_ask: bool = False) -> None:
        if kind == "one":
            if len(values) < 2 and not always_ask:  # nothing to ask
                if values and self.one_option is not None and self._one_option(f, var, prompt, values, who, span,
                                                                                False):
                    return
                only = values[0] if values else None
                f.locals[var] = only.value if type(only) is Labelled else only
                return
            candidates = distinct_values(values)
        elif kind == "exactly":
            k = max(0, min(n, len(values)))
            candidates = list(map(list, itertools.combinations(values, k)))
        elif kind == "up_to":
            k = max(0, min(n, len(values)))
            candidates = [list(c) for size in range(k + 1) for c in itertools.combinations(values, size)]
        else:
            if len(values) > 7:
                self.runtime_error(f"cannot offer every order of {len(values)} values (7 at most)", span)
            candidates = list(map(list, itertools.permutations(values)))
        if not candidates:
            f.locals[var] = None if kind == "one" else []
            return
        if len(candidates) == 1 and not always_ask:
            if self.one_option is not None and self._one_option(
                    f, var, prompt, candidates, who, span, kind != "one" and any(type(x) is Labelled for x in values)):
                return
            only = candidates[0]
            f.locals[var] = only.value if type(only) is Labelled else only
            return
        if not isinstance(who, PlayerRef):
            self.runtime_error("a choice needs a player: write 'by PLAYER' here", span)
        unwrap = kind != "one" and any(type(x) is Labelled for x in values)
        self._ask(Pending(who.seat, var, prompt or "choose", candidates, self, unwrap, span), f)

    def _one_option(self, f, var: str, prompt, candidates: list, who, span, unwrap: bool) -> bool:
        """A choice with one option, which the engine takes without asking: `one_option` (a
        scenario's hook) is told of it, and may have it asked all the same (True: it was asked;
        a choice without a player to ask is taken)."""
        seat = who.seat if type(who) is PlayerRef else 0
        pending = Pending(seat, var, prompt or "choose", candidates, self, unwrap, span)
        if not self.one_option(self, pending) or not seat:
            return False
        self._ask(pending, f)
        return True

    def _ask(self, pending: Pending, f) -> None:
        """Offer a decision: during `play_out`, answer it at once and go on; otherwise (or when
        the answer fails) suspend until `apply`. Past the cap of decisions, end the game instead."""
        n = self.decisions + 1
        if n > self.max_decisions:
            self.stop_unfinished()
            return
        self.decisions = n
        self.pending = pending
        if self.decide is None or not self._answer_now(pending, f):
            self.halted = True

    def unseen_option(self, value, seat: int) -> tuple[str, str] | None:
        """The id and label of an option whose value is, or holds, a card `seat` may not see
        (in a zone hidden from them, not revealed to them), or None if they see every card in it.
        Such a card is named by its place, "the 3rd card of your hand" (id `hand.p1.3`): the
        chooser picks a place, and neither the option nor the log names the card there. An
        ability of such a card is named by its place too ("ability 2 of ...")."""
        parts = value if type(value) is list else (value,)
        found = False
        for part in parts:
            v = part.value if type(part) is Labelled else part
            t = type(v)
            card = v if t is CardRef else v.card if t is AbilityRef else None
            if card is not None and not self.visible(card, seat):
                found = True
                break
        if not found:
            return None
        ids, labels = [], []
        for part in parts:
            v = part.value if type(part) is Labelled else part
            t = type(v)
            card = v if t is CardRef else v.card if t is AbilityRef else None
            if card is None or self.visible(card, seat):
                ids.append(value_id(part))
                labels.append(self.label(part))
                continue
            place_id, place = self._place(card, seat)
            if t is AbilityRef:
                ids.append(f"{place_id}.a{v.index + 1}")
                labels.append(f"ability {v.index + 1} of {place}")
            else:
                ids.append(place_id)
                labels.append(place)
        return "+".join(ids) or "nothing", " + ".join(labels) or "nothing"

    def _place(self, card: CardRef, seat: int) -> tuple[str, str]:
        """A card's place as an option id and words: ("hand.p1.3", "the 3rd card of your hand")."""
        key = self.card_zone[card.id]
        name, owner, row = key
        position = self.zones[key].index(card) + 1
        zone = name.replace("_", " ") + (f" {row.replace('_', ' ')}" if row else "")
        whose = "the" if not owner else "your" if owner == seat else f"P{owner}'s"
        place_id = f"{name}{'.' + row if row else ''}{f'.p{owner}' if owner else ''}.{position}"
        return place_id, f"the {ordinal(position)} card of {whose} {zone}"

    def label(self, value) -> str:
        if type(value) is CardRef:
            template = value.defn.label
            if template is None:
                return value.defn.name
            if value.id >= len(self.attrs) or not self.attrs[value.id]:
                return value.defn.name
            fields = {}
            for k in value.defn.label_fields:
                v = self.read(value, k)
                # (none shows as text(none) does: "nothing", never Python's "None")
                fields[k] = self.label(v) if v is None or type(v) in (PlayerRef, CardRef, AbilityRef) else v
            return template.format(**fields)
        if type(value) is PlayerRef:
            return f"P{value.seat}"
        if value is True:
            return "yes"
        if value is False:
            return "no"
        if value is None:
            return "nothing"
        if isinstance(value, list):
            return " + ".join(self.label(v) for v in value) or "nothing"
        if type(value) is Labelled:
            return value.label
        if type(value) is AbilityRef:
            return f"{self.label(value.card)}: {value.ability.label or 'ability ' + str(value.index + 1)}"
        return str(value)


_HANDLE_TYPES = frozenset((CardRef, PlayerRef, AbilityRef))


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, ..., 11th, 12th, 13th, ..., 21st."""
    suffix = "th" if n % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def distinct_values(values: list) -> list:
    """The values without repeats (cards and players by identity, others by value)."""
    if len(values) < 2 or type(values[0]) in (list, Labelled):
        return values  # lists of options (combinations, labelled pairs) are built distinct
    # Handles (cards, players, abilities) none of which repeats, and at most one other value at
    # the end ("... or pass"): nothing to drop, as a handle's key never equals another value's.
    handles = values if type(values[-1]) in _HANDLE_TYPES else values[:-1]
    if _HANDLE_TYPES.issuperset(map(type, handles)) and len(set(handles)) == len(handles):
        return values
    seen = set()
    out = []
    for v in values:
        t = type(v)  # (the key is the option's id, worked out the quick way where it can be)
        k = (id(v) if t is CardRef or t is PlayerRef else v if t is AbilityRef or t is str
             else str(v) if t is int else value_id(v))
        if k not in seen:
            seen.add(k)
            out.append(v)
    return out
