"""The hand-written Spades (benchmarks/handwritten_spades.py), the interpreter's speed baseline.

It must end every game, keep the 52 cards (each once), offer exactly the decisions of
docs/games/spades.md ("Decisions": a bid is nil to 13; a play is every legal card, in hand order;
blind nil, with its option, yes or no before the deal), and play the very same games as the
interpreter from the same seed and the same agent: same seats, same options, same winners.

Decisions per game: a deal asks 4 bids (fewer with blind nils) and plays exactly 52 cards (a card
that is the only legal one is played unasked, counted in `forced`).
"""

from __future__ import annotations

import random

from baselines import load_baseline, play_checked
from playout import played_decisions

from interpreter import load

baseline = load_baseline("spades")
RULES = load("spades")
ALL_CARDS = list(range(52))


def test_card_names_and_the_card_set_are_the_rulesets():
    assert [baseline.card_name(c) for c in (0, 12, 13, 38, 39, 51)] == ["2C", "AC", "2D", "AH", "2S", "AS"]
    names = RULES.new_game(seed=0, log=False).state.card_names()
    assert names == [baseline.card_name(c) for c in ALL_CARDS]
    assert RULES.options == {"target": baseline.TARGET, "lose_at": baseline.LOSE_AT, "blind_nil": False,
                             "deal_limit": None}


def test_every_game_ends_keeps_the_cards_and_scores_the_teams():
    rng = random.Random(11)
    results = set()
    for seed in range(200):
        game = baseline.Game(seed)

        def check(game, seed=seed):
            assert sorted(game.cards()) == ALL_CARDS, f"seed {seed}: cards lost or doubled"
            assert all(0 <= t.bags < 10 for t in game.teams)

        decisions = play_checked(game, rng, check, f"seed {seed}", seats=(1, 2, 3, 4), min_options=2)
        assert sorted(game.cards()) == ALL_CARDS
        assert decisions + game.forced == (52 + 4) * game.deal, f"seed {seed}"
        a, b = (t.points for t in game.teams)
        assert a != b and (max(a, b) >= 500 or min(a, b) <= -200), f"seed {seed}: {a} {b}"
        assert game.winners == ((1, 3) if a > b else (2, 4))
        results.add(game.winners)
    assert results == {(1, 3), (2, 4)}


def _interpreted(rules, seed: int, agent) -> tuple[list, tuple]:
    game = rules.new_game(seed=seed, log=False)
    decisions = played_decisions(game, agent)
    r = game.result
    return decisions, (r.winners, r.draw, game.state.globals["deal"])


def _handwritten(seed: int, agent, **options) -> tuple[list, tuple]:
    game = baseline.Game(seed, **options)
    decisions = []
    while not game.over:
        seat, options_ = game.decision()
        index = agent(len(options_))
        decisions.append((seat, len(options_), index))
        game.apply(index)
    return decisions, (game.winners, game.winners == (), game.deal)


def test_same_games_as_the_interpreter():
    rng_i, rng_h = random.Random(5), random.Random(5)
    for seed in range(60):
        assert _handwritten(seed, rng_h.randrange) == _interpreted(RULES, seed, rng_i.randrange), f"seed {seed}"


def test_same_games_with_every_option():
    options = {"target": 150, "lose_at": None, "blind_nil": True, "deal_limit": 4}
    rules = load("spades", options)
    draws = 0
    for seed in range(40):
        agent_i, agent_h = random.Random(seed).randrange, random.Random(seed).randrange
        interpreted = _interpreted(rules, seed, agent_i)
        assert _handwritten(seed, agent_h, **options) == interpreted, f"seed {seed}"
        draws += interpreted[1][1]
    assert draws < 40


def _label(step: str, option) -> str:
    """An option of the hand-written game as the interpreter labels it."""
    if step == "blind":
        return "yes" if option else "no"
    if step == "bid":
        return "nil" if option == 0 else str(option)
    return baseline.card_name(option)


def test_same_options_as_the_interpreter():
    rng = random.Random(7)
    blind = {"blind_nil": True}
    for seed, rules, options in [(s, RULES, {}) for s in range(1000, 1008)] + \
            [(s, load("spades", blind), blind) for s in range(1008, 1012)]:
        game = rules.new_game(seed=seed, log=False)
        mine = baseline.Game(seed, **options)
        while not game.is_over:
            seat, options = game.decision()
            my_seat, my_options = mine.decision()
            assert (my_seat, [_label(mine.step, o) for o in my_options]) == (seat, [o.label for o in options]), \
                f"seed {seed}"
            index = rng.randrange(len(options))
            game.apply(index)
            mine.apply(index)
        assert mine.over and mine.winners == game.result.winners


def test_games_per_second_is_positive():
    assert baseline.games_per_second(0.05) > 0
