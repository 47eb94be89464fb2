"""What tests of load checks and rule errors ask of an error: the one validation error a load
gives, where it is, and the rule error a game stops with in both ways of playing."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import load
from interpreter.errors import CardrulesError, ErrorList, RuntimeRuleError, ValidationError


def load_error(path: Path) -> ValidationError:
    """The one validation error loading the ruleset at `path` gives."""
    with pytest.raises(CardrulesError) as info:
        load(path)
    err = info.value
    errors = err.errors if isinstance(err, ErrorList) else [err]
    assert len(errors) == 1, str(err)
    assert isinstance(errors[0], ValidationError), str(err)
    return errors[0]


def located_at(err: CardrulesError, path: Path, line: int, column: int) -> None:
    """The error is in the file named like `path`, at line:column, and says so first."""
    assert err.span is not None and Path(err.span.file).name == path.name, str(err)
    assert (err.span.line, err.span.column) == (line, column), str(err)
    assert str(err).startswith(f"{err.where()}: ") and err.where().endswith(f":{line}:{column}")


def both_ways(rules, match: str) -> list[RuntimeRuleError]:
    """The rule error a game stops with, played with `apply` and with `Rules.play_out`."""
    found = []
    with pytest.raises(RuntimeRuleError, match=match) as stepped:
        game = rules.new_game(seed=1)
        while not game.is_over:
            game.apply(0)
    found.append(stepped.value)
    with pytest.raises(RuntimeRuleError, match=match) as rolled:
        rules.play_out(lambda game: 0, seed=1)
    found.append(rolled.value)
    return found
