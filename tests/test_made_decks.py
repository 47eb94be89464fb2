"""Decks for the table and decks made from the card set (`decks.zone` shared, `decks.made`;
docs/rulesets.md#decks): where the cards go, whose they are, how many, and the load checks."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import load
from interpreter.errors import CardrulesError, DeckError

RULESET = """
name: piles
players: {min: 2, max: 3, default: 2}
code: []
cards: [piles.cards]
zones:
  stock: {per: shared, ordered: true, visibility: hidden}
  market: {per: shared, ordered: true, visibility: public}
  reserve: {per: player, ordered: true, visibility: owner}
card_types:
  good:
    attributes:
      pile: {type: int, default: 2, min: 0}
      label_text: {type: text, default: ""}
  token_good:
    token: true
    attributes: {}
turn:
  phases:
    - {name: only, do: "tie \\"nothing to play\\""}
decks:
  zone: stock
  default: [table.yaml]
  made:
    - {zone: market, copies: pile}
    - {zone: reserve, types: [good], copies: 1}
end:
  - {when: "false", draw: never}
"""

CARDS = """
card "Grain": good { pile = 3 }
card "Salt": good { }
card "Gem": good { pile = 0 }
card "Ghost": token_good { }
"""


def _write(tmp_path: Path, ruleset: str = RULESET, deck: str = "name: Table\ncards: {Grain: 2, Salt: 1}\n") -> Path:
    (tmp_path / "piles.yaml").write_text(ruleset, encoding="utf-8")
    (tmp_path / "piles.cards").write_text(CARDS, encoding="utf-8")
    (tmp_path / "table.yaml").write_text(deck, encoding="utf-8")
    return tmp_path / "piles.yaml"


def _zone(game, name: str, seat: int = 0) -> list[str]:
    return [c.defn.name for key, cards in game.state.zones.items() if key[0] == name and key[1] == seat for c in cards]


def test_a_deck_for_the_table_goes_to_the_shared_zone_owned_by_nobody(tmp_path):
    rules = load(_write(tmp_path))
    game = rules.empty_game(seed=1)
    assert _zone(game, "stock") == ["Grain", "Grain", "Salt"]
    assert all(game.read(c, "owner") is None for key, cards in game.state.zones.items() if key[0] == "stock" for c in cards)
    assert rules.deck_count == 1
    with pytest.raises(DeckError, match="needs one deck, for the table, got 2"):
        rules.empty_game(seed=1, decks=[{"Grain": 1}, {"Salt": 1}])


def test_made_zones_take_each_card_its_copies_times_in_card_set_order(tmp_path):
    game = load(_write(tmp_path), {"players": 3}).empty_game(seed=1)
    assert _zone(game, "market") == ["Grain", "Grain", "Grain", "Salt", "Salt"]  # Gem: 0 copies, Ghost: a token
    for seat in (1, 2, 3):
        assert _zone(game, "reserve", seat) == ["Grain", "Salt", "Gem"]
        owners = {game.read(c, "owner").seat for key, cards in game.state.zones.items()
                  if key == ("reserve", seat, "") for c in cards}
        assert owners == {seat}


def test_harvest_supply_follows_the_player_count():
    for players, copper, estate, curse in ((2, 46, 8, 10), (4, 32, 12, 30)):
        game = load("rulesets/harvest/harvest.yaml", {"players": players}).new_game(seed=2)
        assert len(_zone(game, "supply")) == 15  # one card on show per pile
        left = {c.defn.name: game.read(c, "left") for c in game.state.zones[("supply", 0, "")]}
        assert (left["Copper"], left["Estate"], left["Province"], left["Curse"]) == (copper, estate, estate, curse)
        assert left["Forge"] == 10


@pytest.mark.parametrize("old, new, message", [
    ("- {zone: market, copies: pile}", "- {zone: markt, copies: pile}", "fills zone 'markt', which is not declared"),
    ("types: [good]", "types: [goods]", "unknown card type 'goods'"),
    ("copies: pile}", "copies: label_text}", "'label_text', which is not a whole-number attribute"),
    ("copies: pile}", "copies: piles}", "did you mean 'pile'"),
])
def test_a_wrong_made_zone_is_a_located_load_error(tmp_path, old, new, message):
    path = _write(tmp_path, RULESET.replace(old, new))
    with pytest.raises(CardrulesError) as err:
        load(path)
    assert message in str(err.value) and "piles.yaml:" in str(err.value)
