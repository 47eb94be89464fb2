"""Reading game records: the JSON dicts, one per game, that a report is made from.

A record names its seed, its outcome and one entry per seat (deck, opening hand, cards drawn,
played and picked, counters), and the draft's offers. Keys the statistics cannot do without are
checked here, so a malformed record is a `ReportError` naming it rather than a KeyError.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .errors import ReportError

Record = Mapping[str, Any]
Player = Mapping[str, Any]

REQUIRED_KEYS = ("seed", "aborted", "players", "turns", "decisions")
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
        checked.append(record)
    return checked


def finished(records: Iterable[Record]) -> list[Record]:
    """The records of games that ended by the rules (not aborted)."""
    return [r for r in records if not r["aborted"]]


def players_by_seat(record: Record) -> dict[int, Player]:
    return {p["seat"]: p for p in record["players"]}


def seats(records: Iterable[Record]) -> list[int]:
    """Every seat number the records mention, in order."""
    return sorted({p["seat"] for r in records for p in r["players"]})


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
