"""Every shipped scenario validated and run, before and after: `python benchmarks/scenarios.py
[--before DIR] [--workers K] [--json]`.

Times two whole commands in fresh processes, as a designer runs them from the checkout:
`cardrules validate tests/scenarios` and `cardrules test tests/scenarios`. Each is reported with
its wall time and its CPU time (user + system of the process and its worker processes), and the
last line of its output (which must be the same for every tree).

--before DIR runs the same commands against another checkout as well (the code before a change:
`git archive HEAD~1 | tar -x -C DIR`), interleaved with this one's command by command, with the
same disk cache folder state (a new empty one for each command, warmed by one untimed run
first, so both trees are measured warm), and prints the ratios. --workers passes `--workers K` to this checkout's commands (not to --before's, which may
not have the flag; leave it out for the default: one process per CPU over 20 scenarios).
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
COMMANDS = (("validate", ["validate", "tests/scenarios"]), ("test", ["test", "tests/scenarios"]))
MAIN = "import sys\nfrom interpreter.cli.main import main\nsys.exit(main())\n"


def timed(tree: Path, args: list[str], cache: str) -> dict:
    """Run `cardrules ARGS` from `tree` with that tree's interpreter package: wall and CPU
    seconds, the exit code and the last line printed."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(PYTHONPATH=str(tree), CARDRULES_CACHE_DIR=cache)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", MAIN, *args], cwd=tree, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    lines = done.stdout.strip().splitlines()
    return {"wall": round(wall, 2), "cpu": round(cpu, 2), "exit": done.returncode,
            "last": lines[-1] if lines else done.stderr.strip()[-200:]}


def measure(trees: dict[str, tuple[Path, list[str]]]) -> dict:
    """Each command in each tree ({label: (tree, extra arguments)}), the trees interleaved
    command by command (on a shared machine, the load then weighs on both alike)."""
    out: dict[str, dict] = {label: {} for label in trees}
    for name, args in COMMANDS:
        for label, (tree, extra) in trees.items():
            with tempfile.TemporaryDirectory(prefix="cardrules-bench-") as cache:
                timed(tree, [*args, *extra], cache)  # (warms the disk cache: parses, schema checks)
                out[label][name] = timed(tree, [*args, *extra], cache)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, metavar="DIR", help="a checkout of the code before, to compare")
    parser.add_argument("--workers", type=int, metavar="K", help="--workers K for this checkout's commands")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    extra = ["--workers", str(args.workers)] if args.workers else []
    trees = {"after": (ROOT, extra)}
    if args.before is not None:
        trees["before"] = (args.before.resolve(), [])
    results = measure(trees)
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    print(f"| command | {'before wall | before CPU | ' if args.before else ''}after wall | after CPU |"
          f"{' wall ratio | CPU ratio |' if args.before else ''} result")
    for name, _args in COMMANDS:
        a = results["after"][name]
        row = f"| {name} | "
        if args.before:
            b = results["before"][name]
            row += f"{b['wall']:.1f} s | {b['cpu']:.1f} s | "
        row += f"{a['wall']:.1f} s | {a['cpu']:.1f} s |"
        if args.before:
            row += f" {b['wall'] / a['wall']:.1f}x | {b['cpu'] / a['cpu']:.1f}x |"
            if b["last"] != a["last"]:
                row += f" DIFFERENT: before {b['last']!r}"
        print(f"{row} {a['last']} (exit {a['exit']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
