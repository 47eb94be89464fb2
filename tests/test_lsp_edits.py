"""1,000 random edits (seeded) to a card file, sent to `cardrules lsp` as incremental changes by a
real LSP client: after each one the server is alive and answers a request; afterwards the file's
own text is checked clean again and hover still finds what it did."""

from __future__ import annotations

import random
import shutil
import time
from pathlib import Path

import pytest
from lsp_session import LspSession, position_of

from interpreter import paths
from interpreter.lang.formatting import format_text

types = pytest.importorskip("lsprotocol.types")

EDITS = 1_000
SEED = 23
# what the edits insert: pieces of the language, broken ones, and text that is no code at all
# (no line breaks but "\n": LSP and the server count lines by "\n" and "\r\n" only)
PIECES = ['card "X" : creature {', "}", "{", '"', "keyword ", "rage", "(", ")", "self.", "cost = ", "7",
          "procedure p(", " if ", "choose ", "\n", "\n  ", "#", "\t", "\x00", "é", "漢字", "😋", "\\", "==",
          "all c in hand(you) where ", "static modify self.attack by 1", 'create "Keep" in hand(you)']


def utf16_position(text: str, offset: int) -> types.Position:
    line = text.count("\n", 0, offset)
    start = text.rfind("\n", 0, offset) + 1
    return types.Position(line=line, character=len(text[start:offset].encode("utf-16-le")) // 2)


def random_edit(rng: random.Random, text: str) -> tuple[int, int, str]:
    """(start, end, new text) of one edit: an insertion, a deletion or a replacement."""
    start = rng.randrange(len(text) + 1)
    kind = rng.random()
    if kind < 0.45:
        return start, start, rng.choice(PIECES)
    end = min(len(text), start + rng.randrange(1, 24))
    if kind < 0.8:
        return start, end, ""
    return start, end, rng.choice(PIECES) + rng.choice(PIECES)


@pytest.fixture()
def copy(tmp_path) -> Path:
    shutil.copytree(paths.rulesets_dir() / "lanes", tmp_path / "rulesets" / "lanes")
    shutil.copytree(paths.cards_dir() / "lanes", tmp_path / "cards" / "lanes")
    return tmp_path


def test_a_thousand_random_edits_never_stop_the_server(copy):
    path = copy / "cards" / "lanes" / "creatures.cards"
    # (not in canonical form, so that formatting it below has an edit to send)
    original = path.read_text(encoding="utf-8").replace(
        "{ cost = 1 attack = 1 health = 1 keyword rage }", "{\n  cost = 1\n  attack = 1\n  health = 1\n  keyword rage\n}", 1)
    assert format_text(original, str(path)) != original
    path.write_text(original, encoding="utf-8")
    rng = random.Random(SEED)
    with LspSession(copy) as lsp:
        lsp.open(path, original)
        lsp.wait_diagnostics(path, lambda d: d == [])
        text = original
        answered = 0
        started = time.perf_counter()
        for _ in range(EDITS):
            start, end, new = random_edit(rng, text)
            change = types.TextDocumentContentChangePartial(
                range=types.Range(start=utf16_position(text, start), end=utf16_position(text, end)), text=new)
            lsp.change(path, [change])
            text = text[:start] + new + text[end:]
            at = utf16_position(text, rng.randrange(len(text) + 1))
            lsp.hover(path, at.line, at.character)  # an answer (None or a Hover), not an error
            assert lsp.alive
            answered += 1
        elapsed = time.perf_counter() - started
        assert answered == EDITS
        # the text the edits made is analysed once they pause: a thousand random edits break it
        lsp.wait_diagnostics(path, lambda d: d != [])
        # the server's text is the client's: replacing what the client holds, from its start to
        # its end, with the original leaves the original (formatted as the original formats)
        whole = types.Range(start=types.Position(0, 0), end=utf16_position(text, len(text)))
        lsp.change(path, [types.TextDocumentContentChangePartial(range=whole, text=original)])
        (edit,) = lsp.formatting(path)
        assert edit.new_text == format_text(original, str(path))
        # ...which is clean again, and hover finds the keyword it found before
        assert lsp.wait_diagnostics(path, lambda d: d == []) == []
        hover = lsp.hover(path, *position_of(original, "aquatic"))
        assert hover is not None and "keyword aquatic" in hover.contents.value
        assert lsp.alive
    print(f"{EDITS} edits and requests in {elapsed:.1f} s")
