"""Safe YAML loading that remembers where every key and value came from.

``load_yaml(path)`` returns ``(data, marks)``: the plain data (dicts, lists, str, int, float, bool,
None) and a `Marks` object answering "where is this?" for any key path::

    data, marks = load_yaml("rulesets/mygame/mygame.yaml")
    marks.key_span(("zones", "hand", "visibility"))     # Span of the key text
    marks.value_span(("zones", "hand", "visibility"))   # Span of the value
    marks.value_origin(("setup",))                     # (line, column, style) where its text begins
    marks.span_in_value(("setup",), 1, 5)               # file Span of line 1, column 5 of the string

The loader is PyYAML's SafeLoader (no Python tags, no object construction) with three changes:

- booleans are only ``true``/``false`` (YAML 1.2): ``yes``/``no``/``on``/``off`` stay text, so a
  card named "No" or an event named ``on`` is not silently a boolean;
- dates stay text (``2024-01-01`` is a string), so data stays JSON-like;
- a key repeated in one mapping is an error (PyYAML keeps the last one silently).

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

from ..errors import CardrulesError, RulesError, Span, register_source

__all__ = ["Loader", "Marks", "Origin", "load_yaml", "load_yaml_text"]

Path_ = tuple[Hashable, ...]

_BOOL = "tag:yaml.org,2002:bool"
_TIMESTAMP = "tag:yaml.org,2002:timestamp"
_MERGE = "tag:yaml.org,2002:merge"


class Loader(yaml.SafeLoader):
    """SafeLoader with YAML 1.2 booleans and no implicit timestamps."""

    yaml_implicit_resolvers = {
        first: [(tag, regexp) for tag, regexp in resolvers if tag not in (_BOOL, _TIMESTAMP)]
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }


Loader.add_implicit_resolver(_BOOL, re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))


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
            lines = entry.text.splitlines()
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
            start = _offset_of(entry.text, origin.line, 1)
        elif origin.style in ("'", '"'):
            start += 1
        src = _align(node.value, entry.text, start, node.end_mark.index, offset)
        starts = self._starts(entry.file, entry.text)
        row = bisect.bisect_right(starts, src) - 1
        return Span(entry.file, row + 1, src - starts[row] + 1)

    def _starts(self, file: str, text: str) -> list[int]:
        starts = self._line_starts.get(file)
        if starts is None:
            starts = [0] + [m.end() for m in re.finditer("\n", text)]
            self._line_starts[file] = starts
        return starts

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


def _offset_of(text: str, line: int, column: int) -> int:
    index = 0
    for _ in range(line - 1):
        nl = text.find("\n", index)
        if nl < 0:
            return len(text)
        index = nl + 1
    return index + column - 1


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
            if key_node.tag != _MERGE:
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
    return error(message, span, hint=hint)


def load_yaml_text(text: str, file: str, error: type[CardrulesError] = RulesError) -> tuple[Any, Marks]:
    """Load YAML from a string already read; ``file`` names it in errors."""
    register_source(file, text)
    if not text.strip():
        raise error("the file is empty", Span(file, 1, 1), hint="expected a YAML mapping")
    loader = Loader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            raise error("the file is empty (only comments)", Span(file, 1, 1), hint="expected a YAML mapping")
        _check_duplicates(node, loader, file, error, set())
        data = loader.construct_document(node)
    except yaml.YAMLError as exc:
        raise _yaml_error(exc, file, error) from None
    finally:
        loader.dispose()
    entries: dict[Path_, _Entry] = {(): _Entry(file, text, None, node)}
    _walk(node, loader, file, text, (), entries, set())
    return data, Marks(file, entries)


def load_yaml(path: str | os.PathLike[str], error: type[CardrulesError] = RulesError) -> tuple[Any, Marks]:
    """Read and safely load one YAML file, keeping the position of every key and value.

    Raises ``error`` (RulesError by default; pass DeckError for decks) for a missing or unreadable
    file, a binary file, an empty file, a YAML syntax error, several documents, or a duplicate key.
    """
    file = os.fspath(path)
    p = Path(file)
    if not p.exists():
        raise error(f"no such file: {file}")
    if p.is_dir():
        raise error(f"{file} is a folder, not a YAML file")
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise error(f"cannot read {file}: {exc.strerror or exc}") from None
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
