"""Edits of a copied rule file for tests of located errors: replace a piece of text once and
learn where the new text starts."""

from __future__ import annotations

from pathlib import Path


def edit(path: Path, old: str, new: str) -> tuple[int, int]:
    """Replace old by new (the first one); the 1-based line and column where the new value starts."""
    text = path.read_text()
    assert old in text, f"{old!r} not in {path}"
    index = text.index(old)
    path.write_text(text.replace(old, new, 1))
    return text[:index].count("\n") + 1, index - (text.rfind("\n", 0, index) + 1) + 1
