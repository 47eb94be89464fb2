"""A balance report at scale, timed on each backend: `python benchmarks/balance_scale.py [--game bases]
[--games 2000] [--agents greedy] [--workers 2] [--backends local,ray] [--out DIR] [--address A]`.

Runs, for each backend, the command a designer runs:

    cardrules simulate GAME --games N --agents A --workers K --backend B --report OUT/B --json

as a fresh process (so its time includes loading the rules and, for Ray, starting a local Ray of K
CPUs, or joining `--address`), and prints per backend: the wall time of the command, the batch's
own time (the summary's `seconds`), games/s, seconds per game per worker, the time 2,000 games
would take at that rate, and the CPU seconds the command and its local workers used (per game:
the figure to extrapolate from on a machine shared with other work, where wall time is not). The backends play the same seeds, so their summaries must agree (wins,
end reasons, mean turns): a mismatch is printed and the exit status is 1. The reports are left in
OUT/<backend> (default: a temporary folder, removed). Ray needs `pip install 'cardrules[ray]'`.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
AGREEING = ("games", "wins", "draws", "aborted", "unfinished", "end_reasons", "mean_turns", "decisions_per_game")
TARGET = 2000  # games the extrapolation is for


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def run_one(game: str, games: int, agents: str, workers: int, backend: str, seed: int, out: Path,
            address: str | None) -> tuple[float, float, dict]:
    """(wall seconds, CPU seconds, summary) of one `cardrules simulate ... --report` as its own
    process; the CPU is that of the command and of the processes it waited for (its local
    workers; not Ray's, which Ray's own daemons start)."""
    argv = ["simulate", game, "--games", str(games), "--agents", agents, "--workers", str(workers),
            "--backend", backend, "--seed", str(seed), "--report", str(out), "--json"]
    if address:
        argv += ["--address", address]
    code = "import sys; from interpreter.cli.main import main; sys.exit(main(sys.argv[1:]))"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    start, cpu = time.perf_counter(), _children_cpu()
    done = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, env=env)
    wall, cpu = time.perf_counter() - start, _children_cpu() - cpu
    if done.returncode not in (0, 1):  # (1: some game aborted or unfinished; the summary says which)
        raise SystemExit(f"{backend}: cardrules simulate exited {done.returncode}:\n{done.stderr[-2000:]}")
    return wall, cpu, json.loads(done.stdout)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="bases")
    parser.add_argument("--games", type=int, default=TARGET)
    parser.add_argument("--agents", default="greedy", help="as simulate --agents (default greedy in every seat)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--backends", default="local,ray")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--address", help="with ray: a running cluster instead of a local Ray")
    parser.add_argument("--out", help="keep the reports in OUT/<backend>")
    args = parser.parse_args(argv)
    keep = Path(args.out) if args.out else None
    scratch = tempfile.TemporaryDirectory(prefix="balance-scale-") if keep is None else None
    base = keep or Path(scratch.name)  # type: ignore[union-attr]
    base.mkdir(parents=True, exist_ok=True)
    results = []
    try:
        for backend in args.backends.split(","):
            wall, cpu, summary = run_one(args.game, args.games, args.agents, args.workers, backend, args.seed,
                                         base / backend, args.address if backend == "ray" else None)
            results.append((backend, wall, cpu, summary))
    finally:
        if scratch is not None:
            scratch.cleanup()
    print(f"{args.game}: {args.games} games, agents {args.agents}, {args.workers} workers, seed {args.seed}"
          f" (on {os.cpu_count()} CPUs)")
    print(f"{'backend':8} {'wall s':>8} {'batch s':>8} {'games/s':>8} {'s/game/worker':>14} "
          f"{f'{TARGET} games':>12} {'CPU s':>8} {'CPU s/game':>10}")
    for backend, wall, cpu, summary in results:
        rate = summary["games"] / summary["seconds"]
        per_game = args.workers / rate
        projected = wall - summary["seconds"] + TARGET / rate
        print(f"{backend:8} {wall:8.1f} {summary['seconds']:8.1f} {rate:8.2f} {per_game:14.2f} "
              f"{projected / 60:10.1f} m {cpu:8.1f} {cpu / summary['games']:10.3f}")
    first = {k: results[0][3][k] for k in AGREEING}
    mismatched = [backend for backend, _, _, summary in results[1:] if {k: summary[k] for k in AGREEING} != first]
    print(f"summaries: {'the same on every backend' if not mismatched else 'DIFFER on ' + ', '.join(mismatched)}"
          f" (wins {first['wins']}, mean turns {first['mean_turns']})")
    if keep is not None:
        print(f"reports: {', '.join(str(keep / b / 'index.html') for b, _, _, _ in results)}")
    return 1 if mismatched else 0


if __name__ == "__main__":
    sys.exit(main())
