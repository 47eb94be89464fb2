"""Reading code and card files: text that must be UTF-8 (an error at the first bad byte), parsed
into ASTs once per text (ASTs are immutable: rulesets loaded again share them), card folders read
file by file, and card text embedded in another file parsed at its real place."""

from __future__ import annotations

import functools
from pathlib import Path

from ..errors import CardrulesError, ErrorList, RulesError, Span, register_source
from ..lang import ast
from ..lang.parser import parse
from .overlay import overlaid_bytes


def _byte_span(file: str, raw: bytes, offset: int) -> Span:
    """The line and column (in characters) of a byte of a file."""
    start = raw.rfind(b"\n", 0, offset) + 1
    column = len(raw[start:offset].decode("utf-8", errors="replace")) + 1
    return Span(file, raw.count(b"\n", 0, offset) + 1, column)


def read_text(path: Path) -> str:
    """A code or card file's text; a file that is not UTF-8 text is an error at its first bad byte.
    The text of a file the source overlay holds (an editor's unsaved text, see overlay.py) is the
    overlay's."""
    raw = overlaid_bytes(path)
    if raw is None:
        if not path.exists():
            raise RulesError(f"no such file: {path}")
        raw = path.read_bytes()
    bad, why = None, ""
    if b"\x00" in raw:
        bad, why = raw.index(b"\x00"), "the file is binary, not text (a NUL byte)"
    else:
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as err:
            bad, why = err.start, f"not UTF-8 text ({err.reason}: byte {raw[err.start]:#04x})"
    if bad is not None:
        register_source(str(path), raw.decode("utf-8", errors="replace").replace("\x00", " "))
        raise RulesError(why, _byte_span(str(path), raw, bad), hint="save the file as UTF-8 text")
    register_source(str(path), text)
    return text


def parse_file(path: Path, suffix: str) -> list[ast.Module]:
    return [parsed(read_text(path), str(path))]


@functools.lru_cache(maxsize=256)
def parsed(text: str, file: str) -> ast.Module:
    """A file's AST, parsed once per text: ASTs are immutable, so rulesets loaded again (scenarios,
    both sides of a comparison, variants) share the parse of files they have in common."""
    return parse(text, file)


def parse_text_at(text: str, file: str, line: int, column: int) -> ast.Module:
    """Parse card text embedded in another file (a YAML literal block) at its real position."""
    from ..lang.parser import parse_embedded

    return parse_embedded(text, file, line, column)


def parse_cards(folder: Path) -> list[ast.Module]:
    """The card files of a `cards:` entry (a folder's *.cards files, or one .cards file; see
    rulepaths.card_files), parsed; every file's errors are reported."""
    from .rulepaths import card_files

    if not folder.exists():
        raise RulesError(f"no such card folder or file: {folder}")
    errors: list[CardrulesError] = []
    modules = []
    for file in card_files(folder):
        try:
            modules.extend(parse_file(file, ".cards"))
        except CardrulesError as err:
            errors.append(err)
    if errors:
        raise ErrorList(errors) if len(errors) > 1 else errors[0]
    return modules
