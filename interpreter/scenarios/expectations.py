"""Expected values of scenario checks, and how each compares with the state.

`parse_expected` reads what a check expects when the scenario is read: a plain value; for a
zone, its cards in order, `{unordered: [...]}` or counts `{NAME: N}`; for any path a relation
`{same_as: X, at_least: X, at_most: X}` with another path, a number or an expression; for
`events` events in order, for `not_events` events that must not happen. `Expected.problem`
says what is wrong in a game (None when it holds).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..engine.playout import RULE_ERRORS
from ..engine.rule_errors import rule_error_words
from ..errors import CardrulesError
from ..lang.runtime import Frame
from ..lang.values import CardRef, PlayerRef, TeamRef
from .paths import NOT_OVER, PathError, ReadProblem, StatePath, label_hint, labels_in, parse_path

RELATIONS = ("same_as", "at_least", "at_most")


@dataclass
class Reading:
    """What checks read: the game, the labelled cards, where the events they see begin."""

    game: Any
    labels: dict[str, CardRef]
    events_from: int = 0

    def value(self, path: StatePath) -> Any:
        return path.read(self.game, self.labels, self.events_from)


def shown(value: Any) -> Any:
    """A state value as scenarios write it: cards by name, players as 'P1', teams by name."""
    if isinstance(value, CardRef):
        return value.defn.name
    if isinstance(value, PlayerRef):
        return f"P{value.seat}"
    if isinstance(value, TeamRef):
        return value.name
    if isinstance(value, (list, tuple)):
        return [shown(v) for v in value]
    return value


def told(value: Any, reading: Reading) -> Any:
    """`shown`, with a labelled card shown with its label too: 'Monster $m2'."""
    if isinstance(value, CardRef):
        labels = [name for name, card in reading.labels.items() if card.id == value.id]
        return f"{value.defn.name} ${labels[0]}" if labels else value.defn.name
    if isinstance(value, (list, tuple)):
        return [told(v, reading) for v in value]
    return shown(value)


def matches(actual: Any, expected: Any, reading: Reading) -> bool:
    """A state value against a value written in the scenario: `$label` is that very card, a
    card matches its name or an object of its attributes, lists item by item."""
    if isinstance(expected, str) and expected.startswith("$") and len(expected) > 1:
        card = reading.labels.get(expected[1:])
        return card is not None and type(actual) is CardRef and actual.id == card.id
    if type(actual) is CardRef:
        if isinstance(expected, str):
            return actual.defn.name == expected
        return isinstance(expected, dict) and card_matches(actual, expected, reading)
    if type(actual) is PlayerRef and type(expected) is int:  # a player may be written as its seat
        return actual.seat == expected
    if isinstance(actual, (list, tuple)) and isinstance(expected, list):
        return len(actual) == len(expected) and all(matches(a, e, reading) for a, e in zip(actual, expected))
    return shown(actual) == expected


def card_matches(card: CardRef, expected: dict, reading: Reading) -> bool:
    """A card against {name: ..., ATTR: value, ...}: every attribute given must match."""
    for key, value in expected.items():
        if key in ("name", "card"):
            if card.defn.name != value:
                return False
        elif not matches(reading.game.read(card, key), value, reading):
            return False
    return True


def same_values(a: Any, b: Any) -> bool:
    """Two state values: cards by identity, lists item by item, the rest as scenarios write them."""
    if type(a) is CardRef or type(b) is CardRef:
        return type(a) is type(b) and a.id == b.id
    if type(a) is PlayerRef or type(b) is PlayerRef:  # (a decision's player is a seat)
        return _seat(a) == _seat(b)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same_values(x, y) for x, y in zip(a, b))
    return shown(a) == shown(b)


def _seat(value: Any) -> Any:
    return value.seat if type(value) is PlayerRef else value


def _differences(card: CardRef, expected: Any, reading: Reading) -> str:
    if not isinstance(expected, dict):
        return ""
    diffs = []
    for key, value in expected.items():
        if key in ("name", "card"):
            continue
        got = reading.game.read(card, key)
        if not matches(got, value, reading):
            diffs.append(f"{card.defn.name}.{key} is {told(got, reading)!r}, not {value!r}")
    return ", ".join(diffs)


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


# ---------------------------------------------------------------------- what a check expects
class Expected:
    def problem(self, actual: Any, reading: Reading) -> str | None:
        raise NotImplementedError


@dataclass
class Plain(Expected):
    value: Any

    def problem(self, actual: Any, reading: Reading) -> str | None:
        if matches(actual, self.value, reading):
            return None
        detail = _differences(actual, self.value, reading) if type(actual) is CardRef else ""
        return f"expected {self.value!r}, got {told(actual, reading)!r}" + (f" ({detail})" if detail else "")


@dataclass
class InOrder(Expected):
    """A zone's cards, in zone order."""

    items: list

    def problem(self, actual: Any, reading: Reading) -> str | None:
        if len(actual) == len(self.items) and all(matches(c, e, reading) for c, e in zip(actual, self.items)):
            return None
        detail = [_differences(c, e, reading) for c, e in zip(actual, self.items)]
        return f"expected {self.items}, got {shown(actual)}" + (
            f" ({'; '.join(d for d in detail if d)})" if any(detail) else "")


@dataclass
class Unordered(Expected):
    """The cards (or values) of a list in any order: each item matches a different one."""

    items: list

    def problem(self, actual: Any, reading: Reading) -> str | None:
        if not isinstance(actual, (list, tuple)):
            return f"expected a list, in any order, got {shown(actual)!r}"
        missing = _unmatched(list(actual), self.items, reading)
        if not missing and len(actual) == len(self.items):
            return None
        why = f"; not found: {missing}" if missing else ""
        return f"expected in any order {self.items}, got {shown(actual)}{why}"


def _unmatched(values: list, items: list, reading: Reading) -> list:
    """The items left without a value of their own in a largest one-to-one matching."""
    fits = [[j for j, v in enumerate(values) if matches(v, item, reading)] for item in items]
    holder = [-1] * len(values)

    def place(i: int, seen: set[int]) -> bool:
        for j in fits[i]:
            if j not in seen:
                seen.add(j)
                if holder[j] < 0 or place(holder[j], seen):
                    holder[j] = i
                    return True
        return False

    return [items[i] for i in range(len(items)) if not place(i, set())]


@dataclass
class Counted(Expected):
    """A zone's cards by name and number, nothing else in it: {Stab: 3, Bandage: 1}."""

    counts: dict[str, int]

    def problem(self, actual: Any, reading: Reading) -> str | None:
        have = Counter(card.defn.name for card in actual)
        wrong = [name for name in dict.fromkeys([*self.counts, *have]) if have[name] != self.counts.get(name, 0)]
        if not wrong:
            return None
        detail = "; ".join(f"{have[name]} {name} (expected {self.counts.get(name, 0)})" for name in wrong)
        return f"expected {self.counts}, got {dict(have)}: {detail}"


@dataclass
class Operand:
    """What a relation compares with: a value, another path, or an expression of the rules."""

    text: str
    literal: Any = None
    path: StatePath | None = None
    expression: Callable | None = None

    def value(self, reading: Reading) -> Any:
        if self.path is not None:
            return reading.value(self.path)
        if self.expression is not None:
            return self.expression(reading)
        if isinstance(self.literal, str) and self.literal.startswith("$"):
            card = reading.labels.get(self.literal[1:])
            if card is None:
                raise ReadProblem(f"no card is labelled {self.literal} yet")
            return card
        return self.literal


@dataclass
class Relation(Expected):
    """{same_as: X}, {at_least: X}, {at_most: X}, or several at once."""

    operands: dict[str, Operand]

    def problem(self, actual: Any, reading: Reading) -> str | None:
        for relation, operand in self.operands.items():
            other = operand.value(reading)
            value = told(other, reading)
            said = f"{operand.text} = {value!r}" if operand.path or operand.expression else repr(value)
            if relation == "same_as":
                if not same_values(actual, other):
                    return f"expected the same as {said}, got {told(actual, reading)!r}"
                continue
            if not _number(actual):
                return f"{relation} compares numbers; the value is {shown(actual)!r}"
            if not _number(other):
                return f"{relation} compares numbers; {operand.text} is {shown(other)!r}"
            if (relation == "at_least" and actual < other) or (relation == "at_most" and actual > other):
                return f"expected {relation.replace('_', ' ')} {said}, got {actual}"
        return None


@dataclass
class Events(Expected):
    """Events that must occur in this order (others may come between)."""

    items: list

    def problem(self, actual: Any, reading: Reading) -> str | None:
        i = 0
        for n, want in enumerate(self.items):
            start = i
            while i < len(actual):
                i += 1
                if event_matches(actual[i - 1], want, reading):
                    break
            else:
                where = f" after event {start} ({event_text(actual[start - 1], reading)})" if n else ""
                return f"expected event {want!r} (in order) not found{where}; {events_text(actual, want, reading)}"
        return None


SHOWN_EVENTS = 40  # events listed with their arguments in a failure; past that, those of the name wanted


def event_text(event: tuple, reading: Reading) -> str:
    """An event as a failure shows it: `damaged(target='Soldier $s', amount=2)`."""
    name, args = event
    return f"{name}({', '.join(f'{k}={told(v, reading)!r}' for k, v in args.items())})"


def events_text(actual: list, want: Any, reading: Reading) -> str:
    """The events emitted, with their arguments (numbered from 1), so that a wrong argument
    shows; a long list is cut to the events of the name wanted."""
    numbered = [f"{i}. {event_text(e, reading)}" for i, e in enumerate(actual, start=1)]
    if not numbered:
        return "no event was emitted"
    if len(numbered) <= SHOWN_EVENTS:
        return "events were: " + ", ".join(numbered)
    name = want if isinstance(want, str) else want.get("event")
    same = [text for text, e in zip(numbered, actual) if e[0] == name][:SHOWN_EVENTS]
    return (f"{len(actual)} events were emitted; those named {name!r}: " + (", ".join(same) or "none")
            + f" (others: {', '.join(sorted({e[0] for e in actual if e[0] != name}))})")


@dataclass
class NoEvents(Expected):
    """Events that must not occur: each given key must match for an event to count."""

    items: list

    def problem(self, actual: Any, reading: Reading) -> str | None:
        for want in self.items:
            for event in actual:
                if event_matches(event, want, reading):
                    return f"event {want!r} happened: {event_text(event, reading)}"
        return None


def event_matches(event: tuple, want: Any, reading: Reading) -> bool:
    name, args = event
    if isinstance(want, str):
        return name == want
    return name == want.get("event") and all(matches(args.get(k), v, reading) for k, v in want.items()
                                             if k != "event")


@dataclass
class Observed(Expected):
    value: Any

    def problem(self, actual: Any, reading: Reading) -> str | None:
        return None if _observed_matches(actual, self.value) else f"expected {self.value!r}, got {actual!r}"


def _observed_matches(actual: Any, expected: Any) -> bool:
    """An observation value against its expectation: mappings match on the keys given, lists
    item by item, a card view also by its name alone."""
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(k in actual and _observed_matches(actual[k], v)
                                                for k, v in expected.items())
    if isinstance(expected, list):
        return isinstance(actual, list) and len(actual) == len(expected) and all(
            _observed_matches(a, e) for a, e in zip(actual, expected))
    if isinstance(expected, str) and isinstance(actual, dict) and "name" in actual:
        return actual["name"] == expected
    return actual == expected


@dataclass
class Winner(Expected):
    """A seat, or a draw (`null` or `draw`)."""

    seat: int | None

    def problem(self, actual: Any, reading: Reading) -> str | None:
        wanted = "a draw" if self.seat is None else f"P{self.seat} to win"
        if actual == NOT_OVER:
            return f"expected {wanted}, but the game is not over"
        if actual == self.seat:
            return None
        return f"expected {wanted}, got " + ("a draw" if actual is None else f"P{actual} winning")


# ---------------------------------------------------------------------- reading expectations
ExpressionMaker = Callable[[str, tuple], Callable[[Reading], Any]]


def parse_expected(path: StatePath, raw: Any, rules, labels: set[str], expression: ExpressionMaker) -> Expected:
    """What a check on `path` expects; a PathError (with `at`: where inside the value) for
    something it cannot be. `expression(text, at)` compiles an expression operand."""
    kind = path.kind
    if kind != "observation":
        for label in labels_in(raw):
            if label not in labels:
                raise PathError(f"no card is labelled ${label}{label_hint(label, labels)} (label one with `as:` in "
                                "given, `created:` or `label:` in a step)")
    if kind in ("events", "not_events"):
        if not isinstance(raw, list):
            raise PathError(f"{path.head} takes a list of event names or {{event: NAME, ARG: value}}")
        for i, item in enumerate(raw):
            if isinstance(item, dict) and "event" not in item:
                raise PathError("an event object names its event: {event: NAME, ...}", (i,))
        _no_relation_inside(raw, path)
        return Events(raw) if kind == "events" else NoEvents(raw)
    if not (isinstance(raw, dict) and raw and set(raw) <= set(RELATIONS)):
        _no_relation_inside(raw, path)
    if kind == "observation":
        return Observed(raw)
    if kind == "winner":
        if raw is None or raw == "draw":
            return Winner(None)
        seat = int(raw) if isinstance(raw, int) or (isinstance(raw, str) and raw.isdigit()) else 0
        if type(raw) is bool or not 1 <= seat <= rules.player_count:
            raise PathError(f"winner is a player (1..{rules.player_count}), or null or draw for a draw")
        return Winner(seat)
    if isinstance(raw, dict) and raw and set(raw) <= set(RELATIONS):
        if kind == "cards" and set(raw) - {"same_as"}:
            raise PathError(f"at_least and at_most compare numbers: write {path.text}.count")
        return Relation({name: _operand(raw[name], name, rules, labels, expression) for name in raw})
    if isinstance(raw, dict) and set(raw) == {"unordered"}:
        if not isinstance(raw["unordered"], list):
            raise PathError("unordered takes a list (of card names, card objects or $labels)", ("unordered",))
        return Unordered(raw["unordered"])
    if kind == "cards":
        if isinstance(raw, list):
            return InOrder(raw)
        if isinstance(raw, dict):
            for name, count in raw.items():
                if type(count) is not int or count < 0:
                    raise PathError(f"a count of cards is a whole number ≥ 0, not {count!r}", (name,))
                if name not in rules.card_defs:
                    raise PathError(rules.unknown_card(str(name)), (name,), key=True)
            return Counted(dict(raw))
        raise PathError(f"{path.text} is a zone: expect a list of cards (in order), {{unordered: [...]}}, "
                        "counts {NAME: N} or a relation (same_as)")
    return Plain(raw)


def _relation_like(value: Any) -> bool:
    """A mapping that only a relation (or its operand) can mean: {expr: ...}, {at_least: ...}."""
    return isinstance(value, dict) and bool(value) and set(value) <= {*RELATIONS, "expr"}


def _no_relation_inside(raw: Any, path: StatePath) -> None:
    """Refuse `{expr: ...}` (or a relation) where a plain value belongs: it would be compared as
    text ("expected {'expr': ...}, got 3"), never evaluated. PathError at it, with the fix."""
    def walk(value: Any, at: tuple) -> None:
        if _relation_like(value):
            if not at:
                written = "{expr: ...}" if "expr" in value else "a relation"
                raise PathError(f"{written} is not a value to compare with: an expression is an operand of a "
                                f"relation, write {path.text}: {{same_as: {{expr: ...}}}} (or at_least, at_most)")
            raise PathError(f"{'{expr: ...}' if 'expr' in value else 'a relation'} cannot stand inside an expected "
                            f"value (it would be compared as text): check it on a path of its own, "
                            f"PATH: {{same_as: {{expr: ...}}}} (at_least, at_most)", at)
        if isinstance(value, dict):
            for key, item in value.items():
                walk(item, (*at, key))
        elif isinstance(value, list):
            for i, item in enumerate(value):
                walk(item, (*at, i))

    walk(raw, ())


def _operand(raw: Any, relation: str, rules, labels: set[str], expression: ExpressionMaker) -> Operand:
    if isinstance(raw, dict):
        if set(raw) != {"expr"} or not isinstance(raw["expr"], str):
            raise PathError(f"{relation} takes a value, a path, or {{expr: EXPRESSION}}", (relation,))
        return Operand(raw["expr"], expression=expression(raw["expr"], (relation, "expr")))
    if isinstance(raw, str) and not raw.startswith("$"):
        try:
            return Operand(raw, path=parse_path(raw, rules, labels))
        except PathError as err:
            raise PathError(err.message, (relation,)) from None
    return Operand(repr(raw), literal=raw)


def compile_expression(rules, text: str, file: str, line: int, column: int, labels: set[str]) -> Callable:
    """An expression in the card-effect language, checked against the rules, as a function of a
    Reading: P1, P2, ... are the players and each label its card. Raises CardrulesError."""
    from ..errors import ErrorList
    from ..lang.checker import Checker
    from ..lang.parser import parse_expression
    from ..rules.checker import checked_context

    node = parse_expression(text, file, line, column)
    players = [f"P{seat}" for seat in range(1, rules.player_count + 1)]
    checker = Checker(checked_context(rules.ruleset))
    checker.condition(node, {*players, *labels})
    if checker.errors:
        raise ErrorList(checker.errors) if len(checker.errors) > 1 else checker.errors[0]
    code = rules.compiler.expression(node)

    def evaluate(reading: Reading) -> Any:
        names: dict[str, Any] = dict(zip(players, reading.game.players))
        names.update(reading.labels)
        try:
            return code(reading.game, Frame(None, names))
        except CardrulesError as err:
            raise ReadProblem(f"the expression {text!r} failed: {err.message}") from None
        except RULE_ERRORS as err:  # (a Python error in rule code, as the engine reports them)
            raise ReadProblem(f"the expression {text!r} failed: {rule_error_words(err)}") from None

    return evaluate
