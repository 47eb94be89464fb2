"""Teams, shared results and scores (issue 33.6): what a report says of a cooperative game, a team
game and a scoring game, from the records' `winners`, `teams` and `scores` (records.py).

- **Cooperative** (one team holding every seat): the shared win rate (games all seats won) with its
  Wilson interval, and each end reason's rate over the finished games with the share of them won.
- **Teams** (two or more): each team's win rate (games its seats won) with its Wilson interval.
- **Scores**: the mean final score, per team when every team's seats carry the same score in every
  game (a team-scored game), else per seat, with its 95% normal interval (mean ± 1.96 sd / sqrt(n));
  the histogram of the final scores; and each card's effect on its owner's score: the within-deck
  opening-hand comparison of the card table (opening.py), on the score instead of the win, its
  flags a Benjamini-Hochberg correction across the cards. `compare` compares the mean scores of
  the two sides, paired by seed (`compare_scores`).

Records without these keys have none of this: `shared_stats` returns None for each part.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .effects import FDR, bh_adjusted
from .intervals import Z95, PairedDifference, Proportion, paired_difference, wilson
from .opening import Unit, deck_of, opening_effect, stratum_of
from .records import Record, check_records, finished, scores_of, teams_of, winners_of

MOST_BINS = 20  # bins of a histogram of scores that are not few whole numbers


@dataclass(frozen=True)
class ReasonOutcome:
    """Finished games that ended for one reason: their share, and the share of them won together."""

    reason: str
    share: Proportion  # over the finished games
    won: Proportion  # over the games that ended so


@dataclass(frozen=True)
class Cooperative:
    seats: tuple[int, ...]
    wins: Proportion  # games every seat won, over finished games
    reasons: tuple[ReasonOutcome, ...]  # most frequent first


@dataclass(frozen=True)
class TeamResult:
    name: str  # "team 1 (seats 1, 3)"
    seats: tuple[int, ...]
    wins: Proportion  # over finished games


@dataclass(frozen=True)
class ScoreMean:
    name: str  # "seat 1" or "team 1 (seats 1, 3)"
    n: int
    mean: float | None
    sd: float | None
    low: float | None  # 95% normal interval of the mean
    high: float | None


@dataclass(frozen=True)
class Histogram:
    """Counts of final scores per scorer in bins [edges[i], edges[i + 1]) (the last bin closed);
    `whole`: one bin per whole number (edges[i] is that number)."""

    edges: tuple[float, ...]
    whole: bool
    counts: dict[str, tuple[int, ...]]  # per scorer name

    def labels(self) -> list[str]:
        if self.whole:
            return [f"{e:g}" for e in self.edges[:-1]]
        return [f"{lo:g} to {hi:g}" for lo, hi in zip(self.edges, self.edges[1:])]


@dataclass(frozen=True)
class ScoreEffect:
    """One card's within-deck opening-hand effect on its owner's score (points of score)."""

    name: str
    decks: tuple[str, ...]
    in_deck: int
    mean_with: float | None  # mean score with the card in the opening hand
    mean_without: float | None
    estimate: float | None
    low: float | None
    high: float | None
    z: float | None
    p: float | None
    q: float | None
    flagged: bool
    why: str


@dataclass(frozen=True)
class Scores:
    per: str  # "seat" or "team"
    means: tuple[ScoreMean, ...]
    histogram: Histogram
    effects: tuple[ScoreEffect, ...]  # the estimated best first, those without an estimate last


@dataclass(frozen=True)
class Shared:
    cooperative: Cooperative | None
    teams: tuple[TeamResult, ...] | None  # two or more teams
    scores: Scores | None


def team_name(index: int, seats: Sequence[int]) -> str:
    return f"team {index} (seat{'s' if len(seats) != 1 else ''} {', '.join(map(str, seats))})"


def layout_of(games: list[Record]) -> tuple[tuple[int, ...], ...] | None:
    """The partnerships most games have (they are the ruleset's: the same in every game)."""
    found = Counter(t for t in (teams_of(r) for r in games) if t is not None)
    return found.most_common(1)[0][0] if found else None


def shared_stats(records: Iterable[Record]) -> Shared:
    """The cooperative, team and score figures of these records (each None when they do not apply)."""
    games = finished(check_records(records))
    layout = layout_of(games)
    cooperative = _cooperative(games, layout[0]) if layout is not None and len(layout) == 1 else None
    teams = None
    if layout is not None and len(layout) > 1:
        teams = tuple(TeamResult(team_name(i, seats), seats,
                                 wilson(sum(1 for r in games if set(seats) <= set(winners_of(r))), len(games)))
                      for i, seats in enumerate(layout, start=1))
    scored = [r for r in games if scores_of(r) is not None]
    return Shared(cooperative, teams, _scores(scored, layout) if scored else None)


def _cooperative(games: list[Record], seats: tuple[int, ...]) -> Cooperative:
    won = [set(seats) <= set(winners_of(r)) for r in games]
    by_reason: dict[str, list[bool]] = defaultdict(list)
    for record, w in zip(games, won):
        by_reason[str(record.get("reason") or "")].append(w)
    reasons = sorted(by_reason.items(), key=lambda item: (-len(item[1]), item[0]))
    return Cooperative(seats, wilson(sum(won), len(games)),
                       tuple(ReasonOutcome(reason, wilson(len(ws), len(games)), wilson(sum(ws), len(ws)))
                             for reason, ws in reasons))


def team_scored(games: list[Record], layout: tuple[tuple[int, ...], ...] | None) -> bool:
    if layout is None:
        return False
    for record in games:
        scores = scores_of(record) or []
        for seats in layout:
            if len({scores[s - 1] for s in seats if 0 < s <= len(scores)}) > 1:
                return False
    return True


def _mean(name: str, values: list[float]) -> ScoreMean:
    if not values:
        return ScoreMean(name, 0, None, None, None, None)
    mean = statistics.fmean(values)
    if len(values) < 2:
        return ScoreMean(name, 1, mean, None, None, None)
    sd = statistics.stdev(values, mean)
    half = Z95 * sd / math.sqrt(len(values))
    return ScoreMean(name, len(values), mean, sd, mean - half, mean + half)


def scorers_of(games: list[Record], layout: tuple[tuple[int, ...], ...] | None) -> tuple[str, list[tuple[str, int]]]:
    """"team" or "seat", and each scorer's name with the seat whose score is its own (a team-scored
    game: every member carries the team's score, so its first seat's)."""
    if team_scored(games, layout) and layout is not None:
        return "team", [(team_name(i, seats), seats[0]) for i, seats in enumerate(layout, start=1)]
    seats = sorted({s for r in games for s in range(1, len(scores_of(r) or []) + 1)})
    return "seat", [(f"seat {s}", s) for s in seats]


def score_at(record: Record, seat: int) -> float | None:
    scores = scores_of(record)
    return scores[seat - 1] if scores is not None and 0 < seat <= len(scores) else None


def _scores(games: list[Record], layout: tuple[tuple[int, ...], ...] | None) -> Scores:
    per, scorers = scorers_of(games, layout)
    values = {name: [v for r in games if (v := score_at(r, seat)) is not None] for name, seat in scorers}
    return Scores(per, tuple(_mean(name, values[name]) for name, _ in scorers),
                  histogram(values), tuple(score_effects(games)))


@dataclass(frozen=True)
class ScoreComparison:
    """A seat's (or team's) final score on both sides of `compare`, and their difference paired by seed."""

    name: str
    base: ScoreMean
    variant: ScoreMean
    difference: PairedDifference  # variant minus base

    def to_json(self) -> dict:
        d = self.difference
        return {"name": self.name, "base": self.base.__dict__, "variant": self.variant.__dict__,
                "pairs": d.n, "difference": d.mean, "low": d.low, "high": d.high, "significant": d.significant,
                "level": 0.95}


def compare_scores(base_games: list[Record], variant_games: list[Record], z: float = Z95) -> list[ScoreComparison]:
    """Mean final scores of each seat (or team) over the paired games (`base_games[i]` and
    `variant_games[i]` share a seed); [] when neither side keeps scores."""
    scored = [r for r in base_games + variant_games if scores_of(r) is not None]
    if not scored:
        return []
    per, scorers = scorers_of(scored, layout_of(scored))
    out = []
    for name, seat in scorers:
        xs, ys = [], []
        for base, variant in zip(base_games, variant_games):
            x, y = score_at(base, seat), score_at(variant, seat)
            if x is not None and y is not None:
                xs.append(x)
                ys.append(y)
        out.append(ScoreComparison(name, _mean(name, [v for r in base_games if (v := score_at(r, seat)) is not None]),
                                   _mean(name, [v for r in variant_games if (v := score_at(r, seat)) is not None]),
                                   paired_difference(xs, ys, z)))
    return out


def histogram(values: dict[str, list[float]]) -> Histogram:
    """One bin per whole number when the scores are whole and span at most 30, else MOST_BINS
    equal bins over their range."""
    every = [v for vs in values.values() for v in vs]
    if not every:
        return Histogram((), True, {name: () for name in values})
    low, high = min(every), max(every)
    whole = all(float(v).is_integer() for v in every) and high - low <= 30
    width = 1.0 if whole else (high - low) / MOST_BINS or 1.0
    bins = int(high - low) + 1 if whole else MOST_BINS
    edges = tuple(low + i * width for i in range(bins + 1))
    counts = {}
    for name, vs in values.items():
        tally = [0] * bins
        for v in vs:
            tally[min(bins - 1, int((v - low) / width))] += 1
        counts[name] = tuple(tally)
    return Histogram(edges, whole, counts)


def score_effects(games: list[Record]) -> list[ScoreEffect]:
    """Every card some deck held, with its within-deck opening-hand effect on its owner's final score."""
    units: dict[str, list[Unit]] = defaultdict(list)
    decks: dict[str, set[str]] = defaultdict(set)
    for record in games:
        for player in record["players"]:
            value = score_at(record, player["seat"])
            if value is None:
                continue
            stratum = stratum_of(record, player)
            name = deck_of(record, player)
            opening = player.get("opening", {})
            for card, count in player.get("deck", {}).items():
                if count > 0:
                    units[card].append((stratum, opening.get(card, 0) > 0, value))
                    if name is not None:
                        decks[card].add(name)
    effects = []
    for card in sorted(units):
        found = opening_effect(units[card])
        with_it = [v for _s, opened, v in units[card] if opened]
        without = [v for _s, opened, v in units[card] if not opened]
        effects.append(ScoreEffect(card, tuple(sorted(decks[card])), len(units[card]),
                                   statistics.fmean(with_it) if with_it else None,
                                   statistics.fmean(without) if without else None,
                                   found.estimate, found.low, found.high, found.z, found.p, None, False,
                                   found.reason or ""))
    qs = bh_adjusted([e.p for e in effects])
    effects = [ScoreEffect(**{**e.__dict__, "q": q, "flagged": q is not None and q <= FDR})
               for e, q in zip(effects, qs)]
    return sorted(effects, key=lambda e: (e.estimate is None, -(e.estimate or 0.0), e.name))
