"""Running a batch for `simulate` and `compare`: a backend's outcomes collected by seed, a progress
bar (games done, games/s, time left) on every backend, logs written as games finish, and Ctrl-C
turned into a clean stop that keeps what was played."""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from collections.abc import Callable, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..backends import BatchSpec, open_backend
from .common import UsageError, err_console, shown


@dataclass
class BatchResult:
    records: dict[int, dict] = field(default_factory=dict)  # by seed
    interrupted: bool = False
    seconds: float = 0.0

    def in_order(self) -> list[dict]:
        return [self.records[s] for s in sorted(self.records)]


def run_batch(spec: BatchSpec, seeds: Sequence[int], backend_name: str, workers: int, address: str | None,
              show_progress: bool, log_dir: Path | None = None, label: str = "simulating",
              backend: Any = None, on_record: Callable[[dict], None] | None = None,
              log_suffix: str = "") -> BatchResult:
    """Play the seeds on a backend (or one already open); Ctrl-C stops early with what is done.
    `on_record` is given each record as its game finishes (`--records` written as they come); a
    game's log is `log_dir/game-SEED{log_suffix}.jsonl`."""
    result = BatchResult()
    progress, advance = _progress(len(seeds), show_progress, label)
    start = time.perf_counter()
    running = nullcontext(backend) if backend is not None else open_backend(backend_name, workers, address)
    try:
        with progress, running as opened:
            outcomes = opened.run(spec, seeds)
            try:
                for record, lines in outcomes:
                    with _ctrl_c_deferred():  # (a game counted is a game kept, and the reverse)
                        result.records[record["seed"]] = record
                        if on_record is not None:
                            on_record(record)
                        if log_dir is not None and lines is not None:
                            _write_log(log_dir, f"{record['seed']}{log_suffix}", lines)
                    advance()
            finally:
                outcomes.close()
    except KeyboardInterrupt:
        result.interrupted = True
    result.seconds = time.perf_counter() - start
    return result


@contextmanager
def _ctrl_c_deferred():
    """Ctrl-C held back until the block is done (then raised), so that a game's record is both in
    the summary and in the records file, or in neither."""
    if threading.current_thread() is not threading.main_thread() or signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        yield
        return
    caught: list[int] = []
    try:
        before = signal.signal(signal.SIGINT, lambda number, _frame: caught.append(number))
    except ValueError:  # (no signals here: an embedding that runs no Python signal handlers)
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)
    if caught:
        raise KeyboardInterrupt


def _write_log(folder: Path, seed: str, lines: list[str]) -> None:
    path = folder / f"game-{seed}.jsonl"
    tmp = path.with_suffix(".jsonl.part")
    tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def _progress(total: int, enabled: bool, label: str):
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    class SpeedColumn(ProgressColumn):
        def render(self, task) -> Text:
            speed = task.finished_speed or task.speed
            return Text(f"{speed:.1f} games/s" if speed else "", style="progress.data.speed")

    progress = Progress(TextColumn(f"[bold]{label}"), BarColumn(), MofNCompleteColumn(), TextColumn("games"),
                        SpeedColumn(), TimeElapsedColumn(), TimeRemainingColumn(),
                        console=err_console(), transient=True, disable=not enabled)
    task = progress.add_task("games", total=total)
    return progress, lambda: progress.advance(task)


# ---------------------------------------------------------------- output places, checked before playing
def writable_folder(path: str, what: str, allowed: tuple[str, ...] = (), allowed_suffixes: tuple[str, ...] = ()) -> Path:
    """A folder the command may write into: missing (its parent must be writable) or a writable
    folder holding nothing but files it would write itself."""
    folder = Path(path)
    if folder.exists():
        if not folder.is_dir():
            raise UsageError(f"{what} {shown(folder)} is a file, not a folder")
        if not os.access(folder, os.W_OK | os.X_OK):
            raise UsageError(f"{what} {shown(folder)} is not writable")
        foreign = sorted(p.name for p in folder.iterdir()
                         if p.name not in allowed and not p.name.endswith(allowed_suffixes))
        if foreign:
            raise UsageError(f"{what} {shown(folder)} holds other files ({', '.join(foreign[:3])}"
                             f"{', ...' if len(foreign) > 3 else ''}); give an empty or new folder")
        return folder
    parent = folder.resolve().parent
    if not parent.is_dir():
        raise UsageError(f"{what} {shown(folder)}: its parent folder {shown(parent)} does not exist")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise UsageError(f"{what} {shown(folder)} cannot be made: {shown(parent)} is not writable")
    return folder


def writable_file(path: str, what: str, suffixes: tuple[str, ...] = ()) -> Path:
    """A file the command may write (any name, or one ending in one of `suffixes`) in a writable
    folder that exists."""
    file = Path(path)
    if suffixes and not file.name.endswith(suffixes):
        raise UsageError(f"{what} {path}: name it {' or '.join('*' + s for s in suffixes)}")
    parent = file.resolve().parent
    if file.is_dir():
        raise UsageError(f"{what} {shown(file)} is a folder")
    if not parent.is_dir() or not os.access(parent, os.W_OK | os.X_OK):
        raise UsageError(f"{what} {shown(file)} cannot be written: {shown(parent)} is not a writable folder")
    return file


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)
