"""The names a ruleset defines, where, and what they are: the index behind hover, go to
definition and completion.

Built from the ruleset's YAML files (zones, card types and their attributes, player attributes,
globals, options, events; through `extends:`, the variant's values over its base's, each name
located where it is first declared) and from each of its code and card files parsed on its own
(procedures, functions, keywords, cards). It needs no successful load: a file that does not parse
now contributes what it had when it last did, so the names stay known while a file is half typed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import CardrulesError, Span, source_line
from ..lang import ast
from ..lang.comments import doc_comment, scan_comments
from ..lang.printer import quote, to_source
from ..rules.sources import parsed, read_text
from .rulesets import RulesetFiles

# YAML sections that declare attributes: (key path of the section, who has them)
ATTRIBUTE_SECTIONS = (("player_attributes",), "player"), (("globals",), "game"), (("teams", "attributes"), "team")


@dataclass(frozen=True)
class Symbol:
    """A defined name: its kind ('card', 'procedure', 'function', 'keyword', 'zone', 'attribute',
    'card type', 'option', 'event'), where its name is written, a one-line signature and its
    documentation (the doc comment, or the YAML entry's comment or description)."""

    kind: str
    name: str
    span: Span
    signature: str
    doc: str = ""
    owner: str = ""  # an attribute's card type, 'player' or 'game'; a card's type
    node: ast.Node | None = field(default=None, compare=False)
    spec: dict = field(default_factory=dict, compare=False)  # a YAML entry's data


@dataclass
class SymbolIndex:
    """Every name of one ruleset (or of one file alone), by kind."""

    cards: dict[str, Symbol] = field(default_factory=dict)
    procedures: dict[str, Symbol] = field(default_factory=dict)
    functions: dict[str, Symbol] = field(default_factory=dict)
    keywords: dict[str, Symbol] = field(default_factory=dict)
    zones: dict[str, Symbol] = field(default_factory=dict)
    card_types: dict[str, Symbol] = field(default_factory=dict)
    attributes: dict[str, list[Symbol]] = field(default_factory=dict)  # one per owner declaring it
    options: dict[str, Symbol] = field(default_factory=dict)
    events: dict[str, Symbol] = field(default_factory=dict)

    def attributes_of(self, owner: str) -> list[Symbol]:
        return [s for symbols in self.attributes.values() for s in symbols if s.owner == owner]

    def code_names(self) -> dict[str, Symbol]:
        """Procedures, functions, keywords and zones: the names code calls or uses, by name."""
        return {**self.zones, **self.keywords, **self.functions, **self.procedures}


class IndexBuilder:
    """Builds indexes, keeping each file's last module that parsed."""

    def __init__(self) -> None:
        self.last_good: dict[str, tuple[str, ast.Module]] = {}

    def module(self, path: Path) -> tuple[str, ast.Module] | None:
        """A code or card file's text and module: as it parses now, else as it last parsed."""
        key = str(path)
        try:
            text = read_text(path)
            found = (text, parsed(text, key))
        except (CardrulesError, OSError, RecursionError):
            return self.last_good.get(key)
        self.last_good[key] = found
        return found

    def for_ruleset(self, files: RulesetFiles) -> SymbolIndex:
        index = SymbolIndex()
        for layer in reversed(files.layers):  # the base first: a variant's entries update its base's
            _read_yaml(index, layer.data, layer.marks)
        for path in [*files.code, *files.cards]:
            found = self.module(path)
            if found is not None:
                add_module(index, *found, str(path))
        return index

    def for_file(self, path: Path) -> SymbolIndex:
        """The index of a code or card file alone (a file in no ruleset)."""
        index = SymbolIndex()
        found = self.module(path)
        if found is not None:
            add_module(index, *found, str(path))
        return index


def add_module(index: SymbolIndex, text: str, module: ast.Module, file: str) -> None:
    """Add a file's definitions to the index (the first definition of a name wins)."""
    comments = scan_comments(text)
    lines = text.split("\n")
    for item in module.items:
        doc = doc_comment(comments, item.span.line)
        if isinstance(item, ast.CardDef):
            span = _name_span(lines, item.span, quote(item.name))
            index.cards.setdefault(item.name, Symbol("card", item.name, span, f"card {quote(item.name)} : {item.type}",
                                                     doc, item.type, item))
            continue
        kind = {ast.Procedure: "procedure", ast.Function: "function", ast.KeywordDef: "keyword"}[type(item)]
        span = _name_span(lines, item.span, item.name)
        params = f"({', '.join(item.params)})" if item.params or not isinstance(item, ast.KeywordDef) else ""
        signature = f"{kind} {item.name}{params}"
        if isinstance(item, ast.Function):
            signature += f" = {to_source(item.body)}"
        table = {"procedure": index.procedures, "function": index.functions, "keyword": index.keywords}[kind]
        table.setdefault(item.name, Symbol(kind, item.name, span, signature, doc, node=item))


def _name_span(lines: list[str], span: Span, name: str) -> Span:
    """Where a definition's name is written: its first appearance after the definition's start
    (on the first lines of the definition), else the definition's start."""
    for number in range(span.line, min(span.line + 3, len(lines) + 1)):
        line = lines[number - 1]
        start = span.column - 1 if number == span.line else 0
        pattern = re.escape(name) if name.startswith('"') else rf"(?<![\w]){re.escape(name)}(?![\w])"
        match = re.compile(pattern).search(line, start)
        if match:
            return Span(span.file, number, match.start() + 1, number, match.end() + 1)
    return span


def _read_yaml(index: SymbolIndex, data: dict, marks: Any) -> None:
    for name, spec in _entries(data.get("zones")):
        words = [("per player" if (spec.get("per", "player") == "player") else "shared"),
                 "ordered" if spec.get("ordered") else "unordered", f"visibility {spec.get('visibility', 'public')}"]
        if spec.get("rows"):
            words.append(f"rows {', '.join(map(str, spec['rows']))}")
        if spec.get("active"):
            words.append("active")
        _put(index.zones, "zone", name, ("zones", name), spec, marks, f"zone {name}: {', '.join(words)}")
    for tname, spec in _entries(data.get("card_types")):
        token = " (token)" if spec.get("token") else ""
        _put(index.card_types, "card type", tname, ("card_types", tname), spec, marks,
             f"card type {tname}{token}")
        for aname, aspec in _entries(spec.get("attributes")):
            _put_attribute(index, aname, aspec, tname, ("card_types", tname, "attributes", aname), marks)
    for section, owner in ATTRIBUTE_SECTIONS:
        declared = data.get(section[0])
        for key in section[1:]:  # (teams: {attributes: ...})
            declared = declared.get(key) if isinstance(declared, dict) else None
        for aname, aspec in _entries(declared):
            _put_attribute(index, aname, aspec, owner, (*section, aname), marks)
    for name, spec in _entries(data.get("options")):
        _put(index.options, "option", name, ("options", name), spec, marks,
             f"option {name}: {spec.get('type', 'int')} (default {spec.get('default')!r})",
             str(spec.get("description", "")))
    events = data.get("events")
    if isinstance(events, dict):
        for name, text in events.items():
            spec = text if isinstance(text, dict) else {"text": text}
            shown = spec.get("text")
            _put(index.events, "event", str(name), ("events", name), spec, marks, f"event {name}",
                 f"shown as: {shown}" if isinstance(shown, str) else "")


def _entries(section: Any) -> list[tuple[str, dict]]:
    if not isinstance(section, dict):
        return []
    return [(str(k), v if isinstance(v, dict) else {}) for k, v in section.items()]


def _put(table: dict[str, Symbol], kind: str, name: str, key_path: tuple, spec: dict, marks: Any,
         signature: str, doc: str = "", owner: str = "") -> None:
    """Enter a YAML-declared name; a later layer (a variant) updates the spec, not the place."""
    old = table.get(name)
    span = old.span if old is not None else marks.span(key_path, key=True)
    merged = {**old.spec, **spec} if old is not None else dict(spec)
    doc = doc or _yaml_comment(span) or (old.doc if old is not None else "")
    table[name] = Symbol(kind, name, span, signature, doc, owner, spec=merged)


def _put_attribute(index: SymbolIndex, name: str, spec: dict, owner: str, key_path: tuple, marks: Any) -> None:
    """Enter an attribute of one owner (a card type, 'player' or 'game'); a later layer updates it."""
    symbols = index.attributes.setdefault(name, [])
    old = next((s for s in symbols if s.owner == owner), None)
    merged = {**old.spec, **spec} if old is not None else dict(spec)
    span = old.span if old is not None else marks.span(key_path, key=True)
    doc = _yaml_comment(span) or (old.doc if old is not None else "")
    new = Symbol("attribute", name, span, f"{owner}.{name}: {attribute_type(merged)}", doc, owner, spec=merged)
    index.attributes[name] = [new if s is old else s for s in symbols] if old is not None else [*symbols, new]


def attribute_type(spec: dict) -> str:
    """An attribute's declared type in words: 'int, default 0, min 0', 'text, one of a, b'."""
    words = [str(spec.get("type", "int"))]
    if "default" in spec:
        words.append(f"default {_value(spec['default'])}")
    for limit in ("min", "max"):
        if spec.get(limit) is not None:
            words.append(f"{limit} {spec[limit]}")
    if spec.get("values"):
        words.append("one of " + ", ".join(map(str, spec["values"])))
    if spec.get("visibility"):
        words.append(f"visibility {spec['visibility']}")
    return ", ".join(words)


def _value(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value) if isinstance(value, str) else str(value)


_YAML_COMMENT = re.compile(r"""\s#\s?(.*)$""")


def _yaml_comment(span: Span) -> str:
    """The comment at the end of the YAML line a name is declared on ('' if none)."""
    line = source_line(span) or ""
    cut = re.sub(r'"(?:[^"\\]|\\.)*"|\'[^\']*\'', lambda m: " " * len(m.group()), line)
    match = _YAML_COMMENT.search(cut)
    return line[match.start(1):].strip() if match else ""
