"""The canonical printer: `to_source(node)` turns any AST node back into card-effect text.

The output is the one canonical layout of a program: 2-space indentation, one statement per
line, blocks in braces, card members in the order attributes, keywords, parts, abilities (a part
prints its statements, then its abilities), definitions separated by a blank line. A short card
stays on one line: a card (or card template) whose members are only attributes and keywords, each
printed on one line, when `card "Name" : type { member member ... }` fits in `LINE_WIDTH` (120)
columns; any other card has one member per line. Two one-line definitions next to each other may
go without the blank line (`to_source(module, tight=...)`; the formatter keeps a file's choice,
docs/language.md "Formatting"). Sub-expressions
get parentheses only where the precedence ladder of grammar/cardrules.lark needs them, so that
`parse(to_source(module)) == module` and printing is idempotent. Comments are not kept (the AST
has none).

Precedence, loosest first (the grammar's ladder):
    choose / all / if-then-else   or   and   not   comparison (== != < <= > >= in, is [not])   + -   * / %
    unary -   postfix (.attr [index])   atom
"""

from __future__ import annotations

from collections.abc import Callable

from . import ast
from .code_members import CALL

INDENT = "  "
LINE_WIDTH = 120  # a short card's one line may be this long (columns)

# Precedence levels: an expression printed where at least `level` is needed gets parentheses
# when its own level is lower.
EXPR, OR, AND, NOT, COMPARE, SUM, PRODUCT, UNARY, POSTFIX, ATOM = range(10)

_BINARY_LEVEL = {
    "or": OR,
    "and": AND,
    "==": COMPARE,
    "!=": COMPARE,
    "<": COMPARE,
    "<=": COMPARE,
    ">": COMPARE,
    ">=": COMPARE,
    "in": COMPARE,
    "+": SUM,
    "-": SUM,
    "*": PRODUCT,
    "/": PRODUCT,
    "%": PRODUCT,
}

# Operand levels (left, right) of each binary level: `or`, `and`, + - and * / % are left
# associative; comparisons do not chain (`sum COMP_OP sum`).
_OPERAND_LEVELS = {
    OR: (OR, AND),
    AND: (AND, NOT),
    COMPARE: (SUM, SUM),
    SUM: (SUM, PRODUCT),
    PRODUCT: (PRODUCT, UNARY),
}

_SIMPLE_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}


def quote(text: str) -> str:
    """A STRING literal for `text` that the parser reads back (`ast.literal_eval`) unchanged.

    JSON's escapes (\\" \\\\ \\n \\r \\t \\b \\f) plus \\uXXXX / \\UXXXXXXXX for any other
    character that is not printable (controls, lone surrogates); printable non-ASCII text stays
    as it is.
    """
    out = []
    for char in text:
        if char in _SIMPLE_ESCAPES:
            out.append(_SIMPLE_ESCAPES[char])
        elif char.isprintable():
            out.append(char)
        elif ord(char) <= 0xFFFF:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(f"\\U{ord(char):08x}")
    return '"' + "".join(out) + '"'


def to_source(node: ast.Node, tight: frozenset[int] | set[int] = frozenset()) -> str:
    """The canonical text of any AST node.

    A Module ends with a newline (an empty module is the empty string); any other node is
    printed without a trailing newline, nested blocks indented from column 1. `tight`: the
    indices of a module's items printed right under the item before them, without a blank line,
    when both are printed on one line (others are ignored).
    """
    if isinstance(node, ast.Module):
        if not node.items:
            return ""
        out: list[str] = []
        for i, item in enumerate(node.items):
            text = _definition(item)
            if i:
                out.append("\n" if i in tight and "\n" not in text and "\n" not in out[-1] else "\n\n")
            out.append(text)
        return "".join(out) + "\n"
    if isinstance(node, ast.Expr):
        return _expr(node)
    if isinstance(node, ast.Stmt):
        return _stmt(node, 0)
    printer = _NODE_PRINTERS.get(type(node))
    if printer is None:
        raise TypeError(f"to_source: not an AST node: {node!r}")
    return printer(node)


# ----------------------------------------------------------------- expressions
def level(node: ast.Expr) -> int:
    """The precedence level of an expression as printed (ATOM for the tightest)."""
    if isinstance(node, (ast.Choose, ast.Select, ast.Conditional)):
        return EXPR
    if isinstance(node, ast.BinOp):
        return _BINARY_LEVEL[node.op]
    if isinstance(node, ast.Not):
        return NOT
    if isinstance(node, ast.IsType):
        return COMPARE
    if isinstance(node, ast.Neg):
        return UNARY
    if isinstance(node, ast.IntLit) and node.value < 0:
        return UNARY  # not produced by the parser (it gives Neg(IntLit)); printed as -N
    if isinstance(node, (ast.Attribute, ast.Index)):
        return POSTFIX
    return ATOM


def _expr(node: ast.Expr, min_level: int = EXPR) -> str:
    text = _EXPR_PRINTERS[type(node)](node)
    if level(node) < min_level:
        return f"({text})"
    return text


def _int(node: ast.IntLit) -> str:
    return str(node.value)


def _str(node: ast.StrLit) -> str:
    return quote(node.value)


def _bool(node: ast.BoolLit) -> str:
    return "true" if node.value else "false"


def _none(node: ast.NoneLit) -> str:
    return "none"


def _name(node: ast.Name) -> str:
    return node.id


def _attribute(node: ast.Attribute) -> str:
    return f"{_expr(node.obj, POSTFIX)}.{node.name}"


def _index(node: ast.Index) -> str:
    return f"{_expr(node.obj, POSTFIX)}[{_expr(node.index)}]"


def _arg(node: ast.Expr | ast.NamedArg) -> str:
    if isinstance(node, ast.NamedArg):
        return _named_arg(node)
    return _expr(node)


def _named_arg(node: ast.NamedArg) -> str:
    return f"{node.name}: {_expr(node.value)}"


def _args(args, kwargs=()) -> str:
    return ", ".join([_arg(a) for a in args] + [_named_arg(k) for k in kwargs])


def _call(node: ast.Call) -> str:
    if node.func == CALL and node.args and isinstance(node.args[0], ast.Attribute):  # a card's code, called
        called = node.args[0]
        return f"{_expr(called.obj, POSTFIX)}.{called.name}({_args(node.args[1:], node.kwargs)})"
    return f"{node.func}({_args(node.args, node.kwargs)})"


def _list(node: ast.ListLit) -> str:
    return "[" + ", ".join(_expr(item) for item in node.items) + "]"


def _comprehension(node: ast.Comprehension) -> str:
    text = f"[{_expr(node.element)} for {node.var} in {_expr(node.source, OR)}"
    if node.condition is not None:
        text += f" if {_expr(node.condition, OR)}"
    return text + "]"


def _clause(node: ast.ComprehensionClause) -> str:
    text = f"for {node.var} in {_expr(node.source, OR)}"
    if node.condition is not None:
        text += f" if {_expr(node.condition, OR)}"
    return text


def _multi_comprehension(node: ast.MultiComprehension) -> str:
    return f"[{_expr(node.element)} " + " ".join(_clause(c) for c in node.clauses) + "]"


def _conditional(node: ast.Conditional) -> str:
    return f"if {_expr(node.test)} then {_expr(node.then)} else {_expr(node.orelse)}"


def _block_value(node: ast.BlockValue) -> str:
    return _block(node.body, 0)


def _open_choose(node: ast.Expr) -> bool:
    """Whether an expression ends with a `choose` without `by` (which a `by` after it would join)."""
    while isinstance(node, ast.Conditional):
        node = node.orelse
    return isinstance(node, ast.Choose) and node.chooser is None


def _select(node: ast.Select) -> str:
    text = f"all {node.var} in {_expr(node.source, OR)}"
    if node.where is not None:
        text += f" where {_expr(node.where, OR)}"
    if node.order_by is not None:
        text += f" ordered by {_expr(node.order_by, OR)}"
        if node.descending:
            text += " desc"
    return text


def _choose(node: ast.Choose) -> str:
    words = ["choose"]
    if node.kind in ("exactly", "up_to"):
        if node.kind == "up_to":
            words.append("up to")
        count = node.count
        if isinstance(count, ast.IntLit) and count.value >= 0:
            words.append(str(count.value))
        elif count is not None:
            words.append(f"({_expr(count)})")
    elif node.kind == "order":
        words.append("order")
    if node.label is not None:
        words.append(quote(node.label))
    source = node.source
    # `choose from choose from x by p`: the parser gives `by p` to the inner choose.
    needs_parens = node.chooser is not None and _open_choose(source)
    words.append("from")
    words.append(f"({_expr(source)})" if needs_parens else _expr(source))
    if node.chooser is not None:
        words.append(f"by {_expr(node.chooser, OR)}")
    return " ".join(words)


def _binop(node: ast.BinOp) -> str:
    left_level, right_level = _OPERAND_LEVELS[_BINARY_LEVEL[node.op]]
    return f"{_expr(node.left, left_level)} {node.op} {_expr(node.right, right_level)}"


def _not(node: ast.Not) -> str:
    return f"not {_expr(node.operand, NOT)}"


def _neg(node: ast.Neg) -> str:
    operand = _expr(node.operand, UNARY)
    return f"- {operand}" if operand.startswith("-") else f"-{operand}"


def _is_type(node: ast.IsType) -> str:
    return f"{_expr(node.operand, SUM)} is {'not ' if node.negated else ''}{node.type_name}"


_EXPR_PRINTERS: dict[type, Callable] = {
    ast.IntLit: _int,
    ast.StrLit: _str,
    ast.BoolLit: _bool,
    ast.NoneLit: _none,
    ast.Name: _name,
    ast.Attribute: _attribute,
    ast.Index: _index,
    ast.Call: _call,
    ast.ListLit: _list,
    ast.Comprehension: _comprehension,
    ast.MultiComprehension: _multi_comprehension,
    ast.Conditional: _conditional,
    ast.BlockValue: _block_value,
    ast.CodeValue: lambda node: (f"({', '.join(node.params)}) " + (_block_value(node.body) if isinstance(node.body, ast.BlockValue)
                                                                   else f"= {_expr(node.body)}")),
    ast.Select: _select,
    ast.Choose: _choose,
    ast.BinOp: _binop,
    ast.Not: _not,
    ast.Neg: _neg,
    ast.IsType: _is_type,
}


# ----------------------------------------------------------------- statements
def _block(body: tuple[ast.Stmt, ...], depth: int) -> str:
    """`{ ... }` with the statements one per line at depth + 1; `{}` when empty."""
    if not body:
        return "{}"
    lines = _stmt_lines(body, depth + 1)
    return "{\n" + "\n".join(lines) + "\n" + INDENT * depth + "}"


def _stmt_lines(body: tuple[ast.Stmt, ...], depth: int) -> list[str]:
    """The statements of a block, each indented, guarded against running into each other.

    The grammar has no statement separator, so a statement that ends with an expression
    swallows a next statement that starts with '[' (an index) or '(' after a name (a call), and
    `win p` / `lose p` / `tie` swallow a next statement that starts with a string (the reason).
    Such a next statement starts with its first operand in parentheses, and the statement
    before it ends with its last expression in parentheses.
    """
    count = len(body)
    guard_start = [False] * count
    for i in range(1, count):
        lead = _lead(body[i])
        previous = body[i - 1]
        if (lead == "[" and _ends_with_expr(previous)) or (lead == "string" and _takes_string(previous)):
            guard_start[i] = True
    guard_end = [False] * count
    for i in range(count - 2, -1, -1):
        following = body[i + 1]
        next_starts_paren = (
            guard_start[i + 1]
            or (guard_end[i + 1] and _is_operand_stmt(following))
            or _lead(following) == "("
        )
        if next_starts_paren and _ends_with_expr(body[i]):
            guard_end[i] = True
    return [INDENT * depth + _stmt(s, depth, guard_start[i], guard_end[i]) for i, s in enumerate(body)]


def _is_operand_stmt(node: ast.Stmt) -> bool:
    """A statement that is a bare expression (its last expression is also its first)."""
    return isinstance(node, ast.CallStmt)


def _operand_base(node: ast.Expr) -> ast.Expr:
    while isinstance(node, (ast.Attribute, ast.Index)):
        node = node.obj
    return node


def _lead(node: ast.Stmt) -> str | None:
    """How a statement's text starts when it starts with an operand: '[', '(' or 'string'."""
    if isinstance(node, ast.CallStmt):
        first = node.call
    elif isinstance(node, ast.Assign):
        first = node.target
    else:
        return None
    if level(first) < POSTFIX:
        return "("
    base = _operand_base(first)
    if level(base) < POSTFIX:
        return "("
    if isinstance(base, (ast.ListLit, ast.Comprehension, ast.MultiComprehension)):
        return "["
    if isinstance(base, ast.StrLit):
        return "string"
    return None


def _ends_with_expr(node: ast.Stmt) -> bool:
    """Whether a statement's text ends with an expression (which a '[' or '(' could extend)."""
    if isinstance(node, ast.Create):
        return not node.attrs and node.bind is None
    if isinstance(node, (ast.Win, ast.Lose)):
        return node.reason is None
    if isinstance(node, ast.While):
        return node.until  # (`repeat { ... } until TEST`)
    return isinstance(
        node, (ast.Let, ast.Assign, ast.CallStmt, ast.Move, ast.Shuffle, ast.Attach, ast.Detach, ast.Delete,
               ast.Return, ast.RemoveEffects)
    ) or isinstance(node, ast.Silence) and node.until is None


def _duration(node: ast.ModifyUntil | ast.GrantUntil) -> str:
    """How long a modifier or grant lasts, as written after `until`."""
    if node.until:
        return node.until
    return "removed" if node.leaves is None else f"{_expr(node.leaves)} leaves"


def _takes_string(node: ast.Stmt) -> bool:
    """Whether a string right after this statement would be read as its reason."""
    return isinstance(node, (ast.Win, ast.Lose, ast.Tie)) and node.reason is None


def _guarded_operand(node: ast.Expr) -> str:
    """A postfix expression with its innermost operand in parentheses: `("a").b`, `([1])[0]`."""
    if isinstance(node, ast.Attribute):
        return f"{_guarded_operand(node.obj)}.{node.name}"
    if isinstance(node, ast.Index):
        return f"{_guarded_operand(node.obj)}[{_expr(node.index)}]"
    return f"({_expr(node)})"


def _stmt(node: ast.Stmt, depth: int, guard_start: bool = False, guard_end: bool = False) -> str:
    """One statement (first line not indented). guard_start/guard_end: see `_stmt_lines`."""

    def tail(expr: ast.Expr) -> str:
        return f"({_expr(expr)})" if guard_end else _expr(expr)

    if isinstance(node, ast.Let):
        return f"let {node.name} = {tail(node.value)}"
    if isinstance(node, ast.Assign):
        target = _guarded_operand(node.target) if guard_start else _expr(node.target, POSTFIX)
        return f"{target} {node.op} {tail(node.value)}"
    if isinstance(node, ast.CallStmt):
        call = node.call
        if isinstance(call, ast.Call) and call.func == "reveal" and len(call.args) == 2:  # (only written so)
            return f"reveal {_expr(call.args[0])} to {tail(call.args[1])}"
        if guard_end:
            return f"({_expr(node.call)})"
        return _guarded_operand(node.call) if guard_start else _expr(node.call, POSTFIX)
    if isinstance(node, ast.If):
        first, *others = node.branches
        text = f"if {_expr(first.condition)} {_block(first.body, depth)}"
        for branch in others:
            text += f" elif {_expr(branch.condition)} {_block(branch.body, depth)}"
        if node.orelse is not None:
            text += f" else {_block(node.orelse, depth)}"
        return text
    if isinstance(node, ast.For):
        where = node.filtered_parts()
        if where is not None:
            return f"for {node.var} in {_expr(node.iterable)} where {_expr(where[0])} {_block(where[1], depth)}"
        return f"for {node.var} in {_expr(node.iterable)} {_block(node.body, depth)}"
    if isinstance(node, ast.Repeat):
        return f"repeat {_expr(node.count)} {_block(node.body, depth)}"
    if isinstance(node, ast.While):
        until = node.until_parts()
        if until is not None:
            return f"repeat {_block(until[0], depth)} until {tail(until[1])}"
        return f"while {_expr(node.condition)} {_block(node.body, depth)}"
    if isinstance(node, ast.Move):
        if node.position is None:
            return f"move {_expr(node.card)} to {tail(node.zone)}"
        return f"move {_expr(node.card)} to {_expr(node.zone)} at {tail(node.position)}"
    if isinstance(node, ast.Create):
        text = f"create {_expr(node.card_name, SUM)} in {tail(node.zone)}"
        if node.attrs:
            text += " with { " + " ".join(_attr_def(a) for a in node.attrs) + " }"
        if node.bind is not None:
            text += f" as {node.bind}"
        return text
    if isinstance(node, ast.Shuffle):
        return f"shuffle {tail(node.zone)}"
    if isinstance(node, ast.Emit):
        return f"emit {node.event}({_args((), node.args)})"
    if isinstance(node, ast.Attach):
        return f"attach {_expr(node.card)} to {tail(node.target)}"
    if isinstance(node, ast.Detach):
        return f"detach {tail(node.card)}"
    if isinstance(node, ast.Delete):
        return f"delete {tail(node.card)}"
    if isinstance(node, ast.ModifyUntil):
        return f"modify {_expr(node.target, POSTFIX)} {node.mode} {_expr(node.amount)} until {_duration(node)}"
    if isinstance(node, ast.GrantUntil):
        return f"grant {_keyword_ref(node.keyword, node.args)} to {_expr(node.target)} until {_duration(node)}"
    if isinstance(node, ast.Silence):
        if node.until is None:
            return f"silence {tail(node.card)}"
        return f"silence {_expr(node.card)} until {node.until}"
    if isinstance(node, ast.RemoveEffects):
        text = "remove effects"
        if node.source is not None:
            text += f" of {_expr(node.source, SUM)}" if node.target is not None or not guard_end else \
                f" of ({_expr(node.source)})"
        if node.target is not None:
            text += f" from ({_expr(node.target)})" if guard_end else f" from {_expr(node.target, SUM)}"
        return text
    if isinstance(node, ast.May):
        text = "may"
        if node.label is not None:
            text += " " + quote(node.label)
        if node.chooser is not None:
            text += f" by {_expr(node.chooser)}"
        text += " " + _block(node.body, depth)
        if node.orelse is not None:
            text += " else " + _block(node.orelse, depth)
        return text
    if isinstance(node, ast.Break):
        return "break"
    if isinstance(node, ast.Stop):
        return "stop"
    if isinstance(node, (ast.Win, ast.Lose)):
        word = "win" if isinstance(node, ast.Win) else "lose"
        if node.reason is None:
            return f"{word} {tail(node.player)}"
        return f"{word} {_expr(node.player)} {quote(node.reason)}"
    if isinstance(node, ast.Tie):
        return "tie" if node.reason is None else f"tie {quote(node.reason)}"
    if isinstance(node, ast.Return):
        return f"return {tail(node.value)}"
    raise TypeError(f"to_source: not a statement: {node!r}")


def _keyword_ref(name: str, args: tuple) -> str:
    """`name` or `name(args)` for keyword uses and grants (no parentheses without arguments)."""
    return f"{name}({_args(args)})" if args else name


# ----------------------------------------------------------------- abilities
def _condition(condition: ast.Expr | None, word: str = "if") -> str:
    return "" if condition is None else f" {word} {_expr(condition)}"


def _static_effect(node: ast.StaticModify | ast.StaticGrant) -> str:
    if isinstance(node, ast.StaticModify):
        return (f"modify {_expr(node.target, POSTFIX)} {node.mode} {_expr(node.amount)}"
                f"{_condition(node.condition, 'when')}")
    return f"grant {_keyword_ref(node.keyword, node.args)} to {_expr(node.target)}{_condition(node.condition, 'when')}"


def _ability(node: ast.Node, depth: int) -> str:
    if isinstance(node, ast.Static):
        if len(node.effects) == 1:
            return "static " + _static_effect(node.effects[0])
        if not node.effects:
            return "static {}"
        inner = "\n".join(INDENT * (depth + 1) + _static_effect(e) for e in node.effects)
        return "static {\n" + inner + "\n" + INDENT * depth + "}"
    if isinstance(node, ast.Triggered):
        return f"on {node.event}{_condition(node.condition)} {_block(node.body, depth)}"
    if isinstance(node, ast.Replacement):
        return f"instead of {node.event}{_condition(node.condition)} {_block(node.body, depth)}"
    if isinstance(node, ast.Activated):
        text = "activate"
        if node.label is not None:
            text += " " + quote(node.label)
        if node.cost is not None:
            text += f" pay {_expr(node.cost)}"
        target = f" target {_block(node.target, depth)}" if node.target is not None else ""
        return f"{text}{_condition(node.condition)}{target} {_block(node.body, depth)}"
    raise TypeError(f"to_source: not an ability: {node!r}")


# ----------------------------------------------------------------- definitions
def _attr_def(node: ast.AttrDef, depth: int = 0) -> str:
    if isinstance(node.value, ast.CodeValue):  # code on a card: `aims(t) = ...`, or a block
        code = node.value
        if isinstance(code.body, ast.BlockValue):
            return f"{node.name}({', '.join(code.params)}) {_block(code.body.body, depth)}"
        return f"{node.name}({', '.join(code.params)}) = {_expr(code.body)}"
    return f"{node.name} = {_expr(node.value)}"


def _keyword_use(node: ast.KeywordUse) -> str:
    return "keyword " + _keyword_ref(node.name, node.args)


def _members(lines: list[str]) -> str:
    if not lines:
        return "{}"
    return "{\n" + "\n".join(lines) + "\n}"


def _card_members(head: str, node: ast.CardDef | ast.CardTemplate) -> str:
    """A card's `head {members}`: on one line when it is short (attributes and keywords only,
    each on one line, the whole within LINE_WIDTH), else one member per line."""
    if not node.parts and not node.abilities and not any(isinstance(a.value, ast.CodeValue) for a in node.attrs):
        members = [_attr_def(a) for a in node.attrs] + [_keyword_use(k) for k in node.keywords]
        line = f"{head} {{ {' '.join(members)} }}" if members else f"{head} {{}}"
        if len(line) <= LINE_WIDTH and "\n" not in line:
            return line
    lines = [INDENT + _attr_def(a, 1) for a in node.attrs]
    lines += [INDENT + _keyword_use(k) for k in node.keywords]
    lines += [INDENT + _part(p, 1) for p in node.parts]
    lines += [INDENT + _ability(a, 1) for a in node.abilities]
    return f"{head} {_members(lines)}"


def _part(node: ast.Part, depth: int) -> str:
    lines = _stmt_lines(node.body, depth + 1)
    lines += [INDENT * (depth + 1) + _ability(a, depth + 1) for a in node.abilities]
    if not lines:
        return f"part {node.name} {{}}"
    return f"part {node.name} {{\n" + "\n".join(lines) + "\n" + INDENT * depth + "}"


def _definition(node: ast.Node) -> str:
    if isinstance(node, ast.CardDef):
        return _card_members(f"card {quote(node.name)} : {node.type}", node)
    if isinstance(node, ast.Procedure):
        text = f" text {quote(node.text)}" if node.text is not None else ""
        return f"procedure {node.name}({', '.join(node.params)}){text} {_block(node.body, 0)}"
    if isinstance(node, ast.Function):
        if isinstance(node.body, ast.BlockValue):
            return f"function {node.name}({', '.join(node.params)}) {_block(node.body.body, 0)}"
        return f"function {node.name}({', '.join(node.params)}) = {_expr(node.body)}"
    if isinstance(node, ast.CardTemplate):
        loops = ", ".join(_template_loop(loop) for loop in node.loops)
        return _card_members(f"cards for {loops}: {quote(node.name)} : {node.type}", node)
    if isinstance(node, ast.KeywordDef):
        params = f"({', '.join(node.params)})" if node.params else ""
        lines = [INDENT + _ability(a, 1) for a in node.abilities]
        return f"keyword {node.name}{params} {_members(lines)}"
    raise TypeError(f"to_source: not a definition: {node!r}")


def _template_loop(node: ast.TemplateLoop) -> str:
    return f"{node.var} in {_expr(node.source, OR)}"


def _if_branch(node: ast.IfBranch) -> str:
    return f"if {_expr(node.condition)} {_block(node.body, 0)}"


_NODE_PRINTERS: dict[type, Callable] = {
    ast.NamedArg: _named_arg,
    ast.AttrDef: _attr_def,
    ast.IfBranch: _if_branch,
    ast.KeywordUse: _keyword_use,
    ast.StaticModify: _static_effect,
    ast.StaticGrant: _static_effect,
    ast.Static: lambda node: _ability(node, 0),
    ast.Triggered: lambda node: _ability(node, 0),
    ast.Replacement: lambda node: _ability(node, 0),
    ast.Activated: lambda node: _ability(node, 0),
    ast.Part: lambda node: _part(node, 0),
    ast.CardDef: _definition,
    ast.CardTemplate: _definition,
    ast.TemplateLoop: _template_loop,
    ast.ComprehensionClause: _clause,
    ast.Procedure: _definition,
    ast.Function: _definition,
    ast.KeywordDef: _definition,
}
