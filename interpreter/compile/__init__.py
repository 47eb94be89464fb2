"""Compile: a checked ruleset -> an immutable `Program`, everything done once per ruleset.

`compile_ruleset(ruleset)` (program.py) turns a ruleset that rules/ has loaded and checked into a
`Program`: the generated code of its procedures, functions, cards, keywords and main program
(compiler.py, native.py, which hand the writing of Python to lang/), and what the analyses of its
code found (analyses.py: the events abilities listen to, the zones and attributes static
abilities watch, ...; sites.py: the decision sites; places.py: which part of the rules holds a
place in the code; statistics.py: what `statistics:` resolves to).

Its place in the layers:

    rules/ + lang/   load, parse and check a ruleset; write Python from the AST
    compile/         checked ruleset -> Program                    (this package)
    engine/          Rules (holds a Program, makes games) and GameState (runs them)

engine/ imports compile/; compile/ imports only rules/, lang/ and the package's top-level
modules (errors), never engine/ or a layer above it (tests/test_layers.py). The runtime
interface that generated code calls (`g.read`, `g.move`, ...) is the engine's `GameState`; nothing
here needs it.
"""

from __future__ import annotations

from typing import Any

__all__ = ["Program", "compile_ruleset"]


def __getattr__(name: str) -> Any:
    """`Program` and `compile_ruleset`, imported on first use (importing compile.sites alone,
    as the serializer does, does not load the compiler)."""
    if name in __all__:
        from . import program

        return getattr(program, name)
    raise AttributeError(f"module 'interpreter.compile' has no attribute {name!r}")
