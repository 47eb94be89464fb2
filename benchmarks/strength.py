"""How well the search agents play: `python benchmarks/strength.py [GAME ...] [--games 100]
[--agent mcts:200] [--against random,greedy] [--workers 2] [--json]`.

Per game and opponent: `--games` games of the agent against the opponent, seats alternating
(game i: seed S+i, the agent in seat 1 when i is even), played as `cardrules simulate` plays
them. Prints the agent's wins, losses and draws, its win rate over decided games with a 95%
Wilson interval (a game still going after --max-decisions is counted apart, as unfinished),
and, from the agent's own searches, its iterations per second and seconds per
decision (searches of one option are not counted). Long: a Bases game of mcts:200 takes about
a minute on one core here. The pytest version (tests/test_search_agents.py) plays a few games.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from interpreter import load  # noqa: E402
from interpreter.agents import make_agent, play_decision  # noqa: E402
from interpreter.paths import shipped_games  # noqa: E402
from interpreter.report.intervals import wilson  # noqa: E402

_RULES: dict = {}


def play_match_game(task: tuple) -> tuple:
    """One game: (game name, agent spec, opponent spec, index, seed, most decisions) -> (outcome
    for the agent: 'win', 'loss', 'draw' or 'unfinished' (past the most decisions), search
    seconds, search iterations, searches, seconds)."""
    name, spec, opponent, index, seed, max_decisions = task
    rules = _RULES.get(name) or _RULES.setdefault(name, load(name))
    seat = 1 + index % 2
    agent = make_agent(spec, seed=f"{seed + index}/agent")
    other = make_agent(opponent, seed=f"{seed + index}/opponent")
    agents = [other] * rules.player_count
    agents[seat - 1] = agent
    searched = [0.0, 0, 0]

    if hasattr(agent, "last_search"):
        act = agent.act

        def timed_act(view):
            answer = act(view)
            if agent.last_search is not None:
                searched[0] += agent.last_search.seconds
                searched[1] += agent.last_search.iterations
                searched[2] += 1
            return answer

        agent.act = timed_act
    start = time.perf_counter()
    game = rules.new_game(seed=seed + index, log=False)
    decisions = 0
    while not game.is_over and decisions < max_decisions:
        play_decision(game, agents)
        decisions += 1
    if game.is_over:
        winner = game.result.winner
        outcome = "draw" if winner is None else "win" if winner == seat else "loss"
    else:
        outcome = "unfinished"
    return outcome, searched[0], searched[1], searched[2], time.perf_counter() - start


def match(name: str, spec: str, opponent: str, games: int, seed: int, workers: int,
          max_decisions: int = 3000) -> dict:
    tasks = [(name, spec, opponent, i, seed, max_decisions) for i in range(games)]
    start = time.perf_counter()
    if workers > 1:
        with multiprocessing.get_context().Pool(workers) as pool:
            results = pool.map(play_match_game, tasks, chunksize=1)
    else:
        results = [play_match_game(t) for t in tasks]
    wins = sum(r[0] == "win" for r in results)
    losses = sum(r[0] == "loss" for r in results)
    unfinished = sum(r[0] == "unfinished" for r in results)
    draws = games - wins - losses - unfinished
    interval = wilson(wins, wins + losses)
    low, high = (interval.low, interval.high) if wins + losses else (0.0, 1.0)
    seconds, iterations, searches = (sum(r[i] for r in results) for i in (1, 2, 3))
    return {
        "game": name, "agent": spec, "opponent": opponent, "games": games, "wins": wins, "losses": losses,
        "draws": draws, "unfinished": unfinished, "win_rate_decided": round(wins / (wins + losses), 3) if wins + losses else None,
        "interval_95": [round(low, 3), round(high, 3)],
        "iterations_per_s": round(iterations / seconds, 1) if seconds else None,
        "seconds_per_decision": round(seconds / searches, 3) if searches else None,
        "wall_seconds": round(time.perf_counter() - start, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="games (default: every shipped game)")
    parser.add_argument("--games", dest="count", type=int, default=100, metavar="N")
    parser.add_argument("--agent", default="mcts:200")
    parser.add_argument("--against", default="random,greedy", help="opponents, comma-separated")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--max-decisions", type=int, default=3000,
                        help="a game still going after this many decisions is counted as unfinished")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rows = []
    for name in args.games or shipped_games():
        for opponent in args.against.split(","):
            row = match(name, args.agent, opponent.strip(), args.count, args.seed, args.workers, args.max_decisions)
            rows.append(row)
            if not args.json:
                rate = row["win_rate_decided"]
                unfinished = f" ({row['unfinished']} unfinished)" if row["unfinished"] else ""
                print(f"{name:11} {args.agent} vs {opponent:7} {row['wins']:3}-{row['losses']:3}-{row['draws']:3} "
                      f"(W-L-D){unfinished}  win rate {rate if rate is not None else '-'} "
                      f"[{row['interval_95'][0]}, {row['interval_95'][1]}]  "
                      f"{row['iterations_per_s']} iterations/s  {row['seconds_per_decision']} s/decision  "
                      f"({row['wall_seconds']} s)", flush=True)
    if args.json:
        print(json.dumps(rows, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
