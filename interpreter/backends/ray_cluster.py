"""The Ray backend (optional extra `ray`): the games of a batch as Ray tasks, on a local Ray that
it starts (and stops) or on a running cluster at an address.

Seeds go out in chunks, one task each, with a bounded number in flight; outcomes are handed back
as tasks finish. A worker that dies mid-task is replaced by Ray and the task run again
(`MAX_RETRIES`); only finished tasks are handed back, so no game is lost and none is counted
twice. A chunk that still fails is split into one task per seed, and a seed whose task fails
after its retries comes back as an aborted game. The workers import `interpreter` from the
installed package and load the rules of a spec once per process (`rules_for`).
"""

from __future__ import annotations

import logging
import os
import socket
from collections import deque
from collections.abc import Iterator, Sequence
from typing import Any

from .games import Outcome, play_seeds
from .local import chunks
from .records import aborted_record
from .spec import BackendError, BatchSpec, rules_for

MAX_RETRIES = 3  # times Ray runs a task again after its worker died
CONNECT_TIMEOUT_S = 10.0  # for the TCP connection to a cluster's address
ANSWER_TIMEOUT_S = 5.0  # for its first gRPC (HTTP/2) frame once connected
# what an HTTP/2 client sends first; a gRPC server (Ray's GCS) answers with a SETTINGS frame
_HTTP2_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + b"\x00\x00\x00\x04\x00\x00\x00\x00\x00"
_HTTP2_SETTINGS = 0x04

_remote_play: Any = None  # `_play_chunk` as a Ray remote function, made once Ray is imported


def _play_chunk(spec: BatchSpec, seeds: list[int]) -> tuple[list[Outcome], int]:
    """A task's work: the chunk's outcomes and which attempt this is (0: the first)."""
    return play_seeds(spec, seeds), _attempt_number()


def _attempt_number() -> int:
    try:
        import ray

        # (not in the public API; only the `retried` count depends on it)
        return int(ray._private.worker.global_worker.core_worker.get_current_task_attempt_number())
    except Exception:
        return 0


def _remote(ray: Any) -> Any:
    global _remote_play
    if _remote_play is None:
        # game errors come back as aborted records, never raised: only a worker's death is retried
        _remote_play = ray.remote(max_retries=MAX_RETRIES, retry_exceptions=False)(_play_chunk)
    return _remote_play


class RayBackend:
    """Without an address, a local Ray of `workers` CPUs (so that many games at once), started on
    entering unless this process already runs one, and stopped on leaving if it was started here.
    With one, the cluster there; 2 x `workers` tasks are out at a time, each on a CPU of its own."""

    name = "ray"

    def __init__(self, workers: int = 1, address: str | None = None) -> None:
        if workers < 1:
            raise ValueError("workers must be 1 or more")
        self.workers = workers
        self.address = address
        self.retried = 0  # tasks Ray ran again after their worker died
        self._ray: Any = None
        self._started = False  # this backend started the Ray it uses (and stops it)

    def __enter__(self) -> RayBackend:
        try:
            import ray
        except ImportError:
            raise BackendError("the ray backend needs Ray: pip install 'cardrules[ray]'") from None
        if self.address is not None:
            reason = unreachable(self.address)
            if reason is not None:
                raise BackendError(f"cannot reach a Ray cluster at {self.address}: {reason}")
        if not ray.is_initialized():
            if self.address is not None:
                try:
                    ray.init(address=self.address, log_to_driver=False, logging_level=logging.ERROR)
                except Exception as err:
                    hint = ""
                    if isinstance(err, ConnectionError) and "RAY_AUTH_MODE" not in os.environ:
                        hint = " (a cluster with token authentication also needs RAY_AUTH_MODE=token here)"
                    raise BackendError(f"cannot reach a Ray cluster at {self.address}: {_reason(err)}{hint}") from None
            else:
                try:
                    # ("local": a Ray of its own, even when RAY_ADDRESS names a cluster)
                    ray.init(address="local", num_cpus=self.workers, include_dashboard=False,
                             log_to_driver=False, logging_level=logging.ERROR)
                except Exception as err:
                    raise BackendError(f"cannot start a local Ray: {_reason(err)}") from None
                self._started = True
        self._ray = ray
        return self

    def __exit__(self, *exc: Any) -> None:
        ray, self._ray = self._ray, None
        if ray is not None and self._started:
            self._started = False
            ray.shutdown()

    def run(self, spec: BatchSpec, seeds: Sequence[int]) -> Iterator[Outcome]:
        """Every seed's outcome exactly once, in the order they finish."""
        ray = self._ray
        if ray is None:
            raise RuntimeError("RayBackend.run is used inside `with RayBackend(...) as backend:`")
        from ray.exceptions import RayError, RayTaskError

        rules, _decks = rules_for(spec)  # (a wrong ruleset fails here, in this process, not in every task)
        play = _remote(ray)
        todo = deque(chunks(seeds, self.workers))
        running: dict[Any, list[int]] = {}
        in_flight = 2 * self.workers  # (enough to keep every worker busy; a big batch waits here)
        try:
            while todo or running:
                while todo and len(running) < in_flight:
                    chunk = todo.popleft()
                    running[play.remote(spec, chunk)] = chunk
                done, _pending = ray.wait(list(running), num_returns=1)
                chunk = running.pop(done[0])
                try:
                    outcomes, attempt = ray.get(done[0])
                except RayTaskError as err:  # (play_seeds raised: the workers cannot play at all)
                    raise BackendError(f"a Ray task failed: {_reason(err)}") from None
                except RayError as err:  # its worker died on every try
                    self.retried += MAX_RETRIES
                    if len(chunk) > 1:  # each seed alone, so a death is charged to the game that caused it
                        todo.extendleft([seed] for seed in reversed(chunk))
                        continue
                    reason = (f"a Ray worker died {MAX_RETRIES + 1} times playing this game "
                              f"({type(err).__name__})")
                    yield aborted_record(rules, chunk[0], spec.agents, reason, None, None), None
                    continue
                self.retried += attempt
                yield from outcomes
        finally:
            for ref in running:  # (closed early: Ctrl-C, or the caller stopped reading)
                try:
                    ray.cancel(ref)
                except Exception:
                    pass


def _reason(err: BaseException) -> str:
    """An error of Ray's in one line: the exception a task raised, else the first line of Ray's."""
    cause = getattr(err, "cause", None)
    if isinstance(cause, BaseException):
        err = cause
    text = str(err).strip().splitlines()
    first = text[0] if text else ""
    if isinstance(err, ModuleNotFoundError) or "failed to import" in first:
        first += " (is cardrules installed where the Ray workers run?)"
    return f"{type(err).__name__}: {first}" if first else type(err).__name__


def unreachable(address: str) -> str | None:
    """Why no Ray cluster can answer at `address` (None: something speaking gRPC does).

    Ray itself retries an address that does not answer for many minutes; this finds the usual
    mistakes (a wrong host, a wrong port, a host that is down) within seconds. `auto` (the cluster
    `ray start` made on this machine) is left to Ray."""
    text = address.strip()
    if text.lower() in ("auto", "local"):
        return None
    text = text.split("://", 1)[-1].rstrip("/")  # (ray://HOST:PORT: a Ray Client server)
    host, colon, port_text = text.rpartition(":")
    host = host.strip("[]")  # ([::1]:6379)
    if not colon or not host or not port_text.isdigit():
        return "an address is HOST:PORT (e.g. 10.0.0.5:6379) or ray://HOST:PORT"
    port = int(port_text)
    try:
        socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as err:
        return f"cannot resolve host {host!r} ({err.strerror})"
    try:
        sock = socket.create_connection((host, port), timeout=CONNECT_TIMEOUT_S)
    except TimeoutError:
        return f"no answer within {CONNECT_TIMEOUT_S:g} s"
    except OSError as err:
        return err.strerror or str(err)
    with sock:
        if os.environ.get("RAY_USE_TLS", "0").lower() in ("1", "true"):
            return None  # (a TLS cluster answers nothing to plain HTTP/2)
        head = b""
        try:
            sock.settimeout(ANSWER_TIMEOUT_S)
            sock.sendall(_HTTP2_PREFACE)
            while len(head) < 9:
                part = sock.recv(9 - len(head))
                if not part:
                    break
                head += part
        except OSError:  # (a timeout too)
            pass
    if len(head) < 9 or head[3] != _HTTP2_SETTINGS:
        return "something listens there, but it is not a Ray cluster (it does not speak gRPC)"
    return None
