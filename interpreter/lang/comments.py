"""The comments of card-effect text, which the parser skips: where each one is, and the doc
comment of a definition (the comment lines just above it, and one at the end of its first line).

A comment runs from `#` to the end of its line, unless the `#` is inside a string; strings are
single-line, with backslash escapes (grammar/cardrules.lark), so one scan over the text finds them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# a string literal (or an unterminated one, up to the end of its line), or a comment
_STRING_OR_COMMENT = re.compile(r'"(?:[^"\\\n]|\\.)*"?|#[^\n]*')
# a comment that divides a file into sections (`# ---- cost 2`, `# ======`): no definition's doc
_DIVIDER = re.compile(r"#+\s*([-=*_~#])\1{2,}")


@dataclass(frozen=True)
class Comment:
    """One comment: its 1-based line and column, its text from `#` (trailing spaces cut), whether
    it has a line of its own (only spaces before it), and whether a blank line is just above it
    and just below it."""

    line: int
    column: int
    text: str
    own_line: bool
    blank_before: bool
    blank_after: bool = False


def scan_comments(text: str) -> list[Comment]:
    """Every comment of the text, in order."""
    comments = []
    starts = None
    for match in _STRING_OR_COMMENT.finditer(text):
        if not match.group().startswith("#"):
            continue
        if starts is None:
            starts = [0] + [m.end() for m in re.finditer("\n", text)]
        offset = match.start()
        line = _line_of(starts, offset)
        line_start = starts[line - 1]
        before = text[line_start:offset]
        blank = line >= 2 and not _line_text(text, starts, line - 1).strip()
        blank_after = line < len(starts) and not _line_text(text, starts, line + 1).strip()
        comments.append(Comment(line, offset - line_start + 1, match.group().rstrip(), not before.strip(), blank,
                                blank_after))
    return comments


def _line_of(starts: list[int], offset: int) -> int:
    low, high = 0, len(starts) - 1
    while low < high:
        mid = (low + high + 1) // 2
        if starts[mid] <= offset:
            low = mid
        else:
            high = mid - 1
    return low + 1


def _line_text(text: str, starts: list[int], line: int) -> str:
    end = starts[line] - 1 if line < len(starts) else len(text)
    return text[starts[line - 1]:end]


def comment_words(comment: Comment) -> str:
    """A comment's text without the `#` and the space after it."""
    return comment.text[1:].strip()


def doc_comment(comments: list[Comment], line: int) -> str:
    """The doc comment of a definition starting on `line`: the own-line comments just above it
    (no blank or code line between, and no section divider such as `# ---- set-up`), then the
    comment at the end of that line; '' if none."""
    by_line = {c.line: c for c in comments}
    above = []
    current = line - 1
    while current in by_line and by_line[current].own_line and not _DIVIDER.match(by_line[current].text):
        above.append(comment_words(by_line[current]))
        if by_line[current].blank_before:
            break
        current -= 1
    words = list(reversed(above))
    same = by_line.get(line)
    if same is not None and not same.own_line:
        words.append(comment_words(same))
    return "\n".join(words)
