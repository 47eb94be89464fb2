"""The first player's advantage by agent: `python benchmarks/first_player.py RECORDS.jsonl ...`.

Reads the game records `cardrules simulate GAME --agents A,A --records F.jsonl` writes (the same
agent in every seat, so that a seat's edge is the rules' and not an agent's) and prints, per
file, the first player's win rate over the finished games that name a first player and a
winner, its 95% Wilson interval, and its advantage over an even share (1/players) in
percentage points. How Bases' first-player advantage depends on how well the players play is
in docs/agents.md#which-agent-for-a-balance-run.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from interpreter.report.intervals import wilson  # noqa: E402


def first_player(path: Path) -> dict:
    """The first player's wins over the decided games of a records file, with their interval."""
    wins = decided = draws = games = players = 0
    agents: set[str] = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        record = json.loads(line)
        games += 1
        players = len(record["players"])
        agents.update(record["agents"])
        if record["aborted"] or record["unfinished"] or record["first_player"] is None:
            continue
        if record["winner"] is None:
            draws += 1
            continue
        decided += 1
        wins += record["winner"] == record["first_player"]
    rate = wilson(wins, decided)
    even = 1 / players if players else 0.0
    return {"file": str(path), "agents": sorted(agents), "games": games, "decided": decided, "draws": draws,
            "first_player_wins": wins, "rate": rate.rate, "interval_95": [rate.low, rate.high],
            "advantage_points": None if rate.rate is None else round(100 * (rate.rate - even), 1)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", nargs="+", type=Path)
    args = parser.parse_args(argv)
    print(f"{'agents':16} {'games':>5} {'decided':>7} {'first wins':>10} {'rate':>6} {'95% interval':>14} "
          f"{'advantage':>9}")
    for path in args.records:
        row = first_player(path)
        if row["rate"] is None:
            print(f"{','.join(row['agents']):16} {row['games']:>5} no decided game")
            continue
        low, high = row["interval_95"]
        print(f"{','.join(row['agents']):16} {row['games']:>5} {row['decided']:>7} {row['first_player_wins']:>10} "
              f"{row['rate']:>6.3f} {f'[{low:.3f}, {high:.3f}]':>14} {row['advantage_points']:>+8.1f}p")
    return 0


if __name__ == "__main__":
    sys.exit(main())
