"""`cardrules validate`'s disk cache: an error-free check of a ruleset, replayed.

Checking a ruleset (its rule files, card files and decks) loads and compiles it once per deck
format; most runs check files that have not changed since the last run. After a check that found
no error, this module stores what the check printed (the file lines, in order) and what it read:
the hash of every file it read (each text registered for error messages, see
`errors.SOURCE_WATCHERS`) and the listing of every folder those files are in (so a card file or a
deck added beside them is seen). The next run that checks the same ruleset the same way (same
command-line options, folder, path form) verifies those hashes and listings, and if nothing
changed prints the same lines without loading anything. A check that found any error (or any
warning) is never stored: it runs again, so its errors are found and located afresh. Entries live
in the disk cache (interpreter/diskcache.py), under the code's fingerprint: a change to cardrules
starts afresh; their digests are keyed by the user's secret there, so a stored "this passed" that
anyone else wrote (or edited) is a miss, and the ruleset is checked.

Only the command line uses this (run_validate); a Validator made elsewhere (the language server,
which checks unsaved text) never replays a stored result.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .. import diskcache, errors, paths

KIND = "validate"


def _digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def _listing(folder: str) -> list[str] | None:
    """The files and folders under a folder (relative paths, sorted), or None if it is gone."""
    if not os.path.isdir(folder):
        return None
    found = []
    for here, subfolders, files in os.walk(folder):
        subfolders.sort()
        rel = os.path.relpath(here, folder)
        found.extend(os.path.join(rel, name) + "/" for name in subfolders)
        found.extend(os.path.join(rel, name) for name in sorted(files))
    return found


def _file_digest(file: str) -> str | None:
    try:
        with open(file, "rb") as handle:
            return _digest(handle.read())
    except OSError:
        return None


class Recorder:
    """What one check does (first-time tests, file lines) and reads (registered texts)."""

    def __init__(self) -> None:
        self.events: list[tuple] = []
        self.read: dict[str, str] = {}
        self.clean = True

    def watch(self, file: str, text: str) -> None:
        self.read[file] = text

    def inputs(self) -> list[tuple[str, str, Any]] | None:
        """('file', path, digest) for each file read and ('folder', path, listing) for the folders
        they are in; None if something read is not a file whose text is on disk as it was read."""
        found: list[tuple[str, str, Any]] = []
        folders: set[str] = set()
        for file, text in sorted(self.read.items()):
            if file.startswith("<"):
                continue  # (no file: text given inline)
            try:
                with open(file, "rb") as handle:
                    raw = handle.read()
            except OSError:
                return None
            try:
                on_disk = raw.decode("utf-8-sig")
            except UnicodeDecodeError:
                return None
            if on_disk != text:  # (changed since it was read, or read from elsewhere)
                return None
            found.append(("file", file, _digest(raw)))
            folders.add(os.path.dirname(os.path.abspath(file)))
        for folder in sorted(folders):
            found.append(("folder", folder, _listing(folder)))
        return found


def _still(inputs: list) -> bool:
    for kind, name, expected in inputs:
        now = _file_digest(name) if kind == "file" else _listing(name)
        if now != expected:
            return False
    return True


def _key(validator: Any, path: Path) -> tuple:
    return (os.getcwd(), validator.relative, os.fspath(path), repr(sorted(validator.options.items())),
            validator.ruleset_arg, repr(sorted((k, str(v)) for k, v in paths.shipped_rulesets().items())))


def _replay(validator: Any, events: list) -> bool:
    """Print what the stored check printed; False (nothing done) if the files already checked in
    this run would make the check print something else."""
    done = set(validator.done)
    for event in events:
        if event[0] == "first":
            fresh = Path(event[1]) not in done
            if fresh != event[2]:
                return False
            done.add(Path(event[1]))
    validator.done = done
    for event in events:
        if event[0] == "report":
            validator.report(event[1], [], event[2])
        elif event[0] == "skip":
            validator.skip(Path(event[1]), event[2])
    return True


@contextmanager
def _recording(validator: Any, recorder: Recorder):
    """Route the validator's first_time/report/skip through the recorder for one check."""
    first_time, report, skip = validator.first_time, validator.report, validator.skip

    def rec_first(path: Path) -> bool:
        result = first_time(path)
        recorder.events.append(("first", str(path.resolve()), result))
        return result

    def rec_report(path, errs, note: str = "", failed: bool | None = None, warnings=()) -> None:
        if errs or failed or warnings:  # (warnings are found afresh too, never replayed)
            recorder.clean = False
        recorder.events.append(("report", os.fspath(path), note))
        report(path, errs, note, failed, warnings)

    def rec_skip(path: Path, why: str) -> None:
        recorder.events.append(("skip", os.fspath(path), why))
        skip(path, why)

    validator.first_time, validator.report, validator.skip = rec_first, rec_report, rec_skip
    errors.SOURCE_WATCHERS.append(recorder.watch)
    try:
        yield
    finally:
        errors.SOURCE_WATCHERS.remove(recorder.watch)
        del validator.first_time, validator.report, validator.skip


def checked(validator: Any, path: Path, check: Callable[[Path], None]) -> None:
    """check(path), or its stored error-free result replayed when nothing it read has changed."""
    st = diskcache.store()
    if st is None:
        check(path)
        return
    key = diskcache.key_of(KIND, _key(validator, path))
    stored = st.get(KIND, key)
    if isinstance(stored, dict):
        try:
            if _still(stored["inputs"]) and _replay(validator, stored["events"]):
                return
        except (KeyError, TypeError, ValueError, IndexError):
            pass  # (an entry that does not fit: check again)
    recorder = Recorder()
    with _recording(validator, recorder):
        check(path)
    if recorder.clean:
        inputs = recorder.inputs()
        if inputs is not None:
            st.put(KIND, key, {"inputs": inputs, "events": recorder.events})
