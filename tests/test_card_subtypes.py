"""Card subtypes and tokens (issue 32.6): a card type may extend another (`extends:`), its
attributes, label, display and token flag following and `is` holding upward, and a card may say
`token = true`. The test ruleset is tests/data/subtypes; its scenarios (tests/scenarios/subtypes)
cite every rule id of its RULES.md. Bad input is a located load error with a did-you-mean."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from interpreter import load
from interpreter.cli.main import main
from interpreter.errors import CardrulesError
from interpreter.rules.yamlload import load_yaml

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "subtypes"
RULESET = DATA / "subtypes.yaml"
SCENARIOS = ROOT / "tests" / "scenarios" / "subtypes"


def test_every_rule_id_is_cited_by_a_scenario():
    ids = re.findall(r"^- ([ST]-\d+\.\d+) ", (DATA / "RULES.md").read_text(encoding="utf-8"), re.MULTILINE)
    assert ids == ["S-0.1", "S-1.1", "S-1.2", "S-1.3", "S-1.4", "S-1.5", "S-1.6", "T-1.1", "T-1.2", "T-2.1", "T-2.2"]  # (T: 32.9, 32.10)
    cited = {c for path in SCENARIOS.glob("*.yaml") for c in load_yaml(path)[0].get("cites") or []}
    assert [i for i in ids if i not in cited] == []


def test_a_subtype_has_its_parents_attributes_label_and_token():
    types = load(RULESET).ruleset.card_types
    assert types["token_minion"].lineage == ("token_minion", "minion", "character")
    assert list(types["token_minion"].attributes) == ["cost", "attack", "health", "tribe"]
    assert types["minion"].attributes["cost"].required and not types["character"].attributes["cost"].required
    assert types["minion"].label == "{name} {attack}/{health}"
    assert types["token_minion"].label == "{name} (token) {attack}/{health}"
    assert (types["minion"].token, types["token_minion"].token) == (False, True)


def test_tokens_by_type_or_by_card_are_left_out_of_the_card_names():
    rules = load(RULESET)
    assert rules.program.playable_card_names == ["Squire", "Herald", "Summon Wisp", "Rally", "Cull", "Dispel"]
    assert {n: d.token for n, d in rules.card_defs.items() if d.token} == {"Recruit": True, "Wisp": True}


def test_cards_shows_the_types_a_card_type_extends(capsys):
    assert main(["cards", str(RULESET), "Recruit"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "Recruit  (token_minion, a minion, a character, token)"


def line_of(fragment: str, file: str = "subtypes.yaml") -> int:
    """The line of the test ruleset's file where `fragment` first is."""
    lines = (DATA / file).read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, start=1) if fragment in line)


def broken(tmp_path: Path, old: str, new: str, file: str = "subtypes.yaml") -> Path:
    """A copy of the subtypes ruleset with `old` replaced by `new` in one of its files."""
    folder = tmp_path / "subtypes"
    shutil.copytree(DATA, folder)
    path = folder / file
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return folder / "subtypes.yaml"


def load_error(path: Path) -> str:
    with pytest.raises(CardrulesError) as info:
        load(path)
    return str(info.value)


def test_a_type_extending_an_unknown_type_is_located_with_a_did_you_mean(tmp_path):
    message = load_error(broken(tmp_path, "extends: character", "extends: charcter"))
    assert f"subtypes.yaml:{line_of('extends: character')}:14: rules error: card type 'minion' extends 'charcter', " \
           "which is not a card type (did you mean 'character'?)" in message


def test_a_type_extending_itself_is_located(tmp_path):
    message = load_error(broken(tmp_path, "    extends: minion\n", "    extends: token_minion\n"))
    assert f"subtypes.yaml:{line_of('    extends: minion')}:14: rules error: card type 'token_minion' extends itself" in message


def test_a_cycle_of_types_is_located_at_each_of_them(tmp_path):
    path = broken(tmp_path, "  character:\n", "  character:\n    extends: token_minion\n")
    message = load_error(path)
    assert f"subtypes.yaml:{line_of('  character:') + 1}:14: rules error: card type 'character' extends itself " \
           "(character -> token_minion -> minion -> character)" in message
    assert "card type 'minion' extends itself (minion -> character -> token_minion -> minion)" in message


def test_an_attribute_declared_again_with_another_type_is_located(tmp_path):
    message = load_error(broken(tmp_path, "cost: {type: int, min: 0}        #", "cost: {type: text}        #"))
    assert f"subtypes.yaml:{line_of('declared again')}:20: rules error: card type 'minion': attribute 'cost' is text, " \
           "but 'minion' extends 'character', where it is int" in message


@pytest.mark.parametrize("member,expected", [
    ("token = 1", "subtypes.cards:2:65: validation error: 'token' of 'Squire' must be true or false"),
    ("token = true token = false", "subtypes.cards:2:70: validation error: 'token' is given twice"),
])
def test_a_token_member_that_is_not_one_flag_is_located(tmp_path, member, expected):
    path = broken(tmp_path, "health = 2 text", f"health = 2 {member} text", file="subtypes.cards")
    message = load_error(path)
    assert expected in message, message



def test_a_wrong_declaration_a_subtype_inherits_is_reported_once(tmp_path):
    message = load_error(broken(tmp_path, "tribe: {type: text, default: \"\"}", "seat: {type: int, default: 0}"))
    assert message.count("'seat' is a built-in property and cannot be declared as an attribute") == 1, message
