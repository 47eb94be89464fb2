"""Random Harvest games (docs/games/harvest.md; hypothesis-chosen seeds and player counts) with every
generic invariant (tests/helpers/playout.py) and Harvest's own checked after every decision."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from playout import examples, played_out_log, playout, replay_log

from interpreter import load

RULES = {n: load("harvest", {"players": n}) for n in (2, 3, 4)}
PER_PLAYER = ("deck", "hand", "play", "discard")


def points(game, seat: int) -> int:
    return sum(game.read(c, "points") for zone in PER_PLAYER for c in game.state.zones[(zone, seat, "")])


def harvest_invariants(game) -> None:
    players = len(game.players)
    # D-1.2, D-1.3, D-2.5: after set-up no card leaves the game: the copies left in the piles and the
    # cards in players' zones and the trash add up to what the piles held and the starting decks
    # (piles 276 in all; Copper less 7 for each player, victory piles less 12 for two players,
    # Curses less 10 for each player short of four; 10 starting cards each)
    supply = game.state.zones[("supply", 0, "")]
    expected = 276 - 7 * players - (12 if players == 2 else 0) - 10 * (4 - players) + 10 * players
    assert sum(game.read(c, "left") for c in supply) + len(game.state.cards) - len(supply) == expected
    assert len(supply) == 15
    for p in game.players:
        assert game.read(p, "coins") >= 0 and game.read(p, "buys") >= 0
        # D-2.3: a player not on turn holds the 5 cards drawn at clean-up (fewer only if out of cards)
        if p != game.state.globals["active"]:
            owned = sum(len(game.state.zones[(zone, p.seat, "")]) for zone in ("deck", "discard"))
            assert len(game.state.zones[("hand", p.seat, "")]) == 5 or owned == 0
            assert not game.state.zones[("play", p.seat, "")]


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1), agent_seed=st.integers(0, 2**31 - 1), players=st.sampled_from([2, 3, 4]))
def test_random_games_keep_invariants_and_end(seed, agent_seed, players):
    rules = RULES[players]
    game, choices = playout(rules, seed, agent_seed, harvest_invariants)
    result = game.result
    scores = [points(game, p.seat) for p in game.players]
    # D-3.2: the winner has the most points
    if result.winner is not None:
        assert scores[result.winner - 1] == max(scores)
    assert replay_log(rules, seed, choices) == game.log
    assert played_out_log(rules, seed, choices) == game.log == played_out_log(rules, seed, choices, fast=True)
