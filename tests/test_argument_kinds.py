"""Arguments of a kind their parameter cannot take (issue 29, point 17): refused at load where the
procedure's or function's body fixes the parameter's kind (`deal(t, "one")` to a parameter used
as a number), at the argument, naming the use; and a value of the wrong kind that only the game
finds is a runtime error in the language's words at the rule's file:line:col, relative to the
current folder, never a Python TypeError."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from toyrules import empty_game, toy_with

from interpreter import load
from interpreter.backends import game_seed
from interpreter.cli.main import main
from interpreter.engine.rule_errors import rule_error_words
from interpreter.errors import CardrulesError, ErrorList, RuntimeRuleError

ROOT = Path(__file__).resolve().parents[1]

GIVE = """\
procedure give(p, n) {
  if n <= 0 { stop }
  p.score += n
}
function top(p) = first(hand(p))
procedure pass_on(m) { give(players[1], m) }
"""


def _errors(tmp_path: Path, rules: str) -> list[CardrulesError]:
    with pytest.raises(CardrulesError) as caught:
        load(toy_with(tmp_path, GIVE + rules))
    err = caught.value
    return list(err.errors) if isinstance(err, ErrorList) else [err]


def _first_line(err: CardrulesError) -> str:
    return str(err).splitlines()[0]


def test_text_for_a_parameter_used_as_a_number_is_refused_at_the_argument(tmp_path):
    [err] = _errors(tmp_path, 'procedure probe() { give(players[1], "two") }\n')
    extra = tmp_path / "extra.rules"
    assert (err.span.file, err.span.line, err.span.column) == (str(extra), 7, 38)
    assert _first_line(err) == (
        f"{extra}:7:38: validation error: procedure 'give' takes a number as 'n', not text: "
        f"'n' is used as a number at {extra}:2:6 (n <= 0)")


def test_a_number_for_a_parameter_used_as_a_player_is_refused(tmp_path):
    [err] = _errors(tmp_path, "function probe() = top(3)\n")
    extra = tmp_path / "extra.rules"
    assert _first_line(err) == (
        f"{extra}:7:24: validation error: function 'top' takes a player as 'p', not a number: "
        f"'p' is used as a player at {extra}:5:30 (hand(p))")


def test_a_parameter_passed_on_is_fixed_by_the_use_it_is_passed_to(tmp_path):
    [err] = _errors(tmp_path, "procedure probe() { pass_on(m: [1, 2]) }\n")
    extra = tmp_path / "extra.rules"
    assert _first_line(err) == (
        f"{extra}:7:32: validation error: procedure 'pass_on' takes a number as 'm', not a list: "
        f"'m' is passed to give(...) as 'n' at {extra}:6:24; 'n' is used as a number at {extra}:2:6 (n <= 0)")


@pytest.mark.parametrize("rules", [
    'procedure probe() { give(players[1], none) }',                    # none: code tests for it
    'procedure probe() { let n = "two"  give(players[1], n) }',       # a local: its kind unknown here
    'procedure either(x) { if x is int { game.counter = x - 1 } }\nprocedure probe() { either("a") }',
    'procedure again(x) { let x = "b"  game.counter = count([x]) - 1 }\nprocedure probe() { again("a") }',
    'procedure joined(x) { game.counter = count(x + 1) }\nprocedure probe() { joined([1]) }',  # `+` joins lists
    'procedure named(x) { if x < "m" { stop } }\nprocedure probe() { named("a") }',  # compared with text
])
def test_uses_that_do_not_fix_a_kind_refuse_nothing(tmp_path, rules):
    load(toy_with(tmp_path, GIVE + rules + "\n"))


def test_the_shipped_example_deal_with_text_is_refused_at_load(tmp_path):
    shutil.copytree(ROOT / "rulesets" / "bases", tmp_path / "rs")
    shutil.copytree(ROOT / "cards" / "bases", tmp_path / "cards")
    ruleset = tmp_path / "rs" / "bases.yaml"
    ruleset.write_text(ruleset.read_text(encoding="utf-8").replace("../../cards/bases", "../cards"), encoding="utf-8")
    cards = tmp_path / "cards" / "maneuvers.cards"
    text = cards.read_text(encoding="utf-8")
    assert "deal(t, 2)" in text
    cards.write_text(text.replace("deal(t, 2)", 'deal(t, "one")', 1), encoding="utf-8")
    with pytest.raises(CardrulesError) as caught:
        load(ruleset)
    rules = tmp_path / "rs" / "bases.rules"
    at = text.index("deal(t, 2)")
    line = text[:at].count("\n") + 1
    column = at - text.rfind("\n", 0, at) + len("deal(t, ")
    rules_text = rules.read_text(encoding="utf-8")
    rules_line = rules_text[: rules_text.index("amount <= 0")].count("\n") + 1
    assert _first_line(caught.value) == (
        f"{cards}:{line}:{column}: validation error: procedure 'deal' takes a number as 'amount', not text: "
        f"'amount' is used as a number at {rules}:{rules_line}:24 (amount <= 0)")


# ---------------------------------------------------------------- what only the game finds
RUNTIME = 'procedure probe() { let n = "two"  give(players[1], n) }\n'


def test_a_value_of_the_wrong_kind_at_run_time_is_said_in_the_language_s_words(tmp_path, monkeypatch):
    rules = load(toy_with(tmp_path, GIVE + RUNTIME))
    monkeypatch.chdir(tmp_path)
    with pytest.raises(RuntimeRuleError) as caught:
        empty_game(rules).perform("probe", controller=1)
    err = caught.value
    assert (err.span.file, err.span.line, err.span.column) == (str(tmp_path / "extra.rules"), 2, 3)
    assert str(err).splitlines() == [
        "extra.rules:2:3: runtime error: cannot compare text with a number (<=) in procedure give",
        "      if n <= 0 { stop }",
        "      ^"]
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")  # the same error, seen from another folder
    assert _first_line(err).startswith("../extra.rules:2:3: runtime error: cannot compare")


def test_play_names_the_rule_relative_to_the_current_folder(tmp_path, monkeypatch, capsys):
    ruleset = toy_with(tmp_path, GIVE + RUNTIME)
    ruleset.write_text(ruleset.read_text(encoding="utf-8").replace("setup: run_setup()", "setup: probe()"),
                       encoding="utf-8")
    (tmp_path / "other").mkdir()
    monkeypatch.chdir(tmp_path / "other")
    assert main(["play", str(ruleset), "--players", "random,random"]) == 1
    err = capsys.readouterr().err
    assert "../extra.rules:2:3: runtime error: cannot compare text with a number (<=) in procedure give" in err
    assert "TypeError" not in err and str(tmp_path) not in err


_NOTHING = None


def _python_error(fn) -> TypeError:
    with pytest.raises(TypeError) as caught:
        fn()
    return caught.value


@pytest.mark.parametrize(("fn", "words"), [
    (lambda: "one" <= 0, "cannot compare text with a number (<=)"),
    (lambda: "one" - 1, "cannot work out text - a number"),
    (lambda: 1 + "one", "cannot work out a number + text"),
    (lambda: "one" + 1, "cannot work out text + a number"),
    (lambda: -"one", "cannot work out -text"),
    (lambda: [x for x in 3], "cannot go through a number item by item: it is not a list"),
    (lambda: len(None), "cannot count none: it is not a list"),
    (lambda: _NOTHING[0], "cannot take an item of none: it is not a list"),
    (lambda: range("a"), "text where a whole number is needed"),
])
def test_python_type_errors_in_the_language_s_words(fn, words):
    assert rule_error_words(_python_error(fn)) == words


def test_other_python_errors_keep_their_name():
    assert rule_error_words(ZeroDivisionError("division by zero")) == "ZeroDivisionError: division by zero"


def test_simulate_shows_an_aborted_game_s_rule_relative_to_the_current_folder(tmp_path, monkeypatch, capsys):
    ruleset = toy_with(tmp_path, GIVE + RUNTIME)
    ruleset.write_text(ruleset.read_text(encoding="utf-8").replace("setup: run_setup()", "setup: probe()"),
                       encoding="utf-8")
    (tmp_path / "other").mkdir()
    monkeypatch.chdir(tmp_path / "other")
    monkeypatch.setenv("COLUMNS", "200")
    assert main(["simulate", str(ruleset), "--games", "1"]) in (0, 1)
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if f"seed {game_seed(0, 0)}" in line)  # (game 0 of --seed 0)
    assert "RuntimeRuleError: cannot compare text with a number (<=) in procedure give" in row
    assert row.rstrip("│ ").endswith("│ ../extra.rules:2:3"), row
    assert str(tmp_path) not in out
