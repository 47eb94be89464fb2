"""What a PettingZoo step costs beside a raw step: masked random games of each shipped game, CPU
time (time.process_time) per game and per step, medians of --runs runs.

    python benchmarks/env_step.py [GAME ...] [--games 10] [--runs 3] [--seed 1] [--json]

Sections (the same game seeds in each):
- `raw`: `game.decision()` and `game.apply(random index)`; a step is a decision;
- `pz_mask`: the AEC environment with no learner (`learners=[]`): `env.last()` (the mask, no
  observation encoded), a random id of `info["legal_actions"]`, `env.step`: the adapter's own cost;
- `pz_one`: one learning seat (`learners=["player_1"]`, a policy against a fixed opponent): its
  observation encoded at each of its steps;
- `pz_all`: every seat learns (self-play): the acting agent's observation encoded at every step;
- `encode`: the raw games, the decider's observation vector made at each decision, only that
  timed: `us/step` is the cost of one vector.
The loops are those of benchmarks/envs.py (`raw`, `pettingzoo`), timed with `time.process_time`.
A PettingZoo step is one `env.step` of a live agent (a multi-part choice takes one per part);
`x raw` is the CPU time per game over the raw one's (the same games), so it counts the extra steps.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from interpreter import load  # noqa: E402
from interpreter.paths import shipped_games  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))  # (benchmarks/ is not a package)
import envs  # noqa: E402  (the timing loops: one for both benchmarks)


def raw(rules, games: int, seed: int) -> tuple[int, float]:
    m = envs.raw(rules, games, seed, clock=time.process_time)
    return m.steps, m.seconds


def _pettingzoo(learners: Callable[[list[str]], list[str]]) -> Callable[..., tuple[int, float]]:
    def section(rules, games: int, seed: int) -> tuple[int, float]:
        m = envs.pettingzoo(rules, games, seed, learners=learners, sparse=True, clock=time.process_time)
        return m.steps, m.seconds

    return section


def encode(rules, games: int, seed: int) -> tuple[int, float]:
    """The raw games again, the decider's observation vector made at each decision: only that
    timed (a step here is one vector)."""
    import numpy as np

    from interpreter.envs import ObservationEncoding

    encoding = ObservationEncoding(rules)
    from_state = getattr(encoding, "encode_state_into", None)  # (None: a checkout before it, issue 34)
    rng = random.Random(seed)
    steps = 0
    spent = 0.0
    clock = time.process_time
    for i in range(games):
        game = rules.new_game(seed=seed + i, log=False)
        while not game.is_over:
            seat, options = game.decision()
            out = np.zeros(encoding.size, dtype=np.float32)
            start = clock()
            if from_state is not None:
                from_state(game, seat, out)
            else:
                encoding.encode_into(game.observation(seat), out)
            spent += clock() - start
            steps += 1
            game.apply(rng.randrange(len(options)))
    return steps, spent


SECTIONS: dict[str, Callable[..., tuple[int, float]]] = {
    "raw": raw,
    "pz_mask": _pettingzoo(lambda agents: []),
    "pz_one": _pettingzoo(lambda agents: agents[:1]),
    "pz_all": _pettingzoo(lambda agents: list(agents)),
    "encode": encode,
}


def measure(names: list[str], games: int, runs: int, seed: int) -> dict:
    report: dict = {"python": sys.version.split()[0], "games_per_run": games, "runs": runs, "results": {}}
    for name in names:
        rules = load(name)
        found: dict[str, list[tuple[int, float]]] = {s: [] for s in SECTIONS}
        for run in range(runs):
            for section, play in SECTIONS.items():
                found[section].append(play(rules, games, seed + 100_000 * run))
        entry = {}
        for section, results in found.items():
            per_game = statistics.median(seconds / games for _steps, seconds in results)
            per_step = statistics.median(seconds / steps for steps, seconds in results)
            entry[section] = {"us_per_step": round(per_step * 1e6, 1), "ms_per_game": round(per_game * 1e3, 2),
                              "steps_per_game": round(statistics.mean(steps for steps, _s in results) / games, 1)}
        for section in SECTIONS:
            if section == "encode":  # (a vector, not a step: its µs are the figure)
                continue
            entry[section]["x_raw"] = round(entry[section]["ms_per_game"] / entry["raw"]["ms_per_game"], 2)
        report["results"][name] = entry
    return report


def print_report(report: dict) -> None:
    print(f"masked random games, {report['games_per_run']} a run, CPU time, median of {report['runs']} runs "
          f"(python {report['python']})")
    print(f"{'game':<12}{'section':<10}{'us/step':>10}{'ms/game':>10}{'steps/game':>12}{'x raw':>8}")
    for name, entry in report["results"].items():
        for section, f in entry.items():
            print(f"{name:<12}{section:<10}{f['us_per_step']:>10}{f['ms_per_game']:>10}{f['steps_per_game']:>12}"
                  f"{f.get('x_raw', ''):>8}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", metavar="GAME", help="games (default: every shipped game)")
    parser.add_argument("--games", type=int, default=10, metavar="N", help="games per run and section")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    report = measure(args.names or shipped_games(), args.games, args.runs, args.seed)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print_report(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
