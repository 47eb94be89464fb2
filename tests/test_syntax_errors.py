"""Malformed card text: a CardSyntaxError with file:line:col, the line, a caret, and what was
expected in words. Also: empty and binary files, errors in code embedded in rule files, and
that no malformed input escapes as another exception.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from playout import examples

from interpreter.errors import CardSyntaxError
from interpreter.lang import ast
from interpreter.lang.parser import _parser, parse, parse_block, parse_expression

REPO = Path(__file__).resolve().parents[1]
CARDS = REPO / "cards" / "initiative" / "cards.cards"


def syntax_error(text: str, file: str = "bad.cards") -> CardSyntaxError:
    with pytest.raises(CardSyntaxError) as info:
        parse(text, file)
    return info.value


def assert_located(err: CardSyntaxError, text: str, line: int, column: int, file: str = "bad.cards") -> None:
    """`file:line:col: syntax error: ...`, then the source line, then a caret under the column."""
    lines = str(err).splitlines()
    assert lines[0].startswith(f"{file}:{line}:{column}: syntax error: "), lines[0]
    assert lines[1] == "    " + text.splitlines()[line - 1]
    assert lines[2] == "    " + " " * (column - 1) + "^"
    assert (err.span.file, err.span.line, err.span.column) == (file, line, column)
    assert err.phase == "syntax"


# (source, line, column, exact message)
CASES = [
    (
        'card "Imp" : creature {\n  cost = 1\n',
        2, 11, "unexpected end of file; expected '}', 'keyword', 'part', a name or an ability",
    ),
    ('card "Imp" creature { }', 1, 12, "unexpected name 'creature'; expected ':'"),
    ("card Imp : creature { }", 1, 6, "unexpected name 'Imp'; expected a string in double quotes"),
    ('card "Imp" : creature { part { } }', 1, 30, "unexpected '{'; expected a name"),
    ('card "Imp" : creature { on { } }', 1, 28, "unexpected '{'; expected a name"),
    ('card "Imp" : creature { }\n}', 2, 1,
     "unexpected '}'; expected 'card', 'cards', 'function', 'keyword', 'procedure' or the end of the file"),
    ("draw(you, 1)", 1, 1,
     "unexpected name 'draw'; expected 'card', 'cards', 'function', 'keyword', 'procedure' or the end of the file"),
    ("procedure p(a b) { }", 1, 15, "unexpected name 'b'; expected ')' or ','"),
    ("procedure p() { let 3 = x }", 1, 21, "unexpected number 3; expected a name"),
    ("procedure p() { let x = }", 1, 25, "unexpected '}'; expected an expression"),
    ("procedure p() { x += }", 1, 22, "unexpected '}'; expected an expression"),
    ("procedure p() { x = (1 + 2 }", 1, 28, "unexpected '}'; expected ')'"),
    ("procedure p() {\n  x = [1, 2\n}", 3, 1, "unexpected '}'; expected ']' or ','"),
    ("procedure p() { let x = a. }", 1, 28, "unexpected '}'; expected a name"),
    ("procedure p() { let x = not }", 1, 29, "unexpected '}'; expected 'not' or an operand"),
    ("procedure p() { move x }", 1, 24, "unexpected '}'; expected 'to'"),
    ("procedure p() { for c hand(you) { } }", 1, 23, "unexpected name 'hand'; expected 'in'"),
    ("procedure p() { if x y { } }", 1, 22, "unexpected name 'y'; expected '{'"),
    ("procedure p() { emit hit(a) }", 1, 27, "unexpected ')'; expected ':'"),
    ("procedure p() { create x in y with { a 1 } }", 1, 40, "unexpected number 1; expected '='"),
    ("procedure p() { let x = all in y }", 1, 32, "unexpected name 'y'; expected 'in'"),
    ("procedure p() {\n  may \"ok\" by { }\n}", 2, 15, "unexpected '{'; expected an expression"),
    (
        "procedure p() { let x = choose a }",
        1, 32, "unexpected name 'a'; expected '(', 'from', 'order', 'up', a number or a string in double quotes",
    ),
    ("keyword k { let x = 1 }", 1, 13, "unexpected 'let'; expected '}' or an ability"),
    ("function f() = ", 1, 15, "unexpected end of file; expected an expression"),
    ("procedure p() { let x = @ }", 1, 25, "unexpected character '@'; expected an expression"),
    ("procedure p() { let x = 1 $ }", 1, 27, "unexpected character '$'; expected '}', a statement or an operator"),
    ('procedure p() {\n  let x = "abc\n}', 2, 11, "unterminated string"),
]


@pytest.mark.parametrize("text, line, column, message", CASES, ids=[c[3][:60] for c in CASES])
def test_syntax_error_is_located_and_worded(text: str, line: int, column: int, message: str):
    err = syntax_error(text)
    assert err.message == message
    assert_located(err, text, line, column)


def test_messages_never_show_grammar_internals():
    for text, *_ in CASES:
        message = syntax_error(text).message
        assert not re.search(r"\$END|__ANON|\b[A-Z]{2,}_?[A-Z]*\b|Token\(", message), message


def test_unterminated_string_has_a_hint():
    err = syntax_error('card "Imp : creature { }')
    assert err.message == "unterminated string"
    assert "hint: " in str(err) and '\\"' in err.hint


def test_chained_comparison_has_a_hint():
    text = "procedure p() { if a == b == c { } }"
    err = syntax_error(text)
    assert err.message == "unexpected '=='; expected '{' or an operator"
    assert_located(err, text, 1, 27)
    assert "comparisons do not chain" in err.hint


def test_end_of_file_points_after_the_last_token():
    text = 'card "Imp" : creature {'
    err = syntax_error(text)
    assert err.message.startswith("unexpected end of file; expected '}'")
    assert_located(err, text, 1, len(text) + 1)


def test_empty_file_is_an_empty_module():
    assert parse("", "empty.cards") == ast.Module(())
    assert parse("\n\n   \n", "blank.cards") == ast.Module(())
    assert parse("# just a note\n", "note.cards") == ast.Module(())


@pytest.mark.parametrize("data", ["\x00\x01\x02", 'card "a" : t { }\x00', "PK\x03\x04\x00\x00"])
def test_binary_input_is_reported_as_binary(data: str):
    err = syntax_error(data, "cards.zip")
    assert err.message == "the file is binary, not card text"
    assert str(err).startswith("cards.zip:1:1: syntax error: the file is binary")


def test_binary_bytes_decoded_leniently_are_binary_too():
    data = bytes(range(256)).decode("latin-1")
    assert "binary" in syntax_error(data, "blob.cards").message


# ----------------------------------------------------------------- embedded code
def test_parse_block_error_is_located_in_the_rule_file():
    with pytest.raises(CardSyntaxError) as info:
        parse_block("let x = 1\nmove x hand(p)", "game.yaml", line=12, column=11)
    err = info.value
    assert err.message == "unexpected name 'hand'; expected 'to'"
    assert (err.span.file, err.span.line, err.span.column) == ("game.yaml", 13, 8)


def test_parse_block_error_on_the_first_line_gets_the_column_offset():
    with pytest.raises(CardSyntaxError) as info:
        parse_block("let = 1", "game.yaml", line=4, column=13)
    assert (info.value.span.line, info.value.span.column) == (4, 17)
    assert info.value.message == "unexpected '='; expected a name"


def test_parse_expression_error():
    with pytest.raises(CardSyntaxError) as info:
        parse_expression("count(hand(p) +* 2)", "game.yaml", line=7, column=15)
    assert (info.value.span.line, info.value.span.column) == (7, 30)
    assert info.value.message == "unexpected '*'; expected an operand"


@pytest.mark.parametrize("parse_code", [parse_block, parse_expression])
def test_end_of_embedded_code_error_points_into_the_code(parse_code):
    with pytest.raises(CardSyntaxError) as info:
        parse_code("f(x", "game.yaml", line=10, column=7)
    assert (info.value.span.line, info.value.span.column) == (10, 10)


# ----------------------------------------------------------------- no other exception escapes
def _tokens(text: str) -> list[tuple[int, int]]:
    return [(t.start_pos, t.end_pos) for t in _parser("start").lex(text)]


SAMPLE = CARDS.read_text(encoding="utf-8")
SAMPLE_TOKENS = _tokens(SAMPLE)


def test_every_truncation_of_a_card_file_is_ok_or_a_located_error():
    """Cut the shipped card file after each token (the first 300): parse or a worded error."""
    for _start, end in SAMPLE_TOKENS[:300]:
        text = SAMPLE[:end]
        try:
            parse(text, "cut.cards")
        except CardSyntaxError as err:
            assert err.span.line >= 1 and err.span.column >= 1
            assert err.message.startswith(("unexpected ", "unterminated")), err.message
            assert "expected " in err.message


@settings(max_examples=examples(200, share=3), deadline=None, database=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(["drop", "repeat", "swap"]), st.integers(0, len(SAMPLE_TOKENS) - 2)),
        min_size=1,
        max_size=3,
    )
)
def test_token_edits_of_a_card_file_give_syntax_errors_only(edits):
    """Drop, repeat or swap tokens of a valid file: it parses or raises CardSyntaxError."""
    pieces = [SAMPLE[s:e] for s, e in SAMPLE_TOKENS]
    for kind, i in edits:
        if kind == "drop":
            pieces[i] = ""
        elif kind == "repeat":
            pieces[i] = pieces[i] + " " + pieces[i]
        else:
            pieces[i], pieces[i + 1] = pieces[i + 1], pieces[i]
    text = " ".join(pieces)
    try:
        parse(text, "edited.cards")
    except CardSyntaxError as err:
        assert err.span.line >= 1 and err.span.column >= 1
        assert str(err).startswith("edited.cards:")


@settings(max_examples=examples(200, share=3), deadline=None, database=None)
@given(st.text(st.characters(codec="utf-8", exclude_characters='"\\'), max_size=40))
def test_arbitrary_text_gives_syntax_errors_only(text: str):
    try:
        parse(text, "noise.cards")
    except CardSyntaxError as err:
        assert str(err).startswith("noise.cards:")


# ----------------------------------------------------------------- defects found and fixed
@pytest.mark.parametrize("literal", [r'"\x"', r'"\N{no such name}"', '"a\rb"', r'"\u12"'])
def test_bad_string_escape_is_a_syntax_error(literal: str):
    with pytest.raises(CardSyntaxError):
        parse_expression(literal)
