"""`cardrules replay`: re-run a JSON Lines log and confirm every line is identical.

The header gives the ruleset (its file when it still exists, else its name), the options, the
seed and the decks. The game is started again and each logged decision applied in turn; every
line the game produces is compared with the log's line, and the first difference is reported
with its line number, what the log says and what the replay produced.

With `--show`, the game is drawn as it replays (interpreter.presentation.terminal): at each
decision the table from the deciding seat's view (or `--seat N`'s), the log since the last one,
the distinct moves, and the move the log takes.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from .. import __version__, load
from ..errors import CardrulesError, Span
from .common import LogFileError, UsageError

MAX_LOG_DEPTH = 100  # nesting of a log line's JSON; cardrules writes a handful of levels


def nesting_column(line: str, limit: int = MAX_LOG_DEPTH) -> int | None:
    """The 1-based column where the JSON of `line` opens its (limit+1)th nested array or object,
    or None when it nests no deeper than `limit` (read before `json.loads`, which would recurse)."""
    if line.count("[") + line.count("{") <= limit:
        return None
    depth, in_string, escaped = 0, False, False
    for column, char in enumerate(line, start=1):
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > limit:
                return column
        elif char in "]}":
            depth -= 1
    return None


def read_log(path: str) -> tuple[dict, list[tuple[int, dict]]]:
    """(header, [(line number, entry)]) of a log file; raises LogFileError located in it."""
    p = Path(path)
    if not p.is_file():
        raise LogFileError(f"no such log file: {path}")
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise LogFileError(f"cannot read {path}: {err}") from None
    entries: list[tuple[int, dict]] = []
    header: dict | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        deep = nesting_column(line)
        if deep is not None:
            raise LogFileError(f"not a log line: its JSON nests more than {MAX_LOG_DEPTH} levels deep",
                               Span(path, number, deep)) from None
        try:
            data = json.loads(line)
        except json.JSONDecodeError as err:
            raise LogFileError(f"not a JSON line: {err.msg}", Span(path, number, err.colno)) from None
        except (ValueError, RecursionError) as err:  # e.g. a number of more than 4,300 digits
            raise LogFileError(f"not a JSON line: {str(err).split(';')[0]}", Span(path, number, 1)) from None
        if not isinstance(data, dict):
            raise LogFileError("a log line must be a JSON object", Span(path, number, 1))
        if header is None:
            if data.get("type") != "header":
                raise LogFileError("the first line must be the header ({\"type\": \"header\", ...})",
                                   Span(path, number, 1), hint="logs are written by 'cardrules play --log F.jsonl'")
            for key in ("ruleset", "seed"):
                if key not in data:
                    raise LogFileError(f"the header has no {key!r}", Span(path, number, 1))
            cap = data.get("max_decisions")  # (the game's cap of decisions; older logs have none)
            if cap is not None and (type(cap) is not int or cap < 1):
                raise LogFileError(f"the header's max_decisions must be a whole number from 1 on, not {cap!r}",
                                   Span(path, number, 1))
            header = data
            continue
        if entries and entries[-1][1].get("type") == "stopped":
            raise LogFileError("nothing may follow a 'stopped' line: it ends the log of a game that did not end",
                               Span(path, number, 1))
        entries.append((number, data))
    if header is None:
        raise LogFileError(f"{path} is empty: no header line")
    return header, entries


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value, ensure_ascii=False))


def _show(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


class _Show:
    """Draws a replayed game at each decision (`replay --show`)."""

    def __init__(self, game, out, seat: int | None) -> None:
        from ..presentation.terminal import TerminalTable
        from .play import Printer

        self.game, self.out, self.seat = game, out, seat
        self.table = TerminalTable(game.rules)
        self.printer = Printer(game, [], quiet=False, out=out, hold=True)

    def before(self, number: int, option_id: str) -> None:
        from ..presentation import distinct_moves

        self.printer.flush()
        deciding, options = self.game.decision()
        viewer = self.seat or deciding
        if viewer > len(self.game.players):
            viewer = deciding
        obs = self.game.observation(viewer)
        moves = distinct_moves(obs, self.game.rules) if viewer == deciding else None
        self.table.draw(self.out, obs, self.printer.take(), moves, note=f"log line {number}",
                        since=f"P{viewer}'s last view", log_since="the last decision")
        taken = next((m for m in moves or () if any(obs["decision"]["options"][i]["id"] == option_id
                                                    for i in m.options)), None)
        label = next((o.label for o in options if o.id == option_id), option_id)
        self.out.write(f"-> P{deciding} chooses " + (f"{moves.index(taken) + 1}) {taken.label}" if taken
                                                     else label) + "\n")
        self.printer.decision_text = ""  # (said here, not again in the next log)

    def end(self) -> None:
        self.printer.flush()
        self.printer.release()


def replay_log(path: str, show: bool = False, seat: int | None = None) -> int:
    """Replay the log at `path` (see the module); `show`: draw it as it goes, from `seat`'s view
    or each deciding seat's."""
    out = sys.stdout
    header, entries = read_log(path)
    version = header.get("version")
    if version is not None and version != __version__:
        sys.stderr.write(f"note: the log was written by cardrules {version}, this is {__version__}\n")
    ruleset_file = header.get("ruleset_file")
    target = header["ruleset"]
    if ruleset_file and Path(ruleset_file).is_file():
        target = ruleset_file
    elif ruleset_file:
        sys.stderr.write(f"note: {ruleset_file} is gone; replaying with the ruleset named {target!r}\n")
    rules = load(target, options=header.get("options") or {})
    decks = header.get("decks") or None
    game = rules.new_game(seed=header["seed"], decks=decks, log=True, max_decisions=header.get("max_decisions"))
    if seat is not None and seat > len(game.players):
        raise UsageError(f"--seat {seat}: the logged game has {len(game.players)} players")
    shown = _Show(game, out, seat) if show else None

    produced: list[dict] = []

    def refresh() -> None:
        produced.extend(_json(entry) for entry in game.log_since(len(produced)))

    def diverge(number: int, expected: Any, got: Any) -> int:
        out.write(f"{path}:{number}: replay diverges at line {number}\n")
        out.write(f"  expected: {_show(expected)}\n")
        out.write(f"  got:      {_show(got)}\n")
        return 1

    stopped = entries.pop() if entries and entries[-1][1].get("type") == "stopped" else None
    refresh()
    k = 0
    for number, expected in entries:
        if k >= len(produced):
            # the game produced nothing more: it waits for a decision (or is over)
            if game.is_over:
                return diverge(number, expected, "nothing: the game is over")
            if expected.get("type") != "decision":
                seat, options = game.decision()
                return diverge(number, expected, f"nothing: the game waits for P{seat}'s decision "
                                                 f"'{options.prompt}'")
            try:
                if shown is not None:
                    shown.before(number, str(expected.get("option")))
                game.apply(str(expected.get("option")))
            except CardrulesError as err:
                return diverge(number, expected, f"an illegal decision: {err.message}")
            refresh()
        got = produced[k]
        if got != expected:
            return diverge(number, expected, got)
        k += 1
    if stopped is not None and (k < len(produced) or game.is_over):
        return diverge(stopped[0], stopped[1], produced[k] if k < len(produced) else "nothing: the game is over")
    if stopped is None and (k < len(produced) or not game.is_over):
        return cut_short(path, entries, game, produced[k] if k < len(produced) else None, out)
    if shown is not None:
        shown.end()
    note = f" (the game stopped before its end: {_show(stopped[1].get('reason'))})" if stopped is not None else ""
    out.write(f"replay identical: {len(entries) + (stopped is not None)} lines{note}\n")
    return 0


def cut_short(path: str, entries: list[tuple[int, dict]], game, goes_on: dict | None, out) -> int:
    """Say that the log ends before the game does (no `end` line, no `stopped` line): at which
    line, what the game does next, and the log's last decision. Exit code 1."""
    last = entries[-1][0] if entries else 1
    out.write(f"{path}:{last}: the log is cut short: it ends at line {last}, before the game's end\n")
    if goes_on is not None:
        out.write(f"  the game goes on with: {_show(goes_on)}\n")
    else:
        seat, options = game.decision()
        out.write(f"  the game waits for: P{seat}'s decision '{options.prompt}'\n")
    decision = next(((n, e) for n, e in reversed(entries) if e.get("type") == "decision"), None)
    if decision is not None:
        number, entry = decision
        out.write(f"  the log's last decision: line {number}, P{entry.get('player')} chose "
                  f"{_show(entry.get('label', entry.get('option')))}\n")
    else:
        out.write("  the log has no decision\n")
    return 1
