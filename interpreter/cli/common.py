"""Helpers shared by the CLI commands: usage errors, `--option k=v`, paths shown short, consoles."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..errors import NO_SPAN, CardrulesError, Span


class UsageError(Exception):
    """The command line itself is wrong (exit code 2)."""


class PathArgumentError(CardrulesError):
    """A file or folder named on the command line that the system cannot read (exit 1, as any
    input that cannot be read)."""

    phase = "file"


class LogFileError(CardrulesError):
    """A log file (JSON Lines) that cannot be read as a cardrules log."""

    phase = "log"


def parse_option_pairs(pairs: Sequence[str] | None) -> dict[str, str]:
    """`--option k=v` values as a dict of raw strings (the loader types them)."""
    options: dict[str, str] = {}
    for pair in pairs or ():
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--option takes NAME=VALUE, not {pair!r}")
        options[key.strip()] = value.strip()
    return options


@contextmanager
def command_line_options(options: Mapping[str, Any], reload: Callable[[], Any]) -> Iterator[None]:
    """Around a load with `options` from the command line (`--option`, compare's `--base-option`
    ...): a load that fails only because of them is a usage error (exit 2), not an error in the
    input (exit 1). It fails only because of them when none of its errors is placed in a file (an
    option's errors are not) and `reload()`, the same load without them, succeeds."""
    try:
        yield
    except CardrulesError as err:
        errors = flat_errors(err)
        if not options or any(e.span is not None and e.span is not NO_SPAN for e in errors):
            raise
        try:
            reload()
        except CardrulesError:
            raise err from None
        raise UsageError("; ".join(e.message + (f" ({e.hint})" if e.hint else "") for e in errors)) from None


def load_for_command(game: str, option_pairs: Sequence[str] | None, max_decisions: int | None = None):
    """The rules of GAME with the command line's `--option`s (a wrong one a usage error, see
    `command_line_options`) and `--max-decisions`, if given, as every game's cap."""
    from .. import load
    from ..rules.loader import load_ruleset

    options = parse_option_pairs(option_pairs)
    with command_line_options(options, lambda: load_ruleset(game)):
        rules = load(game, options=options)
    rules.max_decisions = rules.decision_cap(max_decisions)
    return rules


def split_names(text: str | None, count: int, what: str, default: str,
                player_range: tuple[int, int] | None = None) -> list[str]:
    """'random,human' -> one agent spec per seat ('mcts:iterations=50,c=1,random' is two, see
    `split_agent_specs`); a single spec is used for every seat. `player_range`: the numbers of
    players the ruleset may be loaded with, for the hint when the count is wrong."""
    from ..agents import split_agent_specs

    names = split_agent_specs(text or default)
    if not names:
        raise UsageError(f"{what}: give one name per player, e.g. {default}")
    if len(names) == 1:
        names = names * count
    if len(names) != count:
        low, high = player_range or (count, count)
        hint = (f"; for {len(names)} players add --option players={len(names)} (it takes {low} to {high})"
                if low <= len(names) <= high else f" (it is played by {low} to {high})" if low < high else "")
        raise UsageError(f"{what}: this game has {count} players, but {len(names)} were given ({text}){hint}")
    return names


def batch_agents(text: str | None, count: int, command: str,
                 player_range: tuple[int, int] | None = None) -> list[str]:
    """The agents of a batch, one per seat, each spec checked (a usage error before any game)."""
    from ..agents import make_agent

    names = split_names(text, count, "--agents", "random", player_range)
    if any(n.lower() == "human" for n in names):
        raise UsageError(f"--agents: {command} plays without a person; use random, greedy, turn, mcts or your own")
    for name in names:
        make_agent(name)
    return names


SHOWN_PATH_LENGTH = 120  # characters of a path an error prints whole; a longer one is cut in the middle


def short(text: str | os.PathLike[str]) -> str:
    """A path (or any name) as an error prints it: whole, or, when it is huge, its start and end
    around '...' with its length."""
    text = os.fsdecode(text)
    if len(text) <= SHOWN_PATH_LENGTH:
        return text
    return f"{text[:60]}...{text[-40:]} ({len(text):,} characters)"


def path_trouble(path: str | os.PathLike[str]) -> str | None:
    """Why the system refuses to look at this path (a name too long, a loop of links, no
    permission to search a folder), or None when it can say whether the path exists."""
    try:
        os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as err:
        return err.strerror or str(err)
    except ValueError as err:  # an embedded NUL
        return str(err)
    return None


def shown(path: str | os.PathLike[str]) -> str:
    """A path as short as it can be shown: relative to the current folder or to the shipped data."""
    from .. import paths

    p = Path(path)
    try:
        resolved = p.resolve()
    except OSError:
        return short(path)
    if path_trouble(p) is not None:
        return short(path)
    return paths.within_known_folders(resolved) or short(path)


def indent(text: str, prefix: str = "    ") -> str:
    return "\n".join(prefix + line if line else line for line in str(text).splitlines())


def error_location(err: CardrulesError) -> str | None:
    span: Span | None = getattr(err, "span", None)
    return span.file if span is not None else None


def flat_errors(err: CardrulesError) -> list[CardrulesError]:
    """The single errors inside an ErrorList (or the error itself)."""
    inner = getattr(err, "errors", None)
    if isinstance(inner, list):
        out: list[CardrulesError] = []
        for e in inner:
            out.extend(flat_errors(e))
        return out
    return [err]


MAX_SHOWN_ERRORS = 50  # errors of one kind printed for one file, or for one command's input
# rules/schema.py stops at 50 errors of a document with one error that says how many it left out
_LEFT_OUT = re.compile(r"and ([\d,]+) more errors? from here on \(")


def capped(errors: Sequence[CardrulesError]) -> tuple[list[CardrulesError], list[str]]:
    """At most `MAX_SHOWN_ERRORS` errors of each kind (phase: syntax, validation, rules, ...), in
    their order, and a line 'and N more KIND errors' for each kind with more (a schema's own line
    for the errors it left out counts as those errors). Printing is bounded, whatever the input."""
    shown: list[CardrulesError] = []
    seen: dict[str, int] = {}
    more: dict[str, int] = {}
    for err in errors:
        kind = err.phase
        left_out = _LEFT_OUT.match(err.message)
        if left_out is not None:
            more[kind] = more.get(kind, 0) + int(left_out.group(1).replace(",", ""))
            continue
        seen[kind] = seen.get(kind, 0) + 1
        if seen[kind] <= MAX_SHOWN_ERRORS:
            shown.append(err)
        else:
            more[kind] = more.get(kind, 0) + 1
    return shown, [f"and {n:,} more {kind} error{'' if n == 1 else 's'} (at most {MAX_SHOWN_ERRORS} of a kind "
                   "are shown)" for kind, n in more.items()]


def errors_text(err: CardrulesError, render: Callable[[CardrulesError], str] = str) -> str:
    """An error (or the errors of an ErrorList) as printed: `render` of each error `capped` shows,
    then the lines saying how many more there are."""
    shown, more = capped(flat_errors(err))
    return "\n".join([render(e) for e in shown] + more)


def capped_lines(lines: Sequence[str], what: str = "failures") -> list[str]:
    """At most `MAX_SHOWN_ERRORS` of `lines`, then 'and N more WHAT'."""
    if len(lines) <= MAX_SHOWN_ERRORS:
        return list(lines)
    return [*lines[:MAX_SHOWN_ERRORS], f"and {len(lines) - MAX_SHOWN_ERRORS:,} more {what} "
                                       f"(at most {MAX_SHOWN_ERRORS} are shown)"]


def out_console(**kwargs: Any):
    """A rich console on stdout; when stdout is not a terminal, wide enough for the tables."""
    from rich.console import Console

    console = Console(file=sys.stdout, highlight=False, **kwargs)
    if not console.is_terminal and "COLUMNS" not in os.environ and "width" not in kwargs:
        console = Console(file=sys.stdout, highlight=False, width=140, **kwargs)
    return console


def err_console(**kwargs: Any):
    from rich.console import Console

    return Console(file=sys.stderr, highlight=False, **kwargs)


def agent_seed(seed: int, seat: int) -> int:
    """The seed of the agent in `seat` of the game with this seed (backends/games.py's, imported
    when first needed: the backends import the engine)."""
    from ..backends.games import agent_seed as seed_of

    return seed_of(seed, seat)
