"""Random Initiative games (hypothesis-chosen seeds) with invariants after every decision."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from playout import cards_of, examples, played_out_log, playout, replay_log, same_json

from interpreter import load, load_game_json

RULES = load("initiative")


def initiative_invariants(game) -> None:
    for player in game.players:
        # I-1.1: 40 cards per player, conserved over deck, hand, revealed, discard and play
        assert len(cards_of(game, player.seat)) == 40
        # I-1.1: health never above 20
        assert game.read(player, "health") <= 20
    # hand size never above 5 outside a round's draw
    for player in game.players:
        assert len(game.state.zones[("hand", player.seat, "")]) <= 5


@settings(max_examples=examples(300, share=20), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1), agent_seed=st.integers(0, 2**31 - 1))
def test_random_games_keep_invariants_and_end(seed, agent_seed):
    game, choices = playout(RULES, seed, agent_seed, initiative_invariants)
    result = game.result
    assert result is not None
    assert result.turns <= RULES.options["round_limit"]
    if result.winner is not None:
        loser = RULES.player_count + 1 - result.winner
        assert game.read(game.players[loser - 1], "health") <= 0
    # the same seed and decisions give the same log ...
    assert replay_log(RULES, seed, choices) == game.log
    # ... whether the rules stop at each decision (`apply`) or not (`play_out`, in either form)
    assert played_out_log(RULES, seed, choices) == game.log == played_out_log(RULES, seed, choices, fast=True)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), cut=st.integers(0, 200))
def test_clone_and_json_continue_identically(seed, cut):
    rng = random.Random(seed)
    game = RULES.new_game(seed=seed)
    steps = 0
    while not game.is_over and steps < cut:
        game.apply(rng.randrange(len(game.decision()[1])))
        steps += 1
    twin = game.clone()
    saved = load_game_json(game.to_json(), RULES)
    assert same_json(game, twin) and same_json(game, saved)
    while not game.is_over:
        index = rng.randrange(len(game.decision()[1]))
        for g in (game, twin, saved):
            g.apply(index)
    assert twin.is_over and saved.is_over
    assert twin.log == game.log == saved.log
    assert twin.result == game.result == saved.result


def test_clone_is_independent():
    game = RULES.new_game(seed=3)
    twin = game.clone()
    before = twin.to_json()
    game.apply(0)
    assert twin.to_json() == before


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_observation_hides_the_opponents_pick_until_reveal(seed):
    game = RULES.new_game(seed=seed)
    seat, options = game.decision()
    assert seat == 1
    game.apply(0)
    picked = {c["card"] for c in []}
    obs2 = game.observation(2)
    assert "selection" not in obs2["players"][0]
    own = game.observation(1)
    assert len(own["players"][0]["selection"]) == 2
    picked = {c["card"] for c in own["players"][0]["selection"]}
    # the opponent sees P1's hand only as a count, so the picked cards appear nowhere
    assert obs2["zones"]["P1"]["hand"] == {"count": 5}
    assert not any(isinstance(v, dict) and v.get("id") in picked for v in obs2["zones"]["P2"].get("hand", []))
