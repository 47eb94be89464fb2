"""The hand-written versions of the games (benchmarks/handwritten_<game>.py), for their tests."""

from __future__ import annotations

import importlib.util
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def load_benchmark(name: str):
    """A module of benchmarks/, loaded by file path (benchmarks/ is not a package and the
    checkout need not be on sys.path)."""
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_baseline(game: str):
    """The module of a game's hand-written version."""
    return load_benchmark(f"handwritten_{game}")


def play_checked(game, rng, check, label: str, seats: tuple[int, ...] = (1, 2), min_options: int = 2) -> int:
    """Play a hand-written game to its end with the random agent, calling `check(game)` before
    each decision. Every decision names one of `seats` and offers `min_options` or more options
    (1 for games whose rules ask some decisions even with one option), the game ends within
    5000 decisions, and then offers none. Returns the number of decisions."""
    decisions = 0
    while not game.over:
        check(game)
        seat, options = game.decision()
        assert seat in seats and len(options) >= min_options, f"{label}: decision {decisions}"
        game.apply(rng.randrange(len(options)))
        decisions += 1
        assert decisions < 5000, f"{label}: the game does not end"
    assert game.decision() is None
    return decisions
