"""What the balance report (render.py) and the A/B comparison page (comparepage.py) share: the
records checked, the header's facts read from them and merged with the caller's, and the
document written as `index.html` and `report.md` into a folder, all at once or not at all.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from .documents import Document, to_html, to_markdown
from .errors import ReportError
from .folder import write_folder
from .records import Record, check_records
from .tables import NONE

PAGE = "index.html"
MARKDOWN = "report.md"


def checked_records(records: Iterable[Record], side: str = "") -> list[Record]:
    """The records, checked (a ReportError when there is none; `side` names them: "base ")."""
    checked = check_records(records)
    if not checked:
        raise ReportError(f"no {side}game records to report on")
    return checked


def _value_text(value: Any) -> str:
    if value is None:
        return NONE
    if isinstance(value, Mapping):
        return ", ".join(f"{k}={_value_text(v)}" for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))) or NONE
    if isinstance(value, (list, tuple, set, frozenset)):
        items = sorted(value, key=str) if isinstance(value, (set, frozenset)) else value
        return ", ".join(_value_text(v) for v in items) or NONE
    return str(value)


def _distinct(values: Iterable[str]) -> str:
    return "; ".join(sorted(set(values))) or NONE


def _seed_text(records: Sequence[Record]) -> str:
    seeds = sorted({r["seed"] for r in records})
    if not seeds:
        return NONE
    return f"{seeds[0]}–{seeds[-1]} ({len(seeds)} seeds)" if len(seeds) > 1 else str(seeds[0])


def record_facts(records: Sequence[Record]) -> dict[str, str]:
    """The header's facts as the records give them: ruleset, games, seeds, agents, options."""
    return {
        "Ruleset": _distinct(str(r.get("title") or r.get("ruleset") or "") for r in records),
        "Games": str(len(records)),
        "Seeds": _seed_text(records),
        "Agents": _distinct(" vs ".join(map(str, r.get("agents") or [])) for r in records),
        "Options": _distinct(_value_text(r.get("options") or {}) for r in records),
    }


def with_meta(facts: dict[str, str], meta: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    """The facts read from the records, with `meta`'s entries replacing those of the same name (any case)."""
    merged = dict(facts)
    for key, value in meta.items():
        name = str(key)
        label = next((k for k in merged if k.lower() == name.lower()), name[:1].upper() + name[1:])
        merged[label] = _value_text(value)
    return tuple(merged.items())


def side_summary(records: Sequence[Record]) -> str:
    """One side of a comparison in a line: ruleset, games, seeds, agents, options."""
    facts = record_facts(records)
    return (f"{facts['Ruleset']}, {facts['Games']} games, seeds {facts['Seeds']}, agents {facts['Agents']}, "
            f"options {facts['Options']}")


def write_document(folder: Path, document: Document) -> None:
    """The document as `index.html` and `report.md` in `folder`."""
    (folder / PAGE).write_text(to_html(document), encoding="utf-8")
    (folder / MARKDOWN).write_text(to_markdown(document), encoding="utf-8")


def write_pages(out_dir: str | Path, render: Callable[[Path], None]) -> Path:
    """`render` writes the files into a folder that becomes `out_dir` only once all are written
    (folder.py); returns the page's path."""
    write_folder(Path(out_dir), render)
    return Path(out_dir) / PAGE
