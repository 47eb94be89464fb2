"""State paths of scenario checks: `players.1.hand.count`, `cards.$m.damage`, `game.first`, ...

`parse_path` reads a path against the ruleset when the scenario is read: a part the ruleset does
not have is a `PathError` (saying what is known, with did-you-mean) that the caller places at the
path in the file. `StatePath.read` gives the path's value in a game and its kind, which says how
an expectation compares with it; what cannot be read in that game (a card gone, an attribute its
type lacks) is a `ReadProblem`, a failed check.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import CardrulesError, did_you_mean
from ..lang.values import CardRef, ZoneKey

EVENTS = ("events", "not_events", "events_so_far", "not_events_so_far")  # the last two: since the start
RESULT_LISTS = ("winners", "losers", "scores")  # a result's seats that won, that lost; its scores by seat
WHOLE = ("winner", "draw", "reason", "over", "turn", "phase", *RESULT_LISTS, *EVENTS)
HEADS = ("players", "zones", "cards", "game", "teams", "decision", "observation", *WHOLE)
DECISION_FIELDS = ("player", "options", "prompt")
PICKS = ("count", "first", "last")  # after a zone: its size, or one card (also a position: 1, 2, ...)
NOT_OVER = "not over"
USAGE = ("players.N.ATTR, players.N.ZONE[.ROW][.count|.N|.first|.last[.ATTR]], zones.Z[...], game.X, "
         "cards.$x[.ATTR|.zone], teams.NAME.ATTR, winner, winners, losers, scores, draw, reason, over, turn, "
         "phase, events, not_events, events_so_far, "
         "not_events_so_far, decision[.player|.options[.count]|.prompt], observation.N...")


class PathError(Exception):
    """A path (or an expected value) that names something the ruleset or the scenario does not
    have; `at` is where in the checked entry's value, when not at the path itself."""

    def __init__(self, message: str, at: tuple = (), key: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.at = at
        self.key = key  # at the key of `at`, not its value


class ReadProblem(Exception):
    """A path that cannot be read in this game: a failed check, with this message."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class StatePath:
    """A parsed path. `kind` says what it reads: 'cards' (a zone's cards in order), 'card' (one
    card or None), 'events', 'not_events', 'observation', 'winner' or 'value'."""

    text: str
    head: str
    seat: int = 0  # players.N, observation.N
    name: str = ""  # the attribute, zone, global, label or decision field
    row: str = ""
    pick: str = ""  # after a zone: "count", "first", "last" or a position
    attr: str = ""  # of the card picked, or of the labelled card
    rest: tuple[str, ...] = ()  # an observation's keys
    zone: bool = False  # name is a zone (of player `seat`, or shared)

    @property
    def kind(self) -> str:
        if self.head in ("events", "not_events", "observation", "winner"):
            return self.head
        if self.head in EVENTS:  # (events_so_far, not_events_so_far)
            return self.head[:-len("_so_far")]
        if self.zone:
            if not self.pick:
                return "cards"
            return "card" if self.pick != "count" and not self.attr else "value"
        return "value"

    # ------------------------------------------------------------------ reading
    def read(self, game, labels: dict[str, CardRef], events_from: int) -> Any:
        """The value at this path in `game` (cards and players as handles, not names)."""
        head = self.head
        result = game.result
        if head == "winner":
            return NOT_OVER if result is None else result.winner
        if head == "draw":
            return NOT_OVER if result is None else result.draw
        if head in RESULT_LISTS:
            if result is None:
                return NOT_OVER
            found = getattr(result, head)
            return list(found) if found is not None else None
        if head == "teams":
            team = next(t for t in game.rules.team_refs if t.name == self.name)
            return game.team_attrs[team.index - 1][self.attr]
        if head == "reason":
            return NOT_OVER if result is None else result.reason
        if head == "over":
            return game.is_over
        if head in ("turn", "phase"):
            return game.globals[head]
        if head in EVENTS:  # (a step's own events; `_so_far`: every event since the game began)
            start = 0 if head.endswith("_so_far") else events_from
            return [(entry[1], entry[2]) for entry in game.log_entries[start:] if entry[0] == "event"]
        if head == "decision":
            return self._decision(game)
        if head == "observation":
            return self._observed(game)
        if head == "game":
            return game.globals[self.name]
        if head == "cards":
            return self._labelled(game, labels)
        if head == "players" and not self.zone:
            return _read(game, game.players[self.seat - 1], self.name)
        return self._zone_value(game)

    def _decision(self, game) -> Any:
        pending = game.pending
        if pending is None:
            return None
        if self.name in ("", "player"):
            return pending.seat
        if self.name == "options":
            return len(pending) if self.pick == "count" else [option.label for option in pending]
        return pending.prompt

    def _observed(self, game) -> Any:
        value: Any = game.observation(self.seat)
        rest = list(self.rest)
        while rest:
            part = rest.pop(0)
            if isinstance(value, list) and part.isdigit() and 1 <= int(part) <= len(value):
                value = value[int(part) - 1]
            elif isinstance(value, list) and part == "count" and not rest:
                value = len(value)  # (a zone seen card by card, the options, `seen`: how many)
            elif isinstance(value, dict) and part in value:
                value = value[part]
            elif isinstance(value, dict) and rest and f"{part}.{rest[0]}" in value:
                value = value[f"{part}.{rest.pop(0)}"]  # a zone with rows: "lane.upper"
            else:
                known = list(value) if isinstance(value, dict) else []
                raise ReadProblem(f"the observation has no {part!r} here{did_you_mean(part, known)}")
        return value

    def _labelled(self, game, labels: dict[str, CardRef]) -> Any:
        card = labels.get(self.name)
        if card is None:
            raise ReadProblem(f"no card is labelled ${self.name} yet")
        if not self.attr or self.attr == "zone":
            return game.card_zone.get(card.id, (None,))[0]
        if card.id not in game.card_zone:
            return "gone"
        return _read(game, card, self.attr)

    def _zone_value(self, game) -> Any:
        key = ZoneKey(self.name, self.seat, self.row)
        cards = game.zones[key]
        if not self.pick:
            return list(cards)
        if self.pick == "count":
            return len(cards)
        index = {"first": 0, "last": len(cards) - 1}.get(self.pick)
        index = int(self.pick) - 1 if index is None else index
        card = cards[index] if 0 <= index < len(cards) else None
        if not self.attr:
            return card
        if card is None:
            raise ReadProblem(f"no card at {self.pick} of {self.text.rsplit('.', 2)[0]} "
                              f"(it holds {len(cards)})")
        return _read(game, card, self.attr)


def _read(game, obj, name: str) -> Any:
    try:
        return game.read(obj, name)
    except CardrulesError as err:  # an attribute the card's type lacks: a failed check
        raise ReadProblem(err.message) from None


# ---------------------------------------------------------------------- parsing
def parse_path(text: str, rules, labels: set[str]) -> StatePath:
    """The path `text`, checked against the ruleset and the scenario's labels."""
    parts = text.split(".")
    head = parts[0]
    if head not in HEADS:
        raise PathError(f"unknown path {text!r}: no {head!r}{did_you_mean(head, HEADS)} (paths: {USAGE})")
    if head in WHOLE:
        if len(parts) > 1:
            raise PathError(f"{head!r} has no parts: write just {head}")
        return StatePath(text, head)
    if head == "decision":
        counted = len(parts) == 3 and parts[1] == "options" and parts[2] == "count"
        if (len(parts) > 2 and not counted) or (len(parts) == 2 and parts[1] not in DECISION_FIELDS):
            field = parts[1] if len(parts) > 1 else ""
            raise PathError(f"the decision has no {'.'.join(parts[1:])!r}{did_you_mean(field, DECISION_FIELDS)} "
                            f"(decision.player, decision.options, decision.options.count, decision.prompt)")
        return StatePath(text, head, name=parts[1] if len(parts) >= 2 else "", pick="count" if counted else "")
    if head == "observation":
        return StatePath(text, head, seat=_seat(parts, 1, rules), rest=tuple(parts[2:]))
    if head == "game":
        known = [*rules.ruleset.globals, "turn", "phase", "active"]
        if len(parts) != 2 or parts[1] not in known:
            name = ".".join(parts[1:])
            raise PathError(f"no global {name!r}{did_you_mean(name, known)} (globals: {', '.join(known)})")
        return StatePath(text, head, name=parts[1])
    if head == "teams":
        return _team_path(text, parts, rules)
    if head == "cards":
        if len(parts) < 2 or not parts[1].startswith("$"):
            raise PathError(f"{text!r}: write cards.$LABEL (a card labelled with `as:`, `created:` or `label:`)")
        label = parts[1][1:]
        if label not in labels:
            raise PathError(f"no card is labelled ${label}{label_hint(label, labels)} "
                            "(label one with `as:` in given, `created:` or `label:` in a step)")
        if len(parts) > 3:
            raise PathError(f"{text!r}: a labelled card's path is cards.${label}, cards.${label}.zone or "
                            f"cards.${label}.ATTR")
        return StatePath(text, head, name=label, attr=parts[2] if len(parts) == 3 else "")
    if head == "players":
        seat = _seat(parts, 1, rules)
        if len(parts) < 3:
            raise PathError(f"{text!r}: say what of player {seat}: players.{seat}.ATTR or players.{seat}.ZONE")
        name = parts[2]
        spec = rules.zones.get(name)
        if spec is not None and spec.per_player:
            return _zone_path(text, head, seat, name, spec, parts[3:])
        if name in rules.ruleset.player_attributes or name == "seat":
            if len(parts) > 3:
                raise PathError(f"{text!r}: {name!r} is a player attribute: write players.{seat}.{name}")
            return StatePath(text, head, seat=seat, name=name)
        known = [*(z for z, s in rules.zones.items() if s.per_player), *rules.ruleset.player_attributes]
        raise PathError(f"players have no zone or attribute {name!r}{did_you_mean(name, known)}")
    # zones
    if len(parts) < 2:
        raise PathError(f"{text!r}: say which shared zone: zones.NAME")
    name = parts[1]
    spec = rules.zones.get(name)
    if spec is None or spec.per_player:
        shared = [z for z, s in rules.zones.items() if not s.per_player]
        hint = f" (zone {name!r} belongs to each player: players.N.{name})" if spec is not None else ""
        raise PathError(f"no shared zone {name!r}{did_you_mean(name, shared)}{hint}")
    return _zone_path(text, head, 0, name, spec, parts[2:])


def _seat(parts: list[str], index: int, rules) -> int:
    raw = parts[index] if len(parts) > index else ""
    digits = raw[1:] if raw[:1] in ("P", "p") else raw
    count = rules.player_count
    if not digits.isdigit() or not 1 <= int(digits) <= count:
        raise PathError(f"{'.'.join(parts[:index + 1])!r}: no player {raw!r} (players 1..{count})")
    return int(digits)


def _zone_path(text: str, head: str, seat: int, name: str, spec, rest: list[str]) -> StatePath:
    row = ""
    if spec.rows:
        if not rest or rest[0] not in spec.rows:
            given = rest[0] if rest else ""
            raise PathError(f"zone {name!r} has rows {', '.join(spec.rows)}: say which"
                            f"{did_you_mean(given, spec.rows) if given else ''} ({text.rsplit('.', len(rest))[0]}"
                            f".{spec.rows[0]}...)")
        row, rest = rest[0], rest[1:]
    pick = attr = ""
    if rest:
        pick = rest[0]
        if pick not in PICKS and not (pick.isdigit() and int(pick) >= 1):
            raise PathError(f"{text!r}: after zone {name!r} comes count, first, last or a position (1, 2, ...), "
                            f"not {pick!r}{did_you_mean(pick, PICKS)}")
        if len(rest) > 2 or (pick == "count" and len(rest) > 1):
            raise PathError(f"{text!r}: too many parts (a card's attribute comes last: ...{name}.1.ATTR)")
        attr = rest[1] if len(rest) == 2 else ""
    return StatePath(text, head, seat=seat, name=name, row=row, pick=pick, attr=attr, zone=True)


def label_hint(label: str, labels: set[str]) -> str:
    """' (did you mean $x?)' for a label close to one given, or ''."""
    hint = did_you_mean(label, labels)
    return hint.replace("'", "$", 1).replace("'", "", 1) if hint else ""


def labels_in(value: Any) -> list[str]:
    """The labels ($NAME) that an expected value refers to."""
    if isinstance(value, str):
        return [value[1:]] if value.startswith("$") and len(value) > 1 else []
    if isinstance(value, list):
        return [label for v in value for label in labels_in(v)]
    if isinstance(value, dict):
        return [label for v in value.values() for label in labels_in(v)]
    return []


def _team_path(text: str, parts: list[str], rules) -> StatePath:
    """`teams.NAME.ATTR`: a team's attribute (the ruleset's `teams:`)."""
    teams = rules.ruleset.teams
    if teams is None:
        raise PathError(f"{text!r}: the ruleset declares no teams")
    names = list(teams.names)
    if len(parts) != 3 or parts[1] not in names or parts[2] not in teams.attributes:
        name = parts[1] if len(parts) > 1 else ""
        if name not in names:
            raise PathError(f"no team {name!r}{did_you_mean(name, names)} (teams: {', '.join(names)}); "
                            "write teams.NAME.ATTR")
        attr = ".".join(parts[2:])
        raise PathError(f"teams have no attribute {attr!r}{did_you_mean(attr, teams.attributes)} "
                        f"(team attributes: {', '.join(teams.attributes) or 'none'})")
    return StatePath(text, "teams", name=parts[1], attr=parts[2])
