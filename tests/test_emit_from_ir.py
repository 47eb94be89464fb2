"""The emitters written from the IR (issue 31, step 3) write the Python the code generator wrote
from the AST: the source of every function of every shipped game and test ruleset, in every form
(direct, resumable, rollout), is compared with the corpus saved from it
(tests/data/sourcecorpus.json.gz, tests/helpers/sourcecorpus.py). A function written better on
purpose is written into the corpus again (`--write`) with the log corpus identical; this test
names the functions that differ, and the first one's diff."""

from __future__ import annotations

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
