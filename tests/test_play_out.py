"""`Game.play_out` (and `agents.play_out`): decisions answered while the rules run, the same game
as `apply` in a loop; an error or an illegal answer leaves the game waiting at that decision."""

from __future__ import annotations

import random

import pytest
from playout import same_json

from interpreter import load
from interpreter.agents import RandomAgent, play_decision, play_out
from interpreter.errors import IllegalDecisionError

GAMES = {"initiative": load("initiative"), "lanes": load("lanes"), "bases": load("bases")}


class Interrupt(Exception):
    """What a deciding function raises in these tests."""


def _stepped(rules, seed: int, answers: list[int]):
    """The game after these answers, taken one by one with `apply`."""
    game = rules.new_game(seed=seed)
    for index in answers:
        game.apply(index)
    return game


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("seed", [3, 11])
def test_play_out_plays_the_game_apply_plays(name, seed):
    rules = GAMES[name]
    stepped = rules.new_game(seed=seed)
    agents = [RandomAgent(f"{seed}/1"), RandomAgent(f"{seed}/2")]
    decisions = 0
    while not stepped.is_over:
        play_decision(stepped, agents)
        decisions += 1
    played = rules.new_game(seed=seed)
    assert play_out(played, [RandomAgent(f"{seed}/1"), RandomAgent(f"{seed}/2")]) == decisions
    assert played.result == stepped.result
    assert played.log == stepped.log
    assert same_json(played, stepped)  # (the step count included)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_an_illegal_answer_leaves_the_game_waiting_at_that_decision(name):
    rules = GAMES[name]
    rng = random.Random(5)
    answers: list[int] = []

    def decide(game):
        if len(answers) == 12:
            return len(game.decision()[1])  # one past the last option
        answers.append(rng.randrange(len(game.decision()[1])))
        return answers[-1]

    game = rules.new_game(seed=5)
    with pytest.raises(IllegalDecisionError, match="out of range"):
        game.play_out(decide)
    assert game.decide is None and not game.is_over
    assert same_json(game, _stepped(rules, 5, answers))
    game.apply(0)  # and the game goes on from there
    assert game.log == _stepped(rules, 5, [*answers, 0]).log


def test_an_error_in_decide_is_raised_once_the_rules_have_stopped():
    rules = GAMES["bases"]
    rng = random.Random(8)
    answers: list[int] = []

    def decide(game):
        if len(answers) == 30:
            raise Interrupt("enough")
        answers.append(rng.randrange(len(game.decision()[1])))
        return answers[-1]

    game = rules.new_game(seed=8)
    with pytest.raises(Interrupt, match="enough"):
        game.play_out(decide)
    assert same_json(game, _stepped(rules, 8, answers))
    rest = random.Random(9)
    game.play_out(lambda g: rest.randrange(len(g.decision()[1])))  # a second play_out finishes it
    assert game.is_over


def test_a_copy_made_while_deciding_is_the_game_at_that_decision():
    rules = GAMES["initiative"]
    rng = random.Random(2)
    answers: list[int] = []
    copies = []

    def decide(game):
        if len(answers) == 8:
            copies.append(game.clone())
        answers.append(rng.randrange(len(game.decision()[1])))
        return answers[-1]

    game = rules.new_game(seed=2)
    assert game.play_out(decide) > 8
    copy = copies[0]
    assert copy.decide is None
    assert same_json(copy, _stepped(rules, 2, answers[:8]))
    for index in answers[8:]:  # played on by `apply`, the copy ends as the game did
        copy.apply(index)
    assert copy.result == game.result and copy.log == game.log


def test_play_out_cannot_run_twice_at_once_nor_after_the_end():
    game = GAMES["lanes"].new_game(seed=1)

    def decide(g):
        g.play_out(lambda _g: 0)

    with pytest.raises(IllegalDecisionError, match="already running"):
        game.play_out(decide)
    assert game.play_out(lambda g: 0) > 0 and game.is_over
    assert game.play_out(lambda g: 0) == 0
