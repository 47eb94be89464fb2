"""`cardrules simulate`: many games between agents, on a backend, summarised; optionally each
game's log (`--log-dir`), every game's record (`--records`) and a report with charts (`--report`).

Game i (0, 1, ...) has the seed `game_seed(S, i)` (backends/games.py: a keyed hash of S and i, so
batches at different S play unrelated games) with its agents seeded from that seed and their seat,
so a run gives the same summary on any backend and with any number of workers, and `cardrules play
GAME --seed <a record's seed>` plays that game again. A game that cannot finish is counted as aborted
(with its seed, reason and rule) and the batch goes on; a game stopped at its cap of decisions
(`--max-decisions`, the ruleset's `limits:`) is counted as unfinished. Either makes the exit
status 1, after the summary. Ctrl-C stops the batch and prints the summary of the games played
so far (exit 130); the records (`--records`) are written as games finish, so it keeps those of
the games played and says how many and where.

The summary's `headline` names each seat's agent, with a caution when a seat plays `random` or
`first`; `--robust [SPEC]` plays the same seeds again with a second agent strength (cli/robust.py)
and adds the verdicts that change (`robust` in `--json`, a Robustness section in the report).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from rich.text import Text

from ..backends import BatchSpec
from ..paths import shown_path
from ..report.folder import REPORT_FILES
from ..report.headline import headline
from ..report.records import is_draw, winners_of
from .batchrun import writable_file, writable_folder
from .common import UsageError, err_console, out_console, shown
from .teamsummary import team_summary

SHOWN_ABORTED = 20  # aborted games listed one by one in the summary


def summarize(records: list[dict], players: int) -> dict[str, Any]:
    """The batch's summary: the same for the same records, whatever order they came back in."""
    records = sorted(records, key=lambda r: r["seed"])
    finished = [r for r in records if not r.get("aborted") and not r.get("unfinished")]
    aborted = [r for r in records if r.get("aborted")]
    unfinished = [r for r in records if r.get("unfinished")]
    n = max(len(finished), 1)
    reasons: dict[str, int] = {}
    for r in finished:
        reasons[r["reason"]] = reasons.get(r["reason"], 0) + 1
    return {
        "games": len(records),
        "wins": [sum(1 for r in finished if seat in winners_of(r)) for seat in range(1, players + 1)],
        "draws": sum(1 for r in finished if is_draw(r)),
        "aborted": len(aborted),
        "aborted_games": [{"seed": r["seed"], "reason": r["reason"], "rule": r.get("rule")}
                          for r in aborted[:SHOWN_ABORTED]],
        "unfinished": len(unfinished),
        "unfinished_games": [{"seed": r["seed"], "reason": r["reason"]} for r in unfinished[:SHOWN_ABORTED]],
        "end_reasons": dict(sorted(reasons.items())),
        "mean_turns": round(sum(r["turns"] for r in finished) / n, 3),
        "decisions_per_game": round(sum(r["decisions"] for r in finished) / n, 3),
        "decks": _deck_wins(finished),
        **_mean_scores(finished, players),
        **team_summary(finished, players),
    }


def _mean_scores(finished: list[dict], players: int) -> dict[str, Any]:
    """`mean_scores` (per seat, over the finished games that keep scores) in a scoring game, else nothing."""
    scored = [r["scores"] for r in finished if r.get("scores") is not None]
    if not scored:
        return {}
    return {"mean_scores": [round(sum(s[seat] for s in scored) / len(scored), 3) for seat in range(players)]}


def _deck_wins(finished: list[dict]) -> dict[str, dict[str, int]]:
    """Per deck name: the finished games it played (once per seat it held) and the games it won."""
    decks: dict[str, dict[str, int]] = {}
    for record in finished:
        for seat, name in enumerate(record.get("decks") or (), start=1):
            tally = decks.setdefault(name, {"games": 0, "wins": 0})
            tally["games"] += 1
            tally["wins"] += seat in winners_of(record)
    return dict(sorted(decks.items()))


def check_outputs(report: str | None, log_dir: str | None, records: str | None) -> tuple[Path | None, ...]:
    """The places to write, checked before any game is played (a usage error if one is wrong)."""
    report_dir = writable_folder(report, "--report", REPORT_FILES, (".png", ".svg")) if report else None
    if report_dir is not None:
        from ..report.charts import require_matplotlib

        require_matplotlib()
    logs = writable_folder(log_dir, "--log-dir", (), (".jsonl",)) if log_dir else None
    records_file = writable_file(records, "--records", (".jsonl", ".parquet")) if records else None
    if records_file is not None and records_file.suffix == ".parquet":
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            raise UsageError("--records: Parquet needs pyarrow: pip install 'cardrules[report]' "
                             "(or name the file *.jsonl)") from None
    if report_dir is not None and logs is not None and report_dir.resolve() == logs.resolve():
        raise UsageError("--report and --log-dir must be different folders")
    return report_dir, logs, records_file


def deck_arguments(parser) -> None:
    """`--decks`, `--swap-seats`/`--no-swap-seats` and `--round-robin` (cli/decks.py)."""
    parser.add_argument("--decks", metavar="DECKS",
                        help="the decks to play, separated by commas: deck files, folders of decks, or names of "
                             "the ruleset's decks (default: its default decks)")
    swap = parser.add_mutually_exclusive_group()
    swap.add_argument("--swap-seats", dest="swap_seats", action="store_true", default=None,
                      help="play each seed with the decks in every seat (default with --report or --decks)")
    swap.add_argument("--no-swap-seats", dest="swap_seats", action="store_false",
                      help="each deck keeps its seat")
    parser.add_argument("--round-robin", action="store_true", help="play every pair of the decks --decks names")


def run_simulate(rules, game_arg: str, options: dict, agent_names: list[str], games: int, seed: int,
                 workers: int, as_json: bool, backend: str = "local", address: str | None = None,
                 report: str | None = None, log_dir: str | None = None, records: str | None = None,
                 min_sample: int = 30, max_decisions: int | None = None, decks: str | None = None,
                 swap_seats: bool | None = None, round_robin: bool = False, robust: str | None = None) -> int:
    from .decks import plan, play_plan
    from .robust import robust_agents

    report_dir, logs, records_file = check_outputs(report, log_dir, records)
    second = robust_agents(robust, agent_names, rules)  # (checked before any game)
    spec = BatchSpec.of(game_arg, options, agent_names, records=bool(report_dir or records_file or second),
                        logs=logs is not None, max_decisions=max_decisions)
    seating = plan(rules, decks, swap_seats, round_robin, games,
                   balance_run=report_dir is not None or decks is not None)
    games = seating.games
    reading = [w for w in rules.warnings if w.message.startswith("statistics:")]  # (rules/handzone.py)
    if spec.records:  # (what the records read is a guess: say so before the games)
        for warning in reading:
            err_console().print(Text(str(warning)), soft_wrap=True)
    if logs is not None:
        logs.mkdir(exist_ok=True)
    stream = None
    if records_file is not None:  # (written as games finish: an interrupted batch keeps them)
        from ..backends.recordfile import RecordStream

        stream = RecordStream(records_file)
    try:
        batch = play_plan(spec, seating, seed, backend, workers, address, show_progress=not as_json, log_dir=logs,
                          on_record=stream.add if stream is not None else None)
    except BaseException:
        if stream is not None:  # (a backend that failed: keep what was written)
            stream.close()
        raise
    played = batch.in_order()
    if stream is not None:
        stream.close(None if batch.interrupted else played)
    summary = summarize(played, rules.player_count)
    summary.update(
        games_per_s=round(len(played) / batch.seconds, 2) if batch.seconds > 0 else None,
        seconds=round(batch.seconds, 3), seed=seed, options=dict(rules.options), ruleset=rules.name,
        agents=list(agent_names), workers=workers, backend=backend, interrupted=batch.interrupted,
        seating=seating.text or None, headline=headline(agent_names))
    robust_played = None
    if second is not None and not batch.interrupted:  # --robust: the same seeds at a second strength
        from .robust import measured_block, play_robust, robust_block

        again = play_robust(spec, second, seating, seed, backend, workers, address, show_progress=not as_json)
        batch.interrupted = again.interrupted
        summary["interrupted"] = again.interrupted
        if not again.interrupted:
            robust_played = again.in_order()
            summary["robust"] = robust_block(agent_names, second, played, robust_played, min_sample)
            summary["headline"] = headline(agent_names, measured_block(played, robust_played, second))
    if as_json:
        sys.stdout.write(json.dumps(summary) + "\n")
    else:
        _table(rules, summary)
    if batch.interrupted:
        kept = f"; kept the records of {stream.count} games in {shown(records_file)}" if stream is not None else ""
        err_console().print(f"interrupted after {len(played)} of {games} games{kept}"
                            + ("; no report written" if report_dir else ""), soft_wrap=True)
        return 130
    if report_dir is not None:
        from ..report import write_report

        meta = {"ruleset": rules.name, "options": dict(rules.options), "agents": list(agent_names),
                "seeds": f"game_seed({seed}, 0..{seating.seeds_per_arrangement - 1})", "games": games,
                "backend": backend, "workers": workers, "hand zone": rules.statistics.hand_source}
        if seating.text:
            meta["seating"] = seating.text
        read_as = [f"Caution: {w.where()}: {w.message} (hint: {w.hint})" for w in reading]
        index = write_report(played, report_dir, title=rules.title, meta=meta, min_sample=min_sample,
                             card_info=card_catalogue(rules),
                             robust_agents=second, robust_records=robust_played, cautions=read_as)
        if not as_json:
            err_console().print(f"report: {index}")
    return incomplete_status(summary)


def card_catalogue(rules) -> dict[str, dict[str, Any]]:
    """Each card's type and the attributes the ruleset's `statistics.attributes` names, for the
    report's card table (a card without one of them gets none)."""
    shown = rules.ruleset.statistics.attributes
    return {name: {"type": defn.type, **{a: defn.attrs.get(a) for a in shown}}
            for name, defn in sorted(rules.card_defs.items())}


def incomplete_status(summary: dict) -> int:
    """The exit status of a batch that ran to its end: 1 when a game was aborted or unfinished
    (the rules or an agent are wrong), else 0."""
    return 1 if summary["aborted"] or summary["unfinished"] else 0


def _table(rules, data: dict) -> None:
    from rich.table import Table
    from rich.text import Text

    n = max(data["games"] - data["aborted"] - data["unfinished"], 1)
    table = Table(title=Text(f"{rules.title}: {data['games']} games"), show_header=True)
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_column("share", justify="right", overflow="fold")  # (a rule's place there is never cut)

    def row(name: str, value: Any, share: str = "") -> None:
        table.add_row(Text(name), Text(str(value)), Text(share))

    for seat, (agent, wins) in enumerate(zip(data["agents"], data["wins"]), start=1):
        row(f"P{seat} wins ({agent})", wins, f"{100 * wins / n:.1f}%")
    if data.get("robust"):
        robust = data["robust"]
        row(f"verdicts changed under {','.join(robust['agents'])}",
            f"{len(robust['changed'])} of {len(robust['verdicts'])}", ", ".join(robust["changed"][:8]))
    for seat, mean in enumerate(data.get("mean_scores", ()), start=1):
        row(f"P{seat} mean score", mean)
    row("draws", data["draws"], f"{100 * data['draws'] / n:.1f}%")
    for team in data.get("teams") or ():
        row(f"{team['name']} wins ({', '.join(f'P{s}' for s in team['members'])})", team["wins"],
            _rate_text(team["win_rate"]))
    if data.get("shared"):
        row("lost together", data["shared"]["losses"], f"{100 * data['shared']['losses'] / n:.1f}%")
    scores = data.get("scores") or {}
    for entry in scores.get("teams") or ():  # (each seat's: the "mean score" rows above)
        row(f"{entry['name']} mean score", entry["mean"], _mean_text(entry))
    for name, tally in data["decks"].items():
        row(f"deck {name} wins", tally["wins"], f"{100 * tally['wins'] / max(tally['games'], 1):.1f}% "
            f"of {tally['games']}")
    for reason, count in data["end_reasons"].items():
        row(f"ended: {reason}", count, f"{100 * count / n:.1f}%")
    if data["aborted"]:
        row("aborted (not counted above)", data["aborted"], f"{100 * data['aborted'] / data['games']:.1f}%")
        for game in data["aborted_games"]:
            row(f"  seed {game['seed']}", Text(game["reason"]), _shown_rule(game["rule"]))
    if data["unfinished"]:
        row("unfinished (not counted above)", data["unfinished"],
            f"{100 * data['unfinished'] / data['games']:.1f}%")
        for game in data["unfinished_games"]:
            row(f"  seed {game['seed']}", Text(game["reason"]))
    row("mean turns", data["mean_turns"])
    row("decisions per game", data["decisions_per_game"])
    row("games per second", data["games_per_s"])
    row("seed", data["seed"])
    row("workers", f"{data['workers']} ({data['backend']})")
    if data["options"]:
        row("options", ", ".join(f"{k}={v}" for k, v in data["options"].items()))
    out_console().print(table)
    for caution in data["headline"]["cautions"]:
        out_console().print(Text(caution))


def _rate_text(r: dict) -> str:
    if r["rate"] is None:
        return ""
    return f"{100 * r['rate']:.1f}% [{100 * r['low']:.1f}, {100 * r['high']:.1f}]"


def _mean_text(m: dict) -> str:
    return f"[{m['low']:.2f}, {m['high']:.2f}]" if m.get("low") is not None else ""


def _shown_rule(rule: str | None) -> str:
    """A record's rule location, FILE:LINE:COL (FILE absolute), with FILE as errors show it:
    relative to the current folder."""
    parts = (rule or "").rsplit(":", 2)
    return f"{shown_path(parts[0])}:{parts[1]}:{parts[2]}" if len(parts) == 3 else rule or ""
