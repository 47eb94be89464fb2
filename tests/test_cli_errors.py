"""Hostile command lines and files (issue 29, points 8-14): every one ends in a located error or a
usage error with the documented exit code, never a traceback, a hang or a false success."""

from __future__ import annotations

import pytest

from interpreter.cli.main import main
from interpreter.errors import CardrulesError
from interpreter.rules.yamlload import load_yaml_text
from interpreter.scenarios.plan import Scenario, make_plan

SCENARIO = """\
ruleset: bases
cites: [B-2.3]
seed: 4
then:
  {key}:
    - {{event: {name}}}
"""


# ---------------------------------------------------------------- 8. an event named by a list or mapping
@pytest.mark.parametrize("key, name, got", [("events", "[attacks]", "a list"),
                                            ("not_events", "{a: 1}", "a mapping")])
@pytest.mark.parametrize("command", ["validate", "test"])
def test_an_event_named_by_a_list_or_mapping_is_an_error_at_it(tmp_path, capsys, command, key, name, got):
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO.format(key=key, name=name), encoding="utf-8")
    assert main([command, str(path)]) == 1
    out = capsys.readouterr()
    assert f"{path}:6:8: rules error: then.{key}[0].event: expected text, got {got}" in out.out + out.err
    assert "crashed" not in out.out and "Traceback" not in out.err


def test_an_event_named_by_a_list_is_an_error_at_it_even_without_the_schema(tmp_path):
    # make_plan guards on its own: a scenario built without read_scenario's schema check
    file = str(tmp_path / "s.yaml")
    data, marks = load_yaml_text(SCENARIO.format(key="events", name="[attacks]"), file)
    from interpreter import load

    with pytest.raises(CardrulesError) as caught:
        make_plan(Scenario(data, marks, file), load("bases"))
    assert str(caught.value).startswith(f"{file}:6:8: rules error: then events: an event is named by text, "
                                        "not list ['attacks']")
