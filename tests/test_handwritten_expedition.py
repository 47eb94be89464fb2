"""The hand-written Expedition (benchmarks/handwritten_expedition.py), the interpreter's speed
baseline.

It must end every game with one crew result, keep the 76 cards (each once), offer exactly the
decisions of docs/games/expedition.md ("Decisions": a task of the offer; a signal, each card with a
true claim then "no signal"; a play, every legal card in hand order), and play the very same games
as the interpreter from the same seed and the same agent: same seats, same options, same results,
for 3, 4 and 5 players and any mission.
"""

from __future__ import annotations

import random

from baselines import load_baseline, play_checked
from playout import played_decisions

from interpreter import load

baseline = load_baseline("expedition")
RULES = load("expedition")
ALL_CARDS = list(range(76))


def test_card_names_and_the_card_set_are_the_rulesets():
    assert [baseline.card_name(c) for c in (0, 8, 9, 35, 36, 39, 40, 75)] == \
        ["R1", "R9", "Y1", "B9", "F1", "F4", "Win red 1", "Win blue 9"]
    names = RULES.new_game(seed=0, log=False).state.card_names()
    assert names == [baseline.card_name(c) for c in ALL_CARDS]
    assert RULES.options == {"players": baseline.PLAYERS, "mission": baseline.MISSION}


def test_every_game_ends_keeps_the_cards_and_shares_the_result():
    rng = random.Random(11)
    reasons = set()
    for seed in range(300):
        players, mission = 3 + seed % 3, 1 + seed % 10
        game = baseline.Game(seed, players, mission)
        seats = tuple(range(1, players + 1))

        def check(game, seed=seed):
            assert sorted(game.cards()) == ALL_CARDS, f"seed {seed}: cards lost or doubled"

        play_checked(game, rng, check, f"seed {seed}", seats=seats, min_options=2)
        assert sorted(game.cards()) == ALL_CARDS
        assert game.box == ([36] if players == 3 else [])
        if game.winners:
            assert game.winners == seats and game.completed == mission
        else:
            assert game.losers == seats and game.completed < mission
        reasons.add(game.reason)
    assert reasons == {"every task is met", "a task failed"}


def _interpreted(rules, seed: int, agent) -> tuple[list, tuple]:
    game = rules.new_game(seed=seed, log=False)
    decisions = played_decisions(game, agent)
    r = game.result
    return decisions, (r.winners, r.losers, r.reason, r.scores, game.state.globals["trick"])


def _handwritten(seed: int, agent, **options) -> tuple[list, tuple]:
    game = baseline.Game(seed, **options)
    decisions = []
    while not game.over:
        seat, options_ = game.decision()
        index = agent(len(options_))
        decisions.append((seat, len(options_), index))
        game.apply(index)
    scores = (game.completed,) * len(game.players)
    return decisions, (game.winners, game.losers, game.reason, scores, game.trick)


def test_same_games_as_the_interpreter():
    rng_i, rng_h = random.Random(5), random.Random(5)
    for seed in range(100):
        assert _handwritten(seed, rng_h.randrange) == _interpreted(RULES, seed, rng_i.randrange), f"seed {seed}"


def test_same_games_with_every_player_count_and_mission():
    wins = 0
    for players, mission in ((3, 1), (3, 5), (5, 1), (5, 10), (4, 3)):
        rules = load("expedition", {"players": players, "mission": mission})
        for seed in range(25):
            agent_i, agent_h = random.Random(seed).randrange, random.Random(seed).randrange
            interpreted = _interpreted(rules, seed, agent_i)
            assert _handwritten(seed, agent_h, players=players, mission=mission) == interpreted, \
                f"{players} players, mission {mission}, seed {seed}"
            wins += bool(interpreted[1][0])
    assert wins > 0


def _label(game, option) -> str:
    """An option of the hand-written game as the interpreter labels it."""
    if game.step == "signal":
        if option == baseline.PASS:
            return "no signal"
        seat = game.decision()[0]
        claim = baseline.claim_of(game.players[seat - 1].hand, option)
        return f"{baseline.card_name(option)}: {claim} {baseline.SUIT_NAMES[option // 9]}"
    return baseline.card_name(option)


def test_same_options_as_the_interpreter():
    rng = random.Random(7)
    for seed in range(1000, 1030):
        options = {"players": 3 + seed % 3, "mission": 1 + seed % 6}
        game = load("expedition", options).new_game(seed=seed, log=False)
        mine = baseline.Game(seed, **options)
        while not game.is_over:
            seat, offered = game.decision()
            my_seat, my_options = mine.decision()
            assert (my_seat, [_label(mine, o) for o in my_options]) == (seat, [o.label for o in offered]), \
                f"seed {seed}"
            index = rng.randrange(len(offered))
            game.apply(index)
            mine.apply(index)
        assert mine.over and (mine.winners, mine.losers) == (game.result.winners, game.result.losers)


def test_games_per_second_is_positive():
    assert baseline.games_per_second(0.05) > 0
