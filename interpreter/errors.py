"""Error types of cardrules, each able to point at the file, line and column it is about.

Every error a user can cause (a card, a rule file, a deck, a scenario, a decision) is a
`CardrulesError`; the CLI prints `str(error)` and exits 1. Errors are split by phase as
rule-engine does: syntax (the text does not parse), validation (it parses but names or types are
wrong), rules (a rule file or deck breaks its schema or its rules), decision (an illegal choice
at play time), runtime (a rule loop ran away). A `RuleWarning` has the same shape but stops
nothing.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Span:
    """A region of a source file: 1-based line and column of its start and end."""

    file: str
    line: int
    column: int
    end_line: int = 0
    end_column: int = 0

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


NO_SPAN = Span("<builtin>", 0, 0)

# Source texts by file name, so an error can show the offending line with a caret.
_SOURCES: dict[str, str] = {}
# Their lines, split once per text on first use: formatting n errors of one file must not split it n times.
_LINES: dict[str, list[str]] = {}


# Functions told of each text registered: `validate`'s cache notes what a check read (validatecache.py).
SOURCE_WATCHERS: list = []


def register_source(file: str, text: str) -> None:
    """Remember a file's text so errors located in it can quote the line."""
    _SOURCES[file] = text
    _LINES.pop(file, None)
    for watch in SOURCE_WATCHERS:
        watch(file, text)


def source_line(span: Span) -> str | None:
    """The text of the line ``span`` starts on, if its file was registered and has that line."""
    if span.line <= 0:
        return None
    lines = _LINES.get(span.file)
    if lines is None:
        text = _SOURCES.get(span.file)
        if text is None:
            return None
        lines = _LINES[span.file] = text.splitlines()
    if span.line > len(lines):
        return None
    return lines[span.line - 1]


def did_you_mean(name: str, candidates: Iterable[str]) -> str:
    """A ' (did you mean X?)' hint, or '' when nothing is close."""
    matches = difflib.get_close_matches(name, sorted(set(candidates)), n=1, cutoff=0.6)
    return f" (did you mean {matches[0]!r}?)" if matches else ""


QUOTED_WIDTH = 160  # characters of a source line an error quotes around its column


def quoted_window(line: str, column: int) -> tuple[str, int]:
    """The part of a long source line an error quotes (at most `QUOTED_WIDTH` characters around
    the 0-based `column`, cut ends marked '...'), and the caret's place in it."""
    if len(line) <= QUOTED_WIDTH:
        return line, column
    start = max(0, min(column - QUOTED_WIDTH // 2, len(line) - QUOTED_WIDTH))
    end = start + QUOTED_WIDTH
    head = "..." if start > 0 else ""
    tail = "..." if end < len(line) else ""
    return head + line[start:end] + tail, len(head) + column - start


class CardrulesError(Exception):
    """Base of every error caused by user input; `str()` is the full located message."""

    phase = "error"

    def __init__(self, message: str, span: Span | None = None, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.span = span
        self.hint = hint

    def __str__(self) -> str:
        if self.span is None or self.span is NO_SPAN:
            head = f"{self.phase} error: {self.message}"
        else:
            head = f"{self.where()}: {self.phase} error: {self.message}"
        parts = [head]
        if self.span is not None:
            line = source_line(self.span)
            if line is not None:
                shown, caret = quoted_window(line, max(0, self.span.column - 1))
                parts.append("    " + shown)
                parts.append("    " + " " * caret + "^")
        if self.hint:
            parts.append(f"hint: {self.hint}")
        return "\n".join(parts)

    def where(self) -> str:
        """The error's place as its message shows it: file:line:col."""
        return str(self.span)


class CardSyntaxError(CardrulesError):
    phase = "syntax"


class ValidationError(CardrulesError):
    phase = "validation"


class RulesError(CardrulesError):
    phase = "rules"


class DeckError(CardrulesError):
    phase = "deck"


class IllegalDecisionError(CardrulesError, ValueError):
    """An answer that is not one of the pending decision's options (an index out of range, an id
    or label it does not offer, an option of an earlier decision); the game is unchanged. A
    ValueError, as python-chess's illegal moves are: the value given is wrong, not the call."""

    phase = "decision"


class GameStateError(CardrulesError, RuntimeError):
    """A call the game cannot take in its state, whatever the answer: no decision is pending
    (the game is over, or broken by a failed fast play-out), `play_out` already runs it, or a
    copy or save is asked while `play_out(fast=True)` plays it."""

    phase = "game"


class RuntimeRuleError(CardrulesError):
    """An error in rule code while a game runs. Its rule's file is shown relative to the current
    folder (the file was loaded by its absolute path): the same place `validate` prints."""

    phase = "runtime"

    def where(self) -> str:
        from .paths import shown_path

        span = self.span
        if span is None:
            return ""
        return f"{shown_path(span.file)}:{span.line}:{span.column}"


class RuleWarning(CardrulesError):
    """Text that loads but likely says something else than was meant (`x =- 2`): reported by
    `cardrules validate` and the language server with its place, never fatal (`Rules.warnings`)."""

    phase = "warning"

    def __str__(self) -> str:
        return super().__str__().replace("warning error: ", "warning: ", 1)


class ErrorList(CardrulesError):
    """Several errors found in one load, reported together."""

    def __init__(self, errors: list[CardrulesError]) -> None:
        super().__init__(f"{len(errors)} errors")
        self.errors = errors

    def __str__(self) -> str:
        return "\n".join(str(e) for e in self.errors)
