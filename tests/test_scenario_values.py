"""Values a scenario gives are checked against the ruleset's declared types and limits when the
scenario is validated, located at the value: not found later as a Python error mid-run."""

from __future__ import annotations

import pytest

from interpreter.errors import CardrulesError
from interpreter.scenarios import check_scenario, run_scenario

POSITION = """\
ruleset: initiative
cites: [I-3.3]
given:
  turn: {{number: 3, phase: order}}
  globals: {{{globals}}}
  players:
    1:
      health: {health}
      revealed: [{{card: Stab, as: s}}, {{card: Bandage, as: b, resolved: {resolved}}}]
      played: [$s, $b]
    2:
      revealed: [{{card: Stab, as: x}}, {{card: Bandage, as: y}}]
      played: [$x, $y]
when: []
then:
  game.first: P2   # a tie: the player who acted second last round (I-3.3)
"""


def _scenario(tmp_path, globals_="second_last_round: P2", health="20", resolved="false"):
    path = tmp_path / "s.yaml"
    path.write_text(POSITION.format(globals=globals_, health=health, resolved=resolved))
    return path


def test_a_well_typed_position_runs(tmp_path):
    result = run_scenario(_scenario(tmp_path))
    assert result.passed, result.failures


@pytest.mark.parametrize("kwargs, line, message", [
    ({"health": "P2"}, 8, "'health' takes a whole number, not 'P2'"),                    # was a TypeError
    ({"globals_": "second_last_round: -1"}, 5, "'second_last_round' takes a player (P1, P2, ...), not -1"),
    ({"health": "25"}, 8, "'health' is at most 20, not 25"),
    ({"health": "true"}, 8, "'health' takes a whole number, not True"),
    ({"resolved": "3"}, 9, "'resolved' takes true or false, not 3"),
    ({"globals_": "second_last_round: $s"}, 5, "'second_last_round' takes a player (P1, P2, ...), not 'Stab'"),
])
def test_a_value_of_the_wrong_type_is_a_located_error_at_validation(tmp_path, kwargs, line, message):
    path = _scenario(tmp_path, **kwargs)
    with pytest.raises(CardrulesError) as caught:
        check_scenario(path)
    assert message in str(caught.value)
    assert str(caught.value).startswith(f"{path}:{line}:")
