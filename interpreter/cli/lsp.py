"""`cardrules lsp`: the language server on stdio, its diagnostics made by `cardrules validate`'s own
checks, so that an editor shows exactly the errors validate reports.

For each ruleset an edited file belongs to, the server asks for what `cardrules validate RULESET`
checks (the ruleset, its code and card files, its decks); for a deck or scenario file, what
`cardrules validate FILE` checks. The server has the editor's unsaved texts in force (the source
overlay) while these run.
"""

from __future__ import annotations

import io
from pathlib import Path

from ..errors import CardrulesError
from .common import UsageError
from .validate import RULESET_KEYS, YAML_SUFFIXES, Validator, classify


def validate_errors(target: Path, rulesets: list[Path]) -> dict[Path, list[CardrulesError]]:
    """The errors `cardrules validate` reports for each ruleset (or, with none, for the file: a
    deck or a scenario; a YAML file that is neither, and in no ruleset, is none of ours)."""
    if not rulesets and target.suffix in YAML_SUFFIXES and not _ours(target):
        return {}
    found: dict[Path, list[CardrulesError]] = {}
    for path in rulesets or [target]:
        validator = Validator(io.StringIO(), relative=False)
        if rulesets:
            validator.check_ruleset(path)
        else:
            validator.check_path(str(path))
        found[path] = list(validator.printed.values())
    return found


def load_errors(target: Path, rulesets: list[Path]) -> list[CardrulesError]:
    """The errors and warnings loading each ruleset finds (no decks, no compiling): a quick
    first answer for the edited file, before `validate_errors`."""
    from ..rules.loader import load_ruleset
    from .common import flat_errors

    found: list[CardrulesError] = []
    for path in rulesets:
        try:
            found.extend(load_ruleset(str(path)).warnings)
        except CardrulesError as err:
            found.extend(flat_errors(err))
    return found


def _ours(path: Path) -> bool:
    """Whether a YAML file in no ruleset's chain is one of cardrules' files: a deck, a scenario,
    something with a ruleset's keys (a ruleset being written), or YAML that does not load (its
    error is reported, as validate reports it)."""
    from ..rules.yamlload import load_yaml

    try:
        data, _marks = load_yaml(path)
    except CardrulesError:
        return True
    if classify(data) != "ruleset":
        return True
    return isinstance(data, dict) and bool(set(data) & (RULESET_KEYS | {"name", "cards"}))


def run_lsp() -> int:
    from ..lsp import MissingExtra, serve

    try:
        serve(validate_errors, load_errors)
    except MissingExtra as err:
        raise UsageError(str(err)) from None
    return 0
