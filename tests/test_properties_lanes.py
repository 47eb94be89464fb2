"""Random Lanes games (both draft options, both variants) with invariants after every decision."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from playout import cards_of, examples, played_out_log, playout, replay_log

from interpreter import load
from interpreter.lang.values import OWNER

VARIANTS = {
    ("lanes", "picks"): load("lanes", options={"draft": "picks"}),
    ("lanes", "random"): load("lanes", options={"draft": "random"}),
    ("lanes-classic", "picks"): load("lanes-classic", options={"draft": "picks"}),
    ("lanes-classic", "random"): load("lanes-classic", options={"draft": "random"}),
}


def lanes_invariants(game) -> None:
    if game.state.globals["turn"] == 0:
        return  # the draft is still on
    for player in game.players:
        seat = player.seat
        keep = game.read(player, "keep")
        # the keep stays in its owner's hand
        assert game.state.card_zone[keep.id] == ("hand", seat, "")
        # L-2: 8 drafted cards and the keep, across the hand, the lanes and an incantation resolving
        owned = [c for c in game.state.cards.values() if game.state.attrs[c.id][OWNER] is player]
        zones = {game.state.card_zone[c.id][0] for c in owned}
        assert len(owned) == 9 and zones <= {"hand", "lane", "casting"}, (len(owned), zones)
        assert game.read(player, "mana") >= 0
        # the opponent sees the hand size and the keep's slot, not the other cards
        other = game.observation(3 - seat)
        hand_view = other["zones"][f"P{seat}"]["hand"]
        hand = game.state.zones[("hand", seat, "")]
        assert hand_view["count"] == len(hand)
        assert [c["id"] for c in hand_view.get("revealed", [])] == [keep.id]
        assert hand_view["revealed"][0]["position"] == hand.index(keep) + 1
    # cards in play stand in lanes, each at one position (zone lists are contiguous by construction)
    for key, cards in game.state.zones.items():
        if key[0] == "lane":
            assert all(c.defn.type in ("creature", "building") for c in cards)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@settings(max_examples=examples(75), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1), agent_seed=st.integers(0, 2**31 - 1))
def test_random_lanes_games_keep_invariants_and_end(variant, seed, agent_seed):
    rules = VARIANTS[variant]
    game, choices = playout(rules, seed, agent_seed, lanes_invariants)
    assert game.result is not None
    assert game.result.turns <= rules.options["turn_limit"] + 1
    if game.result.winner is not None:
        loser = game.players[2 - game.result.winner]
        assert game.read(game.read(loser, "keep"), "part") == "fort"
    # the same seed and decisions give the same log ...
    assert replay_log(rules, seed, choices) == game.log
    # ... whether the rules stop at each decision (`apply`) or not (`play_out`, in either form)
    assert played_out_log(rules, seed, choices) == game.log == played_out_log(rules, seed, choices, fast=True)


def test_every_player_owns_nine_cards_after_the_draft():
    rules = VARIANTS[("lanes", "picks")]
    game = rules.new_game(seed=11)
    while game.state.globals["turn"] == 0:
        game.apply(0)
    for player in game.players:
        assert len(cards_of(game, player.seat)) == 8  # drafted cards (the keep is a token)
