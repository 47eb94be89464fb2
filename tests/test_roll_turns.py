"""A game played out fast from a position (a copy a search plays out) goes on in the turns' rollout
form from the start of its next turn (`GameState.roll_turns`, `Compiler.turns_rollout`): the same
game, decision for decision, as played out without `fast`, in every shipped game."""

from __future__ import annotations

import random

import pytest
from playout import random_position

from interpreter import load
from interpreter.paths import shipped_games

GAMES = sorted(shipped_games())


def _played(game, fast: bool):
    rng = random.Random(7)
    game.play_out(lambda g: rng.randrange(len(g.decision()[1])), fast=fast)
    return game.log, game.result


@pytest.mark.parametrize("name", GAMES)
def test_a_position_played_out_fast_switches_to_the_rollout_form_and_plays_the_same_game(name, monkeypatch):
    rules = load(name)
    rules.program.compiler.compile_rollout()
    compiler = rules.program.compiler
    calls = []
    turns = compiler.turns_rollout

    def counted(g, f):
        calls.append(f)
        return turns(g, f)

    monkeypatch.setattr(compiler, "turns_rollout", counted)
    for seed in (1, 2):
        position = random_position(rules, seed, 12)
        if position.is_over:
            continue
        before = len(calls)
        fast = _played(position.clone(), fast=True)
        assert len(calls) <= before + 1  # (at most once: the turns then run to the end in that form,
        # unless the game ends before its next turn)
        assert fast == _played(position.clone(), fast=False)
    assert calls


def test_a_game_stepped_or_played_out_without_fast_never_switches():
    rules = load("lanes")
    game = random_position(rules, 3, 10)
    called = []
    rules.program.compiler.compile_rollout()
    original = rules.program.compiler.turns_rollout
    try:
        rules.program.compiler.turns_rollout = lambda g, f: called.append(f)
        _played(game, fast=False)
    finally:
        rules.program.compiler.turns_rollout = original
    assert not called and game.is_over
