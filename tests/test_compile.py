"""compile/ (issue 31, step 1): a checked ruleset compiles into an immutable `Program`, which the
runtime's `Rules` holds and exposes; what only a game can work out (`requires:`, scores,
counters) is the runtime's."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest

from interpreter import load
from interpreter.compile import Program, compile_ruleset
from interpreter.engine.rules import Rules
from interpreter.errors import RulesError
from interpreter.paths import shipped_games
from interpreter.rules.loader import load_ruleset

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def rules() -> Rules:
    return load("lanes")


def test_rules_hold_their_program_and_read_every_field_from_it(rules):
    program = rules.program
    assert isinstance(program, Program)
    names = [f.name for f in dataclasses.fields(Program)]
    assert {"card_defs", "compiler", "main", "end_checks", "statistics", "definitions", "warnings"} <= set(names)
    for name in names:
        assert getattr(rules, name) is getattr(program, name), name


def test_a_program_cannot_be_changed(rules):
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.program.card_defs = {}
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.program.max_decisions = 3


def test_compile_ruleset_gives_a_program_without_the_engine():
    program = compile_ruleset(load_ruleset("initiative"))
    assert isinstance(program, Program)
    assert program.name == "initiative" and program.main.name == "main"
    assert program.codes["main"] is program.main
    assert sorted(program.card_defs) == sorted(program.definitions.cards)


def test_a_caller_may_change_the_cap_of_decisions_of_its_rules_not_the_program(rules):
    other = load("lanes")
    other.max_decisions = 7
    assert other.new_game(seed=1).state.max_decisions == 7
    assert other.program.max_decisions == rules.max_decisions != 7


def test_a_requirement_that_fails_is_a_load_error_at_its_place(tmp_path):
    shutil.copytree(ROOT / "rulesets", tmp_path / "rulesets")
    shutil.copytree(ROOT / "cards", tmp_path / "cards")
    path = tmp_path / "rulesets" / "lanes" / "lanes.yaml"
    text = path.read_text()
    assert text.count("count(card_names()) >= 16") == 1
    path.write_text(text.replace("count(card_names()) >= 16", "count(card_names()) >= 1000"))
    with pytest.raises(RulesError) as err:
        load(str(path))
    assert str(err.value).startswith(
        f"{path}:108:11: rules error: the draft needs at least 16 cards in the card set (4 rounds of 4)")


@pytest.mark.parametrize("game", shipped_games())
def test_scores_and_counters_are_worked_out_on_a_game_by_the_rules(game):
    rules = load(game)
    played = rules.play_out(lambda g: 0, seed=3, max_decisions=60)
    stats = rules.statistics
    scores = [rules.score_of(played, seat) for seat in range(1, rules.player_count + 1)]
    if stats.score is None:
        assert scores == [None] * rules.player_count
    else:
        assert all(isinstance(s, (int, float)) and not isinstance(s, bool) for s in scores)
    counters = rules.counters_of(played, 1)
    assert list(counters) == [name for name, _code, _expr in stats.counters]


def test_the_checker_sets_declared_fields_of_the_ruleset_not_a_private_dict(rules):
    fields = {f.name for f in dataclasses.fields(type(rules.ruleset))}
    assert {"definitions", "warnings", "deck_format_option"} <= fields
    assert "extra" not in fields
    assert rules.ruleset.definitions is rules.definitions is rules.program.definitions
    assert sorted(rules.ruleset.definitions.cards) == sorted(rules.card_defs)
    assert rules.ruleset.warnings == rules.warnings == ()
    assert rules.ruleset.deck_format_option is None


def test_a_ruleset_with_a_deck_format_option_declares_it():
    ruleset = load_ruleset("bases")
    option = ruleset.deck_format_option
    assert option is not None and option in ruleset.options


def test_compiling_an_unchecked_ruleset_is_refused():
    ruleset = dataclasses.replace(load_ruleset("initiative"), definitions=None)
    with pytest.raises(ValueError, match="the ruleset 'initiative' is not checked"):
        compile_ruleset(ruleset)
