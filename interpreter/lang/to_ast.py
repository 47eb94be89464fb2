"""The parse tree to the AST: a Lark `Transformer` that builds `ast` nodes with spans (the shape
of Lark's `examples/advanced/create_ast.py`), and the reading of string literals.

parser.py builds the parser and calls this on what it parses; the limits and the keywords it
checks names and numbers against live there (imported when first needed: parser.py imports
this module).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lark import Token, Transformer, v_args

from ..errors import CardSyntaxError, Span
from . import ast
from .code_members import CodeMembers
from .interpolation import _unquote, joined, pieces_of


@dataclass(frozen=True)
class _ElseClause:
    """`else { ... }` of an `if` while it is read: its block and where the word `else` is."""

    body: tuple
    span: Span


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


class ToAst(CodeMembers, Transformer):
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
        from .parser import reserved_words

        if text in reserved_words():
            raise CardSyntaxError(f"'{text}' is a keyword of the language; it cannot be used as a name",
                                  self._token_span(token), hint="choose another name")
        return text

    def _int(self, token: Token) -> int:
        """The value of an integer literal, at most MAX_INT (its digits are counted before Python
        reads them: it cannot read more than 4,300)."""
        digits = str(token).lstrip("0") or "0"
        from .parser import MAX_INT, MAX_INT_EXPONENT

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
        start = self._token_span(token)
        return pieces_of(str(token)[1:-1], start.file, start.line, start.column + 1, "the name")

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
        name, params, text, body = children
        return ast.Procedure(str(name), tuple(params or ()), body, span=self._span(meta),
                             text=text[0] if text else None, text_span=text[1] if text else None)

    def procedure_text(self, children):
        return self._unquote(children[0]), self._token_span(children[0])

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
        at = self._token_span(op)
        op_span = Span(at.file, at.line, at.column, at.line, at.column + len(op))
        return ast.Assign(target, str(op), value, span=self._span(meta), op_span=op_span)

    @v_args(meta=True)
    def call_stmt(self, meta, children):
        return ast.CallStmt(children[0], span=self._span(meta))

    @v_args(meta=True)
    def if_stmt(self, meta, children):
        condition, body, *rest = children
        orelse = rest.pop() if rest else None
        whole = self._span(meta)
        # the first branch ends where the next clause starts (its own `}`), not with the whole `if`:
        # the formatter places a comment by the innermost node around it
        after = rest[0].span if rest else orelse.span if orelse is not None else None
        first = whole if after is None else Span(whole.file, whole.line, whole.column, after.line, after.column)
        branches = (ast.IfBranch(condition, body, span=first), *rest)
        return ast.If(tuple(branches), None if orelse is None else orelse.body, span=whole)

    @v_args(meta=True)
    def elif_clause(self, meta, children):
        return ast.IfBranch(children[0], children[1], span=self._span(meta))

    @v_args(meta=True)
    def else_clause(self, meta, children):
        return _ElseClause(children[0], self._span(meta))

    @v_args(meta=True)
    def for_stmt(self, meta, children):
        name, iterable, where, body = children
        if where is None:
            return ast.For(self._name(name), iterable, body, span=self._span(meta))
        # `for x in L where C { B }` is `for x in L { if C { B } }`: C is tested as each item is reached
        test = ast.If((ast.IfBranch(where, body, span=where.span),), None, span=where.span)
        return ast.For(self._name(name), iterable, (test,), span=self._span(meta), filtered=True)

    @v_args(meta=True)
    def repeat_stmt(self, meta, children):
        return ast.Repeat(children[0], children[1], span=self._span(meta))

    @v_args(meta=True)
    def repeat_until_stmt(self, meta, children):
        body, test = children
        span = self._span(meta)
        leave = ast.If((ast.IfBranch(test, (ast.Break(span=test.span),), span=test.span),), None, span=test.span)
        return ast.While(ast.BoolLit(True, span=span), (*body, leave), span=span, until=True)

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
    def reveal(self, meta, children):
        """`reveal CARDS [to PLAYERS]`: a call of the built-in procedure `reveal`, as `reveal(c)`
        always was (one node for both forms; the printer writes `to` back)."""
        cards, to = children
        span = self._span(meta)
        return ast.CallStmt(ast.Call("reveal", (cards,) if to is None else (cards, to), span=span), span=span)

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
        target, mode, amount, (until, leaves) = children
        return ast.ModifyUntil(target, str(mode), amount, until, span=self._span(meta), leaves=leaves)

    @v_args(meta=True)
    def grant_until(self, meta, children):
        if len(children) == 3:
            children = [children[0], None, *children[1:]]
        name, args, target, (until, leaves) = children
        return ast.GrantUntil(str(name), tuple(args or ()), target, until, span=self._span(meta), leaves=leaves)

    # a duration: (the event, or ""; the name of the card whose leaving ends it, or None)
    def until_event(self, children):
        return str(children[0]), None

    @v_args(meta=True)
    def until_leaves(self, meta, children):
        token = children[0]
        return "", ast.Name(self._name(token), span=self._token_span(token))

    def until_removed(self, children):
        return "", None

    @v_args(meta=True)
    def silence(self, meta, children):
        card, until = children
        return ast.Silence(card, str(until) if until is not None else None, span=self._span(meta))

    @v_args(meta=True)
    def remove_effects(self, meta, children):
        source, target = children
        return ast.RemoveEffects(source, target, span=self._span(meta))

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
        reason, value = self._reason(children[1])
        return ast.Win(children[0], reason, span=self._span(meta), reason_value=value)

    @v_args(meta=True)
    def lose(self, meta, children):
        reason, value = self._reason(children[1])
        return ast.Lose(children[0], reason, span=self._span(meta), reason_value=value)

    @v_args(meta=True)
    def tie(self, meta, children):
        reason, value = self._reason(children[0])
        return ast.Tie(reason, span=self._span(meta), reason_value=value)

    def _reason(self, token: Token | None) -> tuple[str | None, ast.Expr | None]:
        """A result's reason: its text as written, and the expression it is when it shows values
        (`"reached {p.score} points"`; else None)."""
        if token is None:
            return None, None
        text = self._unquote(token)
        if "{" not in text and "}" not in text:
            return text, None
        start = self._token_span(token)
        pieces = pieces_of(str(token)[1:-1], start.file, start.line, start.column + 1, "the reason")
        return text, joined(pieces, start) or ast.StrLit("".join(pieces), span=start)  # (braces only: `{{`)

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
