"""Fuzzing the loaders: card text generated from the grammar, and every kind of shipped file
mutated, each loaded as the project loads it, must load cleanly or fail with the project's own
located error (`fuzzing.where_problem`), within `fuzzing.TIME_LIMIT` seconds a case. Any other
exception, an error without a real place, or a slow case fails; Hypothesis then shrinks it.

Short run (part of the normal test run; a few hundred cases, about half a minute)::

    .venv/bin/pytest -q -p no:cacheprovider --import-mode=importlib tests/fuzz

Long run (10,000 card texts, 1,000 cases of each kind of file; prints the counts by kind)::

    .venv/bin/pytest -q -p no:cacheprovider --import-mode=importlib tests/fuzz -m fuzz --fuzz-cases 10000

or, to count every failure instead of stopping at the first, ``python benchmarks/fuzz.py --cases
10000`` (some 13 minutes on one core).

The two runs are the same tests (marked ``fuzz``); only the number of cases differs: without
``--fuzz-cases``, `fuzzing.DEFAULT_CASES` card texts and a tenth as many of each kind of file
(`fuzzing.LONG_CASES` with ``CARDRULES_LONG=1``, the switch of the other long runs).
``-m fuzz`` selects these tests alone, ``-m "not fuzz"`` leaves them out. Cases differ from run
to run (that is the point: each CI run tries new ones); a failure prints the case and a
``@reproduce_failure`` blob, and ``--hypothesis-seed=N`` repeats a run. The regression tests of
the defects found are in test_fuzz_findings.py (not marked).
"""

from __future__ import annotations

import signal
import time
from pathlib import Path

import pytest
from fuzzing import (
    KINDS,
    NUMBER,
    NUMBERS,
    TEXT_OPS,
    TOKEN,
    WALL_FACTOR,
    Hang,
    Workspace,
    apply_op,
    card_texts,
    cases_for,
    check,
    default_cases,
    load_file,
    load_text,
    mutated_text,
    run_case,
    where_problem,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter import load
from interpreter.errors import CardrulesError, RulesError, Span

pytestmark = pytest.mark.fuzz


@pytest.fixture(scope="session")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Workspace:
    """One copy of the checkout's data for every fuzz test of the session."""
    return Workspace(tmp_path_factory.mktemp("fuzz-checkout"))


@pytest.fixture(scope="session")
def fuzz_cases(request: pytest.FixtureRequest) -> int:
    """--fuzz-cases, or the default (the long run's with CARDRULES_LONG=1)."""
    return request.config.getoption("--fuzz-cases") or default_cases()


# ---------------------------------------------------------------- the property, by kind
@pytest.mark.parametrize("kind", KINDS)
def test_loads_cleanly_or_with_a_located_error(workspace: Workspace, fuzz_cases: int, kind: str) -> None:
    """Each case of the kind loads cleanly or raises a located CardrulesError, in time."""
    check(workspace, kind, cases_for(kind, fuzz_cases))


# ---------------------------------------------------------------- the harness itself
def test_every_kind_has_shipped_files(workspace: Workspace) -> None:
    for kind in KINDS[1:]:
        assert workspace.files(kind), kind


@pytest.mark.parametrize("kind", KINDS[1:])
def test_shipped_files_load_cleanly(workspace: Workspace, kind: str) -> None:
    """Unchanged, the first file of each game of a kind loads cleanly (the harness loads each
    kind the proper way), and the workspace copy is left as it was."""
    firsts = {}
    for rel in workspace.files(kind):
        firsts.setdefault(rel.parts[2] if rel.parts[0] == "tests" else rel.parts[1], rel)
    for rel in firsts.values():
        outcome = load_file(workspace, kind, rel, workspace.original(rel))
        assert outcome.kind == "clean", outcome.detail
        assert (workspace.root / rel).read_bytes() == workspace.original(rel)


def test_a_broken_card_is_a_located_error(workspace: Workspace) -> None:
    outcome = load_text(workspace, 'card "Broken" : unit {\n  power = \n}\n', as_rules=False)
    assert outcome.kind == "located"
    assert "fuzz.cards:3:1: syntax error: unexpected '}'" in outcome.detail


def test_a_mutated_file_is_restored(workspace: Workspace) -> None:
    rel = workspace.files("deck")[0]
    outcome = load_file(workspace, "deck", rel, b"name: [")
    assert outcome.kind == "located", outcome.detail
    assert (workspace.root / rel).read_bytes() == workspace.original(rel)


def test_other_exceptions_and_slow_cases_fail() -> None:
    files = [Path(__file__)]
    assert run_case(lambda: {}["x"], files).kind == "traceback"
    assert run_case(lambda: int("x"), files).signature.startswith("ValueError at ")
    assert run_case(lambda: time.sleep(2), files, limit=0.2).kind == "hang"  # (waits: the wall-clock alarm)
    spin = run_case(lambda: [0 for _ in iter(int, 1)], files, limit=0.2)  # (computes for ever: the CPU alarm)
    assert spin.kind == "hang" and spin.seconds < 0.2 * WALL_FACTOR
    # the other alarm going off once the case has ended (a loaded machine) raises nothing
    import fuzzing

    fuzzing._on_alarm(signal.SIGALRM, None)
    # wall time a loaded machine takes from a case (here: waiting, no CPU) is no hang below the wall alarm
    assert run_case(lambda: time.sleep(0.4), files, limit=0.2).kind == "clean"
    with pytest.raises(Hang):  # not caught by `except Exception` in the code under test
        raise Hang("x")


def test_errors_must_point_into_a_file(tmp_path: Path) -> None:
    """A located error starts with a span at an existing file, on a line it has, at a column on
    that line; an error without a place must name the file."""
    path = tmp_path / "x.yaml"
    path.write_text("a: 1\nbb: 2\n", encoding="utf-8")
    at = str(path)
    assert where_problem(RulesError("bad", Span(at, 2, 3)), [path]) is None
    assert where_problem(RulesError("bad", Span(at, 2, 6)), [path]) is None  # just past the end of the line
    assert "past the end" in where_problem(RulesError("bad", Span(at, 9, 1)), [path])
    assert "column 9" in where_problem(RulesError("bad", Span(at, 2, 9)), [path])
    assert "column 0" in where_problem(RulesError("bad", Span(at, 2, 0)), [path])
    assert "not a file" in where_problem(RulesError("bad", Span(str(tmp_path / "y"), 1, 1)), [path])
    assert "no place" in where_problem(RulesError("bad", Span("<builtin>", 0, 0)), [path])
    assert "no place" in where_problem(RulesError("bad"), [path])
    assert where_problem(RulesError(f"cannot read {path}"), [path]) is None
    assert run_case(lambda: load(at), [path]).kind == "located"  # not a ruleset: located at line 1


SAMPLE = "name: deck  # 40 cards\ncards:\n  Stab: 8\n  Bless: 4\n"


@settings(max_examples=100, deadline=None, database=None)
@given(st.data(), st.sampled_from(TEXT_OPS))
def test_each_mutation_does_what_it_says(data: st.DataObject, op: str) -> None:
    mutated, step = apply_op(data.draw, SAMPLE, op)
    old, new = SAMPLE.split("\n"), mutated.split("\n")
    if op == "delete_line":
        assert len(new) == len(old) - 1 and step.startswith("delete line")
    elif op == "duplicate_line":
        assert len(new) == len(old) + 1 and set(new) == set(old)
    elif op == "swap_lines":
        assert sorted(new) == sorted(old)
    elif op == "truncate":
        assert SAMPLE.startswith(mutated)
    elif op == "delete_chars":
        assert len(mutated) < len(SAMPLE) or mutated == SAMPLE and step.endswith(f"at {len(SAMPLE)}")
    elif op in ("insert_chars", "insert_unicode"):
        assert len(mutated) > len(SAMPLE) and step.startswith("insert")
    elif op == "indent":
        assert [line.strip() for line in new] == [line.strip() for line in old]
    else:  # one number replaced by an extreme one, or one token by another of the text
        pattern, values = (NUMBER, NUMBERS) if op == "change_number" else (TOKEN, TOKEN.findall(SAMPLE))
        assert op in ("change_number", "replace_token")
        assert any(SAMPLE[:m.start()] + value + SAMPLE[m.end():] == mutated
                   for m in pattern.finditer(SAMPLE) for value in values), step


@settings(max_examples=30, deadline=None, database=None)
@given(st.data())
def test_mutations_take_one_to_three_steps(data: st.DataObject) -> None:
    _mutated, steps = data.draw(mutated_text(SAMPLE))
    assert 1 <= len(steps) <= 3


@settings(max_examples=20, deadline=None, database=None)
@given(card_texts())
def test_card_texts_are_text(text: str) -> None:
    assert isinstance(text, str)


def test_clean_and_located_outcomes_are_told_apart(workspace: Workspace) -> None:
    assert load_text(workspace, 'card "Fine" : unit { power = 2 }\n', as_rules=False).kind == "clean"
    outcome = load_text(workspace, "procedure p() { nosuch() }\n", as_rules=True)
    assert outcome.kind == "located" and "fuzz.rules:1:17: validation error" in outcome.detail, outcome.detail
    with pytest.raises(CardrulesError):
        load(workspace.toy_rules)
