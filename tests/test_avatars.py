"""Players as characters (issue 32.7): `avatars: {type, zone}` gives each player a card that stands
for them, made with the decks in the player's own zone, and the functions `avatar(p)` and
`player_of(x)`, so damage, targets and keywords treat heroes and minions alike. The test ruleset is
tests/data/heroes; its scenarios (tests/scenarios/heroes) cite every rule id of its RULES.md. A bad
declaration is a located load error with a did-you-mean."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from playout import examples, playout, replay_log

from interpreter import load
from interpreter.errors import CardrulesError
from interpreter.lang.values import ZoneKey
from interpreter.rules.yamlload import load_yaml

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "heroes"
RULESET = DATA / "heroes.yaml"
SCENARIOS = ROOT / "tests" / "scenarios" / "heroes"
RULES = load(RULESET)


def test_every_rule_id_is_cited_by_a_scenario():
    ids = re.findall(r"^- (H-\d+\.\d+) ", (DATA / "RULES.md").read_text(encoding="utf-8"), re.MULTILINE)
    assert ids[:6] == ["H-1.1", "H-1.2", "H-1.3", "H-1.4", "H-1.5", "H-2.1"]
    cited = {c for path in SCENARIOS.glob("*.yaml") for c in load_yaml(path)[0].get("cites") or []}
    assert [i for i in ids if i not in cited] == []


def test_each_player_gets_the_next_card_of_the_type_in_their_zone():
    game = RULES.new_game(seed=3)
    heroes = [game.state.zones[ZoneKey("hero", p.seat, "")] for p in game.players]
    assert [[c.defn.name for c in z] for z in heroes] == [["Warden"], ["Ranger"]]
    assert [game.read(z[0], "owner") for z in heroes] == game.players
    assert RULES.ruleset.avatars.type == "hero" and RULES.ruleset.avatars.zone == "hero"


def test_avatar_and_player_of_are_functions_of_the_rules():
    functions = RULES.ruleset.definitions.functions
    assert functions["avatar"].params == ("p",) and functions["player_of"].params == ("x",)
    assert functions["avatar"].span.file.endswith("heroes.yaml")


def test_more_players_than_cards_go_round_again(tmp_path):
    path = broken(tmp_path, "players: 2", "players: 3")
    game = load(path).new_game(seed=1)
    assert [game.state.zones[ZoneKey("hero", s, "")][0].defn.name for s in (1, 2, 3)] == ["Warden", "Ranger", "Warden"]


def broken(tmp_path: Path, old: str, new: str, file: str = "heroes.yaml") -> Path:
    """A copy of the heroes ruleset with `old` replaced by `new` in one of its files."""
    folder = tmp_path / "heroes"
    shutil.copytree(DATA, folder)
    path = folder / file
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return folder / "heroes.yaml"


def load_error(path: Path) -> str:
    with pytest.raises(CardrulesError) as info:
        load(path)
    return str(info.value)


def _line(fragment: str) -> int:
    lines = (DATA / "heroes.yaml").read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, start=1) if fragment in line)


@pytest.mark.parametrize("old,new,expected", [
    ("zone: hero, cites", "zone: heor, cites",
     ":{line}:29: rules error: avatars: zone 'heor' is not declared (did you mean 'hero'?)"),
    ("zone: hero, cites", "zone: table, cites",
     ":{line}:29: rules error: avatars: zone 'table' is shared; each player's avatar is made in a zone of that "
     "player's own"),
    ("type: hero, zone", "type: heor, zone",
     ":{line}:17: rules error: avatars: card type 'heor' is not declared (did you mean 'hero'?)"),
    ("zone: hero, cites", "zon: hero, cites", ":{line}:23: rules error: avatars.zon: unknown key 'zon' (did you mean 'zone'?)"),
])
def test_a_bad_declaration_is_located(tmp_path, old, new, expected):
    path = broken(tmp_path, old, new)
    if "table" in new:
        path.write_text(path.read_text(encoding="utf-8").replace(
            "  discard: {per: player", "  table: {per: shared}\n  discard: {per: player"), encoding="utf-8")
    message = load_error(path)
    line = _line("avatars: {") + (1 if "table" in new else 0)
    assert "heroes.yaml" + expected.format(line=line) in message, message


def test_a_type_without_cards_is_located(tmp_path):
    path = broken(tmp_path, 'card "Warden" : hero { health = 10 }\ncard "Ranger" : hero { attack = 1 health = 8 }\n',
                  "", file="heroes.cards")
    message = load_error(path)
    assert f"heroes.yaml:{_line('avatars: {')}:1: validation error: avatars: no card is of card type 'hero', so no " \
           "player gets an avatar" in message, message


def test_a_rule_file_defining_avatar_again_names_both_places(tmp_path):
    path = broken(tmp_path, "function enemy(p)", "function avatar(p) = none\nfunction enemy(p)", file="heroes.rules")
    message = load_error(path)
    assert re.search(r"heroes\.rules:\d+:1: validation error: 'avatar' is defined twice \(first at "
                     r"\S*heroes\.yaml:\d+:\d+\)", message), message


def heroes_invariants(game) -> None:
    # H-1.1: each player's hero zone holds their hero, owned by them, and it never leaves
    for p in game.players:
        zone = game.state.zones[ZoneKey("hero", p.seat, "")]
        assert len(zone) == 1 and game.read(zone[0], "owner") is p and zone[0].defn.type == "hero"
        assert zone[0].defn.name == ("Warden", "Ranger")[p.seat - 1]
    # H-1.2: no minion with health 0 or less stays on a board
    for p in game.players:
        assert all(game.read(c, "health") > 0 for c in game.state.zones[ZoneKey("board", p.seat, "")])


@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1), agent_seed=st.integers(0, 2**31 - 1))
def test_random_games_keep_invariants_and_end(seed, agent_seed):
    game, choices = playout(RULES, seed, agent_seed, heroes_invariants)
    result = game.result
    fallen = [p.seat for p in game.players if game.read(game.state.zones[ZoneKey("hero", p.seat, "")][0], "health") <= 0]
    if result.draw:  # H-2.1: both fell, or 30 turns
        assert len(fallen) == 2 or game.state.globals["turn"] > 30
    else:
        assert len(fallen) == 1 and result.winner != fallen[0] and result.reason == "a hero fell"
    assert replay_log(RULES, seed, choices) == game.log
