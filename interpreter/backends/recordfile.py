"""Game records written for analysis elsewhere (pandas, polars): JSON Lines, one record per line
as the report reads them, or Parquet (needs pyarrow, in the extra `report`), where each card
count table (deck, opening, drawn, played, picked, counters) is a list of {name, count} rows so
that every record has the same columns."""

from __future__ import annotations

import json
import os
from pathlib import Path

from .spec import BackendError

_TABLES = ("deck", "opening", "drawn", "played", "picked")


def write_records(path: Path, records: list[dict]) -> None:
    """Write the records (all or nothing: a temporary file moved into place)."""
    tmp = path.with_name(path.name + ".part")
    try:
        if path.suffix == ".parquet":
            _parquet(tmp, records)
        else:
            with open(tmp, "w", encoding="utf-8") as f:
                for record in records:
                    f.write(json.dumps(record, ensure_ascii=False) + "\n")
        os.replace(tmp, path)
    except OSError as err:
        tmp.unlink(missing_ok=True)
        raise BackendError(f"cannot write the records to {path}: {err.strerror or err}") from None


def read_records(path: Path) -> list[dict]:
    """Records from a JSON Lines file (as `write_records` writes them)."""
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def _parquet(path: Path, records: list[dict]) -> None:
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise BackendError("writing Parquet needs pyarrow: pip install 'cardrules[report]' "
                           "(or name the file *.jsonl)") from None
    rows = []
    for record in records:
        row = dict(record)
        row["options"] = json.dumps(record["options"], sort_keys=True)
        row["players"] = [
            {**{k: v for k, v in p.items() if k not in _TABLES and k != "counters"},
             **{k: [{"name": n, "count": c} for n, c in p.get(k, {}).items()] for k in _TABLES},
             "counters": [{"name": n, "value": float(v)} for n, v in p.get("counters", {}).items()]}
            for p in record.get("players", [])]
        rows.append(row)
    pq.write_table(pa.Table.from_pylist(rows), path)
