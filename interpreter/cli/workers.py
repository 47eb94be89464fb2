"""Worker processes for commands that check or run many scenario files (`test`, `validate`).

`ordered_map(fn, items, workers)` yields fn(item) for each item in the order of the items, computed
in `workers` processes (or in this one when 1): the output of a run, and so its exit code, is the
same for any number of workers. Each process keeps its own caches (the loaded rulesets of
scenarios/loading.py), so items are handed out in contiguous runs: scenarios of one folder, which
usually share a ruleset, mostly go to the same process.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")

MANY = 20  # more scenarios than this run in worker processes by default


def cpu_count() -> int:
    """The processors this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # (not on every platform)
        return max(1, os.cpu_count() or 1)


def default_workers(count: int, asked: int | None) -> int:
    """The number of processes for `count` items: the one asked for (--workers), else the CPU
    count when there are more than `MANY` items, else 1 (starting processes costs more)."""
    if asked is not None:
        return max(1, min(asked, count or 1))
    return min(cpu_count(), count) if count > MANY else 1


def ordered_map(fn: Callable[[T], R], items: Sequence[T], workers: int) -> Iterator[R]:
    """fn(item) for each item, in order; in `workers` processes when more than one (fn and the
    items and results must pickle; on systems with fork the workers start from this process's
    state, with what it loaded already)."""
    if workers <= 1 or len(items) <= 1:
        for item in items:
            yield fn(item)
        return
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    chunk = max(1, len(items) // (workers * 4))
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        yield from pool.map(fn, items, chunksize=chunk)
