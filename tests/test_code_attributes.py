"""Code on cards (issue 32.8): a card type declares an attribute of type `function` (with `params`
and `returns`) or `condition` (with `params`); each card writes it as code (`aims(t) = ...`, or a
block), and the rules call it, `s.aims(t)` or `call(s.aims, t)`, with `self` the card that holds it.
The test ruleset is tests/data/heroes (spells whose legal targets and damage are code on the
card; scenarios in tests/scenarios/heroes cite H-3.1..H-3.3). Bad code is a located load error:
another kind than declared, another number of parameters, code where a value is declared and
the reverse, an unknown code attribute, a call of it on a player."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from interpreter import load
from interpreter.errors import CardrulesError, RuntimeRuleError
from interpreter.lang.parser import parse
from interpreter.lang.printer import to_source
from interpreter.lang.values import ZoneKey

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "heroes"
RULES = load(DATA / "heroes.yaml")


def test_code_members_and_calls_print_and_parse_back():
    text = ('card "X" : spell {\n  aims(t) = t is minion and t.owner != self.owner\n'
            '  power(t) {\n    let n = t.attack\n    return n + 1\n  }\n}\n\n'
            'function f(s, t) = s.aims(t) and (-s).power(t, 1).x > 0\n')
    module = parse(text)
    assert to_source(module) == text
    assert parse(to_source(module)) == module
    # `call(s.aims, t)` is the same call, and is written back as `s.aims(t)`
    assert parse("function f(s, t) = call(s.aims, t)") == parse("function f(s, t) = s.aims(t)")


def test_each_card_carries_its_compiled_code_and_no_value_for_it():
    defs = RULES.card_defs
    assert sorted(defs["Smite"].code) == ["aims", "power"] and defs["Wolf"].code == {}
    spell = RULES.ruleset.card_types["spell"].attributes
    assert (spell["aims"].type, spell["aims"].params, spell["aims"].returns) == ("condition", ("t",), "bool")
    assert (spell["power"].type, spell["power"].params, spell["power"].returns) == ("function", ("t",), "int")


def _game_with(hand: list[str], board: list[str]):
    """A heroes game with P1's hand and P2's board as given (in an arranged position)."""
    game = RULES.empty_game(seed=0, made=False)
    for name in hand:
        game.state.new_card(RULES.card_defs[name], ZoneKey("hand", 1, ""), game.players[0])
    for name in board:
        game.state.new_card(RULES.card_defs[name], ZoneKey("board", 2, ""), game.players[1])
    return game


def test_the_code_runs_with_self_the_card_that_holds_it():
    game = _game_with(["Smite", "Frost Bolt", "Bear"], ["Wolf"])
    smite, bolt, bear = game.state.zones[ZoneKey("hand", 1, "")]
    wolf = game.state.zones[ZoneKey("board", 2, "")][0]
    warden, ranger = (game.state.zones[ZoneKey("hero", s, "")][0] for s in (1, 2))
    code = RULES.card_defs["Smite"].code
    from interpreter.lang.code_members import run_code
    assert [run_code(game.state, smite, "aims", c) for c in (warden, ranger, wolf, bear)] == [False, False, True, False]
    assert [run_code(game.state, bolt, "aims", c) for c in (warden, ranger, wolf, bear)] == [False, True, True, False]
    assert run_code(game.state, smite, "power", wolf) == 3 and "aims" in code


def test_calling_code_a_card_does_not_have_is_a_rule_error_naming_it():
    game = _game_with(["Bear"], [])
    bear = game.state.zones[ZoneKey("hand", 1, "")][0]
    from interpreter.lang.code_members import run_code
    with pytest.raises(RuntimeRuleError, match="cannot call 'aims' of Bear 1/4: 'Bear' has no code 'aims'"):
        run_code(game.state, bear, "aims", bear)


def broken(tmp_path: Path, file: str, old: str, new: str) -> Path:
    folder = tmp_path / "heroes"
    if not folder.exists():
        shutil.copytree(DATA, folder)
    path = folder / file
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return folder / "heroes.yaml"


def load_error(path: Path) -> str:
    with pytest.raises(CardrulesError) as info:
        load(path)
    return str(info.value)


def _at(path: Path, fragment: str, column_of: str | None = None) -> str:
    """`file:line:col` in the file at `path` of the first line holding `fragment`: the column of
    `column_of` in that line, else of the fragment."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if fragment in line:
            return f"{path.name}:{number}:{line.index(column_of or fragment) + 1}"
    raise AssertionError(fragment)


CARD_ERRORS = [
    ("  aims(t) = true", "  aims(t) = 3", ("  aims(t) = 3", "3"),
     "validation error: 'aims' of 'Fireball' is a condition: its code must give true or false, but this gives a number"),
    ("  power(t) = 3", '  power(t) = "3"', ('  power(t) = "3"', '"3"'),
     "validation error: 'power' of 'Fireball' is a function returning int: its code must give a number, but this "
     "gives text"),
    ("    return n + 1", "    return [n]", ("    return [n]", "[n]"),
     "validation error: 'power' of 'Smite' is a function returning int: its code must give a number, but this gives "
     "a list"),
    ("  aims(t) = player_of(t)", "  aims() = player_of(t)", ("  aims() = player_of", "aims"),
     "validation error: 'aims' of card type 'spell' takes 1 parameter(s) (t); this code takes 0"),
    ("  aims(t) = true", "  aim(t) = true", ("  aim(t) = true", "aim"),
     "validation error: card type 'spell' has no attribute 'aim' (did you mean 'aims'?)"),
    ("  aims(t) = true", "  aims = true", ("  aims = true", "aims"),
     "validation error: attribute 'aims' of card type 'spell' is a condition: write code, not a value"),
    ('card "Wolf" : minion { attack = 2', 'card "Wolf" : minion { attack(t) = 2', ('card "Wolf"', "attack"),
     "validation error: attribute 'attack' of card type 'minion' is int: give it a value (attack = ...), not code"),
    ("  aims(t) = true", "  aims(t) = tt", ("  aims(t) = tt", "tt"),
     "validation error: unknown name 'tt' (did you mean 't'?)"),
]


@pytest.mark.parametrize("old,new,where,expected", CARD_ERRORS, ids=lambda v: v if isinstance(v, str) else "")
def test_bad_code_on_a_card_is_located(tmp_path, old, new, where, expected):
    path = broken(tmp_path, "heroes.cards", old, new)
    message = load_error(path)
    assert f"{_at(path.parent / 'heroes.cards', *where)}: {expected}" in message, message


RULE_ERRORS = [
    ("where s.aims(t)", "where s.aims(t, 1)", ("where s.aims(t, 1)", "s.aims"),
     "validation error: 'aims' takes 1 argument(s) (t), got 2"),
    ("where s.aims(t)", "where s.aim(t)", ("where s.aim(t)", "s.aim"),
     "validation error: no card type declares code 'aim' (an attribute of type function or condition) (did you "
     "mean 'aims'?)"),
    ("where s.aims(t)", "where avatar(you).aims(t) and you.aims(t)", ("where s.aims(t)", "s.aims"),
     None),
    ("where s.aims(t)", "where s.aims", ("where s.aims", "s.aims"),
     "validation error: 'aims' is code on a card: call it with its arguments"),
]


@pytest.mark.parametrize("old,new,where,expected", RULE_ERRORS, ids=lambda v: v if isinstance(v, str) else "")
def test_bad_calls_of_code_are_located(tmp_path, old, new, where, expected):
    path = broken(tmp_path, "heroes.rules", old, new)
    message = load_error(path)
    if expected is None:  # (`you.aims`: a player holds no code; `avatar(you).aims` is a card's: fine)
        line = _at(path.parent / "heroes.rules", "avatar(you)").rsplit(":", 1)[0]
        assert f"{line}:{len('function targets_of(s) = all t in characters() where avatar(you).aims(t) and ') + 1}: " \
               "validation error: only a card holds code: this is a player, not a card" in message, message
        assert message.count("validation error") == 1, message
        return
    assert f"{_at(path.parent / 'heroes.rules', *where)}: {expected}" in message, message


YAML_ERRORS = [
    ("aims: {type: condition, params: [t],", "aims: {type: condition, params: [t], returns: int,", "int, desc",
     "rules error: attribute 'aims': a condition gives true or false; returns is for a function"),
    ("power: {type: function, params: [t], returns: int,", "power: {type: function, params: [t],", "power:",
     "rules error: attribute 'power': a function says what kind of value its code gives"),
    ("aims: {type: condition, params: [t],", "aims: {type: condition, params: [t], default: true,", "true, desc",
     "rules error: attribute 'aims': code has no default; each card writes its own (aims(...) = ...)"),
    ("attack: {type: int, default: 0, min: 0}", "attack: {type: int, default: 0, min: 0, params: [x]}", "params: [x]",
     "rules error: attribute 'attack': params is for code attributes (type function or condition), and this one is int"),
]


@pytest.mark.parametrize("old,new,at,expected", YAML_ERRORS, ids=lambda v: v if isinstance(v, str) else "")
def test_bad_declarations_of_code_are_located(tmp_path, old, new, at, expected):
    path = broken(tmp_path, "heroes.yaml", old, new)
    message = load_error(path)
    line_no, line = next((i, t) for i, t in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1) if at in t)
    assert f"heroes.yaml:{line_no}:{line.index(at) + 1}: {expected}" in message, message


def test_a_player_attribute_cannot_hold_code(tmp_path):
    path = broken(tmp_path, "heroes.yaml", "zones:\n", "player_attributes:\n  rule: {type: condition}\nzones:\n")
    assert "heroes.yaml:14:16: rules error: attribute 'rule': only a card holds code (type condition); player " \
           "attributes hold values" in load_error(path)


def test_a_card_template_may_write_code_with_its_loop_values(tmp_path):
    path = broken(tmp_path, "heroes.cards", 'card "Fireball"',
                  'cards for n in [4, 5]: "Bolt {n}" : spell { aims(t) = t.health < n  power(t) = n }\n'
                  'card "Fireball"')
    rules = load(path)
    game = rules.empty_game(seed=0, made=False)
    bolt = game.state.new_card(rules.card_defs["Bolt 5"], ZoneKey("hand", 1, ""), game.players[0])
    wolf = game.state.new_card(rules.card_defs["Wolf"], ZoneKey("board", 2, ""), game.players[1])
    from interpreter.lang.code_members import run_code
    ranger = game.state.zones[ZoneKey("hero", 2, "")][0]
    assert (run_code(game.state, bolt, "power", wolf), run_code(game.state, bolt, "aims", wolf),
            run_code(game.state, bolt, "aims", ranger)) == (5, True, False)


STATIC_SCENARIO = """ruleset: heroes.yaml
cites: [H-3.3]
given:
  turn: {player: 1, phase: main}
  players:
    1: {hand: [Fireball, Fireball]}
    2: {board: [Bear]}
when:
  - {player: 1, choose: Fireball}
  - {player: 1, choose: Bear 1/4}
then:
  players.2.board: [{name: Bear, health: 1, attack: 3}]
"""


def test_a_static_ability_reading_through_code_sees_what_the_code_reads(tmp_path):
    """Bear's static ability asks its own code, which reads its health: a change of health must
    reach the ability (before, only the attribute named in the call counted as read, and the
    cached attack stayed 1)."""
    path = broken(tmp_path, "heroes.yaml", "  minion:\n    extends: character\n",
                  "  minion:\n    extends: character\n    attributes:\n      enraged: {type: condition}\n")
    broken(tmp_path, "heroes.cards", 'card "Bear" : minion { attack = 1 health = 4 }',
           'card "Bear" : minion {\n  attack = 1 health = 4\n  enraged() = self.health < 4\n'
           '  static modify self.attack by 2 when self.enraged()\n}')
    broken(tmp_path, "heroes.cards", 'card "Wolf" : minion { attack = 2 health = 1 }',
           'card "Wolf" : minion { attack = 2 health = 1 enraged() = false }')
    from interpreter.scenarios.runner import run_scenario
    scenario = path.parent / "static.yaml"
    scenario.write_text(STATIC_SCENARIO, encoding="utf-8")
    result = run_scenario(scenario)
    assert result.failures == []


def test_code_is_no_state_nor_shown_in_an_observation():
    game = RULES.new_game(seed=4)
    hand = game.observation(1)["zones"]["P1"]["hand"]
    spells = [c for c in hand if c["type"] == "spell"]
    assert spells and all(set(c) == {"id", "name", "type"} for c in spells), spells
    assert RULES.card_defs["Smite"].initial == {} and "aims" not in RULES.attr_slots
