"""Benchmarks, one command: `python benchmarks/run.py [GAME ...] [--runs 5] [--seconds 3] [--json]`.

Per shipped game, on one core (the process is pinned to CPU 0 where the OS allows), all timed
in CPU time (`time.process_time`: wall time on a shared machine swings several-fold): random full
games per second, decisions per second, clones and determinizations per second (of mid-game
states; determinizations drawn again at a decision, as a search draws them, and each the first at
its decision), and peak memory of one game (tracemalloc); with `--mcts N`, the CPU seconds `mcts:200`
takes per decision at N mid-game decisions. Games are played as `cardrules simulate` plays them, by
`Rules.play_out`: the rules call the deciding function and go on, as plain Python
(docs/performance.md). The games/s of the same games taken one decision at a time
(`decision()`, `apply()`, the rules suspended at each) follow. Each figure is the median of
--runs runs. Where a hand-written Python version of the game exists
(benchmarks/handwritten_<game>.py), it runs interleaved with the interpreter's runs and the
ratio of the medians is printed (interpreter over hand-written: 1.0 is as fast). `--memory N` also plays N games in a row and reports the
traced memory after each tenth of them, to show it stays flat.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness import handwritten_module, pin_one_core  # noqa: E402  (benchmarks/, the script's folder, is on the path)

from interpreter import by_count, load  # noqa: E402
from interpreter.engine.state_fields import reset_caches  # noqa: E402
from interpreter.paths import shipped_games  # noqa: E402


def play(rules, seed: int, rng: random.Random, log: bool = False) -> int:
    """One random game by `Rules.play_out`, as `simulate` plays it with random agents (a decider
    by count: `by_count`); its number of decisions."""
    return rules.play_out(by_count(lambda _seat, n: rng.randrange(n)), seed=seed, log=log).state.answered


def play_stepped(rules, seed: int, rng: random.Random, log: bool = False) -> int:
    """The same game as `play`, one decision at a time."""
    game = rules.new_game(seed=seed, log=log)
    decisions = 0
    while not game.is_over:
        _seat, options = game.decision()
        game.apply(rng.randrange(len(options)))
        decisions += 1
    return decisions


def games_per_second(rules, seconds: float, seed: int, player=play) -> tuple[float, float]:
    rng = random.Random(seed)
    games = decisions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        decisions += player(rules, seed + games, rng)
        games += 1
    elapsed = time.process_time() - start
    return games / elapsed, decisions / elapsed


def mid_game_states(rules, seed: int, count: int = 20) -> list:
    """`count` games of random play stopped at a decision 5 to 40 decisions in."""
    rng = random.Random(seed)
    states = []
    for i in range(count):
        game = rules.new_game(seed=seed + i, log=False)
        for _ in range(rng.randrange(5, 40)):
            if game.is_over:
                break
            game.apply(rng.randrange(len(game.decision()[1])))
        if not game.is_over:
            states.append(game)
    return states


def clones_per_second(rules, seconds: float, seed: int) -> float:
    states = mid_game_states(rules, seed)
    clones = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for state in states:
            state.clone()
        clones += len(states)
    return clones / (time.process_time() - start)


def determinizations_per_second(rules, seconds: float, seed: int, first: bool = False) -> float:
    """Copies of mid-game states with what the deciding player cannot see drawn anew, over and
    over as a search draws them at its decision (what every copy of a decision shares is worked
    out once: engine/determinize.py), or with `first` each as the first copy of its decision (the
    state's caches emptied before it)."""
    states = mid_game_states(rules, seed)
    rng = random.Random(seed)
    made = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for state in states:
            if first:
                reset_caches(state.state)
            state.determinize(state.decision()[0], rng)
        made += len(states)
    return made / (time.process_time() - start)


def mcts_seconds_per_decision(rules, decisions: int, seed: int) -> float:
    """CPU seconds `mcts:200` takes per decision, over `decisions` mid-game decisions."""
    from interpreter.agents import make_agent, view_of

    states = mid_game_states(rules, seed, decisions)
    agent = make_agent("mcts:200", seed=seed)
    start = time.process_time()
    for state in states:
        agent.act(view_of(state))
    return (time.process_time() - start) / len(states)


def peak_memory_kib(rules, seed: int) -> float:
    rng = random.Random(seed)
    tracemalloc.start()
    play(rules, seed, rng, log=True)
    _current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 1024


def memory_series(rules, games: int, seed: int) -> list[float]:
    rng = random.Random(seed)
    tracemalloc.start()
    series = []
    step = max(1, games // 10)
    for i in range(games):
        play(rules, seed + i, rng)
        if (i + 1) % step == 0:
            gc.collect()  # live memory only, not garbage the collector has not reached yet
            series.append(tracemalloc.get_traced_memory()[0] / 1024)
    tracemalloc.stop()
    return series


def baseline_games_per_second(name: str, seconds: float, seed: int):
    """Games/s of the hand-written Python version of a game, where one exists (benchmarks/)."""
    module = handwritten_module(name)
    return None if module is None else module.games_per_second(seconds, seed)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="games to measure (default: every shipped game)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=3.0, help="length of one timed run")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--memory", type=int, default=0, metavar="N", help="also play N games and sample memory")
    parser.add_argument("--mcts", type=int, default=0, metavar="N",
                        help="also time mcts:200 at N mid-game decisions (CPU seconds per decision)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    pinned = pin_one_core()
    report = {"python": sys.version.split()[0], "cpu": pinned, "runs": args.runs, "games": {}}
    for name in args.games or shipped_games():
        rules = load(name)
        gps, dps, sgps, cps, dtps, fdtps, base = [], [], [], [], [], [], []
        for run in range(args.runs):
            g, d = games_per_second(rules, args.seconds, args.seed + 100_000 * run)
            gps.append(g)
            dps.append(d)
            sgps.append(games_per_second(rules, args.seconds, args.seed + 100_000 * run, play_stepped)[0])
            cps.append(clones_per_second(rules, args.seconds / 2, args.seed + run))
            dtps.append(determinizations_per_second(rules, args.seconds / 2, args.seed + run))
            fdtps.append(determinizations_per_second(rules, args.seconds / 2, args.seed + run, first=True))
            b = baseline_games_per_second(name, args.seconds, args.seed + 100_000 * run)
            if b is not None:
                base.append(b)
        entry = {
            "games_per_s": round(statistics.median(gps), 1),
            "decisions_per_s": round(statistics.median(dps)),
            "clones_per_s": round(statistics.median(cps)),
            "determinizations_per_s": round(statistics.median(dtps)),
            "first_determinizations_per_s": round(statistics.median(fdtps)),
            "peak_memory_kib": round(peak_memory_kib(rules, args.seed), 1),
            "games_per_s_runs": [round(x, 1) for x in gps],
            "stepped_games_per_s": round(statistics.median(sgps), 1),
        }
        if base:
            entry["handwritten_games_per_s"] = round(statistics.median(base), 1)
            entry["handwritten_over_interpreter"] = round(statistics.median(base) / statistics.median(gps), 1)
            entry["handwritten_over_stepped"] = round(statistics.median(base) / statistics.median(sgps), 1)
            entry["interpreter_over_handwritten"] = round(statistics.median(gps) / statistics.median(base), 3)
        if args.mcts:
            entry["mcts200_cpu_s_per_decision"] = round(mcts_seconds_per_decision(rules, args.mcts, args.seed), 3)
        if args.memory:
            entry["memory_kib_series"] = [round(x) for x in memory_series(rules, args.memory, args.seed)]
        report["games"][name] = entry
        if not args.json:
            print(f"{name}: {entry['games_per_s']} games/s, {entry['decisions_per_s']} decisions/s, "
                  f"{entry['clones_per_s']} clones/s, {entry['determinizations_per_s']} determinizations/s "
                  f"({entry['first_determinizations_per_s']} the first at a decision), peak {entry['peak_memory_kib']} KiB for one game "
                  f"(median of {args.runs}; runs {entry['games_per_s_runs']})", flush=True)
            print(f"  one decision at a time (decision/apply): {entry['stepped_games_per_s']} games/s")
            if base:
                print(f"  hand-written Python version: {entry['handwritten_games_per_s']} games/s, "
                      f"{entry['handwritten_over_interpreter']}x the interpreter "
                      f"({entry['handwritten_over_stepped']}x one decision at a time; runs interleaved); "
                      f"the interpreter at {entry['interpreter_over_handwritten']} of it")
            if args.mcts:
                print(f"  mcts:200: {entry['mcts200_cpu_s_per_decision']} CPU s a decision ({args.mcts} decisions)")
            if args.memory:
                print(f"  traced memory after each tenth of {args.memory} games (KiB): {entry['memory_kib_series']}")
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(f"python {report['python']}, {pinned}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
