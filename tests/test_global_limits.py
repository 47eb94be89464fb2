"""A global's declared `min`/`max` (issue 29, point 15): every write is clamped, as a player's or a
card's attribute is: `=`, `+=` and `-=` in rule code (in a procedure that runs as plain Python, in
one that stops at a decision, and in the rules' play-out form), and the engine's own writes; a
default outside the limits is a located load error."""

from __future__ import annotations

from pathlib import Path

import pytest
from toyrules import empty_game, in_hand, toy_with

from interpreter import load
from interpreter.errors import CardrulesError, ErrorList, RuntimeRuleError
from interpreter.rules.decks import Deck

GLOBALS = """\
  counter: {type: int, default: 0}
  tokens: {type: int, default: 8, min: 0, max: 8}
  seen_up: {type: int}
  seen_twelve: {type: int}
  seen_down: {type: int}
"""

RULES = """\
procedure up() { game.tokens += 1 }
procedure twelve() { game.tokens = 12 }
procedure down() { game.tokens -= 20 }
procedure cleared() { game.tokens = none }

procedure writes() {
  game.tokens += 1
  game.seen_up = game.tokens
  game.tokens = 12
  game.seen_twelve = game.tokens
  let n = choose "how many to take" from [20, 30] by players[1]
  game.tokens -= n
  game.seen_down = game.tokens
}

procedure tokens_setup() {
  run_setup()
  writes()
}
"""


def _rules(tmp_path: Path, globals_yaml: str = GLOBALS, rules: str = RULES):
    path = toy_with(tmp_path, rules)
    text = path.read_text(encoding="utf-8")
    text = text.replace("  counter: {type: int, default: 0}\n", globals_yaml)
    path.write_text(text.replace("setup: run_setup()", "setup: tokens_setup()"), encoding="utf-8")
    return load(path)


def _empty_decks() -> list[Deck]:
    return [Deck("none", "-", ()) for _ in range(2)]


@pytest.mark.parametrize(("procedure", "expected"), [("up", 8), ("twelve", 8), ("down", 0), ("cleared", None)])
def test_a_write_in_plain_python_is_held_within_the_limits(tmp_path, procedure, expected):
    game = empty_game(_rules(tmp_path))
    assert game.state.globals["tokens"] == 8
    game.perform(procedure, controller=1)
    assert game.state.globals["tokens"] == expected


def _seen(game) -> tuple:
    return game.state.globals["seen_up"], game.state.globals["seen_twelve"], game.state.globals["seen_down"]


def test_writes_around_a_decision_are_held_within_the_limits(tmp_path):
    game = empty_game(_rules(tmp_path))
    game.perform("writes", controller=1)
    assert game.decision()[0] == 1  # stopped at the choose: resumed from its frame
    game.apply(0)
    assert _seen(game) == (8, 8, 0)


def test_the_set_up_played_step_by_step_and_in_its_play_out_form_holds_the_limits(tmp_path):
    rules = _rules(tmp_path)
    stepped = rules.new_game(seed=3, decks=_empty_decks())
    while not stepped.is_over:
        stepped.apply(0)
    fast = rules.play_out(lambda game: 0, seed=3, decks=_empty_decks())  # the rollout form
    assert _seen(stepped) == _seen(fast) == (8, 8, 0)
    assert stepped.state.globals["tokens"] == fast.state.globals["tokens"] == 0


def test_the_engine_write_holds_the_limits(tmp_path):
    game = empty_game(_rules(tmp_path))
    game.state.write(game.state.GAME, "tokens", 12)
    assert game.state.globals["tokens"] == 8
    game.state.write(game.state.GAME, "tokens", -3)
    assert game.state.globals["tokens"] == 0


def test_a_default_outside_the_limits_is_a_located_error(tmp_path):
    with pytest.raises(CardrulesError) as caught:
        _rules(tmp_path, GLOBALS.replace("default: 8, min: 0", "default: 12, min: 0"))
    assert "toy.yaml:12:32: rules error: attribute 'tokens': its default 12 is above its max 8" in str(caught.value)


# ---------------------------------------------------------------- modifiers, which globals do not take
MODIFIERS = """\
procedure boost() { modify game.tokens by 5 until tick }
card "Booster" : unit {
  static modify game.tokens by 3
}
"""


def test_a_modifier_on_a_global_is_a_located_error(tmp_path):
    with pytest.raises(ErrorList) as caught:
        _rules(tmp_path, rules=RULES + MODIFIERS)
    extra = tmp_path / "extra.rules"
    message = ("validation error: 'modify' works on an attribute of a card or a player, not on a global: game.tokens "
               "always reads its stored value")
    line = RULES.count("\n") + 1
    assert [str(e).splitlines()[0] for e in caught.value.errors] == [f"{extra}:{line}:28: {message}",
                                                                       f"{extra}:{line + 2}:17: {message}"]
    assert caught.value.errors[0].hint == "set it instead: game.tokens += ..., and back when the effect should end"


def test_a_modifier_on_the_game_reached_through_a_parameter_stops_the_game(tmp_path):
    # (a global of the name of a player attribute: `x.score` passes the load's checks)
    up = "procedure lift(x) { modify x.score by 5 until tick }\nprocedure probe() { lift(game) }\n"
    rules = _rules(tmp_path, GLOBALS + "  score: {type: int, default: 1}\n", RULES + up)
    game = empty_game(rules)
    with pytest.raises(RuntimeRuleError) as caught:
        game.perform("probe", controller=1)
    assert caught.value.message == ("'modify' works on an attribute of a card or a player, not on a global: "
                                    "game.score always reads its stored value (in procedure lift)")
    assert (caught.value.span.line, caught.value.span.column) == (RULES.count("\n") + 1, 21)


# ---------------------------------------------------------------- none, which no limit holds
NONE_WRITES = """\
procedure set_none(p, c) {
  game.tokens = none
  p.score = none
  c.power = none
}
procedure set_none_later(p, c) {
  let v = none
  game.tokens = v
  p.score = v
  c.power = v
  players[2].score = v
}
"""


@pytest.mark.parametrize("procedure", ["set_none", "set_none_later"])
def test_none_written_where_limits_are_declared_is_stored_as_none(tmp_path, procedure):
    rules = _rules(tmp_path, rules=RULES + NONE_WRITES)  # score has min -5, max 10; power min 0
    game = empty_game(rules)
    card = in_hand(game)
    game.perform(procedure, controller=1, p=game.players[0], c=card)
    assert game.state.globals["tokens"] is None
    assert game.state.player_attrs[0]["score"] is None and game.read(card, "power") is None
    assert game.state.player_attrs[1]["score"] is (None if procedure == "set_none_later" else 0)
