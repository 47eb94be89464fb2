"""One kind inference (issue 31, step 3) at two precisions: the checker's `Kinds` (lang/kinds.py:
the kind of a value when it is not `none`) and the code generator's `ValueKinds`
(lang/value_kinds.py: what a value of the IR surely is), on shared rules (`KindRules`: built-ins from the table, calls followed into
rule functions once). Whatever the code generator is sure of, the checker infers too, over every
expression of every shipped game. What does not depend on a scope is worked out once per lowered
expression and kept with the IR (`ValueKinds.facts`), for every emitter."""

from __future__ import annotations

from collections import Counter

import pytest
from toyrules import toy_with

from interpreter import load
from interpreter.errors import CardrulesError, ErrorList
from interpreter.lang import ir
from interpreter.lang.codegen_scope import Scope
from interpreter.lang.kinds import KindRules, Kinds
from interpreter.lang.value_kinds import Facts, ValueKinds


def test_both_precisions_are_one_inference_on_shared_rules():
    assert issubclass(Kinds, KindRules) and issubclass(ValueKinds, KindRules)
    for shared in ("_through_body", "_builtin_gives", "_builtin_fact"):
        assert shared not in vars(Kinds) and shared not in vars(ValueKinds), shared


@pytest.mark.parametrize("game", ["lanes", "initiative", "bases", "harvest", "hearts", "spades", "expedition"])
def test_what_the_code_generator_is_sure_of_the_checker_infers_too(game):
    rules = load(game)
    gen = rules.compiler.gen
    kinds = gen.names.kinds
    defs = rules.definitions
    seen: Counter[str] = Counter()
    for tree in [*defs.functions.values(), *defs.procedures.values(), *defs.cards.values()]:
        for e in ir.walk(gen.lowering.definition(tree)):  # (the code generator reads the lowered form)
            if type(e) not in (ir.Call, ir.BinOp, ir.ListOf, ir.Select, ir.Comprehension, ir.Const):
                continue  # (a name's kind depends on its scope, which each precision keeps its own way)
            if gen.new_list(e):
                seen["list"] += 1
                assert kinds.of(e) == "list", ir.describe(e)
            if gen.is_text(e):
                seen["text"] += 1
                assert kinds.of(e) == "text", e
            if gen.is_player(e, Scope(False)):
                seen["player"] += 1
                assert kinds.of(e) == "player", e
    assert seen["list"] > 10 and seen["text"] > 0


def test_the_checker_knows_the_items_the_code_generator_knows(tmp_path):
    """An item of a zone's cards or of the players is a card or a player for the checker too:
    written where a number is held, it is refused at load, at the value."""
    rules = ('function rival(p) = first(others(p))\n'
             'procedure probe() {\n  game.counter = first(hand(you))\n  game.counter = players[2]\n'
             '  game.counter = rival(you)\n  game.counter = nth(all c in hand(you) where c.power > 1, 2)\n'
             '  game.counter = first([1, 2])\n}\n')
    with pytest.raises(CardrulesError) as caught:
        load(toy_with(tmp_path, rules))
    errors = caught.value.errors if isinstance(caught.value, ErrorList) else [caught.value]
    assert [(e.span.line, str(e).splitlines()[0].split("validation error: ")[1]) for e in errors] == [
        (3, "cannot set game.counter to a card: it holds a number (type: int)"),
        (4, "cannot set game.counter to a player: it holds a number (type: int)"),
        (5, "cannot set game.counter to a player: it holds a number (type: int)"),
        (6, "cannot set game.counter to a card: it holds a number (type: int)")]


@pytest.mark.parametrize("game", ["lanes", "bases"])
def test_the_facts_of_each_lowered_expression_are_worked_out_once_for_every_emitter(game, monkeypatch):
    worked_out: Counter[int] = Counter()
    original = ValueKinds._facts_of

    def counted(self, e):
        worked_out[id(e)] += 1
        return original(self, e)

    monkeypatch.setattr(ValueKinds, "_facts_of", counted)
    rules = load(game)
    rules.compiler.compile_rollout()  # (the rollout form reads the blocks' IR the resumable form read)
    gen = rules.compiler.gen
    assert len(worked_out) == len(gen._facts) > 500 and max(worked_out.values()) == 1
    kinds = gen.names.kinds
    for e, facts in gen._facts.values():  # (what is kept is what the rules say of the node)
        assert type(facts) is Facts and isinstance(e, ir.Expr)
        assert facts.kind == kinds.of(e), e
        if facts.new_list:
            assert kinds.of(e) == "list", e
        if facts.text:
            assert kinds.of(e) == "text", e


def test_the_code_generators_analyses_follow_the_lowered_bodies_of_rule_functions(tmp_path):
    """ValueKinds reads the lowered form only: a call of a rule function is followed into its
    lowered body (a block too: a draw or a selection anywhere in it), and the names of a lowered
    block that hold players, lists or lists without repeats are found from its bindings."""
    rules = ('function pick(p) {\n  let n = random(hand(p))\n  return n\n}\n'
             'function picked(p) {\n  let l = all c in hand(p) where c.power > 0\n  return l\n}\n'
             'function rival(p) = first(others(p))\n'
             'function mine(p) = all c in hand(p) where c.power > 0\n')
    gen = load(toy_with(tmp_path, rules)).compiler.gen
    p = ir.Local("p")
    assert gen._draws(ir.Call(ir.FUNCTION, "pick", (p,)))
    assert not gen._draws(ir.Call(ir.FUNCTION, "picked", (p,)))
    assert gen._builds_lists(ir.Call(ir.FUNCTION, "picked", (p,)))
    assert not gen._builds_lists(ir.Call(ir.FUNCTION, "rival", (p,)))
    assert gen.is_player(ir.Call(ir.FUNCTION, "rival", (p,)), Scope(False))
    assert gen.new_list(ir.Call(ir.FUNCTION, "mine", (p,)))
    assert gen.distinct_tags(ir.Call(ir.FUNCTION, "picked", (p,)), Scope(False)) is not None
    body = (ir.Let("r", ir.Call(ir.FUNCTION, "rival", (p,))), ir.Let("m", ir.Call(ir.FUNCTION, "mine", (p,))),
            ir.Loop("for", "q", ir.Context("players"), (ir.Set(ir.Local("m"), "+=", ir.ListOf((ir.Local("q"),))),)))
    assert gen.player_names(body, ("p",)) == {"r", "q"}
    assert gen.list_names(body, ("p",)) == frozenset()  # (m is added to: `+=` says nothing of it)
    assert gen.list_names(body[:2], ("p",)) == {"m"}
    assert set(gen.distinct_names(body[:2], ("p",))) == {"m"}


def test_the_checkers_kind_of_a_lowered_call_follows_the_lowered_function(tmp_path):
    """Kinds.of a lowered call of a rule function (asked by the code generator) reads the
    function's lowered body, which the code generator hands it (`lowered_function`)."""
    rules = 'function rival(p) = first(others(p))\nfunction mine(p) = all c in hand(p) where c.power > 0\n'
    kinds = load(toy_with(tmp_path, rules)).compiler.gen.names.kinds
    p = ir.Local("p")
    call = ir.Call(ir.FUNCTION, "rival", (p,))
    assert kinds.of(call) == "player" and kinds.items(ir.Call(ir.FUNCTION, "mine", (p,))) == "card"
    followed = kinds.lowered_function
    try:
        kinds.lowered_function = lambda name: ir.Function(name, ("p",), ir.Const("a text"), None)
        assert kinds.of(call) == "text"
    finally:
        kinds.lowered_function = followed
