"""A card's effect on winning, measured within its deck by a comparison the shuffle randomises.

For a card and the player-games whose deck held it, the shuffle alone decides whether the card
was in the opening hand (the cards in the owner's hand zone when they were first asked a
decision: backends/records.py). So the win rate with the card in the opening hand minus the win
rate without it, among games of the same deck in the same seat against the same decks and agents
(a *stratum*), estimates what having the card early is worth, free of the deck's own strength,
the seat and the matchup. The estimator (strata, Cochran-Mantel-Haenszel weights, interval and
test) is opening.py's, the one `compare` uses for its per-card figures too; a card's flag is a
Benjamini-Hochberg false-discovery-rate correction across every card with an estimate (q <= 5%).

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

from .intervals import POWER_80, Z95, Proportion, wilson, z_for
from .opening import WIN_BOUNDS, Unit, deck_of, opening_effect, stratum_of
from .records import Record, check_records, finished, player_won

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


def card_effects(records: Iterable[Record]) -> list[CardEffect]:
    """Every card some deck held, with its within-deck effect on winning (opening.py: the one
    estimator `compare` uses too): the estimated best first, cards without an estimate last (by name)."""
    records = check_records(records)
    games = finished(records)
    units: dict[str, list[Unit]] = defaultdict(list)
    decks: dict[str, set[str]] = defaultdict(set)
    turns: dict[str, dict[int, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    never: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for record in games:
        for player in record["players"]:
            won = int(player_won(record, player))
            stratum = stratum_of(record, player)
            name = deck_of(record, player)
            opening = player.get("opening", {})
            first = player.get("first_drawn", {})
            drawn = player.get("drawn", {})
            for card, count in player.get("deck", {}).items():
                if count <= 0:
                    continue
                if name is not None:
                    decks[card].add(name)
                opened = opening.get(card, 0) > 0
                units[card].append((stratum, opened, float(won)))
                if opened:
                    continue
                if card in first:
                    tally = turns[card][int(first[card])]
                    tally[0] += 1
                    tally[1] += won
                elif drawn.get(card, 0) <= 0:
                    never[card][0] += 1
                    never[card][1] += won
    effects = [_effect(card, units[card], tuple(sorted(decks[card])), len(games), turns[card], never[card])
               for card in sorted(units)]
    return _order(_adjusted(effects))


def _effect(card: str, units: list[Unit], decks: tuple[str, ...], games: int,
            turns: dict[int, list[int]], never: list[int]) -> CardEffect:
    n1 = sum(1 for _s, opened, _v in units if opened)
    x1 = sum(int(v) for _s, opened, v in units if opened)
    x0 = sum(int(v) for _s, opened, v in units if not opened)
    n0 = len(units) - n1
    found = opening_effect(units, Z95, WIN_BOUNDS)
    needed = None if found.estimate is None else _games_needed(x1 + x0, n1 + n0, n1, len(units), games)
    return CardEffect(name=card, decks=decks, in_deck=len(units), with_opening=wilson(x1, n1),
                      without_opening=wilson(x0, n0), estimate=found.estimate, low=found.low, high=found.high,
                      z=found.z, p=found.p, q=None, flagged=False, games_needed=needed, why=found.reason or "",
                      draw_turns=tuple(DrawTurn(t, g, w) for t, (g, w) in sorted(turns.items())),
                      never_drawn=wilson(never[1], never[0]))


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


def bh_adjusted(ps: Sequence[float | None]) -> list[float | None]:
    """Benjamini-Hochberg q-values of these p-values (None: not tested, and left out of the count)."""
    tested = sorted((p, i) for i, p in enumerate(ps) if p is not None)
    m = len(tested)
    qs: list[float | None] = [None] * len(ps)
    running = 1.0
    for rank in range(m, 0, -1):
        p, index = tested[rank - 1]
        running = min(running, p * m / rank)
        qs[index] = running
    return qs


def _adjusted(effects: list[CardEffect]) -> list[CardEffect]:
    """The effects with Benjamini-Hochberg q-values across the cards that have a p-value."""
    qs = bh_adjusted([e.p for e in effects])
    return [e if q is None else replace(e, q=q, flagged=q <= FDR) for e, q in zip(effects, qs)]


def _order(effects: list[CardEffect]) -> list[CardEffect]:
    return sorted(effects, key=lambda e: (e.estimate is None, -(e.estimate or 0.0), e.name))


def typical_games_needed(effects: Sequence[CardEffect]) -> int | None:
    """The median card's games needed (None when no card has the figure)."""
    figures = sorted(e.games_needed for e in effects if e.games_needed is not None)
    return figures[len(figures) // 2] if figures else None
