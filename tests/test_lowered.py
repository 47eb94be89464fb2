"""Selections built by loops, and the other shortcuts of procedures' plain Python form.

In a procedure's plain Python form (native procedures and the rollout form), a selection or
comprehension that a statement always works out is built by a loop before the statement
(`CodeGenerator.lowered`); one that it may not work out (after `and`, `or`, in an `elif` test)
stays where it is, so that it is worked out exactly when it was before. These tests check the
results, where the loops are, and that what must not be worked out is not."""

from __future__ import annotations

import random
import re

import pytest
from toyrules import empty_game as _empty
from toyrules import in_hand as _in_hand
from toyrules import source_of as _source_of
from toyrules import toy_with as _toy_with

from interpreter import load
from interpreter.errors import RuntimeRuleError
from interpreter.lang.values import ZoneKey


def _plain_source(rules, procedure: str) -> str:
    """The plain Python form of a native procedure."""
    return _source_of(rules, f"procedure {procedure}").split(f"def p_{procedure}")[1]


def test_selections_a_statement_always_works_out_are_built_by_loops(tmp_path):
    path = _toy_with(tmp_path, "procedure tally(p) {\n"
                               "  let strong = all c in hand(p) where c.power >= 2 and c.flag\n"
                               "  let powers = [c.power * 10 for c in hand(p) if not c.flag]\n"
                               "  game.counter = count(strong) * 1000 + sum_of(powers)\n"
                               "  game.counter += 100 * count(all c in hand(p) where c.power > 1)\n"
                               "  if count(all c in hand(p) where c.flag) > 0 { game.counter += 1000000 }\n}\n")
    rules = load(path)
    source = _plain_source(rules, "tally")
    assert "for _c" not in source.replace("    for _c", "") and source.count("for _c") == 4  # loops only
    assert source.count("break") == 1  # "> 0": the loop stops at the first flagged card
    game = _empty(rules)
    cards = [_in_hand(game, name) for name in ("Plain", "Big", "Big", "Plain")]
    game.state.write(cards[1], "flag", True)
    game.state.write(cards[3], "power", 4)
    game.perform("tally", p=game.players[0])
    # strong: the flagged Big; powers: 10 + 30 + 40; power > 1: both Bigs and the 4
    assert game.state.globals["counter"] == 1000 + 80 + 300 + 1000000


def test_a_selection_after_and_or_in_an_elif_is_worked_out_only_when_it_was(tmp_path):
    # hand(x) of none is an error: each selection below must not be worked out when x is none
    path = _toy_with(tmp_path, "procedure guarded(x) {\n"
                               "  game.counter = 0\n"
                               "  if x != none and count(all c in hand(x) where c.flag) == 0 { game.counter += 1 }\n"
                               "  if x == none or count(all c in hand(x)) > 5 { game.counter += 10 }\n"
                               "  if x == none { game.counter += 100 } elif count(all c in hand(x)) == 1 {\n"
                               "    game.counter += 1000 }\n"
                               "  let n = x != none and count(all c in hand(x)) > 0\n"
                               "  if n { game.counter += 10000 }\n}\n")
    rules = load(path)
    source = _plain_source(rules, "guarded")
    # after `and` and `or`: built by loops inside an `if` that tests what comes before; the
    # `elif` test stays a comprehension
    assert len(re.findall(r"\[_c\d+ for", source)) == 1 and source.count("for _c") == 4
    assert "    if _s" in source and "    if not _s" in source
    game = _empty(rules)
    game.perform("guarded", x=None)
    assert game.state.globals["counter"] == 10 + 100
    _in_hand(game)
    game.perform("guarded", x=game.players[0])
    assert game.state.globals["counter"] == 1 + 1000 + 10000


def test_and_and_or_give_the_value_that_decides(tmp_path):
    # `a and b` is a if a is false, else b; `a or b` is a if a is true, else b
    path = _toy_with(tmp_path, "procedure values(p) {\n"
                               "  let none_or_list = none and count(all c in hand(p)) > 0\n"
                               "  let zero_or = 0 or count(all c in hand(p) where c.flag)\n"
                               "  let two_or = 2 or count(all c in hand(p))\n"
                               "  let both = 3 and count(all c in hand(p))\n"
                               "  game.counter = zero_or * 1000 + two_or * 100 + both\n"
                               "  if none_or_list == none { game.counter += 10000 }\n}\n")
    rules = load(path)
    game = _empty(rules)
    cards = [_in_hand(game) for _ in range(4)]
    game.state.write(cards[2], "flag", True)
    game.perform("values", p=game.players[0])
    assert game.state.globals["counter"] == 1000 + 200 + 4 + 10000


def test_a_loop_test_is_worked_out_again_before_each_round(tmp_path):
    path = _toy_with(tmp_path, "procedure sweep(p) {\n"
                               "  game.counter = 0\n"
                               "  while count(all c in hand(p) where c.flag) > 0 {\n"
                               "    move first(all c in hand(p) where c.flag) to pile(p)\n"
                               "    game.counter += 1\n  }\n}\n")
    rules = load(path)
    assert "while True:" in _plain_source(rules, "sweep")
    game = _empty(rules)
    cards = [_in_hand(game) for _ in range(5)]
    for c in cards[1:4]:
        game.state.write(c, "flag", True)
    game.perform("sweep", p=game.players[0])
    assert game.state.globals["counter"] == 3
    assert game.state.zones[ZoneKey("pile", 1, "")] == cards[1:4]
    assert game.state.zones[ZoneKey("hand", 1, "")] == [cards[0], cards[4]]


def test_a_sorted_selection_built_by_a_loop_keeps_the_order_of_equals(tmp_path):
    path = _toy_with(tmp_path, "procedure order(p) {\n"
                               "  let up = all c in hand(p) ordered by c.power\n"
                               "  let down = all c in hand(p) where c.power > 0 ordered by c.power desc\n"
                               "  for c in down { c.guard = position(c) }\n"
                               "  game.counter = 0\n"
                               "  for c in up { game.counter = game.counter * 10 + c.guard }\n}\n")
    rules = load(path)
    game = _empty(rules)
    cards = [_in_hand(game, name) for name in ("Big", "Plain", "Big", "Plain")]
    game.perform("order", p=game.players[0])
    # up: the Plains (positions 2, 4) then the Bigs (1, 3), each pair in hand order
    assert game.state.globals["counter"] == 2413
    assert [game.read(c, "guard") for c in cards] == [1, 2, 3, 4]


def test_an_error_in_a_selection_built_by_a_loop_points_at_its_statement(tmp_path):
    path = _toy_with(tmp_path, "procedure faulty(p) {\n  game.counter = 1\n"
                               "  let bad = all c in hand(p) where c.power + \"x\" > 0\n  game.counter = 2\n}\n")
    rules = load(path)
    game = _empty(rules)
    _in_hand(game)
    with pytest.raises(RuntimeRuleError) as info:
        game.perform("faulty", p=game.players[0])
    assert info.value.span.line == 3 and "procedure faulty" in str(info.value)
    assert game.state.globals["counter"] == 1


def test_loops_nested_past_pythons_limit_by_selections_are_written_without_them(tmp_path):
    """Selections built by loops add loops; where that would nest more than Python allows, the
    procedure is written with the selections left as comprehensions (and still works)."""
    body = "game.counter += count(all c in hand(p) where c.power > 0 and count(all d in hand(p)) > 0)\n"
    for _ in range(19):
        body = f"repeat 1 {{\n{body}}}\n"
    path = _toy_with(tmp_path, f"procedure deep(p) {{\ngame.counter = 0\n{body}}}\n")
    rules = load(path)
    assert "    for _c" not in _plain_source(rules, "deep")  # (comprehensions: "[_c1 for _c1 in ...]")
    game = _empty(rules)
    _in_hand(game)
    _in_hand(game)
    game.perform("deep", p=game.players[0])
    assert game.state.globals["counter"] == 2


def test_a_name_tested_to_be_a_player_is_read_as_one_in_that_branch(tmp_path):
    path = _toy_with(tmp_path, "procedure hurt(t) {\n"
                               "  if t is player { t.score -= 20 } else { t.power -= 20 }\n"
                               "  if t is player and t.score < 0 { t = players[2]\n t.score += 1 }\n}\n")
    rules = load(path)
    source = _plain_source(rules, "hurt")
    first_branch = source.split("else:")[0]
    # set in place, held within its limits
    assert "g.player_attrs[v_t.seat - 1]['score'] = min(10, max(-5, " in first_branch
    assert "g.write" not in first_branch
    game = _empty(rules)
    game.perform("hurt", t=game.players[0])
    assert game.state.player_attrs[0]["score"] == -5 and game.state.player_attrs[1]["score"] == 1
    card = _in_hand(game)
    game.perform("hurt", t=card)
    assert game.read(card, "power") == 0


def test_an_event_that_only_end_conditions_wait_for_checks_them_in_place(tmp_path):
    path = _toy_with(tmp_path, "procedure bump(n) {\n  game.counter += n\n  emit bumped()\n  game.counter += 100\n}\n")
    path.write_text(path.read_text(encoding="utf-8").replace(
        '  - {when: "game.turn > 3", draw: three turns played}',
        '  - {when: "game.counter >= 10", winner: "players[2]", reason: counted, check_on: [bumped]}\n'
        '  - {when: "game.counter >= 5", draw: half counted, check_on: [bumped]}'), encoding="utf-8")
    rules = load(path)
    source = _plain_source(rules, "bump")
    assert "g.emit(" not in source
    game = _empty(rules)
    game.perform("bump", n=1)  # (the rules, a procedure, end without a result of their own)
    assert game.result.reason == "the rules ended without a result" and game.state.globals["counter"] == 101
    game = _empty(rules)
    game.perform("bump", n=7)
    assert game.result.reason == "half counted" and game.result.winner is None
    assert game.state.globals["counter"] == 7  # the procedure stopped where the game ended
    game = _empty(rules)
    game.perform("bump", n=12)
    assert game.result.reason == "counted" and game.result.winner == 2


def test_a_selection_from_a_selection_is_one_loop_with_both_tests(tmp_path):
    # `c` in the second selection's test is the procedure's own `c`, not the function's item
    path = _toy_with(tmp_path, "function flagged(p) = all c in hand(p) where c.flag\n"
                               "procedure pick(p, c) {\n"
                               "  let strong = all x in flagged(p) where x.power > c.power\n"
                               "  let names = [x.power for x in (all y in hand(p) where y.power > 1) if x != c]\n"
                               "  game.counter = count(strong) * 10 + sum_of(names)\n}\n")
    rules = load(path)
    source = _plain_source(rules, "pick")
    assert source.count("for _c") == 2  # one loop each
    game = _empty(rules)
    cards = [_in_hand(game, name) for name in ("Plain", "Big", "Big", "Plain")]
    for c in cards[:3]:
        game.state.write(c, "flag", True)
    game.perform("pick", p=game.players[0], c=cards[0])
    # strong: the two flagged Bigs (power 3 > 1); names: the Bigs' powers, but not c's
    assert game.state.globals["counter"] == 20 + 6
    game.perform("pick", p=game.players[0], c=cards[1])
    assert game.state.globals["counter"] == 0 + 3


def test_lists_joined_by_plus_are_one_list_display(tmp_path):
    # through the functions that join lists too; an empty list literal adds nothing
    path = _toy_with(tmp_path, "function flagged(p) = all c in hand(p) where c.flag\n"
                               "function mine(p) = flagged(p) + board(p, \"left\")\n"
                               "procedure join(p, c) {\n"
                               "  let joined = [c] + mine(p) + [] + hand(p) + [c.power]\n"
                               "  game.counter = count(joined)\n"
                               "  if joined[1] == c and joined[count(joined)] == 3 { game.counter += 100 }\n}\n")
    rules = load(path)
    assert "[v_c, *" in _plain_source(rules, "join")
    game = _empty(rules)
    cards = [_in_hand(game, name) for name in ("Big", "Plain")]
    game.state.write(cards[1], "flag", True)
    game.state.new_card(rules.card_defs["Plain"], ZoneKey("board", 1, "left"), game.players[0])
    game.perform("join", p=game.players[0], c=cards[0])
    # c, the flagged Plain, the board's card, both hand cards, c's power
    assert game.state.globals["counter"] == 6 + 100


def test_a_statement_that_draws_at_random_keeps_its_selections_in_place(tmp_path):
    # building the selection first would change the order of the draws from the game's generator
    path = _toy_with(tmp_path, "function any_of(xs) = random(xs)\n"
                               "procedure draw(p) {\n"
                               "  game.counter = any_of([1, 2, 3]) * 10 + count(all c in hand(p) where c.flag)\n"
                               "  for c in shuffled(all c in hand(p) where not c.flag) { c.guard = 1 }\n"
                               "  let n = count(all c in hand(p) where c.flag)\n}\n")
    rules = load(path)
    source = _plain_source(rules, "draw")
    comprehensions = re.findall(r"\[_c\d+ for", source)
    assert len(comprehensions) == 2 and source.count("for _c") == 3  # only the last is a loop
    game = _empty(rules)
    cards = [_in_hand(game) for _ in range(3)]
    game.state.write(cards[0], "flag", True)
    game.perform("draw", p=game.players[0])
    assert game.state.globals["counter"] in (11, 21, 31)
    assert [game.read(c, "guard") for c in cards] == [0, 1, 1]


def test_count_of_a_functions_selection_and_over_the_players_makes_no_list(tmp_path):
    path = _toy_with(tmp_path, "function flagged(p) = all c in hand(p) where c.flag\n"
                               "function has_flag(p) = count(flagged(p)) > 0\n"
                               "procedure tally() {\n"
                               "  game.counter = count(all p in players where has_flag(p)) * 100 + count(flagged(players[1]))\n"
                               "}\n")
    rules = load(path)
    source = _plain_source(rules, "tally")
    assert not re.findall(r"\[_c\d+ for", source) and source.count("break") == 2
    game = _empty(rules)
    cards = [_in_hand(game) for _ in range(3)]
    game.perform("tally")
    assert game.state.globals["counter"] == 0
    game.state.write(cards[0], "flag", True)
    game.state.write(cards[2], "flag", True)
    game.perform("tally")
    assert game.state.globals["counter"] == 100 + 2


def test_a_choice_of_options_that_end_with_one_written_out_takes_a_lone_option_in_place():
    # Bases' priority: "respond, or pass"; most of the time pass is the only option, taken without
    # a call (tests/test_play_out.py and the property tests play these games both ways)
    rules = load("bases")
    rules.compiler.compile_rollout()
    source = _source_of(rules, "procedure priority ?rollout?")
    # its player and its abilities are known as such: no test of what they are (but for the player
    # after a resolution, B-5.1: the enemy of an item's controller, an attribute of no known type)
    body = source.split("def r_priority")[1].split("\n", 2)[2]
    assert [line for line in body.splitlines() if "_PlayerRef" in line and "_bf_others" not in line] == []
    assert "_AbilityRef" not in source
    # its options: two lists the statement has made, then "pass": when both are empty, no list
    assert re.search(r"        if (_l\d+) or (_l\d+):\n            (_a\d+) = \[\*\1, \*\2, _k\d+\]\n"
                     r"            (_c\d+) = g\.ask_one\(_k\d+, \3, v_p, _k\d+, True\)\n"
                     r"        else:\n            \4 = _k\d+\n", source)
    rng, answers = random.Random(5), []

    def decide(g):
        answers.append(rng.randrange(len(g.decision()[1])))
        return answers[-1]

    played = rules.play_out(decide, seed=3, log=True)
    game = rules.new_game(seed=3, log=True)
    for answer in answers:
        game.apply(answer)
    assert game.is_over and played.log == game.log and played.result == game.result


def test_a_procedure_every_call_gives_a_player_is_written_for_players_behind_a_test(tmp_path):
    # award's calls give a player or `game.active` (declared a player, none before the first
    # turn): its rollout form is written for a player, and sends none to the form for any value
    # (where the first of others(none) is the first player; written for a player, it would fail)
    path = _toy_with(tmp_path, "procedure award(p) {\n"
                               "  let q = first(others(p))\n"
                               "  if p == none {\n    game.counter += 1000 * q.seat\n    stop\n  }\n"
                               "  let c = choose \"a card\" from hand(p) + [labelled(\"keep\", \"keep\")] by p\n"
                               "  if c != \"keep\" { move c to pool() }\n"
                               "  game.counter += count(hand(p)) * 10 + 1\n}\n"
                               "procedure award_all() {\n"
                               "  for p in players { award(p) }\n"
                               "  award(game.active)\n}\n"
                               "procedure mixed(x) {\n  let c = choose \"a card\" from hand(x) by x\n}\n"
                               "procedure mixed_calls() {\n  mixed(players[1])\n  let c = first(hand(players[1]))\n  mixed(c)\n}\n"
                               "procedure uncalled(p) {\n  let c = choose \"a card\" from hand(p) by p\n}\n")
    rules = load(path)
    rules.compiler.compile_rollout()
    given = rules.compiler.gen.player_parameters()
    assert given["award"] == {"p"} and "mixed" not in given and "uncalled" not in given
    typed = _source_of(rules, "procedure award ?rollout?>")
    assert typed.startswith("def r_award(g, f, v_p):\n    if type(v_p) is not _PlayerRef:\n"
                            "        return ru_award(g, f, v_p)\n")
    assert "zone_key" not in typed and "zone_key" in _source_of(rules, "procedure award ?rollout? any values")
    assert "_PlayerRef" not in _source_of(rules, "procedure mixed ?rollout?>").split("choose")[0].replace(
        "type(v_x) is _PlayerRef else", "")  # (no test at its start)

    def played(fast: bool) -> tuple:
        game = _empty(rules)
        cards = [_in_hand(game) for _ in range(3)]
        game.state.move(cards[2], ZoneKey("hand", 2, ""), None)  # (two cards for player 1, one for player 2)
        game.perform("award_all")  # player 1's choice waits: the rest runs as play_out runs it
        assert game.state.globals["active"] is None
        game.play_out(lambda g: 0, fast=fast)
        return game.state.globals["counter"], [len(game.state.zones[ZoneKey("hand", s, "")]) for s in (1, 2)]

    # each player puts their first card in the pool; none (game.active) adds 1000
    assert played(fast=True) == played(fast=False) == ((1 * 10 + 1) + (0 * 10 + 1) + 1000, [1, 0])


def test_after_a_test_of_a_cards_type_its_types_attributes_are_read_in_place(tmp_path):
    # units have flag, sites have not: after `c is unit` flag is read straight from the card;
    # after `c is unit or c is site` (or no test) role and flag are read where a card may lack them
    path = _toy_with(tmp_path, "procedure tally(p) {\n"
                               "  game.counter = count(all c in hand(p) where c is unit and c.flag)\n"
                               "  game.counter += 10 * count(all c in sites(p) where (c is unit or c is site) and c.role == \"x\")\n"
                               "  game.counter += 100 * count(all c in hand(p) where c.flag)\n}\n")
    rules = load(path)
    source = _plain_source(rules, "tally")
    role, flag = rules.attr_slots["role"], rules.attr_slots["flag"]
    assert re.search(rf"if g\.attrs\[_c\d+\.id\]\[{flag}\]:", source)
    assert source.count(f"[{role}]) is not _ABSENT") == 1 and source.count(f"[{flag}]) is not _ABSENT") == 1
    game = _empty(rules)
    flagged, _plain = _in_hand(game, "Big"), _in_hand(game)
    game.state.write(flagged, "flag", True)
    site = game.state.new_card(rules.card_defs[next(n for n, d in rules.card_defs.items() if d.type == "site")],
                         ZoneKey("sites", 1, ""), game.players[0])
    game.state.write(site, "role", "x")
    game.perform("tally", p=game.players[0])
    assert game.state.globals["counter"] == 1 + 10 + 100


def test_a_procedure_that_never_asks_is_written_for_the_players_its_calls_give(tmp_path):
    # tidy never suspends (one form, `p_tidy`, in the direct code) and every call gives it a
    # player or `game.active`: its rollout form is written for a player behind a test, not `p_tidy`
    path = _toy_with(tmp_path, "procedure tidy(p) {\n"
                               "  if p == none {\n    game.counter += 1000\n    stop\n  }\n"
                               "  move hand(p) to pool()\n"
                               "  p.score += 1\n"
                               "  game.counter += count(pool()) * 10\n}\n"
                               "procedure tidy_all() {\n"
                               "  for p in players { tidy(p) }\n"
                               "  tidy(game.active)\n}\n")
    rules = load(path)
    rules.compiler.compile_rollout()
    assert rules.compiler.gen.player_parameters()["tidy"] == {"p"}
    typed = _source_of(rules, "procedure tidy ?rollout?>")
    assert typed.startswith("def r_tidy(g, f, v_p):\n    if type(v_p) is not _PlayerRef:\n"
                            "        return ru_tidy(g, f, v_p)\n")
    assert "zone_key" not in typed and "g.player_attrs[v_p.seat - 1]['score'] = " in typed
    assert "zone_key" in _plain_source(rules, "tidy")  # (the direct form takes any value)

    def played(fast: bool) -> tuple:
        game = _empty(rules)
        for seat in (1, 1, 2):
            game.state.move(_in_hand(game), ZoneKey("hand", seat, ""), None)
        game.perform("tidy_all")
        game.play_out(lambda g: 0, fast=fast)
        return game.state.globals["counter"], [p["score"] for p in game.state.player_attrs]

    assert played(fast=True) == played(fast=False) == (20 + 30 + 1000, [1, 1])


def test_an_attribute_of_every_card_type_is_read_from_the_card_without_a_test(tmp_path):
    # `flag` declared by both card types: a card's dict always has it, so a card read from a
    # zone reads it in place, and any other value tests only that it is a card in the game
    path = _toy_with(tmp_path, "procedure flags(p) {\n"
                               "  game.counter = count(all c in hand(p) where c.flag)\n"
                               "  let top = first(hand(p))\n"
                               "  if top != none and top.flag { game.counter += 100 }\n}\n")
    yaml = path.read_text(encoding="utf-8")
    path.write_text(yaml.replace("      role: {type: text}\n",
                                 "      role: {type: text}\n      flag: {type: bool, default: false}\n"),
                    encoding="utf-8")
    rules = load(path)
    source = _plain_source(rules, "flags")
    flag = rules.attr_slots["flag"]
    assert re.search(rf"if g\.attrs\[_c\d+\.id\]\[{flag}\]:", source)
    assert "_ABSENT" not in source
    assert re.search(rf"\(_d\d+\[{flag}\] if type\(v_top\) is _CardRef and \(_d\d+ := g\.attrs\[v_top\.id\]\) "
                     r"else g\.read\(v_top, 'flag'\)\)", source)
    game = _empty(rules)
    flagged, _plain = _in_hand(game, "Big"), _in_hand(game)
    game.state.write(flagged, "flag", True)
    game.perform("flags", p=game.players[0])
    assert game.state.globals["counter"] == 1 + 100


def test_moving_a_known_list_or_card_calls_the_move_without_testing_what_it_holds(tmp_path):
    path = _toy_with(tmp_path, "procedure shift(p) {\n"
                               "  let cards = all c in hand(p) where c.power > 1\n"
                               "  move cards to pool()\n"
                               "  for c in hand(p) { move c to pool() }\n"
                               "  move first(pool()) to hand(p)\n}\n")
    rules = load(path)
    source = _plain_source(rules, "shift")
    assert re.search(r"\n    g\.move_each\(v_cards, _k\d+, None\)\n", source)
    assert re.search(r"\n        g\.move\(v_c, _k\d+, None\)\n", source)
    assert source.count("_CardRef") == 1 and "_as_list(_t" in source  # (first(...) may be none)
    game = _empty(rules)
    big, plain, other = _in_hand(game, "Big"), _in_hand(game), _in_hand(game)
    game.perform("shift", p=game.players[0])
    assert game.state.zones[ZoneKey("pool", 0, "")] == [plain, other] and game.state.zones[ZoneKey("hand", 1, "")] == [big]
