"""The long fuzz run of the loaders: `python benchmarks/fuzz.py [--cases 10000] [--kinds text,deck]
[--seed N] [--json]`.

The cases of tests/fuzz/ (tests/helpers/fuzzing.py): `--cases` card texts generated from the
grammar and a tenth as many mutations of each kind of shipped file (cards, rules, ruleset, deck,
scenario), each loaded as the project loads it. Unlike the pytest run it does not stop at the
first failure: it counts every case's outcome (clean, located error, unlocated error,
traceback, hang), prints the counts by kind and the wall time, then one example of each distinct
failure (the error or traceback and the case). Exit status 1 if any case failed.

    python benchmarks/fuzz.py                      # 10,000 card texts, 1,000 of each kind of file (~15 min)
    python benchmarks/fuzz.py --cases 500 --kinds scenario --seed 3

The pytest equivalent, which stops and shrinks at the first failure of each kind:
`pytest tests/fuzz -m fuzz --fuzz-cases 10000`.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "helpers"))

from fuzzing import KINDS, LONG_CASES, TALLY, Workspace, cases_for, check  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    """Run the cases, print the counts and the failures; 1 if any case failed."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=LONG_CASES,
                        help="card texts; each kind of file gets a tenth as many (default %(default)s)")
    parser.add_argument("--kinds", default=",".join(KINDS), help="comma-separated, of: " + ", ".join(KINDS))
    parser.add_argument("--seed", type=int, default=None, help="Hypothesis seed (default: a new run each time)")
    parser.add_argument("--json", action="store_true", help="the counts and failures as JSON")
    args = parser.parse_args(argv)
    kinds = [k.strip() for k in args.kinds.split(",") if k.strip()]
    unknown = sorted(set(kinds) - set(KINDS))
    if unknown:
        parser.error(f"no such kind: {', '.join(unknown)}")
    start = time.perf_counter()
    walls = {}
    with tempfile.TemporaryDirectory(prefix="cardrules-fuzz-") as folder:
        ws = Workspace(Path(folder))
        for kind in kinds:
            began = time.perf_counter()
            check(ws, kind, cases_for(kind, args.cases), mode="survey", seed=args.seed)
            walls[kind] = time.perf_counter() - began
            if not args.json:
                print(f"{kind}: {sum(TALLY.counts.get(kind, {}).values())} cases in {walls[kind]:.0f} s",
                      file=sys.stderr, flush=True)
    wall = time.perf_counter() - start
    failures = [{"signature": sig, "kind": kind, "outcome": o.kind, "detail": o.detail, "case": case}
                for sig, (kind, o, case) in TALLY.failures.items()]
    if args.json:
        rows = [{**row, "wall": round(walls[row["kind"]], 1)} for row in TALLY.rows()]
        print(json.dumps({"kinds": rows, "wall": round(wall, 1), "failures": failures}, indent=2))
    else:
        print(TALLY.table())
        print(f"wall time {wall:.0f} s; {len(failures)} distinct failures")
        for failure in failures:
            print(f"\n===== {failure['outcome']}: {failure['signature']}\n{failure['detail'].rstrip()}")
            print(f"--- the case\n{failure['case'].rstrip()}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
