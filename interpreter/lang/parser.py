"""Parse card-effect text into the AST: Lark (LALR, positions kept) plus a Transformer.

The parser is built once per process (`functools.lru_cache`), as python-hcl2 does. Syntax
errors become `CardSyntaxError` with file:line:col, the source line, a caret and what was
expected, in words.

No input may break the passes after the parse, so the text is held to three limits, each refused
with a located `CardSyntaxError`: its size (`MAX_TEXT_CHARS`, before Lark sees it), how deeply it
nests (`MAX_NESTING`, measured on the parse tree without recursion before the transformer, the
checker, the compiler and the printer walk it recursively) and its integer literals (`MAX_INT`).
"""

from __future__ import annotations

import functools
import re
from importlib import resources
from pathlib import Path

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

from ..errors import CardrulesError, CardSyntaxError, Span, register_source
from . import ast
from .parsecache import cached_tree, lark_parser
from .syntax_hints import hint_for
from .to_ast import ToAst

GRAMMAR_FILE = "cardrules.lark"

# The most characters one text may hold: a card or rule file, or the code of one entry of a rule
# file. Loading is linear in the text but not fast (Lark parses some 60 KB of dense card text a
# second here, and checking and compiling take about as long again): a file at the limit, some
# 2,500 cards, loads in about 15 s, 45 times the largest shipped file (11 KB). Longer card sets
# go in several files (a ruleset's `cards:` may name a folder of them).
MAX_TEXT_CHARS = 500_000

# The most levels of nesting, counted on the parse tree: each definition, ability, statement,
# block, operator, call, argument list and list literal around a piece of code is a level (so is
# each operator of a chain like `a + b + c`, which nests to the left; parentheses are free). The
# transformer, the checker, the compiler and the printer are recursive, about two Python frames a
# level, and the compiler writes Python source in which a level can cost two parentheses (Python
# allows 200) or an indentation (Python allows 100): 64 keeps all of them far from those limits,
# while shipped code nests at most 18 levels and a rule of 22 nested loops (past the 20 blocks
# Python compiles, which the compiler reports itself) still reaches the compiler.
MAX_NESTING = 64

# The largest integer literal, 10^15: far beyond any count a game needs, exact in a JSON reader's
# double (2^53 is about 9 * 10^15), and Python reads it, which it does not for one of more than
# 4,300 digits.
MAX_INT_EXPONENT = 15
MAX_INT = 10**MAX_INT_EXPONENT


def grammar_path() -> Path:
    """The grammar file: beside the checkout, or shipped as package data."""
    checkout = Path(__file__).resolve().parents[2] / "grammar" / GRAMMAR_FILE
    if checkout.is_file():
        return checkout
    return Path(str(resources.files("interpreter").joinpath("data", "grammar", GRAMMAR_FILE)))


@functools.cache
def _parser(start: str) -> Lark:
    return lark_parser(  # Lark(...), its tables kept in the disk cache (parsecache.py)
        grammar_path().read_text(encoding="utf-8"),
        parser="lalr",
        propagate_positions=True,
        start=start,
        maybe_placeholders=True,
    )


def grammar_text() -> str:
    return grammar_path().read_text(encoding="utf-8")


# Words for the terminals Lark reports as expected, so errors read as English. Keywords and
# punctuation need no entry: `_describe_expected` quotes their text from the grammar.
TERMINAL_WORDS = {
    "NAME": "a name",
    "STRING": "a string in double quotes",
    "INT": "a number",
    "ASSIGN_OP": "'=', '+=', '-='",
    "COMP_OP": "'==', '!=', '<', '<=', '>', '>='",
    "ADD_OP": "'+', '-'",
    "MUL_OP": "'*', '/', '%'",
    "DESC": "'desc'",
    "$END": "the end of the file",
    # Lark's names for anonymous punctuation (used if the grammar's text is not at hand).
    "LBRACE": "'{'",
    "RBRACE": "'}'",
    "LPAR": "'('",
    "RPAR": "')'",
    "LSQB": "'['",
    "RSQB": "']'",
    "COMMA": "','",
    "COLON": "':'",
    "DOT": "'.'",
    "EQUAL": "'='",
    "MINUS": "'-'",
}


def _describe_expected(expected: set[str]) -> str:
    """What the parser would have accepted, in words: "'}' or a statement", "an expression".

    Terminals are quoted as written in the grammar ('if', '{'); when every terminal that can
    start a statement (an ability, an expression) is accepted, they are summed up as "a
    statement" (...); several binary operators become "an operator".
    """
    parser = _parser("start")
    literal = {t.name: f"'{t.pattern.value}'" for t in parser.terminals if t.pattern.type == "str"}

    # FIRST sets of the grammar's rules: the terminals that can start each rule.
    first: dict[str, set[str]] = {}
    nullable: set[str] = set()
    changed = True
    while changed:
        changed = False
        for rule in parser.rules:
            origin = rule.origin.name
            known = first.setdefault(origin, set())
            before = (len(known), origin in nullable)
            for symbol in rule.expansion:
                if symbol.is_term:
                    known.add(symbol.name)
                    break
                known |= first.get(symbol.name, set())
                if symbol.name not in nullable:
                    break
            else:
                nullable.add(origin)
            changed = changed or before != (len(known), origin in nullable)

    remaining = set(expected)
    groups = []
    for phrase, rule_name in (
        ("a statement", "_stmt"),
        ("an ability", "_ability"),
        ("an expression", "expr"),
        ("an operand", "unary"),  # after an operator: a name, a number, '(', '-', ...
    ):
        starters = first.get(rule_name)
        if starters and starters <= remaining:
            groups.append(phrase)
            remaining -= starters
    operators = remaining & {"OR", "AND", "COMP_OP", "IN", "IS", "ADD_OP", "MUL_OP"}
    if "COMP_OP" not in operators:  # `create CARD in ZONE`: there 'in' is a keyword of its own
        operators -= {"IN", "IS"}
    if len(operators) >= 2:
        remaining -= operators | {"DOT", "LSQB"}
        groups.append("an operator")

    def rank(phrase: str) -> tuple[int, str]:
        if phrase in ("'}'", "')'", "']'"):
            return (0, phrase)
        if phrase.startswith("'"):
            return (1, phrase)
        if phrase == TERMINAL_WORDS["$END"]:
            return (3, phrase)
        return (2, phrase)

    phrases = {TERMINAL_WORDS.get(name) or literal.get(name) or f"'{name.lower()}'" for name in remaining}
    words = sorted(phrases, key=rank) + groups
    if (TERMINAL_WORDS["$END"]) in words:  # the end of the file reads best last
        words.remove(TERMINAL_WORDS["$END"])
        words.append(TERMINAL_WORDS["$END"])
    if not words:
        return "nothing more"
    if len(words) > 8:
        words = words[:7] + ["something else"]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


_REVEAL_CALL = re.compile(r"(?:^|[^\w.])reveal\s*\([^()\[\]]*$")  # `reveal(c` before a comma: `reveal(c, p)`


def _line_before(text: str, line: int, column: int) -> str:
    """The text of line `line` (from 1) before column `column` (from 1), "" if there is none."""
    lines = text.splitlines()
    return lines[line - 1][:column - 1] if 0 < line <= len(lines) else ""


def _syntax_error(err: UnexpectedInput, file: str, start: str = "start", text: str = "") -> CardSyntaxError:
    """A located CardSyntaxError for a Lark error: what was found, and what was expected."""
    import copy as _copy

    line = getattr(err, "line", 0) or 0
    column = getattr(err, "column", 0) or 0
    hint = ""
    if isinstance(err, UnexpectedToken):
        token = err.token
        if token.type == "$END":
            found = "end of file"
            # Lark places $END on the last token; the caret goes just after it.
            line = getattr(token, "end_line", None) or line
            column = getattr(token, "end_column", None) or column
        elif token.type == "NAME":
            found = f"name '{token}'"
        elif token.type == "INT":
            found = f"number {token}"
        elif token.type == "STRING":
            found = f"string {token}"
        else:
            found = f"'{token}'"
        accepted = set(err.accepts or err.expected)
        message = f"unexpected {found}; expected {_describe_expected(accepted)}"
        if token.type == "COMP_OP" and "COMP_OP" not in accepted:
            hint = "comparisons do not chain: write `a < b and b < c`"
        elif token == "," and _REVEAL_CALL.search(_line_before(text, line, column)):
            hint = ("`reveal(c)` shows cards to every player; to show them to some players alone, write "
                    "`reveal c to p` (or `reveal c to [p, q]`)")
        elif str(token) == "where" and "IF" in accepted and "WHERE" not in accepted:
            hint = ("a comprehension keeps items with `if`: [x for x in L if C] (`where` is for "
                    "`all x in L where C` and `for x in L where C { ... }`)")
        elif str(token) == "if" and "WHERE" in accepted:
            hint = "a loop keeps items with `where`: for x in L where C { ... }"
    elif isinstance(err, UnexpectedCharacters):
        if err.char == '"':
            message = "unterminated string"
            hint = 'a string ends with " on the same line; write \\" for a quote inside it'
        else:
            message = f"unexpected character {err.char!r}"
            # The lexer's `allowed` lists NAME but not the keywords it stands for. Ask the parser
            # state behind it which terminals it would take, as Lark does for UnexpectedToken
            # (`accepts`): feed each one to a copy (the table also holds rules: lowercase).
            allowed = set(getattr(err, "allowed", None) or ())
            state = getattr(err, "state", None)
            try:
                conf = _copy.copy(state.parse_conf)  # type: ignore[union-attr]
                conf.callbacks = {}
                accepts = set()
                for name in state.parse_conf.parse_table.states[state.position]:  # type: ignore[union-attr]
                    if not (name.isupper() or name == "$END"):
                        continue
                    trial = state.copy(deepcopy_values=False)  # type: ignore[union-attr]
                    trial.parse_conf = conf
                    try:
                        trial.feed_token(Token(name, ""), name == "$END")
                    except UnexpectedInput:
                        continue
                    accepts.add(name)
                allowed = accepts or allowed
            except (AttributeError, KeyError, TypeError):
                pass
            if allowed:
                message += f"; expected {_describe_expected(allowed)}"
    elif isinstance(err, UnexpectedEOF):
        message = f"unexpected end of file; expected {_describe_expected(set(err.expected))}"
    else:  # pragma: no cover - Lark has no other kinds
        message = str(err)
    hint = hint or hint_for(err, start, _parser(start).parse, text)
    return CardSyntaxError(message, Span(file, line, column), hint=hint)


def _check_size(text: str, span: Span, what: str) -> None:
    """Refuse a text longer than MAX_TEXT_CHARS, before Lark reads any of it."""
    if len(text) > MAX_TEXT_CHARS:
        raise CardSyntaxError(f"{what} is too large: {len(text):,} characters; card and rule text may hold "
                              f"at most {MAX_TEXT_CHARS:,}", span,
                              hint="split it into several files")


def _first_past_limit(tree: Tree) -> Tree | None:
    """The first node (in the order of the text) nested deeper than MAX_NESTING, or None.

    An explicit stack, not recursion, so that a tree of any depth is measured safely.
    """
    stack: list[tuple[Tree, int]] = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_NESTING:
            return node
        stack.extend((child, depth + 1) for child in reversed(node.children) if isinstance(child, Tree))
    return None


def _check_nesting(tree: Tree, transformer: ToAst) -> None:
    """Refuse a parse tree nested more than MAX_NESTING levels deep, at the node past the limit."""
    node = _first_past_limit(tree)
    if node is None:
        return
    raise CardSyntaxError(f"nested too deeply: at most {MAX_NESTING} levels", transformer._span(node.meta),
                          hint="each block, operator, call and list around code is a level, and so is each "
                               "operator of a long chain like a + b + c: compute parts with let, or move "
                               "them into a function or procedure")


def _transform(transformer: ToAst, tree):
    """The AST of a parse tree, once its nesting is within the limit."""
    _check_nesting(tree, transformer)
    try:
        return transformer.transform(tree)
    except VisitError as err:  # an error raised by the transformer (a reserved word as a name)
        if isinstance(err.orig_exc, CardrulesError):
            raise err.orig_exc from None
        raise


def _parse_at(text: str, file: str, start: str, line: int, column: int, indent_all: bool):
    """Parse text that starts at (line, column) of `file`; with indent_all every line of the text
    is indented by column - 1 in the file (a YAML literal block), else only the first."""
    _check_size(text, Span(file, line, column), "the code")
    if "\x00" in text:
        raise CardSyntaxError("the text is binary, not card text", Span(file, line, column))
    # the tree, parsed once per text and place (on disk: parsecache.py); a syntax error is never cached
    return cached_tree("at", (text, file, start, line, column, indent_all),
                       lambda: _parse_at_now(text, file, start, line, column, indent_all))


def _parse_at_now(text: str, file: str, start: str, line: int, column: int, indent_all: bool):
    other = column - 1 if indent_all else 0
    try:
        tree = _parser(start).parse(text)
    except UnexpectedInput as err:
        error = _syntax_error(err, file, start, text)
        span = error.span
        assert span is not None
        lines = text.split("\n")
        err_line, err_col = span.line, span.column
        if err_line > len(lines):  # past the end: point just after the last character
            err_line, err_col = len(lines), len(lines[-1]) + 1
        shift = column - 1 if err_line == 1 else other
        error.span = Span(file, err_line + line - 1, max(1, err_col + shift))
        raise error from None
    return _transform(ToAst(file, line - 1, column - 1, other), tree)


def parse(text: str, file: str = "<text>", start: str = "start") -> ast.Module:
    """Parse a card or rule code file into an `ast.Module` (or another start rule's node)."""
    if len(text) > MAX_TEXT_CHARS:  # quote no more of it than the start of its first line
        register_source(file, text[:120].split("\n", 1)[0])
        _check_size(text, Span(file, 1, 1), "the file")
    register_source(file, text)
    if "\x00" in text:
        raise CardSyntaxError("the file is binary, not card text", Span(file, 1, 1))
    return cached_tree("parse", (text, file, start), lambda: _parse_now(text, file, start))


def _parse_now(text: str, file: str, start: str) -> ast.Module:
    try:
        tree = _parser(start).parse(text)
    except UnexpectedInput as err:
        raise _syntax_error(err, file, start, text) from None
    return _transform(ToAst(file), tree)


def parse_embedded(text: str, file: str, line: int, column: int) -> ast.Module:
    """Parse a whole card/rule file embedded in a YAML literal block starting at (line, column)."""
    return _parse_at(text, file, "start", line, column, True)


def parse_expression(text: str, file: str = "<expr>", line: int = 1, column: int = 1) -> ast.Expr:
    """Parse one expression (the short code strings of rule files), located in its file."""
    return _parse_at(text, file, "expr_start", line, column, False)


def parse_block(text: str, file: str = "<code>", line: int = 1, column: int = 1,
                block_indent: bool = False) -> tuple[ast.Stmt, ...]:
    """Parse statements, as found in a rule file, reporting positions relative to the file.

    (line, column) is where the text starts in the file; with block_indent (a YAML literal
    block) every line of the text is indented by column - 1 in the file, not only the first.
    """
    return _parse_at(text, file, "block_start", line, column, block_indent)


# Words of the grammar that only appear inside a construct, where a name cannot stand: they stay
# usable as names (`let order = ...`, `x.at`).
CONTEXT_WORDS = frozenset({"order", "up", "at", "of", "by", "as", "with", "pay", "until", "desc", "ordered", "target",
                           "to", "when", "text", "card", "cards", "procedure", "function", "keyword", "part",
                           "effects", "removed", "leaves"})


@functools.cache
def reserved_words() -> frozenset[str]:
    """The keywords of the language (the quoted words of the grammar that can start or join
    statements and expressions): never names, so a misspelt construct cannot parse as calls."""
    return frozenset(re.findall(r'"([a-z_]+)"', grammar_text())) - CONTEXT_WORDS
