"""Game records written for analysis elsewhere (pandas, polars): JSON Lines, one record per line
as the report reads them, or Parquet (needs pyarrow, in the extra `report`), where each card
count table (deck, opening, drawn, played, picked, counters) is a list of {name, count} rows (and
first_drawn of {name, turn}) so that every record has the same columns.

A batch writes its records as its games finish (`RecordStream`), so that a batch stopped half-way
(Ctrl-C, a kill) keeps the records of the games it finished: JSON Lines go straight into the
file, one line flushed per game, so the file is valid up to its last line at any moment; Parquet,
which cannot be appended to a line at a time, gets the same JSON Lines in `F.part.jsonl` beside
it, turned into `F` when the batch ends or is interrupted. A batch that ends writes the file
again in the order of the seeds.
"""

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
    """Records from a JSON Lines file (as `write_records` or `RecordStream` writes them). A last
    line without its newline that is not JSON (a write cut short by a kill) is left out."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    records = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError:
            if number == len(lines):  # (the unterminated last line)
                break
            raise
    return records


class RecordStream:
    """The records of a batch, written as its games finish (see the module's docstring)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.parquet = path.suffix == ".parquet"
        self.progress = path.with_name(path.name + ".part.jsonl") if self.parquet else path
        self.count = 0  # records written so far
        try:
            self._file = open(self.progress, "w", encoding="utf-8")
        except OSError as err:
            raise BackendError(f"cannot write the records to {self.progress}: {err.strerror or err}") from None

    def add(self, record: dict) -> None:
        """One game's record, written and flushed at once: a whole line."""
        line = json.dumps(record, ensure_ascii=False) + "\n"
        try:
            self._file.write(line)
            self._file.flush()
        except OSError as err:
            raise BackendError(f"cannot write the records to {self.progress}: {err.strerror or err}") from None
        self.count += 1

    def close(self, records: list[dict] | None = None) -> None:
        """End the file: with `records` (every record of a batch that ended, in seed order), write
        them as the final file; with None (an interrupted batch), keep what was written (Parquet:
        turned into the file, in seed order)."""
        self._file.close()
        if self.parquet:
            kept = records if records is not None else sorted(read_records(self.progress), key=_seed)
            write_records(self.path, kept)
            self.progress.unlink(missing_ok=True)
        elif records is not None:
            write_records(self.path, records)


def _seed(record: dict):
    return record.get("seed", 0)


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
            {**{k: v for k, v in p.items() if k not in _TABLES and k not in ("counters", "first_drawn")},
             **{k: [{"name": n, "count": c} for n, c in p.get(k, {}).items()] for k in _TABLES},
             "first_drawn": [{"name": n, "turn": t} for n, t in p.get("first_drawn", {}).items()],
             "counters": [{"name": n, "value": float(v)} for n, v in p.get("counters", {}).items()]}
            for p in record.get("players", [])]
        rows.append(row)
    pq.write_table(pa.Table.from_pylist(rows), path)
