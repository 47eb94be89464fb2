"""compile/native.py: which procedures never suspend and which may end the game, read from the
lowered bodies (lang/ir.py) of procedures and of the replacement abilities that replace them."""

from __future__ import annotations

from toyrules import toy_with

from interpreter import load
from interpreter.lang import ir

_RULES = """
procedure asks(p) {
  let c = choose "a card" from hand(p) by p
}
procedure relays(p) {
  asks(p)
}
procedure plain(p) {
  p.score += 1
}
procedure gives(p) {
  return choose "a card" from hand(p) by p
}
procedure takes(p) {
  let c = gives(p)
}
procedure settles(p) {
  p.score += 1
}
procedure quiet(p) {
  p.score += 1
}
procedure ends(p) {
  lose p "gone"
}
procedure ends_later(p) {
  for q in players {
    if q == p {
      ends(q)
    }
  }
}
keyword wary {
  instead of settles if true {
    let c = choose "a card" from hand(event.p) by event.p
  }
  instead of quiet if true {
    tie "quietly"
  }
}
"""


def _compiler(tmp_path):
    return load(toy_with(tmp_path, _RULES)).compiler


def test_a_procedure_is_native_unless_it_or_what_it_calls_or_what_replaces_it_may_decide(tmp_path) -> None:
    compiler = _compiler(tmp_path)
    native = compiler.native_procedures
    assert {"plain", "ends", "ends_later", "quiet"} <= native
    assert not {"asks", "relays", "gives", "takes", "settles"} & native  # (settles: its replacement asks)


def test_a_procedure_may_end_the_game_if_it_or_what_replaces_it_or_what_it_calls_may(tmp_path) -> None:
    ending = _compiler(tmp_path).ending_procedures
    assert {"ends", "ends_later", "quiet"} <= ending
    assert not {"plain", "asks", "relays", "settles"} & ending


def test_the_analyses_read_lowered_statements(tmp_path) -> None:
    compiler = _compiler(tmp_path)
    p = ir.Local("p")
    assert compiler.is_native(ir.CallStmt(ir.Call(ir.PROCEDURE, "plain", (p,))))
    assert not compiler.is_native(ir.CallStmt(ir.Call(ir.PROCEDURE, "relays", (p,))))
    assert not compiler.is_native(ir.Loop("repeat", None, ir.Const(2), (ir.Let("x", ir.Call(ir.PROCEDURE, "gives", (p,))),)))
    assert not compiler.is_native(ir.If(ir.Ask("may", None, None, None, p), (), None))
    assert compiler.may_end(ir.If(ir.Const(True), (ir.Halt("win", p, None),), None))
    assert not compiler.may_end(ir.Halt("stop", None, None))
    assert compiler.may_end(ir.Let("x", ir.Call(ir.PROCEDURE, "ends_later", (p,))))
