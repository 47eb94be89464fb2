"""lang/ir_analysis.py: the analyses of lowered code that the compiler asks (the names an
expression reads and binds, what a statement asks before it runs, the names a block binds),
on small pieces of code lowered here."""

from __future__ import annotations

from interpreter.lang import ir, ir_analysis
from interpreter.lang.lower import Lowering, Names
from interpreter.lang.parser import parse_block, parse_expression

_LOWERING = Lowering(Names(functions=frozenset({"f"}), procedures=frozenset({"pick", "gain"}),
                           zones=frozenset({"hand"})))


def _expr(text: str, bound: frozenset[str] = frozenset({"x", "y"})) -> ir.Expr:
    return _LOWERING.expression(parse_expression(text), bound)


def _block(text: str, bound: frozenset[str] = frozenset({"p"})) -> tuple[ir.Stmt, ...]:
    return _LOWERING.statements(tuple(parse_block(text)), bound)


def test_free_names_are_counted_and_a_selections_name_is_bound_inside_it() -> None:
    e = _expr("x + x + count(all c in hand(y) where c.power > x) + game.round")
    assert ir_analysis.free_name_counts(e) == {"x": 3, "y": 1, "game": 1}
    assert ir_analysis.per_item_names(e) == {"c", "x"}  # (read once per card of the hand: x, and c itself)
    assert ir_analysis.binders(e) == {"c"}
    assert ir_analysis.per_item_names(_expr("if x > 1 then y else 2")) == {"y"}
    pairs = _expr("[a * b for a in x for b in y if b > a]")
    assert ir_analysis.free_name_counts(pairs) == {"x": 1, "y": 1}
    assert ir_analysis.binders(pairs) == {"a", "b"} and ir_analysis.has_clauses(pairs)


def test_substitute_puts_expressions_in_place_of_free_names_only() -> None:
    e = _expr("x + count(all x in hand(y) where x.power > y)")
    put = ir_analysis.substitute(e, {"x": ir.Const(1), "y": ir.Const(2)})
    assert ir.describe(put) == "(1 + count((all x in hand(2) where (x.power > 2))))"


def test_what_a_statement_asks_before_it_runs_innermost_first() -> None:
    (let,) = _block('let c = choose "a card" from [pick(p), choose "a row" from ["a", "b"] by p] by p\n')
    asked = ir_analysis.chooses_in(let, {"pick"})
    assert [type(n).__name__ for n in asked] == ["Call", "Ask", "Ask"]
    assert [n.label for n in asked[1:]] == ["a row", "a card"]
    assert ir_analysis.value_calls(let, {"pick"}) == [asked[0]] and ir_analysis.value_calls(let, set()) == []
    (branch,) = _block('if pick(p) {\n  let d = choose "x" from hand(p)\n} elif choose "y" from [1] > 0 {\n}\n')
    assert [type(n).__name__ for n in ir_analysis.chooses_in(branch, {"pick"})] == ["Call", "Ask"]  # (not the body's)


def test_the_names_a_block_binds_with_what_binds_them() -> None:
    body = _block('let a = 1\nfor c in hand(p) {\n  a += 1\n  let b = c\n}\nif a > 1 {\n  b = 2\n} else {\n'
                  '  create "Plain" in hand(p) as made\n}\n')
    found = ir_analysis.local_bindings(body)
    assert list(found) == ["a", "c", "b", "made"]
    assert [ir.describe(v) if v is not None else None for v in found["a"]] == ["1", None]
    assert found["c"][0][0] == "each" and ir.describe(found["c"][0][1]) == "hand(p)"
    assert [ir.describe(v) for v in found["b"]] == ["c", "2"] and found["made"] == [None]
