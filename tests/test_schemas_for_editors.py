"""The JSON Schemas as a YAML editor uses them (docs/editor-schemas.md): an `$id`, a title and a
description on each schema and on every key, `cardrules schema`, and the modeline on every shipped
ruleset and deck file."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from interpreter.cli.main import main
from interpreter.paths import rulesets_dir, schema_dir
from interpreter.rules.yamlload import load_yaml

SCHEMAS = sorted(schema_dir().glob("*.schema.json"))
# Subschemas that only restate a constraint on keys declared (and described) elsewhere: the
# conditions and consequences of if/then/else, `not`, the helpers those conditions use
# ($defs/typed) and the keys a complete ruleset must give ($defs/complete).
RESTATING = {"if", "then", "else", "not"}
RESTATING_DEFS = {"typed", "complete"}
MODELINE = re.compile(r"# yaml-language-server: \$schema=(\S+)\n")


def undescribed(schema: dict) -> list[str]:
    """The paths of the keys (entries of a `properties`) that have no description."""
    missing = []

    def walk(node, path: str) -> None:
        if isinstance(node, list):
            for i, item in enumerate(node):
                walk(item, f"{path}[{i}]")
            return
        if not isinstance(node, dict):
            return
        for key, value in node.items():
            if key in RESTATING or (path == "/$defs" and key in RESTATING_DEFS):
                continue
            if key == "properties" and isinstance(value, dict):
                for name, sub in value.items():
                    if not (isinstance(sub, dict) and isinstance(sub.get("description"), str) and sub["description"]):
                        missing.append(f"{path}/{name}")
                    walk(sub, f"{path}/{name}")
            else:
                walk(value, f"{path}/{key}")

    walk(schema, "")
    return missing


def test_the_schemas_are_found():
    assert {p.name for p in SCHEMAS} >= {"ruleset.schema.json", "deck.schema.json", "scenario.schema.json"}


@pytest.mark.parametrize("path", SCHEMAS, ids=lambda p: p.name)
def test_every_schema_and_every_key_is_described(path):
    schema = json.loads(path.read_text(encoding="utf-8"))
    assert schema["$id"].endswith("/" + path.name)
    assert schema["title"] and schema["description"]
    assert undescribed(schema) == [], "keys without a description (add one next to the key)"


def test_the_check_finds_a_key_without_a_description():
    schema = {"properties": {"a": {"description": "x", "properties": {"b": {"type": "string"}}},
                             "c": {"if": {"properties": {"d": {}}}}}}
    assert undescribed(schema) == ["/a/b", "/c"]


def shipped_yaml() -> list[Path]:
    return sorted(p for p in rulesets_dir().rglob("*.yaml") if schema_dir() not in p.parents)


@pytest.mark.parametrize("path", shipped_yaml(), ids=lambda p: str(p.relative_to(rulesets_dir())))
def test_every_shipped_yaml_names_its_schema_on_its_first_line(path):
    first = path.read_text(encoding="utf-8").split("\n", 1)[0] + "\n"
    match = MODELINE.fullmatch(first)
    assert match, f"{path} does not start with '# yaml-language-server: $schema=...'"
    target = (path.parent / match.group(1)).resolve()
    expected = "deck.schema.json" if path.parent.name == "decks" else "ruleset.schema.json"
    assert target == (schema_dir() / expected).resolve()
    data, _marks = load_yaml(path)  # (a comment: the loaders read the file as before)
    assert isinstance(data, dict)


def test_cardrules_schema_lists_prints_and_writes(tmp_path, capsys):
    assert main(["schema"]) == 0
    listing = capsys.readouterr().out
    for path in SCHEMAS:
        assert json.loads(path.read_text())["$id"] in listing
    assert main(["schema", "deck"]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads((schema_dir() / "deck.schema.json").read_text())
    assert main(["schema", "--write", str(tmp_path / "out")]) == 0
    written = capsys.readouterr().out
    for path in SCHEMAS:
        assert (tmp_path / "out" / path.name).read_text() == path.read_text()
        assert f"$schema={tmp_path / 'out' / path.name}" in written
    assert main(["schema", "decks"]) == 2
    assert "no schema named 'decks'" in capsys.readouterr().err
