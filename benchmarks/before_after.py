"""Issue 31's before/after table: `python benchmarks/before_after.py --before DIR --after DIR
[GAME ...] [--rounds 5] [--seconds 3] [--mcts 10] [--seed 1] [--json]`.

Two checkouts of the code (their top folders: an old one made with `git archive COMMIT | tar -x
-C DIR`, and a current one) are measured against each other and against the hand-written Python
version of each game (benchmarks/handwritten_<game>.py and benchmarks/harness.py of the AFTER
checkout), per game:

- random full games/s, as `simulate` plays them (`rules.play_out`, else `new_game` and a
  decision/apply loop), and each side's ratio to the hand-written version's games/s measured in
  the same round (the same seeded games: the hand-written versions play them decision for
  decision);
- clones/s and determinizations/s of mid-game states (20 games stopped 5 to 40 decisions in);
- the CPU seconds `mcts:200` takes per decision, at --mcts N mid-game decisions (0: not timed).

Every measurement is one fresh process (PYTHONPATH and cwd: its checkout; it checks that it
imported that checkout's `interpreter`), pinned to CPU 0 where the OS allows and timed in CPU
time (`time.process_time`). Each round runs every measurement once per side, before and after
alternating (the order swapped each round), with the hand-written run between the two, so that
each side's ratio to hand-written comes from the same rounds. Figures are medians over the rounds,
with the fastest round beside them. The code run in those processes (`--child`, below) uses only
what both versions offer: `load`, `Rules.new_game`/`play_out`, `Game.decision`/`apply`/
`is_over`/`clone`/`determinize`, `agents.make_agent`/`view_of`. Lines of interpreter/**/*.py
(all and non-blank) are counted for each checkout. A game a checkout does not ship is left out
of that side ("-").
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

KINDS = ("games", "clones", "determinizations", "mcts")
# (label, JSON key of the child's answer, higher is better)
MEASURES = {
    "games": ("random games/s", "games_per_s", True),
    "clones": ("clones/s, mid-game", "clones_per_s", True),
    "determinizations": ("determinizations/s, mid-game", "determinizations_per_s", True),
    "mcts": ("mcts:200 CPU s per decision", "s_per_decision", False),
}


# ---------------------------------------------------------------- in the measuring process
def _child_interpreter_rules(game: str):
    """The checkout's (cwd's) ruleset `game`; fails if `interpreter` came from elsewhere."""
    import interpreter

    checkout = os.path.realpath(os.getcwd())
    if not os.path.realpath(interpreter.__file__).startswith(checkout + os.sep):
        raise SystemExit(f"imported {interpreter.__file__}, not the interpreter of {checkout}")
    from interpreter import load

    return load(game)


def _child_play(rules, seed: int, rng: random.Random) -> None:
    """One random game, as `simulate` plays it where the code offers `Rules.play_out` (with a
    decider by count, `by_count`, where the code offers one)."""
    def decide(game):
        return rng.randrange(len(game.decision()[1]))

    if hasattr(rules, "play_out"):
        import interpreter

        if hasattr(interpreter, "by_count"):
            rules.play_out(interpreter.by_count(lambda _seat, n: rng.randrange(n)), seed=seed, log=False)
        else:
            rules.play_out(decide, seed=seed, log=False)
        return
    game = rules.new_game(seed=seed, log=False)
    while not game.is_over:
        game.apply(decide(game))


def _child_mid_game_states(rules, seed: int, count: int) -> list:
    """`count` games of random play stopped at a decision 5 to 40 decisions in (those not over).
    The same games as run.py's `mid_game_states`, written again: importing run.py would put the
    AFTER checkout first on the path (run.py adds its own checkout), and the BEFORE side must
    import its own `interpreter`."""
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


def _child_measure(kind: str, game: str, seconds: float, seed: int, count: int) -> dict:
    if kind == "hand":
        sys.path.insert(0, os.path.join(os.getcwd(), "benchmarks"))
        import harness

        module = harness.handwritten_module(game)
        harness.play(module.Game, seed - 1, random.Random(seed - 1))  # (warm-up, not timed)
        return {"games_per_s": module.measure(seconds, seed)["games_per_s"]}
    rules = _child_interpreter_rules(game)
    if kind == "games":
        _child_play(rules, seed - 1, random.Random(seed - 1))  # (warm-up, not timed)
        rng = random.Random(seed)
        games = 0
        start = time.process_time()
        while time.process_time() - start < seconds:
            _child_play(rules, seed + games, rng)
            games += 1
        return {"games_per_s": games / (time.process_time() - start), "games": games}
    if kind == "mcts":
        from interpreter.agents import make_agent, view_of

        states = _child_mid_game_states(rules, seed, count)
        if not states:
            raise SystemExit(f"no game of {game} lasted to a mid-game decision: take a larger --mcts")
        agent = make_agent("mcts:200", seed=seed)
        start = time.process_time()
        for state in states:
            agent.act(view_of(state))
        return {"s_per_decision": (time.process_time() - start) / len(states), "decisions": len(states)}
    states = _child_mid_game_states(rules, seed, 20)
    rng = random.Random(seed)
    made = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for state in states:
            if kind == "clones":
                state.clone()
            else:
                state.determinize(state.decision()[0], rng)
        made += len(states)
    return {f"{kind}_per_s": made / (time.process_time() - start)}


def child(argv: list[str]) -> int:
    """`--child KIND GAME SECONDS SEED COUNT`: one measurement, its figures as one JSON line."""
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != here]  # (benchmarks/ shadows nothing)
    try:
        os.sched_setaffinity(0, {0})
    except (AttributeError, OSError):
        pass
    kind, game, seconds, seed, count = argv
    print(json.dumps(_child_measure(kind, game, float(seconds), int(seed), int(count))))
    return 0


# ---------------------------------------------------------------- in the driving process
def measure(checkout: Path, kind: str, game: str, seconds: float, seed: int, count: int) -> dict:
    """One measurement in a fresh process of the code of `checkout`."""
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    command = [sys.executable, os.path.abspath(__file__), "--child", kind, game, str(seconds), str(seed), str(count)]
    out = subprocess.run(command, env=env, cwd=checkout, capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"{kind} {game} in {checkout} failed (exit {out.returncode}):\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def ships(checkout: Path, game: str) -> bool:
    return (checkout / "rulesets" / game / f"{game}.yaml").is_file()


def shipped(checkout: Path) -> list[str]:
    return sorted(d.name for d in (checkout / "rulesets").iterdir() if ships(checkout, d.name))


def interpreter_lines(checkout: Path) -> dict:
    """Files, lines and non-blank lines of interpreter/**/*.py."""
    files = sorted((checkout / "interpreter").rglob("*.py"))
    lines = [line for f in files for line in f.read_text(encoding="utf-8").splitlines()]
    return {"files": len(files), "lines": len(lines), "non_blank": sum(1 for line in lines if line.strip())}


def commit_of(checkout: Path) -> str:
    out = subprocess.run(["git", "-C", str(checkout), "log", "-1", "--format=%h %cI"],
                         capture_output=True, text=True)
    return out.stdout.strip() if out.returncode == 0 else "(not a git checkout)"


def summary(values: list[float], higher_is_better: bool) -> dict | None:
    if not values:
        return None
    fastest = max(values) if higher_is_better else min(values)
    return {"median": statistics.median(values), "fastest": fastest, "rounds": values}


def run_game(game: str, dirs: dict[str, Path], args) -> dict:
    """Every round of every measure of one game: {measure: {side: summary}}."""
    sides = [side for side in ("before", "after") if ships(dirs[side], game)]
    has_hand = (dirs["after"] / "benchmarks" / f"handwritten_{game}.py").is_file()
    kinds = [k for k in KINDS if k != "mcts" or args.mcts > 0]
    raw: dict[str, dict[str, list[float]]] = {k: {s: [] for s in sides} for k in kinds}
    raw["games"]["hand"] = []
    timed: dict[str, int] = {}  # mid-game decisions mcts was timed at (fewer than --mcts if games ended)
    for r in range(args.rounds):
        order = sides if r % 2 == 0 else sides[::-1]
        for kind in kinds:
            seed = args.seed + (100_000 * r if kind == "games" else r)
            runs = list(order)
            if kind == "games" and has_hand:
                runs.insert(1 if len(runs) > 1 else len(runs), "hand")
            for side in runs:
                print(f"  {game} round {r + 1}/{args.rounds}: {kind}, {side}", file=sys.stderr, flush=True)
                checkout = dirs["after"] if side == "hand" else dirs[side]
                seconds = args.seconds if kind == "games" else args.seconds / 2
                answer = measure(checkout, "hand" if side == "hand" else kind, game, seconds, seed, args.mcts)
                raw[kind][side].append(answer[MEASURES[kind][1]])
                if kind == "mcts":
                    timed[side] = answer["decisions"]
    result: dict = {}
    for kind in kinds:
        better = MEASURES[kind][2]
        result[kind] = {side: summary(raw[kind].get(side, []), better) for side in ("before", "after")}
    hand = raw["games"]["hand"]
    result["hand_games"] = summary(hand, True)
    result["mcts_decisions"] = timed
    result["over_hand"] = {}
    for side in ("before", "after"):
        mine = raw["games"].get(side, [])
        if hand and mine:
            per_round = [m / h for m, h in zip(mine, hand)]
            result["over_hand"][side] = {"median": statistics.median(per_round), "fastest": max(mine) / max(hand),
                                         "rounds": per_round}
        else:
            result["over_hand"][side] = None
    return result


def _cell(s: dict | None, digits: int) -> str:
    if s is None:
        return "-"
    return f"{s['median']:,.{digits}f} ({s['fastest']:,.{digits}f})"


def _ratio(before: dict | None, after: dict | None) -> str:
    if before is None or after is None:
        return "-"
    return f"{after['median'] / before['median']:.2f} ({after['fastest'] / before['fastest']:.2f})"


def table(game: str, entry: dict) -> str:
    rows = [f"### {game}", "", "| measure | before | after | after/before |", "|---|---|---|---|"]
    for kind in KINDS:
        if kind not in entry:
            continue
        b, a = entry[kind]["before"], entry[kind]["after"]
        label = MEASURES[kind][0]
        if kind == "mcts":
            label += f" (decisions timed: {', '.join(f'{n} {side}' for side, n in entry['mcts_decisions'].items())})"
        rows.append(f"| {label} | {_cell(b, 3 if kind == 'mcts' else 0)} | "
                    f"{_cell(a, 3 if kind == 'mcts' else 0)} | {_ratio(b, a)} |")
        if kind == "games":
            b, a = entry["over_hand"]["before"], entry["over_hand"]["after"]
            rows.append(f"| random games/s ÷ hand-written's, same rounds | {_cell(b, 3)} | {_cell(a, 3)} | "
                        f"{_ratio(b, a)} |")
            rows.append(f"| hand-written games/s, the runs between the two: {_cell(entry['hand_games'], 0)} | | | |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--child"]:
        return child(argv[1:])
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="games to measure (default: every game the AFTER checkout ships)")
    parser.add_argument("--before", required=True, type=Path, help="top folder of the code before")
    parser.add_argument("--after", required=True, type=Path, help="top folder of the code after")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=3.0,
                        help="CPU seconds of one games/s run (clones/s and determinizations/s: half of it)")
    parser.add_argument("--mcts", type=int, default=10, metavar="N",
                        help="mcts:200 at N mid-game decisions per run (0: not timed)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    dirs = {"before": args.before.resolve(), "after": args.after.resolve()}
    for side, checkout in dirs.items():
        if not (checkout / "interpreter" / "__init__.py").is_file():
            parser.error(f"--{side} {checkout}: no interpreter/ package there")
    started = time.monotonic()
    report: dict = {
        "python": sys.version.split()[0],
        "settings": {"rounds": args.rounds, "seconds": args.seconds, "mcts": args.mcts, "seed": args.seed},
        "checkouts": {side: {"dir": str(d), "commit": commit_of(d), "interpreter": interpreter_lines(d)}
                      for side, d in dirs.items()},
        "games": {},
    }
    for game in args.games or shipped(dirs["after"]):
        report["games"][game] = run_game(game, dirs, args)
    report["wall_s"] = round(time.monotonic() - started, 1)
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    s = report["settings"]
    print(f"Medians of {s['rounds']} rounds, fastest round in brackets; CPU time, one process a measurement, "
          f"{s['seconds']} s a games/s run, {s['seconds'] / 2} s a clones/s or determinizations/s run, "
          f"mcts:200 at {s['mcts']} decisions; python {report['python']}; {report['wall_s']} s in all.")
    for side in ("before", "after"):
        c = report["checkouts"][side]
        print(f"- {side}: {c['dir']}, {c['commit']}")
    print()
    b, a = report["checkouts"]["before"]["interpreter"], report["checkouts"]["after"]["interpreter"]
    print("| interpreter/**/*.py | before | after | after/before |\n|---|---|---|---|")
    for key, label in (("files", "files"), ("lines", "lines"), ("non_blank", "non-blank lines")):
        print(f"| {label} | {b[key]:,} | {a[key]:,} | {a[key] / b[key]:.2f} |")
    for game, entry in report["games"].items():
        print()
        print(table(game, entry))
    return 0


if __name__ == "__main__":
    sys.exit(main())
