"""Games per second of one batch on each backend: `python benchmarks/backends.py [--game initiative]
[--games 400] [--repeats 3] [--workers 1,2] [--results-only]`.

The same batch (seeds 0..games-1, random agents, full records as `compare` asks for them; only
results with --results-only) is played by `LocalBackend(w)` and `RayBackend(w)` for each worker
count w, each --repeats times; the medians of games/s are printed with the ratio Ray/local. Each
local run opens a new backend (its pool of w processes forked from this one, the rules already
loaded). For Ray, a local Ray of w CPUs is started once per worker count, as `--backend ray`
without an address starts one (so w tasks run at once); its start-up time is printed apart and
not counted, and so is its first batch (its worker processes starting, importing the package and
loading the rules: what one `cardrules` command pays once), whose games/s is shown as "cold".
Local and Ray runs alternate, so that other load on the machine falls on both alike. Needs Ray
(pip install 'cardrules[ray]').
"""

from __future__ import annotations

import argparse
import logging
import signal
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from interpreter.backends import BatchSpec, LocalBackend, rules_for  # noqa: E402


def games_per_second(backend, spec: BatchSpec, seeds: range) -> float:
    start = time.perf_counter()
    played = sum(1 for _outcome in backend.run(spec, seeds))
    elapsed = time.perf_counter() - start
    assert played == len(seeds), f"{played} outcomes for {len(seeds)} seeds"
    return played / elapsed


def rates(spec: BatchSpec, seeds: range, workers: int, repeats: int) -> tuple[float, float, list[float], list[float]]:
    """(Ray start-up seconds, Ray cold games/s, local games/s and Ray games/s of each repeat), on
    a local Ray of `workers` CPUs; a local run and a Ray run alternate, so that whatever else the
    machine does falls on both alike."""
    import ray

    from interpreter.backends.ray_cluster import RayBackend

    start = time.perf_counter()
    ray.init(address="local", num_cpus=workers, include_dashboard=False, log_to_driver=False,
             logging_level=logging.ERROR)
    startup = time.perf_counter() - start
    # (Ray's handler would be inherited by the local pool's forked workers, which it stops by SIGTERM)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    local: list[float] = []
    on_ray: list[float] = []
    try:
        with RayBackend(workers) as backend:  # (it uses the Ray running here and leaves it running)
            cold = games_per_second(backend, spec, seeds)
        for _ in range(repeats):
            with LocalBackend(workers) as backend:
                local.append(games_per_second(backend, spec, seeds))
            with RayBackend(workers) as backend:
                on_ray.append(games_per_second(backend, spec, seeds))
    finally:
        ray.shutdown()
    return startup, cold, local, on_ray


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="initiative")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--workers", default="1,2", help="worker counts, comma-separated")
    parser.add_argument("--results-only", action="store_true", help="bring back results, not full records")
    args = parser.parse_args(argv)
    try:
        import ray  # noqa: F401
    except ImportError:
        print("benchmarks/backends.py needs Ray: pip install 'cardrules[ray]'", file=sys.stderr)
        return 1
    spec = BatchSpec.of(args.game, records=not args.results_only)
    seeds = range(args.games)
    rules_for(spec)  # (loaded here once: no local run counts it)
    counts = [int(w) for w in args.workers.split(",")]
    rows = []
    for workers in counts:
        startup, cold, local, on_ray = rates(spec, seeds, workers, args.repeats)
        rows.append((workers, statistics.median(local), statistics.median(on_ray), cold, startup))
    what = "results" if args.results_only else "records"
    print(f"{args.game}: {args.games} games ({what}), median of {args.repeats} runs, games/s")
    print(f"{'workers':>7}  {'local':>8}  {'ray':>8}  {'ray/local':>9}  {'ray cold':>8}  {'ray start-up':>12}")
    for workers, local, ray_rate, cold, startup in rows:
        print(f"{workers:>7}  {local:>8.0f}  {ray_rate:>8.0f}  {ray_rate / local:>9.2f}  {cold:>8.0f}  "
              f"{startup:>11.1f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
