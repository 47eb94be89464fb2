"""Scenarios without traps (issue 35): a decision the engine took because it had one option is
named as such when a step tries to take it, and `explicit: true` has every decision asked; a
failed `events` check shows the events' arguments; `{expr: ...}` where a plain value belongs is
refused at load; `decision.options.count`; `events_so_far`; rigged later shuffles.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.errors import CardrulesError
from interpreter.scenarios import check_scenario, run_scenario

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = ROOT / "tests" / "scenarios"


def variant(tmp_path: Path, shipped: str, *edits: tuple[str, str], name: str = "s.yaml") -> Path:
    """The shipped scenario with each (old, new) edit made once, written into tmp_path."""
    text = (SCENARIOS / shipped).read_text(encoding="utf-8")
    for old, new in edits:
        assert old in text, f"{old!r} is not in {shipped}"
        text = text.replace(old, new, 1)
    text = text.replace("../../../rulesets/", f"{ROOT}/rulesets/")
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def written(tmp_path: Path, text: str, name: str = "s.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def line_of(path: Path, fragment: str) -> int:
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if fragment in line:
            return number
    raise AssertionError(f"{fragment!r} is not in {path}")


def only_failure(path: Path) -> str:
    result = run_scenario(path)
    assert len(result.failures) == 1, result.failures
    return result.failures[0]


# ---------------------------------------------------------------- 4. events with their arguments
def test_a_failed_events_check_shows_the_arguments_of_the_events(tmp_path):
    path = variant(tmp_path, "initiative/card-stab-top.yaml",
                   ("{event: damaged, target: Soldier, amount: 2}", "{event: damaged, target: Soldier, amount: 3}"))
    line = line_of(path, "  events:")
    assert only_failure(path) == (
        "then events: expected event {'event': 'damaged', 'target': 'Soldier', 'amount': 3} (in order) not found "
        "after event 1 (resolving(player='P1', card='Stab $a', part='top')); events were: "
        "1. resolving(player='P1', card='Stab $a', part='top'), 2. damaged(target='Soldier $s', amount=2), "
        "3. died(card='Soldier $s'), 4. resolution(), "
        "5. resolving(player='P1', card='Summon Monster $b', part='bottom'), "
        f"6. summoned(card='Monster', player='P1'), 7. resolution() ({path}:{line}:3)")


# ---------------------------------------------------------------- 5. expressions, option counts, events so far
DRAFT = "lanes/rule-l-2.2-rigged-draft-pile.yaml"


def refused(path: Path) -> CardrulesError:
    with pytest.raises(CardrulesError) as caught:
        check_scenario(path)
    return caught.value


def test_an_expression_where_a_plain_value_belongs_is_refused_at_load(tmp_path):
    path = variant(tmp_path, DRAFT, ("zones.draft_pile.count: 43", 'zones.draft_pile.count: {expr: "40 + 3"}'))
    err = refused(path)
    assert err.message == ("when[3] then zones.draft_pile.count: {expr: ...} is not a value to compare with: an expression "
                           "is an operand of a relation, write zones.draft_pile.count: {same_as: {expr: ...}} "
                           "(or at_least, at_most)")
    line = line_of(path, "zones.draft_pile.count:")
    assert (err.span.line, err.span.column) == (line, 7)
    assert f"{path}:{line}:7" in str(err)


def test_an_expression_inside_an_event_is_refused_at_it(tmp_path):
    path = variant(tmp_path, DRAFT, ("{event: draft_round, round: 2}", '{event: draft_round, round: {expr: "1 + 1"}}'))
    err = refused(path)
    assert err.message.startswith("when[3] then events: {expr: ...} cannot stand inside an expected value")
    line = line_of(path, "{event: draft_round, round: {expr")
    assert (err.span.line, err.span.column) == (line, 32)  # (at `round:`)


def test_the_same_value_as_a_relation_operand_passes(tmp_path):
    path = variant(tmp_path, DRAFT, ("zones.draft_pile.count: 43", 'zones.draft_pile.count: {same_as: {expr: "40 + 3"}}'))
    assert run_scenario(path).failures == []


def test_decision_options_count_is_a_path(tmp_path):
    path = variant(tmp_path, DRAFT,
                   ("      zones.draft_pile.first: Storm Lancer",
                    "      zones.draft_pile.first: Storm Lancer\n      decision.options.count: 4\n"
                    "      zones.draft_row.count: {same_as: decision.options.count}"),
                   ("zones.draft_row.count: 4", "zones.draft_row.count: 4\n  decision.options.count: 5"))
    line = line_of(path, "decision.options.count: 5")
    assert only_failure(path) == f"then decision.options.count: expected 5, got 4 ({path}:{line}:27)"


def test_events_so_far_sees_the_events_of_earlier_steps(tmp_path):
    path = variant(tmp_path, DRAFT,
                   ("      not_events: [{event: drafted, card: Fire Dart}]",
                    "      not_events: [{event: drafted, card: Fire Dart}]\n"
                    "      events_so_far: [{event: draft_round, round: 1}, {event: drafted, card: Crag Titan},\n"
                    "                      {event: draft_round, round: 2}]\n"
                    "      not_events_so_far: [{event: drafted, card: Fire Dart}]"))
    line = line_of(path, "not_events_so_far:")
    assert only_failure(path) == (f"when[3] then not_events_so_far: event {{'event': 'drafted', 'card': 'Fire Dart'}} "
                                  f"happened: drafted(player='P1', card='Fire Dart') ({path}:{line}:7)")


# ---------------------------------------------------------------- 3. decisions with one option
ATTACKS = "initiative/rule-i-3.5-dead-creature-does-not-attack.yaml"
INITIATIVE_RULES = ROOT / "rulesets" / "initiative" / "initiative.rules"
TARGET_LINE = line_of(INITIATIVE_RULES, 'choose "attack target" from')
TARGET_AT = f"{INITIATIVE_RULES}:{TARGET_LINE}:20"  # where the rules write the choice
FIRST_STEP = '  - {player: 1, options: [P2, "Monster 3/3 of P2"], choose: $m}'


def test_a_step_naming_a_choice_the_engine_took_says_so(tmp_path):
    path = variant(tmp_path, ATTACKS, (FIRST_STEP, FIRST_STEP + "\n  - {player: 1, choose: P2}"))
    line = line_of(path, "choose: P2}")
    failure = only_failure(path)
    assert failure == (
        f"when[1] ({path}:{line}:5): 'P2' was never asked: P1's decision 'attack target' ({TARGET_AT}) had one "
        "option, 'P2', so the engine took it without "
        "asking, before this step. Leave this step out (a step with only `then` can check the state there), or "
        "write `explicit: true` at the top of the scenario to have every decision asked, one option or not")


def test_another_failed_decision_lists_the_choices_the_engine_took(tmp_path):
    path = variant(tmp_path, ATTACKS, (FIRST_STEP, FIRST_STEP + "\n  - {player: 1, choose: P1}"))
    failure = only_failure(path)
    assert failure.startswith(f"when[1] ({path}:{line_of(path, 'choose: P1}')}:5): 'P1' is not a legal option for "
                              "P1's decision 'two cards to play'")
    assert failure.endswith("(before this step the engine took 1 decision with one option without asking: P1's "
                            f"decision 'attack target' ({TARGET_AT}) had one option, 'P2')")


def test_explicit_asks_every_decision_with_one_option(tmp_path):
    explicit = variant(tmp_path, ATTACKS, ("given:", "explicit: true\ngiven:"),
                       (FIRST_STEP, FIRST_STEP + "\n  - {player: 1, options: [P2], prompt: attack target, choose: P2}"))
    assert run_scenario(explicit).failures == []
    # without the step, the scenario stops at the decision the engine would have taken
    unwritten = variant(tmp_path, ATTACKS, ("given:", "explicit: true\ngiven:"), name="t.yaml")
    line = line_of(unwritten, "decision.prompt:")
    assert f"then decision.prompt: expected 'two cards to play', got 'attack target' ({unwritten}:{line}:20)" in \
        run_scenario(unwritten).failures


def test_explicit_is_a_boolean_in_the_schema(tmp_path):
    path = variant(tmp_path, ATTACKS, ("given:", "explicit: yes please\ngiven:"))
    err = refused(path)
    assert f"{path}:{line_of(path, 'explicit:')}:11: rules error: explicit: expected true or false, got the text " \
        "'yes please'" in str(err)
