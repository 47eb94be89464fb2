"""The hand-written Lanes (benchmarks/handwritten_lanes.py), the interpreter's speed baseline.

It must use the card set of cards/lanes and the default options of rulesets/lanes/lanes.yaml, end
every game, keep each player's 8 drafted cards and keep, and play the very same games as the
interpreted Lanes with the same seed and the same agent (else the games/s ratio compares different
work): same seats, same options (counted and labelled), same winner, same number of turns.
"""

from __future__ import annotations

import random

from baselines import load_baseline, play_checked
from playout import played_decisions

from interpreter import load

baseline = load_baseline("lanes")
RULES = load("lanes")

KEYWORD_BITS = {
    "aerial": baseline.AERIAL, "aim": baseline.AIM, "aquatic": baseline.AQUATIC, "berserk": baseline.BERSERK,
    "catalyst": baseline.CATALYST, "focus": baseline.FOCUS, "perforation": baseline.PERFORATION,
    "rage": baseline.RAGE, "splash": baseline.SPLASH, "sprint": baseline.SPRINT,
    "demolisher": baseline.DEMOLISHER, "armed": baseline.ARMED, "indestructible": baseline.INDESTRUCTIBLE,
    "protection": baseline.PROTECTION,
}
TYPES = {"creature": baseline.CREATURE, "building": baseline.BUILDING, "incantation": baseline.INCANTATION}


def _interpreted(rules, seed: int, agent) -> tuple[list, tuple]:
    game = rules.new_game(seed=seed, log=False)
    decisions = played_decisions(game, agent)
    return decisions, (game.result.winner, game.result.turns)


def _handwritten(seed: int, agent, **kwargs) -> tuple[list, tuple]:
    game = baseline.Game(seed, **kwargs)
    decisions = []
    while not game.over:
        seat, options = game.decision()
        index = agent(len(options))
        decisions.append((seat, len(options), index))
        game.apply(index)
    return decisions, (game.winner, game.turn)


def test_defaults_and_card_set_are_the_rulesets():
    assert RULES.options == {"draft": "picks", "protection": "per_turn", "incantation_timing": "summon",
                             "turn_limit": baseline.TURN_LIMIT}
    names = RULES.new_game(seed=0, log=False).state.card_names()
    assert names == baseline.NAMES
    for name, (_, kind, cost, attack, health, keywords, aura) in zip(names, baseline.CARDS):
        d = RULES.card_defs[name]
        state = d.initial
        assert TYPES[d.type] == kind, name
        assert state["cost"] == cost, name
        if kind != baseline.INCANTATION:
            assert (state["attack"], state["health"]) == (attack, health), name
        printed = 0
        granted = 0
        for keyword, args in d.keywords:
            if keyword == "aura":
                granted |= KEYWORD_BITS[args[0]]
            else:
                printed |= KEYWORD_BITS[keyword]
        assert (printed, granted) == (keywords, aura), name


def _check_state(game, seed: int) -> None:
    """Every drafted card and keep in exactly one place, as its fields say; nothing half done."""
    drafted = []
    for p in game.players:
        assert game.cards_of(p) == 9, f"seed {seed}: P{p.seat} has {game.cards_of(p)} cards"
        assert p.hand.count(p.keep) == 1 and p.hand[-1] is not p.keep, f"seed {seed}: keep {p.hand}"
        for c in p.hand:
            assert c.where == baseline.HAND and c.owner is p and c.damage == 0
        for row, side in enumerate(p.lanes):
            for c in side:
                assert c.where == baseline.LANE and c.side is side and c.row == row and c.owner is p
                assert 0 <= c.damage < c.health, f"seed {seed}: {c} should have been destroyed"
        if p.casting is not None:
            assert p.casting.where == baseline.CASTING and p.casting.type == baseline.INCANTATION
        drafted += [c for c in p.hand + p.lanes[0] + p.lanes[1] + [p.casting] if c is not None]
    assert len({id(c) for c in drafted}) == 18
    kinds = [c.kind for c in drafted if c.kind >= 0] + game.pile
    assert sorted(kinds) == list(range(len(baseline.CARDS)))


def test_every_game_ends_and_keeps_the_cards():
    rng = random.Random(11)
    results = set()
    for seed in range(300):
        game = baseline.Game(seed)

        def check(game, seed=seed):
            if game.turn:
                _check_state(game, seed)

        play_checked(game, rng, check, f"seed {seed}")
        assert 1 <= game.turn <= baseline.TURN_LIMIT + 1
        if game.winner is None:
            assert game.turn == baseline.TURN_LIMIT + 1
        else:
            loser = game.players[2 - game.winner]
            assert loser.keep.fort and loser.hand[-1] is loser.keep, f"seed {seed}"
        results.add(game.winner)
    assert results == {1, 2}


def test_same_games_as_the_interpreter():
    games = 100
    rng_i, rng_h = random.Random(5), random.Random(5)
    total = 0
    for seed in range(games):
        interpreted = _interpreted(RULES, seed, rng_i.randrange)
        handwritten = _handwritten(seed, rng_h.randrange)
        assert handwritten == interpreted, f"seed {seed}"
        total += len(interpreted[0])
    assert total / games > 30


def _label(value) -> str:
    if value == "done":
        return "end the phase"
    if isinstance(value, tuple):
        return " + ".join(map(repr, value))
    return value if isinstance(value, str) else repr(value)


def test_same_options_as_the_interpreter():
    rng = random.Random(7)
    for seed in range(1000, 1030):
        game = RULES.new_game(seed=seed, log=False)
        mine = baseline.Game(seed)
        while not game.is_over:
            seat, options = game.decision()
            my_seat, my_options = mine.decision()
            assert (my_seat, [_label(o) for o in my_options]) == (seat, [o.label for o in options]), f"seed {seed}"
            index = rng.randrange(len(options))
            game.apply(index)
            mine.apply(index)
        assert mine.over and (mine.winner, mine.turn) == (game.result.winner, game.result.turns)


def test_turn_limit_draws_as_the_interpreter():
    limit = 6
    rules = load("lanes", {"turn_limit": limit})

    def passive(rng):  # mostly the last option ("done" in the summon): long games
        return lambda n: n - 1 if rng.random() < 0.8 else rng.randrange(n)

    draws = 0
    for seed in range(40):
        interpreted = _interpreted(rules, seed, passive(random.Random(seed)))
        handwritten = _handwritten(seed, passive(random.Random(seed)), turn_limit=limit)
        assert handwritten == interpreted, f"seed {seed}"
        draws += interpreted[1] == (None, limit + 1)
    assert draws > 0


def test_games_per_second_is_positive():
    assert baseline.games_per_second(0.05) > 0
