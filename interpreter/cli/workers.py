"""Worker processes for commands that check or run many scenario files (`test`, `validate`).

`ordered_map(fn, items, workers)` yields fn(item) for each item in the order of the items, computed
in `workers` processes (or in this one when 1): the output of a run, and so its exit code, is the
same for any number of workers. Each process keeps its own caches (the loaded rulesets of
scenarios/loading.py), so items are handed out in contiguous runs, which do not cross from one
group to the next (`group`: the scenarios' folders, whose scenarios usually share a ruleset): a
ruleset is loaded by as few processes as can share the work.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

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


def folder_of(path: Path) -> Path:
    """A scenario's group for `ordered_map`: its folder (whose scenarios mostly share a ruleset)."""
    return path.parent


def ordered_map(fn: Callable[[T], R], items: Sequence[T], workers: int,
                group: Callable[[T], Any] | None = None) -> Iterator[R]:
    """fn(item) for each item, in order; in `workers` processes when more than one (fn and the
    items and results must pickle; on systems with fork the workers start from this process's
    state, with what it loaded already). `group`: items of one group (its value) go to one
    process together where they can, as runs of at most a share of the items (scenarios of one
    ruleset: it is loaded by fewer processes)."""
    if workers <= 1 or len(items) <= 1:
        for item in items:
            yield fn(item)
        return
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    chunks = _chunks(items, workers, group)
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        for results in pool.map(partial(_each, fn), chunks):
            yield from results


def _each(fn: Callable[[T], R], chunk: list[T]) -> list[R]:
    return [fn(item) for item in chunk]


def _chunks(items: Sequence[T], workers: int, group: Callable[[T], Any] | None) -> list[list[T]]:
    """The items in runs handed out one at a time: runs of one group (all one run without
    `group`), cut to at most a share of the items (2 runs per worker when there is one group, 4
    before; enough for the processes to end about together)."""
    size = max(1, len(items) // (workers * (2 if group is not None else 4)))
    runs: list[list[T]] = []
    last: Any = object()
    for item in items:
        key = group(item) if group is not None else None
        if not runs or key != last or len(runs[-1]) >= size:
            runs.append([])
        runs[-1].append(item)
        last = key
    return runs
