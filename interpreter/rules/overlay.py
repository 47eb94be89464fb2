"""A source overlay: texts that stand in for files on disk while rule, card and deck files are read.

An editor holds unsaved text; checking the ruleset it belongs to must read that text, not the
file on disk. Inside ``with source_overlay({path: text, ...}):`` (or through the ``sources``
parameter of `loader.load_ruleset`), the two readers of the rules layer, `sources.read_text`
(code and card files) and `yamlload.load_yaml` (rule files, decks, scenarios), take a file's text
from the overlay when it holds one, and read the disk otherwise. The text goes through the same
checks as the disk's (a NUL byte, text that is no UTF-8, the size limits). Keys are paths, compared
resolved; the overlay is a context variable, so each thread (and asyncio task) sees its own.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

_OVERLAY: ContextVar[Mapping[str, str] | None] = ContextVar("cardrules_source_overlay", default=None)


def _key(path: str | os.PathLike[str]) -> str:
    try:
        return str(Path(path).resolve())
    except (OSError, RuntimeError, ValueError):
        return os.fspath(path)


@contextmanager
def source_overlay(texts: Mapping[str | os.PathLike[str], str] | None) -> Iterator[None]:
    """Read the files named in ``texts`` from their text there, within the ``with`` block (an
    overlay already in force stays under it: the inner one wins where both name a file)."""
    merged = {**(_OVERLAY.get() or {}), **{_key(p): t for p, t in (texts or {}).items()}}
    token = _OVERLAY.set(merged)
    try:
        yield
    finally:
        _OVERLAY.reset(token)


def overlaid_text(path: str | os.PathLike[str]) -> str | None:
    """The overlay's text of a file, or None when the overlay holds none (read the disk)."""
    overlay = _OVERLAY.get()
    if not overlay:
        return None
    return overlay.get(_key(path))


def overlaid_bytes(path: str | os.PathLike[str]) -> bytes | None:
    """The overlay's text of a file as the bytes a file with that text would hold (UTF-8; a lone
    surrogate is kept as its bytes, so that the reader's UTF-8 check finds it), or None."""
    text = overlaid_text(path)
    return None if text is None else text.encode("utf-8", "surrogatepass")
