"""Cold against warm loading, side by side: `python benchmarks/load_cache.py [GAME ...] [--runs 5] [--json]`.

For each shipped ruleset (games and variants), in fresh processes:

- load: the CPU time of `load(GAME)` in a new process (the import of cardrules, the same cold or
  warm, is not counted), with an empty disk cache (cold) and then with the cache that run left (warm);
- validate: the CPU time of the whole `cardrules validate rulesets/<game>/<file>.yaml` process
  (its import included), cold and warm the same way.

Each cold run gets a new empty cache folder; the warm run after it uses that folder. The figures
are the medians of --runs such pairs, cold and warm runs interleaved, and the ratio warm / cold.
Children run with bytecode writing on (PYTHONDONTWRITEBYTECODE removed) after one untimed import,
so the import costs what it costs a user.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from interpreter.paths import shipped_rulesets  # noqa: E402

LOAD = ("import sys, time\n"
        "from interpreter import load\n"
        "start = time.process_time()\n"
        "load(sys.argv[1])\n"
        "print(time.process_time() - start)\n")


def _env(cache: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "CARDRULES_NO_CACHE")}
    env["CARDRULES_CACHE_DIR"] = cache
    return env


def load_cpu(game: str, cache: str) -> float:
    out = subprocess.run([sys.executable, "-c", LOAD, game], env=_env(cache), cwd=ROOT,
                         capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def validate_cpu(path: Path, cache: str) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, "-m", "interpreter.cli.main", "validate", str(path.relative_to(ROOT))],
                          env=_env(cache), cwd=ROOT, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"validate {path} failed:\n{done.stdout}{done.stderr}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(game: str, path: Path, runs: int) -> dict[str, float]:
    times: dict[str, list[float]] = {"load_cold": [], "load_warm": [], "validate_cold": [], "validate_warm": []}
    for _ in range(runs):
        with tempfile.TemporaryDirectory(prefix="cardrules-bench-cache-") as cache:
            times["load_cold"].append(load_cpu(game, cache))
            times["load_warm"].append(load_cpu(game, cache))
        with tempfile.TemporaryDirectory(prefix="cardrules-bench-cache-") as cache:
            times["validate_cold"].append(validate_cpu(path, cache))
            times["validate_warm"].append(validate_cpu(path, cache))
    medians = {k: statistics.median(v) for k, v in times.items()}
    medians["load_ratio"] = medians["load_warm"] / medians["load_cold"]
    medians["validate_ratio"] = medians["validate_warm"] / medians["validate_cold"]
    return medians


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("games", nargs="*", help="shipped rulesets (default: all, variants too)")
    ap.add_argument("--runs", type=int, default=5, help="cold/warm pairs per figure (medians)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args(argv)
    rulesets = shipped_rulesets()
    games = args.games or list(rulesets)
    unknown = [g for g in games if g not in rulesets]
    if unknown:
        ap.error(f"not shipped: {', '.join(unknown)} (shipped: {', '.join(rulesets)})")
    subprocess.run([sys.executable, "-c", "import interpreter.cli.main"], env=_env(tempfile.gettempdir()),
                   cwd=ROOT, check=True)  # (bytecode written once, outside the figures)
    results = {}
    if not args.json:
        print(f"CPU seconds, medians of {args.runs} cold/warm pairs")
        print(f"{'ruleset':<15} {'load cold':>9} {'warm':>7} {'ratio':>6}   {'validate cold':>13} {'warm':>7} {'ratio':>6}")
    for game in games:
        r = results[game] = measure(game, rulesets[game], args.runs)
        if not args.json:
            print(f"{game:<15} {r['load_cold']:9.3f} {r['load_warm']:7.3f} {r['load_ratio']:6.2f}   "
                  f"{r['validate_cold']:13.3f} {r['validate_warm']:7.3f} {r['validate_ratio']:6.2f}", flush=True)
    if args.json:
        print(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
