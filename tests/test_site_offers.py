"""envs/site_offers.py: what each decision site can offer, read from the lowered code: literals
written in a list (through names, rule functions of an expression or a block, `labelled`), the
kinds of a zone's cards and of the players, and anything where the code does not say."""

from __future__ import annotations

from toyrules import toy_with

from interpreter import load
from interpreter.envs.site_offers import ANY, site_offers

_RULES = '''
function rows() = ["left", "right"]
function first_row(p) {
  let r = ["left"]
  return r
}
procedure offers(p, given) {
  let a = choose "a row" from rows() by p
  let b = choose "a card" from hand(p) + board(p, "left") by p
  let picks = [1, labelled("x", "stop")]
  let c = choose "a pick" from picks by p
  let d = choose "a first row" from first_row(p) by p
  let e = choose "a player" from all q in players where q != p by p
  let f = choose "a given" from given by p
  let g = choose "a yes or no" from [p.score > 1] by p
}
'''


def test_each_site_offers_what_its_lowered_source_can_give(tmp_path) -> None:
    rules = load(toy_with(tmp_path, _RULES))
    offers = dict(zip((site.label for site in rules.decision_sites), site_offers(rules.ruleset, rules.decision_sites)))
    assert offers["a row"] == {("value", ("str", "left")), ("value", ("str", "right"))}
    assert offers["a card"] == {"card"}
    assert offers["a pick"] == {("value", ("int", 1)), ("value", ("str", "x"))}
    assert offers["a first row"] == {("value", ("str", "left"))}
    assert offers["a player"] == {"player"}
    assert offers["a given"] is ANY  # (a parameter: anything)
    assert offers["a yes or no"] == {("value", ("bool", True)), ("value", ("bool", False))}
