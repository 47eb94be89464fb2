"""Scenario files: rule tests for designers (DESIGN.md "Scenario files").

A scenario loads a ruleset (with options and inline cards), puts a game into a stated position
(`given`), takes decisions (`when`) and checks the resulting state (`then`). `run_scenario`
returns a `ScenarioResult` listing every mismatch; it never raises for a failing check, only for
a scenario file that is itself malformed (a `CardrulesError` naming the file and line).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import paths
from .engine.build import Rules
from .engine.game import Game
from .engine.serialize import readable
from .errors import CardrulesError, ErrorList, IllegalDecisionError, RulesError, Span, did_you_mean
from .lang.runtime import Frame
from .lang.values import CardRef, PlayerRef, ZoneKey
from .rules.decks import Deck
from .rules.loader import load_ruleset
from .rules.schema import validate
from .rules.yamlload import load_yaml


@dataclass
class ScenarioResult:
    file: str
    cites: list[str]
    failures: list[str] = field(default_factory=list)
    decisions: int = 0

    @property
    def passed(self) -> bool:
        return not self.failures


_RULES_CACHE: dict[str, Rules] = {}


def _rules_for(data: dict, file: str, marks) -> Rules:
    options = data.get("options") or {}
    cards = data.get("cards")
    ruleset_name = data["ruleset"]
    base = Path(file).parent / ruleset_name
    target = str(base) if base.suffix in (".yaml", ".yml") and base.is_file() else ruleset_name
    try:
        paths.ruleset_path(target)
    except RulesError as err:
        raise RulesError(err.message, marks.span(("ruleset",)), hint=err.hint) from None
    if cards:
        line, column, _style = marks.value_origin(("cards",))
        return Rules(_load_placed(target, options, marks, [(cards, file, line, column)]))
    key = json.dumps([target, options], sort_keys=True)
    if key not in _RULES_CACHE:
        _RULES_CACHE[key] = Rules(_load_placed(target, options, marks))
    return _RULES_CACHE[key]


def _load_placed(target: str, options: dict, marks, extra_cards: list = ()):
    """load_ruleset, with its errors that have no place -- the scenario's options: one the
    ruleset does not have, or a value it does not take -- placed at the option in the scenario
    (or at its `options:`)."""
    try:
        return load_ruleset(target, options, extra_cards)
    except CardrulesError as err:
        for error in err.errors if isinstance(err, ErrorList) else [err]:
            if error.span is None:
                named = [n for n in options if f"option {n} " in error.message or f"option {n!r}" in error.message]
                error.span = marks.span(("options", *named[:1]))
        raise


# what a value given for an attribute of each declared type must be: (said as, test)
_ACCEPTED = {
    "int": ("a whole number", lambda v: type(v) is int),
    "bool": ("true or false", lambda v: type(v) is bool),
    "text": ("text", lambda v: type(v) is str),
    "list": ("a list", lambda v: type(v) is list),
    "player": ("a player (P1, P2, ...)", lambda v: v is None or type(v) is PlayerRef),
    "card": ("a card ($label of a card given here)", lambda v: v is None or type(v) is CardRef),
    "host": ("a card ($label) or a player (P1, ...)", lambda v: v is None or type(v) in (CardRef, PlayerRef)),
}


class _Setter:
    """Builds the `given` position in an empty game."""

    def __init__(self, game: Game, file: str, marks) -> None:
        self.game = game
        self.file = file
        self.marks = marks
        self.labels: dict[str, CardRef] = {}
        self.pending_refs: list[tuple] = []

    def span(self, *path) -> Span:
        return self.marks.span(path)

    def player(self, value: Any, *path) -> PlayerRef:
        seat = value
        if isinstance(value, str) and value.upper().startswith("P") and value[1:].isdigit():
            seat = int(value[1:])
        if isinstance(seat, str) and seat.isdigit():
            seat = int(seat)
        if not isinstance(seat, int) or not 1 <= seat <= len(self.game.players):
            raise RulesError(f"{value!r} is not a player (use 1..{len(self.game.players)} or P1..)", self.span(*path))
        return self.game.players[seat - 1]

    def value(self, raw: Any, *path) -> Any:
        """A value in `given`: '$label' is a card given elsewhere, 'P1' a player, lists recursively."""
        if isinstance(raw, list):
            return [self.value(v, *path, i) for i, v in enumerate(raw)]
        if isinstance(raw, str) and raw.startswith("$"):
            card = self.labels.get(raw[1:])
            if card is None:
                raise RulesError(f"no card labelled {raw!r} (give one with 'as: {raw[1:]}')"
                                 f"{did_you_mean(raw[1:], self.labels)}", self.span(*path))
            return card
        if isinstance(raw, str) and len(raw) >= 2 and raw[0] == "P" and raw[1:].isdigit():
            return self.player(raw, *path)
        return raw

    def zone(self, key: ZoneKey, entries: list, *path) -> None:
        rules = self.game.rules
        zone_cards = self.game.zones[key]
        for card in list(zone_cards):
            self.game.delete(card)
        for i, entry in enumerate(entries):
            spec = entry if isinstance(entry, dict) else {"card": entry}
            name = spec.get("card")
            defn = rules.card_defs.get(name)
            if defn is None:
                raise RulesError(rules.unknown_card(str(name)), self.span(*path, i))
            owner = self.game.players[key.seat - 1] if key.seat else self.game.players[0]
            if "owner" in spec:
                owner = self.player(spec["owner"], *path, i, "owner")
            card = self.game.new_card(defn, key, owner)
            for attr, raw in spec.items():
                if attr in ("card", "owner"):
                    continue
                if attr == "as":
                    self.labels[str(raw)] = card
                    continue
                if attr == "revealed":  # shown to every player wherever it is (reveal(card))
                    if raw:
                        self.game.revealed.add(card.id)
                    continue
                self.pending_refs.append((card, attr, raw, (*path, i, attr)))

    def spec_of(self, obj: Any, attr: str) -> tuple[str, int | None, int | None] | None:
        """(type, min, max) declared for the attribute of a card, player or the game; None for
        one the ruleset does not declare (writing it reports that)."""
        rules = self.game.rules
        if type(obj) is CardRef:
            if attr in ("controller", "owner"):
                return ("player", None, None)
            if attr == "attached_to":
                return ("host", None, None)
            if attr == "part":
                return ("text", None, None)
            spec = rules.ruleset.card_types[obj.defn.type].attributes.get(attr)
        elif type(obj) is PlayerRef:
            spec = rules.ruleset.player_attributes.get(attr)
        else:
            if attr == "active":
                return ("player", None, None)
            spec = rules.ruleset.globals.get(attr)
        return None if spec is None else (spec.type, spec.min, spec.max)

    def check_value(self, obj: Any, attr: str, value: Any, path: tuple) -> None:
        """A value of the wrong type, or outside the declared limits, is an error at its line."""
        spec = self.spec_of(obj, attr)
        if spec is None:
            return
        kind, lo, hi = spec
        accepted = _ACCEPTED.get(kind)
        if accepted is not None and not accepted[1](value):
            raise RulesError(f"{attr!r} takes {accepted[0]}, not {_norm(value)!r}", self.span(*path))
        if kind == "int" and ((lo is not None and value < lo) or (hi is not None and value > hi)):
            bounds = " and ".join(x for x in (f"at least {lo}" if lo is not None else "",
                                              f"at most {hi}" if hi is not None else "") if x)
            raise RulesError(f"{attr!r} is {bounds}, not {value}", self.span(*path))

    def apply_refs(self) -> None:
        for obj, attr, raw, path in self.pending_refs:
            value = self.value(raw, *path)
            self.check_value(obj, attr, value, path)
            try:
                if attr == "attached_to":
                    self.game.attach(obj, value)
                else:
                    self.game.write(obj, attr, value)
            except CardrulesError as err:
                raise RulesError(f"cannot set {attr!r}: {err.message}", self.span(*path)) from None


def _build_given(game: Game, given: dict, file: str, marks) -> None:
    rules = game.rules
    setter = _Setter(game, file, marks)
    if "active" in (given.get("turn") or {}):  # a seat of the game (`_start` sets it)
        setter.player(given["turn"]["active"], "given", "turn", "active")
    # zones first (cards get labels), then attributes that may refer to them
    for seat_raw, pdata in (given.get("players") or {}).items():
        player = setter.player(seat_raw, "given", "players", seat_raw)
        for key, raw in (pdata or {}).items():
            path = ("given", "players", seat_raw, key)
            if key in rules.zones:
                spec = rules.zones[key]
                if not spec.per_player:
                    raise RulesError(f"zone {key!r} is shared: give it under given.zones", setter.span(*path))
                if spec.rows:
                    if not isinstance(raw, dict):
                        raise RulesError(f"zone {key!r} has rows {list(spec.rows)}: give a mapping row -> cards",
                                         setter.span(*path))
                    for row, cards in raw.items():
                        if row not in spec.rows:
                            raise RulesError(f"zone {key!r} has no row {row!r}{did_you_mean(str(row), spec.rows)}",
                                             setter.span(*path, row))
                        setter.zone(ZoneKey(key, player.seat, row), cards or [], *path, row)
                else:
                    setter.zone(ZoneKey(key, player.seat, ""), raw or [], *path)
            elif key in rules.ruleset.player_attributes:
                setter.pending_refs.append((player, key, raw, path))
            else:
                known = [*rules.zones, *rules.ruleset.player_attributes]
                raise RulesError(f"{key!r} is neither a zone nor a player attribute{did_you_mean(key, known)}",
                                 setter.span(*path))
    for name, raw in (given.get("zones") or {}).items():
        path = ("given", "zones", name)
        spec = rules.zones.get(name)
        if spec is None or spec.per_player:
            raise RulesError(f"no shared zone {name!r}{did_you_mean(name, rules.zones)}", setter.span(*path))
        if spec.rows:
            for row, cards in raw.items():
                setter.zone(ZoneKey(name, 0, row), cards or [], *path, row)
        else:
            setter.zone(ZoneKey(name, 0, ""), raw or [], *path)
    for name, raw in (given.get("globals") or {}).items():
        known = {*rules.ruleset.globals, "active"}
        if name not in known:
            raise RulesError(f"no global {name!r}{did_you_mean(name, known)}", setter.span("given", "globals", name))
        setter.pending_refs.append((game.GAME, name, raw, ("given", "globals", name)))
    setter.apply_refs()
    game.version += 1
    game.layout += 1
    return setter


def _start(game: Game, given: dict, marks) -> None:
    rules = game.rules
    turn = given.get("turn") or {}
    phase = turn.get("phase")
    if phase is None:
        pc = rules.phase_pcs[""]  # the start of a turn
        game.globals["turn"] = int(turn.get("number", 1)) - 1
    else:
        if phase not in rules.phase_pcs or not phase:
            raise RulesError(f"{rules.name} has no phase {phase!r}{did_you_mean(phase, [p for p in rules.phase_pcs if p])}",
                             marks.span(("given", "turn", "phase")))
        pc = rules.phase_pcs[phase]
        game.globals["turn"] = int(turn.get("number", 1))
    if "active" in turn:
        seat = int(str(turn["active"]).lstrip("P"))
        game.globals["active"] = game.players[seat - 1]
    frame = Frame(rules.main, {})
    frame.pc = pc
    game.start(frame)


def _norm(value: Any) -> Any:
    """A state value in the form scenarios write: cards by name, players as 'P1'."""
    if isinstance(value, CardRef):
        return value.defn.name
    if isinstance(value, PlayerRef):
        return f"P{value.seat}"
    if isinstance(value, (list, tuple)):
        return [_norm(v) for v in value]
    return value


def _card_matches(game: Game, card: CardRef, expected: Any) -> bool:
    if isinstance(expected, str):
        return card.defn.name == expected
    if isinstance(expected, dict):
        for k, v in expected.items():
            if k in ("name", "card"):
                if card.defn.name != v:
                    return False
            elif _norm(game.read(card, k)) != _expect_norm(v):
                return False
        return True
    return False


def _expect_norm(v: Any) -> Any:
    if isinstance(v, int) and not isinstance(v, bool):
        return v
    return v


class _Checker:
    def __init__(self, game: Game, labels: dict[str, CardRef], events_from: int) -> None:
        self.game = game
        self.labels = labels
        self.events_from = events_from

    def actual(self, path: str) -> tuple[Any, Any]:
        """(value, how to compare) for a dotted path. Raises KeyError with a message if unknown."""
        g = self.game
        rules = g.rules
        parts = path.split(".")
        head = parts[0]
        if head == "winner":
            if g.result is None:
                return "not over", None
            return g.result.winner, "winner"
        if head == "draw":
            return (g.result.draw if g.result else "not over"), None
        if head == "reason":
            return (g.result.reason if g.result else "not over"), None
        if head == "over":
            return g.is_over, None
        if head == "turn":
            return g.globals["turn"], None
        if head == "phase":
            return g.globals["phase"], None
        if head == "events":
            return self.events(), "events"
        if head == "decision":
            if g.pending is None:
                return None, None
            if len(parts) == 1 or parts[1] == "player":
                return g.pending.seat, None
            if parts[1] == "options":
                return [o.label for o in g.pending], None
            if parts[1] == "prompt":
                return g.pending.prompt, None
        if head == "observation" and len(parts) >= 2:  # what one player sees, as game.observation(seat)
            value: Any = g.observation(int(parts[1].lstrip("P")))
            rest = parts[2:]
            while rest:
                part = rest.pop(0)
                if isinstance(value, list) and part.isdigit():
                    value = value[int(part) - 1]
                elif isinstance(value, dict) and part in value:
                    value = value[part]
                elif isinstance(value, dict) and rest and f"{part}.{rest[0]}" in value:
                    value = value[f"{part}.{rest.pop(0)}"]  # a zone with rows: "lane.upper"
                else:
                    raise KeyError(f"the observation has no {part!r} at {path!r}")
            return value, "observation"
        if head == "game" and len(parts) == 2:
            return _norm(g.globals[parts[1]]), None
        if head == "cards" and len(parts) >= 2:
            card = self.labels.get(parts[1].lstrip("$"))
            if card is None:
                raise KeyError(f"no card labelled {parts[1]!r}")
            if len(parts) == 2 or parts[2] == "zone":
                return g.card_zone.get(card.id, (None,))[0], None
            if card.id not in g.attrs:
                return "gone", None
            return _norm(g.read(card, parts[2])), None
        if head == "players" and len(parts) >= 3:
            player = g.players[int(parts[1].lstrip("P")) - 1]
            name = parts[2]
            if name in rules.zones:
                return self.zone(ZoneKey(name, player.seat, parts[3] if len(parts) > 3 and parts[3] != "count"
                                         else ""), parts)
            return _norm(g.read(player, name)), None
        if head == "zones" and len(parts) >= 2:
            return self.zone(ZoneKey(parts[1], 0, parts[2] if len(parts) > 2 and parts[2] != "count" else ""),
                             parts)
        raise KeyError(f"unknown path {path!r} (use players.N.ATTR, players.N.ZONE, zones.Z, game.X, cards.$x.ATTR, "
                       "winner, draw, reason, over, turn, phase, events, decision.options, observation.N...)")

    def zone(self, key: ZoneKey, parts: list[str]) -> tuple[Any, Any]:
        cards = self.game.zones.get(key)
        if cards is None:
            raise KeyError(f"no zone {key!r}")
        if parts[-1] == "count":
            return len(cards), None
        return list(cards), "cards"

    def events(self) -> list:
        out = []
        for entry in self.game.log_entries[self.events_from:]:
            if entry[0] == "event":
                out.append((entry[1], entry[2]))
        return out

    def compare(self, path: str, expected: Any) -> str | None:
        """A failed check's text, or None; an attribute the card or player lacks (in the path or
        in an expected card's fields) is a failed check too."""
        try:
            return self._compare(path, expected)
        except CardrulesError as err:
            return f"{path}: {err.message}"

    def _compare(self, path: str, expected: Any) -> str | None:
        try:
            actual, how = self.actual(path)
        except (KeyError, IndexError, ValueError) as err:
            return f"{path}: {err}"
        if how == "cards":
            if not isinstance(expected, list):
                return f"{path}: expected must be a list of card names or card objects"
            names = [c.defn.name for c in actual]
            if len(actual) != len(expected) or not all(_card_matches(self.game, c, e) for c, e in zip(actual, expected)):
                detail = [self._describe(c, e) for c, e in zip(actual, expected)]
                return f"{path}: expected {expected}, got {names}" + (f" ({'; '.join(d for d in detail if d)})"
                                                                     if any(detail) else "")
            return None
        if how == "events":
            return self._compare_events(path, actual, expected)
        if how == "observation":
            return None if _observed_matches(actual, expected) else f"{path}: expected {expected!r}, got {actual!r}"
        if how == "winner" and expected == "draw":
            return None if actual is None else f"{path}: expected a draw, got P{actual} winning"
        if _norm(actual) != expected:
            return f"{path}: expected {expected!r}, got {_norm(actual)!r}"
        return None

    def _describe(self, card: CardRef, expected: Any) -> str:
        if isinstance(expected, dict):
            diffs = []
            for k, v in expected.items():
                if k in ("name", "card"):
                    continue
                got = _norm(self.game.read(card, k))
                if got != v:
                    diffs.append(f"{card.defn.name}.{k} is {got!r}, not {v!r}")
            return ", ".join(diffs)
        return ""

    def _compare_events(self, path: str, actual: list, expected: Any) -> str | None:
        """Expected events must occur in this order (other events may come between)."""
        i = 0
        for want in expected:
            name = want if isinstance(want, str) else want.get("event")
            args = {} if isinstance(want, str) else {k: v for k, v in want.items() if k != "event"}
            while i < len(actual):
                ev_name, ev_args = actual[i]
                i += 1
                if ev_name == name and all(_event_arg(ev_args.get(k)) == v for k, v in args.items()):
                    break
            else:
                shown = [a[0] for a in actual]
                return f"{path}: expected event {want!r} (in order) not found; events were {shown}"
        return None


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


def _event_arg(value: Any) -> Any:
    return _norm(value)


def check_scenario(path: str | Path) -> Rules:
    """Check a scenario file without playing it: schema, ruleset with options and inline cards,
    and the `given` position. Returns the rules it uses; raises CardrulesError when malformed."""
    file = str(path)
    data, marks = load_yaml(Path(path))
    validate(data, marks, "scenario", file)
    rules = _rules_for(data, file, marks)
    if data.get("given") is not None:
        game = rules.empty_game(seed=0, decks=[Deck("given", file, ()) for _ in range(rules.player_count)])
        _build_given(game, data["given"], file, marks)
    return rules


def run_scenario(path: str | Path) -> ScenarioResult:
    """Run one scenario file. Malformed files raise CardrulesError; failed checks are returned."""
    file = str(path)
    data, marks = load_yaml(Path(path))
    validate(data, marks, "scenario", file)
    result = ScenarioResult(file, list(data.get("cites") or []))
    rules = _rules_for(data, file, marks)
    seed = int(data.get("seed", 0))
    given = data.get("given")
    labels: dict[str, CardRef] = {}
    if given is None:
        game = rules.new_game(seed=seed, decks=_decks(data, file))
    else:
        game = rules.empty_game(seed=seed, decks=[Deck('given', file, ()) for _ in range(rules.player_count)])
        setter = _build_given(game, given, file, marks)
        labels = setter.labels
        _start(game, given, marks)
    events_from = 0
    for i, step in enumerate(data.get("when") or []):
        where = marks.span(("when", i))
        if not isinstance(step, dict):
            step = {"choose": step}
        if game.pending is None:
            result.failures.append(f"when[{i}] ({where}): no decision is pending (the game "
                                   f"{'is over: ' + game.result.reason if game.result else 'is not waiting'})")
            break
        if "player" in step and int(str(step["player"]).lstrip("P")) != game.pending.seat:
            result.failures.append(f"when[{i}] ({where}): expected P{step['player']} to decide, but "
                                   f"P{game.pending.seat} decides '{game.pending.prompt}'")
            break
        offered = [o.label for o in game.pending]
        if "options" in step and offered != step["options"]:
            result.failures.append(f"when[{i}] ({where}): options offered {offered}, expected {step['options']}")
        for label in step.get("includes") or []:
            if label not in offered:
                result.failures.append(f"when[{i}] ({where}): {label!r} is not offered; options: {offered}")
        for label in step.get("excludes") or []:
            if label in offered:
                result.failures.append(f"when[{i}] ({where}): {label!r} is offered but must not be")
        if "prompt" in step and step["prompt"] != game.pending.prompt:
            result.failures.append(f"when[{i}] ({where}): prompt is {game.pending.prompt!r}, "
                                   f"expected {step['prompt']!r}")
        if "choose" not in step:
            continue
        choice = step["choose"]
        if isinstance(choice, str) and choice.startswith("$") and choice[1:] in labels:
            choice = f"c{labels[choice[1:]].id}"
        if "error" in step:
            before = json.dumps(game.to_json(), sort_keys=True)
            try:
                game.apply(choice)
            except IllegalDecisionError as err:
                if str(step["error"]) not in err.message:
                    result.failures.append(f"when[{i}] ({where}): refused with {err.message!r}, "
                                           f"expected a message containing {step['error']!r}")
                if json.dumps(game.to_json(), sort_keys=True) != before:
                    result.failures.append(f"when[{i}] ({where}): the refused decision changed the state")
                continue
            result.failures.append(f"when[{i}] ({where}): {choice!r} was accepted; expected it to be refused "
                                   f"({step['error']!r})")
            break
        try:
            game.apply(choice)
            result.decisions += 1
        except IllegalDecisionError as err:
            result.failures.append(f"when[{i}] ({where}): {err.message}")
            break
        except CardrulesError as err:
            result.failures.append(f"when[{i}] ({where}): {err}")
            break
    checker = _Checker(game, labels, events_from)
    for key, expected in (data.get("then") or {}).items():
        problem = checker.compare(str(key), expected)
        if problem:
            result.failures.append(f"then {problem} ({marks.span(('then', key))})")
    return result


def _decks(data: dict, file: str) -> list | None:
    decks = data.get("decks")
    if not decks:
        return None
    base = Path(file).parent
    return [str((base / decks[k]).resolve()) for k in sorted(decks, key=lambda s: int(str(s).lstrip("P")))]


def scenario_files(paths: list[str]) -> list[Path]:
    out: list[Path] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            out.extend(sorted(path.rglob("*.yaml")))
        elif path.is_file():
            out.append(path)
        else:
            raise RulesError(f"no such scenario file or folder: {p}")
    return out


__all__ = ["run_scenario", "check_scenario", "scenario_files", "ScenarioResult", "readable"]
