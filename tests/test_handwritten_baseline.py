"""The hand-written Initiative (benchmarks/handwritten_initiative.py), the interpreter's speed baseline.

It must end every game, keep each player's 40 cards, and take about as many decisions per game as
the interpreted Initiative with the same random agent (else the games/s ratio compares different
work).
"""

from __future__ import annotations

import random

from baselines import load_baseline, play_checked

from interpreter import load

baseline = load_baseline("initiative")


def test_baseline_ends_every_game_and_keeps_40_cards():
    rng = random.Random(11)
    results = set()
    for seed in range(300):
        game = baseline.Game(seed)

        def check(game, seed=seed):
            for p in game.players:
                assert game.cards_of(p) == 40, f"seed {seed}: P{p.seat} has {game.cards_of(p)} cards"
                assert p.health <= 20

        play_checked(game, rng, check, f"seed {seed}")
        assert 1 <= game.round <= 100
        out = [p.health <= 0 for p in game.players]
        if game.winner is None:
            assert all(out) or (game.round == 100 and not any(out))
        else:
            assert out == [game.winner == 2, game.winner == 1]
        results.add(game.winner)
        for p in game.players:
            assert game.cards_of(p) == 40
    assert {1, 2} <= results


def test_baseline_round_limit_is_a_draw():
    rng = random.Random(3)
    game = baseline.Game(5, round_limit=1)
    while not game.over:
        game.apply(rng.randrange(len(game.decision()[1])))
    assert game.round == 1
    assert game.winner is None or any(p.health <= 0 for p in game.players)


def test_baseline_decisions_per_game_match_the_interpreter():
    games = 200
    rules = load("initiative")
    rng = random.Random(1)
    interpreted = 0
    for seed in range(games):
        game = rules.new_game(seed=seed, log=False)
        while not game.is_over:
            _seat, options = game.decision()
            game.apply(rng.randrange(len(options)))
            interpreted += 1
    rng = random.Random(1)
    handwritten = 0
    for seed in range(games):
        game = baseline.Game(seed)
        while not game.over:
            _seat, options = game.decision()
            game.apply(rng.randrange(len(options)))
            handwritten += 1
    ratio = handwritten / interpreted
    assert 0.75 <= ratio <= 1.25, (
        f"{handwritten / games:.1f} decisions/game by hand, {interpreted / games:.1f} interpreted")


def test_games_per_second_is_positive():
    assert baseline.games_per_second(0.05) > 0
