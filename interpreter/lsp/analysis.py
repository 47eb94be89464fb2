"""One analysis of an edited file, run off the server's event loop: the diagnostics of every file
of the ruleset(s) it belongs to, and the index of names for hover, definition and completion.

The errors come from the `Check` the server is given (the CLI gives it `cardrules validate`'s
checks, so the editor shows exactly what validate reports). A code or card file that no ruleset
reads is parsed on its own, with an information diagnostic saying so. The editor's unsaved texts
stand in for the files on disk through the rules layer's source overlay.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from lsprotocol import types

from ..errors import CardrulesError, ErrorList
from ..rules.overlay import source_overlay
from ..rules.sources import parsed, read_text
from .diagnostics import diagnostic, file_of, info
from .rulesets import CODE_SUFFIXES, YAML_SUFFIXES, RulesetFinder
from .symbols import IndexBuilder, SymbolIndex

# (the edited file, the rulesets that read it) -> errors by the ruleset (or the file) they concern
Check = Callable[[Path, list[Path]], dict[Path, list[CardrulesError]]]
# the same, quickly: the errors (and warnings) loading the rulesets finds, whichever file they are in
QuickCheck = Callable[[Path, list[Path]], list[CardrulesError]]

ALONE = ("this file is read by no ruleset (no ruleset's cards: or code: names it, or its ruleset file does not "
         "load now): it is checked alone, for syntax only")


@dataclass
class Analysis:
    """What one analysis found: diagnostics by file (an empty list clears a file's), the index of
    names, and the files it speaks for (those of its rulesets, or the file alone)."""

    diagnostics: dict[Path, list[types.Diagnostic]] = field(default_factory=dict)
    index: SymbolIndex = field(default_factory=SymbolIndex)
    files: set[Path] = field(default_factory=set)
    deck: bool = False  # the file is a deck: its index is its ruleset's (card names)


class Analyser:
    """Runs analyses, one at a time, remembering what can be remembered between them."""

    def __init__(self, check: Check, finder: RulesetFinder, quick: QuickCheck | None = None) -> None:
        self.check = check
        self.quick_check = quick
        self.finder = finder
        self.builder = IndexBuilder()

    def quick(self, targets: list[Path], texts: Mapping[Path, str]) -> dict[Path, Analysis]:
        """The diagnostics of the edited code and card files themselves, from loading their
        rulesets only (no decks, no compiling, no other file's diagnostics), with the index of
        names: what the server publishes first, before the whole check (`analyse`)."""
        out: dict[Path, Analysis] = {}
        if self.quick_check is None:
            return out
        with source_overlay(texts):
            for target in targets:
                if target.suffix not in CODE_SUFFIXES:
                    continue
                rulesets = self.finder.rulesets_of(target)
                if not rulesets:
                    out[target] = self._alone(target)
                    continue
                seen: set[tuple] = set()
                found = out[target] = Analysis(files={target})
                listed = found.diagnostics[target] = []
                for error in self.quick_check(target, [r.path for r in rulesets]):
                    key = (error.span, error.message)
                    if key not in seen and file_of(error) == target.resolve():
                        seen.add(key)
                        listed.append(diagnostic(error))
                found.index = self.builder.for_ruleset(min(rulesets, key=lambda r: len(r.layers)))
        return out

    def analyse(self, targets: list[Path], texts: Mapping[Path, str]) -> dict[Path, Analysis]:
        """An analysis of each target (files of one ruleset share theirs), with `texts` (the open
        documents) standing in for the files on disk."""
        out: dict[Path, Analysis] = {}
        with source_overlay(texts):
            by_group: dict[tuple[Path, ...], Analysis] = {}
            for target in targets:
                rulesets = self.finder.rulesets_of(target) if target.suffix in CODE_SUFFIXES + YAML_SUFFIXES else []
                key = tuple(sorted(r.path for r in rulesets)) or (target,)
                if key not in by_group:
                    by_group[key] = self._one(target, rulesets)
                out[target] = by_group[key]
        return out

    def _one(self, target: Path, rulesets: list) -> Analysis:
        found = Analysis()
        if not rulesets and target.suffix in CODE_SUFFIXES:
            return self._alone(target)
        for r in rulesets:
            found.files.update(r.files())
        found.files.add(target)
        errors = self.check(target, [r.path for r in rulesets])
        seen: set[tuple] = set()
        for owner, listed in errors.items():
            for error in listed:
                key = (error.span, error.message)
                if key in seen:
                    continue
                seen.add(key)
                place = file_of(error) or owner
                found.diagnostics.setdefault(place, []).append(diagnostic(error))
        for file in found.files:
            found.diagnostics.setdefault(file, [])
        if rulesets:
            main = min(rulesets, key=lambda r: len(r.layers))  # the game itself before its variants
            found.index = self.builder.for_ruleset(main)
        elif target.suffix in YAML_SUFFIXES:
            ruleset = self.finder.deck_ruleset(target)
            if ruleset is not None:  # a deck: hover and completion of its card names
                found.index = self.builder.for_ruleset(ruleset)
                found.deck = True
        return found

    def _alone(self, target: Path) -> Analysis:
        found = Analysis(files={target})
        notes = [info(ALONE)]
        try:
            parsed(read_text(target), str(target))
        except ErrorList as err:
            notes += [diagnostic(e) for e in err.errors]
        except CardrulesError as err:
            notes.append(diagnostic(err))
        found.diagnostics[target] = notes
        found.index = self.builder.for_file(target)
        return found
