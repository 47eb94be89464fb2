"""Issue 35.10: what the table and the terminal write names cards by name, never by id; a token
(the Bases stack's "Ability") by its type's label; an ability by its card and its label; and a
ruleset says in which zones a card attribute is drawn (`shown_in:`, checked at load)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from interpreter import load
from interpreter.cli.main import main
from interpreter.cli.replay import read_log
from interpreter.errors import CardrulesError
from interpreter.presentation import card_display, card_text
from interpreter.server.replay import ReplaySession
from interpreter.server.views import card_face

TOY = Path(__file__).resolve().parent / "data" / "toy"
ID = re.compile(r"#\d")


@pytest.fixture(scope="module")
def bases():
    return load("bases")


@pytest.fixture(scope="module")
def bases_game_log(tmp_path_factory, bases):
    """`cardrules play bases --seed 1` (random against random): what it printed, and its log."""
    path = tmp_path_factory.mktemp("logs") / "bases.jsonl"
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["play", "bases", "--seed", "1", "--players", "random,random", "--log", str(path)]) == 0
    return out.getvalue(), path


def test_the_terminal_names_abilities_and_tokens_without_ids(bases_game_log):
    out, _path = bases_game_log
    lines = out.splitlines()
    assert not [line for line in lines if ID.search(line)]
    assert "Ability resolves" not in lines
    used = lines.index("P1 uses Pyre Warlord: war cry")
    assert "ability of Pyre Warlord resolves" in lines[used:used + 6]
    # a token made and gone within one decision (the other player could only pass) is named too
    druid = lines.index("P2 uses Seedcaller Druid: gather")
    assert lines[druid + 1] == "ability of Seedcaller Druid resolves"


def test_the_table_log_names_abilities_and_tokens_without_ids(bases, bases_game_log):
    _out, path = bases_game_log
    header, entries = read_log(str(path))
    replay = ReplaySession(bases, header, entries, str(path))
    for viewer in (1, 2, "full"):
        lines = replay.steps[-1]["log"][viewer]
        assert not [line for line in lines if ID.search(line)], viewer
        assert "Ability resolves" not in lines, viewer
        used = lines.index("P1 uses Pyre Warlord: war cry")
        assert "ability of Pyre Warlord resolves" in lines[used:used + 6], viewer
        druid = lines.index("P2 uses Seedcaller Druid: gather")
        assert lines[druid + 1] == "ability of Seedcaller Druid resolves", viewer


def ally_view(bases) -> dict:
    """A Bases ally's card view as an observation holds it, in the middle of combat."""
    game = bases.new_game(seed=1)
    hand = game.observation(1)["zones"]["P1"]["hand"]
    raider = next(c for c in hand if c["name"] == "Cinderscale Raider")
    return {**raider, "damage": 4, "tapped": True, "attacking": {"card": 99, "name": "Drowned Archive"}}


def test_combat_state_is_drawn_only_in_play(bases):
    view = ally_view(bases)
    assert card_face(view, bases, "discard")["lines"] == ["cost 1", "colours red", "offense 2", "life 1"]
    assert card_face(view, bases, "play")["lines"] == ["cost 1", "colours red", "offense 2", "life 1", "damage 4",
                                                       "tapped", "attacking Drowned Archive"]
    assert card_text(view, bases, "discard") == "Cinderscale Raider (cost 1, colours red, offense 2, life 1)"
    assert list(card_display(view, bases)) == ["cost", "colours", "offense", "life", "damage", "tapped", "attacking"]


def toy_with_yaml(tmp_path: Path, old: str, new: str) -> Path:
    for f in TOY.iterdir():
        shutil.copy(f, tmp_path / f.name)
    yaml = (tmp_path / "toy.yaml").read_text(encoding="utf-8")
    assert old in yaml
    (tmp_path / "toy.yaml").write_text(yaml.replace(old, new), encoding="utf-8")
    return tmp_path / "toy.yaml"


def test_shown_in_names_declared_zones(tmp_path):
    path = toy_with_yaml(tmp_path, "flag: {type: bool, default: false}",
                         "flag: {type: bool, default: false, shown_in: [bord]}")
    with pytest.raises(CardrulesError) as caught:
        load(path)
    text = str(caught.value)
    line = next(i for i, x in enumerate(path.read_text().splitlines(), start=1) if "shown_in" in x)
    column = path.read_text().splitlines()[line - 1].index("bord") + 1
    assert f"{path}:{line}:{column}: rules error: card type 'unit': attribute 'flag' is shown_in zone 'bord', " \
           f"which is not declared (did you mean 'board'?)" in text
    assert "hint: zones: pile, hand, board, pool, sites" in text


def test_shown_in_is_for_card_attributes(tmp_path):
    path = toy_with_yaml(tmp_path, "score: {type: int, default: 0, min: -5, max: 10}",
                         "score: {type: int, default: 0, min: -5, max: 10, shown_in: [board]}")
    with pytest.raises(CardrulesError) as caught:
        load(path)
    assert "attribute 'score': shown_in says in which zones a card shows it; player attributes are not in a " \
           "zone" in str(caught.value)


def test_a_shown_in_that_is_not_a_list_of_names_is_refused_by_the_schema(tmp_path):
    path = toy_with_yaml(tmp_path, "flag: {type: bool, default: false}", "flag: {type: bool, default: false, "
                                                                        "shown_in: board}")
    with pytest.raises(CardrulesError) as caught:
        load(path)
    line = next(i for i, x in enumerate(path.read_text().splitlines(), start=1) if "shown_in" in x)
    assert f"{path}:{line}:52: rules error: card_types.unit.attributes.flag.shown_in: expected a list, got the " \
           f"text 'board'" in str(caught.value)
