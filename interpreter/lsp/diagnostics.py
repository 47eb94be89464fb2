"""CardrulesErrors as LSP diagnostics: the error's span as a range (to the end of the token at its
start when the error gives no end), its message with the hint below it, its phase as the code.

Spans count lines from 1 and columns in characters from 1; LSP counts both from 0 and columns in
UTF-16 code units, so each column is converted with the text of its line.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from lsprotocol import types

from ..errors import NO_SPAN, CardrulesError, RuleWarning, Span, source_line

SOURCE = "cardrules"
_TOKEN_END = re.compile(r'"(?:[^"\\\n]|\\.)*"?|[A-Za-z_]\w*|\d+|\S')

LineText = Callable[[str, int], str | None]  # (file, 1-based line) -> that line's text


def registered_line(file: str, line: int) -> str | None:
    """A line of a file as the rules layer last read it (the editor's text, for an open file)."""
    return source_line(Span(file, line, 1))


def utf16(line: str | None, column: int) -> int:
    """A 0-based column in characters as a column in UTF-16 code units."""
    if line is None:
        return column
    head = line[:column]
    return column + sum(1 for c in head if ord(c) > 0xFFFF)


def error_range(span: Span, line_text: LineText = registered_line) -> types.Range:
    """The range of an error located at `span`."""
    line = max(span.line, 1) - 1
    column = max(span.column, 1) - 1
    text = line_text(span.file, line + 1)
    end_line, end_column = (span.end_line - 1, span.end_column - 1) if span.end_line else (line, column)
    if (end_line, end_column) <= (line, column):
        end_line, end_column = line, column + 1
        if text is not None:
            match = _TOKEN_END.match(text, column)
            end_column = match.end() if match else min(column + 1, max(len(text), column))
            end_column = max(end_column, column)
    end_text = text if end_line == line else line_text(span.file, end_line + 1)
    return types.Range(start=types.Position(line=line, character=utf16(text, column)),
                       end=types.Position(line=end_line, character=utf16(end_text, end_column)))


def diagnostic(error: CardrulesError, line_text: LineText = registered_line,
               severity: types.DiagnosticSeverity | None = None) -> types.Diagnostic:
    """The diagnostic of an error (of severity Error) or of a warning (`RuleWarning`: Warning)."""
    if severity is None:
        severity = types.DiagnosticSeverity.Warning if isinstance(error, RuleWarning) else \
            types.DiagnosticSeverity.Error
    span = error.span if error.span is not None and error.span is not NO_SPAN else None
    where = error_range(span, line_text) if span is not None and span.line > 0 else \
        types.Range(start=types.Position(line=0, character=0), end=types.Position(line=0, character=0))
    message = error.message + (f"\nhint: {error.hint}" if error.hint else "")
    return types.Diagnostic(range=where, message=message, severity=severity, code=error.phase, source=SOURCE)


def file_of(error: CardrulesError) -> Path | None:
    """The file an error is located in, resolved, or None (no span, or no file: `<builtin>`)."""
    span = error.span
    if span is None or span is NO_SPAN or span.file.startswith("<"):
        return None
    try:
        return Path(span.file).resolve()
    except (OSError, RuntimeError, ValueError):
        return None


def info(message: str) -> types.Diagnostic:
    """An information diagnostic at the start of a file."""
    start = types.Position(line=0, character=0)
    return types.Diagnostic(range=types.Range(start=start, end=start), message=message,
                            severity=types.DiagnosticSeverity.Information, source=SOURCE)
