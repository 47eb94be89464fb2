"""Random Spades games (docs/games/spades.md; hypothesis-chosen seeds) with every generic invariant
(tests/helpers/playout.py) and Spades' own checked after every decision."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from playout import LONG, examples, played_out_log, playout, replay_log

from interpreter import load

# Random bids seldom make a contract, so random games end at the losing score (S-5.2) within a few
# deals. The long run also plays without it, to the deal limit (S-5.4), and with blind nil (S-2.4).
RULES = load("spades")
VARIANTS = [RULES, load("spades", {"lose_at": None, "deal_limit": 6 if LONG else 3, "blind_nil": True})]


def _zone(game, name: str, seat: int = 0) -> list:
    return game.state.zones[(name, seat, "")]


def _team_points(game) -> list[int]:
    return [game.state.team_attrs[i]["points"] for i in range(2)]


def spades_invariants(game) -> None:
    # S-1.2: the 52 cards, each once (zone consistency itself is a generic check)
    assert len(game.state.cards) == 52
    hands = [len(_zone(game, "hand", p.seat)) for p in game.players]
    trick = _zone(game, "trick")
    taken = [len(_zone(game, "taken", p.seat)) for p in game.players]
    # S-3.1: a trick holds at most one card per player, and the hands differ by at most that card
    assert len(trick) <= 4
    assert max(hands) - min(hands) <= 1
    # S-3.4: a taken pile is whole tricks, and counts them
    for p, n in zip(game.players, taken):
        assert n % 4 == 0 and game.read(p, "tricks") == n // 4
    # S-2.1: a bid is none or 0..13; S-4.5: bags are fewer than 10 after scoring
    assert all(game.read(p, "bid") in (None, *range(14)) for p in game.players)
    assert all(0 <= game.state.team_attrs[i]["bags"] < 10 for i in range(2))
    # S-4: every change of a score is a sum of 10 x contract (+ bags), -10 x contract, +-100 or
    # +-200 for a nil and -100 for ten bags: a team's points and bags move together modulo 10
    for i in range(2):
        attrs = game.state.team_attrs[i]
        assert (attrs["points"] - attrs["bags"]) % 10 == 0
    # S-3.2: the suit led is the first card's
    if trick:
        assert game.state.globals["led"] == game.read(trick[0], "suit")


@settings(max_examples=examples(50), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1), agent_seed=st.integers(0, 2**31 - 1), variant=st.sampled_from([0, 1]))
def test_random_games_keep_invariants_and_end(seed, agent_seed, variant):
    rules = VARIANTS[variant]
    game, choices = playout(rules, seed, agent_seed, spades_invariants)
    result = game.result
    a, b = _team_points(game)
    # S-1.1: the partners share the result, and each carries its team's score
    assert result.teams == ((1, 3), (2, 4))
    assert result.scores == (a, b, a, b)
    if result.draw:                                  # S-5.4: only at the deal limit, with equal scores
        assert a == b and rules.options["deal_limit"] is not None
    else:                                            # S-5.1 .. S-5.4: the team ahead wins
        assert a != b
        assert result.winners == ((1, 3) if a > b else (2, 4)) and result.winner is None
        assert result.losers == ((2, 4) if a > b else (1, 3))
        limit = rules.options["lose_at"]
        assert max(a, b) >= 500 or (limit is not None and min(a, b) <= limit) or \
            rules.options["deal_limit"] == game.state.globals["deal"]
    assert replay_log(rules, seed, choices) == game.log
    assert played_out_log(rules, seed, choices) == game.log == played_out_log(rules, seed, choices, fast=True)
