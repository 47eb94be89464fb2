"""Win rates by deck and by matchup, from the deck names the records carry (`decks`, one per seat).

A deck's win rate is over every finished player-game it played, in whatever seat; a matchup is
the set of decks at a table (a pair, in a two-player game), and each of its decks gets its win
rate over the games of that table, both seatings pooled (with `--swap-seats`, each seed played
from every seat, so the seat's advantage is shared out evenly). A draw is not a win.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from .intervals import Proportion, wilson
from .records import Record, check_records, finished, is_draw, seat_won


@dataclass(frozen=True)
class DeckResult:
    name: str
    wins: Proportion  # over its finished player-games
    by_seat: dict[int, Proportion]


@dataclass(frozen=True)
class MatchupResult:
    decks: tuple[str, ...]  # the decks at the table, sorted by name
    games: int  # finished games of this table
    wins: dict[str, Proportion]  # per deck, over those games (a deck twice at a table: per player-game)
    draws: Proportion


def deck_results(records: Iterable[Record]) -> list[DeckResult]:
    """Every named deck's win rate, overall and by seat (by name); [] when no record names decks."""
    games = finished(check_records(records))
    tallies: dict[str, dict[int, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for record in games:
        for seat, name in enumerate(record.get("decks") or (), start=1):
            tally = tallies[name][seat]
            tally[0] += seat_won(record, seat)
            tally[1] += 1
    results = []
    for name, seats in sorted(tallies.items()):
        wins = sum(w for w, _n in seats.values())
        n = sum(n for _w, n in seats.values())
        results.append(DeckResult(name, wilson(wins, n), {s: wilson(w, n) for s, (w, n) in sorted(seats.items())}))
    return results


def matchup_results(records: Iterable[Record]) -> list[MatchupResult]:
    """Each table of decks with its decks' win rates ([] when every game had the same table)."""
    games = finished(check_records(records))
    tables: dict[tuple[str, ...], list[Record]] = defaultdict(list)
    for record in games:
        if record.get("decks"):
            tables[tuple(sorted(record["decks"]))].append(record)
    if len(tables) < 2:
        return []
    results = []
    for table, group in sorted(tables.items()):
        wins: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for record in group:
            for seat, name in enumerate(record["decks"], start=1):
                wins[name][0] += seat_won(record, seat)
                wins[name][1] += 1
        draws = sum(1 for r in group if is_draw(r))
        results.append(MatchupResult(table, len(group), {n: wilson(w, k) for n, (w, k) in sorted(wins.items())},
                                     wilson(draws, len(group))))
    return results


def seat_decks(records: Iterable[Record]) -> dict[int, list[str]]:
    """The decks that sat at each seat, by seat (names sorted)."""
    seats: dict[int, set[str]] = defaultdict(set)
    for record in records:
        for seat, name in enumerate(record.get("decks") or (), start=1):
            seats[seat].add(name)
    return {seat: sorted(names) for seat, names in sorted(seats.items())}
