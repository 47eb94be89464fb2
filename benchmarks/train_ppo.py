"""Train a policy on a shipped game and measure it: `python benchmarks/train_ppo.py [--game initiative]
[--cpu-seconds 300] [--envs 4] [--workers 2] [--opponents random] [--games 200]
[--against random,greedy] [--out FILE.zip] [--seed 0] [--json]` (extra `rl`).

sb3-contrib's MaskablePPO learns through `CardrulesVecEnv` (`--envs` games in `--workers`
processes, the learner's seat alternating, against `--opponents`, reward +1 win / -1 loss) until
the CPU budget is spent: `--cpu-seconds` of CPU time, the training process's and the game
workers' together (so the figure does not depend on how busy the machine is). The policy is saved
with `save_policy` and then plays `--games` games against each of `--against` as the agent
`policy:FILE` (what `cardrules simulate --agents policy:FILE,...` plays), seats alternating,
game i from seed 10,000 + i (no training game had a seed there). Prints the win rate over decided
games with its 95% Wilson interval, and a JSON line with `--json`. docs/envs.md gives the figures.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

EVAL_SEED = 10_000


def train(args) -> tuple[str, dict]:
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback

    from interpreter import load
    from interpreter.agents.policy import save_policy
    from interpreter.envs.vector_env import CardrulesVecEnv

    torch.set_num_threads(1)
    env = CardrulesVecEnv(args.game, n_envs=args.envs, workers=args.workers, seed=args.seed,
                          opponents=args.opponents, reward="win")
    start_cpu, start_wall = time.process_time(), time.perf_counter()
    worker_start = env.worker_cpu_seconds()

    def spent() -> float:
        return time.process_time() - start_cpu + env.worker_cpu_seconds() - worker_start

    class Budget(BaseCallback):
        """Stops the training once the CPU budget is spent (checked every 512 steps)."""

        def _on_step(self) -> bool:
            return bool(self.n_calls % 512) or spent() < args.cpu_seconds

    model = MaskablePPO("MlpPolicy", env, n_steps=256, batch_size=256, n_epochs=4, learning_rate=3e-4,
                        gamma=0.99, ent_coef=0.01, seed=args.seed, verbose=0)
    model.learn(total_timesteps=10**9, callback=Budget())
    cpu = spent()
    wall = time.perf_counter() - start_wall
    env.close()
    path = save_policy(model, args.out, load(args.game))
    return path, {"steps": int(model.num_timesteps), "cpu_seconds": round(cpu, 1), "wall_seconds": round(wall, 1)}


def play_chunk(task: tuple) -> list[str]:
    """Games (game, policy file, opponent spec, indices) -> the policy's outcome in each."""
    from interpreter import load
    from interpreter.agents import make_agent, play_out

    game_name, path, opponent, indices = task
    rules = load(game_name)
    outcomes = []
    for i in indices:
        seed = EVAL_SEED + i
        seat = 1 + i % rules.player_count
        agents = [make_agent(opponent, seed=f"{seed}/P{s}") for s in range(1, rules.player_count + 1)]
        agents[seat - 1] = make_agent(f"policy:{path}", seed=f"{seed}/policy")
        game = rules.new_game(seed=seed)
        play_out(game, agents)
        result = game.result
        outcomes.append("unfinished" if result.unfinished else "draw" if result.winner is None
                        else "win" if result.winner == seat else "loss")
    return outcomes


def evaluate(args, path: str) -> dict:
    from interpreter.report.intervals import wilson

    out = {}
    with multiprocessing.get_context("forkserver").Pool(args.workers) as pool:
        for opponent in args.against.split(","):
            start = time.perf_counter()
            chunks = [(args.game, path, opponent, range(w, args.games, args.workers)) for w in range(args.workers)]
            outcomes = [o for part in pool.map(play_chunk, chunks) for o in part]
            wins, losses = outcomes.count("win"), outcomes.count("loss")
            rate = wilson(wins, wins + losses)
            out[opponent] = {"wins": wins, "losses": losses, "draws": outcomes.count("draw"),
                             "unfinished": outcomes.count("unfinished"), "win_rate": rate.rate,
                             "low": rate.low, "high": rate.high, "seconds": round(time.perf_counter() - start, 1)}
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="initiative")
    parser.add_argument("--cpu-seconds", type=float, default=300.0)
    parser.add_argument("--envs", type=int, default=4)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--opponents", default="random")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--against", default="random,greedy")
    parser.add_argument("--out", default=os.path.join(tempfile.gettempdir(), "cardrules_ppo.zip"))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    path, training = train(args)
    print(f"{args.game}: MaskablePPO against {args.opponents}: {training['steps']:,} steps in "
          f"{training['cpu_seconds']:.0f} CPU seconds ({training['wall_seconds']:.0f} s wall); saved {path}")
    results = evaluate(args, path)
    for opponent, r in results.items():
        shown = "n/a" if r["win_rate"] is None else \
            f"{r['win_rate']:.0%} [{r['low']:.0%}, {r['high']:.0%}]"
        print(f"  against {opponent}: {r['wins']} wins, {r['losses']} losses, {r['draws']} draws, "
              f"{r['unfinished']} unfinished of {args.games}: win rate {shown} (95% Wilson)")
    if args.json:
        print(json.dumps({"game": args.game, "opponents": args.opponents, "seed": args.seed,
                          "cpu_budget": args.cpu_seconds, "training": training, "against": results}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
