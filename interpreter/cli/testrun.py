"""`cardrules test`: run scenario files and end with exactly 'N passed, N failed'."""

from __future__ import annotations

import sys
from functools import partial
from pathlib import Path

from ..errors import CardrulesError, DeckError, ErrorList, RuntimeRuleError
from .common import capped_lines, errors_text, indent, shown
from .workers import default_workers, folder_of, ordered_map

DEFAULT_FOLDER = Path("tests") / "scenarios"


def default_paths() -> list[str]:
    """tests/scenarios of the current folder, else of the checkout this package runs from."""
    from .. import paths

    for root in (Path.cwd(), paths.data_root()):
        folder = root / DEFAULT_FOLDER
        if folder.is_dir():
            return [str(folder)]
    return []


def _refused(err: CardrulesError, file: Path) -> str:
    """What an error that ends a scenario before it plays is about: the scenario file itself, a
    rule that failed as it ran, or the ruleset, a deck or a card text it loads."""
    first = err.errors[0] if isinstance(err, ErrorList) and err.errors else err
    if isinstance(first, RuntimeRuleError):
        return "rule error"
    if isinstance(first, DeckError):
        return "a deck is refused"
    if first.span is None or Path(first.span.file).resolve() != file.resolve():
        return "the ruleset (or its cards) is refused"
    return "the scenario file is malformed"


def outcome(file: Path, verbose: bool = False) -> tuple[bool, str]:
    """Run one scenario file: (passed, what to print for it)."""
    from ..scenarios import run_scenario

    name = shown(file)
    try:
        result = run_scenario(file)
    except CardrulesError as err:
        return False, f"FAIL {name}: {_refused(err, file)}\n{indent(errors_text(err))}\n"
    except Exception as err:  # an engine crash: one failed scenario, not the end of the run
        return False, f"FAIL {name}: crashed with {type(err).__name__}: {err}\n"
    if result.passed:
        cites = f" [{', '.join(result.cites)}]" if result.cites else ""
        return True, f"ok   {name}{cites}\n" if verbose else ""
    lines = [f"FAIL {name}{': rule error' if result.rule_error else ''}\n"]
    lines += [indent(failure) + "\n" for failure in capped_lines(result.failures)]
    return False, "".join(lines)


def run_tests(path_args: list[str], verbose: bool, workers: int | None = None) -> int:
    """Run the scenarios of the paths (in `workers` processes: see workers.py; the output is the
    same for any number) and end with 'N passed, N failed'."""
    from ..scenarios import scenario_files

    out = sys.stdout
    targets = path_args or default_paths()
    if not targets:
        sys.stderr.write(f"no scenarios: give scenario files or folders (no {DEFAULT_FOLDER} here)\n")
    passed = failed = 0
    files = []
    for target in targets:
        try:
            files.extend(scenario_files([target]))
        except CardrulesError as err:  # a missing path: a failure, reported like the others
            failed += 1
            out.write(f"FAIL {target}\n{indent(errors_text(err))}\n")
    count = default_workers(len(files), workers)
    for ok, text in ordered_map(partial(outcome, verbose=verbose), files, count, group=folder_of):
        passed, failed = passed + ok, failed + (not ok)
        out.write(text)
    out.write(f"{passed} passed, {failed} failed\n")
    out.flush()
    return 1 if failed else 0
