"""The lowered form (issue 31, step 3): lang/lower.py lowers every definition of every shipped
game and every test ruleset to the IR of lang/ir.py, every expression and statement form of the
language, deterministically, once per definition, with names resolved and spans kept."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from lowering_sample import EVERY_FORM, sample_lowering

from interpreter import load
from interpreter.errors import NO_SPAN, Span
from interpreter.lang import ast, ir
from interpreter.lang.lower import Lowering, LoweringError, Names, lower_ruleset, lowered
from interpreter.lang.parser import parse

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ["initiative", "lanes", "lanes-classic", "bases", "hearts", "harvest", "spades", "expedition"]
TEST_RULESETS = sorted(str(p) for p in (ROOT / "tests" / "data").glob("*/*.yaml") if p.stem == p.parent.name)
RULESETS = SHIPPED + TEST_RULESETS

def _forms(base: type) -> set[type]:
    found, todo = set(), [base]
    while todo:
        for sub in todo.pop().__subclasses__():
            found.add(sub)
            todo.append(sub)
    return found


def test_every_expression_and_statement_form_of_the_language_is_lowered():
    module = parse(EVERY_FORM, "every.cards")
    lowering = sample_lowering(module)
    lowered = [lowering.definition(item) for item in module.items]
    seen = {type(n) for n in ast.walk(module)}
    assert _forms(ast.Expr) | _forms(ast.Stmt) <= seen  # (the sample is every form: keep it so)
    kinds = Counter(type(n).__name__ for n in ir.walk(tuple(lowered)))
    assert set(kinds) >= {"Let", "Set", "CallStmt", "GameOp", "If", "Loop", "Break", "Return", "Emit", "Halt",
                          "Ask", "Local", "Context", "KeywordName", "Global", "Option", "EventArg", "GetAttr",
                          "GetIndex", "Call", "ListOf", "Comprehension", "Select", "IfExpr", "BinOp", "Not",
                          "Neg", "IsType", "Const", "Ability", "StaticEffect", "Part", "Card", "Function",
                          "Procedure", "Keyword"}
    ops = sorted(n.op for n in ir.walk(tuple(lowered)) if isinstance(n, ir.GameOp))
    assert ops == ["attach", "create", "delete", "detach", "grant_until", "grant_until", "modify_until", "modify_until",
                   "move", "remove_effects", "shuffle", "silence"]
    halts = sorted(n.kind for n in ir.walk(tuple(lowered)) if isinstance(n, ir.Halt))
    assert halts == ["lose", "stop", "tie", "win"]
    loops = sorted(n.kind for n in ir.walk(tuple(lowered)) if isinstance(n, ir.Loop))
    assert loops == ["for", "repeat", "while", "while"]  # (`repeat { } until C`: a while loop)


def test_names_are_resolved():
    module = parse(EVERY_FORM, "every.cards")
    card = sample_lowering(module).definition(module.items[0])
    front = card.parts[0].body
    assert front[0] == ir.Let("x", ir.GetIndex(ir.ListOf((ir.Const(1), ir.Const(None), ir.Const(True),
                                                          ir.Const("a"))), ir.Const(0)))
    assert front[1] == ir.Set(ir.Local("x"), "+=", ir.Neg(ir.Const(1)))
    assert front[2].place == ir.GetAttr(ir.Context("self"), "power")
    assert front[3].place == ir.Global("score")
    assert front[4] == ir.CallStmt(ir.Call(ir.PROCEDURE, "notify", (ir.Local("x"),)))
    branches = front[5]  # if / elif / else: an If in the orelse, marked chained
    assert branches.orelse[0].chained and branches.orelse[0].orelse == (ir.Halt("tie", None, "even"),)
    move = front[6].body[0]
    assert move.arg("zone") == ir.Call(ir.ZONE, "pile") and move.arg("card") == ir.Local("c")
    may = front[16]
    assert isinstance(may, ir.If) and may.test == ir.Ask("may", None, "again?", None, ir.Context("you"))
    grant = front[15]
    assert grant.arg("keyword") == "guard" and front[21] == ir.Let("named", ir.KeywordName("guard"))
    tied, removed, silence, remove = front[22:26]
    assert (tied.arg("until"), tied.arg("leaves")) == ("", ir.Context("self"))
    assert (removed.arg("until"), removed.arg("leaves")) == ("", None)
    assert silence.args == (("card", ir.Local("made")), ("until", "turn_end"))
    assert remove.args == (("source", ir.Context("self")), ("target", ir.Local("made")))
    assert front[26] == ir.Loop("while", None, ir.Const(True), (  # `repeat { x -= 1 } until x < 1`: sugar
        ir.Set(ir.Local("x"), "-=", ir.Const(1)), ir.If(ir.BinOp("<", ir.Local("x"), ir.Const(1)), (ir.Break(),), None)))
    block = sample_lowering(module).definition(module.items[-2])
    assert block == ir.Function("block", ("n",), None, (ir.Let("m", ir.Local("n")), ir.Return(ir.Local("m"))))
    builtin = parse("function f(xs) = count(xs) + nope(xs) + g", "f.rules").items[0]
    value = Lowering(Names(frozenset({"f"}))).definition(builtin).value
    assert value.left.left.callee == ir.BUILTIN and value.left.left.builtin.name == "count"
    assert value.left.right.callee == ir.UNKNOWN and value.right == ir.Unbound("g")


def test_a_node_it_cannot_lower_is_an_error_naming_the_node_and_its_span():
    class Strange(ast.Stmt):
        pass

    where = Span("x.rules", 3, 7)
    stmt = Strange()
    object.__setattr__(stmt, "span", where)
    procedure = ast.Procedure("p", (), (ast.Let("a", ast.IntLit(1)), stmt))
    with pytest.raises(LoweringError) as caught:
        Lowering(Names()).definition(procedure)
    assert caught.value.message == "cannot lower the statement Strange" and caught.value.span == where


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: Path(r).stem)
def test_every_definition_of_every_ruleset_is_lowered_deterministically_with_its_spans(ruleset):
    rules = load(ruleset)
    defs = rules.definitions
    first = lower_ruleset(rules.ruleset, defs)
    assert first == lower_ruleset(rules.ruleset, defs)  # (deterministic: equal IR from a second lowering)
    assert lowered(rules.ruleset, defs) is lowered(rules.ruleset, defs) == first  # (kept on the ruleset)
    counts = {"functions": len(defs.functions), "procedures": len(defs.procedures), "cards": len(defs.cards)}
    assert {k: len(getattr(first, k)) for k in counts} == counts
    nodes = list(ir.walk((tuple(first.functions.values()), tuple(first.procedures.values()),
                          tuple(first.keywords.values()), tuple(first.cards.values()), first.templates,
                          tuple(first.steps.values()), tuple(first.rounds.values()))))
    assert len(nodes) > 50
    unplaced = [n for n in nodes if getattr(n, "span", None) in (None, NO_SPAN)]
    assert unplaced == []
    # every AST expression and statement of the ruleset's code has its lowered node, at its span
    # (but a function's block, and the `game` of `game.x`, which is one node, a Global)
    ast_spans = Counter(n.span for n in rules.ruleset.code_nodes() if isinstance(n, (ast.Expr, ast.Stmt))
                        and not isinstance(n, ast.BlockValue)
                        and not (isinstance(n, ast.Name) and n.id in ("game", "options", "event")))
    assert set(ast_spans) <= {n.span for n in nodes}


def test_each_definition_is_lowered_once():
    module = parse(EVERY_FORM, "every.cards")
    lowering = sample_lowering(module)
    fn = module.items[-2]
    assert lowering.definition(fn) is lowering.definition(fn)
    again = parse(EVERY_FORM, "every.cards").items[-2]  # equal, elsewhere: its own IR
    assert lowering.definition(again) == lowering.definition(fn) and lowering.definition(again) is not \
        lowering.definition(fn)


def test_a_pickled_lowering_starts_with_empty_caches():
    """Its caches are keyed by the identity of AST nodes, which an unpickled copy's do not keep."""
    import pickle

    module = parse(EVERY_FORM, "every.cards")
    lowering = sample_lowering(module)
    lowering.definition(module.items[-2])
    copy = pickle.loads(pickle.dumps(lowering))
    assert lowering._made and not copy._made and not copy._lowered and copy.names == lowering.names
