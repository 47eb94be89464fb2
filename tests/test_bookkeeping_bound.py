"""benchmarks/bookkeeping_bound.py: the hand-written Hearts keeping the interpreter's bookkeeping
plays the very games of the plain hand-written version (so that the two are compared on the same
work), at every level, and the bookkeeping it keeps is right: each card's zone, its first owner,
its time stamps in the order of its moves, the events witnessed."""

from __future__ import annotations

import random

import pytest
from baselines import load_benchmark

bound = load_benchmark("bookkeeping_bound")
plain = bound.plain


def _zones(game) -> dict[int, list[int]]:
    zones = {bound.STOCK: game.stock, bound.TRICK: game.trick}
    for p in game.players:
        zones.update({bound.HAND + p.seat: p.hand, bound.PASSING + p.seat: p.passing, bound.TAKEN + p.seat: p.taken})
    return zones


@pytest.mark.parametrize("level", bound.LEVELS)
def test_each_level_plays_the_plain_versions_games(level):
    for seed in range(6):
        rng = random.Random(seed)
        ours, theirs = bound.Game(seed, level), plain.Game(seed)
        while not theirs.over:
            seat, options = ours.decision()
            their_seat, their_options = theirs.decision()
            values = options.values if level == "decisions" else options
            assert (seat, values) == (their_seat, their_options)
            index = rng.randrange(len(options))
            ours.apply(index)
            theirs.apply(index)
        assert ours.over and (ours.winner, ours.deal, ours.forced) == (theirs.winner, theirs.deal, theirs.forced)
        assert [p.score for p in ours.players] == [p.score for p in theirs.players]


def test_the_bookkeeping_kept_is_right():
    game = bound.Game(3, "decisions")
    rng = random.Random(3)
    seen_at: dict[int, tuple[int, int]] = {}  # card: (zone, stamp) when last looked at
    while not game.over:
        for zone, cards in _zones(game).items():
            for card in cards:
                assert game.where[card] == zone
                row = game.rows[card]
                assert row[bound.OWNER] in (1, 2, 3, 4) and row[bound.DEALT]
                last_zone, last_stamp = seen_at.get(card, (zone, row[bound.STAMP]))
                assert row[bound.STAMP] > last_stamp if last_zone != zone else row[bound.STAMP] >= last_stamp
                seen_at[card] = (zone, row[bound.STAMP])
        if game.step == "play" and game.trick:
            assert game.seen[0] == "played" and game.seen[1]["card"] == game.trick[-1]
        game.apply(rng.randrange(len(game.decision()[1])))
    assert sorted(game.cards()) == list(range(52))
    assert game.clock == max(row[bound.STAMP] for row in game.rows)
    plays = took = 0
    cell = game.seen
    while cell is not None:
        plays += cell[0] == "played"
        took += cell[0] == "took"
        cell = cell[3]
    assert (plays, took) == (52 * game.deal, 13 * game.deal)


def test_known_masks_name_the_holder_when_a_card_goes_to_another_player():
    assert bound.known_mask(bound.PASSING + 1, bound.HAND + 2) == 1 << 1  # P1 passed it to P2
    assert bound.known_mask(bound.HAND + 2, bound.TRICK) == 0              # played: everyone sees it
    assert bound.known_mask(bound.STOCK, bound.HAND + 3) == 0              # dealt face down: nobody saw
    assert bound.known_mask(bound.HAND + 1, bound.PASSING + 1) == 0        # set aside in P1's own zone
