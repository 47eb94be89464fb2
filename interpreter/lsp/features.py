"""Hover, go to definition and completion, worked out from a `SymbolIndex`, the document's text
and the cursor: plain data (Markdown, spans, completion entries) that server.py turns into LSP
messages."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import Span
from ..lang import ast
from ..lang.analysis import bound_names
from ..lang.builtins import FUNCTIONS as BUILTIN_FUNCTIONS
from ..lang.builtins import PROCEDURES as BUILTIN_PROCEDURES
from ..lang.builtins import builtin_doc
from ..lang.kinds import BUILTIN_GLOBAL_KINDS, PROPERTY_KINDS
from ..lang.parser import reserved_words
from ..lang.printer import to_source
from ..lang.runtime import CONTEXT_NAMES
from .cursor import EVENT_WORDS, KEYWORD_WORDS, Cursor, completing_at, cursor_at, enclosing_card
from .symbols import Symbol, SymbolIndex, attribute_type


@dataclass(frozen=True)
class Entry:
    """A completion: the name, what it is ('zone', 'procedure', 'attribute', ...), a one-line detail."""

    label: str
    kind: str
    detail: str = ""


@dataclass(frozen=True)
class Found:
    """What the cursor is on: the symbols it names (several for an attribute declared by several
    card types), or a built-in's documentation, and the columns of the word."""

    symbols: tuple[Symbol, ...]
    builtin: tuple[str, str, str] | None
    start: int
    end: int
    property_name: str = ""  # a built-in card or player property (`c.controller`)


def find(index: SymbolIndex, text: str, line: int, column: int) -> Found | None:
    """What the word or string at (line, column) (0-based, characters) names, or None."""
    lines = text.split("\n")
    if not 0 <= line < len(lines):
        return None
    cursor = cursor_at(lines[line], column)
    if cursor.kind == "string":
        card = _card(index, cursor.text)
        return Found((card,), None, cursor.start, cursor.end) if card else None
    if cursor.kind != "name":
        return None
    offset = sum(len(x) + 1 for x in lines[:line]) + cursor.start
    symbols = _resolve(index, cursor, text, offset)
    if symbols:
        return Found(tuple(symbols), None, cursor.start, cursor.end)
    if cursor.obj is not None and cursor.obj != "options" and cursor.text in PROPERTY_KINDS | BUILTIN_GLOBAL_KINDS:
        return Found((), None, cursor.start, cursor.end, cursor.text)
    doc = builtin_doc(cursor.text) if cursor.obj is None else None
    if doc is not None:
        return Found((), doc, cursor.start, cursor.end)
    return None


def _card(index: SymbolIndex, name: str) -> Symbol | None:
    if name in index.cards:
        return index.cards[name]
    folded = [s for n, s in index.cards.items() if n.casefold() == name.casefold()]
    return folded[0] if len(folded) == 1 else None


def _resolve(index: SymbolIndex, cursor: Cursor, text: str, offset: int) -> list[Symbol]:
    name = cursor.text
    if cursor.obj is not None:  # obj.name
        if cursor.obj == "options":
            return [index.options[name]] if name in index.options else []
        attributes = index.attributes.get(name, [])
        if cursor.obj == "game":
            return [s for s in attributes if s.owner == "game"]
        card = enclosing_card(text, offset) if cursor.obj == "self" else None
        mine = [s for s in attributes if card is not None and s.owner == card[1]]
        return mine or attributes
    if cursor.previous in KEYWORD_WORDS and name in index.keywords:
        return [index.keywords[name]]
    if cursor.previous in EVENT_WORDS and name in index.events:
        return [index.events[name]]
    if cursor.assigned:  # `cost = 3` in a card: the card type's attribute
        card = enclosing_card(text, offset)
        attributes = index.attributes.get(name, [])
        mine = [s for s in attributes if card is not None and s.owner == card[1]]
        if mine or (card is not None and attributes):
            return mine or attributes
    for table in (index.procedures, index.functions, index.keywords, index.zones):
        if name in table:
            return [table[name]]
    if name in index.card_types:
        return [index.card_types[name]]
    if name in index.events:
        return [index.events[name]]
    return []


# ----------------------------------------------------------------------------- hover
def hover_markdown(index: SymbolIndex, found: Found) -> str:
    """The hover text (Markdown) of what `find` found."""
    if found.builtin is not None:
        what, signature, doc = found.builtin
        return f"```cardrules\n{signature}\n```\nbuilt-in {what}: {doc}"
    if found.property_name:
        name = found.property_name
        kind = PROPERTY_KINDS.get(name) or BUILTIN_GLOBAL_KINDS.get(name)
        return f"`{name}`: {kind} (a built-in property)"
    symbols = found.symbols
    first = symbols[0]
    if first.kind == "card":
        return _card_markdown(index, first)
    if first.kind == "attribute":
        lines = [f"attribute `{first.name}`"] + [f"- `{s.owner}.{s.name}`: {attribute_type(s.spec)}"
                                                 + (f" ({s.doc})" if s.doc else "") for s in symbols]
        return "\n".join(lines)
    if first.kind == "card type":
        attributes = index.attributes_of(first.name)
        lines = [f"```cardrules\n{first.signature}\n```"] + ([first.doc] if first.doc else [])
        lines += [f"- `{s.name}`: {attribute_type(s.spec)}" for s in attributes]
        return "\n".join(lines)
    text = f"```cardrules\n{first.signature}\n```"
    return text + (f"\n{first.doc}" if first.doc else "")


def _card_markdown(index: SymbolIndex, card: Symbol) -> str:
    node = card.node
    lines = [f"**{card.name}**: {card.owner}"]
    if card.doc:
        lines.append(card.doc)
    if isinstance(node, ast.CardDef):
        printed = {a.name: to_source(a.value) for a in node.attrs}
        declared = {s.name: s for s in index.attributes_of(node.type)}
        rows = []
        for name in [*printed, *(n for n in declared if n not in printed)]:
            spec = declared.get(name)
            kind = attribute_type(spec.spec) if spec is not None else "not declared by the card type"
            value = printed.get(name, "(the card type's default)")
            rows.append(f"- `{name}` = {value}: {kind}")
        lines += rows
        if node.keywords:
            lines.append("keywords: " + ", ".join(to_source(k).removeprefix("keyword ") for k in node.keywords))
        lines.append(f"```cardrules\n{to_source(node).rstrip()}\n```")
    return "\n".join(lines)


# ----------------------------------------------------------------------------- completion
def completions(index: SymbolIndex, text: str, line: int, column: int,
                module: ast.Module | None = None) -> tuple[list[Entry], int]:
    """The names that may go at (line, column) and the column the typed part starts at."""
    lines = text.split("\n")
    if not 0 <= line < len(lines):
        return [], column
    at = completing_at(lines[line], column)
    offset = sum(len(x) + 1 for x in lines[:line]) + column
    entries: list[Entry]
    if at.what == "none":
        return [], column
    if at.what == "string":
        entries = [Entry(n, "card", s.signature) for n, s in index.cards.items()]
    elif at.what == "attribute":
        entries = _attribute_entries(index, at.obj or "", text, offset)
    elif at.what == "keyword":
        entries = [Entry(n, "keyword", s.signature) for n, s in index.keywords.items()]
    elif at.what == "event":
        entries = [Entry(n, "event", s.doc) for n, s in index.events.items()]
    elif at.what == "card type":
        entries = [Entry(n, "card type", s.signature) for n, s in index.card_types.items()]
    else:
        entries = _names_in_scope(index, text, offset, line + 1, module)
    typed = at.typed.casefold()
    seen: set[str] = set()
    kept = []
    for entry in entries:
        if entry.label.casefold().startswith(typed) and entry.label not in seen:
            seen.add(entry.label)
            kept.append(entry)
    return kept, at.start


def _attribute_entries(index: SymbolIndex, obj: str, text: str, offset: int) -> list[Entry]:
    if obj == "options":
        return [Entry(n, "option", s.signature) for n, s in index.options.items()]
    if obj == "game":
        return ([Entry(s.name, "attribute", s.signature) for s in index.attributes_of("game")]
                + [Entry(n, "property", k) for n, k in BUILTIN_GLOBAL_KINDS.items()])
    card = enclosing_card(text, offset) if obj == "self" else None
    if card is not None:
        attributes = index.attributes_of(card[1])
    else:
        attributes = [s for symbols in index.attributes.values() for s in symbols if s.owner != "game"]
    return ([Entry(s.name, "attribute", s.signature) for s in attributes]
            + [Entry(n, "property", k) for n, k in PROPERTY_KINDS.items()])


def _names_in_scope(index: SymbolIndex, text: str, offset: int, line: int,
                    module: ast.Module | None) -> list[Entry]:
    entries: list[Entry] = []
    card = enclosing_card(text, offset)
    if card is not None:  # the card's own attributes first: `cost = ...`
        entries += [Entry(s.name, "attribute", s.signature) for s in index.attributes_of(card[1])]
    entries += [Entry(n, "local", "") for n in _locals(module, line)]
    entries += [Entry(n, "zone", s.signature) for n, s in index.zones.items()]
    entries += [Entry(n, "procedure", s.signature) for n, s in index.procedures.items()]
    entries += [Entry(n, "function", s.signature) for n, s in index.functions.items()]
    entries += [Entry(n, "keyword", s.signature) for n, s in index.keywords.items()]
    entries += [Entry(n, "built-in function", b.signature) for n, b in BUILTIN_FUNCTIONS.items()]
    entries += [Entry(n, "built-in procedure", b.signature) for n, b in BUILTIN_PROCEDURES.items()]
    entries += [Entry(n, "name", "") for n in sorted(CONTEXT_NAMES)]
    entries += [Entry(n, "language keyword", "") for n in sorted(reserved_words())]
    return entries


def _locals(module: ast.Module | None, line: int) -> list[str]:
    """Parameters and names bound (let, for, all ... in, create ... as) in the definition of the
    document's last parse that holds `line`."""
    if module is None:
        return []
    for item in module.items:
        span = item.span
        if span.line <= line <= (span.end_line or span.line):
            return list(dict.fromkeys([*getattr(item, "params", ()), *bound_names(item)]))
    return []


def definitions(found: Found) -> list[Span]:
    """Where what `find` found is defined (several places for an attribute of several owners)."""
    return [s.span for s in found.symbols]


def document_symbols(index: SymbolIndex, file: str) -> list[Symbol]:
    """The definitions written in one file, in the order of the file."""
    symbols = [s for table in (index.cards, index.procedures, index.functions, index.keywords)
               for s in table.values() if s.span.file == file]
    return sorted(symbols, key=lambda s: (s.span.line, s.span.column))


# ----------------------------------------------------------------------------- deck files
# A card of a deck file: an indented mapping key (`  Name: 2`, `  "Name": 2`) or a list item
# (`  - Name`), quoted or not.
_DECK_ITEM = re.compile(r"""^(\s+(?:-\s+)?|-\s+)(["']?)([^"'#:\s][^"'#:]*?)\2\s*(?::(?:\s|$)|#|$)""")
_DECK_TYPING = re.compile(r"""^(\s+(?:-\s+)?|-\s+)(["']?)([^"'#:]*)$""")


def deck_card_at(index: SymbolIndex, line_text: str, column: int) -> Found | None:
    """The card a deck file's line names, when the cursor is on its name."""
    match = _DECK_ITEM.match(line_text)
    if match is None or not match.start(3) <= column <= match.end(3):
        return None
    card = _card(index, match.group(3))
    return Found((card,), None, match.start(3), match.end(3)) if card else None


def deck_completions(index: SymbolIndex, line_text: str, column: int) -> tuple[list[Entry], int]:
    """The card names that may go where a deck file's line is being typed (a key or a list item,
    from its start to the cursor), and the column the typed part starts at."""
    match = _DECK_TYPING.match(line_text[:column])
    if match is None:
        return [], column
    typed = match.group(3).casefold()
    entries = [Entry(n, "card", s.signature) for n, s in index.cards.items() if n.casefold().startswith(typed)]
    return entries, match.start(3)
