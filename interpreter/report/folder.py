"""All-or-nothing writing of a report folder.

The files are rendered into a hidden staging folder beside the target (same parent, so moving it
is a rename on one file system) and swapped in only once all of them are written. A target that
exists must be empty or hold only a previous report's files, so no one's other files are lost.
"""

from __future__ import annotations

import os
import secrets
import shutil
from collections.abc import Callable
from pathlib import Path

from .errors import ReportError

REPORT_FILES = ("index.html", "report.md", "report.json")


def is_report_file(path: Path) -> bool:
    """A file a report writes: its page, its Markdown, or a chart."""
    return path.is_file() and (path.name in REPORT_FILES or path.suffix == ".png")


def _check_target(out_dir: Path) -> None:
    if not out_dir.exists():
        return
    if not out_dir.is_dir():
        raise ReportError(f"{out_dir} is not a folder: the report needs a folder of its own")
    try:
        others = sorted(p.name for p in out_dir.iterdir() if not is_report_file(p))
    except OSError as err:
        raise ReportError(f"cannot read the report folder {out_dir}: {err.strerror}") from err
    if others:
        shown = ", ".join(others[:5]) + (", ..." if len(others) > 5 else "")
        raise ReportError(f"{out_dir} holds files that are not a report's ({shown}): "
                          "choose an empty folder or a previous report's")


def _cannot_write(out_dir: Path, err: OSError, staging: Path | None = None) -> ReportError:
    inside_staging = staging is not None and str(err.filename or "").startswith(str(staging))
    where = f" ({err.filename})" if err.filename and not inside_staging else ""
    return ReportError(f"cannot write the report into {out_dir}: {err.strerror or err}{where}")


def write_folder(out_dir: Path, render: Callable[[Path], None]) -> None:
    """Call `render(staging)` to write every file into a staging folder, then make it `out_dir`."""
    out_dir = Path(out_dir).absolute()
    _check_target(out_dir)
    parent = out_dir.parent
    if parent.exists() and not parent.is_dir():
        raise ReportError(f"cannot write the report into {out_dir}: {parent} is not a folder")
    staging = parent / f".{out_dir.name}.staging-{secrets.token_hex(4)}"
    try:
        parent.mkdir(parents=True, exist_ok=True)
        staging.mkdir()
    except OSError as err:
        raise _cannot_write(out_dir, err) from err
    try:
        render(staging)
        _swap_in(staging, out_dir)
    except OSError as err:
        raise _cannot_write(out_dir, err, staging) from err
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _swap_in(staging: Path, out_dir: Path) -> None:
    """Make `staging` the folder `out_dir`, replacing a previous report there (checked beforehand)."""
    if not out_dir.exists():
        os.rename(staging, out_dir)
        return
    shutil.copymode(out_dir, staging)
    previous = out_dir.parent / f".{out_dir.name}.previous-{secrets.token_hex(4)}"
    os.rename(out_dir, previous)
    try:
        os.rename(staging, out_dir)
    except OSError:
        os.rename(previous, out_dir)
        raise
    shutil.rmtree(previous, ignore_errors=True)
