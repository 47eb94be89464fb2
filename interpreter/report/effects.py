"""A card's effect on winning, measured within its deck by a comparison the shuffle randomises.

For a card and the player-games whose deck held it, the shuffle alone decides whether the card
was in the opening hand (the cards in the owner's hand zone when they were first asked a
decision: backends/records.py). So the win rate with the card in the opening hand minus the win
rate without it, among games of the same deck in the same seat against the same decks and agents
(a *stratum*), estimates what having the card early is worth, free of the deck's own strength,
the seat and the matchup. The strata are combined with Cochran-Mantel-Haenszel weights
(n1 n0 / (n1 + n0)); the interval is the normal one from the strata's variances, the z and
p-value those of the CMH test of no difference; a card's flag is a Benjamini-Hochberg
false-discovery-rate correction across every card with an estimate (q <= 5%).

GIH and IWD (cards.py) stay descriptive: a card never seen in a game means the game was short,
and a short game is more often a win for one side, so those figures measure game length as much
as the card. The turn a card was first drawn is given too, descriptively: its timing is not
randomised once the player's choices shape the game's length.
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from .intervals import POWER_80, Proportion, wilson, z_for
from .records import Record, check_records, finished

FDR = 0.05  # the false-discovery rate of the flags
DETECT = 0.05  # the effect (+5 points) the power figure is worked out for


@dataclass(frozen=True)
class DrawTurn:
    """Player-games whose deck held the card, not in the opening hand, first drawn at this turn."""

    turn: int
    games: int
    wins: int


@dataclass(frozen=True)
class CardEffect:
    name: str
    decks: tuple[str, ...]  # the decks that held it
    in_deck: int  # player-games whose deck held it
    with_opening: Proportion  # win rate with the card in the opening hand
    without_opening: Proportion  # ... and without it, same decks
    estimate: float | None  # the stratified difference (with - without); None: see `why`
    low: float | None  # its 95% interval
    high: float | None
    z: float | None
    p: float | None  # two-sided
    q: float | None  # Benjamini-Hochberg adjusted p
    flagged: bool  # q <= FDR
    games_needed: int | None  # games (of this run's mix) to detect +5 points at 5%, 80% power
    why: str  # why there is no estimate ("" when there is one)
    draw_turns: tuple[DrawTurn, ...]  # descriptive: by the turn first drawn
    never_drawn: Proportion  # in the deck, not in the opening hand, never drawn


@dataclass(frozen=True)
class _Cell:
    """One stratum of one card: wins and games with it in the opening hand (1) and without (0)."""

    x1: int = 0
    n1: int = 0
    x0: int = 0
    n0: int = 0


def deck_of(record: Record, player: dict) -> str | None:
    """The name of a player's deck in a record (None: the ruleset gives no named decks)."""
    name = player.get("deck_name")
    if name is None and record.get("decks"):
        seat = player["seat"]
        decks = record["decks"]
        name = decks[seat - 1] if 0 < seat <= len(decks) else None
    return name


def card_effects(records: Iterable[Record]) -> list[CardEffect]:
    """Every card some deck held, with its within-deck effect: the estimated best first, cards
    without an estimate last (by name)."""
    records = check_records(records)
    games = finished(records)
    cells: dict[str, dict[tuple, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0, 0, 0]))
    decks: dict[str, set[str]] = defaultdict(set)
    held_count: dict[str, int] = defaultdict(int)
    turns: dict[str, dict[int, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    never: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for record in games:
        arrangement = (tuple(record.get("decks") or ()), tuple(record.get("agents") or ()))
        for player in record["players"]:
            won = int(bool(player["won"]))
            stratum = (player["seat"], arrangement)
            name = deck_of(record, player)
            opening = player.get("opening", {})
            first = player.get("first_drawn", {})
            drawn = player.get("drawn", {})
            for card, count in player.get("deck", {}).items():
                if count <= 0:
                    continue
                held_count[card] += 1
                if name is not None:
                    decks[card].add(name)
                cell = cells[card][stratum]
                if opening.get(card, 0) > 0:
                    cell[0] += won
                    cell[1] += 1
                    continue
                cell[2] += won
                cell[3] += 1
                if card in first:
                    tally = turns[card][int(first[card])]
                    tally[0] += 1
                    tally[1] += won
                elif drawn.get(card, 0) <= 0:
                    never[card][0] += 1
                    never[card][1] += won
    effects = [_effect(card, [_Cell(*c) for c in cells[card].values()], tuple(sorted(decks[card])),
                       held_count[card], len(games), turns[card], never[card])
               for card in sorted(cells)]
    return _order(_adjusted(effects))


def _effect(card: str, strata: list[_Cell], decks: tuple[str, ...], held: int, games: int,
            turns: dict[int, list[int]], never: list[int]) -> CardEffect:
    x1 = sum(c.x1 for c in strata)
    n1 = sum(c.n1 for c in strata)
    x0 = sum(c.x0 for c in strata)
    n0 = sum(c.n0 for c in strata)
    draw_turns = tuple(DrawTurn(t, g, w) for t, (g, w) in sorted(turns.items()))
    common = dict(name=card, decks=decks, in_deck=held, with_opening=wilson(x1, n1), without_opening=wilson(x0, n0),
                  draw_turns=draw_turns, never_drawn=wilson(never[1], never[0]), q=None, flagged=False)
    compared = [c for c in strata if c.n1 and c.n0]
    if not compared:
        why = ("never in an opening hand" if n1 == 0 else
               "in every opening hand of its deck" if n0 == 0 else
               "never both in and out of the opening hand in games of the same deck, seat and opponents")
        return CardEffect(**common, estimate=None, low=None, high=None, z=None, p=None, games_needed=None, why=why)
    weight = sum(c.n1 * c.n0 / (c.n1 + c.n0) for c in compared)
    estimate = sum(c.n1 * c.n0 / (c.n1 + c.n0) * (c.x1 / c.n1 - c.x0 / c.n0) for c in compared) / weight
    # the variance of the estimate (adjusted rates, so that a stratum at 0% or 100% is not certain)
    variance = sum((c.n1 * c.n0 / (c.n1 + c.n0)) ** 2 * (_spread(c.x1, c.n1) / c.n1 + _spread(c.x0, c.n0) / c.n0)
                   for c in compared) / weight ** 2
    # under no difference: each stratum's pooled rate (w^2 (1/n1 + 1/n0) = w)
    null = sum(c.n1 * c.n0 / (c.n1 + c.n0) * _pooled(c) for c in compared) / weight ** 2
    half = z_for(0.05) * math.sqrt(variance)
    z = estimate / math.sqrt(null) if null > 0 else None
    p = 2 * (1 - statistics.NormalDist().cdf(abs(z))) if z is not None else None
    # (a difference of two win rates lies in [-1, 1]: so does its interval)
    return CardEffect(**common, estimate=estimate, low=max(-1.0, estimate - half), high=min(1.0, estimate + half),
                      z=z, p=p,
                      games_needed=_games_needed(x1 + x0, n1 + n0, n1, held, games), why="")


def _spread(x: int, n: int) -> float:
    rate = (x + 0.5) / (n + 1)
    return rate * (1 - rate)


def _pooled(cell: _Cell) -> float:
    rate = (cell.x1 + cell.x0) / (cell.n1 + cell.n0)
    return rate * (1 - rate)


def _games_needed(wins: int, n: int, n1: int, held: int, games: int) -> int | None:
    """Games of this run's mix of decks that would detect a +5-point effect of the card (two-sided
    5% before the FDR correction, 80% power), at the observed base rate and opening-hand share."""
    if n == 0 or n1 in (0, n) or games == 0 or held == 0:
        return None
    rate = (wins + 0.5) / (n + 1)
    share = n1 / n
    z = z_for(0.05) + statistics.NormalDist().inv_cdf(POWER_80)
    player_games = z * z * rate * (1 - rate) * (1 / share + 1 / (1 - share)) / (DETECT * DETECT)
    return math.ceil(player_games * games / held)


def _adjusted(effects: list[CardEffect]) -> list[CardEffect]:
    """The effects with Benjamini-Hochberg q-values across the cards that have a p-value."""
    tested = sorted((e for e in effects if e.p is not None), key=lambda e: e.p)
    m = len(tested)
    q_of: dict[str, float] = {}
    running = 1.0
    for rank in range(m, 0, -1):
        effect = tested[rank - 1]
        running = min(running, effect.p * m / rank)
        q_of[effect.name] = running
    out = []
    for e in effects:
        q = q_of.get(e.name)
        out.append(e if q is None else replace(e, q=q, flagged=q <= FDR))
    return out


def _order(effects: list[CardEffect]) -> list[CardEffect]:
    return sorted(effects, key=lambda e: (e.estimate is None, -(e.estimate or 0.0), e.name))


def typical_games_needed(effects: Sequence[CardEffect]) -> int | None:
    """The median card's games needed (None when no card has the figure)."""
    figures = sorted(e.games_needed for e in effects if e.games_needed is not None)
    return figures[len(figures) // 2] if figures else None
