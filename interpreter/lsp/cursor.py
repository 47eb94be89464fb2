"""What is under the editor's cursor, read from the text around it without parsing, so that it
works in a half-typed file: the word or string there, what comes just before it (`x.`, `keyword`,
`on`, ...), and the card whose braces the cursor is in.

Strings and comments never span lines in the card-effect language, so one line is enough for
everything but the enclosing card, which is found by scanning the text above the cursor.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_TOKEN = re.compile(r'(?P<string>"(?:[^"\\\n]|\\.)*"?)|(?P<comment>#.*)|(?P<name>[A-Za-z_]\w*)|(?P<other>.)')
_CARD_HEADER = re.compile(r'\bcard\s+"((?:[^"\\\n]|\\.)*)"\s*:\s*([A-Za-z_]\w*)')
_DEFINITION = re.compile(r"^\s*(?:card|procedure|function|keyword)\b", re.MULTILINE)
_BLANKED = re.compile(r'"(?:[^"\\\n]|\\.)*"?|#[^\n]*')

# words after which a name is an event (`on X`, `instead of X`, `emit X(...)`, `until X`)
EVENT_WORDS = {"on", "of", "emit", "until"}
# words after which a name is a ruleset keyword
KEYWORD_WORDS = {"keyword", "grant"}


@dataclass(frozen=True)
class Cursor:
    """The token at the cursor: kind 'name', 'string', 'comment' or 'none'; its text (a string's
    text between its quotes) and columns [start, end) on the line; for a name after a dot, the
    name before the dot (`obj`, '' if something else is there); whether a `(` follows; the word
    before it."""

    kind: str
    text: str
    start: int
    end: int
    obj: str | None = None
    call: bool = False
    previous: str = ""
    assigned: bool = False  # `NAME =` (not `==`): an attribute of a card, written in the card


def cursor_at(line: str, column: int) -> Cursor:
    """The token of `line` the cursor at `column` (0-based, in characters) is in or just after."""
    tokens = [(m.lastgroup or "other", m.start(), m.end(), m.group()) for m in _TOKEN.finditer(line)]
    chosen = None
    for i, (kind, start, end, _text) in enumerate(tokens):
        if start <= column < end or (end == column and kind in ("name", "string")):
            chosen = i
            if start <= column < end:
                break
    if chosen is None:
        return Cursor("none", "", column, column)
    kind, start, end, text = tokens[chosen]
    if kind == "string":
        inner = text[1:-1] if len(text) > 1 and text.endswith('"') else text[1:]
        return Cursor("string", _unescape(inner), start, end)
    if kind != "name":
        return Cursor("comment" if kind == "comment" else "none", text, start, end)
    before = line[:start].rstrip()
    obj = None
    if before.endswith("."):
        match = re.search(r"([A-Za-z_]\w*)$", before[:-1].rstrip())
        obj = match.group(1) if match else ""
    previous = ""
    match = re.search(r"([A-Za-z_]\w*)\s*$", before)
    if match and obj is None:
        previous = match.group(1)
    after = line[end:].lstrip()
    return Cursor("name", text, start, end, obj, after.startswith("("), previous,
                  after.startswith("=") and not after.startswith("=="))


def _unescape(text: str) -> str:
    return re.sub(r'\\(["\\])', r"\1", text)


def enclosing_card(text: str, offset: int) -> tuple[str, str] | None:
    """(name, type) of the card definition whose braces hold `offset`, or None."""
    head = text[:offset]
    last = None
    for match in _CARD_HEADER.finditer(head):
        last = match
    if last is None:
        return None
    later = head[last.end():]
    if _DEFINITION.search(later):
        return None
    plain = _BLANKED.sub("", later)
    if plain.count("{") - plain.count("}") <= 0:
        return None
    return _unescape(last.group(1)), last.group(2)


@dataclass(frozen=True)
class Completing:
    """What is being typed at the cursor: 'string' (a card name), 'attribute' (after `obj.`),
    'keyword', 'event', 'card type', 'name' (anything in scope) or 'none' (in a comment); the
    part typed so far and the column it starts at."""

    what: str
    typed: str
    start: int
    obj: str | None = None


def completing_at(line: str, column: int) -> Completing:
    prefix = line[:column]
    tokens = list(_TOKEN.finditer(prefix))
    if tokens:
        last = tokens[-1]
        if last.lastgroup == "comment":
            return Completing("none", "", column)
        if last.lastgroup == "string" and (len(last.group()) == 1 or not last.group().endswith('"')
                                           or last.group().endswith('\\"')):
            return Completing("string", _unescape(last.group()[1:]), last.start() + 1)
    typed_match = re.search(r"[A-Za-z_]\w*$", prefix)
    typed = typed_match.group() if typed_match else ""
    start = column - len(typed)
    before = prefix[:start]
    dot = re.search(r"([A-Za-z_]\w*)?\s*\.\s*$", before)
    if dot:
        return Completing("attribute", typed, start, dot.group(1) or "")
    word = re.search(r"([A-Za-z_]\w*)\s+$", before)
    previous = word.group(1) if word else ""
    if previous in KEYWORD_WORDS:
        return Completing("keyword", typed, start)
    if previous in EVENT_WORDS:
        return Completing("event", typed, start)
    if previous == "is" or previous == "not" and re.search(r"\bis\s+not\s+$", before) \
            or re.search(r'\bcard\s+"(?:[^"\\\n]|\\.)*"\s*:\s*$', before):
        return Completing("card type", typed, start)
    return Completing("name", typed, start)
