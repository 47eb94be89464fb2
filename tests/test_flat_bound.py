"""benchmarks/flat_bound.py (Hearts as a flat back end would run it) plays the very games of the
hand-written version, so that their speeds compare: the same seed gives the same decisions, each
with the same options in the same order, and the same result."""

from __future__ import annotations

import random

import pytest
from baselines import load_benchmark

flat = load_benchmark("flat_bound")
plain = flat.plain


@pytest.mark.parametrize("seed", range(5))
def test_it_plays_the_hand_written_versions_games(seed, monkeypatch):
    asked = []
    original = flat.ask

    def recording(s, values, seat):
        asked.append((seat, [card.id for card in values]))
        return original(s, values, seat)

    monkeypatch.setattr(flat, "ask", recording)
    rng = random.Random(seed)
    answers: list[int] = []

    def choose(_seat, n):
        answers.append(rng.randrange(n))
        return answers[-1]

    ours = flat.play_out(seed, choose)
    theirs = plain.Game(seed)
    offered = iter(asked)
    taken = iter(answers)
    while not theirs.over:
        seat, options = next(offered)
        while len(options) < 2:  # (taken without asking, as the hand-written version does too)
            seat, options = next(offered)
        assert theirs.decision() == (seat, options)
        theirs.apply(next(taken))
    assert next(taken, None) is None and ours.over
    assert (ours.winner, ours.g[flat.DEAL]) == (theirs.winner, theirs.deal)
    assert ours.score[1:] == [p.score for p in theirs.players]
