"""`repeat { BODY } until TEST` (docs/language.md section 3): the body runs, then the loop ends
once the test holds, tested after each round with the names the body bound. Sugar: it is
`while true { BODY if TEST { break } }` for every pass (checker, lowering, emitters), and the
printer writes it back as written (docs/contributing.md section 3 walks through it)."""

from __future__ import annotations

from toyrules import empty_game, toy_with

from interpreter import load
from interpreter.lang import ast
from interpreter.lang.parser import parse
from interpreter.lang.printer import to_source

SOURCE = '''procedure count_up(n) {
  game.counter = 0
  repeat {
    game.counter += 1
  } until game.counter >= n
}

procedure ask_until(p) {
  game.counter = 0
  repeat {
    let row = choose "a row" from ["left", "right"] by p
    game.counter += 1
  } until row == "right"
}
'''


def test_it_is_a_while_loop_that_breaks_after_its_body_and_prints_back_as_written() -> None:
    module = parse(SOURCE, "extra.rules")
    loop = module.items[0].body[1]
    assert isinstance(loop, ast.While) and loop.until and loop.condition == ast.BoolLit(True)
    assert loop.body == (ast.Assign(ast.Attribute(ast.Name("game"), "counter"), "+=", ast.IntLit(1)),
                         ast.If((ast.IfBranch(ast.BinOp(">=", ast.Attribute(ast.Name("game"), "counter"),
                                                        ast.Name("n")), (ast.Break(),)),), None))
    assert loop.until_parts() == (loop.body[:1], loop.body[1].branches[0].condition)
    assert to_source(module) == SOURCE
    assert parse(to_source(module), "again.rules") == module


def test_the_body_runs_once_before_the_test_then_until_it_holds(tmp_path) -> None:
    rules = load(toy_with(tmp_path, SOURCE))
    for n, rounds in [(3, 3), (1, 1), (0, 1)]:  # (0: the body runs once, then the test holds)
        game = empty_game(rules)
        game.perform("count_up", n=n)
        assert game.state.globals["counter"] == rounds


def test_a_decision_in_the_body_and_its_name_in_the_test(tmp_path) -> None:
    rules = load(toy_with(tmp_path, SOURCE))
    game = empty_game(rules)
    game.perform("ask_until", controller=1, p=game.players[0])
    for answer in ["left", "left", "right"]:
        assert game.decision()[0] == 1
        game.apply(answer)
    assert game.state.globals["counter"] == 3 and not game.pending


def test_explain_says_it_as_written() -> None:
    from interpreter.lang import explain

    loop = parse(SOURCE, "extra.rules").items[0].body[1]
    assert explain.statement(loop) == [
        "again and again, until `game.counter >= n` (tested after each round): increases the counter of `game` by 1"]
