"""Reading game records: the JSON dicts, one per game, that a report is made from.

A record names its seed, its outcome (`winner`: a seat number or None; with teams and shared
results, `winners`: the seats that won, `scores`: the score per seat or null, `teams`: the
partnerships or null), its agents by seat, one entry per seat (deck, opening hand, cards drawn,
played and picked, counters) and the draft's offers. A record without `winners` (before shared
results) is read from `winner` alone. A short record has no per-seat entries: seat results then come from `winner` and
`agents`. Keys the statistics cannot do without are checked here, so a malformed record is a
`ReportError` naming it rather than a KeyError.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .errors import ReportError

Record = Mapping[str, Any]
Player = Mapping[str, Any]

REQUIRED_KEYS = ("seed", "winner", "aborted", "players")
REQUIRED_PLAYER_KEYS = ("seat", "won", "deck")


def check_records(records: Iterable[Record]) -> list[Record]:
    """The records as a list, after checking each has the keys the statistics read."""
    checked = []
    for index, record in enumerate(records):
        if not isinstance(record, Mapping):
            raise ReportError(f"game record {index + 1} is not an object")
        where = f"game record {index + 1} (seed {record.get('seed')!r})"
        for key in REQUIRED_KEYS:
            if key not in record:
                raise ReportError(f"{where} has no {key!r}")
        players = record["players"]
        if not isinstance(players, Sequence) or not all(isinstance(p, Mapping) for p in players):
            raise ReportError(f"{where}: 'players' is not a list of objects")
        for player in players:
            for key in REQUIRED_PLAYER_KEYS:
                if key not in player:
                    raise ReportError(f"{where}: a player has no {key!r}")
        _check_shared(record, where)
        checked.append(record)
    return checked


def _is_seat(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


def _check_shared(record: Record, where: str) -> None:
    """The shared results' keys, where present: `winners` a list of seats, `scores` null or a list
    of numbers, `teams` null or a list of lists of seats."""
    winners = record.get("winners")
    if winners is not None and not (isinstance(winners, Sequence) and not isinstance(winners, str)
                                    and all(_is_seat(s) for s in winners)):
        raise ReportError(f"{where}: 'winners' is not a list of seat numbers: {winners!r}")
    scores = record.get("scores")
    if scores is not None and not (isinstance(scores, Sequence) and not isinstance(scores, str) and all(
            isinstance(s, (int, float)) and not isinstance(s, bool) for s in scores)):
        raise ReportError(f"{where}: 'scores' is not null or a list of numbers (one per seat): {scores!r}")
    teams = record.get("teams")
    if teams is not None and not (isinstance(teams, Sequence) and not isinstance(teams, str) and all(
            isinstance(t, Sequence) and not isinstance(t, str) and t and all(_is_seat(s) for s in t) for t in teams)):
        raise ReportError(f"{where}: 'teams' is not null or a list of lists of seat numbers: {teams!r}")


def finished(records: Iterable[Record]) -> list[Record]:
    """The records of games that ended by the rules (not aborted, not unfinished: stopped at
    their cap of decisions)."""
    return [r for r in records if not r["aborted"] and not r.get("unfinished")]


def seat_numbers(record: Record) -> list[int]:
    """The record's seats: one per agent (or per player entry when it names no agents)."""
    agents = record.get("agents")
    if agents:
        return list(range(1, len(agents) + 1))
    return sorted(p["seat"] for p in record["players"])


def seats(records: Iterable[Record]) -> list[int]:
    """Every seat number the records have, in order."""
    return sorted({seat for r in records for seat in seat_numbers(r)})


def winners_of(record: Record) -> tuple[int, ...]:
    """The seats that won: `winners` where the record has it (a shared win: several; a draw or a
    shared loss: none), else `winner`'s seat (none for a draw)."""
    winners = record.get("winners")
    if winners is not None:
        return tuple(winners)
    return () if record["winner"] is None else (record["winner"],)


def seat_won(record: Record, seat: int) -> int:
    """1 when the seat won the game (alone or with others), else 0 (a draw or a loss)."""
    return int(seat in winners_of(record))


def player_won(record: Record, player: Player) -> bool:
    """Whether the player won the game (a draw or a loss: False)."""
    if record.get("winners") is not None:
        return player["seat"] in record["winners"]
    return bool(player["won"])


def is_draw(record: Record) -> bool:
    """A finished game no seat won (its `draw`, else no winner)."""
    return bool(record["draw"]) if "draw" in record else not winners_of(record)


def teams_of(record: Record) -> tuple[tuple[int, ...], ...] | None:
    """The record's partnerships (seats), or None when the ruleset declares none."""
    teams = record.get("teams")
    return None if teams is None else tuple(tuple(team) for team in teams)


def scores_of(record: Record) -> list[float] | None:
    """The record's scores, per seat (index seat - 1), or None in a game without a score."""
    scores = record.get("scores")
    return None if scores is None else [float(s) for s in scores]


def held(player: Player, key: str, card: str) -> bool:
    """The player's `key` tally (deck, opening, drawn, played, picked) counts the card at least once."""
    return player.get(key, {}).get(card, 0) > 0


def card_names(records: Iterable[Record]) -> list[str]:
    """Every card name the records mention, sorted."""
    names: set[str] = set()
    for record in records:
        for player in record["players"]:
            for key in ("deck", "opening", "drawn", "played", "picked"):
                names.update(player.get(key, {}))
        for offer in record.get("offers") or []:
            names.update(offer.get("cards", []))
            names.update(offer.get("picks", []))
    return sorted(names)
