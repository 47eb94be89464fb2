"""Values from code (issue 22, item 7): procedures that return values (also across a decision),
if-then-else, functions written as blocks with locals, comprehensions with several clauses,
flatten, range, sets; the errors that point a designer to them; and item 14: a function's
arguments are worked out once per call."""

from __future__ import annotations

import copy
import random
from pathlib import Path

import pytest
from toyrules import empty_game, in_hand, toy_with

from interpreter import load
from interpreter.api import load_game_json
from interpreter.errors import CardrulesError, CardSyntaxError, ErrorList, RuntimeRuleError
from interpreter.lang import ast
from interpreter.lang.builtins import BUILTINS
from interpreter.lang.parser import parse, parse_block
from interpreter.lang.printer import to_source

DECK52 = Path(__file__).resolve().parent / "data" / "deck52" / "deck52.yaml"


def run(tmp_path: Path, rules_text: str, procedure: str = "probe", **args):
    """The toy ruleset with `rules_text`, an empty game of it after `procedure` ran."""
    rules = load(toy_with(tmp_path, rules_text))
    game = empty_game(rules)
    game.perform(procedure, controller=1, **args)
    return game


def errors_of(tmp_path: Path, rules_text: str) -> list[CardrulesError]:
    with pytest.raises(CardrulesError) as caught:
        load(toy_with(tmp_path, rules_text))
    err = caught.value
    return list(err.errors) if isinstance(err, ErrorList) else [err]


# ---------------------------------------------------------------------- the forms, printed back
FORMS = """\
function sign(n) = if n > 0 then 1 else if n < 0 then -1 else 0

function total(xs) {
  let t = 0
  for x in xs {
    if x > 2 {
      break
    }
    t += x
  }
  return t
}

function pairs(xs, ys) = [[x, y] for x in xs if x > 1 for y in ys if y != x]

procedure draw_one(p) {
  return first(hand(p))
}

function pick(a, b) = choose from (if a then b else choose from b) by a

cards for n in range(1, 4), s in ["a", "b"]: "{n}{s}" : unit {
  power = n
  part top {
    return n
  }
}
"""


def test_new_forms_print_back_to_the_same_tree():
    module = parse(FORMS)
    text = to_source(module)
    assert parse(text) == module
    assert to_source(parse(text)) == text
    kinds = [type(item.body).__name__ if isinstance(item, ast.Function) else type(item).__name__
             for item in module.items]
    assert kinds == ["Conditional", "BlockValue", "MultiComprehension", "Procedure", "Choose", "CardTemplate"]
    assert isinstance(module.items[0].body.orelse, ast.Conditional)  # else if: a conditional in the else
    assert [c.var for c in module.items[2].body.clauses] == ["x", "y"]


def test_a_conditional_as_an_operand_keeps_its_parentheses():
    (stmt,) = parse_block("let y = 2 * (if a then 1 else 2) + 1")
    assert to_source(stmt) == "let y = 2 * (if a then 1 else 2) + 1"
    assert parse_block(to_source(stmt)) == (stmt,)


# ---------------------------------------------------------------------- expressions at run time
def test_if_then_else_works_out_only_the_branch_taken(tmp_path):
    # reading an attribute of none stops a game: the branch not taken is never worked out
    game = run(tmp_path, """
        function power_of(c) = if c == none then -1 else c.power
        procedure probe() { game.counter = power_of(none) * 100 + power_of(first(hand(players[1])))  }
    """)
    assert game.state.globals["counter"] == -100 + -1


def test_comprehensions_with_several_clauses_flatten_and_range(tmp_path):
    game = run(tmp_path, """
        procedure probe() {
          let pairs = [a * 10 + b for a in range(1, 4) if a != 2 for b in range(a, 4)]
          let nested = flatten([[1, 2], 3, [], [[4]]])
          game.counter = count(pairs) * 1000 + sum_of(pairs)
          players[1].score = count(nested)
        }
    """)
    pairs = [a * 10 + b for a in range(1, 4) if a != 2 for b in range(a, 4)]  # [11, 12, 13, 33]
    assert game.state.globals["counter"] == len(pairs) * 1000 + sum(pairs)
    assert game.state.player_attrs[0]["score"] == 4  # 1, 2, 3 and the list [4]: one level only


def test_sets_have_one_order_whatever_the_order_of_their_items(tmp_path):
    rules = load(toy_with(tmp_path, """
        function s1() = set(["b", "a", "b", "c"])
        function s2() = set(["c", "b", "a"])
        function mixed() = set([3, "x", 1, true, none, 3])
        function ops() = [union([3, 1], [2, 3]), intersection([5, 4, 1], [1, 5]), difference([1, 2, 3], [2])]
    """))
    game = empty_game(rules)
    fn = rules.compiler.gen.function
    frame = game.state.frames[-1] if game.state.frames else None
    assert fn("s1")(game, frame) == ["a", "b", "c"] == fn("s2")(game, frame)
    assert fn("mixed")(game, frame) == [None, True, 1, 3, "x"]
    assert fn("ops")(game, frame) == [[1, 2, 3], [1, 5], [1, 3]]
    cards = [in_hand(game) for _ in range(3)]
    assert BUILTINS["set"].implementation(game, [cards[2], cards[0], cards[2], cards[1]]) == cards  # by id


def test_a_set_of_lists_is_a_located_error(tmp_path):
    with pytest.raises(RuntimeRuleError, match="a set holds numbers"):
        run(tmp_path, "procedure probe() { game.counter = count(set([[1], [2]])) }")


def test_range_refuses_a_slip_that_would_fill_the_memory(tmp_path):
    with pytest.raises(RuntimeRuleError, match="at most 100,000"):
        run(tmp_path, "procedure probe() { game.counter = count(range(1, 1000000000)) }")


def test_a_function_block_with_locals_loops_and_returns(tmp_path):
    game = run(tmp_path, """
        function longest_run(ranks) {
          let best = 0
          let run = 0
          let last = -10
          for r in set(ranks) {
            if r == last + 1 { run += 1 } else { run = 1 }
            if run > best { best = run }
            last = r
          }
          return best
        }
        function nothing(x) { if x > 100 { return x } }
        procedure probe() {
          game.counter = longest_run([9, 3, 4, 12, 5, 11, 10, 4, 13])
          players[1].score = if nothing(3) == none then 7 else 0
        }
    """)
    assert game.state.globals["counter"] == 5  # 9 10 11 12 13
    assert game.state.player_attrs[0]["score"] == 7  # no return reached: none


# ---------------------------------------------------------------------- procedures that give values
VALUE_RULES = """
procedure top_power(p) {
  let best = none
  for c in hand(p) {
    if best == none or c.power > best.power { best = c }
  }
  if best == none { return 0 }
  return best.power
}

procedure chosen(p) {
  let c = choose "a card" from hand(p) by p
  c.guard += 1
  return c.power * 10
}

procedure twice(p) {
  let a = chosen(p)
  let b = chosen(p)
  return a + b + top_power(p)
}

procedure probe() {
  game.counter = twice(players[1]) + 1000
}
"""


def _with_three_cards(tmp_path):
    rules = load(toy_with(tmp_path, VALUE_RULES))
    game = empty_game(rules)
    cards = [in_hand(game, name) for name in ("Plain", "Big", "Plain")]
    return rules, game, cards


def test_a_procedure_gives_its_value_without_a_decision(tmp_path):
    rules, game, cards = _with_three_cards(tmp_path)
    assert "top_power" in rules.compiler.native_procedures  # (called as plain Python)
    game.perform("chosen", controller=1, p=game.players[0])
    assert game.decision()[0] == 1


def test_a_procedure_gives_its_value_across_decisions_and_copies(tmp_path):
    rules, game, cards = _with_three_cards(tmp_path)
    game.perform("probe", controller=1)
    powers = {c.id: game.read(c, "power") for c in cards}
    expected = None
    copies = []
    answers = [1, 0]  # Big (power 5 with its keyword), then the first Plain
    for answer in answers:
        _seat, options = game.decision()
        copies.append((game.clone(), copy.deepcopy(game.to_json())))
        game.apply(answer)
    chosen = [cards[1], cards[0]]
    expected = 1000 + sum(powers[c.id] * 10 for c in chosen) + max(powers.values())
    assert game.state.globals["counter"] == expected
    # a copy taken at either decision, and a game saved there, go on to the same value
    for step, (clone, saved) in enumerate(copies):
        for other in (clone, load_game_json(saved, rules)):
            for answer in answers[step:]:
                other.apply(answer)
            assert other.state.globals["counter"] == expected


def test_the_fast_playout_and_the_stepped_game_agree(tmp_path):
    rules = load(DECK52)
    for seed in range(3):
        fast = rules.play_out(lambda g: 0, seed=seed)
        stepped = rules.new_game(seed=seed)
        while not stepped.is_over:
            stepped.apply(0)
        scores = [a["score"] for a in fast.state.player_attrs]
        assert scores == [a["score"] for a in stepped.state.player_attrs]
        assert fast.state.globals["drawn"] == stepped.state.globals["drawn"] == 10 + 8  # dealt, then one per turn
        assert sum(scores) == sum(c.defn.attrs["rank"] for c in stepped.state.zones[("table", 0, "")])


def test_a_replacement_gives_the_value_of_the_call_it_replaces(tmp_path):
    rules = load(toy_with(tmp_path, """
        procedure worth(c) { return 1 }
        procedure probe() { game.counter = worth(first(board(players[1], "left"))) }
        card "Doubler" : unit {
          instead of worth if event.c == self { return 40 + worth(event.c) }
        }
    """))
    game = empty_game(rules)
    game.perform("probe", controller=1)
    assert game.state.globals["counter"] == 1
    doubler = game.state.new_card(rules.card_defs["Doubler"], ("board", 1, "left"), game.players[0])
    assert doubler is not None
    game.perform("probe", controller=1)
    assert game.state.globals["counter"] == 41  # the replacement's value; its own call is not replaced again


# ---------------------------------------------------------------------- errors at load
@pytest.mark.parametrize("code, message", [
    ("procedure act(p) { p.score += 1 }\nprocedure probe() { let x = act(players[1]) }",
     "procedure 'act' does something and has no value"),
    ("procedure v() { return 1 }\nfunction f() = v()", "can only be called in an effect's statements"),
    ("procedure v() { return 1 }\nprocedure probe() { let x = if true then v() else 0 }",
     "cannot be called inside 'if ... then ... else'"),
    ("procedure probe() { let x = if true then choose from [1, 2] by players[1] else 0 }",
     "'choose' is not allowed inside 'if ... then ... else'"),
    ("function f(p) { move first(hand(p)) to pool() return 1 }", "a function only works out a value"),
    ("function f(p) { p.score = 1 return 1 }", "cannot set an attribute or a global"),
    ('card "Returner" : unit { part top { return 1 } }', "'return' gives a value only in a procedure"),
])
def test_values_from_code_in_the_wrong_place_are_located_errors(tmp_path, code, message):
    errors = errors_of(tmp_path, code)
    matching = [e for e in errors if message in e.message]
    assert matching, [e.message for e in errors]
    assert matching[0].span.file.endswith("extra.rules") and matching[0].span.line >= 1


def test_a_value_from_a_procedure_without_return_hints_at_return(tmp_path):
    (err,) = [e for e in errors_of(tmp_path, "procedure act() { }\nprocedure probe() { let x = act() }")
              if "no value" in e.message]
    assert "return VALUE" in err.hint


@pytest.mark.parametrize("text, hint", [
    ("function f(x) = if x > 0 { 1 } else { 2 }", "if C then A else B"),
    ("function f(x) = let y = x + 1", "written as a block"),
    ("procedure p() { if a { } else if b { } }", "elif"),
    ("function f() = 2..14", "range(2, 15)"),
    ("function f(xs, ys) = [x for x in xs, y in ys]", "repeats `for`"),
    ("function f() = {1, 2}", "set([1, 2])"),
    ("procedure p() { let y = x ? 1 : 2 }", "if C then A else B"),
    ("procedure p() { return }", "write stop"),
])
def test_a_syntax_error_names_what_the_language_has_instead(text, hint):
    with pytest.raises(CardSyntaxError) as caught:
        parse(text, "f.rules")
    assert hint in caught.value.hint
    assert caught.value.span.line == 1 and caught.value.span.column > 1


def test_the_old_error_of_the_issue_now_names_if_then_else():
    with pytest.raises(CardSyntaxError) as caught:
        parse("function f(x) = if x > 0 {x}", "f.rules")
    assert caught.value.message == "unexpected '{'; expected 'then'"
    assert (caught.value.span.line, caught.value.span.column) == (1, 26)


# ---------------------------------------------------------------------- arguments worked out once
ONCE_RULES = """
function three(x) = [x for i in [1, 2, 3]]
function above(x, L) = all v in L where v >= x
function unread(x) = 5
function outer(L) = three(random(L))
procedure probe() {
  let r = three(random(range(1, 100000)))
  let s = above(random(range(1, 100000)), [0, 50000, 99999])
  let u = unread(random(range(1, 100000)))
  game.log = [r, s, u, outer(range(1, 100000))]
}
"""


def test_a_function_argument_is_worked_out_once_per_call(tmp_path):
    path = toy_with(tmp_path, ONCE_RULES)
    path.write_text(path.read_text(encoding="utf-8").replace(
        "  counter: {type: int, default: 0}", "  counter: {type: int, default: 0}\n  log: {type: list, default: []}"),
        encoding="utf-8")
    rules = load(path)
    game = empty_game(rules)
    before = random.Random()
    before.setstate(game.state.rng.getstate())
    game.perform("probe", controller=1)
    r, s, u, o = game.state.globals["log"]
    # each `random` ran once: three equal items, one draw for each of the four calls
    assert len(set(r)) == 1 and len(set(o)) == 1 and len(r) == len(o) == 3
    drawn = [before.randrange(99999) + 1 for _ in range(4)]
    assert r == [drawn[0]] * 3 and o == [drawn[3]] * 3
    assert s == [v for v in [0, 50000, 99999] if v >= drawn[1]] and u == 5
    assert game.state.rng.getstate() == before.getstate()


def test_a_costly_argument_is_bound_once_where_the_function_is_written_in(tmp_path):
    from toyrules import source_of

    rules = load(toy_with(tmp_path, """
        function fits(cs, ranks) = all c in cs where c.power in ranks
        procedure probe() { game.counter = count(fits(hand(players[1]), board(players[2]).power)) }
    """))
    source = source_of(rules, "procedure probe")
    # the list of powers is made once, before the loop over the hand, not once per card of it
    assert source.count("board") >= 1
    lines = source.splitlines()
    made = [i for i, line in enumerate(lines) if "_a" in line and "=" in line and "board" in line]
    loop = [i for i, line in enumerate(lines) if line.strip().startswith("for ")]
    assert made and loop and made[0] < loop[0], source
