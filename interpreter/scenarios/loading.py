"""What a scenario loads before it plays, and the error it may expect instead.

`rules_for` loads the ruleset with the scenario's options and inline cards (a ruleset's load
errors without a place of their own are placed at the scenario's options), once per process
for each ruleset and options, reusing the compiled program of the same ruleset loaded with
other options when only the option values differ (`_shared_rules`); `scenario_decks` the
decks of `decks:` (files, or written inline and checked as decks there); `ExpectedError` is
`expect_error:`: the ruleset, a deck or the scenario's own cards must be refused, or a rule must
fail while the scenario runs, with that error and no other.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path

from .. import paths
from ..compile.program import options_only_differ
from ..engine.rules import Rules
from ..errors import CardrulesError, DeckError, ErrorList, RulesError, Span
from ..rules.checker import check_ruleset
from ..rules.decks import Deck, load_deck
from ..rules.extra_cards import with_cards
from ..rules.loader import load_ruleset
from ..rules.observing import observing_problems
from ..rules.schema import validate
from ..rules.sources import parse_text_at

_RULES_CACHE: dict[str, Rules] = {}  # by ruleset and options: shared by every scenario of a run


def rules_for(data: dict, file: str, marks) -> Rules:
    """The scenario's ruleset with its options and inline cards. The ruleset with its options is
    loaded once per process and shared; a scenario with cards of its own gets a ruleset of its
    own, made from the shared one's (unchanged) parts plus its cards, its cards checked and
    compiled on top of the shared ones (`_with_cards`), so its cards never reach another
    scenario."""
    options = data.get("options") or {}
    cards = data.get("cards")
    ruleset_name = data["ruleset"]
    base = Path(file).parent / ruleset_name
    target = str(base) if base.suffix in (".yaml", ".yml") and base.is_file() else ruleset_name
    key = json.dumps([target, options], sort_keys=True)
    shared = _RULES_CACHE.get(key)
    if shared is None:
        try:
            paths.ruleset_path(target)
        except RulesError as err:
            raise RulesError(err.message, marks.span(("ruleset",)), hint=err.hint) from None
        try:
            shared = _RULES_CACHE[key] = _shared_rules(target, options, marks)
        except CardrulesError:
            if not cards:
                raise
            shared = None  # (the errors as a whole load with the cards reports them, below)
    if cards:
        line, column, _style = marks.value_origin(("cards",))
        extra = [(cards, file, line, column)]
        if shared is not None:
            try:
                return _with_cards(shared, extra)
            except CardrulesError:
                pass  # reported exactly as a whole load reports it: load it so
        return Rules(_load_placed(target, options, marks, extra))
    return shared


def _shared_rules(target: str, options: dict, marks) -> Rules:
    """The ruleset with these options, loaded whole -- or, when this process has loaded it with
    other options already and it is that ruleset in everything but the option values
    (`options_only_differ`: the same declarations, code, cards, number of players, deck
    rules...), that one's compiled program with these options (`Program.with_options`): the
    compiled code reads the options at run time, so rulesets that differ by an option such as
    a turn limit compile to the same code; only the YAML part is built again, not the check and
    the compilation. Its errors are a whole load's (the same building, and the check of the
    same ruleset found none)."""
    loaded = next((rules for other, rules in _RULES_CACHE.items() if json.loads(other)[0] == target), None)
    if loaded is not None:
        ruleset = _load_placed(target, options, marks, checked=False)
        if options_only_differ(ruleset, loaded.program.ruleset):
            return Rules.of_program(loaded.program.with_options(ruleset.options))
    return Rules(_load_placed(target, options, marks))


def _with_cards(shared: Rules, extra_cards: list) -> Rules:
    """A loaded ruleset plus card texts (text, file, line, column), checked and compiled: what
    `load_ruleset(..., extra_cards)` gives, without reading and building the ruleset's files
    again, checking only the new cards when that is the same as checking the whole
    (rules/extra_cards.py) and compiling only them when they change nothing the rest of the
    compiled code reads (`compile_ruleset` with a base). The shared ruleset is not changed (its
    parts are immutable or only read)."""
    loaded = shared.program.ruleset
    modules = [parse_text_at(*card) for card in extra_cards]
    ruleset = with_cards(loaded, modules)
    if ruleset is None:  # (the whole is checked: errors are found and reported as a load's)
        ruleset = replace(loaded, card_modules=[*loaded.card_modules, *modules], definitions=None, warnings=())
        check_ruleset(ruleset)
        problems = observing_problems(ruleset)
        if problems:
            raise ErrorList(problems) if len(problems) > 1 else problems[0]
    return Rules(ruleset, base=shared.program)


def _load_placed(target: str, options: dict, marks, extra_cards: list = (), checked: bool = True):
    """load_ruleset, with its errors that have no place -- the scenario's options: one the
    ruleset does not have, or a value it does not take -- placed at the option in the scenario
    (or at its `options:`)."""
    try:
        return load_ruleset(target, options, extra_cards, checked=checked)
    except CardrulesError as err:
        for error in err.errors if isinstance(err, ErrorList) else [err]:
            if error.span is None:
                named = [n for n in options if f"option {n} " in error.message or f"option {n!r}" in error.message]
                error.span = marks.span(("options", *named[:1]))
        raise


def scenario_decks(data: dict, file: str, marks, rules: Rules) -> list[Deck] | None:
    """The decks of `decks:` by seat, checked (None when it gives none): a deck file (relative
    to the scenario) or a deck written inline, {name?, cards: {NAME: N}, PART: {...}}."""
    decks = data.get("decks")
    if not decks:
        return None
    seats = {}
    for raw in decks:
        digits = str(raw)
        if not digits.isdigit() or not 1 <= int(digits) <= rules.player_count:
            raise DeckError(f"{raw!r} is not a player (use 1..{rules.player_count})", marks.span(("decks", raw), key=True))
        seats[int(digits)] = raw
    if len(seats) != rules.player_count:
        missing = [f"P{s}" for s in range(1, rules.player_count + 1) if s not in seats]
        raise DeckError(f"{rules.name} needs a deck for each of its {rules.player_count} players: none for "
                        f"{', '.join(missing)}", marks.span(("decks",), key=True))
    out = []
    for seat in sorted(seats):
        raw = seats[seat]
        source = decks[raw]
        if isinstance(source, str):
            deck_file = (Path(file).parent / source).resolve()
            if not deck_file.is_file():
                raise DeckError(f"no deck file {deck_file}", marks.span(("decks", raw)),
                                hint="a deck file is relative to the scenario's folder")
            out.append(rules.deck(str(deck_file), seat))
            continue
        where = marks.at(("decks", raw))
        inline = {"name": f"P{seat}'s deck", **source}
        validate(inline, where, "deck", file, error=DeckError)
        out.append(load_deck(inline, rules, seat, marks=where, file=file))
    return out


@dataclass
class ExpectedError:
    """`expect_error: {contains: TEXT, phase: PHASE, at: LOCATION}`: exactly one error, whose
    message contains TEXT (of that phase: syntax, validation, rules, deck, runtime; at a place
    whose file:line:col ends with LOCATION)."""

    contains: str
    phase: str | None
    at: str | None
    span: Span

    @classmethod
    def of(cls, data: dict, marks) -> ExpectedError | None:
        raw = data.get("expect_error")
        if raw is None:
            return None
        return cls(str(raw["contains"]), raw.get("phase"), raw.get("at"), marks.span(("expect_error",)))

    def problem(self, err: CardrulesError, when: str = "") -> str | None:
        """What is wrong with the error raised (None when it is the one expected)."""
        errors = err.errors if isinstance(err, ErrorList) else [err]
        during = f" {when}" if when else ""
        if len(errors) != 1:
            shown = "; ".join(str(e).splitlines()[0] for e in errors)
            return (f"expect_error: {len(errors)} errors were raised{during}, expected exactly one containing "
                    f"{self.contains!r}: {shown} ({self.span})")
        error = errors[0]
        first = str(error).splitlines()[0]
        if self.contains not in error.message:
            return f"expect_error: the error raised{during} is {first!r}, not one containing {self.contains!r} ({self.span})"
        if self.phase is not None and error.phase != self.phase:
            return f"expect_error: the error raised{during} is a {error.phase} error, not {self.phase}: {first!r} ({self.span})"
        if self.at is not None and not str(error.span or "").endswith(self.at):
            return f"expect_error: the error raised{during} is at {error.span}, not at {self.at!r}: {first!r} ({self.span})"
        return None

    def missing(self) -> str:
        return f"expect_error: expected an error containing {self.contains!r}; none was raised ({self.span})"
