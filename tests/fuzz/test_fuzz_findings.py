"""Defects the fuzz tests found, each fixed, each kept here as the smallest case that showed it.

Not marked `fuzz`: these are ordinary, quick regression tests.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from toyrules import TOY_DIR, toy_with

from interpreter import load
from interpreter.errors import CardrulesError, CardSyntaxError, DeckError, ErrorList, RuntimeRuleError
from interpreter.lang.parser import parse, parse_block
from interpreter.paths import shown_path
from interpreter.scenarios import check_scenario, run_scenario

REPO = Path(__file__).resolve().parents[2]
SCENARIO = REPO / "tests/scenarios/bases/interaction-combat-influence-one-more-takes.yaml"


def syntax_error(text: str, file: str = "f.cards") -> CardSyntaxError:
    with pytest.raises(CardSyntaxError) as info:
        parse(text, file)
    return info.value


def first_line(err: CardrulesError) -> str:
    return str(err).splitlines()[0]


# ---------------------------------------------------------------- a parameter named twice
# `function target(id, id) = "a"` parsed and checked, then the compiler's Python was refused:
# SyntaxError "duplicate argument 'v_id' in function definition", a traceback out of load().
@pytest.mark.parametrize("text, column", [
    ('function target(id, id) = "a"', 21),
    ("procedure p(a, b, a) { }", 19),
    ("keyword k(x, x) { static modify self.power by x }", 14),
])
def test_a_parameter_named_twice_is_a_located_syntax_error(text: str, column: int) -> None:
    err = syntax_error(text)
    assert first_line(err).startswith(f"f.cards:1:{column}: syntax error: parameter ")
    assert "is named twice" in err.message


def test_a_parameter_named_twice_in_a_card_file_fails_the_load_with_its_place(tmp_path: Path) -> None:
    for f in TOY_DIR.iterdir():
        shutil.copy(f, tmp_path / f.name)
    cards = tmp_path / "toy.cards"
    cards.write_text(cards.read_text(encoding="utf-8") + 'function target(id, id) = "a"\n', encoding="utf-8")
    line = cards.read_text(encoding="utf-8").count("\n")
    with pytest.raises(CardSyntaxError) as info:
        load(tmp_path / "toy.yaml")
    assert first_line(info.value) == f"{cards}:{line}:21: syntax error: parameter 'id' is named twice"


def test_distinct_parameters_still_parse() -> None:
    assert parse("procedure p(a, b, c) { }").items[0].params == ("a", "b", "c")


# ---------------------------------------------------------------- a string escape past U+10FFFF
# "\U10000000" matches the grammar's STRING (8 hex digits) but Python cannot read it: a VisitError
# (SyntaxError inside) out of load().
@pytest.mark.parametrize("literal, escape", [
    (r'"\U10000000"', r"\U10000000"),
    (r'"ok \U0010ffff \U00110000"', r"\U00110000"),
    (r'"\UFFFFFFFF"', r"\UFFFFFFFF"),
    # a lone surrogate: it parsed, then `cardrules cards` failed to print it (UnicodeEncodeError)
    (r'"Bad \ud800"', r"\ud800"),
    (r'"a \uDFFF b"', r"\uDFFF"),
    (r'"\U0000d800"', r"\U0000d800"),
    (r'"\ude00\ud83d"', r"\ude00"),  # (a pair in the wrong order)
    (r'"\ud83d x\ude00"', r"\ud83d"),
])
def test_a_string_escape_that_names_no_character_is_a_located_syntax_error(literal: str, escape: str) -> None:
    text = f"procedure p() {{ let x = {literal} }}"
    err = syntax_error(text)
    column = text.index(escape) + 1
    assert first_line(err) == f"f.cards:1:{column}: syntax error: {escape} is not a character"
    assert str(err).encode("utf-8")


def test_a_bad_escape_in_embedded_code_is_placed_in_its_file() -> None:
    with pytest.raises(CardSyntaxError) as info:
        parse_block('let x = "\\U10000000"', "rules.yaml", 7, 9)
    assert (info.value.span.line, info.value.span.column) == (7, 18)


@pytest.mark.parametrize("literal, value", [
    (r'"\U0010ffff"', "\U0010ffff"), (r'"\u00e9"', "é"), (r'"\\U10000000"', "\\U10000000"),
    (r'"\\\ud7ff"', "\\\ud7ff"), (r'"\ud83d\ude00"', "😀"),  # (a surrogate pair is the character)
])
def test_escapes_of_characters_still_parse(literal: str, value: str) -> None:
    let = parse(f"procedure p() {{ let x = {literal} }}").items[0].body[0]
    assert let.value.value == value


# ---------------------------------------------------------------- scenarios
def scenario_with(tmp_path: Path, old: str, new: str) -> Path:
    """The scenario SCENARIO with `old` replaced by `new`, in tmp_path."""
    text = SCENARIO.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "s.yaml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


# `then: cards.$q1.tapp0g: true` (an attribute the card lacks) raised an unlocated RuntimeRuleError
# out of run_scenario, which returns failed checks and raises only for malformed files.
def test_a_then_path_naming_an_attribute_the_card_lacks_is_a_failed_check(tmp_path: Path) -> None:
    path = scenario_with(tmp_path, "cards.$q1.tapped: true", "cards.$q1.tappd: true")
    result = run_scenario(path)
    assert len(result.failures) == 1
    failure = result.failures[0]
    assert failure.startswith("then cards.$q1.tappd: card Test Guard has no attribute 'tappd'")
    assert failure.endswith(f"({path}:40:20)")


# `ruleset:` naming nothing (a line swapped into a multi-line plain scalar) raised a RulesError
# with no place and no file name.
def test_a_ruleset_that_names_nothing_is_an_error_at_it(tmp_path: Path) -> None:
    path = scenario_with(tmp_path, "ruleset: bases", "ruleset: basis")
    with pytest.raises(CardrulesError) as info:
        check_scenario(path)
    assert first_line(info.value) == f"{path}:1:10: rules error: unknown game 'basis' (did you mean 'bases'?)"


# Options the ruleset does not have, or values it does not take, were errors with no place.
def test_scenario_options_the_ruleset_refuses_are_errors_at_them(tmp_path: Path) -> None:
    path = scenario_with(tmp_path, "ruleset: bases", "ruleset: bases\noptions: {formt: x, turn_limit: -3}")
    with pytest.raises(ErrorList) as info:
        check_scenario(path)
    lines = [first_line(e) for e in info.value.errors]
    assert lines == [f"{path}:2:18: rules error: bases has no option 'formt' (did you mean 'format'?)",
                     f"{path}:2:33: rules error: option turn_limit must be at least 1, not -3"]


def test_scenario_options_the_ruleset_takes_still_load(tmp_path: Path) -> None:
    path = scenario_with(tmp_path, "ruleset: bases", "ruleset: bases\noptions: {turn_limit: 50}")
    assert check_scenario(path).options["turn_limit"] == 50


# `players.2.hand: [Test :, ...]` (YAML reads `Test :` as {Test: null}): an expected card's field
# that the card lacks raised an unlocated RuntimeRuleError out of run_scenario.
def test_an_expected_card_field_the_card_lacks_is_a_failed_check(tmp_path: Path) -> None:
    source = REPO / "tests/scenarios/lanes/rule-l-3.1-bastion-then-fort-by-damage.yaml"
    path = tmp_path / "s.yaml"
    path.write_text(source.read_text(encoding="utf-8").replace("hand: [Test Grunt,", "hand: [Test :,"),
                    encoding="utf-8")
    failures = run_scenario(path).failures
    assert len(failures) == 1
    assert failures[0].startswith("then players.2.hand: card Test Grunt has no attribute 'Test'")
    assert failures[0].endswith(f"({path}:37:3)")


# ---------------------------------------------------------------- found by playing what loaded
# Errors the engine raises for rule code (a zone of a player given a list, an attribute a card
# type lacks, reading from none) had no place: now at the rule statement running.
def test_a_runtime_error_without_a_span_is_placed_at_the_statement_running(tmp_path: Path) -> None:
    # (a list where the player goes is refused at load now: the player here comes from a list)
    ruleset = toy_with(tmp_path, "procedure bad() {\n  let x = count(hand(first([game.active])))\n}\n")
    ruleset.write_text(ruleset.read_text(encoding="utf-8").replace("setup: run_setup()", "setup: bad()"),
                       encoding="utf-8")
    rules = load(ruleset)
    deck = {"cards": {"Plain": 3}, "sites": {"Red Keepsake": 1, "Blue Outpost": 1, "Green Outpost": 1}}
    with pytest.raises(RuntimeRuleError) as info:
        rules.new_game(seed=1, decks=[deck, deck])
    # (its file shown relative to the current folder, as `validate` shows it)
    assert first_line(info.value) == (f"{shown_path(str(tmp_path / 'extra.rules'))}:2:3: runtime error: zone 'hand' belongs to a "
                                      "player: got None (in procedure bad)")


# A default deck file that does not exist: an unlocated DeckError ("no such file: ...") at the
# first game; now an error at the ruleset's `decks:`.
def test_a_missing_default_deck_is_an_error_at_the_rulesets_decks(tmp_path: Path) -> None:
    for folder in ("rulesets/initiative", "cards/initiative"):
        shutil.copytree(REPO / folder, tmp_path / folder)
    ruleset = tmp_path / "rulesets/initiative/initiative.yaml"
    ruleset.write_text(ruleset.read_text(encoding="utf-8").replace("decks/swarm.yaml]", "decks/swarm.for]"),
                       encoding="utf-8")
    rules = load(ruleset)
    with pytest.raises(DeckError) as info:
        rules.new_game(seed=1)
    missing = tmp_path / "rulesets/initiative/decks/swarm.for"
    line = next(i for i, text in enumerate(ruleset.read_text(encoding="utf-8").splitlines(), 1)
                if text.startswith("decks:"))
    assert first_line(info.value) == f"{ruleset}:{line}:1: deck error: the default deck {missing} does not exist"
    assert rules.new_game(seed=1, decks=[REPO / "rulesets/initiative/decks/swarm.yaml"] * 2).decision()


# `given: {turn: {active: 1_000}}` passed the schema and check_scenario, then run_scenario raised
# IndexError setting the active player.
def test_an_active_player_the_game_does_not_have_is_an_error_at_it(tmp_path: Path) -> None:
    source = REPO / "tests/scenarios/bases/interaction-combat-turn-limit-draw.yaml"
    path = tmp_path / "s.yaml"
    text = source.read_text(encoding="utf-8")
    assert "turn: {number: 2, phase: combat, active: 2}" in text
    path.write_text(text.replace("active: 2}", "active: 1_000}"), encoding="utf-8")
    line = path.read_text(encoding="utf-8").splitlines()[12]
    for call in (check_scenario, run_scenario):
        with pytest.raises(CardrulesError) as info:
            call(path)
        assert first_line(info.value) == (f"{path}:13:{line.index('1_000') + 1}: rules error: 1000 is not a "
                                          "player (use 1..2 or P1..)")
