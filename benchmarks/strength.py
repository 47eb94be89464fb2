"""How well the search agents play: `python benchmarks/strength.py [GAME ...] [--games 10]
[--agent mcts:200] [--against random,greedy,turn] [--workers 2] [--json]`.

Per game and opponent: `--games` games of the agent against the opponent, the agent in one seat
and the opponent agent in every other (each seat its own instance), the agent's seat rotating
(game i: seed S+i, the agent in seat 1 + i mod players: in Hearts, 4 players, seats 1-4 in
turn), played as `cardrules simulate` plays them. Prints the agent's wins, losses and draws,
its win rate over decided games with a 95% Wilson interval beside an even share (1/players: a
win in a 4-player game is another's loss three times), a game still going after
--max-decisions counted apart, as unfinished; and the seconds per decision of the agent and
of the opponent (timed around each `act`, decisions of one option not counted). Long: a Bases
game of mcts:200 takes about a minute on one core here. The pytest version
(tests/test_search_agents.py) plays a few games.
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
    for the agent: 'win', 'loss', 'draw' or 'unfinished' (past the most decisions), the agent's
    [seconds, decisions], the opponents' [seconds, decisions], seconds)."""
    name, spec, opponent, index, seed, max_decisions = task
    rules = rules_of(name)
    seat = 1 + index % rules.player_count
    agents = [_timed(make_agent(opponent, seed=f"{seed + index}/opponent{s}")) for s in range(1, rules.player_count + 1)]
    agents[seat - 1] = _timed(make_agent(spec, seed=f"{seed + index}/agent"))
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
    mine = agents[seat - 1].timing
    theirs = [sum(a.timing[k] for s, a in enumerate(agents, 1) if s != seat) for k in (0, 1)]
    return outcome, mine, theirs, time.perf_counter() - start


def _timed(agent):
    """The agent, its `act` timed: `agent.timing` = [seconds, decisions] over decisions of more
    than one option."""
    act = agent.act
    agent.timing = [0.0, 0]

    def timed_act(view):
        if len(view.options) < 2:
            return act(view)
        began = time.perf_counter()
        answer = act(view)
        agent.timing[0] += time.perf_counter() - began
        agent.timing[1] += 1
        return answer

    agent.act = timed_act
    return agent


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

    def per_decision(k: int) -> float | None:
        seconds, decided = (sum(r[k][i] for r in results) for i in (0, 1))
        return round(seconds / decided, 5) if decided else None

    return {
        "game": name, "agent": spec, "opponent": opponent, "players": rules_of(name).player_count,
        "games": games, "wins": wins, "losses": losses, "draws": draws, "unfinished": unfinished,
        "win_rate_decided": round(wins / (wins + losses), 3) if wins + losses else None,
        "interval_95": [round(low, 3), round(high, 3)],
        "even_share": round(1 / rules_of(name).player_count, 3),
        "seconds_per_decision": per_decision(1),
        "opponent_seconds_per_decision": per_decision(2),
        "wall_seconds": round(time.perf_counter() - start, 1),
    }


def rules_of(name: str):
    """The game's rules, loaded once per process."""
    return _RULES.get(name) or _RULES.setdefault(name, load(name))


HEADER = (f"{'game':11} {'agent':9} {'vs':8} {'W-L-D':>11} {'win rate':>8} {'95% interval':>14} {'even':>5} "
          f"{'s/decision':>10} {'opp s/dec':>9} {'wall s':>7}")


def _line(row: dict) -> str:
    """One row of the printed table."""
    rate = row["win_rate_decided"]
    wld = f"{row['wins']}-{row['losses']}-{row['draws']}"
    unfinished = f"  ({row['unfinished']} unfinished)" if row["unfinished"] else ""
    low, high = row["interval_95"]
    return (f"{row['game']:11} {row['agent']:9} {row['opponent']:8} {wld:>11} "
            f"{rate if rate is not None else '-':>8} {f'[{low:.2f}, {high:.2f}]':>14} {row['even_share']:>5.2f} "
            f"{_seconds(row['seconds_per_decision']):>10} {_seconds(row['opponent_seconds_per_decision']):>9} "
            f"{row['wall_seconds']:>7}{unfinished}")


def _seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:.4f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="games (default: every shipped game)")
    parser.add_argument("--games", dest="count", type=int, default=10, metavar="N",
                        help="games per game and opponent (default 10: a Hearts game of mcts:200 takes minutes)")
    parser.add_argument("--agent", default="mcts:200")
    parser.add_argument("--against", default="random,greedy,turn", help="opponents, comma-separated")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--max-decisions", type=int, default=3000,
                        help="a game still going after this many decisions is counted as unfinished")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rows = []
    if not args.json:
        print(HEADER, flush=True)
    for name in args.games or shipped_games():
        for opponent in args.against.split(","):
            row = match(name, args.agent, opponent.strip(), args.count, args.seed, args.workers, args.max_decisions)
            rows.append(row)
            if not args.json:
                print(_line(row), flush=True)
    if args.json:
        print(json.dumps(rows, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
