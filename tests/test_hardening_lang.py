"""Card text that no input can break: code nested too deeply, numbers too large, very long
expressions and oversized files each give a located `CardSyntaxError` (file:line:col, the line, a
caret), never a Python exception, and the work of a load stays linear in the text.

The limits are the constants of `interpreter/lang/parser.py`; the tests derive what they expect
from them.
"""

from __future__ import annotations

import shutil
import sys
import time
from pathlib import Path

import pytest
from toyrules import TOY_DIR

from interpreter import load
from interpreter.cli.main import main
from interpreter.errors import CardrulesError, CardSyntaxError, ErrorList, quoted_window, register_source
from interpreter.lang import ast
from interpreter.lang import parser as parser_module
from interpreter.lang.parser import MAX_INT, MAX_NESTING, MAX_TEXT_CHARS, parse, parse_block, parse_expression
from interpreter.lang.printer import to_source

REPO = Path(__file__).resolve().parents[1]
NESTED = f"nested too deeply: at most {MAX_NESTING} levels"
TOO_LARGE = "number too large: at most 10^15"


# ---------------------------------------------------------------- helpers
def syntax_error(call, *args, **kwargs) -> CardSyntaxError:
    """The CardSyntaxError that call(*args) raises. (parse_block and parse_expression leave
    registering their file's text to their caller, the loader: this registers it.)"""
    if call is not parse and len(args) == 1:
        register_source({parse_block: "<code>", parse_expression: "<expr>"}[call], args[0])
    with pytest.raises(CardSyntaxError) as info:
        call(*args, **kwargs)
    return info.value


def assert_located(err: CardrulesError, file: str, line: int, column: int, text_line: str, message: str) -> None:
    """`file:line:col: syntax error: message`, then the source line, then a caret under the column."""
    lines = str(err).splitlines()
    assert lines[0] == f"{file}:{line}:{column}: syntax error: {message}", lines[0]
    shown, caret = quoted_window(text_line, column - 1)  # (a long line is quoted around the column)
    assert lines[1] == "    " + shown
    assert lines[2] == "    " + " " * caret + "^"
    assert isinstance(err, CardSyntaxError)


def only_error(exc: CardrulesError) -> CardrulesError:
    """The single error of a failed load."""
    errors = exc.errors if isinstance(exc, ErrorList) else [exc]
    assert len(errors) == 1, [str(e) for e in errors]
    return errors[0]


def toy_copy(tmp_path: Path) -> Path:
    """A writable copy of the toy ruleset; returns its ruleset file."""
    for f in TOY_DIR.iterdir():
        shutil.copy(f, tmp_path / f.name)
    return tmp_path / "toy.yaml"


def toy_with_card(tmp_path: Path, effect: str) -> tuple[Path, int]:
    """The toy ruleset with one more card whose `on tick` ability runs `effect`; returns the
    ruleset file and the line of the effect in toy.cards (it starts in column 13)."""
    ruleset = toy_copy(tmp_path)
    cards = tmp_path / "toy.cards"
    text = cards.read_text(encoding="utf-8")
    cards.write_text(text + 'card "Deep" : unit {\n  on tick { ' + effect + " }\n}\n", encoding="utf-8")
    return ruleset, text.count("\n") + 2


def load_error(ruleset: Path) -> CardrulesError:
    with pytest.raises(CardrulesError) as info:
        load(ruleset)
    return only_error(info.value)


def stack_depth() -> int:
    """How many Python frames are running."""
    frame, depth = sys._getframe(), 0
    while frame is not None:
        frame, depth = frame.f_back, depth + 1
    return depth


# ------------------------------------------------------- 1. nesting depth
# (the shape, and where its (1-based) level N + 1 starts, counting expr_start or block_start as 1)
def test_300_nots_are_refused_at_the_level_past_the_limit():
    text = "not " * 300 + "true"
    err = syntax_error(parse_expression, text, "rule.yaml", 5, 9)
    column = 4 * (MAX_NESTING - 1) + 1  # the N-th `not` is at level N + 1
    assert text[column - 1:].startswith("not ")
    assert err.span.line == 5 and err.span.column == column + 8
    assert err.message == NESTED and "a + b + c" in err.hint


def test_490_unary_minus_signs_are_refused():
    text = "-" * 490 + "1"
    err = syntax_error(parse, f"function f() = {text}\n", "deep.rules")
    # start(1) > function(2) > the first `-` (3): the first past the limit is sign N - 1
    column = len("function f() = ") + MAX_NESTING - 1
    assert_located(err, "deep.rules", 1, column, f"function f() = {text}", NESTED)


def test_490_nested_lists_are_refused():
    text = "[" * 490 + "]" * 490
    err = syntax_error(parse_expression, text)
    assert_located(err, "<expr>", 1, MAX_NESTING, text, NESTED)


def test_244_nested_if_blocks_are_refused_in_a_yaml_block():
    """An `if` is two levels (the statement, its block); the text is a YAML literal block that
    starts at line 10, column 5, so every line is indented by 4 in the file."""
    text = "if true {\n" * 244 + "}\n" * 244
    err = syntax_error(parse_block, text, "game.yaml", 10, 5, block_indent=True)
    crossing_if = (MAX_NESTING + 1) // 2  # its condition is at level N + 1 (N even: the if is at N)
    assert MAX_NESTING % 2 == 0
    assert (err.span.file, err.span.line, err.span.column) == ("game.yaml", 10 + crossing_if - 1, 4 + 4)
    assert err.message == NESTED


def test_the_nesting_limit_is_exact():
    """N levels parse; N + 1 do not, and the caret is on what is one level too deep."""
    deepest = "not " * (MAX_NESTING - 2) + "true"  # expr_start, N - 2 nots, true: N levels
    assert isinstance(parse_expression(deepest), ast.Not)
    text = "not " + deepest
    assert_located(syntax_error(parse_expression, text), "<expr>", 1, len(text) - 3, text, NESTED)


def test_parentheses_do_not_count():
    text = "(" * 5000 + "1" + ")" * 5000
    assert parse_expression(text) == ast.IntLit(1)


@pytest.mark.parametrize("name, effect", [
    ("not", "if " + "not " * 300 + "true { self.guard += 1 }"),
    ("minus", "self.guard += " + "-" * 490 + "1"),
    ("lists", "let x = " + "[" * 490 + "]" * 490),
    ("if", "if true {" * 244 + "self.guard += 1" + "}" * 244),
])
def test_deep_card_text_is_a_located_error_at_load(tmp_path, name, effect):
    """Before: RecursionError (in the transformer, the checker or the compiler), or the compiler's
    Python error about parentheses; now the parse refuses it, located in the card file."""
    ruleset, line = toy_with_card(tmp_path, effect)
    err = load_error(ruleset)
    assert isinstance(err, CardSyntaxError) and err.message == NESTED
    assert err.span.file == str(tmp_path / "toy.cards") and err.span.line == line
    assert 13 < err.span.column <= 13 + len(effect)


def test_deep_code_in_a_rule_file_entry_is_located_in_the_yaml(tmp_path):
    ruleset = toy_copy(tmp_path)
    yaml = ruleset.read_text(encoding="utf-8")
    deep = "not " * 300 + "game.turn > 3"
    ruleset.write_text(yaml.replace('"game.turn > 3"', f'"{deep}"'), encoding="utf-8")
    err = load_error(ruleset)
    assert isinstance(err, CardSyntaxError) and err.message == NESTED
    end_line = yaml[: yaml.index("game.turn > 3")].count("\n") + 1
    assert err.span.file == str(ruleset) and err.span.line == end_line


def test_validate_reports_deep_text_without_a_traceback(tmp_path, capsys):
    ruleset, line = toy_with_card(tmp_path, "if true {" * 244 + "}" * 244)
    code = main(["validate", str(ruleset)])
    out = capsys.readouterr().out
    assert code == 1
    assert f"toy.cards:{line}:" in out and NESTED in out and "Traceback" not in out


@pytest.mark.parametrize("name, effect", [
    ("not", lambda k: "if " + "not " * k + "true { self.guard += 1 }"),
    ("minus", lambda k: "self.guard += " + "-" * k + "1"),
    ("lists", lambda k: "let x = " + "[" * k + "]" * k),
    ("if", lambda k: "if true {" * k + "self.guard += 1" + "}" * k),
    ("chain", lambda k: "self.guard += " + " - ".join(["1"] * k)),
    ("attributes", lambda k: "let x = self" + ".controller" * k),
    ("comprehensions", lambda k: "let x = " + "[a for a in " * k + "[1]" + "]" * k),
])
def test_code_at_the_limit_loads_prints_and_parses_back_with_stack_to_spare(tmp_path, name, effect):
    """The deepest card text the parser accepts goes through every later pass (transformer,
    checker, compiler, printer) with 400 Python frames, far less than Python's 1000."""
    k = 2 * MAX_NESTING
    while True:  # the deepest of this shape that parses
        card = 'card "Deep" : unit {\n  on tick { ' + effect(k) + " }\n}\n"
        try:
            module = parse(card, "deep.cards")
            break
        except CardSyntaxError:
            k -= 1
    assert k >= MAX_NESTING // 2 - 4
    ruleset, _line = toy_with_card(tmp_path, effect(k))
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(stack_depth() + 400)
    try:
        load(ruleset)
        assert parse(to_source(module), "printed.cards") == module
    finally:
        sys.setrecursionlimit(limit)


@pytest.mark.parametrize("game", ["initiative", "lanes", "bases"])
def test_shipped_rulesets_nest_less_than_half_the_limit(monkeypatch, game):
    monkeypatch.setattr(parser_module, "MAX_NESTING", MAX_NESTING // 2)
    load(game)


# ------------------------------------------------------- 2. integer literals
def test_an_integer_of_5000_digits_is_located():
    """Before: lark's VisitError around Python's ValueError (at most 4,300 digits)."""
    text = "1 + " + "9" * 5000
    err = syntax_error(parse_block, f"let x = {text}", "game.yaml", 3, 11)
    assert (err.span.file, err.span.line, err.span.column) == ("game.yaml", 3, 11 + len("let x = 1 + "))
    assert err.message == TOO_LARGE


def test_integers_up_to_ten_to_the_fifteen():
    assert parse_expression(str(MAX_INT)) == ast.IntLit(10**15)
    assert parse_expression(f"-{MAX_INT}") == ast.Neg(ast.IntLit(10**15))
    assert parse_expression("0" * 5000 + "42") == ast.IntLit(42)  # leading zeros are no size
    text = f"[1, {MAX_INT + 1}]"
    assert_located(syntax_error(parse_expression, text), "<expr>", 1, 5, text, TOO_LARGE)
    text = f"-{MAX_INT + 1}"
    assert_located(syntax_error(parse_expression, text), "<expr>", 1, 2, text, TOO_LARGE)


def test_a_choice_count_too_large_is_located():
    text = 'let c = choose 10000000000000000 "a card" from hand(you)'
    err = syntax_error(parse_block, text)
    assert_located(err, "<code>", 1, 16, text, TOO_LARGE)


def test_a_huge_number_in_a_card_is_a_located_error_at_load(tmp_path):
    ruleset, line = toy_with_card(tmp_path, "self.guard += " + "7" * 5000)
    err = load_error(ruleset)
    assert isinstance(err, CardSyntaxError) and err.message == TOO_LARGE
    assert err.span.line == line and err.span.column == 13 + len("self.guard += ")


# ------------------------------------------------------- 3. long expressions, big files
def test_walk_is_linear_at_any_depth():
    """`ast.walk` used nested generators: quadratic time, and RecursionError on a deep tree."""
    node: ast.Expr = ast.IntLit(1)
    for _ in range(100_000):
        node = ast.Neg(node)
    start = time.perf_counter()
    nodes = list(ast.walk((node, ast.BoolLit(True))))
    assert time.perf_counter() - start < 5
    assert len(nodes) == 100_002 and nodes[0] is node and nodes[-2] == ast.IntLit(1)
    assert nodes[-1] == ast.BoolLit(True)


def test_walk_keeps_its_order():
    """Itself first, then its fields in order, depth first (as the recursive walk did)."""
    def reference(node):
        if isinstance(node, ast.Node):
            yield node
            for value in node.__dict__.values():
                if isinstance(value, (ast.Node, tuple)):
                    yield from reference(value)
        elif isinstance(node, tuple):
            for item in node:
                yield from reference(item)

    for path in sorted(REPO.glob("cards/*/*.cards")) + sorted(REPO.glob("rulesets/*/*.rules")):
        module = parse(path.read_text(encoding="utf-8"), str(path))
        assert [id(n) for n in ast.walk(module)] == [id(n) for n in reference(module)], path


def test_a_20000_term_sum_is_refused_in_seconds(tmp_path):
    """Before: RecursionError; with Python's stack raised to get past it, 81 s to load (the walk
    of every node passed each one up through a generator per level: quadratic)."""
    effect = "self.guard += " + " + ".join(["1"] * 20_000)
    ruleset, line = toy_with_card(tmp_path, effect)
    start = time.perf_counter()
    err = load_error(ruleset)
    assert time.perf_counter() - start < 20
    assert isinstance(err, CardSyntaxError) and err.message == NESTED
    assert (err.span.line, err.span.column) == (line, 13 + len("self.guard += "))  # where the sum starts


def test_a_20000_item_list_loads_in_seconds(tmp_path):
    """Long but flat code is not refused, and its load is linear."""
    ruleset, _line = toy_with_card(tmp_path, "let x = [" + ", ".join(["1"] * 20_000) + "]")
    start = time.perf_counter()
    rules = load(ruleset)
    assert time.perf_counter() - start < 30
    assert "Deep" in rules.card_defs


def test_a_file_over_the_size_limit_is_refused_before_parsing():
    text = "# " + "x" * MAX_TEXT_CHARS + "\n"
    start = time.perf_counter()
    err = syntax_error(parse, text, "huge.cards")
    assert time.perf_counter() - start < 1
    head, quoted = str(err).splitlines()[:2]
    assert head == (f"huge.cards:1:1: syntax error: the file is too large: {len(text):,} characters; "
                    f"card and rule text may hold at most {MAX_TEXT_CHARS:,}")
    assert len(quoted) < 200  # the error quotes the start of the line, not half a megabyte
    assert parse("#" * MAX_TEXT_CHARS, "full.cards") == ast.Module(())  # at the limit: fine


def test_code_over_the_size_limit_in_a_rule_file_is_located():
    err = syntax_error(parse_block, "x" * (MAX_TEXT_CHARS + 1), "game.yaml", 7, 9)
    assert (err.span.file, err.span.line, err.span.column) == ("game.yaml", 7, 9)
    assert err.message.startswith("the code is too large")
    err = syntax_error(parse_expression, "1" * (MAX_TEXT_CHARS + 1), "game.yaml", 8, 3)
    assert (err.span.line, err.span.column) == (8, 3)


def test_a_card_file_over_the_size_limit_fails_the_load_naming_file_and_limit(tmp_path, capsys):
    ruleset = toy_copy(tmp_path)
    cards = tmp_path / "toy.cards"
    padding = "# " + "-" * 98 + "\n"
    cards.write_text(cards.read_text(encoding="utf-8") + padding * (MAX_TEXT_CHARS // len(padding) + 1),
                     encoding="utf-8")
    err = load_error(ruleset)
    assert isinstance(err, CardSyntaxError)
    assert str(err).startswith(f"{cards}:1:1: syntax error: the file is too large")
    assert f"at most {MAX_TEXT_CHARS:,}" in str(err)
    code = main(["validate", str(ruleset)])
    out = capsys.readouterr().out
    assert code == 1 and "the file is too large" in out and "Traceback" not in out
