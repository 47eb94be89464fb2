"""Work counted, not timed: `python benchmarks/opcount.py [GAME ...] [--games 50] [--top 10] [--json]`.

Wall-clock speed on a shared machine varies by a fifth from run to run; the number of Python
bytecode instructions a program executes does not. Per shipped game, this plays the same seeded
random games with the interpreter and with the hand-written Python version of the game
(benchmarks/handwritten_<game>.py: the same games, decision for decision) and counts the
instructions each executes per decision (`sys.settrace` with opcode events), from the first
decision to the end (setting up a game is counted apart). The ratio says how much more work
the interpreter does for the same game; `--top N` lists the functions that do the most of it.
Each count is also split by layer: the generated rule code (`<cardrules ...>`), the engine
(interpreter/) and the rest (the random generator, the decider): the rule code's and the rest's
instructions over the hand-written version's whole count bound the ratio any engine-side work
could reach, were every engine call free.

An instruction is not a unit of time (a call or a dict lookup costs more than an addition), so
the ratio of times is larger than the ratio of instructions: see run.py for times.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import sys
from collections import Counter
from functools import partial
from operator import attrgetter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))  # (benchmarks/ is not a package)

from harness import handwritten_module  # noqa: E402

import interpreter  # noqa: E402
from interpreter import by_count, load  # noqa: E402
from interpreter.paths import shipped_games  # noqa: E402

ENGINE = Path(interpreter.__file__).resolve().parent  # (where it is imported from: installed or not)
LAYERS = ("rule code", "engine", "other")


def layer_of(filename: str) -> str:
    """Which layer a function's code belongs to (see the module's docstring)."""
    if filename.startswith("<cardrules"):
        return "rule code"
    return "engine" if Path(filename).resolve().is_relative_to(ENGINE) else "other"


class OpCounter:
    """Counts the bytecode instructions executed while it is on, by function."""

    def __init__(self) -> None:
        self.by_function: Counter = Counter()
        self.layers: dict[str, str] = {}  # each function's layer, by its key

    def _trace(self, frame, event, arg):
        frame.f_trace_opcodes = True
        code = frame.f_code
        key = f"{Path(code.co_filename).name}:{code.co_firstlineno} {code.co_name}"
        if key not in self.layers:
            self.layers[key] = layer_of(code.co_filename)
        counts = self.by_function

        def per_instruction(frame, event, arg):
            if event == "opcode":
                counts[key] += 1
            return per_instruction

        return per_instruction

    def __enter__(self) -> OpCounter:
        sys.settrace(self._trace)
        return self

    def __exit__(self, *exc) -> None:
        sys.settrace(None)

    @property
    def total(self) -> int:
        return sum(self.by_function.values())

    def by_layer(self) -> dict[str, int]:
        """The instructions counted in each layer (`LAYERS`)."""
        out = dict.fromkeys(LAYERS, 0)
        for key, n in self.by_function.items():
            out[self.layers.get(key, "other")] += n
        return out


def count_games(start, over, games: int, seed: int) -> tuple[OpCounter, OpCounter, int]:
    """(instructions while playing, instructions setting games up, decisions) over seeded random
    games: `start(seed)` makes a game, `over(game)` says it has ended (a C callable, such as an
    attrgetter, so that it adds no instructions of its own)."""
    play, set_up = OpCounter(), OpCounter()
    rng = random.Random(seed)
    decisions = 0
    # no garbage collection while counting: it would count the finalizers of earlier objects
    # (generators closed, say), which depend on what the process did before
    gc.collect()
    gc.disable()
    try:
        for i in range(games):
            with set_up:
                game = start(seed + i)
            with play:
                while not over(game):
                    _seat, options = game.decision()
                    game.apply(rng.randrange(len(options)))
                    decisions += 1
    finally:
        gc.enable()
    return play, set_up, decisions


def count_interpreter(name: str, games: int, seed: int) -> tuple[OpCounter, OpCounter, int]:
    rules = load(name)
    rules.new_game(seed=seed - 1, log=False)  # (what a ruleset works out once, on its first game)
    return count_games(partial(rules.new_game, log=False), attrgetter("is_over"), games, seed)


def count_playout(name: str, games: int, seed: int) -> tuple[OpCounter, OpCounter, int]:
    """As `count_interpreter`, the same seeded random games played by `Rules.play_out` (the
    rollout form, as `simulate` and run.py play them): set-up and play are counted together."""
    rules = load(name)
    rules.play_out(lambda g: 0, seed=seed - 1)  # (what a ruleset works out once)
    play, set_up = OpCounter(), OpCounter()
    rng = random.Random(seed)
    decide = by_count(lambda _seat, n: rng.randrange(n))  # (as `simulate` plays random agents)
    decisions = 0
    gc.collect()
    gc.disable()
    try:
        for i in range(games):
            with play:
                game = rules.play_out(decide, seed=seed + i)
            decisions += game.state.answered
    finally:
        gc.enable()
    return play, set_up, decisions


def count_handwritten(module, games: int, seed: int) -> tuple[OpCounter, OpCounter, int]:
    return count_games(module.Game, attrgetter("over"), games, seed)


def report_game(name: str, games: int, seed: int, top: int, playout: bool = False) -> dict:
    play, set_up, decisions = (count_playout if playout else count_interpreter)(name, games, seed)
    layers = play.by_layer()
    entry = {"games": games, "decisions": decisions,
             "instructions_per_decision": round(play.total / decisions, 1),
             "set_up_instructions_per_game": round(set_up.total / games),
             "by_layer": {layer: round(n / decisions, 1) for layer, n in layers.items()},
             "top": [[key, round(n / decisions, 1)] for key, n in play.by_function.most_common(top)]}
    module = handwritten_module(name)
    if module is not None:
        h_play, h_set_up, h_decisions = count_handwritten(module, games, seed)
        if h_decisions != decisions:  # not the same games: no ratio to give
            raise SystemExit(f"{name}: the hand-written version took {h_decisions} decisions, the "
                             f"interpreter {decisions}, over the same {games} seeds")
        if playout:  # (the interpreter's count has its set-up in it)
            h_play.by_function.update(h_set_up.by_function)
        entry["handwritten_instructions_per_decision"] = round(h_play.total / decisions, 1)
        entry["handwritten_set_up_instructions_per_game"] = round(h_set_up.total / games)
        entry["interpreter_over_handwritten"] = round(play.total / h_play.total, 2)
        # (with every engine call free, what would be left)
        entry["without_engine_over_handwritten"] = round((layers["rule code"] + layers["other"]) / h_play.total, 2)
        entry["handwritten_top"] = [[key, round(n / decisions, 1)] for key, n in h_play.by_function.most_common(top)]
    return entry


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="games to count (default: every shipped game)")
    parser.add_argument("--games", dest="count", type=int, default=50, metavar="N", help="seeded games per game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--top", type=int, default=0, metavar="N", help="also list the N busiest functions")
    parser.add_argument("--playout", action="store_true",
                        help="count games played by Rules.play_out (the rollout form; set-up included)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    report = {"python": sys.version.split()[0], "games": {}}
    for name in args.games or shipped_games():
        entry = report["games"][name] = report_game(name, args.count, args.seed, args.top, args.playout)
        if args.json:
            continue
        line = (f"{name}: {entry['instructions_per_decision']} instructions/decision over {entry['decisions']} "
                f"decisions of {args.count} games (set-up {entry['set_up_instructions_per_game']}/game)")
        if "interpreter_over_handwritten" in entry:
            line += (f"; hand-written {entry['handwritten_instructions_per_decision']}/decision "
                     f"(set-up {entry['handwritten_set_up_instructions_per_game']}/game): "
                     f"{entry['interpreter_over_handwritten']}x")
        print(line, flush=True)
        layers = ", ".join(f"{layer} {n}" for layer, n in entry["by_layer"].items())
        line = f"  by layer, per decision: {layers}"
        if "without_engine_over_handwritten" in entry:
            line += f"; without the engine's: {entry['without_engine_over_handwritten']}x the hand-written"
        print(line)
        for key, n in entry["top"]:
            print(f"  {n:8.1f}  {key}")
        for key, n in entry.get("handwritten_top", []):
            print(f"  {n:8.1f}  (hand-written) {key}")
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(f"python {report['python']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
