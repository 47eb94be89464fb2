"""The observation vector read straight from the state (engine/encode.py, through
`ObservationEncoding.encode_state_into`, which the adapters use) is, bit for bit, the encoding of
the player's observation dict (`encode_from_observation(game.observation(seat))`, the reference):
over seeded random games of every shipped game and every test ruleset, at every decision, for
every seat, with the decider's choice in progress and a count of fresh events; and the keys of the
events a seat witnessed (what `fresh_count` aligns) are those of its observation's `seen`. So the
state reader applies exactly observe.py's visibility rules (the leak tests in
tests/test_envs_actions.py and tests/test_envs_pettingzoo.py check the vector against determinized
copies on top)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter import load
from interpreter.envs import ObservationEncoding
from interpreter.envs.encoding import event_key
from interpreter.paths import shipped_games

DATA = Path(__file__).resolve().parent / "data"
TEST_RULESETS = sorted(p.name for p in DATA.iterdir() if (p / f"{p.name}.yaml").is_file())
OPTIONS = {"rounds": {"ask": True}}  # (without it the test game asks nothing)
GAMES = (*shipped_games(), *TEST_RULESETS)
SEEDS = 2
MOST = 250  # decisions a game


def _rules(name: str):
    if name in TEST_RULESETS:
        return load(DATA / name / f"{name}.yaml", OPTIONS.get(name))
    return load(name)


def _choosing(rng: random.Random, options) -> tuple:
    """What the decider may have taken so far: a part of one option's value (cards, players,
    values), or the whole of a single value."""
    value = options[rng.randrange(len(options))].value
    if isinstance(value, (list, tuple)):
        return tuple(value[:rng.randrange(len(value) + 1)])
    return (value,) if rng.random() < 0.5 else ()


def _compare(encoding: ObservationEncoding, game, seat: int, choosing: tuple, fresh: int | None, where: str) -> int:
    observation = game.observation(seat)
    expected = encoding.encode_from_observation(observation, choosing, fresh)
    got = encoding.encode_game(game, seat, choosing, fresh)
    differ = [(i, expected[i], got[i], encoding.labels[i]) for i in range(encoding.size) if expected[i] != got[i]]
    assert differ == [], f"{where}, seat {seat}: the state-read vector differs from the observation's: {differ[:5]}"
    assert encoding.window(game, seat) == [event_key(e) for e in observation["seen"]], f"{where}, seat {seat}"
    return sum(1 for x in got if x)


def test_every_shipped_game_and_test_ruleset_is_checked():
    assert {"initiative", "lanes", "bases", "hearts", "harvest", "spades", "expedition"} <= set(GAMES)
    assert len(TEST_RULESETS) >= 12


@pytest.mark.parametrize("name", GAMES)
def test_the_state_read_vector_is_the_encoding_of_the_observation(name):
    rules = _rules(name)
    encoding = ObservationEncoding(rules)
    seats = range(1, rules.player_count + 1)
    compared = written = 0
    for seed in range(SEEDS):
        game = rules.new_game(seed=seed, log=False)
        rng = random.Random(seed)
        decisions = 0
        while not game.is_over and decisions < MOST:
            decider, options = game.decision()
            for seat in seats:
                choosing = _choosing(rng, options) if seat == decider else ()
                fresh = None if decisions % 3 == 0 else rng.randrange(4)
                written += _compare(encoding, game, seat, choosing, fresh, f"{name} seed {seed} decision {decisions}")
                compared += 1
            game.apply(rng.randrange(len(options)))
            decisions += 1
        for seat in seats:  # (the end: the result, the last events)
            written += _compare(encoding, game, seat, (), None, f"{name} seed {seed} at the end")
            compared += 1
    assert compared >= SEEDS * rules.player_count and written > 0


@pytest.mark.parametrize("name", ["lanes", "bases"])
def test_a_temporary_modifier_is_read_as_the_observation_shows_it(name):
    """Attributes changed by static abilities or temporary modifiers are read through the game's
    rules for them (as `observation` reads them), not as stored: states with modifiers met."""
    rules = _rules(name)
    encoding = ObservationEncoding(rules)
    met = 0
    for seed in range(20):
        game = rules.new_game(seed=seed, log=False)
        rng = random.Random(seed)
        while not game.is_over and met < 5:
            if game.state.temp_mods:
                met += 1
                for seat in range(1, rules.player_count + 1):
                    _compare(encoding, game, seat, (), None, f"{name} seed {seed}")
            game.apply(rng.randrange(len(game.decision()[1])))
        if met >= 5:
            break
    assert met >= 5, f"{name}: only {met} states with temporary modifiers met"
