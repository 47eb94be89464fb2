"""The local backend: the games of a batch in this process (one worker) or in a pool of worker
processes, their outcomes handed back as they finish.

Seeds go out in chunks. A worker process that dies mid-chunk (killed, out of memory) breaks the
pool: a new pool is started and every chunk not yet back is played again, so no game is lost and
none is counted twice; a seed that kills a worker three times comes back as an aborted game.
Workers ignore Ctrl-C: the driver stops them, and Ctrl-C may land anywhere in the driver, so the
driver waits for finished chunks on a queue (not `concurrent.futures.wait`, whose bookkeeping an
interrupt can leave holding locks) and a stopped pool's thread is joined before the program goes
on (see `_stop_pool`).
"""

from __future__ import annotations

import multiprocessing
import queue
import signal
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from .games import Outcome, play_seeds
from .records import aborted_record
from .spec import BatchSpec, remember, rules_for

MAX_WORKER_DEATHS = 3  # times one seed may take a worker down before it counts as aborted
POOL_THREAD_TIMEOUT_S = 10.0  # for a stopped pool's thread to end, once its workers are gone


def chunks(seeds: Sequence[int], workers: int, largest: int = 64) -> list[list[int]]:
    """Seeds in chunks small enough that every worker stays busy to the end."""
    size = max(1, min(largest, len(seeds) // (workers * 8)))
    return [list(seeds[i:i + size]) for i in range(0, len(seeds), size)]


def _quiet_worker() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class LocalBackend:
    name = "local"

    def __init__(self, workers: int = 1) -> None:
        if workers < 1:
            raise ValueError("workers must be 1 or more")
        self.workers = workers
        self.pool: ProcessPoolExecutor | None = None
        self.restarts = 0  # pools started again after a worker died

    def __enter__(self) -> LocalBackend:
        return self

    def __exit__(self, *exc: Any) -> None:
        self._stop_pool()

    def _start_pool(self) -> ProcessPoolExecutor:
        ctx = multiprocessing.get_context()
        self.pool = ProcessPoolExecutor(self.workers, mp_context=ctx, initializer=_quiet_worker)
        return self.pool

    def _stop_pool(self) -> None:
        pool, self.pool = self.pool, None
        if pool is None:
            return
        processes = list(getattr(pool, "_processes", {}).values())  # (shutdown does not stop running work)
        writer = getattr(getattr(pool, "_result_queue", None), "_writer", None)  # (shutdown forgets it)
        thread = getattr(pool, "_executor_manager_thread", None)  # (and this)
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            if process.is_alive():
                process.terminate()
        for process in processes:
            process.join(timeout=5)
        # A worker stopped while sending its result leaves the pool's reader thread waiting for the
        # rest of the message, and the interpreter joins that thread at exit: for ever. With every
        # worker gone, this process holds the pipe's last write end; closing it ends the read.
        if writer is not None and not any(process.is_alive() for process in processes):
            writer.close()
        # The pool's thread ends by closing its wake-up pipe, and at exit Python's hook for pools
        # (Python 3.11's concurrent.futures.process._python_exit) checks that pipe is open, then
        # writes to it, without a lock: a thread still ending then makes the exit print an
        # OSError traceback. With the workers gone the thread ends at once; wait for it here.
        if thread is not None:
            thread.join(timeout=POOL_THREAD_TIMEOUT_S)

    def run(self, spec: BatchSpec, seeds: Sequence[int]) -> Iterator[Outcome]:
        """Every seed's outcome exactly once, in the order they finish."""
        if self.workers == 1 or len(seeds) == 1:
            for seed in seeds:
                yield from play_seeds(spec, [seed])
            return
        rules, decks = rules_for(spec)  # (a forked worker inherits them; the parent fails first if wrong)
        remember(spec, rules, decks)
        todo = chunks(seeds, self.workers)
        while todo:
            suspects: list[int] = []
            yield from self._run_chunks(spec, todo, suspects)
            todo = []
            for seed in suspects:  # (each alone, so a death is charged to the game that caused it)
                yield from self._isolated(spec, rules, seed)

    def _run_chunks(self, spec: BatchSpec, todo: list[list[int]], suspects: list[int]) -> Iterator[Outcome]:
        """The chunks' outcomes; if the pool breaks, the seeds of every chunk not back go to
        `suspects` and this returns."""
        pool = self.pool or self._start_pool()
        # Each future puts itself on `finished` when done (in the pool's thread). Blocking on that
        # queue holds no lock a Ctrl-C could leave taken; `concurrent.futures.wait` takes every
        # future's lock one by one, and an interrupt between two left them held, the pool's thread
        # blocked on them and the program unable to exit.
        finished: queue.SimpleQueue[Future] = queue.SimpleQueue()
        running: dict[Future, list[int]] = {}
        for chunk in todo:
            future = pool.submit(play_seeds, spec, chunk)
            running[future] = chunk
            future.add_done_callback(finished.put)
        while running:
            future = finished.get()
            chunk = running.pop(future)
            try:
                outcomes = future.result()
            except BrokenProcessPool:
                # (the pool fails every future still out at once, after those that came back)
                suspects.extend(chunk)
                for chunk in running.values():
                    suspects.extend(chunk)
                self._stop_pool()
                self.restarts += 1
                return
            yield from outcomes

    def _isolated(self, spec: BatchSpec, rules, seed: int) -> Iterator[Outcome]:
        for _attempt in range(MAX_WORKER_DEATHS):
            pool = self.pool or self._start_pool()
            try:
                yield from pool.submit(play_seeds, spec, [seed]).result()
                return
            except BrokenProcessPool:
                self._stop_pool()
                self.restarts += 1
        yield aborted_record(rules, seed, spec.agents,
                             f"a worker process died {MAX_WORKER_DEATHS} times playing this game", None, None), None
