"""The hand-written versions of the games (benchmarks/handwritten_<game>.py), for their tests."""

from __future__ import annotations

import importlib.util
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def load_baseline(game: str):
    """The module of a game's hand-written version, loaded by file path (benchmarks/ is not a
    package and the checkout need not be on sys.path)."""
    name = f"handwritten_{game}"
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
