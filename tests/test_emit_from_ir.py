"""The emitters written from the IR (issue 31, step 3) write the Python the code generator wrote
from the AST: the source of every function of every shipped game and test ruleset, in every form
(direct, resumable, rollout), is compared with the corpus saved from it
(tests/data/sourcecorpus.json.gz, tests/helpers/sourcecorpus.py). A function written better on
purpose is written into the corpus again (`--write`) with the log corpus identical; this test
names the functions that differ, and the first one's diff."""

from __future__ import annotations

import re

import pytest
from sourcecorpus import CASES, differences, form_of, read_corpus, sources

from interpreter.lang.lower import Lowering, LoweringError


@pytest.fixture(scope="module")
def corpus() -> dict[str, list[tuple[str, str]]]:
    return read_corpus()


def test_the_corpus_covers_every_case_and_every_form(corpus) -> None:
    assert sorted(corpus) == sorted(case.name for case in CASES)
    forms = {form_of(label, source) for pairs in corpus.values() for label, source in pairs}
    assert forms == {"direct", "resumable", "rollout"}


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_generated_sources_are_the_corpus(case, corpus) -> None:
    found = differences(corpus[case.name], sources(case))
    assert not found, f"{case.name}: generated sources differ from the corpus\n" + "\n".join(found)


def test_a_difference_is_named_with_its_form_and_diff() -> None:
    saved = [("procedure a", "def _g1(g, f):\n    return True\n"), ("procedure a (rollout)", "def r_a(g, f):\n    x = 1\n")]
    now = [saved[0], ("procedure a (rollout)", "def r_a(g, f):\n    x = 2\n")]
    assert differences(saved, now) == ["  #1 rollout: procedure a (rollout)", "--- saved", "+++ now",
                                       "@@ -1,2 +1,2 @@", " def r_a(g, f):", "-    x = 1", "+    x = 2"]


# ---------------------------------------------------------------------- the statements from the IR
def _harvest():
    from interpreter import load
    return load("harvest")


def test_the_statement_emitter_dispatches_on_the_lowered_form() -> None:
    from interpreter.lang import ast, ir

    gen = _harvest().compiler.gen
    expected = {"Let": "s_Let", "Set": "s_Set", "CallStmt": "s_CallStmt", "If": "s_If", "Loop": "s_Loop",
                "Break": "s_Break", "Return": "s_Return", "Emit": "s_Emit", "Halt": "s_Halt",
                **{op: "op_" + op for op in ("move", "create", "shuffle", "attach", "detach", "delete", "modify_until",
                                             "grant_until", "silence", "remove_effects")}}
    written = {type(s).__name__ if type(s) is not ir.GameOp else s.op: gen.dispatch(s).__name__
               for proc in gen.names.procedures.values() for s in ir.walk(gen.lowered_body(proc.body))
               if isinstance(s, ir.Stmt)}
    assert written.items() <= expected.items()
    assert {"Let", "Set", "CallStmt", "If", "Loop", "Emit", "move", "shuffle"} <= set(written)
    assert all(callable(getattr(gen, method)) for method in expected.values())
    assert not [name for name in dir(gen) if name.startswith("s_") and name[2:] in vars(ast)
                and name[2:] not in vars(ir)], "a statement method still named after an AST node"


def test_a_lowered_statement_is_written_with_its_expressions() -> None:
    from interpreter.lang import ast, ir
    from interpreter.lang.codegen_scope import Scope

    rules = _harvest()
    gen = rules.compiler.gen
    shuffle = next(n for p in gen.names.procedures.values() for n in ast.walk(p.body) if isinstance(n, ast.Shuffle))
    lowering = Lowering(gen.lowering.names, origins=True)  # (what each node comes from: for this test)
    lowered = lowering.statement(shuffle)
    assert type(lowered) is ir.GameOp and lowered.op == "shuffle"
    assert lowering.origin(lowered) is shuffle and lowering.origin(lowered.arg("zone")) is shuffle.zone
    assert not hasattr(gen, "written")  # (the emitters read the IR alone: no bridge back to the AST)
    with pytest.raises(LoweringError):
        gen.lowering.origin(gen.lowering.statement(shuffle))
    scope = Scope(frame=True)  # (its names in the frame's locals)
    lines = gen.statement(lowered, scope, 0, "pure")
    constant = re.compile(r"_k\d+")  # (each zone key table is a constant of its own)
    assert [constant.sub("_k", text) for text, _span in lines] == [
        constant.sub("_k", f"g.shuffle({gen.zone_key(lowered.arg('zone'), scope)})")]
    assert {span for _text, span in lines} == {shuffle.span}


def test_the_resumable_and_rollout_forms_dispatch_on_the_lowered_form() -> None:
    from interpreter.lang import ast, ir

    compiler = _harvest().compiler
    writer, gen = compiler.writer, compiler.gen
    one, ask = ir.Const(1), ir.Ask("may", None, None, None, None)
    dispatched = {
        "for": writer._method(ir.Loop("for", "x", one, ())), "repeat": writer._method(ir.Loop("repeat", None, one, ())),
        "while": writer._method(ir.Loop("while", None, one, ())), "if": writer._method(ir.If(one, (), None)),
        "may": writer._method(ir.If(ask, (), None)), "call": writer._method(ir.CallStmt(ir.Call(ir.PROCEDURE, "p"))),
        "emit": writer._method(ir.Emit("e", ())), "move": writer._method(ir.GameOp("move", ())),
        "shuffle": writer._method(ir.GameOp("shuffle", ())), "let": writer._method(ir.Let("x", one)),
    }
    assert {k: getattr(m, "__name__", None) for k, m in dispatched.items()} == {
        "for": "loop_for", "repeat": "loop_repeat", "while": "loop_while", "if": "s_if", "may": "s_may",
        "call": "s_call", "emit": "_suspending", "move": "_suspending", "shuffle": None, "let": None}
    named_after_ast = [name for obj in (writer, gen) for name in dir(obj)
                       if name[:2] in ("s_", "r_") and name[2:] in vars(ast) and name[2:] not in vars(ir)]
    assert named_after_ast == []


def test_describe_prints_every_form_of_the_language() -> None:
    from lowering_sample import EVERY_FORM, sample_lowering

    from interpreter.lang import ir
    from interpreter.lang.parser import parse

    module = parse(EVERY_FORM, "sample.rules")
    lowering = sample_lowering(module)
    text = "\n".join(ir.describe(lowering.definition(item)) for item in module.items)
    for line in ["    if (x > 1):", "      break", "    elif (x < 0):", "      halt stop", "    else:",
                 '      halt tie "even"', "    loop repeat 2 times:", "      shuffle zone=pile()",
                 "    loop while (x < 3):", '    create card_name="Sample", zone=pile(), attrs=(power=1), bind="made"',
                 '    if (ask may "again?" by you):', '      halt win you "won"', "      halt lose you",
                 "    modify_until target=made.power, mode=\"by\", amount=1, until=\"\", leaves=self",
                 "    let odd = (if (not (x is int)) then -x else event.amount)",
                 "    let best = (all c in hand(you) where (c.power > 0) ordered by c.power desc)",
                 "    let many = [(a + b) for a in [1, 2] if (a > 0) for b in [3] if (b > a)]",
                 "    emit struck(card=made, amount=options.size)",
                 "  static modify self.power by 1 when (?x is not none)", "  static grant guard(1) to self",
                 "  triggered on struck if (event.amount > 0):", "  replacement of struck:",
                 "  activated \"use\" cost 1 if true target:", "  effect:",
                 'card "S{k}" : unit (for k in [1, 2]):', "function twice(n) = (n * 2)", "function block(n):", "keyword guard(n):"]:
        assert line in text.split("\n"), line


def test_the_statements_the_emitters_write_have_their_names_resolved_in_order() -> None:
    """Each block is lowered with the names its frame starts with (parameters, the set-up's
    names), so a parameter or an earlier `let` is a Local in every statement written, never
    Unbound (as a statement lowered on its own would have it)."""
    from interpreter.lang import ir

    rules = _harvest()
    gen = rules.compiler.gen
    cleanup = gen.names.procedures["cleanup"]
    move = gen.lowering.statement(cleanup.body[0])
    assert move.arg("zone") == ir.Call(ir.ZONE, "discard", (ir.Local("p"),))
    unbound = {(name, n.name) for name, proc in gen.names.procedures.items() for s in proc.body
               for n in ir.walk(gen.lowering.statement(s)) if isinstance(n, ir.Unbound)}
    assert unbound == set()


# ---------------------------------------------------------------------- the expressions from the IR
_GEN = []


def _written_from_the_ir(e, scope=None) -> str:
    """The code of a lowered expression made here (so the lowering knows no AST for it): the
    expression code reads the IR itself."""
    from interpreter.lang.codegen_scope import Scope

    if not _GEN:
        _GEN.append(_harvest().compiler.gen)
    return _GEN[0].ex(e, scope if scope is not None else Scope(frame=True, names={"x": "v_x"}))


def test_constants_and_names_are_written_from_the_ir() -> None:
    from interpreter.lang import ir

    assert [_written_from_the_ir(e) for e in (ir.Const(3), ir.Const(True), ir.Const(None))] == ["3", "True", "None"]
    assert _GEN[0].ns.values[_written_from_the_ir(ir.Const("a text"))] == "a text"
    assert [_written_from_the_ir(e) for e in (ir.Local("x"), ir.Local("y"), ir.Unbound("z"), ir.Context("you"),
                                              ir.Context("players"))] == [
        "v_x", "L['y']", "L['z']", "f.controller", "g.players"]
    assert [_written_from_the_ir(e) for e in (ir.Global("round"), ir.Option("size"), ir.EventArg("card"))] == [
        "g.globals['round']", "g.options['size']", "f.event.get('card')"]


SHIPPED = ["initiative", "lanes", "lanes-classic", "bases", "hearts", "harvest", "spades", "expedition"]


@pytest.mark.parametrize("game", SHIPPED)
def test_the_checkers_kind_of_an_expression_is_that_of_its_lowered_form(game) -> None:
    """The checker's kind of a value (Kinds.of, kinds.py), which the code generator asks of the
    lowered form (`ValueKinds.facts`), is the same for each lowered expression of every function
    and procedure of a shipped game as for the AST it was lowered from, with no name bound and
    with every name bound."""
    from interpreter import load
    from interpreter.lang import ir

    gen = load(game).compiler.gen
    definitions = [*gen.names.functions.values(), *gen.names.procedures.values()]
    lowering = Lowering(gen.lowering.names, origins=True)
    expressions = [node for d in definitions for node in ir.walk(lowering.definition(d))
                   if isinstance(node, ir.Expr) and not (type(node) is ir.Ask and node.kind == "may")]
    names = frozenset(n.name for n in expressions if type(n) in (ir.Local, ir.Context, ir.KeywordName, ir.Unbound))
    assert len(expressions) > 100
    for e in expressions:
        written = lowering.origin(e)
        for local in (frozenset(), names):
            assert gen.names.kinds.of(e, local) == gen.names.kinds.of(written, local), ir.describe(e)


def test_operators_lists_and_indexes_are_written_from_the_ir() -> None:
    from interpreter.lang import ir

    x, y = ir.Local("x"), ir.Local("y")
    assert [_written_from_the_ir(e) for e in (
        ir.Not(x), ir.Neg(ir.Const(2)), ir.IfExpr(x, ir.Const(1), ir.Const(2)), ir.ListOf((ir.Const(1), x)),
        ir.GetIndex(ir.Context("players"), ir.Const(1)), ir.GetIndex(x, y), ir.IsType(x, "int", False),
        ir.IsType(y, "none", True))] == [
        "(not v_x)", "(-2)", "(1 if v_x else 2)", "[1, v_x]", "g.players[0]", "_index(v_x, L['y'])",
        "(_is_int(v_x))", "(not (L['y'] is None))"]
    assert re.fullmatch(r"\((_w\d+)\[1\] if type\(\1 := v_x\) is list and len\(\1\) >= 2 else _index\(\1, 2\)\)",
                        _written_from_the_ir(ir.GetIndex(x, ir.Const(2))))


def test_attributes_are_written_from_the_ir() -> None:
    """A player's attribute that no effect changes is read from the player's dict (by a fixed
    seat, straight); a card's place from where the card is."""
    from interpreter.lang import ir
    from interpreter.lang.codegen_scope import Scope

    scope = Scope(True, {"x": "v_x"}, players=frozenset({"x"}))
    first = ir.GetIndex(ir.Context("players"), ir.Const(1))
    assert [_written_from_the_ir(e, scope) for e in (
        ir.GetAttr(ir.Local("x"), "seat"), ir.GetAttr(ir.Local("x"), "coins"), ir.GetAttr(first, "coins"))] == [
        "v_x.seat", "g.player_attrs[v_x.seat - 1]['coins']", "g.player_attrs[0]['coins']"]
    assert re.fullmatch(r"\(g\.card_zone\[(_w\d+)\.id\]\[0\] if type\(\1 := L\['y'\]\) is _CardRef and \1\.id in "
                        r"g\.card_zone else g\.read\(\1, 'zone'\)\)",
                        _written_from_the_ir(ir.GetAttr(ir.Local("y"), "zone"), scope))


def test_operators_selections_and_comprehensions_are_written_from_the_ir() -> None:
    """`+`, membership of a zone by the card's place, a selection and a comprehension of two clauses
    as Python comprehensions, and (in a procedure's code) `count(S) > 0` as a loop that stops at
    the first item: all from the IR alone."""
    from interpreter.lang import ir
    from interpreter.lang.codegen_scope import Scope

    x, c, d = ir.Local("x"), ir.Local("c"), ir.Local("d")
    big = ir.Select("c", x, ir.BinOp(">", c, ir.Const(1)), None, False)
    pairs = ir.Comprehension(ir.BinOp("*", c, d), (ir.Clause("c", x, None),
                                                   ir.Clause("d", ir.ListOf((ir.Const(2),)), ir.BinOp(">", d, c))))
    in_hand = ir.BinOp("in", x, ir.Call(ir.ZONE, "hand", (ir.Context("you"),)))
    written = [_written_from_the_ir(e, Scope(False, {"x": "v_x"})) for e in (ir.BinOp("+", ir.Const(1), x), in_hand,
                                                                             big, pairs)]
    assert written[0] == "(1 + v_x)"
    assert re.fullmatch(r"\(type\(v_x\) is _CardRef and g\.card_zone\.get\(v_x\.id\) == \(_k\d+\[f\.controller\.seat\] "
                        r"if type\(f\.controller\) is _PlayerRef else g\.zone_key\('hand', f\.controller, None\)\)\)",
                        written[1])
    assert re.fullmatch(r"\[(_c\d+) for \1 in _as_list\(v_x\) if \(\1 > 1\)\]", written[2])
    assert re.fullmatch(r"\[\((_c\d+) \* (_c\d+)\) for \1 in _as_list\(v_x\) for \2 in \[2\] if \(\2 > \1\)\]",
                        written[3])
    before, code = _GEN[0].lowered(ir.BinOp(">", ir.Call(ir.BUILTIN, "count", (big,)), ir.Const(0)),
                                   Scope(False, {"x": "v_x"}), "pure")
    item, found = re.fullmatch(r"for (_c\d+) in .*", before[1]).group(1), code
    assert before == [f"{found} = False", f"for {item} in _as_list(v_x):", f"    if ({item} > 1):",
                      f"        {found} = True", "        break"]


def test_calls_of_zones_built_ins_and_card_code_are_written_from_the_ir() -> None:
    from interpreter.lang import ir
    from interpreter.lang.codegen_scope import Scope

    x = ir.Local("x")
    written = [_written_from_the_ir(e, Scope(False, {"x": "v_x"})) for e in (
        ir.Call(ir.ZONE, "hand", (ir.Context("you"),)), ir.Call(ir.BUILTIN, "count", (x,)),
        ir.Call(ir.BUILTIN, "take", (ir.Call(ir.ZONE, "deck", (x,)), ir.Const(2))),
        ir.Call(ir.BUILTIN, "call", (ir.GetAttr(x, "aims"), ir.Const(1))),
        ir.Call(ir.BUILTIN, "labelled", (ir.Const("a"), ir.Const(2))))]
    key = r"\(_k\d+\[(.+)\.seat\] if type\(\1\) is _PlayerRef else g\.zone_key\('(\w+)', \1, None\)\)"
    assert re.fullmatch(rf"list\(g\.zones\[{key}\]\)", written[0]).group(1, 2) == ("f.controller", "hand")
    assert written[1] == "len(_as_list(v_x))"
    assert re.fullmatch(rf"g\.zones\[{key}\]\[:max\(0, 2\)\]", written[2]).group(1, 2) == ("v_x", "deck")
    assert written[3] == "_code_call(g, v_x, 'aims', 1)"
    labelled = _GEN[0].ns.values[written[4]]
    assert (labelled.value, labelled.label) == ("a", "2")


def test_a_rule_function_is_inlined_from_its_lowered_body() -> None:
    """`pile("Province")` (harvest: `first(all c in supply() where c.name == name)`) is written
    in place, the constant in place of the parameter; a selection's own name hides a parameter."""
    from interpreter.lang import ir, ir_analysis
    from interpreter.lang.codegen_scope import Scope

    code = _written_from_the_ir(ir.Call(ir.FUNCTION, "pile", (ir.Const("Province"),)), Scope(False))
    assert "fn_pile" not in code and code.startswith("_head([") and ".defn.name == _k" in code
    assert _GEN[0].host._inlining == []
    c, p = ir.Local("c"), ir.Local("p")
    body = ir.ListOf((p, ir.Select("p", c, ir.BinOp("==", p, c), None, False)))
    assert ir_analysis.substitute(body, {"p": ir.Const(1), "c": ir.Local("d")}) == ir.ListOf(
        (ir.Const(1), ir.Select("p", ir.Local("d"), ir.BinOp("==", p, ir.Local("d")), None, False)))


def test_the_statements_write_their_lowered_expressions() -> None:
    """A write, a shuffle, a move and a call of a built-in procedure made here (no AST behind
    them) are written from the IR: their places, values, zones and arguments."""
    from interpreter.lang import ir
    from interpreter.lang.codegen_scope import Scope

    _written_from_the_ir(ir.Const(0))
    gen = _GEN[0]
    scope = Scope(False, {"x": "v_x"}, players=frozenset({"x"}))
    you_hand = ir.Call(ir.ZONE, "hand", (ir.Local("x"),))
    assert gen.s_Set(ir.Set(ir.Local("x"), "+=", ir.Const(1)), scope, 0, "pure") == ["v_x = v_x + 1"]
    assert gen.s_Set(ir.Set(ir.GetAttr(ir.Local("x"), "coins"), "+=", ir.Const(2)), scope, 0, "pure") == [
        "g.player_attrs[v_x.seat - 1]['coins'] = max(0, g.player_attrs[v_x.seat - 1]['coins'] + 2)"]  # (min 0)
    assert re.fullmatch(r"g\.shuffle\(_k\d+\[v_x\.seat\]\)", gen.op_shuffle(ir.GameOp("shuffle", (("zone", you_hand),)),
                                                                         scope, 0, "pure")[0])
    assert gen.s_CallStmt(ir.CallStmt(ir.Call(ir.BUILTIN, "reveal", (ir.Local("x"),))), scope, 0, "pure") == [
        "g.reveal(v_x)"]


def test_the_expression_code_writes_only_the_lowered_form() -> None:
    """Every entry point lowers what it is given: the expression code has one `i_KIND` method per
    kind of lowered expression and none for the AST's, and an AST expression handed to it is a
    mistake of the compiler."""
    from interpreter.lang import ast, ir
    from interpreter.lang.codegen_scope import Scope

    _written_from_the_ir(ir.Const(0))
    gen = _GEN[0]
    kinds = {name for name, value in vars(ir).items() if isinstance(value, type) and issubclass(value, ir.Expr)
             and value is not ir.Expr}
    assert {name[2:] for name in dir(gen) if name.startswith("i_")} == kinds
    assert [name for name in dir(gen) if name.startswith("x_")] == []
    with pytest.raises(AttributeError):
        gen.ex(ast.Name("x"), Scope(False, {"x": "v_x"}))
