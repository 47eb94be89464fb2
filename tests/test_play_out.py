"""`Game.play_out` (and `agents.play_out`): decisions answered while the rules run, the same game
as `apply` in a loop; an error or an illegal answer leaves the game waiting at that decision.
With `fast=True` (the rules in their rollout form) the game is the same again, and one that such
an error stops cannot go on. `Rules.play_out` plays a new game so from its set-up on."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest
from playout import same_json

from interpreter import load
from interpreter.agents import RandomAgent, decider, play_decision, play_out
from interpreter.errors import GameStateError, IllegalDecisionError, RuntimeRuleError

GAMES = {"initiative": load("initiative"), "lanes": load("lanes"), "bases": load("bases")}
TOY = Path(__file__).resolve().parent / "data" / "toy" / "toy.yaml"


class Interrupt(Exception):
    """What a deciding function raises in these tests."""


def _stepped(rules, seed: int, answers: list[int]):
    """The game after these answers, taken one by one with `apply`."""
    game = rules.new_game(seed=seed)
    for index in answers:
        game.apply(index)
    return game


def _agents(seed: int) -> list[RandomAgent]:
    return [RandomAgent(f"{seed}/1"), RandomAgent(f"{seed}/2")]


def _played_stepwise(rules, seed: int):
    """A game of `_agents(seed)`, one decision at a time, and its number of decisions."""
    game = rules.new_game(seed=seed)
    agents = _agents(seed)
    decisions = 0
    while not game.is_over:
        play_decision(game, agents)
        decisions += 1
    return game, decisions


def _state(game) -> dict:
    """A finished game's JSON without its frames and step count, which a fast play_out does not
    keep as `apply` does (it leaves no frames to resume)."""
    data = game.to_json()
    del data["frames"], data["steps"]
    return data


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("seed", [3, 11])
@pytest.mark.parametrize("fast", [False, True])
def test_play_out_plays_the_game_apply_plays(name, seed, fast):
    rules = GAMES[name]
    stepped, decisions = _played_stepwise(rules, seed)
    played = rules.new_game(seed=seed)
    assert play_out(played, _agents(seed), fast=fast) == decisions
    assert played.result == stepped.result
    assert played.log == stepped.log
    if fast:
        assert _state(played) == _state(stepped)
    else:
        assert same_json(played, stepped)  # (the step count included)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_fast_play_out_from_the_middle_of_a_game(name):
    """Frames waiting when it starts resume as ever; what they call runs in its rollout form."""
    rules = GAMES[name]
    rng = random.Random(4)
    answers = [rng.randrange(40) for _ in range(400)]
    stepped, played = rules.new_game(seed=4), rules.new_game(seed=4)
    for game in (stepped, played):
        for answer in answers[:15]:
            game.apply(answer % len(game.decision()[1]))
    rest = iter(answers[15:])
    played.play_out(lambda g: next(rest) % len(g.decision()[1]), fast=True)
    for answer in answers[15:]:
        if stepped.is_over:
            break
        stepped.apply(answer % len(stepped.decision()[1]))
    assert stepped.is_over and played.result == stepped.result
    assert played.log == stepped.log and _state(played) == _state(stepped)


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
    assert game.state.decide is None and not game.is_over
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
    assert copy.state.decide is None
    assert same_json(copy, _stepped(rules, 2, answers[:8]))
    for index in answers[8:]:  # played on by `apply`, the copy ends as the game did
        copy.apply(index)
    assert copy.result == game.result and copy.log == game.log


def test_play_out_cannot_run_twice_at_once_nor_after_the_end():
    game = GAMES["lanes"].new_game(seed=1)

    def decide(g):
        g.play_out(lambda _g: 0)

    with pytest.raises(GameStateError, match="already running"):
        game.play_out(decide)
    assert game.play_out(lambda g: 0) > 0 and game.is_over
    assert game.play_out(lambda g: 0) == 0


@pytest.mark.parametrize("failure", ["illegal", "raises"])
def test_a_fast_play_out_that_fails_leaves_a_game_that_cannot_go_on(failure):
    game = GAMES["bases"].new_game(seed=6)
    rng = random.Random(6)
    asked = []

    def decide(g):
        asked.append(1)
        if len(asked) == 25:
            if failure == "raises":
                raise Interrupt("stop here")
            return -1
        return rng.randrange(len(g.decision()[1]))

    with pytest.raises(IllegalDecisionError if failure == "illegal" else Interrupt):
        game.play_out(decide, fast=True)
    assert game.state.broken and not game.is_over and not game.state.rolling
    with pytest.raises(GameStateError, match="cannot go on"):
        game.decision()
    with pytest.raises(GameStateError, match="cannot go on"):
        game.apply(0)
    with pytest.raises(GameStateError, match="cannot go on"):
        game.play_out(lambda g: 0)


def test_a_game_cannot_be_copied_or_saved_while_a_fast_play_out_runs_it():
    game = GAMES["initiative"].new_game(seed=3)
    tried = []

    def decide(g):
        for attempt in (g.clone, g.to_json):
            try:
                attempt()
            except GameStateError as err:
                tried.append(str(err))
        return 0

    decisions = game.play_out(decide, fast=True)
    assert game.is_over and len(tried) == 2 * decisions  # each attempt refused, and the game went on
    assert all("while play_out(fast=True) plays it" in text for text in tried)
    assert "cannot be copied" in tried[0] and "cannot be saved" in tried[1]
    assert game.clone().result == game.result  # (once it has ended, it may)


@pytest.mark.parametrize("name", [*sorted(GAMES), "lanes-classic"])
@pytest.mark.parametrize("seed", [5, 9])
def test_rules_play_out_plays_the_game_apply_plays(name, seed):
    rules = GAMES.get(name) or load(name)
    stepped, decisions = _played_stepwise(rules, seed)
    played = rules.play_out(decider(_agents(seed)), seed=seed, log=True)
    assert played.state.answered == decisions and played.result == stepped.result
    assert played.log == stepped.log and _state(played) == _state(stepped)
    assert rules.play_out(decider(_agents(seed)), seed=seed).log == []  # (unlogged by default)


def test_rules_play_out_of_a_game_without_decisions():
    rules = load(TOY)  # (its games end after three turns, no card in hand to place)
    played = rules.play_out(lambda g: 0, seed=1, log=True)
    stepped = rules.new_game(seed=1)
    assert played.state.answered == 0 and played.result == stepped.result and played.log == stepped.log


def test_rules_play_out_raises_what_decide_raises():
    calls = []

    def decide(game):
        calls.append(game.decision()[0])
        if len(calls) == 3:
            raise Interrupt("third")
        return 0

    with pytest.raises(Interrupt, match="third"):
        GAMES["lanes"].play_out(decide, seed=2)
    assert len(calls) == 3


@pytest.mark.parametrize("setup, procedure", [("recurse_quietly(1)", "recurse_quietly"), ("recurse()", "recurse"),
                                              ("spin_emitting()", "spin_emitting")])
def test_runaway_rules_are_stopped_naming_the_procedure_either_way(tmp_path, setup, procedure):
    """Endless recursion, which the rollout form nests as Python calls, and an endless loop."""
    for f in TOY.parent.iterdir():
        shutil.copy(f, tmp_path / f.name)
    (tmp_path / "runaway.yaml").write_text(f"extends: toy.yaml\nname: runaway\nsetup: {setup}\n", encoding="utf-8")
    rules = load(tmp_path / "runaway.yaml")
    with pytest.raises(RuntimeRuleError, match=f"in procedure {procedure}"):
        rules.new_game(seed=1)
    with pytest.raises(RuntimeRuleError, match=f"in procedure {procedure}"):
        rules.play_out(lambda g: 0, seed=1)
