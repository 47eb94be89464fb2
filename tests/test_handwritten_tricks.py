"""benchmarks/tricks.py: the trick-taking code the hand-written Hearts, Spades and Expedition share
(one copy: each game's module uses the same functions), and what each piece does."""

from __future__ import annotations

import random
from types import SimpleNamespace

from baselines import load_baseline

SHARED = {"hearts": ("from_seat", "gather", "shuffle_and_deal", "suited_name", "trick_winner"),
          "spades": ("from_seat", "gather", "shuffle_and_deal", "suited_name", "trick_winner"),
          "expedition": ("from_seat", "shuffle_and_deal", "trick_winner")}


def _players(n: int) -> tuple:
    return tuple(SimpleNamespace(seat=seat, hand=[], taken=[]) for seat in range(1, n + 1))


def test_the_three_games_use_one_copy_of_the_trick_taking_code():
    used: dict[str, set[int]] = {}
    for game, names in SHARED.items():
        module = load_baseline(game)
        for name in names:
            function = getattr(module, name, None)
            assert function is not None and function.__module__ == "tricks", f"{game}.{name}"
            used.setdefault(name, set()).add(id(function))
    assert all(len(copies) == 1 for copies in used.values()), used


def test_the_highest_trump_wins_else_the_highest_card_of_the_suit_led():
    tricks = load_baseline("spades")
    seats = _players(4)
    # 13 cards a suit, trumps from 39 (Spades): a higher card of another suit does not win
    assert tricks.trick_winner(seats, [3, 12, 25, 5], 0, 13).seat == 2          # (the ace of the suit led)
    assert tricks.trick_winner(seats, [3, 12, 25, 5], 0, 13, 39).seat == 2
    assert tricks.trick_winner(seats, [3, 40, 51, 5], 0, 13, 39).seat == 3      # (the highest spade)
    assert tricks.trick_winner(seats, [16, 14, 25, 15], 1, 13, 39).seat == 3
    # 9 cards a suit, flares from 36 (Expedition); no trumps at all (Hearts)
    assert tricks.trick_winner(seats[:3], [4, 8, 36], 0, 9, 36).seat == 3
    assert tricks.trick_winner(seats[:3], [4, 8, 17], 0, 9, 36).seat == 2
    assert tricks.trick_winner(seats[1:], [4, 2, 8], 0, 9).seat == 4


def test_dealing_goes_round_from_the_first_player_and_gathering_in_seat_order():
    tricks = load_baseline("hearts")
    players = _players(4)
    order = tricks.from_seat(players, 3)
    assert [p.seat for p in order] == [3, 4, 1, 2]
    assert [p.seat for p in tricks.from_seat(players, 1)] == [1, 2, 3, 4]
    stock = list(range(12))
    shuffled = list(range(12))
    random.Random(7).shuffle(shuffled)
    tricks.shuffle_and_deal(random.Random(7), stock, order)
    assert stock == [] and [p.hand for p in order] == [shuffled[i::4] for i in range(4)]
    players[1].taken, players[3].taken = [5, 6], [1]
    tricks.gather(stock, players)
    assert stock == [5, 6, 1] and all(p.taken == [] for p in players)
    assert [tricks.suited_name(c, "CDHS") for c in (0, 8, 9, 12, 13, 51)] == ["2C", "10C", "JC", "AC", "2D", "AS"]
