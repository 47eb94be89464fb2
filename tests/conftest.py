"""Options and markers shared by the tests.

``--fuzz-cases N``: how many cases the fuzz tests (tests/fuzz/, marked ``fuzz``) try: N of
generated card text and N/10 of each kind of mutated file. Without it they try
`fuzzing.DEFAULT_CASES` (a few hundred cases in all, some 30 s), as part of the normal run, or
`fuzzing.LONG_CASES` with CARDRULES_LONG=1; the long run alone is ``pytest tests/fuzz -m fuzz
--fuzz-cases 10000`` (see tests/fuzz/test_fuzz_loaders.py).
"""

from __future__ import annotations

import gc
import os
import shutil
import sys
import tempfile

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--fuzz-cases", type=int, default=None, metavar="N",
                     help="cases of generated card text for the fuzz tests (each kind of mutated file: N/10)")


def pytest_configure(config: pytest.Config) -> None:
    # the load cache (interpreter/diskcache.py) of this run: a folder of its own, not the user's
    if not os.environ.get("CARDRULES_CACHE_DIR"):
        os.environ["CARDRULES_CACHE_DIR"] = config._cardrules_cache = tempfile.mkdtemp(prefix="cardrules-cache-")
    config.addinivalue_line("markers", "fuzz: fuzz tests of the loaders (tests/fuzz); scale them with --fuzz-cases N")


def pytest_collection_finish(session: pytest.Session) -> None:
    """Keep what collection made out of the garbage collector's passes (`gc.freeze`): mostly the
    rules that test modules load at import, which live to the end of the run anyway, and which
    every full pass of the collector in every later test of the worker would walk again.

    Hypothesis is imported first: on import it registers the generators of modules imported
    before it (trio's), checking with `gc.get_referrers` that something holds them, and that
    does not see frozen objects (a HypothesisWarning in a run of one file that imports it late)."""
    import hypothesis  # noqa: F401

    gc.collect()
    gc.freeze()


def pytest_unconfigure(config: pytest.Config) -> None:
    folder = getattr(config, "_cardrules_cache", None)
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    """The fuzz cases' outcomes by kind, when fuzz tests ran."""
    fuzzing = sys.modules.get("fuzzing")
    if fuzzing is None or not fuzzing.TALLY.counts:
        return
    terminalreporter.write_sep("-", "fuzz cases")
    terminalreporter.write_line(fuzzing.TALLY.table())
