"""What the OpenSpiel adapter costs, and how ISMCTS plays through it:

    python benchmarks/envs_openspiel.py [GAME ...] [--games 20] [--runs 3] [--seed 1] [--json]
    python benchmarks/envs_openspiel.py [GAME ...] --ismcts-games N [--simulations 10] [--runs 0]
                                        [--copies NAME:N;NAME:N]

Per shipped game, medians of --runs runs of --games random games each:
- `raw`: `game.decision()` and `game.apply(random index)`; a step is a decision;
- `openspiel`: the pyspiel state (interpreter/envs/openspiel_game.py) as OpenSpiel's users drive
  it, `state.legal_actions()` and `state.apply_action(random choice)`; a step is one action of a
  player (a choice of several parts takes several; the 4 chance steps that draw the seed are
  played but neither timed as steps nor counted).
Game i of a run has seed S+i in both (the openspiel game's chance steps give that seed); the
random choices differ (an option vs one action id at a time), so games differ in length: compare
steps/s. `ratio` is raw steps/s over openspiel steps/s.

`--ismcts-games N`: N games per game of open_spiel's ISMCTSBot (random-rollout evaluator,
--simulations per decision, UCT c=2) against uniformly random actions, seats alternating, all
seeded; prints its wins, losses, draws and win rate over decided games with a 95% Wilson interval.
A game stopped because a decision offered more copies of a card than the action space names (the
searching player of Initiative can double its Monster tokens round after round) is counted apart,
as `overflow`; `--copies` raises the bounds (the game parameter of the same name).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from interpreter import load  # noqa: E402
from interpreter.envs.openspiel_game import (  # noqa: E402
    SEED_BYTES,
    UnnamedOptionError,
    parse_copies,
    register,
)
from interpreter.paths import shipped_games  # noqa: E402
from interpreter.report.intervals import wilson  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from envs import raw  # noqa: E402  (benchmarks/envs.py)


def raw_run(rules, games: int, seed: int) -> tuple[int, float]:
    """The same random games through the raw API (benchmarks/envs.py's `raw`)."""
    measure = raw(rules, games, seed)
    return measure.steps, measure.seconds


def openspiel_run(game, games: int, seed: int) -> tuple[int, float]:
    rng = random.Random(seed)
    steps = 0
    seconds = 0.0
    for i in range(games):
        state = game.new_initial_state()
        for byte in range(SEED_BYTES):  # (the seed S+i, as the raw games have it)
            state.apply_action((seed + i) >> (8 * byte) & 0xFF)
        start = time.perf_counter()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        seconds += time.perf_counter() - start
    return steps, seconds


def ismcts_match(game, games: int, simulations: int, seed: int) -> dict:
    outcomes = {"win": 0, "loss": 0, "draw": 0, "overflow": 0}
    start = time.perf_counter()
    for index in range(games):
        rs = np.random.RandomState(seed + index)
        bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), uct_c=2.0,
                               max_simulations=simulations, random_state=rs)
        keys = random.Random(seed + index)
        bot.set_resampler(lambda state, player, keys=keys: state.resample_from_infostate(player, keys.random))
        seat = index % 2
        state = game.new_initial_state()
        try:
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(int(rs.randint(256)))
                elif state.current_player() == seat:
                    state.apply_action(int(bot.step(state)))
                else:
                    state.apply_action(int(rs.choice(state.legal_actions())))
        except UnnamedOptionError as err:
            outcomes["overflow"] += 1
            print(f"  game {index}: {err}", file=sys.stderr)
            continue
        result = state.returns()[seat]
        outcomes["win" if result > 0 else "loss" if result < 0 else "draw"] += 1
    decided = outcomes["win"] + outcomes["loss"]
    interval = wilson(outcomes["win"], decided)
    low, high = (interval.low, interval.high) if decided else (0.0, 1.0)
    return {**outcomes, "games": games, "simulations": simulations,
            "win_rate": outcomes["win"] / decided if decided else None, "wilson95": [low, high],
            "seconds": time.perf_counter() - start}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games_", nargs="*", metavar="GAME", help="shipped games (default: all)")
    parser.add_argument("--games", type=int, default=20, help="random games per run (default 20)")
    parser.add_argument("--runs", type=int, default=3,
                        help="timed runs, the median reported (default 3; 0: none)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ismcts-games", type=int, default=0, metavar="N",
                        help="also play N games of ISMCTSBot against random per game")
    parser.add_argument("--simulations", type=int, default=10,
                        help="ISMCTS simulations per decision (default 10)")
    parser.add_argument("--copies", default="", metavar="NAME:N;NAME:N",
                        help="action-space ordinals per card name (the games' `copies` parameter)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    args = parser.parse_args(argv)
    names = args.games_ or list(shipped_games())
    report: dict = {}
    for name in names:
        game = register(name, copies=parse_copies(args.copies))
        entry: dict = {}
        if args.runs > 0:
            rules = load(name)
            raw_runs = [raw_run(rules, args.games, args.seed) for _ in range(args.runs)]
            spiel_runs = [openspiel_run(game, args.games, args.seed) for _ in range(args.runs)]
            raw_rate = statistics.median(steps / seconds for steps, seconds in raw_runs)
            spiel_rate = statistics.median(steps / seconds for steps, seconds in spiel_runs)
            entry.update({"raw_steps_per_s": raw_rate, "raw_steps": raw_runs[0][0],
                          "openspiel_steps_per_s": spiel_rate, "openspiel_steps": spiel_runs[0][0],
                          "ratio": raw_rate / spiel_rate})
            if not args.json:
                print(f"{name:11} raw {raw_rate:9.0f} steps/s ({raw_runs[0][0]} steps)   openspiel "
                      f"{spiel_rate:8.0f} steps/s ({spiel_runs[0][0]} steps)   "
                      f"raw/openspiel {raw_rate / spiel_rate:5.2f}",
                      flush=True)
        if args.ismcts_games > 0:
            played = ismcts_match(game, args.ismcts_games, args.simulations, args.seed)
            entry["ismcts"] = played
            if not args.json:
                rate = "n/a" if played["win_rate"] is None else f"{played['win_rate']:.2f}"
                low, high = played["wilson95"]
                overflow = (f", {played['overflow']} stopped by an action-space bound"
                            if played["overflow"] else "")
                print(f"{name:11} ISMCTS ({args.simulations} simulations) vs random: {played['win']} won, "
                      f"{played['loss']} lost, {played['draw']} drawn of {played['games']}{overflow}; "
                      f"win rate {rate} "
                      f"[{low:.2f}, {high:.2f}] (95% Wilson), {played['seconds']:.0f} s", flush=True)
        report[name] = entry
    if args.json:
        print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
