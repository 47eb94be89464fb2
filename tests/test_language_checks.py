"""Mistakes a new game meets, found at load where the code says enough, and otherwise stopped at
run time with a located rule error (never a Python traceback):

- a decision without a player, or a zone of `you`, in code that surely has no `you` (set-up and
  phase code, and what only they call); a zone written with the wrong number of players, with
  messages that say which kind of zone a name is;
- a zone and a player attribute of one name; a user function that calls itself without end
  (in both the resumable and the rollout form); a value of the wrong type written into a typed
  global or attribute.

Each builds on the toy ruleset (tests/data/toy) copied into tmp_path."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from ruleerrors import both_ways, load_error, located_at
from toyrules import toy_with

from interpreter import load
from interpreter.errors import RuntimeRuleError


def _toy(tmp_path: Path, rules: str = "", setup: str | None = None, after: dict[str, str] | None = None) -> Path:
    """The toy ruleset with `rules` as an extra rules file, another `setup:` line, and lines added
    after the named keys of toy.yaml (`after={"zones": "  track: {...}\\n"}`)."""
    path = toy_with(tmp_path, rules)
    text = path.read_text(encoding="utf-8")
    if setup is not None:
        text = text.replace("setup: run_setup()", f"setup: {setup}")
    for key, lines in (after or {}).items():
        assert f"\n{key}:\n" in text, key
        text = text.replace(f"\n{key}:\n", f"\n{key}:\n{lines}", 1)
    path.write_text(text, encoding="utf-8")
    return path


# ---------------------------------------------------------------- decisions and zones with no `you`
def test_a_choice_without_a_player_in_the_set_up_is_refused_at_load(tmp_path):
    path = _toy(tmp_path, setup="'let c = choose \"one\" from [1, 2]'")
    err = load_error(path)
    located_at(err, path, 35, 17)
    assert err.message == "a choice needs a player: write 'by PLAYER' here"
    assert err.hint == "the set-up has no 'you': it runs with no card"


def test_a_choice_without_a_player_in_a_procedure_only_the_set_up_calls(tmp_path):
    path = _toy(tmp_path, "procedure deal() {\n  inner()\n}\nprocedure inner() {\n  let c = choose from [1, 2]\n}\n",
                setup="deal()")
    err = load_error(path)
    located_at(err, tmp_path / "extra.rules", 5, 11)
    assert err.message == "a choice needs a player: write 'by PLAYER' here"
    assert err.hint == "procedure 'inner' has no 'you': only code with no card calls it (the set-up -> deal -> inner)"


def test_a_may_by_you_in_phase_code_is_refused(tmp_path):
    path = _toy(tmp_path, "procedure ask() { may \"go on\" by you { game.counter = 1 } }\n")
    path.write_text(path.read_text(encoding="utf-8").replace("do: main_phase()", "do: ask()"), encoding="utf-8")
    err = load_error(path)
    located_at(err, tmp_path / "extra.rules", 1, 34)
    assert err.message == "a choice needs a player: 'you' is none here, write 'by PLAYER' with a player"
    assert "(phase main -> ask)" in err.hint


def test_a_zone_of_you_in_the_set_up_is_refused(tmp_path):
    path = _toy(tmp_path, setup="'move first(pool()) to hand(you)'")
    err = load_error(path)
    located_at(err, path, 35, 36)
    assert err.message == "'you' is none here, so hand(you) is no player's zone: give hand(...) a player"


def test_code_that_may_have_a_you_is_not_refused(tmp_path):
    """Only what is certain: a procedure that a card may call too, or that no rule code calls
    (Python may run it with a player), keeps its `choose` without `by`."""
    rules = "procedure deal() { let c = choose from [1, 2] }\nprocedure spare() { let c = choose from [1, 2] }\n" \
            'card "Dealer" : unit { part top { deal() } }\n'
    load(_toy(tmp_path, rules, setup="deal()"))


def test_the_runtime_check_is_still_there_for_what_the_load_cannot_know(tmp_path):
    rules = "procedure deal() { let c = choose from [1, 2] }\n" 'card "Dealer" : unit { part top { deal() } }\n'
    game_rules = load(_toy(tmp_path, rules, setup="deal()"))
    for err in both_ways(game_rules, "a choice needs a player"):
        located_at(err, tmp_path / "extra.rules", 1, 28)


TRACK = "  track: {per: shared, ordered: true, visibility: public, rows: [east, west]}\n"


@pytest.mark.parametrize("code, column, message", [
    ("move first(pool(game.active)) to hand(game.active)", 12, "'pool' is a shared zone: write pool() with no player"),
    ("move first(pool) to hand(game.active)", 12, "'pool' is a shared zone: write pool() with no player"),
    ("move first(pool()) to pool", 23, "'pool' is a shared zone: write pool() with no player"),
    ("let n = count(hand)", 15, "'hand' is a zone of each player: write hand(p)"),
    ("move first(pool()) to hand()", 23, "'hand' is a zone of each player: write hand(p)"),
    ('move first(pool()) to hand("left")', 28, "'hand' is a zone of each player: write hand(p)"),
    ("let n = count(hand(game.active, 2))", 15, "'hand' is a zone of each player: write hand(p)"),
    ("move first(pool()) to board()", 23, "'board' is a zone of each player, made of rows: write board(p, \"left\")"),
    ("move first(pool()) to board(game.active)", 23,
     "zone 'board' is made of rows (left, right): say which here, like board(p, \"left\")"),
    ("move first(pool()) to track(game.active)", 29,
     "'track' is a shared zone made of rows: write track(\"east\") with no player"),
    ('move first(pool()) to track(game.active, "east")', 23,
     "'track' is a shared zone made of rows: write track(\"east\") with no player"),
])
def test_zone_messages_say_which_kind_of_zone_a_name_is(tmp_path, code, column, message):
    path = _toy(tmp_path, f"procedure x() {{\n{code}\n}}\n",
                after={"zones": TRACK})
    err = load_error(path)
    located_at(err, tmp_path / "extra.rules", 2, column)
    assert err.message == message


def test_zones_written_rightly_still_load(tmp_path):
    code = ("procedure x(p) {\n  move first(pool()) to hand(p)\n  move first(hand(p)) to board(p, \"left\")\n"
            "  move first(pool()) to track(\"east\")\n  let n = count(hand()) + count(board(p)) + count(track())\n}\n")
    load(_toy(tmp_path, code,
              after={"zones": TRACK}))


# ---------------------------------------------------------------- name clashes
def test_a_zone_and_a_player_attribute_of_one_name_are_refused_naming_both(tmp_path):
    path = _toy(tmp_path, after={"player_attributes": "  books: {type: int, default: 0}\n",
                                 "zones": "  books: {per: player, ordered: true}\n"})
    err = load_error(path)
    located_at(err, path, 13, 3)
    assert err.message == (f"'books' is declared twice: as a zone at {path}:16:3 and as a player attribute at "
                           f"{path}:13:3")
    assert "players.1.books" in err.hint


# ---------------------------------------------------------------- functions that never end
@pytest.mark.parametrize("where", ["setup", "phase"])
def test_a_function_that_calls_itself_without_end_is_a_rule_error_naming_it(tmp_path, where):
    rules = "function f(n) = f(n + 1)\nprocedure use_f() { game.counter = f(1) }\n"
    if where == "setup":
        path = _toy(tmp_path, rules, setup="use_f()")
    else:  # (after a decision: the game runs on from `apply`)
        path = _toy(tmp_path, rules)
        path.write_text(path.read_text(encoding="utf-8").replace('do: "emit tick()"', "do: use_f()"),
                        encoding="utf-8")
    rules_loaded = load(path)
    for err in both_ways(rules_loaded, "calls or triggered abilities without end, in function f\n"):
        located_at(err, tmp_path / "extra.rules", 1, 17)
        assert "RecursionError" not in str(err)


def test_a_game_stopped_by_a_runaway_function_cannot_go_on(tmp_path):
    path = _toy(tmp_path, "function f(n) = f(n + 1)\nprocedure use_f() { game.counter = f(1) }\n", setup="use_f()")
    game = load(path).empty_game(seed=1)
    with pytest.raises(RuntimeRuleError, match="in function f"):
        game.perform("use_f")
    assert game.state.broken == "rule code ran too deep"


# ---------------------------------------------------------------- values of the wrong type
CARD_GLOBAL = "  pick: {type: card}\n"


@pytest.mark.parametrize("code, column, message", [
    ("game.pick = 3", 13, "cannot set game.pick to a number: it holds a card (type: card)"),
    ('game.pick = "Plain"', 13, "cannot set game.pick to text: it holds a card (type: card)"),
    ("game.counter = count(hand(p)) > 0", 16, "cannot set game.counter to true or false: it holds a number (type: int)"),
    ('p.score = "high"', 11, "cannot set attribute 'score' to text: it holds a number (type: int)"),
    ("p.score = [1]", 11, "cannot set attribute 'score' to a list: it holds a number (type: int)"),
    ('p.score += "x"', 12, "cannot add text to attribute 'score': it holds a number (type: int)"),
    ('create "Plain" in pool() with { power = "big" }', 41,
     "cannot set attribute 'power' to text: it holds a number (type: int)"),
    ("first(pool()).colours = hand(p) + 1", 1, None),  # (a list: fits)
    ("game.active = pool()", 15, "cannot set game.active to a list: it holds a player (type: player)"),
    ("first(pool()).controller = 2", 28, "cannot set 'controller' to a number: it holds a player (type: player)"),
])
def test_a_value_of_a_known_wrong_type_is_refused_at_load(tmp_path, code, column, message):
    path = _toy(tmp_path, f"procedure x(p) {{\n{code}\n}}\n", after={"globals": CARD_GLOBAL})
    if message is None:
        load(path)
        return
    err = load_error(path)
    located_at(err, tmp_path / "extra.rules", 2, column)
    assert err.message == message
    if "game.pick" in message:
        assert err.hint == f"game.pick is declared at {path}:11:3"


@pytest.mark.parametrize("rules, setup, column, message", [
    ("procedure put(x) { game.pick = x }", "put(3)", 20,
     "cannot set game.pick to 3 (a number): it holds a card (type: card) (in procedure put)"),
    ("procedure put(x) { for p in players { p.score = x } }", "'put(\"high\")'", 39,
     "cannot set attribute 'score' to 'high' (text): it holds a number (type: int) (in procedure put)"),
    ('procedure put(x) { create "Plain" in pool() with { power = x } }', "put(players)", 20,
     "cannot set attribute 'power' to P1 + P2 (a list): it holds a number (type: int) (in procedure put)"),
])
def test_a_value_of_a_wrong_type_the_load_cannot_see_stops_the_game_where_it_is_written(tmp_path, rules, setup,
                                                                                       column, message):
    path = _toy(tmp_path, rules + "\n", setup=setup, after={"globals": CARD_GLOBAL})
    for err in both_ways(load(path), re.escape(message)):
        located_at(err, tmp_path / "extra.rules", 1, column)


def test_values_of_the_right_type_are_written(tmp_path):
    rules = ("procedure put(x, n) {\n  game.pick = x\n  game.pick = none\n  game.pick = x\n"
             "  for p in players { p.score = n }\n}\n")
    path = _toy(tmp_path, rules, setup="'create \"Plain\" in pool() as c put(c, 4)'", after={"globals": CARD_GLOBAL})
    game = load(path).new_game(seed=1)
    assert game.state.globals["pick"].defn.name == "Plain"
    assert [game.read(p, "score") for p in game.players] == [4, 4]
