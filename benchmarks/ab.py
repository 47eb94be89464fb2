"""Two versions of the code, timed against each other: `python benchmarks/ab.py GAME --before DIR
--after DIR [--rounds 8] [--games N]`.

On a shared machine a timed run of one and the same code varies by a quarter (docs/performance.md),
so that before/after figures from `run.py` runs made one after the other say little about a
change of a few percent. This alternates the two versions round by round (the order swapped
each round), each round one fresh process per version (PYTHONPATH=DIR) that plays the same N
seeded random games by `Rules.play_out`, as `run.py` does (by a decider by count, `by_count`, where
the code has it), after one game that is not timed; it
reports each version's CPU seconds (`time.process_time`), the fastest and the median round, and
the after/before speed-up of both. The fastest rounds are the ones least disturbed by other jobs.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys

_PLAY = """
import random, sys, time
from interpreter import load
rules = load(sys.argv[1])
games = int(sys.argv[2])
rng = random.Random(1)
try:  # (a decider by count, as `simulate` plays random agents, where the code has one)
    from interpreter import by_count
    decide = by_count(lambda seat, n: rng.randrange(n))
except ImportError:
    decide = lambda g: rng.randrange(len(g.decision()[1]))
rules.play_out(decide, seed=0)
start = time.process_time()
for seed in range(1, games + 1):
    rules.play_out(decide, seed=seed)
print(time.process_time() - start)
"""


def timed(directory: str, game: str, games: int) -> float:
    """CPU seconds of N games of `game` played by the code in `directory`, in a fresh process."""
    env = {**os.environ, "PYTHONPATH": os.path.abspath(directory)}
    out = subprocess.run([sys.executable, "-c", _PLAY, game, str(games)], env=env, cwd=directory,
                         capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--before", required=True, help="a checkout of the code before (its top folder)")
    parser.add_argument("--after", required=True, help="a checkout of the code after")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--games", type=int, default=100, help="seeded games per round and version")
    args = parser.parse_args(argv)
    times: dict[str, list[float]] = {"before": [], "after": []}
    for k in range(args.rounds):
        order = ("before", "after") if k % 2 == 0 else ("after", "before")
        for side in order:
            times[side].append(timed(getattr(args, side), args.game, args.games))
    b, a = times["before"], times["after"]
    print(f"{args.game}: {args.games} games a round, {args.rounds} rounds; CPU s before {sorted(round(x, 3) for x in b)}, "
          f"after {sorted(round(x, 3) for x in a)}")
    print(f"  fastest: {min(b):.3f} -> {min(a):.3f} s ({min(b) / min(a):.3f}x); "
          f"median: {statistics.median(b):.3f} -> {statistics.median(a):.3f} s "
          f"({statistics.median(b) / statistics.median(a):.3f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
