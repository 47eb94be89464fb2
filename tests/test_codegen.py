"""The code generator: what reaches generated Python source, and where errors in it point.

Rule code is compiled to Python source at load time (interpreter/lang/codegen.py). No text from a
rule file may become Python code: names become generated identifiers, other values constants."""

from __future__ import annotations

import ast as pyast
import re

import pytest
from toyrules import TOY_DIR
from toyrules import empty_game as _empty
from toyrules import in_hand as _in_hand
from toyrules import source_of as _source_of
from toyrules import toy_with as _toy_with

from interpreter import load
from interpreter.errors import RuntimeRuleError, ValidationError
from interpreter.lang.codegen import ALLOWED_BUILTINS
from interpreter.lang.values import ZoneKey

GAMES = ["initiative", "lanes", "lanes-classic", "bases", TOY_DIR / "toy.yaml"]
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\$[0-9]+(?:\.[A-Za-z_][A-Za-z0-9_]*)?")


@pytest.mark.parametrize("game", GAMES, ids=str)
def test_generated_source_holds_no_text_from_rule_files(game):
    rules = load(game)
    sources = rules.compiler.gen.ns.sources
    assert len(sources) > 20
    for filename, source in sources.items():
        tree = pyast.parse(source)
        for node in pyast.walk(tree):
            if isinstance(node, pyast.Constant) and isinstance(node.value, str):
                assert NAME.fullmatch(node.value), f"{filename}: string {node.value!r} in generated code"
            elif isinstance(node, pyast.Name):
                assert not (isinstance(node.ctx, pyast.Store) and node.id.startswith("_k")), (
                    f"{filename}: assigns to the constant name {node.id}")
                assert node.id in ("g", "f", "L", "pc") or node.id.startswith(("_", "v_", "p_", "fn_")) or (
                    node.id in ALLOWED_BUILTINS), f"{filename}: name {node.id}"
            assert not isinstance(node, (pyast.Import, pyast.ImportFrom, pyast.Global, pyast.Nonlocal))


def test_strings_that_look_like_python_are_plain_data(tmp_path):
    nasty = "\\\"); __import__('os').remove('x') #{0}\\n'''"
    path = _toy_with(tmp_path, f'procedure shout() {{\n  let a = "{nasty}"\n  emit poked(card: a + "!")\n}}\n')
    rules = load(path)
    game = _empty(rules)
    game.perform("shout")
    event = [e for e in game.state.log_entries if e[0] == "event" and e[1] == "poked"][-1]
    assert event[2]["card"] == "\"); __import__('os').remove('x') #{0}\n'''!"


def test_a_runtime_error_points_at_the_statement_that_raised_it(tmp_path):
    path = _toy_with(tmp_path, "procedure faulty(c) {\n  game.counter = 1\n  game.counter = 2\n"
                               "  game.counter = c.power + \"x\"\n  game.counter = 4\n}\n")
    rules = load(path)
    game = _empty(rules)
    card = _in_hand(game)
    with pytest.raises(RuntimeRuleError) as info:
        game.perform("faulty", c=card)
    span = info.value.span
    assert span.file.endswith("extra.rules") and span.line == 4
    assert "procedure faulty" in str(info.value)


def test_a_runtime_error_in_a_suspendable_procedure_points_at_its_line(tmp_path):
    path = _toy_with(tmp_path, "procedure asks(p) {\n  let c = choose \"a row\" from [\"left\", \"right\"] by p\n"
                               "  emit tick()\n  game.counter = c + 1\n}\n")
    rules = load(path)
    game = _empty(rules)
    game.perform("asks", controller=1, p=game.players[0])
    assert game.decision()[0] == 1
    with pytest.raises(RuntimeRuleError) as info:
        game.apply("left")
    assert info.value.span.line == 4 and info.value.span.file.endswith("extra.rules")


def test_names_that_only_ever_hold_players_read_player_attributes_in_place(tmp_path):
    path = _toy_with(tmp_path, "procedure tally(p) {\n  let total = 0\n  for q in players { total += q.score }\n"
                               "  let s = p\n  total += s.score\n  game.counter = total\n}\n")
    rules = load(path)
    source = _source_of(rules, "procedure tally")
    assert "g.player_attrs[v_q.seat - 1]['score']" in source  # q: always a player, read in place
    assert "type(v_q)" not in source
    assert "if type(v_s) is _PlayerRef else g.read(v_s, 'score')" in source  # s: tested first
    game = _empty(rules)
    game.state.player_attrs[0]["score"], game.state.player_attrs[1]["score"] = 3, 4
    game.perform("tally", p=game.players[1])
    assert game.state.globals["counter"] == 3 + 4 + 4
    with pytest.raises(RuntimeRuleError, match="cannot read 'score' of none"):  # s may be anything
        game.perform("tally", p=None)


def test_membership_in_a_zone_reads_the_cards_zone(tmp_path):
    path = _toy_with(tmp_path, "procedure where_is(c) {\n  game.counter = 0\n"
                               "  if c in hand(players[1]) { game.counter += 1 }\n"
                               "  if c in board(players[1]) { game.counter += 10 }\n"
                               "  if c in board() { game.counter += 100 }\n"
                               "  if c in hand(players[1]) + pile(players[1]) { game.counter += 1000 }\n"
                               "  let mine = all x in (all y in [c] where y in board(players[1])) where x in board()\n"
                               "  game.counter += 10000 * count(mine)\n}\n")
    rules = load(path)
    game = _empty(rules)
    plain = rules.card_defs["Plain"]
    in_hand = game.state.new_card(plain, ZoneKey("hand", 1, ""), game.players[0])
    on_my_board = game.state.new_card(plain, ZoneKey("board", 1, "right"), game.players[0])
    on_their_board = game.state.new_card(plain, ZoneKey("board", 2, "left"), game.players[1])
    in_their_hand = game.state.new_card(plain, ZoneKey("hand", 2, ""), game.players[1])
    for value, expected in [(in_hand, 1001), (on_my_board, 10110), (on_their_board, 100), (in_their_hand, 0),
                            (game.players[0], 0), ([in_hand], 0), (None, 0)]:
        game.perform("where_is", c=value)
        assert game.state.globals["counter"] == expected, value


def test_names_that_only_ever_hold_lists_are_used_as_lists(tmp_path):
    path = _toy_with(tmp_path, "procedure sizes(x) {\n  let mine = all c in hand(players[1])\n"
                               "  mine = mine + [x]\n  let other = x\n"
                               "  game.counter = 10 * count(mine) + count(other)\n}\n")
    rules = load(path)
    source = _source_of(rules, "procedure sizes")
    assert "len(v_mine)" in source  # mine: always a list, taken as it is
    assert "_as_list(v_other)" in source  # other: whatever x is, made a list first
    game = _empty(rules)
    _in_hand(game)
    game.perform("sizes", x=game.players[1])
    assert game.state.globals["counter"] == 10 * 2 + 1
    game.perform("sizes", x=None)  # none counts as no item, in a list or alone
    assert game.state.globals["counter"] == 10 * 2 + 0


def test_a_small_procedure_is_written_into_its_caller(tmp_path):
    """A call to a small procedure that may stop for a decision runs in the caller's frame,
    under names of its own; its `stop` ends it, not the caller, and a decision inside it
    resumes there. A recursive procedure is still called."""
    path = _toy_with(tmp_path, "procedure add(p, n) {\n  if n == 0 { stop }\n  let pick = choose \"a row\" "
                               "from [\"left\", \"right\"] by p\n  let n = n * 10\n"
                               "  if pick == \"right\" { game.counter += n }\n}\n"
                               "procedure twice(p) {\n  let n = 1\n  add(p, 0)\n  add(p, n)\n  add(p, 2)\n"
                               "  game.counter += 1000 * n\n}\n")
    rules = load(path)
    source = _source_of(rules, "procedure twice")
    assert "call_now('add'" not in source and "L['$" in source  # written in, under names of its own
    assert "call_now('recurse'" in _source_of(rules, "procedure recurse")
    game = _empty(rules)
    game.perform("twice", p=game.players[0])
    assert game.decision()[0] == 1  # add(p, 0) stopped before its choice; add(p, n) asks
    game.apply("right")
    copy = game.clone()
    game.apply("right")
    assert game.state.globals["counter"] == 10 + 20 + 1000 and not game.state.frames
    copy.apply("left")
    assert copy.state.globals["counter"] == 10 + 1000


def test_a_runtime_error_in_a_procedure_written_into_its_caller_points_at_its_line(tmp_path):
    path = _toy_with(tmp_path, "procedure bad(p) {\n  let c = choose \"a row\" from [\"left\", \"right\"] by p\n"
                               "  game.counter = c + 1\n}\nprocedure calls_bad(p) {\n  bad(p)\n}\n")
    rules = load(path)
    assert "call_now('bad'" not in _source_of(rules, "procedure calls_bad")
    game = _empty(rules)
    game.perform("calls_bad", p=game.players[0])
    with pytest.raises(RuntimeRuleError) as info:
        game.apply("left")
    assert info.value.span.line == 3 and info.value.span.file.endswith("extra.rules")
    assert "in procedure bad" in str(info.value)  # the procedure that holds the line


def test_code_that_may_stop_is_plain_python_with_a_function_per_point_to_resume_at(tmp_path):
    """An `if` whose branches may stop for a decision is a Python `if`; each decision is a point
    to resume at, with its own function (the code after it); a decision in either branch, or
    after it, resumes where it was."""
    path = _toy_with(tmp_path, "procedure branches(p, first) {\n  if first {\n"
                               "    let a = choose \"a row\" from [\"left\", \"right\"] by p\n"
                               "    if a == \"left\" { game.counter += 1 }\n  } else {\n"
                               "    let b = choose \"a row\" from [\"left\", \"right\"] by p\n"
                               "    if b == \"right\" { game.counter += 10 }\n  }\n"
                               "  let c = choose \"a row\" from [\"left\", \"right\"] by p\n"
                               "  if c == \"left\" { game.counter += 100 }\n}\n")
    rules = load(path)
    source = _source_of(rules, "procedure branches")
    assert "if pc" not in source and "\n    if L['first']:\n" in source and "\n    else:\n" in source
    names = " ".join(rules.compiler.gen.ns.sources)
    assert [f"procedure branches resuming at {n}>" in names for n in (1, 2, 3, 4)] == [True, True, True, False]
    for first, answers, expected in [(True, ["left", "left"], 101), (False, ["right", "right"], 10),
                                     (False, ["left", "left"], 100), (True, ["right", "right"], 0)]:
        game = _empty(rules)
        game.perform("branches", p=game.players[0], first=first)
        for answer in answers:
            game.apply(answer)
        assert game.state.globals["counter"] == expected and not game.state.frames


def test_an_attribute_with_the_same_limits_everywhere_is_set_in_place_within_them(tmp_path):
    """score (-5..10) is read by no continuous effect: set in place, held within its limits;
    power is read by one: set through the engine, which holds it within its own."""
    path = _toy_with(tmp_path, "procedure limits(p, c) {\n  p.score = 50\n  game.counter = p.score\n"
                               "  p.score -= 100\n  game.counter += 100 * p.score\n"
                               "  c.power = 0 - 3\n  game.counter += 10000 * c.power\n}\n")
    rules = load(path)
    source = _source_of(rules, "procedure limits")
    assert "g.player_attrs[_t" in source and "= min(10, max(-5, 50))" in source
    game = _empty(rules)
    card = _in_hand(game)
    game.perform("limits", p=game.players[0], c=card)
    assert game.state.globals["counter"] == 10 + 100 * -5 + 10000 * 0


def test_shortcuts_for_built_ins_give_what_the_built_ins_give(tmp_path):
    # first(others(p)) without listing the others; labelled(constant, constant) made once; a zone
    # given to a built-in that only reads it, and a zone a selection reads, are not copied
    path = _toy_with(tmp_path, "function rival(p) = first(others(p))\n"
                               "procedure probe(p) {\n  game.counter = 0\n"
                               "  if rival(p) == players[2] { game.counter += 1 }\n"
                               "  if rival(p) == players[1] { game.counter += 10 }\n"
                               "  if rival(p) == none { game.counter += 100 }\n"
                               "  let picks = [labelled(\"pass\", \"pass\")]\n"
                               "  game.counter += 1000 * count(picks)\n"
                               "  game.counter += 10000 * count(abilities(board(players[1], \"left\")))\n"
                               "  game.counter += 100000 * count(all c in hand(players[1]) where c.power > 1)\n}\n")
    rules = load(path)
    source = _source_of(rules, "procedure probe")
    assert "g.players[1 if" in source and "_Labelled(" not in source
    assert "list(g.zones" not in source
    game = _empty(rules)
    plain, pumper = rules.card_defs["Plain"], rules.card_defs["Pumper"]
    strong = game.state.new_card(plain, ZoneKey("hand", 1, ""), game.players[0])
    game.state.write(strong, "power", 2)
    game.state.new_card(plain, ZoneKey("hand", 1, ""), game.players[0])
    game.state.new_card(pumper, ZoneKey("board", 1, "left"), game.players[0])
    game.perform("probe", p=game.players[0])
    assert game.state.globals["counter"] == 100000 + 20000 + 1000 + 1
    game.perform("probe", p=game.players[1])
    assert game.state.globals["counter"] == 100000 + 20000 + 1000 + 10
    game.perform("probe", p=None)  # not a player: the others are everyone, the first is players[1]
    assert game.state.globals["counter"] == 100000 + 20000 + 1000 + 10


def test_a_function_named_like_a_built_in_is_the_one_called(tmp_path):
    path = _toy_with(tmp_path, "function first(x) = 7\nfunction count(x) = 8\n"
                               "procedure probe() {\n  game.counter = first(hand(players[1])) + count(hand(players[1]))\n}\n")
    game = _empty(load(path))
    game.perform("probe")
    assert game.state.globals["counter"] == 15


def test_a_procedure_that_may_end_the_game_runs_as_plain_python_and_stops_there(tmp_path):
    # lose/win/tie and events after which an end condition is checked do not suspend: such a
    # procedure is plain Python that stops, and stops its callers, once the game is over
    path = _toy_with(tmp_path, "procedure give_up(p) {\n  game.counter += 1\n  lose p \"gave up\"\n"
                               "  game.counter += 10\n}\n"
                               "procedure tries() {\n  for q in players {\n    give_up(q)\n"
                               "    game.counter += 100\n  }\n  game.counter += 1000\n}\n"
                               "procedure steady() {\n  game.counter += 1\n  emit bumped()\n  game.counter += 10\n}\n")
    yaml = path.read_text(encoding="utf-8")
    path.write_text(yaml.replace('{when: "game.turn > 3", draw: three turns played}',
                                 '{when: "game.turn > 3", draw: three turns played}\n'
                                 '  - {when: "game.counter == 1", draw: counted to one, check_on: [bumped]}'),
                    encoding="utf-8")
    rules = load(path)
    native = rules.compiler.native_procedures
    assert {"give_up", "tries", "steady"} <= native
    assert {"give_up", "tries", "steady"} <= rules.compiler.ending_procedures
    game = _empty(rules)
    game.perform("tries")
    assert game.state.globals["counter"] == 1  # nothing ran after the loss, in the procedure or its caller
    assert game.is_over and game.result.winner == 2 and game.result.reason == "gave up"
    game = _empty(rules)
    game.perform("steady")  # the end condition checked after `bumped` ends the game
    assert game.state.globals["counter"] == 1 and game.is_over and game.result.reason == "counted to one"
    game = _empty(rules)
    game.state.globals["counter"] = 5
    game.perform("steady")  # not met: the procedure goes on
    assert game.state.globals["counter"] == 16 and game.result.reason != "counted to one"


def test_count_and_first_of_the_players_are_written_per_player(tmp_path):
    path = _toy_with(tmp_path, "procedure tally() {\n"
                               "  game.counter = 10 * count(all p in players where p.score > 1)\n"
                               "  let f = first(all p in players where p.score > 1)\n"
                               "  if f != none { game.counter += f.seat }\n}\n")
    rules = load(path)
    source = _source_of(rules, "procedure tally")
    assert "for " not in source  # no list of players is made
    assert "g.player_attrs[1]['score']" in source and ".seat - 1]" not in source  # read at the player's index
    game = _empty(rules)
    for scores, expected in [((0, 0), 0), ((2, 0), 11), ((0, 5), 12), ((3, 4), 21)]:
        game.state.player_attrs[0]["score"], game.state.player_attrs[1]["score"] = scores
        game.perform("tally")
        assert game.state.globals["counter"] == expected, scores


def test_the_items_of_a_selection_from_zones_are_read_as_cards(tmp_path):
    # an item taken from a zone is a card in the game: read without testing what it is;
    # an item of any other list is tested first
    path = _toy_with(tmp_path, "procedure tally(x) {\n"
                               "  game.counter = 10 * count(all c in hand(players[1]) + board(players[1]) "
                               "where c.flag and c is unit)\n"
                               "  game.counter += count(all c in [x] where c is unit and c.flag)\n}\n")
    rules = load(path)
    source = _source_of(rules, "procedure tally").split("def p_tally")[1]  # (the plain Python one)
    # (each selection is built by a loop before the line that uses it: see `CodeGenerator.lowered`)
    from_zones, from_list = source.split("g.globals['counter'] ")[:2]
    assert "for _c" in from_zones and "for _c" in from_list
    assert "_CardRef" not in from_zones and "g.attrs[_c" in from_zones
    assert "type(_c" in from_list
    game = _empty(rules)
    plain = rules.card_defs["Plain"]
    a = game.state.new_card(plain, ZoneKey("hand", 1, ""), game.players[0])
    game.state.new_card(plain, ZoneKey("hand", 1, ""), game.players[0])
    b = game.state.new_card(plain, ZoneKey("board", 1, "left"), game.players[0])
    game.state.write(a, "flag", True)
    game.state.write(b, "flag", True)
    game.perform("tally", x=b)
    assert game.state.globals["counter"] == 21
    game.perform("tally", x=game.players[0])  # not a card: the test says no
    assert game.state.globals["counter"] == 20


def test_a_label_of_text_and_values_is_joined_when_shown_from_the_values_given(tmp_path):
    path = _toy_with(tmp_path, "procedure ask() {\n  let who = players[2]\n"
                               "  let a = labelled(1, \"one for \" + text(who) + \"!\")\n"
                               "  who = players[1]\n"
                               "  let b = labelled(2, \"two for \" + text(who))\n"
                               "  game.counter = choose \"a number\" from [a, b] by players[1]\n}\n")
    rules = load(path)
    assert "None, (g, (" in _source_of(rules, "procedure ask")  # the pieces, not the text
    game = _empty(rules)
    game.perform("ask")
    seat, options = game.decision()
    assert seat == 1 and [o.label for o in options] == ["one for P2!", "two for P1"]
    game.apply("two for P1")
    assert game.state.globals["counter"] == 2


LOOPS = """procedure loops(p) {
  let total = 0
  for x in [1, 2, 3] {
    let a = choose "go on" from ["more", "leave"] by p
    if a == "leave" { break }
    total += x
  }
  repeat 2 {
    total += choose "how much" from [10, 20] by p
  }
  while (choose "again" from ["yes", "no"] by p) == "yes" {
    total += 100
  }
  maybe_stop(p)
  game.counter = total
}
procedure maybe_stop(p) {
  let c = choose "stop here" from ["stop", "on"] by p
  if c == "stop" {
    game.counter = -1
    stop
  }
  game.counter = -2
}
"""


@pytest.mark.parametrize("answers, counter", [  # (0 and 1: the options 10 and 20, by index)
    (["more", "more", "more", 0, 1, "no", "on"], 36),           # every round of the for loop
    (["more", "leave", 1, 1, "yes", "yes", "no", "on"], 241),   # leaves the for loop by break
    (["leave", 0, 0, "no", "stop"], 20),                        # stop leaves the inlined procedure only
])
def test_a_frame_resumes_inside_loops_and_leaves_them_where_the_rules_say(tmp_path, answers, counter):
    """Every answer makes the frame stop and resume: inside a `for` (then `break` out of it), a
    `repeat`, a `while` whose condition decides, and an inlined procedure whose `stop` ends only
    its own statements. A clone taken at each decision goes on to the same end."""
    rules = load(_toy_with(tmp_path, LOOPS))
    source = _source_of(rules, "procedure loops")
    assert "for _once in _ONE:" in source and "g.call_now" not in source  # maybe_stop is written in
    game = _empty(rules)
    game.perform("loops", p=game.players[0])
    clones = []
    for answer in answers:
        assert game.state.frames, f"the frame ended before the answer {answer!r}"
        clones.append(game.clone())
        game.apply(answer)
    assert not game.state.frames and game.state.globals["counter"] == counter
    for i, copy in enumerate(clones):
        for answer in answers[i:]:
            copy.apply(answer)
        assert not copy.state.frames and copy.state.globals["counter"] == counter


def test_loops_nested_past_pythons_limit_are_a_located_error(tmp_path):
    """Python compiles at most 20 blocks inside each other; rule code nested deeper (here 22
    loops that may stop, each left by `break`) is an error at load that names the procedure and
    points into it, not a Python SyntaxError."""
    body = 'let x = choose "a" from [1, 2] by p\nif x == 2 { break }\n'
    for _ in range(21):
        body = f"repeat 2 {{\n{body}}}\nif game.counter > 100 {{ break }}\n"
    path = _toy_with(tmp_path, "procedure deep(p) {\nrepeat 2 {\n" + body + "}\n}\n")
    with pytest.raises(ValidationError) as info:
        load(path)
    assert "procedure deep" in str(info.value) and "nested too deeply" in str(info.value)
    assert info.value.span.file.endswith("extra.rules") and info.value.span.line > 1


def test_a_choose_from_a_list_that_cannot_repeat_an_option_is_not_checked_for_repeats(tmp_path):
    """The compiler tells lists that can repeat no option (a zone's cards, selections from them,
    rows told apart by name, distinct constants, names bound only to such lists) from lists that
    might, and only the latter are checked for repeats when a `choose` offers them."""
    from interpreter.lang.codegen import Scope
    from interpreter.lang.parser import parse_block

    rules = load(_toy_with(tmp_path, ""))
    gen = rules.compiler.gen
    body = gen.lowered_body(parse_block(
        'let mine = all c in hand(p) where c.power > 0\n'
        'let grown = []\ngrown += hand(p)\n'
        'for each in hand(p) { let looped = hand(p) }\n'
        'let first_player = players[1]\n'), ("p",))
    scope = Scope(True, players=gen.player_names(body, ("p",)), distinct=gen.distinct_names(body, ("p",)))
    assert set(scope.distinct) == {"mine", "looped"}  # not grown, which is added to, nor a loop's each
    cases = {
        'mine + [labelled("done", "stop")]': True,
        'board(p, "left") + board(p, "right")': True,  # two rows of a zone: never the same card
        'take(reverse(hand(p)), 2) + pile(p)': True,
        'abilities(board(p, "left")) + hand(p)': True,
        '["x", "y"] + [first_player]': True,
        'players': True,
        'hand(p) + hand(p)': False,
        'board(p, "left") + board(p)': False,
        'hand(p) + mine': False,
        '["x", labelled("x", "again")]': False,  # the same option id
        '["x", "x"]': False,
        'grown': False,
        'p': False,
    }
    for text, distinct in cases.items():
        (let,) = parse_block(f"let v = {text}\n")
        value = gen.lowering.expression(let.value, frozenset({"p", "mine", "grown", "first_player"}))
        assert (gen.distinct_tags(value, scope) is not None) == distinct, text


def test_what_a_function_gives_is_known_to_repeat_no_option_through_its_block_and_conditionals(tmp_path):
    """A function with a block body gives one of its `return`s' values: a list that can repeat
    no option if every one of them can repeat none (their `let`s followed); an `if ... then ...
    else` the same from its two lists."""
    from interpreter.lang.codegen import Scope
    from interpreter.lang.parser import parse_block

    rules = load(_toy_with(tmp_path, (
        "function picks(p) {\n  let mine = all c in hand(p) where c.power > 0\n"
        "  if any(mine) { return mine }\n  return hand(p)\n}\n"
        "function doubled(p) {\n  if game.counter > 0 { return hand(p) + hand(p) }\n  return hand(p)\n}\n"
        "function either(p) = if game.counter > 0 then hand(p) else pile(p)\n")))
    gen = rules.compiler.gen
    cases = {"picks(p)": True, "either(p)": True, "picks(p) + pile(p)": True,
             "doubled(p)": False, "picks(p) + hand(p)": False, "either(p) + pile(p)": False}
    for text, distinct in cases.items():
        (let,) = parse_block(f"let v = {text}\n")
        assert (gen.distinct_tags(let.value, Scope(True)) is not None) == distinct, text


def test_a_functions_let_of_zone_cards_reads_them_as_cards_in_the_game(tmp_path):
    """In a function (which can move or delete nothing), a name bound only to a zone's cards
    holds cards in the game: a selection from it reads their attributes directly, and gives
    what the general read gives."""
    rules = load(_toy_with(tmp_path, (
        "function strong(p) {\n  let held = hand(p)\n  return all c in held where c.flag\n}\n"
        "function mixed(p, extra) {\n  let held = hand(p)\n  held = extra\n"
        "  return all c in held where c.flag\n}\n")))
    fast, general = _source_of(rules, "function strong"), _source_of(rules, "function mixed")
    assert "g.attrs[" in fast and "is _CardRef" not in fast
    assert re.search(r"is _CardRef and \(_d\d+ := g\.attrs\[", general)  # (a name also bound to a parameter's list: anything)
    game = _empty(rules)
    weak, big = _in_hand(game), _in_hand(game)
    game.state.write(big, "flag", True)
    assert rules.compiler.gen.function("strong")(game.state, None, game.players[0]) == [big]
    assert weak not in rules.compiler.gen.function("mixed")(game.state, None, game.players[0], [weak, big])


def test_a_choose_that_might_repeat_an_option_offers_it_once(tmp_path):
    path = _toy_with(tmp_path, 'procedure twice(p) {\n'
                               '  let c = choose "a card" from hand(p) + hand(p) by p\n'
                               '  let d = choose "a row" from ["left", "right"] by p\n'
                               '  game.counter = position(c) + 10 * count(all x in [d] where x == "right")\n}\n')
    rules = load(path)
    source = _source_of(rules, "procedure twice")
    calls = re.findall(r"g\.choose_one\(.*", source)
    assert calls and all(call.endswith(", True)") != ("g.zones" in call) for call in calls)  # only the rows
    game = _empty(rules)
    cards = [_in_hand(game) for _ in range(2)]
    game.perform("twice", p=game.players[0])
    _seat, options = game.decision()
    assert [o.value for o in options] == cards  # each card once
    game.apply(1)
    assert [o.value for o in game.decision()[1]] == ["left", "right"]
    game.apply("right")
    assert game.state.globals["counter"] == 2 + 10


def test_a_loops_cards_are_written_without_testing_what_they_are(tmp_path):
    """The name of a loop over cards from zones holds a card handle in the loop's body, unless
    the body binds it again: its writes and type tests need not ask what kind of value it is."""
    path = _toy_with(tmp_path, 'procedure mark(p) {\n'
                               '  for c in hand(p) { if c is unit { c.flag = true } }\n}\n'
                               'procedure mixed(p) {\n'
                               '  for c in hand(p) { c.flag = false  c = p }\n}\n'
                               'procedure gone(p) {\n'
                               '  for c in hand(p) { delete c  c.flag = true }\n}\n')
    rules = load(path)
    mark, mixed = _source_of(rules, "procedure mark"), _source_of(rules, "procedure mixed")
    flag = rules.attr_slots["flag"]  # (where a card's row holds it)
    row = r"\(g\.attrs\[{0}\.id\] if g\.attrs_owned\[{0}\.id\] else g\.own_row\({0}\.id\)\)"  # (to write)
    any_row, row_of_c = row.format(r"\w+"), row.format("v_c")
    tested = re.compile(rf"is _CardRef and \(_d\d+ := {any_row}\)\[{flag}\] is not _ABSENT")
    assert not tested.search(mark) and "v_c.defn.type ==" in mark
    assert re.search(rf"if \(_d\d+ := {row_of_c}\)\[{flag}\] is not _ABSENT:", mark)
    assert tested.search(mixed)  # c is bound again in the loop: it may hold anything there
    game = _empty(rules)
    cards = [_in_hand(game) for _ in range(2)]
    game.perform("mark", p=game.players[0])
    assert [game.state.attrs[c.id][flag] for c in cards] == [True, True]
    game.perform("mixed", p=game.players[0])
    assert [game.state.attrs[c.id][flag] for c in cards] == [False, False]
    with pytest.raises(RuntimeRuleError, match="procedure gone"):  # it writes to a card gone
        game.perform("gone", p=game.players[0])


def test_a_loop_that_cannot_stop_keeps_its_name_in_python_in_code_that_may_stop(tmp_path):
    """In a procedure that may stop for a decision, a loop that cannot stop holds its name in a
    Python local, unless some other part of the procedure binds the same name; a loop that may
    stop holds it in the frame."""
    path = _toy_with(tmp_path, 'procedure count_then_ask(p) {\n'
                               '  for c in hand(p) { game.counter += 1 }\n'
                               '  for d in hand(p) { game.counter += 10 }\n'
                               '  for d in hand(p) { game.counter += 10 }\n'
                               '  let x = choose "a row" from ["left", "right"] by p\n'
                               '  for e in hand(p) { if x == "left" { game.counter += 100 } }\n'
                               '  for h in hand(p) { let y = choose "a row" from ["left", "right"] by p }\n'
                               '}\n')
    rules = load(path)
    source = _source_of(rules, "procedure count_then_ask")
    assert "L['c']" not in source and "L['e']" not in source  # the loops' own names
    assert "for L['d'] in" in source and "L['h'] = " in source  # bound twice; a loop that may stop
    game = _empty(rules)
    for _ in range(2):
        _in_hand(game)
    game.perform("count_then_ask", p=game.players[0])
    for answer in ("left", "right", "right"):
        game.apply(answer)
    assert game.state.globals["counter"] == 242 and not game.state.frames


def test_a_players_attribute_that_static_abilities_read_is_set_in_place_and_they_look_again(tmp_path):
    path = _toy_with(tmp_path, "procedure raise_scores(n) {\n  for q in players { q.score += n }\n}\n")
    with open(tmp_path / "toy.cards", "a", encoding="utf-8") as cards:
        cards.write('card "Scorer" : unit {\n  static modify self.power by you.score when you.score > 3\n}\n')
    rules = load(path)
    assert "score" in rules.static_reads
    source = _source_of(rules, "procedure raise_scores")
    assert "g.write" not in source and "min(10, " in source and "g.version += 1" in source
    game = _empty(rules)
    scorer = game.state.new_card(rules.card_defs["Scorer"], ZoneKey("board", 1, "left"), game.players[0])
    assert game.read(scorer, "power") == 1
    game.perform("raise_scores", n=4)
    assert game.read(scorer, "power") == 5  # 1 + 4: the condition holds now
    game.perform("raise_scores", n=9)
    assert [p["score"] for p in game.state.player_attrs] == [10, 10] and game.read(scorer, "power") == 11


def test_the_names_a_choice_reads_again_and_again_are_read_from_the_frame_once(tmp_path):
    """In code that may stop, the options of a `choose` read the block's names from the frame
    once, before the selection that reads them for every item."""
    path = _toy_with(tmp_path, 'procedure pick_strong(p, floor) {\n'
                               '  let c = choose "a strong card" from all c in hand(p) where c.power >= floor by p\n'
                               '  c.flag = true\n'
                               '  let d = choose "another" from all d in hand(p) where d.power >= floor and d != c by p\n'
                               '  d.flag = true\n}\n')
    rules = load(path)
    source = _source_of(rules, "procedure pick_strong")
    held = re.findall(r"(_h\d+) = L\['floor'\]", source)
    assert held and f">= {held[0]}" in source and ">= L['floor']" not in source
    game = _empty(rules)
    cards = [_in_hand(game, name) for name in ("Plain", "Big", "Big")]
    game.perform("pick_strong", p=game.players[0], floor=3)
    assert [o.label for o in game.decision()[1]] == ["Big", "Big"]
    game.apply(1)
    assert [game.read(c, "flag") for c in cards] == [False, True, True]  # the other Big, asked for none
