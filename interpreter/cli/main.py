"""The `cardrules` command line.

    cardrules validate [PATH ...] [--workers K]   check rulesets, card files, decks, scenarios
    cardrules play GAME [--seed N] [--players random,human] [--option k=v] [--log F.jsonl] [--quiet]
    cardrules simulate GAME --games N [--seed S] [--agents a,b] [--workers K] [--option k=v] [--json]
                       [--backend local|ray] [--address A] [--report DIR] [--log-dir DIR] [--records F]
    (play, simulate, compare and serve take --max-decisions N: each game's cap of decisions)
    cardrules compare BASE [VARIANT] --games N [--replace "Card"=OTHER] [--until-significant] [--report DIR]
    cardrules test [PATH ...] [-v] [--workers K]  run scenario files; ends with 'N passed, N failed'
    cardrules replay F.jsonl [--show]    re-run a log and confirm every line is identical (--show: draw it)
    cardrules cards GAME [NAME]          list the cards, or show one
    cardrules explain GAME CARD          a card's abilities in plain words
    cardrules explain GAME NAME --code   the Python a card, procedure, function or keyword compiles to
    cardrules fmt PATH... [--check]      card and rule code files in canonical form (--check: list, exit 1)
    cardrules lsp                        the language server, on stdio (extra 'lsp')
    cardrules envs describe GAME [--sections] [--slots ZONE=N]   the observation vector, index by index
    cardrules serve GAME [--players human,random] | --replay F.jsonl   a browser table, or a log step by step

Exit codes: 0 ok; 1 the input is wrong (any CardrulesError, printed without a traceback; a file to
read that is missing or refused; a failed scenario; a diverging or cut-short replay; a game of
simulate or compare aborted or unfinished, a game of play unfinished: after the summary); 2 usage
(the command line: flags, --option names and values, agent specs, card names given as arguments,
places to write); 130 interrupted. README.md "Exit codes" lists them.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from .. import __version__
from ..agents.registry import AgentSpecError, agent_names
from ..errors import CardrulesError
from .common import (
    PathArgumentError,
    UsageError,
    errors_text,
    load_for_command,
    parse_option_pairs,
    path_trouble,
    short,
)

EXIT_OK, EXIT_INPUT, EXIT_USAGE = 0, 1, 2


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected 1 or more, not {value}")
    return value


def _seed(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a seed is a whole number, not {text!r}") from None


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a port is a whole number, not {text!r}") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port is from 0 to 65535, not {value}")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cardrules",
        description="Card games whose rules are data: check, play, simulate and test them.",
        epilog="GAME is a shipped game's name or a path to a ruleset .yaml file. "
               "Exit codes: 0 ok, 1 the input is wrong, 2 usage.")
    parser.add_argument("--version", action="version", version=f"cardrules {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    agents = ", ".join(agent_names()) + ", module:Class; parameters as mcts:200 or mcts:iterations=500,c=1.4"

    p = sub.add_parser("validate", help="check rulesets, card files, decks and scenarios",
                       description="Check files and print one line per file. Without PATH: every shipped "
                                   "ruleset with its card files and decks.")
    p.add_argument("paths", nargs="*", metavar="PATH",
                   help="a game name, a ruleset/deck/scenario .yaml, a .cards file or a folder")
    p.add_argument("--ruleset", metavar="GAME", help="the ruleset to check decks and card files against")
    p.add_argument("--option", action="append", metavar="NAME=VALUE", help="a ruleset option (repeatable)")
    _scenario_workers(p)

    p = sub.add_parser("play", help="play one game, printed as it goes")
    p.add_argument("game", metavar="GAME")
    p.add_argument("--seed", type=_seed, help="the game's seed (default: a random one, printed)")
    p.add_argument("--players", "--agents", dest="players", metavar="A,B",
                   help=f"one agent per seat ({agents}); default random")
    p.add_argument("--option", action="append", metavar="NAME=VALUE", help="a ruleset option (repeatable)")
    p.add_argument("--log", metavar="F.jsonl", help="write the game as JSON Lines (replay it with 'replay')")
    p.add_argument("--quiet", "-q", action="store_true", help="print only the result")
    _cap_argument(p)

    p = sub.add_parser("simulate", help="play many games between agents and summarise them")
    p.add_argument("game", metavar="GAME")
    p.add_argument("--games", "-n", type=_positive, required=True, metavar="N")
    p.add_argument("--seed", type=_seed, default=0, help="the batch's seed: game i uses the seed game_seed(S, i), a hash (docs/balance.md) (default 0)")
    p.add_argument("--agents", metavar="A,B", help=f"one agent per seat ({agents.replace(', human', '')}); "
                                                  "default random")
    p.add_argument("--workers", "-j", type=_positive, default=1, metavar="K", help="worker processes")
    p.add_argument("--option", action="append", metavar="NAME=VALUE", help="a ruleset option (repeatable)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    _batch_arguments(p)
    p.add_argument("--log-dir", metavar="DIR", help="write each game's log as DIR/game-SEED.jsonl (replayable)")
    p.add_argument("--records", metavar="F", help="write every game's record to F (*.jsonl, or *.parquet with "
                                                  "the extra 'report')")
    p.add_argument("--robust", nargs="?", const="", metavar="SPEC",
                   help="play the same seeds again with these agents (default greedy, or turn after greedy) "
                        "and mark the verdicts that change")
    _cap_argument(p)
    from .simulate import deck_arguments

    deck_arguments(p)

    p = sub.add_parser("compare", help="play a ruleset and a variant of it on the same seeds; what changed?",
                       description="Both sides play the same seeds and seatings (common random numbers). "
                                   "VARIANT is a ruleset, or an override file that redefines cards "
                                   "(docs/balance.md); without it, the variant is BASE with --variant-option "
                                   "or --replace.")
    p.add_argument("base", metavar="BASE", help="a game name or ruleset file")
    p.add_argument("variant", nargs="?", metavar="VARIANT", help="a ruleset, or a card override file")
    p.add_argument("--games", "-n", type=_positive, required=True, metavar="N",
                   help="games per side (the most, with --until-significant)")
    p.add_argument("--seed", type=_seed, default=0, help="game i uses the seed game_seed(S, i) on both sides, as simulate (default 0)")
    p.add_argument("--agents", metavar="A,B", help="one agent per seat; default random")
    p.add_argument("--workers", "-j", type=_positive, default=1, metavar="K", help="worker processes")
    p.add_argument("--option", action="append", metavar="NAME=VALUE", help="an option for both sides")
    p.add_argument("--base-option", action="append", metavar="NAME=VALUE", help="an option for BASE only")
    p.add_argument("--variant-option", action="append", metavar="NAME=VALUE", help="an option for the variant only")
    p.add_argument("--replace", action="append", metavar="CARD=OTHER",
                   help="in the variant, every copy of CARD in the decks is OTHER (repeatable)")
    p.add_argument("--until-significant", action="store_true",
                   help="stop at the first of 10 looks where the main difference crosses a group-sequential "
                        "boundary (overall false-alarm rate --alpha)")
    p.add_argument("--boundary", choices=("obrien-fleming", "pocock"), default="obrien-fleming",
                   help="the boundary of --until-significant (default obrien-fleming)")
    p.add_argument("--alpha", type=float, default=0.05,
                   help="the false-alarm rate of --until-significant and of the card flags (default 0.05)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of tables")
    _batch_arguments(p)
    _cap_argument(p)

    p = sub.add_parser("test", help="run scenario files")
    p.add_argument("paths", nargs="*", metavar="PATH", help="scenario files or folders (default tests/scenarios)")
    p.add_argument("-v", "--verbose", action="store_true", help="also list the passing scenarios")
    _scenario_workers(p)

    p = sub.add_parser("replay", help="re-run a JSON Lines log and confirm every line is identical")
    p.add_argument("log", metavar="F.jsonl")
    p.add_argument("--show", action="store_true", help="draw the table at each decision, and the move taken")
    p.add_argument("--seat", type=_positive, metavar="N", help="with --show: from this seat's view "
                                                               "(default: the deciding seat's)")

    p = sub.add_parser("serve", help="play at a browser table, or step through a log (--replay)",
                       description="A local web server and page: each human seat plays in its own tab, at "
                                   "the address printed for it (/?seat=N&token=T: the seat's secret), the other "
                                   "seats by their agents; or a log step by step from any seat or in full. "
                                   "Needs the extra 'serve'.")
    p.add_argument("game", nargs="?", metavar="GAME")
    p.add_argument("--replay", metavar="F.jsonl", help="step through a logged game instead of playing one")
    p.add_argument("--players", metavar="A,B", help=f"one agent per seat ({agents}); default human,random")
    p.add_argument("--seed", type=_seed, help="the game's seed (default: a random one, printed)")
    p.add_argument("--option", action="append", metavar="NAME=VALUE", help="a ruleset option (repeatable)")
    p.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1; "
                                                       "0.0.0.0 for every address, e.g. for a LAN: then only "
                                                       "the seats' tokens protect them)")
    p.add_argument("--port", type=_port, default=0, help="the port (default 0: any free one, printed)")
    p.add_argument("--no-browser", action="store_true", help="do not open a browser")
    _cap_argument(p)

    p = sub.add_parser("schema", help="the JSON Schemas of rule, deck and scenario files, for YAML editors",
                       description="List the schemas (with the modeline a YAML editor reads), print one, "
                                   "or write them all into a folder (docs/editor-schemas.md).")
    p.add_argument("name", nargs="?", metavar="NAME", help="ruleset, deck or scenario: print that schema")
    p.add_argument("--write", metavar="DIR", help="write the schemas into DIR")

    p = sub.add_parser("cards", help="list the cards of a game, or show one")
    p.add_argument("game", metavar="GAME")
    p.add_argument("name", nargs="?", metavar="NAME", help="a card name: show its source and abilities")
    p.add_argument("--option", action="append", metavar="NAME=VALUE", help="a ruleset option (repeatable)")

    p = sub.add_parser("envs", help="the environments for learning: what each entry of the observation means",
                       description="The fixed observation encoding and action space of the PettingZoo and "
                                   "OpenSpiel adapters (docs/envs.md).")
    envs = p.add_subparsers(dest="envs_command", metavar="SUBCOMMAND")
    envs.required = True
    q = envs.add_parser("describe", help="the observation vector's sections, then one line per index")
    q.add_argument("game", metavar="GAME")
    q.add_argument("--sections", action="store_true", help="only the sections (index ranges)")
    q.add_argument("--slots", action="append", metavar="ZONE=N", help="card slots of a zone (repeatable)")
    q.add_argument("--option", action="append", metavar="NAME=VALUE", help="a ruleset option (repeatable)")

    p = sub.add_parser("explain", help="a card's abilities in plain words: what triggers them, what they change",
                       description="A card's abilities in plain words; with --code, the Python that a card (its "
                                   "parts and abilities), a procedure, a function or a keyword compiles to, "
                                   "in each form it has (resumable, direct, rollout), each function under a "
                                   "header naming the rule source (file:line) it came from.")
    p.add_argument("game", metavar="GAME")
    p.add_argument("name", metavar="NAME", help="a card name (with --code: or a procedure, function or keyword)")
    p.add_argument("--code", action="store_true",
                   help="print the generated Python instead (resumable, direct and rollout forms)")
    p.add_argument("--option", action="append", metavar="NAME=VALUE", help="a ruleset option (repeatable)")

    p = sub.add_parser("fmt", help="write card and rule code files in canonical form (comments kept)",
                       description="Format .cards and .rules files in place with the canonical printer; "
                                   "--check lists the files that would change and exits 1 if any would.")
    p.add_argument("paths", nargs="+", metavar="PATH", help="a .cards or .rules file, or a folder")
    p.add_argument("--check", action="store_true", help="write nothing; list what would change, exit 1 if any")

    sub.add_parser("lsp", help="the language server for editors, on stdin/stdout (extra 'lsp')",
                   description="Diagnostics, hover, definition, completion and formatting for .cards, "
                               ".rules and ruleset .yaml files, over the Language Server Protocol on stdio "
                               "(docs/editor.md).")
    return parser


def _batch_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--backend", choices=("local", "ray"), default="local",
                   help="where the games run: local processes, or Ray tasks (extra 'ray')")
    p.add_argument("--address", metavar="A", help="with --backend ray: a running cluster (default: start a local Ray)")
    p.add_argument("--report", metavar="DIR", help="write DIR/index.html and DIR/report.md with charts (extra 'report')")
    p.add_argument("--min-sample", type=_positive, default=30, metavar="N",
                   help="cards in fewer games than this are listed, not ranked (default 30)")


def _cap_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument("--max-decisions", type=_positive, metavar="N",
                   help="end each game as unfinished past N decisions (default: the ruleset's "
                        "limits.max_decisions, else 100000)")


def _scenario_workers(p: argparse.ArgumentParser) -> None:
    p.add_argument("--workers", "-j", type=_positive, metavar="K",
                   help="check scenario files in K processes (default: one per CPU when there are more "
                        "than 20, else 1); the output is the same for any K")


def _load(args: argparse.Namespace):
    return load_for_command(args.game, getattr(args, "option", None), getattr(args, "max_decisions", None))


# The arguments that name files or folders, by command: read (a path the system refuses is an error
# about the input, exit 1) and written (a usage error, exit 2, before anything runs).
READ_PATHS = {"validate": ("paths", "ruleset"), "play": ("game",), "simulate": ("game",), "cards": ("game",),
              "envs": ("game",),
              "explain": ("game",), "compare": ("base", "variant"), "test": ("paths",), "replay": ("log",),
              "serve": ("game", "replay"), "fmt": ("paths",)}
WRITTEN_PATHS = {"play": ("log",), "simulate": ("report", "log_dir", "records"), "compare": ("report",),
                 "schema": ("write",)}


POSITIONAL_PATHS = {"paths", "game", "base", "variant", "log"}  # (`play --log` is written, not read)


def check_path_arguments(args: argparse.Namespace) -> None:
    """Refuse a path the system cannot look at (a name longer than it allows, a loop of links) in
    one place for every command, naming it (cut short when huge) instead of a traceback later."""
    for dest in READ_PATHS.get(args.command, ()):
        values = getattr(args, dest, None)
        for value in values if isinstance(values, list) else [values]:
            trouble = value is not None and path_trouble(value)
            if trouble:
                flag = "" if dest in POSITIONAL_PATHS else "--" + dest + " "
                raise PathArgumentError(f"{flag}{short(value)}: cannot be read: {trouble}")
    for dest in WRITTEN_PATHS.get(args.command, ()):
        value = getattr(args, dest, None)
        trouble = value is not None and path_trouble(value)
        if trouble:
            raise UsageError(f"--{dest.replace('_', '-')} {short(value)}: cannot be written: {trouble}")


def run(args: argparse.Namespace) -> int:
    command = args.command
    check_path_arguments(args)
    if command == "validate":
        from .validate import run_validate

        return run_validate(args.paths, args.ruleset, args.option, args.workers)
    if command == "play":
        from .batchrun import writable_file
        from .play import run_play

        if args.log is not None:  # checked before the game, not after it
            writable_file(args.log, "--log")
        return run_play(_load(args), args.seed, args.players, args.log, args.quiet)
    if command == "simulate":
        from .common import batch_agents
        from .simulate import run_simulate

        options = parse_option_pairs(args.option)
        rules = _load(args)
        names = batch_agents(args.agents, rules.player_count, "simulate", rules.player_range)
        if args.address is not None and args.backend != "ray":
            raise UsageError("--address is for --backend ray")
        return run_simulate(rules, args.game, options, names, args.games, args.seed, args.workers, args.json,
                            backend=args.backend, address=args.address, report=args.report, log_dir=args.log_dir,
                            records=args.records, min_sample=args.min_sample, max_decisions=args.max_decisions,
                            decks=args.decks, swap_seats=args.swap_seats, round_robin=args.round_robin,
                            robust=args.robust)
    if command == "compare":
        from .compare import run_compare

        return run_compare(args)
    if command == "test":
        from .testrun import run_tests

        return run_tests(args.paths, args.verbose, args.workers)
    if command == "replay":
        from .replay import replay_log

        if args.seat is not None and not args.show:
            raise UsageError("--seat is the view of --show: give --show too")
        return replay_log(args.log, show=args.show, seat=args.seat)
    if command == "serve":
        from .serve import run_serve

        return run_serve(args)
    if command == "schema":
        from .schemacmd import run_schema

        return run_schema(args.name, args.write)
    if command == "cards":
        from .cards import run_cards

        return run_cards(_load(args), args.name)
    if command == "envs":
        from .envs import run_envs_describe

        return run_envs_describe(_load(args), args.sections, args.slots)
    if command == "explain":
        if args.code:
            from .explain_code import run_explain_code

            return run_explain_code(_load(args), args.name)
        from .explain import run_explain

        return run_explain(_load(args), args.name)
    if command == "fmt":
        from .fmt import run_fmt

        return run_fmt(args.paths, args.check)
    if command == "lsp":
        from .lsp import run_lsp

        return run_lsp()
    raise UsageError(f"unknown command {command!r}")  # pragma: no cover - argparse stops it first


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI with argv (default sys.argv[1:]); return the exit code."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:  # argparse: --help/--version (0) or a usage error (2)
        return stop.code if isinstance(stop.code, int) else EXIT_USAGE
    try:
        return run(args)
    except (UsageError, AgentSpecError) as err:
        sys.stdout.flush()
        sys.stderr.write(f"cardrules {args.command}: error: {err}\n")
        return EXIT_USAGE
    except CardrulesError as err:
        sys.stdout.flush()
        sys.stderr.write(f"{errors_text(err)}\n")
        return EXIT_INPUT
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        return 130
    except BrokenPipeError:  # `cardrules ... | head`: stop quietly
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except OSError:
            pass
        return EXIT_OK
    except OSError as err:  # a file the system refused on the way (the paths given were checked first)
        sys.stdout.flush()
        where = f"{short(err.filename)}: " if err.filename is not None else ""
        sys.stderr.write(f"cardrules {args.command}: error: {where}{err.strerror or err}\n")
        return EXIT_INPUT


if __name__ == "__main__":
    sys.exit(main())
