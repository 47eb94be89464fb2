"""Each construct of grammar/cardrules.lark parses to the expected AST node, with its span.

Nodes compare without their spans (ast.py), so each test states the whole expected node; the
span tests check line and column separately, also for code embedded in a rule file
(`parse_block` / `parse_expression` with a line and column offset).
"""

from __future__ import annotations

import pytest

from interpreter.errors import CardSyntaxError, Span
from interpreter.lang import ast
from interpreter.lang.ast import (
    Activated,
    Assign,
    Attach,
    AttrDef,
    Attribute,
    BinOp,
    BoolLit,
    Break,
    Call,
    CallStmt,
    CardDef,
    Choose,
    Comprehension,
    Create,
    Delete,
    Detach,
    Emit,
    For,
    Function,
    GrantUntil,
    If,
    IfBranch,
    Index,
    IntLit,
    IsType,
    KeywordDef,
    KeywordUse,
    Let,
    ListLit,
    Lose,
    May,
    ModifyUntil,
    Move,
    Name,
    NamedArg,
    Neg,
    NoneLit,
    Not,
    Part,
    Procedure,
    Repeat,
    Replacement,
    Select,
    Shuffle,
    Static,
    StaticGrant,
    StaticModify,
    Stop,
    StrLit,
    Tie,
    Triggered,
    While,
    Win,
)
from interpreter.lang.parser import parse, parse_block, parse_expression

a, b, c, x, p = Name("a"), Name("b"), Name("c"), Name("x"), Name("p")


def expr(text: str) -> ast.Expr:
    return parse_expression(text)


def stmt(text: str) -> ast.Stmt:
    (only,) = parse_block(text)
    return only


def item(text: str) -> ast.Node:
    (only,) = parse(text).items
    return only


# ----------------------------------------------------------------- files and definitions
def test_empty_and_comment_only_files_are_empty_modules():
    assert parse("") == ast.Module(())
    assert parse("  \n\t\n# only a comment\n") == ast.Module(())


def test_card_members_are_sorted_by_kind():
    card = item(
        """
        card "Ember Drake" : creature {
          cost = 3
          on enter { draw(you, 1) }
          keyword flying()
          part top { stop }
          attack = 2 + 1
          keyword aura(1)
          static modify self.attack by 1
        }
        """
    )
    assert card == CardDef(
        name="Ember Drake",
        type="creature",
        attrs=(AttrDef("cost", IntLit(3)), AttrDef("attack", BinOp("+", IntLit(2), IntLit(1)))),
        keywords=(KeywordUse("flying", ()), KeywordUse("aura", (IntLit(1),))),
        parts=(Part("top", (Stop(),), ()),),
        abilities=(
            Triggered("enter", None, (CallStmt(Call("draw", (Name("you"), IntLit(1)))),)),
            Static((StaticModify(Attribute(Name("self"), "attack"), "by", IntLit(1), None),)),
        ),
    )


def test_empty_card():
    assert item('card "Monster" : creature { }') == CardDef("Monster", "creature", (), (), (), ())


def test_part_splits_statements_from_abilities():
    card = item('card "c" : t { part top { let n = 1  on hit { n += 1 }  move self to hand(you) } }')
    assert card.parts == (
        Part(
            "top",
            (Let("n", IntLit(1)), Move(Name("self"), Call("hand", (Name("you"),)), None)),
            (Triggered("hit", None, (Assign(Name("n"), "+=", IntLit(1)),)),),
        ),
    )


def test_card_name_escapes():
    assert item(r'card "Say \"hi\" \\ é" : t { }').name == 'Say "hi" \\ é'


def test_procedure():
    assert item("procedure draw_cards(p, n) { repeat n { draw(p) } }") == Procedure(
        "draw_cards", ("p", "n"), (Repeat(Name("n"), (CallStmt(Call("draw", (p,))),)),)
    )
    assert item("procedure noop() { }") == Procedure("noop", (), ())


def test_function():
    assert item("function opponent(p) = first(others(p))") == Function(
        "opponent", ("p",), Call("first", (Call("others", (p,)),))
    )
    assert item("function zero() = 0") == Function("zero", (), IntLit(0))


def test_keyword_definition():
    assert item("keyword shield { }") == KeywordDef("shield", (), ())
    assert item("keyword aura(k, n) { static grant k() to self }") == KeywordDef(
        "aura", ("k", "n"), (Static((StaticGrant("k", (), Name("self"), None),)),)
    )
    assert item("keyword k() { }") == KeywordDef("k", (), ())


def test_several_definitions_in_order():
    module = parse('function f() = 1\ncard "c" : t { }\nkeyword k { }\nprocedure q() { }')
    assert [type(i).__name__ for i in module.items] == ["Function", "CardDef", "KeywordDef", "Procedure"]


@pytest.mark.parametrize(
    "source",
    [
        'card "c" : t { keyword flying }',
        "keyword k { static grant flying to self }",
        "procedure q() { grant flying to self until end }",
    ],
)
def test_bare_keyword_reference_is_an_empty_argument_list(source: str):
    with_parens = source.replace("flying", "flying()")
    assert parse(source) == parse(with_parens)


# ----------------------------------------------------------------- abilities
def test_static_modify_and_grant():
    keyword = item(
        """keyword k {
          static modify self.attack by 2 when self.ready
          static modify self.life to 1
          static { modify self.a by -1 grant flying(1, n: 2) to self.owner when x }
          static { }
        }"""
    )
    me = Name("self")
    assert keyword.abilities == (
        Static((StaticModify(Attribute(me, "attack"), "by", IntLit(2), Attribute(me, "ready")),)),
        Static((StaticModify(Attribute(me, "life"), "to", IntLit(1), None),)),
        Static(
            (
                StaticModify(Attribute(me, "a"), "by", Neg(IntLit(1)), None),
                StaticGrant("flying", (IntLit(1), NamedArg("n", IntLit(2))), Attribute(me, "owner"), x),
            )
        ),
        Static(()),
    )


def test_triggered_replacement_activated():
    keyword = item(
        """keyword k {
          on damaged if event.amount > 0 { stop }
          on round_end { }
          instead of damage if event.target == self { break }
          instead of draw { }
          activate "Boost" pay 2 if self.ready { stop }
          activate { }
        }"""
    )
    assert keyword.abilities == (
        Triggered("damaged", BinOp(">", Attribute(Name("event"), "amount"), IntLit(0)), (Stop(),)),
        Triggered("round_end", None, ()),
        Replacement("damage", BinOp("==", Attribute(Name("event"), "target"), Name("self")), (Break(),)),
        Replacement("draw", None, ()),
        Activated("Boost", IntLit(2), Attribute(Name("self"), "ready"), (Stop(),)),
        Activated(None, None, None, ()),
    )


# ----------------------------------------------------------------- statements
@pytest.mark.parametrize(
    "source, expected",
    [
        ("let n = 1", Let("n", IntLit(1))),
        ("x = 1", Assign(x, "=", IntLit(1))),
        ("p.health -= 2", Assign(Attribute(p, "health"), "-=", IntLit(2))),
        ("p.cards[1] += n", Assign(Index(Attribute(p, "cards"), IntLit(1)), "+=", Name("n"))),
        ("draw(p, 2)", CallStmt(Call("draw", (p, IntLit(2))))),
        ("p.ready", CallStmt(Attribute(p, "ready"))),
        ("for c in hand(p) { delete c }", For("c", Call("hand", (p,)), (Delete(c),))),
        ("repeat 3 { }", Repeat(IntLit(3), ())),
        ("while a and b { break }", While(BinOp("and", a, b), (Break(),))),
        ("move c to hand(p)", Move(c, Call("hand", (p,)), None)),
        ("move c to deck(p) at 1", Move(c, Call("deck", (p,)), IntLit(1))),
        ('create "Soldier" in field(p)', Create(StrLit("Soldier"), Call("field", (p,)), (), None)),
        (
            "create kind in field(p) with { attack = 2 life = n } as token",
            Create(Name("kind"), Call("field", (p,)), (AttrDef("attack", IntLit(2)), AttrDef("life", Name("n"))),
                   "token"),
        ),
        ("create a + b in z", Create(BinOp("+", a, b), Name("z"), (), None)),
        ("shuffle deck(p)", Shuffle(Call("deck", (p,)))),
        ("emit resolution()", Emit("resolution", ())),
        ("emit hit(card: c, amount: 2)", Emit("hit", (NamedArg("card", c), NamedArg("amount", IntLit(2))))),
        ("attach c to p", Attach(c, p)),
        ("detach c", Detach(c)),
        ("delete c", Delete(c)),
        ("modify c.attack by 2 until round_end", ModifyUntil(Attribute(c, "attack"), "by", IntLit(2), "round_end")),
        ("modify c.attack to n until turn_end", ModifyUntil(Attribute(c, "attack"), "to", Name("n"), "turn_end")),
        ("grant flying() to c until turn_end", GrantUntil("flying", (), c, "turn_end")),
        ("grant aura(2) to c until end", GrantUntil("aura", (IntLit(2),), c, "end")),
        ("may { stop }", May(None, None, (Stop(),), None)),
        ('may "draw a card" by p { draw(p) } else { }', May("draw a card", p, (CallStmt(Call("draw", (p,))),), ())),
        ("break", Break()),
        ("stop", Stop()),
        ("win p", Win(p, None)),
        ('win p "last one standing"', Win(p, "last one standing")),
        ('lose p "no cards"', Lose(p, "no cards")),
        ("tie", Tie(None)),
        ('tie "time"', Tie("time")),
    ],
)
def test_statement(source: str, expected: ast.Stmt):
    assert stmt(source) == expected


def test_if_elif_else():
    assert stmt("if a { stop } elif b { break } elif c { } else { x() }") == If(
        (IfBranch(a, (Stop(),)), IfBranch(b, (Break(),)), IfBranch(c, ())),
        (CallStmt(Call("x")),),
    )
    assert stmt("if a { }") == If((IfBranch(a, ()),), None)
    assert stmt("if a { } else { }") == If((IfBranch(a, ()),), ())


def test_statements_need_no_separator():
    assert parse_block("let a = 1 let b = 2\nx()") == (Let("a", IntLit(1)), Let("b", IntLit(2)), CallStmt(Call("x")))


def test_comments_are_ignored():
    assert parse_block("let a = 1 # the first\n# a line\nstop # done") == (Let("a", IntLit(1)), Stop())


# ----------------------------------------------------------------- expressions
@pytest.mark.parametrize(
    "source, expected",
    [
        ("0", IntLit(0)),
        ("0042", IntLit(42)),
        ("1000000000000000", IntLit(10**15)),  # the largest literal (MAX_INT)
        ('""', StrLit("")),
        (r'"a \"b\" \\ \n\t \u00e9"', StrLit('a "b" \\ \n\t é')),
        ('"é ✓ 🂡"', StrLit("é ✓ 🂡")),
        ("true", BoolLit(True)),
        ("false", BoolLit(False)),
        ("none", NoneLit()),
        ("self", Name("self")),
        ("_x1", Name("_x1")),
        ("a.b.c", Attribute(Attribute(a, "b"), "c")),
        ("a[1][b]", Index(Index(a, IntLit(1)), b)),
        ("a.b[1].c", Attribute(Index(Attribute(a, "b"), IntLit(1)), "c")),
        ("f()", Call("f")),
        ("f(a, b)", Call("f", (a, b))),
        ("f(a, k: b, c)", Call("f", (a, c), (NamedArg("k", b),))),
        ("f(a).b", Attribute(Call("f", (a,)), "b")),
        ("[]", ListLit(())),
        ("[a, [b], 1]", ListLit((a, ListLit((b,)), IntLit(1)))),
        ("[c.x for c in a]", Comprehension(Attribute(c, "x"), "c", a, None)),
        ("[c for c in a or b if c.ready]", Comprehension(c, "c", BinOp("or", a, b), Attribute(c, "ready"))),
        ("(a)", a),
        ("((a))", a),
    ],
)
def test_atoms_and_postfix(source: str, expected: ast.Expr):
    assert expr(source) == expected


@pytest.mark.parametrize(
    "source, expected",
    [
        ("all c in a", Select("c", a, None, None, False)),
        ("all c in hand(p) where c.cost < 3", Select("c", Call("hand", (p,)), BinOp("<", Attribute(c, "cost"), IntLit(3)), None, False)),
        ("all c in a ordered by c.n", Select("c", a, None, Attribute(c, "n"), False)),
        ("all c in a where c ordered by c.n desc", Select("c", a, c, Attribute(c, "n"), True)),
        ("all c in a + b where c and x", Select("c", BinOp("+", a, b), BinOp("and", c, x), None, False)),
    ],
)
def test_select(source: str, expected: ast.Expr):
    assert expr(source) == expected


@pytest.mark.parametrize(
    "source, expected",
    [
        ("choose from a", Choose("one", None, None, a, None)),
        ('choose "a target" from a by p', Choose("one", None, "a target", a, p)),
        ("choose 2 from a", Choose("exactly", IntLit(2), None, a, None)),
        ("choose (2) from a", Choose("exactly", IntLit(2), None, a, None)),
        ("choose (n - 1) from a", Choose("exactly", BinOp("-", Name("n"), IntLit(1)), None, a, None)),
        ('choose up to 3 "cards" from a by p', Choose("up_to", IntLit(3), "cards", a, p)),
        ("choose up to (n) from a", Choose("up_to", Name("n"), None, a, None)),
        ("choose order from a", Choose("order", None, None, a, None)),
        ("choose from all c in a where c by p", Choose("one", None, None, Select("c", a, c, None, False), p)),
        ("choose from a by p or x", Choose("one", None, None, a, BinOp("or", p, x))),
        # the grammar gives `by` to the innermost choose
        ("choose from choose from a by p", Choose("one", None, None, Choose("one", None, None, a, p), None)),
    ],
)
def test_choose(source: str, expected: ast.Expr):
    assert expr(source) == expected


@pytest.mark.parametrize(
    "source, expected",
    [
        ("a or b or c", BinOp("or", BinOp("or", a, b), c)),
        ("a and b or c", BinOp("or", BinOp("and", a, b), c)),
        ("a or b and c", BinOp("or", a, BinOp("and", b, c))),
        ("not a and b", BinOp("and", Not(a), b)),
        ("not not a", Not(Not(a))),
        ("not a == b", Not(BinOp("==", a, b))),
        ("a == b and b != c", BinOp("and", BinOp("==", a, b), BinOp("!=", b, c))),
        ("a < b", BinOp("<", a, b)),
        ("a <= b", BinOp("<=", a, b)),
        ("a > b", BinOp(">", a, b)),
        ("a >= b", BinOp(">=", a, b)),
        ("a + 1 in b", BinOp("in", BinOp("+", a, IntLit(1)), b)),
        ("a is player", IsType(a, "player", False)),
        ("a.b is not card", IsType(Attribute(a, "b"), "card", True)),
        ("a + b is card", IsType(BinOp("+", a, b), "card", False)),
        ("a - b - c", BinOp("-", BinOp("-", a, b), c)),
        ("a - (b - c)", BinOp("-", a, BinOp("-", b, c))),
        ("a + b * c", BinOp("+", a, BinOp("*", b, c))),
        ("(a + b) * c", BinOp("*", BinOp("+", a, b), c)),
        ("a * b / c % 2", BinOp("%", BinOp("/", BinOp("*", a, b), c), IntLit(2))),
        ("-1", Neg(IntLit(1))),
        ("- -a", Neg(Neg(a))),
        ("-a * b", BinOp("*", Neg(a), b)),
        ("-a.b", Neg(Attribute(a, "b"))),
        ("a - -1", BinOp("-", a, Neg(IntLit(1)))),
        ("5 - count(a)", BinOp("-", IntLit(5), Call("count", (a,)))),
    ],
)
def test_operators_and_precedence(source: str, expected: ast.Expr):
    assert expr(source) == expected


def test_comparisons_do_not_chain():
    with pytest.raises(CardSyntaxError):
        expr("a == b == c")


# ----------------------------------------------------------------- spans
SOURCE = """# header comment
card "Imp" : creature {
  cost = 2
  part top {
    damage(target, 1 + x)
  }
}
"""


def test_spans_in_a_file():
    module = parse(SOURCE, "imp.cards")
    card = module.items[0]
    assert card.span == Span("imp.cards", 2, 1, 7, 2)
    assert (card.attrs[0].span.line, card.attrs[0].span.column) == (3, 3)
    assert (card.attrs[0].value.span.line, card.attrs[0].value.span.column) == (3, 10)
    part = card.parts[0]
    assert (part.span.line, part.span.column, part.span.end_line, part.span.end_column) == (4, 3, 6, 4)
    statement = part.body[0]
    assert statement.span == Span("imp.cards", 5, 5, 5, 26)
    total = statement.call.args[1]
    assert total.span == Span("imp.cards", 5, 20, 5, 25)
    assert (total.right.span.line, total.right.span.column) == (5, 24)


def test_spans_of_nested_expressions():
    (definition,) = parse("function f() = g(a.b[1])", "f.rules").items
    call = definition.body
    index = call.args[0]
    assert (call.span.column, index.span.column, index.obj.span.column, index.index.span.column) == (16, 18, 18, 22)
    assert index.span.end_column == 24


def test_parse_block_offsets_line_and_first_line_column():
    # code that starts at line 5, column 9 of a rule file (e.g. after `effect: ` in YAML)
    first, second = parse_block("let x = a + b\nmove x to y", "game.yaml", line=5, column=9)
    assert first.span.file == "game.yaml"
    assert (first.span.line, first.span.column) == (5, 9)
    assert (first.value.span.line, first.value.span.column) == (5, 17)
    assert (first.value.right.span.line, first.value.right.span.column) == (5, 21)
    # later lines keep their own column; only the line moves
    assert (second.span.line, second.span.column) == (6, 1)
    assert (second.zone.span.line, second.zone.span.column) == (6, 11)


def test_parse_block_default_position():
    (only,) = parse_block("stop")
    assert (only.span.line, only.span.column) == (1, 1)


def test_parse_expression_offsets():
    value = parse_expression("a.b + 1", "game.yaml", line=3, column=12)
    assert value == BinOp("+", Attribute(a, "b"), IntLit(1))
    assert value.span == Span("game.yaml", 3, 12, 3, 19)
    assert (value.right.span.line, value.right.span.column) == (3, 18)


def test_parse_block_errors_are_offset_too():
    with pytest.raises(CardSyntaxError) as info:
        parse_block("let x = 1\nlet = 2", "game.yaml", line=10, column=5)
    assert (info.value.span.file, info.value.span.line, info.value.span.column) == ("game.yaml", 11, 5)
    with pytest.raises(CardSyntaxError) as info:
        parse_block("let 1 = 2", "game.yaml", line=10, column=5)
    assert (info.value.span.line, info.value.span.column) == (10, 9)


# ----------------------------------------------------------------- defects found and fixed
def test_keyword_use_rejects_named_arguments():
    with pytest.raises(CardSyntaxError, match="in order, not by name"):
        item('card "c" : t { keyword aura(k: flying) }')


def test_static_then_if_statement_in_a_part():
    card = item('card "c" : t { part top { static modify self.a by 1\n if x { stop } } }')
    assert card.parts[0].body == (If((IfBranch(x, (Stop(),)),), None),)


@pytest.mark.parametrize("source", ["let if = 1", "let x = if", "choose 2 from a"])
def test_keywords_are_reserved(source: str):
    with pytest.raises(CardSyntaxError):
        parse_block(source)


def test_parse_block_rejects_a_closing_brace():
    with pytest.raises(CardSyntaxError):
        parse_block('stop } card "x" : t { ')
