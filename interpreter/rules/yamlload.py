"""Safe YAML loading that remembers where every key and value came from.

``load_yaml(path)`` returns ``(data, marks)``: the plain data (dicts, lists, str, int, float, bool,
None) and a `Marks` object answering "where is this?" for any key path::

    data, marks = load_yaml("rulesets/mygame/mygame.yaml")
    marks.key_span(("zones", "hand", "visibility"))     # Span of the key text
    marks.value_span(("zones", "hand", "visibility"))   # Span of the value
    marks.value_origin(("setup",))                     # (line, column, style) where its text begins
    marks.span_in_value(("setup",), 1, 5)               # file Span of line 1, column 5 of the string

The loader (yamlsafe.py) is PyYAML's SafeLoader (no Python tags, no object construction) with these changes:

- booleans are only ``true``/``false`` (YAML 1.2): ``yes``/``no``/``on``/``off`` stay text, so a
  card named "No" or an event named ``on`` is not silently a boolean;
- dates stay text (``2024-01-01`` is a string), so data stays JSON-like;
- a key repeated in one mapping is an error (PyYAML keeps the last one silently);
- only JSON-like data: the tags ``!!binary``, ``!!timestamp``, ``!!set``, ``!!omap`` and
  ``!!pairs`` are refused, and so are numbers that JSON or the engine cannot hold (see below).

Hostile input is refused early, before it costs time or memory, by these limits (module constants):

- `MAX_FILE_BYTES`: a file of more than 2 MB (a rule file, deck or scenario is a few KB);
- `MAX_DEPTH`: lists and mappings nested more than 100 levels (PyYAML composes recursively);
- `MAX_NODES`: more than 100,000 values in one document, each use of an alias (``*name``)
  counted in full, which stops "billion laughs" alias bombs; an alias inside what it names is refused;
- `MAX_NUMBER`: a number beyond 10^15 in absolute value, infinity or NaN.

Every problem is a `RulesError` (or the class given as ``error``) with ``file:line:col``.
"""

from __future__ import annotations

import bisect
import os
import re
from collections.abc import Hashable, Iterator, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from yaml.reader import ReaderError

from ..errors import CardrulesError, RulesError, Span, register_source
from .overlay import overlaid_bytes
from .yamlsafe import (
    LINE_BREAK,
    MAX_DEPTH,
    MAX_FILE_BYTES,
    MAX_NODES,
    MAX_NUMBER,
    MERGE_TAG,
    Loader,
    Refused,
    fast_loader,
)

__all__ = [
    "MAX_DEPTH", "MAX_FILE_BYTES", "MAX_NODES", "MAX_NUMBER", "Loader", "Marks", "Origin", "load_yaml",
    "load_yaml_text",
]

Path_ = tuple[Hashable, ...]

class Origin(NamedTuple):
    """Where a scalar's text begins in the file (1-based) and its YAML style.

    ``style`` is ``"|"`` (literal block: string line i is file line ``line + i - 1``, and string
    column c is file column ``column + c - 1``), ``">"`` (folded block), ``"'"`` / ``'"'``
    (quoted; ``column`` is just after the quote) or ``"plain"``. For anything but a literal block
    use `Marks.span_in_value`, which follows the folding.
    """

    line: int
    column: int
    style: str


class _Entry(NamedTuple):
    file: str
    text: str
    key: Node | None
    value: Node


class Marks:
    """Positions of the keys and values of one loaded YAML document (or an overlay of several).

    A key path is a tuple of mapping keys and list indexes, e.g. ``("turn", "phases", 2, "do")``.
    Lookups also accept ``"1"`` for the integer key ``1`` and the reverse.
    """

    def __init__(self, file: str, entries: dict[Path_, _Entry] | None = None) -> None:
        self.file = file
        self._entries: dict[Path_, _Entry] = entries if entries is not None else {}
        self._loose: dict[tuple[str, ...], Path_] = {_loose(p): p for p in self._entries}
        self._line_starts: dict[str, list[int]] = {}
        self._lines: dict[str, list[str]] = {}

    # -- lookups -----------------------------------------------------------------------------------

    def __contains__(self, path: Sequence[Hashable]) -> bool:
        return self._find(path) is not None

    def paths(self) -> Iterator[Path_]:
        """Every key path known, in document order."""
        return iter(self._entries)

    def _find(self, path: Sequence[Hashable]) -> _Entry | None:
        path = tuple(path)
        try:
            entry = self._entries.get(path)
        except TypeError:  # an unhashable part: nothing can be there
            return None
        if entry is None:
            exact = self._loose.get(_loose(path))
            entry = self._entries.get(exact) if exact is not None else None
        return entry

    def _get(self, path: Sequence[Hashable]) -> _Entry:
        entry = self._find(path)
        if entry is None:
            raise KeyError(f"no YAML node at {format_path(path)}")
        return entry

    def key_span(self, path: Sequence[Hashable]) -> Span:
        """The span of the key text at ``path`` (of the value for list items and the root)."""
        entry = self._get(path)
        return _span(entry.file, entry.key if entry.key is not None else entry.value)

    def value_span(self, path: Sequence[Hashable]) -> Span:
        """The span of the value at ``path`` (for a block scalar, its ``|``/``>`` indicator)."""
        entry = self._get(path)
        return _span(entry.file, entry.value)

    def span(self, path: Sequence[Hashable], *, key: bool = False) -> Span:
        """The best span to report something about ``path``. Never raises.

        For a scalar, its value; for a mapping or a list, its key (a block mapping's value would
        start on the line below); with ``key=True`` always the key. A path that does not exist
        falls back to its deepest existing ancestor's key; nothing at all, to the start of the file.
        """
        path = tuple(path)
        for cut in range(len(path), -1, -1):
            entry = self._find(path[:cut])
            if entry is not None:
                whole = cut < len(path) or key or not isinstance(entry.value, ScalarNode)
                node = entry.key if whole and entry.key is not None else entry.value
                return _span(entry.file, node)
        return Span(self.file, 1, 1)

    def value_origin(self, path: Sequence[Hashable]) -> Origin:
        """(line, column, style) where the text of the scalar at ``path`` begins (1-based)."""
        entry = self._get(path)
        node = entry.value
        if not isinstance(node, ScalarNode):
            mark = node.start_mark
            return Origin(mark.line + 1, mark.column + 1, "plain")
        style = node.style or "plain"
        if style in ("|", ">"):
            first_line = node.start_mark.line + 1  # 0-based index of the first content line
            lines = self._split(entry.file, entry.text)
            value_lines = node.value.split("\n")
            indent = _block_indent(lines, first_line, value_lines)
            return Origin(first_line + 1, indent + 1, style)
        mark = node.start_mark
        column = mark.column + 1 + (1 if style in ("'", '"') else 0)
        return Origin(mark.line + 1, column, style)

    def span_in_value(self, path: Sequence[Hashable], line: int, column: int) -> Span:
        """The file span of (1-based) ``line``, ``column`` inside the string value at ``path``.

        Exact for literal blocks and single-line scalars; for folded and multi-line flow scalars
        the characters are followed through the folding (escapes in double quotes approximately).
        """
        entry = self._get(path)
        node = entry.value
        origin = self.value_origin(path)
        if not isinstance(node, ScalarNode):
            return Span(entry.file, origin.line, origin.column)
        if origin.style == "|":
            return Span(entry.file, origin.line + line - 1, origin.column + column - 1)
        value_lines = node.value.split("\n")
        line = min(max(line, 1), len(value_lines))
        offset = sum(len(v) + 1 for v in value_lines[: line - 1]) + max(column, 1) - 1
        offset = min(offset, len(node.value))
        start = node.start_mark.index
        if origin.style == ">":
            start = _offset_of(self._starts(entry.file, entry.text), len(entry.text), origin.line, 1)
        elif origin.style in ("'", '"'):
            start += 1
        src = _align(node.value, entry.text, start, node.end_mark.index, offset)
        starts = self._starts(entry.file, entry.text)
        row = bisect.bisect_right(starts, src) - 1
        return Span(entry.file, row + 1, src - starts[row] + 1)

    def _starts(self, file: str, text: str) -> list[int]:
        """The offset of each line of ``text`` (found once per file)."""
        starts = self._line_starts.get(file)
        if starts is None:
            starts = [0] + [m.end() for m in re.finditer("\n", text)]
            self._line_starts[file] = starts
        return starts

    def _split(self, file: str, text: str) -> list[str]:
        """The lines of ``text`` (split once per file: a lookup must not cost the whole file)."""
        lines = self._lines.get(file)
        if lines is None:
            lines = self._lines[file] = text.splitlines()
        return lines

    # -- combining ---------------------------------------------------------------------------------

    def overlay(self, top: Marks) -> Marks:
        """Marks for data merged from this document and ``top`` (a variant over its base).

        A path present in ``top`` points into ``top``'s file; any other path into this one. Use it
        for errors about a merged ruleset (``extends:``).
        """
        entries = dict(self._entries)
        for path, entry in top._entries.items():
            entries[path] = entry
        return Marks(top.file, entries)

    def at(self, prefix: Sequence[Hashable]) -> Marks:
        """The marks of a sub-document, with paths relative to ``prefix``."""
        prefix = tuple(prefix)
        n = len(prefix)
        entries = {p[n:]: e for p, e in self._entries.items() if p[:n] == prefix}
        return Marks(self.file, entries)


def format_path(path: Sequence[Hashable]) -> str:
    """``zones.hand.visibility``, ``turn.phases[2].do``; ``(top level)`` for the empty path."""
    out = ""
    for part in path:
        if isinstance(part, int) and not isinstance(part, bool) and out and not out.endswith("."):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out or "(top level)"


def _loose(path: Sequence[Hashable]) -> tuple[str, ...]:
    return tuple(str(p) for p in path)


def _span(file: str, node: Node) -> Span:
    start, end = node.start_mark, node.end_mark
    return Span(file, start.line + 1, start.column + 1, end.line + 1, end.column + 1)


def _block_indent(lines: list[str], first: int, value_lines: list[str]) -> int:
    """The indentation of a block scalar whose content starts at 0-based file line ``first``."""
    for i, value_line in enumerate(value_lines):
        row = first + i
        if row >= len(lines):
            break
        if value_line.strip():
            source = lines[row]
            indent = len(source) - len(source.lstrip(" "))
            if source.endswith(value_line) and len(source) >= len(value_line):
                indent = len(source) - len(value_line)
            return indent
    # Only blank lines: use the first content line's own indentation.
    if first < len(lines):
        return len(lines[first]) - len(lines[first].lstrip(" "))
    return 0


def _offset_of(starts: list[int], size: int, line: int, column: int) -> int:
    """The offset of 1-based ``line``, ``column`` in a text of ``size`` characters whose lines start
    at ``starts``; the end of the text for a line past its end."""
    if line - 1 >= len(starts):
        return size
    return starts[max(line, 1) - 1] + column - 1


def _align(value: str, text: str, start: int, end: int, target: int) -> int:
    """The offset in ``text`` of ``value[target]``, matching characters forward from ``start``."""
    si = start
    end = min(max(end, start), len(text))
    for vi, ch in enumerate(value):
        if si >= end:
            return min(si, len(text))
        if ch.isspace():
            if text[si] == ch:
                pass
            elif text[si].isspace():
                # folding: a line break plus indentation stands for one space or newline
                while si + 1 < end and text[si + 1].isspace():
                    si += 1
            elif text[si] == "\\" and si + 1 < end:
                si += 1  # an escape such as \n or \t
        else:
            while si < end and text[si] != ch:
                si += 1
        if vi == target:
            return min(si, len(text))
        si += 1
    return min(si, len(text))


def _walk(node: Node, loader: Loader, file: str, text: str, path: Path_, out: dict[Path_, _Entry],
          active: set[int]) -> None:
    if id(node) in active:  # a recursive alias: stop
        return
    active.add(id(node))
    if isinstance(node, MappingNode):
        for key_node, value_node in node.value:
            key = _scalar_key(key_node, loader)
            if key is None:
                continue
            out[path + (key,)] = _Entry(file, text, key_node, value_node)
            _walk(value_node, loader, file, text, path + (key,), out, active)
    elif isinstance(node, SequenceNode):
        for i, item in enumerate(node.value):
            out[path + (i,)] = _Entry(file, text, None, item)
            _walk(item, loader, file, text, path + (i,), out, active)
    active.discard(id(node))


def _scalar_key(node: Node, loader: Loader) -> Hashable | None:
    if not isinstance(node, ScalarNode):
        return None
    try:
        key = loader.construct_object(node)
    except yaml.YAMLError:
        return None
    return key if isinstance(key, Hashable) else None


def _check_duplicates(node: Node, loader: Loader, file: str, error: type[CardrulesError],
                      seen: set[int]) -> None:
    """Raise on a key given twice in one mapping (explicit keys only; ``<<`` merges may override)."""
    if id(node) in seen:
        return
    seen.add(id(node))
    if isinstance(node, MappingNode):
        first: dict[Any, Node] = {}
        for key_node, value_node in node.value:
            if key_node.tag != MERGE_TAG:
                key = _scalar_key(key_node, loader)
                if key is not None:
                    hashed = (type(key).__name__, key) if isinstance(key, bool) else key
                    if hashed in first:
                        earlier = first[hashed].start_mark.line + 1
                        raise error(
                            f"duplicate key {key!r} in one mapping (first given at line {earlier})",
                            _span(file, key_node),
                            hint="YAML would keep only the last one; remove or rename one of them",
                        )
                    first[hashed] = key_node
            _check_duplicates(key_node, loader, file, error, seen)
            _check_duplicates(value_node, loader, file, error, seen)
    elif isinstance(node, SequenceNode):
        for item in node.value:
            _check_duplicates(item, loader, file, error, seen)


def _reader_error(exc: ReaderError, text: str, file: str,
                  error: type[CardrulesError]) -> CardrulesError:
    """A character YAML does not allow, located: PyYAML gives only its offset in the text."""
    line, column = _line_column(text, exc.position)
    character = exc.character if isinstance(exc.character, int) else ord(exc.character)
    return error(f"YAML does not allow the character U+{character:04X} (control characters and "
                 "non-characters such as U+FFFF may not appear in YAML text)", Span(file, line, column),
                 hint=f"remove it, or write it as the escape \\u{character:04x} inside a double-quoted string")


def _line_column(text: str, offset: int) -> tuple[int, int]:
    """The 1-based line and column of ``offset`` in ``text``, counting lines as PyYAML does."""
    line, start = 1, 0
    for match in LINE_BREAK.finditer(text, 0, offset):
        line, start = line + 1, match.end()
    return line, offset - start + 1


def _yaml_error(exc: yaml.YAMLError, file: str, error: type[CardrulesError]) -> CardrulesError:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    problem = getattr(exc, "problem", None) or str(exc)
    context = getattr(exc, "context", None)
    context_mark = getattr(exc, "context_mark", None)
    message = f"YAML syntax error: {problem}"
    if context:
        where = f" at line {context_mark.line + 1}" if context_mark is not None else ""
        message += f" ({context}{where})"
    span = Span(file, mark.line + 1, mark.column + 1) if mark is not None else None
    hint = ""
    if "\t" in problem or "'\\t'" in problem:
        hint = "YAML indentation must use spaces, not tabs"
    elif "mapping values are not allowed" in problem:
        hint = "a value containing ': ' must be quoted"
    elif "could not determine a constructor" in problem:
        hint = "only text, numbers, true/false, null, lists and mappings are allowed"
    return error(message, span, hint=hint)


def _too_large(file: str, size: str, error: type[CardrulesError]) -> CardrulesError:
    """The error for a file over `MAX_FILE_BYTES`; its text is not kept to quote."""
    register_source(file, "")
    return error(f"the file is too large ({size}): a YAML file may have at most {MAX_FILE_BYTES:,} bytes "
                 f"({MAX_FILE_BYTES / 1e6:g} MB)", Span(file, 1, 1),
                 hint="rule files, decks and scenarios are a few kilobytes; is this the right file?")


def load_yaml_text(text: str, file: str, error: type[CardrulesError] = RulesError) -> tuple[Any, Marks]:
    """Load YAML from a string already read; ``file`` names it in errors."""
    if len(text) > MAX_FILE_BYTES:
        raise _too_large(file, f"{len(text):,} characters", error)
    register_source(file, text)
    if not text.strip():
        raise error("the file is empty", Span(file, 1, 1), hint="expected a YAML mapping")
    loader: Loader | None = None
    fast = _fast_load(text)
    try:
        if fast is not None:
            loader, node, data = fast
        else:
            loader = Loader(text)
            node = loader.get_single_node()
            if node is None:
                raise error("the file is empty (only comments)", Span(file, 1, 1), hint="expected a YAML mapping")
            _check_duplicates(node, loader, file, error, set())
            data = loader.construct_document(node)
    except ReaderError as exc:
        raise _reader_error(exc, text, file, error) from None
    except yaml.YAMLError as exc:
        raise _yaml_error(exc, file, error) from None
    except Refused as exc:
        raise error(exc.message, Span(file, exc.mark.line + 1, exc.mark.column + 1), hint=exc.hint) from None
    finally:
        if loader is not None:
            loader.dispose()
    entries: dict[Path_, _Entry] = {(): _Entry(file, text, None, node)}
    _walk(node, loader, file, text, (), entries, set())
    return data, Marks(file, entries)


def _fast_load(text: str) -> tuple[Loader, Node, Any] | None:
    """(loader, node, data) of a text loaded with libyaml's scanning (`fast_loader`), or None
    when that is not possible or meets any problem: then `Loader` loads it, and reports the
    problem as it always has."""
    loader = fast_loader(text)
    if loader is None:
        return None
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        _check_duplicates(node, loader, "", RulesError, set())
        return loader, node, loader.construct_document(node)
    except Exception:  # noqa: BLE001  (any problem: the pure-Python loader finds and reports it)
        return None
    finally:
        loader.dispose()


def _read_bytes(p: Path, file: str, error: type[CardrulesError]) -> bytes:
    """A YAML file's bytes from disk, at most one over `MAX_FILE_BYTES` (a file may grow, or be
    endless: /dev/zero)."""
    if not p.exists():
        raise error(f"no such file: {file}")
    if p.is_dir():
        raise error(f"{file} is a folder, not a YAML file")
    try:
        size = p.stat().st_size
        if size > MAX_FILE_BYTES:
            raise _too_large(file, f"{size:,} bytes", error)
        with p.open("rb") as stream:
            return stream.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise error(f"cannot read {file}: {exc.strerror or exc}") from None


def load_yaml(path: str | os.PathLike[str], error: type[CardrulesError] = RulesError) -> tuple[Any, Marks]:
    """Read and safely load one YAML file, keeping the position of every key and value.

    Raises ``error`` (RulesError by default; pass DeckError for decks) for a missing or unreadable
    file, a binary file, an empty file, a file over `MAX_FILE_BYTES` (refused before it is read), a
    YAML syntax error, several documents, a duplicate key, or anything over this module's limits.
    """
    file = os.fspath(path)
    p = Path(file)
    raw = overlaid_bytes(p)  # an editor's unsaved text (overlay.py), checked as the disk's would be
    if raw is None:
        raw = _read_bytes(p, file, error)
    if len(raw) > MAX_FILE_BYTES:
        raise _too_large(file, f"more than {MAX_FILE_BYTES:,} bytes", error)
    if b"\x00" in raw:
        raise error("this is a binary file (it contains NUL bytes), not YAML text", Span(file, 1, 1))
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise error(
            f"this looks like a binary file: it is not UTF-8 text (byte {raw[exc.start]:#04x} at offset {exc.start})",
            Span(file, line, column),
            hint="save the file as UTF-8",
        ) from None
    return load_yaml_text(text, file, error)
