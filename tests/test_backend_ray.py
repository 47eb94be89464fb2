"""The Ray backend on a real Ray started here (2 CPUs): the same records as the local backend, a
worker killed mid-batch (and the local backend's pool in the same case), Ray not installed, and
addresses where no cluster answers.

The tests that need no Ray of this module's come first: the local backend forks its workers, which
is best done before this process holds Ray's threads."""

from __future__ import annotations

import logging
import socket
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

ray = pytest.importorskip("ray")

from interpreter.backends import BackendError, BatchSpec, LocalBackend, Outcome  # noqa: E402
from interpreter.backends.ray_cluster import RayBackend  # noqa: E402

HELPERS = Path(__file__).resolve().parent / "helpers"
DYING = "samplebots.crashing:DiesOnce"
CRASH_SEED = 7
SEEDS = range(30)


def sorted_records(outcomes: Iterable[Outcome]) -> list[dict]:
    return sorted((record for record, _lines in outcomes), key=lambda record: record["seed"])


def local_records(spec: BatchSpec, seeds: range) -> list[dict]:
    with LocalBackend(1) as backend:
        return sorted_records(backend.run(spec, seeds))


def assert_each_seed_once(records: list[dict], seeds: range) -> None:
    counts = Counter(record["seed"] for record in records)
    assert counts == Counter(seeds)
    assert not [record for record in records if record["aborted"]]


def as_random(records: list[dict]) -> list[dict]:
    """The records with the dying agent's name put back to `random` (it plays as random does)."""
    renamed = []
    for record in records:
        record = {**record, "agents": ["random" if a == DYING else a for a in record["agents"]]}
        record["players"] = [{**p, "agent": "random" if p["agent"] == DYING else p["agent"]}
                             for p in record["players"]]
        renamed.append(record)
    return renamed


# ---------------------------------------------------------------- without a Ray of this module's
def test_local_backend_survives_a_worker_death(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    marker = tmp_path / "died"
    monkeypatch.setenv("CARDRULES_CRASH_MARKER", str(marker))
    monkeypatch.setenv("CARDRULES_CRASH_SEED", str(CRASH_SEED))
    spec = BatchSpec.of("initiative", agents=(DYING, "random"), records=True)
    with LocalBackend(2) as backend:
        records = sorted_records(backend.run(spec, SEEDS))
    assert marker.exists() and backend.restarts >= 1
    assert_each_seed_once(records, SEEDS)
    assert records == local_records(spec, SEEDS)  # (the marker is there: it no longer dies)
    assert as_random(records) == local_records(BatchSpec.of("initiative", records=True), SEEDS)


def test_needs_ray_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # (`import ray` raises ImportError)
    with pytest.raises(BackendError, match=r"needs Ray: pip install 'cardrules\[ray\]'"):
        RayBackend(1).__enter__()


@pytest.fixture
def not_grpc() -> Iterator[str]:
    """An address on this machine where something listens but answers as an HTTP/1 server."""
    server = socket.create_server(("127.0.0.1", 0))

    def answer() -> None:
        connection, _ = server.accept()
        with connection:
            connection.sendall(b"HTTP/1.1 400 Bad Request\r\n\r\n")

    thread = threading.Thread(target=answer, daemon=True)
    thread.start()
    yield f"127.0.0.1:{server.getsockname()[1]}"
    server.close()


@pytest.mark.parametrize("address, reason", [
    ("127.0.0.1:1", "Connection refused"),
    ("no-such-host.invalid:6379", "cannot resolve host 'no-such-host.invalid'"),
    ("127.0.0.1", "an address is HOST:PORT"),
    ("not_grpc", "not a Ray cluster"),
])
def test_unreachable_address(address: str, reason: str, request: pytest.FixtureRequest) -> None:
    if address == "not_grpc":
        address = request.getfixturevalue("not_grpc")
    start = time.monotonic()
    with pytest.raises(BackendError) as raised:
        RayBackend(1, address).__enter__()
    assert raised.value.message.startswith(f"cannot reach a Ray cluster at {address}: ")
    assert reason in raised.value.message
    assert time.monotonic() - start < 30
    assert not ray.is_initialized()


def test_starts_and_stops_its_own_ray() -> None:
    assert not ray.is_initialized()
    spec = BatchSpec.of("initiative")
    with RayBackend(1) as backend:
        assert ray.is_initialized() and ray.cluster_resources().get("CPU") == 1
        records = sorted_records(backend.run(spec, range(4)))
    assert not ray.is_initialized()
    assert records == local_records(spec, range(4))


# ---------------------------------------------------------------- on one Ray for the rest
@pytest.fixture(scope="module")
def local_ray(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A Ray of 2 CPUs whose workers can import samplebots and would die once at seed CRASH_SEED
    with the dying agent: the path of the marker that records it."""
    marker = tmp_path_factory.mktemp("ray-worker") / "died"
    env = {"PYTHONPATH": str(HELPERS), "CARDRULES_CRASH_MARKER": str(marker), "CARDRULES_CRASH_SEED": str(CRASH_SEED)}
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False,
             logging_level=logging.ERROR, runtime_env={"env_vars": env})
    try:
        yield marker
    finally:
        ray.shutdown()


def test_ray_records_equal_local(local_ray: Path) -> None:
    spec = BatchSpec.of("initiative", records=True)
    with RayBackend(2) as backend:
        records = sorted_records(backend.run(spec, SEEDS))
    assert ray.is_initialized()  # (a Ray that was running is left running)
    assert_each_seed_once(records, SEEDS)
    assert records == local_records(spec, SEEDS)


def test_ray_survives_a_worker_death(local_ray: Path) -> None:
    spec = BatchSpec.of("initiative", agents=(DYING, "random"), records=True)
    with RayBackend(2) as backend:
        records = sorted_records(backend.run(spec, SEEDS))
    assert local_ray.exists()
    if hasattr(ray._raylet.CoreWorker, "get_current_task_attempt_number"):  # (what `retried` is read from)
        assert backend.retried >= 1
    assert_each_seed_once(records, SEEDS)
    assert records == local_records(spec, SEEDS)  # (this process has no marker variable: it never dies)
    assert as_random(records) == local_records(BatchSpec.of("initiative", records=True), SEEDS)


def test_ray_closed_early(local_ray: Path) -> None:
    spec = BatchSpec.of("initiative")
    with RayBackend(2) as backend:
        outcomes = backend.run(spec, range(2000))
        first = [next(outcomes) for _ in range(3)]
        outcomes.close()  # (as Ctrl-C does: the tasks still out are cancelled)
        assert len(first) == 3
        assert sorted_records(backend.run(spec, range(5))) == local_records(spec, range(5))
