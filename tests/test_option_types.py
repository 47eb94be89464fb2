"""Option types beyond int/bool/choice, and text attributes limited to declared values.

Options: `nullable: true` (none or a value, `--option x=none`), `type: text` (any text) and
`type: list, of: int|text|choice` (`--option order=3,1,2`), typed from Python, YAML defaults and
the command line alike, read by rule code as `options.NAME` (`in` on a list, `== none` on a
nullable), every wrong value an error naming the option and what it takes.

Attributes: `values: [...]` on a text attribute refuses, at load, a card that prints another value
(located at the value, with the allowed ones) and a default outside them; at run time, a rule or a
scenario writing another value is refused with a located error (writes are not adjusted).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from interpreter import load
from interpreter.cli.main import main
from interpreter.errors import CardrulesError, ErrorList, RulesError, RuntimeRuleError, ValidationError
from interpreter.rules.decks import Deck
from interpreter.scenarios import check_scenario, run_scenario

TOY_DIR = Path(__file__).resolve().parent / "data" / "toy"

TYPED_RULES = """\
procedure typed_setup() {
  if options.limit == none { game.counter = 100 } else { game.counter = options.limit }
  if 3 in options.order { game.counter += 1000 }
  if "blue" in options.colours { game.counter += 20000 }
  if options.greeting == "hi there" { game.counter += 300000 }
  game.counter += count(options.order) * 1000000
  for t in options.tags { game.counter += 10000000 }
}
"""

TYPED_YAML = """\
extends: toy.yaml
name: typed
code: [toy.rules, typed.rules]
setup: typed_setup()
options:
  limit: {type: int, nullable: true, default: null, min: 0}
  greeting: {type: text, default: hello}
  order: {type: list, of: int, default: [1, 2], min: 1, max: 5}
  colours: {type: list, of: choice, values: [red, blue, green], default: [red]}
  tags: {type: list, of: text, default: []}
"""


def _toy_variant(tmp_path: Path, name: str, yaml: str, rules: str) -> Path:
    """The toy ruleset copied into tmp_path with a variant `name.yaml` of it and its rule file."""
    for f in TOY_DIR.iterdir():
        shutil.copy(f, tmp_path / f.name)
    (tmp_path / f"{name}.rules").write_text(rules, encoding="utf-8")
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml, encoding="utf-8")
    return path


@pytest.fixture
def typed(tmp_path: Path) -> Path:
    return _toy_variant(tmp_path, "typed", TYPED_YAML, TYPED_RULES)


def _counter(path: Path, **options) -> tuple[dict, int]:
    """The options as loaded and the counter the set-up computes from them."""
    rules = load(path, options=options or None)
    game = rules.new_game(seed=1, decks=[Deck("none", "-", ()) for _ in range(rules.player_count)])
    return rules.options, game.state.globals["counter"]


# ------------------------------------------------------------------ options
def test_typed_options_take_their_defaults(typed):
    options, counter = _counter(typed)
    assert options["limit"] is None and options["greeting"] == "hello"
    assert options["order"] == [1, 2] and options["colours"] == ["red"] and options["tags"] == []
    assert counter == 2_000_100  # limit none: 100; two items in order


def test_typed_options_from_command_line_text(typed):
    options, counter = _counter(typed, limit="7", order="3,1,2", colours="blue, red", greeting="hi there",
                                tags="a,b")
    assert options["limit"] == 7 and options["order"] == [3, 1, 2] and options["colours"] == ["blue", "red"]
    assert options["tags"] == ["a", "b"] and options["greeting"] == "hi there"
    assert counter == 7 + 1000 + 20000 + 300000 + 3_000_000 + 20_000_000


def test_none_and_empty_lists_from_text_and_python(typed):
    assert _counter(typed, limit="none", order="", tags="")[1] == 100
    assert _counter(typed, limit="None")[0]["limit"] is None
    options, counter = _counter(typed, limit=None, order=[3], colours=["green"])
    assert options["order"] == [3] and counter == 100 + 1000 + 1_000_000


@pytest.mark.parametrize("options, message", [
    ({"limit": "x"}, "option limit takes a whole number, at least 0, or none, not 'x'"),
    ({"limit": -1}, "option limit must be at least 0, not -1"),
    ({"order": "1,x"}, "option order, item 2, takes a whole number from 1 to 5, not 'x'"),
    ({"order": "0"}, "option order, item 1, must be at least 1, not 0 (a whole number from 1 to 5)"),
    ({"order": 5}, "option order takes a list of whole numbers from 1 to 5 (comma-separated), not 5"),
    ({"colours": "blu"}, "option colours, item 1, takes one of red, blue, green, not 'blu' (did you mean 'blue'?)"),
    ({"greeting": 3}, "option greeting takes any text, not 3"),
    ({"greeting": None}, "option greeting takes any text, not none"),
    ({"loops": "none"}, "option loops takes a whole number, at least 0, not 'none'"),
    ({"style": "none"}, "option style takes one of plain, fancy, not 'none'"),
])
def test_a_wrong_option_value_names_the_option_and_what_it_takes(typed, options, message):
    with pytest.raises(RulesError) as info:
        load(typed, options=options)
    assert info.value.message == message


def test_a_scenario_sets_list_and_none_options(typed):
    scenario = typed.parent / "s.yaml"
    # the set-up's counter: limit none 100, 3 in order 1000, one item in order, two tags
    scenario.write_text("ruleset: typed.yaml\ncites: [T-1]\noptions: {limit: null, order: [3], tags: [a, b]}\n"
                        "when: []\nthen:\n  game.counter: 21001100\n")
    result = run_scenario(scenario)
    assert result.passed, result.failures
    scenario.write_text(scenario.read_text().replace("order: [3]", "order: [3, 7]"))
    with pytest.raises(RulesError, match="option order, item 2, must be at most 5, not 7"):
        check_scenario(scenario)


def test_the_command_line_types_list_and_none_options(typed, capsys):
    assert main(["cards", str(typed), "--option", "order=3,1,2", "--option", "limit=none"]) == 0
    capsys.readouterr()
    assert main(["cards", str(typed), "--option", "order=3,9"]) == 2
    err = capsys.readouterr().err
    assert "option order, item 2, must be at most 5, not 9" in err and "Traceback" not in err


@pytest.mark.parametrize("definition, message", [
    ("{type: list, default: []}", "missing required key 'of'"),
    ("{type: int, of: int, default: 1}", "of applies to list options only"),
    ("{type: list, of: choice, default: []}", "missing required key 'values'"),
    ("{type: list, of: int, values: [a], default: []}", "values apply to choice options and lists of choice only"),
    ("{type: list, of: text, min: 1, default: []}", "min and max apply to int options and lists of int only"),
    ("{type: text, default: 3}", "expected text or null"),
    ("{type: list, of: int, default: 3}", "expected a list or null"),
    ("{type: text, min: 1, default: a}", "min and max apply to int options and lists of int only"),
])
def test_a_wrong_option_definition_is_located(tmp_path, definition, message):
    path = _toy_variant(tmp_path, "bad", f"extends: toy.yaml\nname: bad\noptions:\n  odd: {definition}\n", "")
    with pytest.raises(CardrulesError) as info:
        load(path)
    errors = info.value.errors if isinstance(info.value, ErrorList) else [info.value]
    assert any(message in e.message and e.span.file.endswith("bad.yaml") and e.span.line == 4 for e in errors), \
        [str(e) for e in errors]


@pytest.mark.parametrize("definition, message", [
    ("{type: int, default: null}", "option odd takes a whole number, not none"),
    ("{type: list, of: int, min: 1, default: [1, 0]}", "option odd, item 2, must be at least 1, not 0"),
    ("{type: list, of: choice, values: [a, b], default: [c]}", "option odd, item 1, takes one of a, b, not 'c'"),
])
def test_a_default_the_option_does_not_take_is_located_at_it(tmp_path, definition, message):
    path = _toy_variant(tmp_path, "bad", f"extends: toy.yaml\nname: bad\noptions:\n  odd: {definition}\n", "")
    with pytest.raises(RulesError) as info:
        load(path)
    assert info.value.message.startswith(message)
    assert info.value.span.file.endswith("bad.yaml") and info.value.span.line == 4


def test_players_is_not_an_option_name(tmp_path):
    path = _toy_variant(tmp_path, "bad", "extends: toy.yaml\nname: bad\noptions:\n  players: {type: int, default: 3}\n",
                        "")
    with pytest.raises(RulesError, match="'players' is the option of the number of players") as info:
        load(path)
    assert info.value.span.line == 4


# ------------------------------------------------------------------ attributes limited to values
SUITS_YAML = """\
extends: toy.yaml
name: suits
code: [toy.rules, suits.rules]
globals:
  trump: {type: text, values: [S, H, D, C], default: S}
player_attributes:
  called: {type: text, values: [S, H, D, C]}
card_types:
  site:
    attributes:
      colour: {type: text, values: [red, blue, green]}
"""

SUITS_RULES = """\
procedure set_trump(x) {
  game.trump = x
}
procedure call_suit(p, x) {
  p.called = x
}
procedure paint(c, x) {
  c.colour = x
}
procedure make_site(x) {
  create "Red Keepsake" in sites(players[1]) with { colour = x }
}
procedure paint_for_a_while(c, x) {
  modify c.colour to x until tick
}
"""


@pytest.fixture
def suits(tmp_path: Path) -> Path:
    return _toy_variant(tmp_path, "suits", SUITS_YAML, SUITS_RULES)


def _empty_game(path: Path):
    rules = load(path)
    return rules.empty_game(seed=1, decks=[Deck("none", "-", ()) for _ in range(rules.player_count)])


def test_a_card_printing_a_value_outside_values_is_refused_at_it(suits):
    cards = suits.parent / "toy.cards"
    text = cards.read_text()
    cards.write_text(text.replace('colour = "blue"', 'colour = "bleu"'))
    line = text[:text.index('colour = "blue"')].count("\n") + 1
    with pytest.raises(ValidationError) as info:
        load(suits)
    err = info.value
    assert err.message == ("attribute 'colour' of 'Blue Outpost' is 'bleu'; site cards have it one of red, blue, "
                           "green (did you mean 'blue'?)")
    assert err.span.file.endswith("toy.cards") and err.span.line == line
    assert err.span.column == text.splitlines()[line - 1].index('"blue"') + 1
    assert "values: red, blue, green" in str(err)


def test_a_card_printing_a_number_outside_min_max_is_refused_at_it(suits):
    cards = suits.parent / "toy.cards"
    text = cards.read_text()
    cards.write_text(text.replace('power = 3', 'power = -2'))
    line = text[:text.index('power = 3')].count("\n") + 1
    with pytest.raises(ValidationError) as info:
        load(suits)
    assert info.value.message == "attribute 'power' of 'Big' is -2; unit cards have it at least 0"
    assert info.value.span.line == line and info.value.span.file.endswith("toy.cards")


def test_a_default_outside_values_is_refused_at_it(tmp_path):
    path = _toy_variant(tmp_path, "suits", SUITS_YAML.replace("default: S", "default: X"), SUITS_RULES)
    with pytest.raises(RulesError) as info:
        load(path)
    assert info.value.message == "attribute 'trump': its default 'X' is not one of its values: S, H, D, C"
    assert info.value.span.line == 5


def test_values_apply_to_text_attributes_only(tmp_path):
    path = _toy_variant(tmp_path, "suits", SUITS_YAML.replace("trump: {type: text", "trump: {type: int"),
                        SUITS_RULES)
    with pytest.raises(CardrulesError, match="values apply to text attributes only"):
        load(path)


def test_writes_within_values_are_kept(suits):
    game = _empty_game(suits)
    assert game.state.globals["trump"] == "S" and game.read(game.players[0], "called") is None
    game.perform("set_trump", x="H")
    game.perform("call_suit", p=game.players[1], x="C")
    game.perform("make_site", x="green")
    site = game.state.zones[("sites", 1, "")][-1]
    game.perform("paint", c=site, x="blue")
    game.perform("set_trump", x=None)  # none: no value
    assert game.state.globals["trump"] is None and game.read(game.players[1], "called") == "C"
    assert game.read(site, "colour") == "blue"


@pytest.mark.parametrize("procedure, args, message, line", [
    ("set_trump", {"x": "Q"}, "attribute 'trump' of the game takes one of S, H, D, C, not 'Q'", 2),
    ("call_suit", {"x": "s"}, "attribute 'called' of P1 takes one of S, H, D, C, not 's'", 5),
    ("make_site", {"x": "pink"}, "attribute 'colour' of Red Keepsake takes one of red, blue, green, not 'pink'", 11),
    ("paint", {"x": "Blue"},
     "attribute 'colour' of Red Keepsake takes one of red, blue, green, not 'Blue' (did you mean 'blue'?)", 8),
    ("paint_for_a_while", {"x": "grey"},
     "attribute 'colour' of Red Keepsake takes one of red, blue, green, not 'grey' (did you mean 'green'?)", 14),
])
def test_a_rule_writing_a_value_outside_values_is_refused_at_its_statement(suits, procedure, args, message, line):
    game = _empty_game(suits)
    game.perform("make_site", x="red")
    if procedure == "call_suit":
        args = {"p": game.players[0], **args}
    elif procedure in ("paint", "paint_for_a_while"):
        args = {"c": game.state.zones[("sites", 1, "")][-1], **args}
    with pytest.raises(RuntimeRuleError) as info:
        game.perform(procedure, **args)
    err = info.value
    assert err.message.startswith(message) and f"procedure {procedure}" in err.message
    assert err.span.file.endswith("suits.rules") and err.span.line == line


def test_a_scenario_giving_a_value_outside_values_is_refused_at_it(suits):
    scenario = suits.parent / "s.yaml"
    scenario.write_text("ruleset: suits.yaml\ncites: [T-1]\ngiven:\n  turn: {number: 1, phase: main}\n"
                        "  globals: {trump: X}\n  players:\n    1: {called: H}\nthen:\n  game.trump: X\n")
    with pytest.raises(RulesError) as info:
        check_scenario(scenario)
    assert info.value.message == "'trump' takes one of S, H, D, C, not 'X'"
    assert info.value.span.file.endswith("s.yaml") and info.value.span.line == 5
