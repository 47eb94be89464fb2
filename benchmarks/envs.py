"""What the research adapters cost: masked random games of each shipped game through the raw API
and through each adapter (interpreter/envs), steps/s and games/s, medians of --runs runs.

    python benchmarks/envs.py [GAME ...] [--games 20] [--runs 3] [--seed 1] [--json]
    python benchmarks/envs.py [GAME ...] --illegal-check 10000 [--observe]

Sections, each a function `(rules, games, seed) -> Measure` in SECTIONS (one more adapter: one
more function there; benchmarks/env_step.py times its sections with these same loops):
- `raw`: `game.decision()` and `game.apply(random index)`; a step is a decision;
- `pettingzoo`: the AEC environment as PettingZoo's users drive it, `env.last()` (the observation
  encoded, the mask built), a random id of the mask, `env.step`; a step is one `env.step` of a
  live agent (a choice of several parts takes several), the dead steps at the end are timed but
  not counted.
The same game seeds are played in each section and each run; `x raw` is the raw games/s over the
section's.

`--illegal-check N` plays N masked random games of each game through the PettingZoo environment
(illegal="raise") and counts the illegal moves met (an id of the mask refused), empty masks of an
agent to act, options the action space has no id for, and games whose final rewards do not sum
to 0; it takes the mask from
`env.action_mask` (the mask `observe` gives, without encoding the observation), or from
`env.last()` with --observe. Exit 1 if it found anything.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from interpreter import load  # noqa: E402
from interpreter.paths import shipped_games  # noqa: E402


@dataclass
class Measure:
    """One timed run of one section: games played, steps taken, seconds."""

    games: int
    steps: int
    seconds: float

    @property
    def steps_per_s(self) -> float:
        return self.steps / self.seconds

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds


def raw(rules, games: int, seed: int, clock: Callable[[], float] = time.perf_counter) -> Measure:
    """Masked random games through the raw API: every option of a decision is legal."""
    rng = random.Random(seed)
    steps = 0
    start = clock()
    for i in range(games):
        game = rules.new_game(seed=seed + i, log=False)
        while not game.is_over:
            _seat, options = game.decision()
            game.apply(rng.randrange(len(options)))
            steps += 1
    return Measure(games, steps, clock() - start)


def pettingzoo(rules, games: int, seed: int, learners: Callable[[list[str]], list[str]] | None = None,
               sparse: bool = False, clock: Callable[[], float] = time.perf_counter) -> Measure:
    """The same games through the PettingZoo AEC environment, as a PettingZoo user plays them:
    `env.last()`, a random legal id, `env.step`. `learners`: which agents learn (given the
    agents; None: all, their observations encoded); `sparse`: the id drawn from
    `info["legal_actions"]`, else (as PettingZoo's examples do) from `flatnonzero` of the mask."""
    import numpy as np

    from interpreter.envs.pettingzoo_aec import CardrulesAECEnv

    env = CardrulesAECEnv(rules)
    if learners is not None:
        env = CardrulesAECEnv(rules, learners=learners(env.possible_agents))
    rng = random.Random(seed)
    steps = 0
    start = clock()
    for i in range(games):
        env.reset(seed=seed + i)
        for _agent in env.agent_iter():
            observation, _reward, terminated, truncated, info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = info["legal_actions"] if sparse else np.flatnonzero(observation["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
    return Measure(games, steps, clock() - start)


SECTIONS: dict[str, Callable[..., Measure]] = {"raw": raw, "pettingzoo": pettingzoo}


def compare(names: list[str], games: int, runs: int, seed: int, sections: list[str]) -> dict:
    """Every section on every game, runs interleaved; the medians and the ratios to `raw`."""
    report: dict = {"python": sys.version.split()[0], "games_per_run": games, "runs": runs, "results": {}}
    for name in names:
        rules = load(name)
        measured: dict[str, list[Measure]] = {section: [] for section in sections}
        for run in range(runs):
            for section in sections:
                measured[section].append(SECTIONS[section](rules, games, seed + 100_000 * run))
        entry = {}
        for section, measures in measured.items():
            entry[section] = {"steps_per_s": round(statistics.median(m.steps_per_s for m in measures)),
                              "games_per_s": round(statistics.median(m.games_per_s for m in measures), 2),
                              "steps_per_game": round(statistics.mean(m.steps / m.games for m in measures), 1)}
        if "raw" in entry:
            for section in sections:
                entry[section]["x_raw"] = round(entry["raw"]["games_per_s"] / entry[section]["games_per_s"], 1)
        report["results"][name] = entry
    return report


def print_report(report: dict) -> None:
    print(f"masked random games, {report['games_per_run']} a run, median of {report['runs']} runs "
          f"(python {report['python']})")
    print(f"{'game':<12}{'section':<12}{'steps/s':>10}{'games/s':>10}{'steps/game':>12}{'x raw':>8}")
    for name, entry in report["results"].items():
        for section, figures in entry.items():
            ratio = figures.get("x_raw")
            print(f"{name:<12}{section:<12}{figures['steps_per_s']:>10}{figures['games_per_s']:>10}"
                  f"{figures['steps_per_game']:>12}{'' if ratio is None else ratio:>8}")


def illegal_check(name: str, games: int, seed: int, observe: bool) -> dict:
    """`games` masked random games through the PettingZoo environment: what went wrong, if anything."""
    import numpy as np

    from interpreter.envs import ActionSpaceError
    from interpreter.envs.pettingzoo_aec import make_env

    env = make_env(name, illegal="raise")
    found = {"illegal": 0, "no_id": 0, "empty_mask": 0, "not_zero_sum": 0}
    steps = 0
    start = time.perf_counter()
    for i in range(games):
        game_seed = seed + i
        env.reset(seed=game_seed)
        rng = random.Random(game_seed)
        final: dict[str, float] = {}
        for agent in env.agent_iter():
            try:
                if observe:
                    observation, reward, terminated, _truncated, _info = env.last()
                    mask = observation["action_mask"]
                else:
                    _none, reward, terminated, _truncated, _info = env.last(observe=False)
                    mask = env.action_mask(agent)
            except ActionSpaceError as error:  # an option the action space has no id for
                found["no_id"] += 1
                print(f"  {name} seed {game_seed}: {error}", flush=True)
                break
            if terminated:
                final[agent] = reward
                env.step(None)
                continue
            legal = np.flatnonzero(mask)
            if not len(legal):
                found["empty_mask"] += 1
                print(f"  {name} seed {game_seed}: {agent} to act with an empty mask", flush=True)
                break
            try:
                env.step(int(rng.choice(legal)))
            except ActionSpaceError as error:
                found["illegal"] += 1
                print(f"  {name} seed {game_seed}: {error}", flush=True)
                break
            steps += 1
        else:
            if sum(final.values()) != 0 or set(final) != set(env.possible_agents):
                found["not_zero_sum"] += 1
                print(f"  {name} seed {game_seed}: final rewards {final}", flush=True)
        if games >= 100 and (i + 1) % (games // 10) == 0:
            print(f"  {name}: {i + 1} games, {steps} steps, {time.perf_counter() - start:.0f} s", flush=True)
    return {"games": games, "steps": steps, "seconds": round(time.perf_counter() - start, 1), **found}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", metavar="GAME", help="games (default: every shipped game)")
    parser.add_argument("--games", type=int, default=20, metavar="N", help="games per run and section")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sections", default=",".join(SECTIONS), help=f"of {', '.join(SECTIONS)}")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--illegal-check", type=int, default=0, metavar="N",
                        help="instead: N masked random games per game through the PettingZoo environment")
    parser.add_argument("--observe", action="store_true", help="--illegal-check: the mask from env.last()")
    args = parser.parse_args(argv)
    names = args.names or shipped_games()
    if args.illegal_check:
        results = {}
        for name in names:
            results[name] = illegal_check(name, args.illegal_check, args.seed, args.observe)
            if not args.json:
                print(f"{name}: {results[name]}", flush=True)
        if args.json:
            print(json.dumps(results, indent=2))
        problems = ("illegal", "no_id", "empty_mask", "not_zero_sum")
        return 1 if any(r[key] for r in results.values() for key in problems) else 0
    sections = [s.strip() for s in args.sections.split(",") if s.strip()]
    unknown = [s for s in sections if s not in SECTIONS]
    if unknown:
        parser.error(f"unknown section(s) {', '.join(unknown)}; known: {', '.join(SECTIONS)}")
    report = compare(names, args.games, args.runs, args.seed, sections)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print_report(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
