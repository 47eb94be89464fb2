"""A sample with every form of the card language once, and the lowering that reads it (for
tests/test_lang_lowering.py and tests/test_emit_from_ir.py)."""

from __future__ import annotations

from interpreter.lang import ast
from interpreter.lang.lower import Lowering, Names

# Every form of the language once: parsed (not loaded), lowered, and its node types counted.
EVERY_FORM = '''
card "Sample" : unit {
  power = 2
  aims(t) = t.power > self.power
  best(a, b) { if a > b { return a } return b }
  keyword guard(1)
  part front {
    let x = [1, none, true, "a"][0]
    x += -1
    self.power = x
    game.score -= 1
    notify(x)
    if x > 1 { break } elif x < 0 { stop } else { tie "even" }
    for c in hand(you) { move c to pile() at 0 }
    repeat 2 { shuffle pile() }
    while x < 3 { x = x + 1 }
    create "Sample" in pile() with { power = 1 } as made
    emit struck(card: made, amount: options.size)
    attach made to self
    detach made
    delete made
    modify self.power by 1 until turn_end
    grant guard(2) to self until turn_end
    may "again?" by you { win you "won" } else { lose you }
    let pick = choose 1 "one" from [c for c in hand(you) if c.power > 1] by you
    let many = [a + b for a in [1, 2] if a > 0 for b in [3] if b > a]
    let best = all c in hand(you) where c.power > 0 ordered by c.power desc
    let odd = if not (x is int) then -x else event.amount
    let named = guard
    modify made.power by 1 until self leaves
    grant guard(1) to made until removed
    silence made until turn_end
    remove effects of self from made
    repeat { x -= 1 } until x < 1
    return made
  }
  static modify self.power by 1 when x is not none
  static grant guard(1) to self
  on struck if event.amount > 0 { notify(self) }
  instead of struck { notify(self) }
  activate "use" pay 1 if true target { let t = 1 } { notify(t) }
}
cards for k in [1, 2]: "S{k}" : unit { power = k }
procedure notify(v) { return v }
function twice(n) = n * 2
function block(n) { let m = n  return m }
keyword guard(n) { static modify self.power by n }
'''


def sample_lowering(module: ast.Module) -> Lowering:
    """The lowering of a module of the sample's kind: its functions, procedures, keywords and two zones."""
    return Lowering(Names(frozenset(i.name for i in module.items if isinstance(i, ast.Function)),
                          frozenset(i.name for i in module.items if isinstance(i, ast.Procedure)),
                          frozenset({"hand", "pile"}),
                          frozenset(i.name for i in module.items if isinstance(i, ast.KeywordDef))))
