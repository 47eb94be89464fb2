"""The two forms of the direct emitter: what differs between the native form and the rollout form.

The direct emitter (codegen_statements.py, codegen_expressions.py) writes rule code as plain
Python: statements in order, names in Python locals, a procedure a Python call, nothing to resume.
Its output has two forms, which differ only where rule code may ask for a decision or run other
rule code; the generator writes every other statement and expression the same way for both, and
asks its `form` (a `Form`) for these pieces:

- what a `choose` is (`ask`), and a `may` (`may`): its answer worked out before its statement;
- the function a procedure's call calls (`procedure`), and whether the game may be over after it
  gives a value (`stops_after`); what `run`, `use` and `aim` are (`run`);
- the lines after a statement (`after`): the frames it pushed run, the game over.

`NATIVE` (this module) is the form of code that cannot stop for a decision: a procedure that never
suspends (`p_NAME`), a statement of a resumable block that cannot stop (resumable.py), whose
decisions, if it has any, the resumable form has asked before it. `ROLLOUT` (rollout.py) asks in
place, for games whose decisions are answered as they come (`Game.play_out(fast=True)`).
"""

from __future__ import annotations

from typing import Any

from . import ir


class Form:
    """The native form: nothing asks (a statement that may is written by resumable.py)."""

    name = "native"

    def ask(self, gen: Any, c: ir.Ask, scope: Any, mode: str) -> tuple[list[str], str]:
        """Lines that ask a `choose` of a statement before it, and the Python local its answer is in."""
        raise AssertionError("a choose in code that cannot stop for a decision")

    def may(self, gen: Any, s: ir.If, scope: Any, loop_depth: int, mode: str) -> list[str]:
        """A `may` (an `If` whose test is an `Ask`)."""
        raise AssertionError("a may in code that cannot stop for a decision")

    def procedure(self, gen: Any, name: str) -> str:
        """The Python function a call of a procedure calls."""
        if name not in gen.host.native_procedures:
            raise AssertionError(f"procedure {name} may suspend")
        return "p_" + gen._check(name)

    def stops_after(self, gen: Any, name: str) -> bool:
        """Whether the game may be over after a procedure, called for its value."""
        return name in gen.host.ending_procedures

    def run(self, gen: Any, func: str, call: ir.Call, scope: Any) -> list[str]:
        """`run` (a card's part), `use` or `aim` (an ability's block)."""
        raise AssertionError(f"{func} may suspend")

    def after(self, gen: Any, s: ir.Stmt, mode: str) -> list[str]:
        """The lines after a statement: here, the way out if it may have ended the game."""
        kind = type(s)
        if (kind is ir.Halt and s.kind != "stop" or kind in (ir.Emit, ir.CallStmt)) and gen.host.may_end(s):
            return halted(mode)
        return []


def halted(mode: str) -> list[str]:
    """The way out of the code being written once the game is over."""
    return ["if g.halted:", "    return" if mode == "pure" else "    return None"]


NATIVE = Form()
