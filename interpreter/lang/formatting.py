"""Format a card or rule code file: the canonical printer's text, with the file's comments kept.

The printer (printer.py) prints the AST, which has no comments. `format_text` prints the module,
parses the printed text again and pairs each node of the file with the same node of the printed
text (the two ASTs are equal, so a walk of each visits the same nodes in the same order). A
comment then goes where the node it belongs to went:

- a comment on a line of its own goes on its own line just above the next statement, member,
  ability or definition of the block it is in (with the indentation that node gets), or, when
  nothing follows in its block, just above the block's closing line;
- a comment after code goes at the end of the printed first line of the outermost node that
  starts on its line (or of the printed last line of the innermost node that ends there).

Blank lines between comments of one group, and between a group and its node, are kept. Two
definitions printed on one line each (short cards) that follow each other in the file without a
blank line between them stay so (a run of one-line cards); every other pair of definitions is
separated by one blank line. The result parses to the same AST and formats to itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import CardSyntaxError, Span
from . import ast
from .comments import Comment, scan_comments
from .parser import parse
from .printer import INDENT, to_source

# The nodes a comment can belong to: whatever the printer starts on a line of its own.
_ANCHORS = (ast.CardDef, ast.CardTemplate, ast.Procedure, ast.Function, ast.KeywordDef, ast.AttrDef, ast.KeywordUse, ast.Part,
            ast.Static, ast.StaticModify, ast.StaticGrant, ast.Triggered, ast.Replacement, ast.Activated,
            ast.Stmt, ast.IfBranch)


@dataclass
class _Anchor:
    span: Span  # in the file
    printed: Span  # in the printed text
    depth: int  # nesting among anchors: 0 for a definition


@dataclass
class _Placement:
    above: dict[int, list[Comment]] = field(default_factory=dict)  # printed line -> comments above it
    after: dict[int, list[Comment]] = field(default_factory=dict)  # printed line -> comments at its end
    tail: list[Comment] = field(default_factory=list)  # after the last line


def format_text(text: str, file: str = "<text>") -> str:
    """The canonical text of a card or rule file, its comments kept. Raises the parser's
    CardrulesError if the text does not parse."""
    module = parse(text, file)
    printed = to_source(module, _tight(module, text))
    comments = scan_comments(text)
    if not comments:
        return printed
    anchors = _anchors(module, parse(printed, "<printed>"), file)
    placement = _place(comments, anchors)
    return _assemble(printed, placement)


def _tight(module: ast.Module, text: str) -> set[int]:
    """The items with no blank line between them and the item before them in the file."""
    lines = text.split("\n")
    tight = set()
    for i in range(1, len(module.items)):
        before, item = module.items[i - 1].span, module.items[i].span
        between = lines[(before.end_line or before.line):item.line - 1]
        if all(line.strip() for line in between):
            tight.add(i)
    return tight


def _anchors(module: ast.Module, again: ast.Module, file: str) -> list[_Anchor]:
    """Each anchor node of the file with its twin of the printed text, in walk order."""
    found: list[_Anchor] = []
    stack: list[tuple[object, object, int]] = [(module, again, -1)]
    while stack:
        mine, twin, depth = stack.pop()
        if isinstance(mine, tuple):
            if not isinstance(twin, tuple) or len(twin) != len(mine):
                raise _mismatch(file)
            stack.extend(zip(reversed(mine), reversed(twin), [depth] * len(mine)))
            continue
        if not isinstance(mine, ast.Node):
            continue
        if type(twin) is not type(mine):
            raise _mismatch(file)
        inner = depth
        span = getattr(mine, "span", None)
        if isinstance(mine, _ANCHORS) and span is not None and span.line > 0:
            inner = depth + 1
            found.append(_Anchor(span, twin.span, inner))  # type: ignore[attr-defined]
        children = [(v, twin.__dict__[k]) for k, v in mine.__dict__.items() if isinstance(v, (ast.Node, tuple))]
        stack.extend((a, b, inner) for a, b in reversed(children))
    return found


def _mismatch(file: str) -> CardSyntaxError:  # pragma: no cover - the printer's round trip is tested
    return CardSyntaxError("the printed text does not read back as the file's code; not formatted", Span(file, 1, 1))


def _place(comments: list[Comment], anchors: list[_Anchor]) -> _Placement:
    placement = _Placement()
    for comment in comments:
        if not comment.own_line and _place_trailing(comment, anchors, placement):
            continue
        _place_own_line(comment, anchors, placement)
    return placement


def _place_trailing(comment: Comment, anchors: list[_Anchor], placement: _Placement) -> bool:
    line = comment.line
    starting = [a for a in anchors if a.span.line == line]
    if starting:
        outer = min(starting, key=lambda a: a.depth)
        placement.after.setdefault(outer.printed.line, []).append(comment)
        return True
    ending = [a for a in anchors if (a.span.end_line or a.span.line) == line]
    if ending:
        inner = max(ending, key=lambda a: a.depth)
        placement.after.setdefault(inner.printed.end_line or inner.printed.line, []).append(comment)
        return True
    return False


def _place_own_line(comment: Comment, anchors: list[_Anchor], placement: _Placement) -> None:
    line = comment.line
    containers = [i for i, a in enumerate(anchors) if a.span.line < line < (a.span.end_line or a.span.line)]
    container = max(containers, key=lambda i: anchors[i].depth) if containers else None
    if container is None:
        inside = [a for a in anchors if a.depth == 0]
    else:
        outer = anchors[container]
        inside = [a for a in anchors[container + 1:] if a.depth > outer.depth and _within(a.span, outer.span)]
    following = [a for a in inside if a.span.line > line]
    if following:
        first_line = min(a.span.line for a in following)
        target = min((a for a in following if a.span.line == first_line), key=lambda a: a.depth)
        placement.above.setdefault(target.printed.line, []).append(comment)
    elif container is not None:
        closing = anchors[container].printed
        placement.above.setdefault(closing.end_line or closing.line, []).append(comment)
    else:
        placement.tail.append(comment)


def _within(inner: Span, outer: Span) -> bool:
    return (outer.line, outer.column) <= (inner.line, inner.column) and \
        (inner.end_line, inner.end_column) <= (outer.end_line, outer.end_column)


def _assemble(printed: str, placement: _Placement) -> str:
    lines = printed.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    out: list[str] = []
    for number, line in enumerate(lines, start=1):
        above = placement.above.get(number)
        if above:
            indent = line[:len(line) - len(line.lstrip(" "))]
            if line.lstrip().startswith("}"):  # the end of a block: the comments stay inside it
                indent += INDENT
            out.extend(_group(above, indent))
        after = placement.after.get(number)
        if after:
            line = line + "  " + " ".join(c.text for c in after)
        out.append(line)
    if placement.tail:
        if out:
            out.append("")
        out.extend(_group(placement.tail, "", blank_after=False))
    return "\n".join(out) + "\n" if out else ""


def _group(comments: list[Comment], indent: str, blank_after: bool = True) -> list[str]:
    """Comment lines, with the blank lines the file had between them and, with `blank_after`,
    the one it had after the last."""
    out: list[str] = []
    for i, comment in enumerate(comments):
        if i > 0 and comment.blank_before:
            out.append("")
        out.append(indent + comment.text)
    if blank_after and comments[-1].blank_after:
        out.append("")
    return out
