"""The public `Game` (engine/game.py): twenty-two members over the engine's state, the same game
through either, copies and play-outs that stay on the public side, a clear word for a member
that moved to the state."""

from __future__ import annotations

import random

import pytest

from interpreter import load, load_game_json
from interpreter.engine.game import PUBLIC, Game
from interpreter.engine.state import GameState

RULES = load("initiative")


def test_the_api_is_twenty_two_members():
    assert PUBLIC == ("apply", "clone", "decision", "determinize", "is_over", "log", "log_length", "log_since",
                      "observation", "observation_encoder", "pending", "perform", "play_out", "players", "prompt",
                      "read", "result", "rules", "seed", "state", "to_json", "visible")
    assert Game.__slots__ == ("state",)  # (nothing else can be set on it)


def test_every_way_to_a_game_gives_the_public_one():
    game = RULES.new_game(seed=3)
    assert type(game) is Game and type(game.state) is GameState
    assert type(game.clone()) is Game and type(game.determinize(1, random.Random(1))) is Game
    assert type(load_game_json(game.to_json(), RULES)) is Game
    assert type(RULES.play_out(lambda g: 0, seed=3)) is Game


def test_play_out_gives_the_public_game_to_decide():
    seen = set()

    def decide(game):
        seen.add(type(game))
        return 0

    RULES.new_game(seed=1).play_out(decide)
    RULES.new_game(seed=1).play_out(decide, fast=True)
    RULES.play_out(decide, seed=1)
    assert seen == {Game}


def test_the_same_game_through_the_facade_and_the_state():
    game, state = RULES.new_game(seed=5), RULES.new_game(seed=5).state
    while not game.is_over:
        assert game.decision()[0] == state.decision()[0] and game.prompt == state.prompt
        assert game.observation(1) == state.observation(1)
        game.apply(0)
        state.apply(0)
    assert game.log == state.log and game.result == state.result and game.log_length == len(state.log_entries)


def test_a_member_of_the_state_is_named_where_it_went():
    game = RULES.new_game(seed=1)
    with pytest.raises(AttributeError, match=r"'Game' has no attribute 'zones': .*`game\.state\.zones`"):
        game.zones  # noqa: B018
    with pytest.raises(AttributeError, match=r"^'Game' has no attribute 'nonsense'$"):
        game.nonsense  # noqa: B018
    with pytest.raises(AttributeError):
        game.zones = {}
