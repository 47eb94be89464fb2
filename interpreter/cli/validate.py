"""`cardrules validate`: check rulesets, card files, decks and scenarios; one line per file.

Without paths: every shipped ruleset with its card files and decks. A path may be a game name,
a ruleset file, a deck file, a scenario file (schema and load check, not the play), a card file
or a folder (everything in it). YAML files are told apart by their content: a scenario has
`cites:` and `ruleset:` (or given/when/then/expect_error), a deck has `cards:` and no ruleset
key, anything else is a ruleset.

Paths are shown all relative (to the current folder, or the shipped data) when every path given
is under one of them, else all absolute: the file lines and the paths inside error messages alike.
"""

from __future__ import annotations

import io
import os
import re
import sys
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import Any

from .. import paths
from ..errors import NO_SPAN, CardrulesError, RulesError, did_you_mean, register_source, source_line
from ..rules import rulepaths
from .common import capped, command_line_options, flat_errors, indent, parse_option_pairs, shown
from .workers import default_workers, folder_of, ordered_map

RULESET_KEYS = {"zones", "extends", "turn", "players", "code", "keywords", "globals", "player_attributes",
                "card_types", "events", "setup", "end", "decks", "stack", "title", "options"}
SCENARIO_KEYS = {"given", "when", "then", "expect_error"}
YAML_SUFFIXES = (".yaml", ".yml")
# an absolute path inside an error message: at the start or after a space, a quote, a bracket, a
# comma or =, up to the next one of these or a colon
ABSOLUTE_PATH = re.compile(r"(?<![^\s'\"(\[=,])/[^\s'\"(),;:]+")
CARD_SUFFIX = ".cards"


def classify(data: Any) -> str:
    """'scenario', 'deck' or 'ruleset' for a loaded YAML document."""
    if isinstance(data, dict):
        keys = set(data)
        if keys & SCENARIO_KEYS or ("cites" in keys and "ruleset" in keys and not keys & RULESET_KEYS):
            return "scenario"
        if "cards" in keys and not keys & RULESET_KEYS:
            return "deck"
    return "ruleset"


# Scenario files as `check_folder` read them to sort the folder's files, by path: each is read
# (and its YAML parsed) once; worker processes, forked once they are read, find them here too.
_READ: dict[Path, tuple[Any, Any]] = {}


class Validator:
    def __init__(self, out, ruleset_arg: str | None = None, options: dict | None = None,
                 relative: bool = True) -> None:
        self.out = out
        self.relative = relative  # paths shown relative, or all absolute
        self.ruleset_arg = ruleset_arg
        self.options = options or {}
        self.rules_cache: dict[Path, tuple[Any, list[CardrulesError]]] = {}
        self.done: set[Path] = set()
        # errors printed, by id; kept, so that no later error can get the id of one freed
        self.printed: dict[int, CardrulesError] = {}
        self.files = 0
        self.failed = 0
        self.warned = 0  # warnings printed (they fail nothing)
        self.cache = False  # replay error-free checks from the disk cache (the command line's)
        self.workers: int | None = None  # processes for many scenarios (--workers; workers.py)

    # ------------------------------------------------------------ reporting
    def show(self, path: str | os.PathLike[str]) -> str:
        """A path as this run shows paths: relative (see `shown`; else to the current folder) or
        absolute."""
        text = os.fspath(path)
        if text.startswith("<"):  # <deck>, <builtin>: no file
            return text
        p = Path(text)
        try:
            if not self.relative:
                return str(p.resolve())
            text = shown(p)
            if Path(text).is_absolute():
                text = os.path.relpath(p.resolve(), Path.cwd())
        except (OSError, ValueError):  # (no relative path to another drive)
            pass
        return text

    def show_paths(self, text: str) -> str:
        """A message with each absolute path in it shown as this run shows paths."""
        def one(match: re.Match) -> str:
            path = match.group(0).rstrip(".")
            folder = os.path.dirname(path)
            if not (os.path.exists(path) or folder != os.path.dirname(folder) and os.path.isdir(folder)):
                return match.group(0)  # not a path (or in the root folder), as far as we can tell
            return self.show(path) + match.group(0)[len(path):]

        return ABSOLUTE_PATH.sub(one, text)

    def render(self, err: CardrulesError) -> str:
        """An error as `str(err)` gives it, with its paths shown as this run shows paths (the
        quoted source line left as it is)."""
        text = str(err)
        span = err.span
        quoted = None
        if span is not None and span is not NO_SPAN:
            quoted = source_line(span)
            head = f"{span}: "
            if text.startswith(head):
                text = f"{self.show(span.file)}:{span.line}:{span.column}: " + text[len(head):]
        lines = text.split("\n")
        return "\n".join(line if quoted is not None and line == "    " + quoted else self.show_paths(line)
                         for line in lines)

    def report(self, path: str | Path, errors: list[CardrulesError], note: str = "",
               failed: bool | None = None, warnings: Sequence[CardrulesError] = ()) -> None:
        """One line for a file, then its errors not printed before (and its warnings, which
        fail nothing: see `warn`)."""
        self.files += 1
        name = self.show(path)
        failed = bool(errors) if failed is None else failed
        warnings = [w for w in warnings if id(w) not in self.printed]
        if warnings:
            count = f"{len(warnings)} warning{'s' if len(warnings) != 1 else ''}"
            note = f"{note}; {count}" if note else count
        suffix = f"  ({note})" if note else ""
        if not failed:
            self.out.write(f"ok    {name}{suffix}\n")
            self.warn(warnings)
            return
        self.failed += 1
        self.out.write(f"error {name}{suffix}\n")
        fresh = [err for err in errors if id(err) not in self.printed]
        listed, more = capped(fresh)
        for err in fresh:
            self.printed[id(err)] = err
        for err in listed:
            self.out.write(indent(self.render(err)) + "\n")
        for line in more:
            self.out.write(indent(line) + "\n")
        self.warn(warnings)

    def warn(self, warnings: Sequence[CardrulesError]) -> None:
        """Print warnings under their file's line, each once (kept in `printed` for the
        language server, which shows them as warnings)."""
        for w in warnings:
            if id(w) in self.printed:
                continue
            self.printed[id(w)] = w
            self.warned += 1
            self.out.write(indent(self.render(w)) + "\n")

    def skip(self, path: Path, why: str) -> None:
        self.out.write(f"skip  {self.show(path)}  ({why})\n")

    def first_time(self, path: Path) -> bool:
        key = path.resolve()
        if key in self.done:
            return False
        self.done.add(key)
        return True

    # ------------------------------------------------------------ rulesets
    def rules_for(self, path: Path, extra: dict | None = None) -> tuple[Any, list[CardrulesError]]:
        """The loaded rules of a ruleset file (cached), or the errors that stopped it; a usage
        error when only the command line's `--option`s are wrong for it."""
        from .. import load
        from ..rules.loader import load_ruleset

        options = {**self.options, **(extra or {})}
        key = (path.resolve(), tuple(sorted(options.items())))
        if key not in self.rules_cache:
            try:
                with command_line_options(self.options, lambda: load_ruleset(str(path.resolve()), extra)):
                    self.rules_cache[key] = (load(str(path.resolve()), options=options), [])
            except CardrulesError as err:
                self.rules_cache[key] = (None, flat_errors(err))
        return self.rules_cache[key]

    def card_files_of(self, path: Path) -> list[Path]:
        """The card files a ruleset reads (its `cards:` entries, inherited through `extends:`)."""
        from ..rules.yamlload import load_yaml

        seen: set[Path] = set()
        current = path.resolve()
        while current not in seen:
            seen.add(current)
            try:
                data, _marks = load_yaml(current)
            except CardrulesError:
                return []
            if not isinstance(data, dict):
                return []
            if "cards" in data and isinstance(data["cards"], list):
                # (only what the loader would read: an entry it refuses is reported with the ruleset)
                found: list[Path] = []
                for entry in data["cards"]:
                    try:
                        p = Path(rulepaths.card_entry(str(entry), current, None))
                        if p.exists():
                            found.extend(rulepaths.card_files(p))
                    except (CardrulesError, OSError):
                        continue
                return found
            base = data.get("extends")
            if not isinstance(base, str):
                return []
            try:
                current = rulepaths.extended(base, current, None).resolve()
            except (CardrulesError, OSError):
                return []
        return []

    def check_ruleset(self, path: Path) -> None:
        """A ruleset file, then the card files it reads and its decks (from the command line, an
        error-free check of files unchanged since is replayed from the disk cache: validatecache.py)."""
        if not self.first_time(path):
            return
        if self.cache:
            from .validatecache import checked

            checked(self, path, self._check_ruleset_now)
        else:
            self._check_ruleset_now(path)

    def _check_ruleset_now(self, path: Path) -> None:
        rules, errors = self.rules_for(path)
        card_files = self.card_files_of(path)
        names = {str(p.resolve()) for p in card_files}
        own = [e for e in errors if _file_of(e) not in names]
        in_cards = len(errors) - len(own)
        note = f"{in_cards} error{'s' if in_cards != 1 else ''} in its card files, below" if in_cards else ""
        warnings = [w for w in rules.warnings if _file_of(w) not in names] if rules is not None else []
        self.report(path, own, note, failed=bool(errors), warnings=warnings)
        for card_file in card_files:
            self.check_card_file(card_file, via=path)
        self.check_decks_of(path)

    def check_game(self, name: str) -> None:
        """A shipped game (with its variants) or a shipped variant, by name."""
        main = paths.ruleset_path(name)
        folder = main.parent
        files = [main]
        if main.stem == folder.name:
            files += [f for f in sorted(folder.iterdir())
                      if f.is_file() and f.suffix in YAML_SUFFIXES and f != main]
        for f in files:
            self.check_yaml(f)

    def check_decks_of(self, ruleset: Path) -> None:
        """The decks in the ruleset's decks/ folder and every default deck it names (those of
        each format too, with that format's rules); a default deck file that is missing is an
        error at its entry in the ruleset."""
        decks: list[Path] = []
        folder = ruleset.parent / "decks"
        if folder.is_dir():
            own = os.path.realpath(ruleset.parent)
            for p in sorted(p for p in folder.rglob("*") if p.suffix in YAML_SUFFIXES):
                real = os.path.realpath(p)
                if rulepaths.is_inside(real, own):
                    decks.append(p)
                elif self.first_time(p):  # (a link out of the ruleset's folder: not read, not quoted)
                    self.report(p, [RulesError(f"{p.relative_to(ruleset.parent)} is a link to {real}, outside the "
                                               f"folder of its ruleset; it is not read")])
        formats: dict[Path, str | None] = {}
        for default in self.default_decks(ruleset):
            if not default.path.is_file():
                if self.first_time(default.path):
                    self.report(default.path, [RulesError(f"the default deck {self.show(default.path)} does not "
                                                          "exist", default.span)])
                continue
            key = default.path.resolve()
            if key not in formats:
                formats[key] = default.format
                if key not in {d.resolve() for d in decks}:
                    decks.append(default.path)
        for deck in decks:
            self.check_deck(deck, ruleset, chosen=formats.get(deck.resolve()))

    def default_decks(self, ruleset: Path) -> list:
        """The default decks a ruleset names (none if its rule files cannot be read: that is
        reported with the ruleset)."""
        from ..rules.loader import default_decks

        try:
            return default_decks(ruleset.resolve())[1]
        except CardrulesError:
            return []

    # ------------------------------------------------------------ card files
    def check_card_file(self, path: Path, via: Path | None = None) -> None:
        if not self.first_time(path):
            return
        from ..lang.parser import parse
        from ..rules.sources import read_text

        try:
            text = read_text(path.resolve())
        except OSError as err:
            self.report(path, [RulesError(f"cannot read {path}: {err.strerror or err}")])
            return
        except CardrulesError as err:
            self.report(path, [err])
            return
        try:
            parse(text, str(path.resolve()))
        except CardrulesError as err:
            self.report(path, flat_errors(err))
            return
        try:
            ruleset = via or self.ruleset_for_cards(path)
        except CardrulesError as err:  # --ruleset names nothing
            self.report(path, [err])
            return
        if ruleset is None:
            self.report(path, [], "syntax only: give --ruleset to check names against a ruleset")
            return
        card_files = {str(p.resolve()) for p in self.card_files_of(ruleset)}
        if str(path.resolve()) in card_files:
            rules, errors = self.rules_for(ruleset)
            mine = [e for e in errors if _file_of(e) == str(path.resolve())]
            # errors in the ruleset's own files matter here when the ruleset is not listed itself
            theirs = [e for e in errors if _file_of(e) not in card_files]
            if not mine and theirs and ruleset.resolve() not in self.done:
                self.report(path, theirs, f"its ruleset {self.show(ruleset)} has errors")
            else:
                warnings = [w for w in rules.warnings if _file_of(w) == str(path.resolve())] if rules else []
                self.report(path, mine, warnings=warnings)
            return
        # a card file the ruleset does not read: check it as an addition to the ruleset's cards
        from ..rules.loader import load_ruleset

        register_source(str(path.resolve()), text)
        try:
            with command_line_options(self.options, lambda: load_ruleset(str(ruleset.resolve()))):
                checked = load_ruleset(str(ruleset.resolve()), self.options, [(text, str(path.resolve()), 1, 1)])
            warnings = [w for w in checked.warnings if _file_of(w) == str(path.resolve())]
            self.report(path, [], f"checked with {self.show(ruleset)}", warnings=warnings)
        except CardrulesError as err:
            self.report(path, flat_errors(err), f"checked with {self.show(ruleset)}")

    def ruleset_for_cards(self, path: Path) -> Path | None:
        if self.ruleset_arg:
            return paths.ruleset_path(self.ruleset_arg)
        game = path.parent.name
        for candidate in (path.parent.parent.parent / "rulesets" / game / f"{game}.yaml",
                          path.parent / f"{game}.yaml"):
            if candidate.is_file():
                return candidate
        if game in paths.shipped_rulesets():
            return paths.shipped_rulesets()[game]
        return None

    # ------------------------------------------------------------ decks and scenarios
    def deck_ruleset(self, path: Path, data: Any) -> Path:
        if self.ruleset_arg:
            return paths.ruleset_path(self.ruleset_arg)
        if isinstance(data, dict) and isinstance(data.get("ruleset"), str):
            return paths.ruleset_path(data["ruleset"], base=path) if data["ruleset"] not in paths.shipped_rulesets() else paths.ruleset_path(data["ruleset"])
        for folder in list(path.resolve().parents)[:4]:
            for suffix in YAML_SUFFIXES:
                candidate = folder / f"{folder.name}{suffix}"
                if candidate.is_file():
                    return candidate
        raise RulesError(f"cannot tell which ruleset the deck {self.show(path)} is for",
                         hint="give --ruleset GAME, or put 'ruleset: GAME' in the deck file")

    def check_deck(self, path: Path, ruleset: Path | None = None, data: Any = None,
                   chosen: str | None = None) -> None:
        """A deck file, with the rules of the format it is a default of (`chosen`) or declares."""
        if not self.first_time(path):
            return
        try:
            ruleset = ruleset or self.deck_ruleset(path, data)
        except CardrulesError as err:
            self.report(path, [err])
            return
        rules, errors = self.deck_rules(path, ruleset, chosen)
        if rules is None:
            if ruleset.resolve() in self.done:
                self.skip(path, f"its ruleset {self.show(ruleset)} has errors")
            else:
                self.report(path, errors, f"its ruleset {self.show(ruleset)} has errors")
            return
        try:
            rules.deck(str(path if self.relative else path.resolve()))
            self.report(path, [])
        except CardrulesError as err:
            self.report(path, flat_errors(err))

    def deck_rules(self, path: Path, ruleset: Path, chosen: str | None) -> tuple[Any, list[CardrulesError]]:
        """The rules to check a deck with: those of its format (the one it is a default of, else
        the one it declares), or the ruleset's as loaded when that is no format of the ruleset
        (then `Rules.deck` says so, at the deck's `format:`)."""
        rules, errors = self.rules_for(ruleset)
        option = rules.ruleset.deck_format_option if rules is not None else None
        wanted = chosen or _deck_format(path)
        if option is None or wanted is None:
            return rules, errors
        spec = rules.ruleset.option_specs.get(option)
        if spec is not None and spec.values and wanted not in spec.values:
            return rules, errors
        return self.rules_for(ruleset, {option: wanted})

    def check_scenario(self, path: Path) -> None:
        if self.first_time(path):
            self.check_scenario_now(path)

    def check_scenario_now(self, path: Path) -> None:
        from ..scenarios import check_scenario

        try:
            check_scenario(path, _READ.pop(path, None))
            self.report(path, [])
        except CardrulesError as err:
            self.report(path, flat_errors(err))

    # ------------------------------------------------------------ dispatch
    def check_yaml(self, path: Path) -> None:
        from ..rules.yamlload import load_yaml

        try:
            data, _marks = load_yaml(path)
        except CardrulesError as err:
            if self.first_time(path):
                self.report(path, [err])
            return
        kind = classify(data)
        if kind == "scenario":
            self.check_scenario(path)
        elif kind == "deck":
            self.check_deck(path, data=data)
        else:
            self.check_ruleset(path)

    def check_folder(self, folder: Path) -> None:
        from ..rules.yamlload import load_yaml

        groups: dict[str, list[Path]] = {"ruleset": [], "cards": [], "deck": [], "scenario": []}
        for p in sorted(folder.rglob("*")):
            if not p.is_file() or any(part.startswith(".") for part in p.relative_to(folder).parts):
                continue
            if p.suffix == CARD_SUFFIX:
                groups["cards"].append(p)
            elif p.suffix in YAML_SUFFIXES:
                try:
                    data, marks = load_yaml(p)
                except CardrulesError:
                    groups["ruleset"].append(p)  # check_yaml reports the YAML error
                    continue
                kind = classify(data)
                groups[kind].append(p)
                if kind == "scenario":
                    _READ[p] = (data, marks)
        try:
            self._check_groups(folder, groups)
        finally:
            for p in groups["scenario"]:
                _READ.pop(p, None)

    def _check_groups(self, folder: Path, groups: dict[str, list[Path]]) -> None:
        if not any(groups.values()):
            self.report(folder, [RulesError(f"{folder}: no ruleset, deck, scenario or card file in this folder")])
            return
        for p in groups["ruleset"]:
            self.check_yaml(p)
        for p in groups["cards"]:
            self.check_card_file(p, via=self._reader_of(p, groups["ruleset"]))
        for p in groups["deck"]:
            self.check_yaml(p)
        self.check_scenarios(groups["scenario"])

    def check_scenarios(self, files: list[Path]) -> None:
        """Check scenario files, in worker processes when there are many (workers.py): each
        prints what this process would, in the same order."""
        todo = [p for p in files if self.first_time(p)]
        count = default_workers(len(todo), self.workers)
        if count <= 1:
            for p in todo:
                self.check_scenario_now(p)
            return
        for text, failed in ordered_map(partial(_scenario_outcome, self.relative), todo, count, group=folder_of):
            self.out.write(text)
            self.files += 1
            self.failed += failed

    def _reader_of(self, card_file: Path, rulesets: list[Path]) -> Path | None:
        """A ruleset among those checked here that reads this card file."""
        target = card_file.resolve()
        for r in rulesets:
            if target in {p.resolve() for p in self.card_files_of(r)}:
                return r
        return None

    def check_path(self, text: str) -> None:
        path = Path(text)
        if not self.relative and path.exists():
            path = path.resolve()
        if path.is_dir():
            self.check_folder(path)
        elif path.is_file():
            if path.suffix == CARD_SUFFIX:
                self.check_card_file(path)
            elif path.suffix in YAML_SUFFIXES:
                self.check_yaml(path)
            else:
                self.report(path, [RulesError(f"{text}: not a ruleset, deck or scenario (.yaml) nor a card "
                                              f"file ({CARD_SUFFIX})")])
        elif text in paths.shipped_rulesets():
            self.check_game(text)
        else:
            known = paths.shipped_rulesets()
            self.report(text, [RulesError(f"no such file, folder or game: {text!r}{did_you_mean(text, known)}",
                                          hint=f"shipped games: {', '.join(known) or 'none'}")])

    def check_all_shipped(self) -> None:
        games = paths.shipped_games()
        if not games:
            self.report(paths.rulesets_dir(), [RulesError("no shipped rulesets found")])
        for game in games:
            self.check_game(game)


def _scenario_outcome(relative: bool, path: Path) -> tuple[str, bool]:
    """What `Validator.check_scenario` prints for one scenario, and whether it failed (run in a
    worker process)."""
    out = io.StringIO()
    validator = Validator(out, relative=relative)
    validator.check_scenario_now(path)
    return out.getvalue(), bool(validator.failed)


def _file_of(err: CardrulesError) -> str | None:
    span = getattr(err, "span", None)
    if span is None:
        return None
    try:
        return str(Path(span.file).resolve())
    except OSError:
        return span.file


def relative_paths(path_args: list[str | None]) -> bool:
    """Whether a run shows paths relative: when every path given is in the current folder or the
    shipped data (games given by name are)."""
    roots = []
    for root in (Path.cwd(), paths.data_root()):
        try:
            roots.append(root.resolve())
        except OSError:
            continue
    for text in path_args:
        if text is None:
            continue
        path = Path(text)
        if not path.exists():
            continue
        resolved = path.resolve()
        if not any(resolved == root or root in resolved.parents for root in roots):
            return False
    return True


def run_validate(path_args: list[str], ruleset_arg: str | None, option_pairs: list[str] | None,
                 workers: int | None = None) -> int:
    out = sys.stdout
    if ruleset_arg is not None:
        paths.ruleset_path(ruleset_arg)  # (an unknown game is an error even where no path needs it)
    validator = Validator(out, ruleset_arg, parse_option_pairs(option_pairs), relative_paths([*path_args, ruleset_arg]))
    validator.cache = True
    validator.workers = workers
    if path_args:
        for text in path_args:
            validator.check_path(text)
    else:
        validator.check_all_shipped()
    errors = validator.failed
    warned = validator.warned
    out.write(f"{validator.files} file{'s' if validator.files != 1 else ''} checked, "
              f"{errors} with errors{f', {warned} warning' + ('s' if warned != 1 else '') if warned else ''}\n")
    out.flush()
    return 1 if errors else 0


def _deck_format(path: Path) -> str | None:
    """The `format:` a deck file declares, if any."""
    from ..rules.yamlload import load_yaml

    try:
        data, _marks = load_yaml(path)
    except CardrulesError:
        return None
    value = data.get("format") if isinstance(data, dict) else None
    return str(value) if value is not None else None
