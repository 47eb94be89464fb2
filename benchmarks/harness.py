"""What the hand-written baselines (benchmarks/handwritten_<game>.py) share: random games with a
game class, timed, and the command line that prints their median games/s. The class needs
`Game(seed)`, `decision()` -> (seat, options), `apply(index)`, `over`, `winner`, and an attribute
counting the game's length (`turn` or `round`).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path


class GeneratorDriven:
    """A game whose decision points are one generator, its `_play()`: `decision()` gives the
    (seat, options) it yielded last, `apply(index)` sends the index back in."""

    __slots__ = ("_flow", "pending")

    def start(self) -> None:
        self._flow = self._play()
        self.pending = next(self._flow)

    def _play(self):
        raise NotImplementedError

    def decision(self) -> tuple[int, list] | None:
        """The seat that decides now and its options (None once the game is over)."""
        return self.pending

    def apply(self, index: int) -> None:
        try:
            self.pending = self._flow.send(index)
        except StopIteration:
            self.pending = None


def play(game_class, seed: int, rng: random.Random) -> tuple:
    """One game with the random agent: the finished game and its number of decisions."""
    game = game_class(seed)
    decisions = 0
    while not game.over:
        _seat, options = game.decision()
        game.apply(rng.randrange(len(options)))
        decisions += 1
    return game, decisions


def measure(game_class, seconds: float, seed: int = 1, length: str = "turn") -> dict:
    """Random games for `seconds` of CPU time: games/s and the totals behind the means (`length`: the
    attribute that counts a game's turns or rounds)."""
    rng = random.Random(seed)
    games = decisions = lengths = 0
    results: Counter = Counter()
    start = time.process_time()  # (CPU time: wall time on a shared machine swings several-fold)
    while time.process_time() - start < seconds:
        game, n = play(game_class, seed + games, rng)
        decisions += n
        lengths += getattr(game, length)
        results[game.winner] += 1
        games += 1
    elapsed = time.process_time() - start
    return {"games_per_s": games / elapsed, "games": games, "decisions": decisions, length + "s": lengths,
            "results": results}


def handwritten_module(name: str):
    """The hand-written Python version of a shipped game (benchmarks/handwritten_<name>.py), or
    None where there is none."""
    path = Path(__file__).resolve().parent / f"handwritten_{name}.py"
    if not path.exists():
        return None
    spec = importlib.util.spec_from_file_location(f"handwritten_{name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def pin_one_core() -> str:
    try:
        os.sched_setaffinity(0, {0})
        return "pinned to CPU 0"
    except (AttributeError, OSError):
        return "not pinned"


def main(name: str, game_class, description: str, length: str = "turn", argv: list[str] | None = None) -> int:
    """`python benchmarks/handwritten_<name>.py [--seconds 3] [--runs 5] [--seed 1]`."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--seconds", type=float, default=3.0, help="length of one timed run")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    pinned = pin_one_core()
    runs = [measure(game_class, args.seconds, args.seed + 100_000 * run, length) for run in range(args.runs)]
    gps = [r["games_per_s"] for r in runs]
    games = sum(r["games"] for r in runs)
    results: Counter = Counter()
    for r in runs:
        results.update(r["results"])
    print(f"handwritten {name}: {statistics.median(gps):.1f} games/s (median of {args.runs}; runs "
          f"{[round(x, 1) for x in gps]})")
    seats = range(1, max([2, *(seat for seat in results if seat is not None)]) + 1)
    won = ", ".join(f"P{seat} won {results[seat]}" for seat in seats)
    print(f"  {games} games: {sum(r['decisions'] for r in runs) / games:.2f} decisions/game, "
          f"{sum(r[length + 's'] for r in runs) / games:.2f} {length}s/game; {won}, draws {results[None]}")
    print(f"python {sys.version.split()[0]}, {pinned}")
    return 0
