"""Lanes' bad inputs (issue: an undefined keyword, an Aura without a parameter, a lane that does
not exist, a draft card set of the wrong size): each a clear, located error at load time."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from interpreter import load
from interpreter.errors import CardrulesError, ErrorList

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def lanes_copy(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "rulesets" / "lanes", tmp_path / "rulesets" / "lanes")
    shutil.copytree(ROOT / "cards" / "lanes", tmp_path / "cards" / "lanes")
    shutil.copytree(ROOT / "rulesets" / "schema", tmp_path / "rulesets" / "schema")
    return tmp_path


def add_card(root: Path, text: str) -> tuple[Path, int]:
    path = root / "cards" / "lanes" / "zz_test.cards"
    path.write_text("# a card under test\n" + text + "\n")
    return path, 2


def first_error(root: Path) -> CardrulesError:
    with pytest.raises(CardrulesError) as info:
        load(root / "rulesets" / "lanes" / "lanes.yaml")
    err = info.value
    return err.errors[0] if isinstance(err, ErrorList) else err


def test_undefined_keyword(lanes_copy):
    path, line = add_card(lanes_copy, 'card "Test Flier" : creature { cost = 2 attack = 1 health = 1 keyword flyng }')
    err = first_error(lanes_copy)
    assert err.span.file == str(path) and err.span.line == line
    assert "unknown keyword 'flyng'" in str(err)


def test_aura_without_parameter(lanes_copy):
    path, line = add_card(lanes_copy, 'card "Test Beacon" : building { cost = 2 health = 3 keyword aura }')
    err = first_error(lanes_copy)
    assert err.span.file == str(path) and err.span.line == line
    assert "keyword 'aura' takes a parameter (k), got 0" in str(err)


def test_lane_that_does_not_exist(lanes_copy):
    path, line = add_card(
        lanes_copy,
        'card "Test Gate" : incantation { cost = 1 part effect { ferry(first(lane(you, "middle"))) } }')
    err = first_error(lanes_copy)
    assert err.span.file == str(path) and err.span.line == line
    assert "zone 'lane' has no row 'middle'" in str(err) and "rows: upper, lower" in str(err)


def test_draft_card_set_too_small(lanes_copy):
    for path in (lanes_copy / "cards" / "lanes").glob("*.cards"):
        if path.name != "keep.cards":
            path.unlink()
    add_card(lanes_copy, "\n".join(
        f'card "Test Grunt {i}" : creature {{ cost = 1 attack = 1 health = 1 }}' for i in range(15)))
    err = first_error(lanes_copy)
    assert err.span.file.endswith("lanes.yaml")
    assert "the draft needs at least 16 cards" in str(err)
    lines = (lanes_copy / "rulesets" / "lanes" / "lanes.yaml").read_text().splitlines()
    assert "count(card_names()) >= 16" in lines[err.span.line - 1]


def test_sixteen_cards_are_enough(lanes_copy):
    for path in (lanes_copy / "cards" / "lanes").glob("*.cards"):
        if path.name != "keep.cards":
            path.unlink()
    add_card(lanes_copy, "\n".join(
        f'card "Test Grunt {i}" : creature {{ cost = 1 attack = 1 health = 1 }}' for i in range(16)))
    rules = load(lanes_copy / "rulesets" / "lanes" / "lanes.yaml")
    game = rules.new_game(seed=1)
    assert game.decision()[1][0].label.startswith("Test Grunt")
