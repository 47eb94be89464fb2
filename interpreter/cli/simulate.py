"""`cardrules simulate`: many games between agents, in one or several processes, summarised.

Game i is `new_game(seed=S+i, log=False)` with its agents seeded from S+i and the seat, so a run
is the same for any number of workers: each worker loads the rules once, games are handed out in
chunks and their results merged in game order.
"""

from __future__ import annotations

import json
import multiprocessing
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

from ..agents import decider, make_agent, searches
from ..errors import CardrulesError
from .common import agent_seed, err_console, out_console


class SimulationError(CardrulesError):
    """A game of the simulation stopped: a rule error or an agent's, with the game's seed."""

    phase = "simulation"


# (winner seat or None, end reason, turns, decisions) or ("error", message)
GameResult = tuple

_WORKER: dict[str, Any] = {}


def play_one(rules, agent_names: list[str], seed: int) -> GameResult:
    """One game to its end; a rule error comes back as ('error', message) with the seed."""
    try:
        agents = [make_agent(n, seed=agent_seed(seed, seat)) for seat, n in enumerate(agent_names, start=1)]
        if searches(agents):  # (they copy the game at their decisions: the form that can be copied)
            game = rules.new_game(seed=seed, log=False)
            game.play_out(decider(agents))
        else:
            game = rules.play_out(decider(agents), seed=seed)  # (a game that fails is reported, not resumed)
        decisions = game.answered
        r = game.result
        return (r.winner, r.reason, r.turns, decisions)
    except CardrulesError as err:
        return ("error", f"game with seed {seed}: {err}")


def _init_worker(game: str, options: dict, agent_names: list[str]) -> None:
    """Load the rules once per worker (a forked worker already has the parent's: keep them)."""
    from .. import load

    key = repr((game, sorted(options.items())))
    if _WORKER.get("key") != key:
        _WORKER["rules"] = load(game, options=options)
        _WORKER["key"] = key
    _WORKER["agents"] = agent_names


def _worker_play(seed: int) -> GameResult:
    return play_one(_WORKER["rules"], _WORKER["agents"], seed)


class GameRunner:
    """Plays games seed..seed+games-1 and yields their results in game order.

    With several workers the process pool is started on entry, before any progress display
    starts a thread, and each worker loads the rules once.
    """

    def __init__(self, rules, game_arg: str, options: dict, agent_names: list[str], games: int, seed: int,
                 workers: int) -> None:
        self.rules = rules
        self.agent_names = agent_names
        self.seeds = range(seed, seed + games)
        self.workers = max(1, min(workers, games))
        self.init_args = (game_arg, options, agent_names)
        self.pool = None

    def __enter__(self) -> GameRunner:
        if self.workers > 1:
            ctx = multiprocessing.get_context()
            if ctx.get_start_method() == "fork":  # the workers inherit the loaded rules
                game, options, _agents = self.init_args
                _WORKER.update(rules=self.rules, key=repr((game, sorted(options.items()))))
            self.pool = ctx.Pool(self.workers, initializer=_init_worker, initargs=self.init_args)
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.pool is not None:
            self.pool.terminate()
            self.pool.join()
            self.pool = None

    def __iter__(self) -> Iterator[GameResult]:
        if self.pool is None:
            for s in self.seeds:
                yield play_one(self.rules, self.agent_names, s)
            return
        chunk = max(1, min(64, len(self.seeds) // (self.workers * 8)))
        yield from self.pool.imap(_worker_play, self.seeds, chunksize=chunk)


class Summary:
    def __init__(self, players: int) -> None:
        self.games = 0
        self.wins = [0] * players
        self.draws = 0
        self.reasons: dict[str, int] = {}
        self.turns = 0
        self.decisions = 0

    def add(self, result: GameResult) -> None:
        winner, reason, turns, decisions = result
        self.games += 1
        if winner is None:
            self.draws += 1
        else:
            self.wins[winner - 1] += 1
        self.reasons[reason] = self.reasons.get(reason, 0) + 1
        self.turns += turns
        self.decisions += decisions

    def to_dict(self, **extra: Any) -> dict:
        n = max(self.games, 1)
        return {
            "games": self.games,
            "wins": list(self.wins),
            "draws": self.draws,
            "end_reasons": dict(sorted(self.reasons.items())),
            "mean_turns": round(self.turns / n, 3),
            "decisions_per_game": round(self.decisions / n, 3),
            **extra,
        }


def _progress(total: int, enabled: bool) -> tuple[Any, Callable[[], None]]:
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    progress = Progress(TextColumn("[bold]simulating"), BarColumn(), MofNCompleteColumn(),
                        TextColumn("games"), TimeElapsedColumn(), TimeRemainingColumn(),
                        console=err_console(), transient=True, disable=not enabled)
    task = progress.add_task("games", total=total)
    return progress, lambda: progress.advance(task)


def run_simulate(rules, game_arg: str, options: dict, agent_names: list[str], games: int, seed: int,
                 workers: int, as_json: bool) -> int:
    summary = Summary(rules.player_count)
    progress, advance = _progress(games, not as_json)
    start = time.perf_counter()
    with GameRunner(rules, game_arg, options, agent_names, games, seed, workers) as runner, progress:
        for result in runner:
            if result[0] == "error":
                raise SimulationError(result[1])
            summary.add(result)
            advance()
    elapsed = time.perf_counter() - start
    data = summary.to_dict(
        games_per_s=round(summary.games / elapsed, 2) if elapsed > 0 else None,
        seconds=round(elapsed, 3),
        seed=seed,
        options=dict(rules.options),
        ruleset=rules.name,
        agents=list(agent_names),
        workers=workers,
    )
    if as_json:
        sys.stdout.write(json.dumps(data) + "\n")
    else:
        _table(rules, data)
    return 0


def _table(rules, data: dict) -> None:
    from rich.table import Table
    from rich.text import Text

    n = max(data["games"], 1)
    table = Table(title=Text(f"{rules.title}: {data['games']} games"), show_header=True)
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_column("share", justify="right")

    def row(name: str, value: Any, share: str = "") -> None:
        table.add_row(Text(name), Text(str(value)), Text(share))

    for seat, (agent, wins) in enumerate(zip(data["agents"], data["wins"]), start=1):
        row(f"P{seat} wins ({agent})", wins, f"{100 * wins / n:.1f}%")
    row("draws", data["draws"], f"{100 * data['draws'] / n:.1f}%")
    for reason, count in data["end_reasons"].items():
        row(f"ended: {reason}", count, f"{100 * count / n:.1f}%")
    row("mean turns", data["mean_turns"])
    row("decisions per game", data["decisions_per_game"])
    row("games per second", data["games_per_s"])
    row("seed", data["seed"])
    row("workers", data["workers"])
    if data["options"]:
        row("options", ", ".join(f"{k}={v}" for k, v in data["options"].items()))
    out_console().print(table)
