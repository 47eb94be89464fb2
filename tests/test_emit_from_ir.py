"""The emitters written from the IR (issue 31, step 3) write the Python the code generator wrote
from the AST: the source of every function of every shipped game and test ruleset, in every form
(direct, resumable, rollout), is compared with the corpus saved from it
(tests/data/sourcecorpus.json.gz, tests/helpers/sourcecorpus.py). A function written better on
purpose is written into the corpus again (`--write`) with the log corpus identical; this test
names the functions that differ, and the first one's diff."""

from __future__ import annotations

import re

import pytest
from helpers.sourcecorpus import CASES, differences, form_of, read_corpus, sources


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


def test_a_lowered_statement_is_written_and_its_expressions_come_from_its_ast() -> None:
    from interpreter.lang import ast, ir
    from interpreter.lang.codegen_scope import Scope

    rules = _harvest()
    gen = rules.compiler.gen
    shuffle = next(n for p in gen.names.procedures.values() for n in ast.walk(p.body) if isinstance(n, ast.Shuffle))
    lowered = gen.lowering.statement(shuffle)
    assert type(lowered) is ir.GameOp and lowered.op == "shuffle"
    assert gen.written(lowered) is shuffle and gen.written(lowered.arg("zone")) is shuffle.zone
    scope = Scope(frame=True)  # (its names in the frame's locals)
    lines = gen.statement(lowered, scope, 0, "pure")
    constant = re.compile(r"_k\d+")  # (each zone key table is a constant of its own)
    assert [constant.sub("_k", text) for text, _span in lines] == [
        constant.sub("_k", f"g.shuffle({gen.zone_key(shuffle.zone, scope)})")]
    assert {span for _text, span in lines} == {shuffle.span}
