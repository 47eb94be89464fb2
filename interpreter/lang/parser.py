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

import ast as pyast
import functools
import re
from importlib import resources
from pathlib import Path

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

from ..errors import CardrulesError, CardSyntaxError, Span, register_source
from . import ast
from .parsecache import cached_tree, lark_parser
from .syntax_hints import hint_for

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


def _unquote(token: Token) -> str:
    text = pyast.literal_eval(str(token))
    if any("\ud800" <= c <= "\udfff" for c in text):  # (pairs only: `_bad_escape` refused the rest)
        text = text.encode("utf-16", "surrogatepass").decode("utf-16")
    return text


def _field_end(raw: str, i: int) -> int:
    """Where the value that starts at i of a template's name ends (its '}'), or -1: a '}' inside
    a string literal of the value does not end it."""
    quoted = False
    while i < len(raw):
        char = raw[i]
        if char == "\\" and i + 1 < len(raw):
            if raw[i + 1] == '"':
                quoted = not quoted
            i += 2
            continue
        if char == "}" and not quoted:
            return i
        i += 1
    return -1


def _unescape(raw: str) -> str:
    """The text of part of a string literal as written (its escapes read)."""
    return _unquote(Token("STRING", '"' + raw + '"'))


# An escape of a string literal: \UXXXXXXXX, \uXXXX, or a backslash and one character (\\ too).
_ESCAPE = re.compile(r"\\(?:U([0-9a-fA-F]{8})|u([0-9a-fA-F]{4})|.)")


def _bad_escape(text: str) -> re.Match | None:
    """The first escape of a string literal that names no character, or None: a \\U past
    U+10FFFF (the grammar takes any 8 hex digits; Python cannot read it), or a \\u or \\U of a
    lone surrogate (U+D800 to U+DFFF not in a high-low pair: no text file can hold it). A pair,
    as JSON writes characters past U+FFFF, reads as the character (`_unquote`)."""
    pending_high: re.Match | None = None  # a high surrogate waits for its low half, next
    for match in _ESCAPE.finditer(text):
        digits = match.group(1) or match.group(2)
        code = int(digits, 16) if digits is not None else None
        low = code is not None and 0xDC00 <= code <= 0xDFFF
        if pending_high is not None and not (low and match.start() == pending_high.end()):
            return pending_high
        if pending_high is not None:
            pending_high = None
            continue
        if code is not None and (code > 0x10FFFF or low):
            return match
        if code is not None and 0xD800 <= code <= 0xDBFF:
            pending_high = match
    return pending_high


# Words of the grammar that only appear inside a construct, where a name cannot stand: they stay
# usable as names (`let order = ...`, `x.at`).
CONTEXT_WORDS = frozenset({"order", "up", "at", "of", "by", "as", "with", "pay", "until", "desc", "ordered", "target",
                           "to", "when", "card", "cards", "procedure", "function", "keyword", "part"})


@functools.cache
def reserved_words() -> frozenset[str]:
    """The keywords of the language (the quoted words of the grammar that can start or join
    statements and expressions): never names, so a misspelt construct cannot parse as calls."""
    return frozenset(re.findall(r'"([a-z_]+)"', grammar_text())) - CONTEXT_WORDS


class ToAst(Transformer):
    """Turns the Lark parse tree into `ast` nodes with spans.

    line_offset and first_line_col_offset place code embedded in a rule file (a YAML string)
    at its real line and column in that file.
    """

    def __init__(self, file: str, line_offset: int = 0, first_line_col_offset: int = 0,
                 other_lines_col_offset: int = 0) -> None:
        super().__init__()
        self.file = file
        self.line_offset = line_offset
        self.col_offset = first_line_col_offset
        self.other_col_offset = other_lines_col_offset

    def _span(self, meta) -> Span:
        if getattr(meta, "empty", True):
            return Span(self.file, 0, 0)
        line = meta.line
        col = meta.column + (self.col_offset if line == 1 else self.other_col_offset)
        end_col = meta.end_column + (self.col_offset if meta.end_line == 1 else self.other_col_offset)
        return Span(self.file, line + self.line_offset, max(1, col), meta.end_line + self.line_offset, end_col)

    # --------------------------------------------------------------- files
    @v_args(meta=True)
    def start(self, meta, items):
        return ast.Module(tuple(items), span=self._span(meta))

    def block_start(self, items):
        return tuple(items)

    def expr_start(self, items):
        return items[0]

    def _token_span(self, token: Token) -> Span:
        """Where a token starts in the file."""
        line = token.line + self.line_offset
        column = token.column + (self.col_offset if token.line == 1 else self.other_col_offset)
        return Span(self.file, line, column)

    def _name(self, token) -> str:
        """A name the code introduces or uses: never a keyword of the language."""
        text = str(token)
        if text in reserved_words():
            raise CardSyntaxError(f"'{text}' is a keyword of the language; it cannot be used as a name",
                                  self._token_span(token), hint="choose another name")
        return text

    def _int(self, token: Token) -> int:
        """The value of an integer literal, at most MAX_INT (its digits are counted before Python
        reads them: it cannot read more than 4,300)."""
        digits = str(token).lstrip("0") or "0"
        if len(digits) > MAX_INT_EXPONENT + 1 or int(digits) > MAX_INT:
            raise CardSyntaxError(f"number too large: at most 10^{MAX_INT_EXPONENT}", self._token_span(token),
                                  hint="no count in a game comes near it")
        return int(digits)

    def _unquote(self, token: Token) -> str:
        """The text of a string literal; an escape that names no character is an error at it."""
        bad = _bad_escape(str(token))
        if bad is not None:
            span = self._token_span(token)
            raise CardSyntaxError(f"{bad.group()} is not a character", Span(span.file, span.line,
                                                                            span.column + bad.start()),
                                  hint="an escape names a Unicode character: at most \\U0010ffff, and none of "
                                       "the surrogates \\ud800 to \\udfff")
        return _unquote(token)

    @v_args(meta=True)
    def card(self, meta, children):
        name, type_name, *members = children
        attrs = tuple(m for m in members if isinstance(m, ast.AttrDef))
        keywords = tuple(m for m in members if isinstance(m, ast.KeywordUse))
        parts = tuple(m for m in members if isinstance(m, ast.Part))
        abilities = tuple(m for m in members if isinstance(m, (ast.Static, ast.Triggered, ast.Replacement, ast.Activated)))
        return ast.CardDef(self._unquote(name), str(type_name), attrs, keywords, parts, abilities, span=self._span(meta))

    @v_args(meta=True)
    def card_template(self, meta, children):
        loops = [c for c in children if isinstance(c, ast.TemplateLoop)]
        name, type_name, *members = children[len(loops):]
        names = [loop.var for loop in loops]
        for i, loop in enumerate(loops):
            if loop.var in names[:i]:
                raise CardSyntaxError(f"the template's loop name {loop.var!r} is used twice", loop.span,
                                      hint="give each loop a name of its own")
        return ast.CardTemplate(tuple(loops), self._unquote(name), self._pieces(name), str(type_name),
                                tuple(m for m in members if isinstance(m, ast.AttrDef)),
                                tuple(m for m in members if isinstance(m, ast.KeywordUse)),
                                tuple(m for m in members if isinstance(m, ast.Part)),
                                tuple(m for m in members if isinstance(m, (ast.Static, ast.Triggered, ast.Replacement,
                                                                           ast.Activated))),
                                span=self._span(meta))

    @v_args(meta=True)
    def template_loop(self, meta, children):
        return ast.TemplateLoop(self._name(children[0]), children[1], span=self._span(meta))

    def _pieces(self, token: Token) -> tuple[str | ast.Expr, ...]:
        """A template's name split into its texts and the expressions it shows: `{expr}` is a
        value, `{{` and `}}` are braces; each expression is located at its place in the string."""
        raw = str(token)[1:-1]
        start = self._token_span(token)
        pieces: list[str | ast.Expr] = []
        text, i = "", 0
        while i < len(raw):
            char = raw[i]
            if raw.startswith("{{", i) or raw.startswith("}}", i):
                text += char
                i += 2
            elif char == "{":
                end = _field_end(raw, i + 1)
                if end < 0:
                    raise CardSyntaxError("a '{' in the name opens a value that no '}' closes",
                                          Span(start.file, start.line, start.column + 1 + i),
                                          hint="write {{ for a brace in the name")
                if text:
                    pieces.append(_unescape(text))
                    text = ""
                field = raw[i + 1:end]
                if not field.strip():
                    raise CardSyntaxError("'{}' in the name shows nothing: put a value in it, like {n}",
                                          Span(start.file, start.line, start.column + 1 + i))
                pieces.append(_parse_at(_unescape(field), start.file, "expr_start", start.line,
                                        start.column + 2 + i, False))
                i = end + 1
            elif char == "}":
                raise CardSyntaxError("a '}' in the name closes no value", Span(start.file, start.line,
                                                                                start.column + 1 + i),
                                      hint="write }} for a brace in the name")
            else:
                text += raw[i:i + 2] if char == "\\" else char
                i += 2 if char == "\\" else 1
        if text:
            pieces.append(_unescape(text))
        return tuple(pieces)

    @v_args(meta=True)
    def attr_def(self, meta, children):
        return ast.AttrDef(str(children[0]), children[1], span=self._span(meta))

    @v_args(meta=True)
    def keyword_use(self, meta, children):
        name, args = children[0], (children[1] if len(children) > 1 else None)
        for a in args or ():
            if isinstance(a, ast.NamedArg):
                raise CardSyntaxError("a keyword takes its parameters in order, not by name",
                                      a.span, hint=f"write keyword {name}(...) with the values only")
        positional = tuple(a for a in (args or ()) if not isinstance(a, ast.NamedArg))
        return ast.KeywordUse(str(name), positional, span=self._span(meta))

    @v_args(meta=True)
    def part(self, meta, children):
        name, *items = children
        body = tuple(i for i in items if isinstance(i, ast.Stmt))
        abilities = tuple(i for i in items if not isinstance(i, ast.Stmt))
        return ast.Part(str(name), body, abilities, span=self._span(meta))

    @v_args(meta=True)
    def procedure(self, meta, children):
        name, params, body = children
        return ast.Procedure(str(name), tuple(params or ()), body, span=self._span(meta))

    @v_args(meta=True)
    def function(self, meta, children):
        name, params, body = children
        return ast.Function(str(name), tuple(params or ()), body, span=self._span(meta))

    @v_args(meta=True)
    def block_function(self, meta, children):
        name, params, body = children
        return ast.Function(str(name), tuple(params or ()), ast.BlockValue(body, span=self._span(meta)),
                            span=self._span(meta))

    @v_args(meta=True)
    def keyword_def(self, meta, children):
        name, params, *abilities = children
        return ast.KeywordDef(str(name), tuple(params or ()), tuple(abilities), span=self._span(meta))

    def modify_mode(self, children):
        return str(children[0])

    def params(self, children):
        names = [self._name(c) for c in children]
        for i, token in enumerate(children):  # (Python refuses a repeated parameter in the code made of it)
            if names[i] in names[:i]:
                raise CardSyntaxError(f"parameter {names[i]!r} is named twice", self._token_span(token),
                                      hint="give each parameter a name of its own")
        return names

    # --------------------------------------------------------------- abilities
    @v_args(meta=True)
    def static(self, meta, children):
        return ast.Static(tuple(children), span=self._span(meta))

    @v_args(meta=True)
    def static_modify(self, meta, children):
        target, mode, amount, condition = children
        return ast.StaticModify(target, str(mode), amount, condition, span=self._span(meta))

    @v_args(meta=True)
    def static_grant(self, meta, children):
        if len(children) == 3:  # no argument list: Lark leaves no placeholder for an inlined rule
            children = [children[0], None, *children[1:]]
        name, args, target, condition = children
        return ast.StaticGrant(str(name), tuple(args or ()), target, condition, span=self._span(meta))

    @v_args(meta=True)
    def triggered(self, meta, children):
        event, condition, body = children
        return ast.Triggered(str(event), condition, body, span=self._span(meta))

    @v_args(meta=True)
    def replacement(self, meta, children):
        event, condition, body = children
        return ast.Replacement(str(event), condition, body, span=self._span(meta))

    @v_args(meta=True)
    def activated(self, meta, children):
        label, cost, condition, target, body = children
        return ast.Activated(self._unquote(label) if label is not None else None, cost, condition, body, target,
                             span=self._span(meta))

    def ability_target(self, children):
        return children[0]

    # --------------------------------------------------------------- statements
    def block(self, children):
        return tuple(children)

    @v_args(meta=True)
    def let(self, meta, children):
        return ast.Let(self._name(children[0]), children[1], span=self._span(meta))

    @v_args(meta=True)
    def assign(self, meta, children):
        target, op, value = children
        return ast.Assign(target, str(op), value, span=self._span(meta))

    @v_args(meta=True)
    def call_stmt(self, meta, children):
        return ast.CallStmt(children[0], span=self._span(meta))

    @v_args(meta=True)
    def if_stmt(self, meta, children):
        condition, body, *rest = children
        orelse = rest.pop() if rest else None
        branches = (ast.IfBranch(condition, body, span=self._span(meta)), *rest)
        return ast.If(tuple(branches), orelse, span=self._span(meta))

    @v_args(meta=True)
    def elif_clause(self, meta, children):
        return ast.IfBranch(children[0], children[1], span=self._span(meta))

    @v_args(meta=True)
    def for_stmt(self, meta, children):
        return ast.For(self._name(children[0]), children[1], children[2], span=self._span(meta))

    @v_args(meta=True)
    def repeat_stmt(self, meta, children):
        return ast.Repeat(children[0], children[1], span=self._span(meta))

    @v_args(meta=True)
    def while_stmt(self, meta, children):
        return ast.While(children[0], children[1], span=self._span(meta))

    @v_args(meta=True)
    def move(self, meta, children):
        return ast.Move(children[0], children[1], children[2], span=self._span(meta))

    @v_args(meta=True)
    def create(self, meta, children):
        name, zone, *rest = children
        bind = rest.pop()
        attrs = tuple(a for a in rest if a is not None)
        return ast.Create(name, zone, attrs, str(bind) if bind is not None else None, span=self._span(meta))

    @v_args(meta=True)
    def shuffle(self, meta, children):
        return ast.Shuffle(children[0], span=self._span(meta))

    @v_args(meta=True)
    def emit(self, meta, children):
        name, kwargs = children
        return ast.Emit(str(name), tuple(kwargs or ()), span=self._span(meta))

    def kwargs(self, children):
        return list(children)

    @v_args(meta=True)
    def kwarg(self, meta, children):
        return ast.NamedArg(str(children[0]), children[1], span=self._span(meta))

    @v_args(meta=True)
    def attach(self, meta, children):
        return ast.Attach(children[0], children[1], span=self._span(meta))

    @v_args(meta=True)
    def detach(self, meta, children):
        return ast.Detach(children[0], span=self._span(meta))

    @v_args(meta=True)
    def delete(self, meta, children):
        return ast.Delete(children[0], span=self._span(meta))

    @v_args(meta=True)
    def modify_until(self, meta, children):
        target, mode, amount, until = children
        return ast.ModifyUntil(target, str(mode), amount, str(until), span=self._span(meta))

    @v_args(meta=True)
    def grant_until(self, meta, children):
        if len(children) == 3:
            children = [children[0], None, *children[1:]]
        name, args, target, until = children
        return ast.GrantUntil(str(name), tuple(args or ()), target, str(until), span=self._span(meta))

    @v_args(meta=True)
    def may(self, meta, children):
        label, chooser, body, orelse = children
        return ast.May(self._unquote(label) if label is not None else None, chooser, body, orelse, span=self._span(meta))

    @v_args(meta=True)
    def break_stmt(self, meta, children):
        return ast.Break(span=self._span(meta))

    @v_args(meta=True)
    def stop_stmt(self, meta, children):
        return ast.Stop(span=self._span(meta))

    @v_args(meta=True)
    def win(self, meta, children):
        return ast.Win(children[0], self._unquote(children[1]) if children[1] is not None else None, span=self._span(meta))

    @v_args(meta=True)
    def lose(self, meta, children):
        return ast.Lose(children[0], self._unquote(children[1]) if children[1] is not None else None, span=self._span(meta))

    @v_args(meta=True)
    def tie(self, meta, children):
        return ast.Tie(self._unquote(children[0]) if children[0] is not None else None, span=self._span(meta))

    @v_args(meta=True)
    def return_stmt(self, meta, children):
        return ast.Return(children[0], span=self._span(meta))

    # --------------------------------------------------------------- expressions
    @v_args(meta=True)
    def choose(self, meta, children):
        count_tree, label, source, chooser = children
        kind, count = "one", None
        if count_tree is not None:
            kind = {"choose_exactly": "exactly", "choose_up_to": "up_to", "choose_order": "order"}[count_tree.data]
            if count_tree.children:
                count = count_tree.children[0]
                if isinstance(count, Token):
                    count = ast.IntLit(self._int(count), span=self._span(meta))
        return ast.Choose(kind, count, self._unquote(label) if label is not None else None, source, chooser, span=self._span(meta))

    @v_args(meta=True)
    def select(self, meta, children):
        var, source, where, order_by, desc = children
        return ast.Select(self._name(var), source, where, order_by, desc is not None, span=self._span(meta))

    @v_args(meta=True)
    def or_op(self, meta, children):
        return ast.BinOp("or", children[0], children[1], span=self._span(meta))

    @v_args(meta=True)
    def and_op(self, meta, children):
        return ast.BinOp("and", children[0], children[1], span=self._span(meta))

    @v_args(meta=True)
    def not_op(self, meta, children):
        return ast.Not(children[0], span=self._span(meta))

    @v_args(meta=True)
    def compare(self, meta, children):
        return ast.BinOp(str(children[1]), children[0], children[2], span=self._span(meta))

    @v_args(meta=True)
    def binary(self, meta, children):
        return ast.BinOp(str(children[1]), children[0], children[2], span=self._span(meta))

    @v_args(meta=True)
    def contains(self, meta, children):
        return ast.BinOp("in", children[0], children[1], span=self._span(meta))

    @v_args(meta=True)
    def is_type(self, meta, children):
        return ast.IsType(children[0], str(children[1]), False, span=self._span(meta))

    @v_args(meta=True)
    def is_not_type(self, meta, children):
        return ast.IsType(children[0], str(children[1]), True, span=self._span(meta))

    @v_args(meta=True)
    def neg(self, meta, children):
        operand = children[0]
        return ast.Neg(operand, span=self._span(meta))

    @v_args(meta=True)
    def attribute(self, meta, children):
        return ast.Attribute(children[0], str(children[1]), span=self._span(meta))

    @v_args(meta=True)
    def index(self, meta, children):
        return ast.Index(children[0], children[1], span=self._span(meta))

    @v_args(meta=True)
    def int_lit(self, meta, children):
        return ast.IntLit(self._int(children[0]), span=self._span(meta))

    @v_args(meta=True)
    def str_lit(self, meta, children):
        return ast.StrLit(self._unquote(children[0]), span=self._span(meta))

    @v_args(meta=True)
    def true_lit(self, meta, children):
        return ast.BoolLit(True, span=self._span(meta))

    @v_args(meta=True)
    def false_lit(self, meta, children):
        return ast.BoolLit(False, span=self._span(meta))

    @v_args(meta=True)
    def none_lit(self, meta, children):
        return ast.NoneLit(span=self._span(meta))

    @v_args(meta=True)
    def name(self, meta, children):
        return ast.Name(self._name(children[0]), span=self._span(meta))

    @v_args(meta=True)
    def call(self, meta, children):
        name, args = children
        name = self._name(name)
        args = args or []
        positional = tuple(a for a in args if not isinstance(a, ast.NamedArg))
        named = tuple(a for a in args if isinstance(a, ast.NamedArg))
        return ast.Call(str(name), positional, named, span=self._span(meta))

    def args(self, children):
        return list(children)

    @v_args(meta=True)
    def named_arg(self, meta, children):
        return ast.NamedArg(str(children[0]), children[1], span=self._span(meta))

    @v_args(meta=True)
    def list_lit(self, meta, children):
        return ast.ListLit(tuple(c for c in children if c is not None), span=self._span(meta))

    @v_args(meta=True)
    def comprehension(self, meta, children):
        element, *clauses = children
        if len(clauses) == 1:
            only = clauses[0]
            return ast.Comprehension(element, only.var, only.source, only.condition, span=self._span(meta))
        return ast.MultiComprehension(element, tuple(clauses), span=self._span(meta))

    @v_args(meta=True)
    def comp_for(self, meta, children):
        var, source, condition = children
        return ast.ComprehensionClause(self._name(var), source, condition, span=self._span(meta))

    @v_args(meta=True)
    def conditional(self, meta, children):
        test, then, orelse = children
        return ast.Conditional(test, then, orelse, span=self._span(meta))

