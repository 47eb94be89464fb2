"""Soak: many random games per shipped game, every generic invariant checked after every
decision, and the process's peak memory as the games go on.

    python benchmarks/soak.py [GAME ...] [--games 10000] [--workers 2] [--report 1000,10000]

Each game is `new_game(seed=S+i)` played by random decisions (`Random(S+i)`), with the checks of
tests/helpers/playout.py after set-up and after every decision: each card in exactly one zone,
declared attribute limits, nothing hidden in another player's observation, observations, options
and log entries plain JSON; every game must end within 20,000 decisions. A failure prints the
game's seed and the check, and the command exits 1. After the game counts of --report (and at
the end) it prints the games played, decisions, failures, games/s and the peak resident memory
of the process that played them (each worker's, with --workers: the largest), which must stay
flat as games go on: nothing of a finished game may be kept.
"""

from __future__ import annotations

import argparse
import multiprocessing
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "helpers"))

from playout import playout  # noqa: E402  (the invariants of the property tests)

from interpreter import load  # noqa: E402
from interpreter.paths import shipped_games  # noqa: E402

_RULES: dict = {}


def peak_rss_mb() -> float:
    """This process's peak resident memory, in MB (Linux reports kB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def play_range(task: tuple[str, int, int]) -> tuple[int, int, list[str], float]:
    """Games seed..seed+count-1 of one game: (games, decisions, failures, peak MB)."""
    name, seed, count = task
    rules = _RULES.get(name) or _RULES.setdefault(name, load(name))
    decisions = 0
    failures: list[str] = []
    for s in range(seed, seed + count):
        try:
            game, choices = playout(rules, s, s)
            decisions += len(choices)
        except (AssertionError, Exception) as err:  # (any failure is reported with its seed)
            failures.append(f"{name} seed {s}: {type(err).__name__}: {err}")
    return count, decisions, failures, peak_rss_mb()


def soak(name: str, games: int, seed: int, workers: int, report: list[int], chunk: int = 50) -> int:
    tasks = [(name, s, min(chunk, seed + games - s)) for s in range(seed, seed + games, chunk)]
    played = decisions = 0
    failures: list[str] = []
    peak = 0.0
    marks = sorted(set(report + [games]))
    start = time.perf_counter()
    pool = multiprocessing.get_context().Pool(workers) if workers > 1 else None
    results = pool.imap(play_range, tasks) if pool else map(play_range, tasks)
    try:
        for count, d, f, mb in results:
            played += count
            decisions += d
            failures.extend(f)
            peak = max(peak, mb)
            while marks and played >= marks[0]:
                elapsed = time.perf_counter() - start
                print(f"{name:11} {played:6} games  {decisions:9} decisions  {len(failures)} failures  "
                      f"{played / elapsed:7.1f} games/s  peak RSS {peak:6.1f} MB", flush=True)
                marks.pop(0)
    finally:
        if pool:
            pool.terminate()
    for line in failures[:20]:
        print("  FAIL", line)
    return 1 if failures else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="games (default: every shipped game)")
    parser.add_argument("--games", dest="count", type=int, default=10_000, metavar="N")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--report", default="1000,10000", help="game counts after which to print a line")
    args = parser.parse_args(argv)
    report = [int(x) for x in args.report.split(",") if x.strip()]
    status = 0
    for name in args.games or shipped_games():
        status |= soak(name, args.count, args.seed, args.workers, report)
    return status


if __name__ == "__main__":
    sys.exit(main())
