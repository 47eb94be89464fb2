"""The generated-source corpus (issue 31, step 3's safety net for the emitters): the Python source
of every function the code generator writes for every shipped game and every test ruleset (the
rulesets and options of the log corpus, tests/helpers/logcorpus.py), in every form: direct (a
function, a procedure that never suspends, an expression), resumable (the entries of a block that
may stop for a decision) and rollout (`play_out(fast=True)`), written on load and, for the
rollout forms, by `Compiler.compile_rollout`.

tests/data/sourcecorpus.json.gz holds, per case, the (label, source) of each function in the order
the generator wrote them. An emitter rewritten (the IR's, lang/ir.py) must write the same sources;
where it writes better code on purpose, the log corpus must stay identical and the corpus is
written again (`--write`), the test naming the functions that changed.

    python tests/helpers/sourcecorpus.py --check [CASE ...]   # compare, name what differs
    python tests/helpers/sourcecorpus.py --write              # save today's sources

Run it with the checkout's package importable (PYTHONPATH=.).
"""

from __future__ import annotations

import argparse
import difflib
import gzip
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from logcorpus import CASES, ROOT, Case, ruleset_location  # noqa: E402

CORPUS = ROOT / "tests" / "data" / "sourcecorpus.json.gz"
_DEF = re.compile(r"def ([A-Za-z_]+?)(?:\d*)\(")


def form_of(label: str, source: str) -> str:
    """The form a generated function is of: 'rollout', 'direct' or 'resumable'."""
    if "(rollout" in label:
        return "rollout"
    found = _DEF.match(source)
    name = found.group(1) if found else ""
    if name in ("p_", "fn_") or not name.startswith("_g") and name.startswith(("p_", "fn_")):
        return "direct"
    if label.startswith(("procedure ", "card ", "activated ", "triggered ", "replacement ", "main", "set-up")):
        return "resumable"
    return "direct"  # (an expression, end conditions, a card's code)


def _label(label: str) -> str:
    """A label without the checkout's own path or the installed package's data folder
    (expressions are labelled by file:line; CI runs the installed package)."""
    from interpreter.paths import data_root

    return label.replace(str(ROOT) + "/", "").replace(str(data_root()) + "/", "")


def sources(case: Case) -> list[tuple[str, str]]:
    """(label, source) of every function written for a case, in the order written."""
    from interpreter import load

    rules = load(ruleset_location(case), options=case.option_dict())
    rules.compiler.compile_rollout()
    ns = rules.compiler.gen.ns
    return [(_label(ns.labels[file]), source) for file, source in ns.sources.items()]


def read_corpus() -> dict[str, list[tuple[str, str]]]:
    with gzip.open(CORPUS, "rt", encoding="utf-8") as handle:
        return {name: [tuple(pair) for pair in pairs] for name, pairs in json.load(handle).items()}


def differences(saved: list[tuple[str, str]], now: list[tuple[str, str]]) -> list[str]:
    """What differs between two lists of (label, source): one line per function, then the first
    function's diff."""
    out: list[str] = []
    first_diff: list[str] = []
    for i in range(max(len(saved), len(now))):
        before = saved[i] if i < len(saved) else None
        after = now[i] if i < len(now) else None
        if before == after:
            continue
        some = before or after
        assert some is not None
        out.append(f"  #{i} {form_of(*some)}: {some[0]}" + ("" if before and after else
                                                             " (missing now)" if before else " (new)"))
        if not first_diff and before and after:
            first_diff = list(difflib.unified_diff(before[1].splitlines(), after[1].splitlines(),
                                                   "saved", "now", lineterm="", n=1))
    return out + first_diff[:40]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--check", action="store_true")
    parser.add_argument("cases", nargs="*")
    args = parser.parse_args(argv)
    cases = [c for c in CASES if not args.cases or c.name in args.cases]
    if args.write:
        data = {case.name: sources(case) for case in CASES}
        with gzip.open(CORPUS, "wt", encoding="utf-8", compresslevel=9) as handle:
            json.dump(data, handle, indent=0)
        print(f"sourcecorpus: wrote {sum(len(v) for v in data.values())} functions of {len(data)} cases to {CORPUS}")
        return 0
    saved = read_corpus()
    bad = 0
    total = 0
    for case in cases:
        now = sources(case)
        total += len(now)
        found = differences(saved.get(case.name, []), now)
        if found:
            bad += 1
            print(f"{case.name}: {sum(1 for line in found if line.startswith('  #'))} functions differ")
            print("\n".join(found))
    if bad:
        print(f"sourcecorpus: {bad} of {len(cases)} cases differ")
        return 1
    print(f"sourcecorpus: {total} functions of {len(cases)} cases identical to the corpus")
    return 0


if __name__ == "__main__":
    sys.exit(main())
