"""Game-level balance statistics: seat win rates, first-player advantage, end reasons, draws,
timeouts, aborted games, game lengths, lead changes, counters, and results by agent pairing.

Win rates are over finished games (aborted ones, and unfinished ones stopped at their cap of
decisions, are counted apart); a draw is not a win.
"""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .intervals import Difference, PairedDifference, Proportion, paired_difference, wilson
from .records import Record, check_records, finished, seat_numbers, seat_won, seats

ABORTED_REASON = "(aborted)"  # the end-reason row that gathers the aborted games


@dataclass(frozen=True)
class Summary:
    """Mean, standard deviation (None below two values), extremes and median of some numbers."""

    n: int
    mean: float | None
    sd: float | None
    minimum: float | None
    maximum: float | None
    median: float | None


@dataclass(frozen=True)
class AbortedGame:
    seed: int
    reason: str
    rule: str | None  # "file:line:col" of the rule that failed


@dataclass(frozen=True)
class ReasonCount:
    """How often games ended for one reason; `share` is over all games."""

    reason: str
    count: int
    share: Proportion


@dataclass(frozen=True)
class Balance:
    """The largest gap between two seats' win rates: best minus worst, paired over the same games."""

    best_seat: int
    worst_seat: int
    gap: float
    difference: PairedDifference


@dataclass(frozen=True)
class GameStats:
    games: int
    finished: int
    aborted: int
    unfinished: int  # stopped at their cap of decisions (their reason is in `reasons`)
    aborted_games: tuple[AbortedGame, ...]  # by seed
    draws: Proportion  # over finished games
    timeouts: Proportion  # over finished games
    seat_wins: dict[int, Proportion]  # by seat, over finished games
    reasons: tuple[ReasonCount, ...]  # most frequent first
    balance: Balance | None  # None with fewer than two seats or no finished game
    first_player: Proportion  # wins of the first player, over finished games that name one
    first_player_advantage: Difference  # first_player minus 1/players, interval shifted alike
    turns: Summary  # of finished games
    decisions: Summary
    turn_counts: tuple[int, ...]  # of finished games, sorted: ready for a histogram
    lead_changes_mean: float | None  # None when no record counts lead changes
    lead_change_share: Proportion | None  # games with at least one lead change
    counters: dict[str, dict[int, float]]  # counter name -> seat -> mean at the end of finished games


@dataclass(frozen=True)
class Pairing:
    """Results of the games where these agents held the seats (seat 1's agent first)."""

    agents: tuple[str, ...]
    games: int
    finished: int
    wins: dict[int, Proportion]  # by seat, over finished games
    draws: Proportion


def summary(values: Sequence[float]) -> Summary:
    """The Summary of some numbers (all None for none)."""
    if not values:
        return Summary(0, None, None, None, None, None)
    sd = statistics.stdev(values) if len(values) > 1 else None
    return Summary(len(values), statistics.fmean(values), sd, min(values), max(values), statistics.median(values))


def game_stats(records: Iterable[Record]) -> GameStats:
    """The game-level statistics of these records."""
    records = check_records(records)
    games = finished(records)
    seat_wins = {seat: _seat_wins(games, seat) for seat in seats(records)}
    first_player, advantage = _first_player(games)
    lead_games = [r for r in games if r.get("lead_changes") is not None]
    turns = sorted(r["turns"] for r in games if r.get("turns") is not None)
    return GameStats(
        games=len(records),
        finished=len(games),
        aborted=sum(bool(r["aborted"]) for r in records),
        unfinished=sum(bool(r.get("unfinished")) for r in records),
        aborted_games=tuple(sorted(
            (AbortedGame(r["seed"], str(r.get("reason") or ""), r.get("rule")) for r in records if r["aborted"]),
            key=lambda a: (a.seed, a.reason))),
        draws=wilson(sum(bool(r.get("draw")) for r in games), len(games)),
        timeouts=wilson(sum(bool(r.get("timeout")) for r in games), len(games)),
        seat_wins=seat_wins,
        reasons=_reasons(records),
        balance=_balance(games, seat_wins),
        first_player=first_player,
        first_player_advantage=advantage,
        turns=summary(turns),
        decisions=summary([r["decisions"] for r in games if r.get("decisions") is not None]),
        turn_counts=tuple(turns),
        lead_changes_mean=statistics.fmean(r["lead_changes"] for r in lead_games) if lead_games else None,
        lead_change_share=(wilson(sum(r["lead_changes"] > 0 for r in lead_games), len(lead_games))
                           if lead_games else None),
        counters=_counters(games),
    )


def _seat_wins(games: list[Record], seat: int) -> Proportion:
    """The seat's wins over the finished games that have it."""
    outcomes = [seat_won(r, seat) for r in games if seat in seat_numbers(r)]
    return wilson(sum(outcomes), len(outcomes))


def _reasons(records: list[Record]) -> tuple[ReasonCount, ...]:
    counts = Counter(ABORTED_REASON if r["aborted"] else str(r.get("reason") or "") for r in records)
    ordered = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    return tuple(ReasonCount(reason, count, wilson(count, len(records))) for reason, count in ordered)


def _balance(games: list[Record], seat_wins: dict[int, Proportion]) -> Balance | None:
    rated = [(p.rate, seat) for seat, p in seat_wins.items() if p.rate is not None]
    if len(rated) < 2:
        return None
    best_rate, best = max(rated, key=lambda item: (item[0], -item[1]))
    worst_rate, worst = min(rated, key=lambda item: (item[0], item[1]))
    if best == worst:  # every seat has the same rate: compare the first two
        best, worst = sorted(seat for _, seat in rated)[:2]
    worst_wins, best_wins = [], []
    for record in games:
        if {best, worst} <= set(seat_numbers(record)):
            worst_wins.append(seat_won(record, worst))
            best_wins.append(seat_won(record, best))
    return Balance(best, worst, best_rate - worst_rate, paired_difference(worst_wins, best_wins))


def _first_player(games: list[Record]) -> tuple[Proportion, Difference]:
    """The first player's win rate and its edge over an even share (1/players)."""
    wins = 0
    known = 0
    even_share = 0.0
    for record in games:
        first = record.get("first_player")
        in_game = seat_numbers(record)
        if first not in in_game:
            continue
        known += 1
        wins += seat_won(record, first)
        even_share += 1 / len(in_game)
    rate = wilson(wins, known)
    if rate.rate is None or rate.low is None or rate.high is None:
        return rate, Difference(None, None, None)
    expected = even_share / known
    return rate, Difference(rate.rate - expected, rate.low - expected, rate.high - expected)


def _counters(games: list[Record]) -> dict[str, dict[int, float]]:
    values: dict[str, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    for record in games:
        for player in record["players"]:
            for name, value in player.get("counters", {}).items():
                if isinstance(value, (int, float)):
                    values[name][player["seat"]].append(value)
    return {name: {seat: statistics.fmean(by_seat[seat]) for seat in sorted(by_seat)}
            for name, by_seat in sorted(values.items())}


def pairings(records: Iterable[Record]) -> list[Pairing]:
    """Results by agent pairing, or [] when every game has the same agent in every seat."""
    records = check_records(records)
    if all(len(set(r.get("agents") or [])) <= 1 for r in records):
        return []
    groups: dict[tuple[str, ...], list[Record]] = defaultdict(list)
    for record in records:
        groups[tuple(record.get("agents") or ())].append(record)
    result = []
    for agents, group in sorted(groups.items()):
        games = finished(group)
        wins = {seat: _seat_wins(games, seat) for seat in seats(group)}
        draws = wilson(sum(bool(r.get("draw")) for r in games), len(games))
        result.append(Pairing(agents, len(group), len(games), wins, draws))
    return result
