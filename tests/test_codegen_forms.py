"""The direct emitter's two forms (lang/codegen_forms.py): the native form and the rollout form are
one emitter's output, the rollout form asking in place what the resumable form stops for. A
procedure whose loop asks at each test (and counts a selection), with a value of a procedure and
a `may`, takes the same decisions, in the same order, to the same end, played step by step
(resumable) and played out fast (its rollout form)."""

from __future__ import annotations

from toyrules import empty_game, source_of, toy_with

from interpreter import load
from interpreter.lang.codegen_forms import NATIVE
from interpreter.lang.rollout import ROLLOUT

SOURCE = '''procedure pick(p) {
  return choose "a number" from [1, 2, 3] by p
}

procedure looped(p) {
  while (choose "again?" from ["yes", "no"] by p) == "yes"
      and game.counter < pick(p) + 4 + count(all c in hand(p) where c.guard > 0) {
    game.counter += pick(p)
    may "twice?" by p {
      game.counter += 10
    }
  }
}

procedure host(p) {
  let start = choose "a start" from [0, 1] by p
  game.counter = start
  looped(p)
}
'''

ANSWERS = ["0", "yes", "3", "1", "no", "yes", "3", "2", "yes", "yes", "1"]


def _played(rules, fast: bool) -> tuple[list[str], int]:
    """The prompts asked, and the counter at the end, with ANSWERS given in turn."""
    game = empty_game(rules)
    game.perform("host", controller=1, p=game.players[0])
    asked: list[str] = []
    answers = iter(ANSWERS)

    def decide(g):
        asked.append(g.pending.prompt)
        return next(answers)

    if fast:
        game.play_out(decide, fast=True)
    else:
        while game.pending:
            game.apply(decide(game))
    return asked, game.state.globals["counter"]


def test_the_rollout_form_asks_what_the_resumable_form_asks_in_the_same_order(tmp_path) -> None:
    rules = load(toy_with(tmp_path, SOURCE))
    stepped = _played(rules, fast=False)
    assert stepped == (["a start", "again?", "a number", "a number", "twice?", "again?", "a number",
                        "a number", "twice?", "again?", "a number"], 13)
    assert _played(rules, fast=True) == stepped
    rollout = source_of(rules, "procedure looped ?rollout?")
    assert "while True:" in rollout and "g.ask_now('one', 1, _k" in rollout and "r_pick(g, f, v_p)" in rollout
    assert "        for _c" in rollout  # (the test's selection counted by a loop, at each test, as natively)


def test_the_forms_differ_only_in_what_asks_calls_and_follows() -> None:
    assert ROLLOUT.name == "rollout" and NATIVE.name == "native"
    shared = {"statement", "s_If", "loop_while", "asked"}  # (the generator's: one for both)
    assert not shared & set(vars(type(ROLLOUT))) and not shared & set(vars(type(NATIVE)))
