"""What the hand-written trick-taking games share (benchmarks/handwritten_hearts.py, _spades.py and
_expedition.py): card names, gathering and dealing the cards, the order of play from a trick's
leader, and a trick's winner.

A card is a number, suit * size + rank - low (`size` cards a suit): `card // size` is its suit and
a higher number of a suit is the higher card. A player is any object with `seat` (1, 2, ...),
`hand` (a list of cards in the order they came in) and, where cards are gathered, `taken`.

Each game keeps its own loop over a trick's cards, with its decision (a `yield` in the game's one
generator, harness.GeneratorDriven) and its rule for the legal cards inline: these run for every
card, and measured on the hand-written Hearts and Spades, a shared trick generator
(`yield from`: about 45 ns more per decision) or a shared function for following suit (one call
more per card) made them 6 to 15% slower, which these baselines are there to measure against.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any


def suited_name(card: int, suits: str) -> str:
    """A card of a 52-card deck (13 a suit, ranks 2..14) as '2C' .. 'AS': the rank (11..14 as J,
    Q, K, A), then the letter of its suit in `suits`."""
    rank = card % 13 + 2
    return ("JQKA"[rank - 11] if rank > 10 else str(rank)) + suits[card // 13]


def gather(stock: list[int], players: Sequence[Any]) -> None:
    """Every player's taken pile back onto the stock, in seat order (each pile emptied)."""
    for p in players:
        stock += p.taken
        p.taken.clear()


def shuffle_and_deal(rng: random.Random, stock: list[int], order: Sequence[Any]) -> None:
    """Shuffle the stock and deal all of it one card at a time round `order`, from its first
    player; the stock is left empty."""
    rng.shuffle(stock)
    n = len(order)
    for i, p in enumerate(order):
        p.hand = stock[i::n]
    stock.clear()


def from_seat(players: tuple, seat: int) -> tuple:
    """The players in the order of play, from the one in `seat` round the table."""
    k = seat - 1
    return players[k:] + players[:k]


def trick_winner(seats: Sequence[Any], trick: list[int], led: int, size: int, trumps: int | None = None) -> Any:
    """Who played the trick's best card (`trick[i]` by `seats[i]`): the highest trump (cards from
    `trumps` on, when given) if any was played, else the highest card of the suit led."""
    trumped = [c for c in trick if c >= trumps] if trumps is not None else None
    best = max(trumped) if trumped else max(c for c in trick if c // size == led)
    return seats[trick.index(best)]
