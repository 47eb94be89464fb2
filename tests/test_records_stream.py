"""`simulate --records` writes each game's record as the game finishes (issue 29.7): a batch
stopped by Ctrl-C keeps the records of the games it finished, says how many and where, and exits
130. Tested by really interrupting a running `cardrules simulate` with SIGINT."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from interrupting import ctrl_c_heard

from interpreter.backends import game_seeds
from interpreter.backends.recordfile import read_records
from interpreter.cli.main import main

ROOT = Path(__file__).resolve().parent.parent


def _start(records: Path, *extra: str) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.Popen(
        [sys.executable, "-m", "interpreter.cli.main", "simulate", "lanes", "--games", "100000", "--json",
         "--records", str(records), *extra],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=records.parent,
        preexec_fn=ctrl_c_heard)


def _wait_for(path: Path, lines: int, process: subprocess.Popen, limit: float = 120.0) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if path.exists() and path.read_text(encoding="utf-8").count("\n") >= lines:
            return
        if process.poll() is not None:
            raise AssertionError(f"simulate ended early: {process.communicate()}")
        time.sleep(0.1)
    process.kill()
    raise AssertionError(f"no {lines} records in {path} after {limit} s")


def _interrupt(process: subprocess.Popen) -> tuple[int, str, str]:
    process.send_signal(signal.SIGINT)
    try:
        out, err = process.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        process.kill()
        raise
    return process.returncode, out, err


def _kept(err: str, path: Path) -> int:
    found = re.search(rf"interrupted after (\d+) of 100000 games; kept the records of (\d+) games in "
                      rf"{re.escape(path.name)}", err)
    assert found, err
    return int(found.group(2))


def test_ctrl_c_keeps_the_json_lines_records_of_the_finished_games(tmp_path):
    records = tmp_path / "games.jsonl"
    process = _start(records)
    _wait_for(records, 3, process)
    code, out, err = _interrupt(process)
    assert code == 130, err
    kept = _kept(err, records)
    text = records.read_text(encoding="utf-8")
    assert text.endswith("\n")
    lines = [json.loads(line) for line in text.splitlines()]  # (every line is a whole record)
    assert len(lines) == kept >= 3
    assert sorted(r["seed"] for r in lines) == sorted(game_seeds(0, 0, kept))  # (the first games, one worker)
    assert all(r["ruleset"] == "lanes" and r["players"] for r in lines)
    summary = json.loads(out)
    assert summary["interrupted"] is True and summary["games"] >= kept


def test_ctrl_c_keeps_the_parquet_records_of_the_finished_games(tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    records = tmp_path / "games.parquet"
    progress = tmp_path / "games.parquet.part.jsonl"
    process = _start(records)
    _wait_for(progress, 3, process)
    assert not records.exists()
    code, out, err = _interrupt(process)
    assert code == 130, err
    kept = _kept(err, records)
    assert not progress.exists()
    table = pq.read_table(records)
    assert table.num_rows == kept >= 3
    assert table.column("seed").to_pylist() == sorted(game_seeds(0, 0, kept))


def test_a_batch_that_ends_writes_its_records_in_seed_order_and_leaves_no_part_file(capsys, tmp_path):
    for name in ("games.jsonl", "games.parquet"):
        if name.endswith(".parquet"):
            pytest.importorskip("pyarrow")
        records = tmp_path / name
        assert main(["simulate", "initiative", "--games", "6", "--workers", "2", "--json",
                     "--records", str(records)]) == 0
        capsys.readouterr()
        assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(name)) == [name]
    assert [r["seed"] for r in read_records(tmp_path / "games.jsonl")] == sorted(game_seeds(0, 0, 6))


def test_records_are_written_before_the_batch_ends(tmp_path, monkeypatch):
    """Each record is in the file when its game is done, before the next one is played."""
    from interpreter.backends import games as batch_games

    records = tmp_path / "games.jsonl"
    seen: list[int] = []
    play = batch_games.play_game

    def spying(spec, seed):
        seen.append(records.read_text(encoding="utf-8").count("\n") if records.exists() else -1)
        return play(spec, seed)

    monkeypatch.setattr(batch_games, "play_game", spying)
    assert main(["simulate", "initiative", "--games", "4", "--json", "--records", str(records)]) == 0
    assert seen == [0, 1, 2, 3]


def test_reading_a_file_cut_in_its_last_line_keeps_the_whole_lines(tmp_path):
    path = tmp_path / "games.jsonl"
    path.write_text('{"seed": 0}\n{"seed": 1}\n{"seed": 2, "win', encoding="utf-8")
    assert read_records(path) == [{"seed": 0}, {"seed": 1}]
    path.write_text('{"seed": 0}\n{"seed": 1, "win\n{"seed": 2}\n', encoding="utf-8")
    with pytest.raises(json.JSONDecodeError):
        read_records(path)
