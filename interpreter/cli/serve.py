"""`cardrules serve`: a game at a browser table, or a logged game step by step (`--replay`).

    cardrules serve GAME [--players human,random] [--seed N] [--option k=v] [--host H] [--port P] [--no-browser]
    cardrules serve --replay F.jsonl [--host H] [--port P] [--no-browser]

Seats whose agent is `human` are played from pages, each at the address printed for it
(`/?seat=N&token=T`: the token is the seat's secret); the others by their agents, whose seats no
page sees. Binds to 127.0.0.1 unless --host says otherwise (0.0.0.0: every address, for a LAN;
then a warning says that only the tokens protect the seats).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from .. import load
from ..agents import make_agent
from .common import UsageError, agent_seed, load_for_command, split_names


def _app_module():
    try:
        from ..server import app
    except ImportError as err:
        raise UsageError(str(err)) from None
    return app


def _say(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def table_session(game: str, players: str | None, seed: int | None, options: list[str] | None,
                  max_decisions: int | None = None):
    from ..server import TableSession

    rules = load_for_command(game, options, max_decisions)
    default = ",".join(["human"] + ["random"] * (rules.player_count - 1))
    names = split_names(players, rules.player_count, "--players", default, rules.player_range)
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    agents = [None if name.strip().lower() == "human" else make_agent(name, seed=agent_seed(seed, seat))
              for seat, name in enumerate(names, start=1)]
    return TableSession(rules, seed, names, agents)


def replay_session(path: str):
    from ..server import ReplaySession
    from .replay import read_log

    header, entries = read_log(path)
    target = header["ruleset"]
    ruleset_file = header.get("ruleset_file")
    if ruleset_file and Path(ruleset_file).is_file():
        target = ruleset_file
    rules = load(target, options=header.get("options") or {})
    return ReplaySession(rules, header, entries, path)


def run_serve(args) -> int:
    if (args.game is None) == (args.replay is None):
        raise UsageError("give a GAME to play, or --replay F.jsonl to watch a log (not both)")
    if args.replay is not None and (args.players or args.seed is not None or args.option):
        raise UsageError("--players, --seed and --option are for a new game, not for --replay (the log has them)")
    if args.replay is not None and args.max_decisions is not None:
        raise UsageError("--max-decisions is for a new game, not for --replay (the log has it)")
    app = _app_module()
    if args.replay is not None:
        session = replay_session(args.replay)
        _say(f"{session.rules.title}: {args.replay}, {len(session.steps)} steps "
             "(the page has a view for each seat and the full view)")
    else:
        session = table_session(args.game, args.players, args.seed, args.option, args.max_decisions)
        if not session.humans:
            raise UsageError("no human seat in --players: no page may watch agents while they play; "
                             "log their game (cardrules play --log F.jsonl) and watch it with serve --replay F.jsonl")
        seats = ", ".join(f"P{s} {n}" for s, n in enumerate(session.names, start=1))
        _say(f"{session.rules.title}: seed {session.seed}, players {seats}")
    try:
        app.serve_forever(app.create_app(session), args.host, args.port, not args.no_browser, _say)
    except OSError as err:
        raise UsageError(f"cannot listen on {args.host}:{args.port}: {err.strerror or err}") from None
    return 0
