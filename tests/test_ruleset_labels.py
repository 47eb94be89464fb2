"""Issue 35.10: the shipped rulesets' option labels and log lines say what their numbers are (a
Bases base reads "Briarwall Hollow (surrounding base, resistance 6, damage 0)", not "(surrounding,
6 - 0)"; a Lanes building "(building, health 5)"), and a destroyed base in the discard shows no
damage. The games are random walks from fixed seeds, so the named cards and numbers are exact."""

from __future__ import annotations

import contextlib
import io
import random
from collections.abc import Iterator
from functools import cache

import pytest

from interpreter import load
from interpreter.cli.main import main
from interpreter.presentation import card_text


def walk(rules, seed: int) -> Iterator[tuple[object, list]]:
    """Every decision of a game played by `random.Random(seed)`: (game, options), before choosing."""
    game = rules.new_game(seed=seed)
    agent = random.Random(seed)
    while not game.is_over:
        _seat, options = game.decision()
        yield game, options
        game.apply(agent.randrange(len(options)))


def card_views(game) -> dict[int, dict]:
    """Every public card of the game as its observation shows it, by id."""
    views: dict[int, dict] = {}
    for zones in game.observation(1)["zones"].values():
        for cards in zones.values():
            rows = cards.values() if isinstance(cards, dict) and "count" not in cards else [cards]
            for row in rows:
                for card in row if isinstance(row, list) else row.get("known", []):
                    views[card["id"]] = card
    return views


def offered(rules, seed: int, card_type: str) -> list[tuple[str, dict]]:
    """(label, card view) of every option that is a card of `card_type`, over the whole game."""
    seen = []
    for game, options in walk(rules, seed):
        cards = [o for o in options if hasattr(o.value, "defn") and o.value.defn.type == card_type]
        if cards:
            views = card_views(game)
            seen += [(o.label, views[o.value.id]) for o in cards]
    return seen


@pytest.fixture(scope="module")
def bases():
    return load("bases")


def test_a_bases_base_option_says_what_its_numbers_are(bases):
    seen = offered(bases, 3, "base")
    labels = [label for label, _view in seen]
    assert "Briarwall Hollow (surrounding base, resistance 6, damage 0)" in labels
    assert "Emberforge Citadel (centre base, resistance 8, damage 5)" in labels
    assert "Elderroot Sanctum (centre base, resistance 11, damage 0)" in labels
    for label, view in seen:  # the numbers are the card's resistance and damage as they are then
        assert label == f"{view['name']} ({view['role']} base, resistance {view['resistance']}, " \
                        f"damage {view['damage']})"


def test_a_lanes_building_option_says_its_health():
    seen = offered(load("lanes"), 3, "building")
    assert "Mana Spring (building, health 3)" in [label for label, _view in seen]
    assert all(label == f"{view['name']} (building, health {view['health']})" for label, view in seen)


def test_a_destroyed_base_shows_no_damage_in_the_discard(bases):
    game = bases.new_game(seed=1)
    base = next(c for c in card_views(game).values() if c["type"] == "base" and c["role"] == "surrounding")
    hit = {**base, "damage": 6}
    assert card_text(hit, bases, "discard") == \
        f"{base['name']} (colour {base['colour']}, role surrounding, resistance {base['resistance']})"
    assert card_text(hit, bases, "territory").endswith(f"resistance {base['resistance']}, damage 6)")


@cache
def printed(game: str, players: str, seed: int) -> list[str]:
    """What `cardrules play GAME --seed SEED --players PLAYERS` prints, line by line."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["play", game, "--seed", str(seed), "--players", players]) == 0
    return out.getvalue().splitlines()


@pytest.mark.parametrize(("game", "players", "line"), [
    ("bases", "random,random", "P2 puts 4 cards back under the deck and draws 4"),
    ("bases", "random,random", "P1 chooses: Briarwall Hollow (surrounding base, resistance 6, damage 0)"),
    ("lanes", "random,random", "P2's keep takes 2 damage and moves to slot 3 of 7 in their hand"),
    ("lanes", "random,random", "P1 chooses: Sanctum Bell (building, health 5)"),
    ("initiative", "random,random", "P2 resolves the top zone of Summon Monster"),
])
def test_the_log_says_what_its_numbers_are(game: str, players: str, line: str):
    assert line in printed(game, players, 3)

