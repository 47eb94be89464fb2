"""`simulate --decks/--swap-seats/--round-robin`: which decks sit at which seats, game by game.

A *table* gives each seat a deck. `--decks` names the decks (deck files, folders of deck files, or
the names of a ruleset's decks: the files in the `decks/` folder beside it and its default decks);
one deck plays itself, as many decks as seats make one table, and `--round-robin` makes a table of
every set of decks (every pair in a two-player game). With seats swapped (the default of a balance
run), each table is played in every rotation of its decks round the seats, each rotation on the
same seeds: every seed is played from both seats, so seat and first-player effects cancel out of
the deck and card figures. An *arrangement* is one rotation of one table: a batch spec of its own.
See docs/balance.md "Decks and seats".
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..backends import BatchSpec, game_seeds, open_backend
from ..errors import did_you_mean
from .batchrun import BatchResult, run_batch
from .common import UsageError


@dataclass(frozen=True)
class DeckFile:
    name: str  # the deck's name, as the report shows it (unique among the decks of a run)
    file: str


@dataclass(frozen=True)
class Plan:
    """The arrangements of a run (each: the deck file of each seat, () for the rules' own decks),
    the seeds each is played on, and a line saying what was planned."""

    arrangements: tuple[tuple[DeckFile, ...], ...]
    seeds_per_arrangement: int
    swapped: bool
    text: str

    @property
    def games(self) -> int:
        return self.seeds_per_arrangement * len(self.arrangements)


def _deck_yaml(path: Path) -> dict:
    from ..errors import DeckError
    from ..rules.yamlload import load_yaml

    data, _marks = load_yaml(path, error=DeckError)
    return data if isinstance(data, dict) else {}


def _named_decks(rules) -> dict[str, Path]:
    """The ruleset's decks by name (and by file name): its `decks/` folder and its default decks."""
    files: list[Path] = []
    folder = Path(rules.ruleset.file).parent / "decks"
    if folder.is_dir():
        files += sorted(folder.glob("*.yaml"))
    d = rules.ruleset.decks
    files += [Path(f) for f in (d.defaults if d is not None else ())]
    named: dict[str, Path] = {}
    for file in files:
        try:
            name = str(_deck_yaml(file).get("name") or file.stem)
        except Exception:  # (a broken deck file is reported when it is named, not here)
            name = file.stem
        named.setdefault(name.casefold(), file)
        named.setdefault(file.stem.casefold(), file)
        named.setdefault(file.name.casefold(), file)
    return named


def _of_format(rules, path: Path) -> bool:
    """The deck file is for the format the rules are loaded with (or names none)."""
    option = rules.ruleset.deck_format_option
    wanted = _deck_yaml(path).get("format")
    return option is None or wanted is None or str(wanted) == str(rules.options.get(option))


def resolve_decks(rules, text: str) -> list[DeckFile]:
    """The decks `--decks` names, each loaded and checked by the deck rules (a located DeckError
    for one that is wrong): comma-separated deck files, folders (their *.yaml decks of the rules'
    format) and names of the ruleset's decks."""
    named = _named_decks(rules)
    files: list[Path] = []
    for item in (part.strip() for part in text.split(",")):
        if not item:
            raise UsageError(f"--decks {text!r}: an empty entry (decks are separated by commas)")
        path = Path(item)
        if path.is_dir():
            found = [f for f in sorted(path.glob("*.yaml")) if _of_format(rules, f)]
            if not found:
                raise UsageError(f"--decks: the folder {item} holds no deck file (*.yaml) of these rules' format")
            files += found
        elif path.is_file():
            files.append(path)
        elif item.casefold() in named:
            files.append(named[item.casefold()])
        else:
            names = sorted({str(_deck_yaml(f).get("name") or f.stem) for f in set(named.values())})
            raise UsageError(f"--decks: {item!r} is no deck file, folder or deck of {rules.name}"
                             f"{did_you_mean(item, names)}" + (f" (its decks: {', '.join(names)})" if names else ""))
    decks = []
    for file in dict.fromkeys(files):  # (each file once, in the order given)
        decks.append((rules.deck(str(file), 1).name, str(file)))
    return _unique_names(decks)


def _unique_names(decks: list[tuple[str, str]]) -> list[DeckFile]:
    counts: dict[str, int] = {}
    for name, _file in decks:
        counts[name] = counts.get(name, 0) + 1
    return [DeckFile(name if counts[name] == 1 else f"{name} ({Path(file).stem})", file) for name, file in decks]


def _default_decks(rules) -> list[DeckFile]:
    """The ruleset's default decks, one per seat ([] when the players get no decks of their own)."""
    if rules.deck_count != rules.player_count or rules.player_count < 2:
        return []
    decks = rules.default_decks()
    if not decks:
        return []
    return _unique_names([(d.name, d.file) for d in decks])


def plan(rules, decks_arg: str | None, swap: bool | None, round_robin: bool, games: int,
         balance_run: bool) -> Plan:
    """The arrangements a run plays and how many seeds each (usage errors for a wrong request)."""
    players = rules.player_count
    if decks_arg is not None and (rules.deck_count != players or players < 2 and rules.deck_count != 1):
        raise UsageError(f"--decks: {rules.name} gives no player a deck of their own "
                         "(its cards are dealt by its rules or from one deck for the table)")
    chosen = resolve_decks(rules, decks_arg) if decks_arg is not None else _default_decks(rules)
    if round_robin and decks_arg is None:
        raise UsageError("--round-robin plays every pair of the decks --decks names: give --decks")
    if not chosen:
        if swap:
            raise UsageError(f"--swap-seats: {rules.name} gives the players no decks to swap")
        return Plan(((),), games, False, "")
    if round_robin:
        if len(chosen) < players:
            raise UsageError(f"--round-robin needs at least {players} decks, got {len(chosen)}")
        tables = [tuple(t) for t in itertools.combinations(chosen, players)]
    elif len(chosen) == 1:
        tables = [tuple(chosen) * players]
    elif len(chosen) == players:
        tables = [tuple(chosen)]
    else:
        raise UsageError(f"--decks names {len(chosen)} decks for {players} seats: give {players} (one per seat, "
                         "or one for every seat), or add --round-robin to play every "
                         + ("pair" if players == 2 else f"set of {players}"))
    swapped = balance_run if swap is None else swap
    if decks_arg is None and not swapped:  # (the rules' own decks in their seats: a plain batch)
        return Plan(((),), games, False, "")
    arrangements: list[tuple[DeckFile, ...]] = []
    for table in tables:
        turns = [table[i:] + table[:i] for i in range(len(table))] if swapped else [table]
        for turn in turns:
            if turn not in arrangements:
                arrangements.append(turn)
    per = math.ceil(games / len(arrangements))
    text = f"{len(tables)} table{'s' if len(tables) > 1 else ''} of decks" + (
        ", seats swapped (each seed from every seat)" if swapped else "")
    return Plan(tuple(arrangements), per, swapped, text)


def arrangement_text(arrangement: Sequence[DeckFile]) -> str:
    return " vs ".join(d.name for d in arrangement)


def play_plan(spec: BatchSpec, the_plan: Plan, seed: int, backend_name: str, workers: int, address: str | None,
              show_progress: bool, log_dir: Path | None, on_record: Any) -> BatchResult:
    """Every arrangement of the plan on one backend, each on the seeds game_seed(seed, 0 ..
    per - 1); the records of all of them (an interrupt stops the rest)."""
    seeds = game_seeds(seed, 0, the_plan.seeds_per_arrangement)
    if the_plan.arrangements == ((),):
        return run_batch(spec, seeds, backend_name, workers, address, show_progress=show_progress,
                         log_dir=log_dir, on_record=on_record)
    total = BatchResult()
    records: list[dict] = []
    try:
        _play_arrangements(spec, the_plan, seeds, backend_name, workers, address, show_progress, log_dir, on_record,
                           total, records)
    except KeyboardInterrupt:  # (between two arrangements, or while the backend stops)
        total.interrupted = True
    total.records = dict(enumerate(records))  # (seeds repeat across arrangements: keyed by position)
    return total


def _play_arrangements(spec: BatchSpec, the_plan: Plan, seeds: list[int], backend_name: str, workers: int,
                       address: str | None, show_progress: bool, log_dir: Path | None, on_record: Any,
                       total: BatchResult, records: list[dict]) -> None:
    with open_backend(backend_name, workers, address) as backend:
        for index, arrangement in enumerate(the_plan.arrangements):
            side = replace(spec, decks=tuple(d.file for d in arrangement))
            # (the same seeds are played in every arrangement: its number tells their logs apart)
            result = run_batch(side, seeds, backend_name, workers, address, show_progress=show_progress,
                               log_dir=log_dir, label=arrangement_text(arrangement), backend=backend,
                               on_record=on_record, log_suffix=f"-decks{index + 1}")
            records += result.in_order()
            total.seconds += result.seconds
            if result.interrupted:
                total.interrupted = True
                return
