"""interpreter.presentation: distinct moves, what a card displays, the state summary.

The property test plays seeded random games of every shipped ruleset and, at each decision,
checks that the moves cover every option exactly once, that no two moves read the same, and
that the options merged into one move read alike (the same cards, in any order for a pick).
"""

from __future__ import annotations

import random
import re
import shutil
from pathlib import Path

import pytest
from playout import LONG

from interpreter import load
from interpreter.errors import CardrulesError
from interpreter.paths import rulesets_dir, shipped_rulesets
from interpreter.presentation import (
    card_display,
    card_text,
    changes,
    decision_title,
    distinct_moves,
    state_summary,
)

GAMES = 12 if LONG else 3  # seeded random games per ruleset
DECISIONS = 2000 if LONG else 150  # at most this many decisions of each


@pytest.fixture(scope="module")
def initiative():
    return load("initiative")


def _decisions(rules, seeds, limit=DECISIONS):
    """(game, seat, observation) at every decision with two options or more of seeded random games."""
    for seed in seeds:
        game = rules.new_game(seed=seed)
        rng = random.Random(seed)
        n = 0
        while not game.is_over and n < limit:
            seat, options = game.decision()
            if len(options) > 1:
                yield game, seat, game.observation(seat)
            game.apply(rng.randrange(len(options)))
            n += 1


def _parts(label: str) -> list[str]:
    return sorted(label.split(" + "))


@pytest.mark.parametrize("name", sorted(shipped_rulesets()))
def test_every_option_is_one_distinct_move(name):
    rules = load(name)
    decisions = merged = 0
    for _game, _seat, obs in _decisions(rules, range(GAMES)):
        options = obs["decision"]["options"]
        moves = distinct_moves(obs, rules)
        labels = [m.label for m in moves]
        assert len(set(labels)) == len(labels), f"{name}: two moves read the same: {labels}"
        covered = sorted(i for m in moves for i in m.options)
        assert covered == list(range(len(options))), f"{name}: options not covered once: {covered}"
        for move in moves:
            assert move.option == move.options[0] == min(move.options)
            # options taken as one move offer the same cards (a pick in any order)
            assert len({tuple(_parts(options[i]["label"])) for i in move.options}) == 1, (
                f"{name}: {[options[i]['label'] for i in move.options]} merged")
            # each card of a move is one the viewer sees in a zone
            assert all(card["id"] in _visible_ids(obs) for card in move.cards)
        decisions += 1
        merged += len(moves) < len(options)
    assert decisions > 50
    if rules.name in ("initiative", "bases"):  # where copies and unordered picks are offered
        assert merged > 0


def _visible_ids(obs) -> set[int]:
    ids = set()
    for zones in obs["zones"].values():
        for content in zones.values():
            cards = content.get("revealed", []) if isinstance(content, dict) else content
            ids |= {c["id"] for c in cards}
    return ids


def _first(rules, found, seeds=range(40)):
    for game, seat, obs in _decisions(rules, seeds, limit=400):
        if found(obs):
            return game, seat, obs
    raise AssertionError("no such decision in the seeded games")


def test_a_pick_in_either_order_is_one_move(initiative):
    def both_orders(obs):
        labels = [o["label"] for o in obs["decision"]["options"]]
        return "Stab + Muster Army" in labels and "Muster Army + Stab" in labels

    _game, _seat, obs = _first(initiative, both_orders)
    labels = [o["label"] for o in obs["decision"]["options"]]
    a, b = labels.index("Stab + Muster Army"), labels.index("Muster Army + Stab")
    moves = distinct_moves(obs, initiative)
    (move,) = [m for m in moves if a in m.options]
    first, second = sorted((a, b))  # the move reads as the first of its options
    assert b in move.options and move.option == first and move.label == labels[first]
    assert sorted(card["name"] for card in move.cards) == ["Muster Army", "Stab"]
    assert not any(m.label == labels[second] for m in moves)


def test_two_copies_are_one_move(initiative):
    def copies(obs):  # two options that read alike, Stab in both
        labels = [o["label"] for o in obs["decision"]["options"]]
        return any("Stab" in x and labels.count(x) > 1 for x in labels)

    _game, _seat, obs = _first(initiative, copies)
    labels = [o["label"] for o in obs["decision"]["options"]]
    twice = next(x for x in labels if "Stab" in x and labels.count(x) > 1)
    same = [i for i, x in enumerate(labels) if x == twice]
    moves = [m for m in distinct_moves(obs, initiative) if set(same) & set(m.options)]
    assert len(moves) == 1 and set(same) <= set(moves[0].options)


def test_an_ordered_choice_keeps_both_orders(initiative):
    def orders(obs):
        return obs["decision"]["prompt"] == "top zone first, then bottom zone" and len(
            {o["label"] for o in obs["decision"]["options"]}) == 2

    _game, _seat, obs = _first(initiative, orders)
    moves = distinct_moves(obs, initiative)
    assert [m.label for m in moves] == [o["label"] for o in obs["decision"]["options"]]


def test_copies_the_rules_tell_apart_say_where_they_are():
    rules = load("bases")

    def repeated(obs):  # the same label twice among the options, on cards in an ordered zone
        labels = [o["label"] for o in obs["decision"]["options"]]
        return any(labels.count(x) > 1 and " + " not in x for x in labels) and len(distinct_moves(obs, rules)) == len(
            labels)

    _game, _seat, obs = _first(rules, repeated, range(10))
    labels = [o["label"] for o in obs["decision"]["options"]]
    twice = next(x for x in labels if labels.count(x) > 1 and " + " not in x)
    moves = [m for m in distinct_moves(obs, rules) if m.label.startswith(twice)]
    assert len(moves) == labels.count(twice) and len({m.label for m in moves}) == len(moves)
    # each says its position in its zone, which is ordered in the ruleset
    for move in moves:
        assert re.search(r"\(play, position \d+", move.label) and "#" not in move.label, move.label
        (card,) = move.cards[:1]
        zone = next(k for zones in obs["zones"].values() for k, v in zones.items()
                    if isinstance(v, list) and card in v)
        assert rules.ruleset.zones[zone.split(".")[0]].ordered


def test_a_card_shows_what_its_type_displays_not_bookkeeping(initiative):
    game = initiative.new_game(seed=5)
    seat = game.decision()[0]
    hand = game.observation(seat)["zones"][f"P{seat}"]["hand"]
    assert hand and all("copies" in card and "charge" in card for card in hand)  # (the observation has them)
    for card in hand:
        shown = card_display(card, initiative)
        assert list(shown) == ["initiative"], shown
        assert card_text(card, initiative) == f"{card['name']} (initiative {card['initiative']})"
    # a counter off its rest, a flag set, a part taken: shown, in the declared order
    leech = {**hand[0], "charge": 2, "cancelled": True, "part": "top"}
    assert list(card_display(leech, initiative).items()) == [
        ("initiative", hand[0]["initiative"]), ("part", "top"), ("charge", 2), ("cancelled", True)]


def _initiative_copy(tmp_path: Path, edit) -> Path:
    """The Initiative ruleset copied into tmp_path (its code and decks beside it: a rule file names
    those in its own folder only) with its card folder made absolute, then edited."""
    home = rulesets_dir() / "initiative"
    shutil.copytree(home, tmp_path, dirs_exist_ok=True)
    text = (home / "initiative.yaml").read_text(encoding="utf-8")
    text = text.replace("cards: [../../cards/initiative]", f"cards: [{(home / '../../cards/initiative').resolve()}]")
    path = tmp_path / "initiative.yaml"
    path.write_text(edit(text), encoding="utf-8")
    return path


def test_without_display_a_card_shows_all_but_bookkeeping(tmp_path):
    path = _initiative_copy(tmp_path, lambda t: re.sub(r"\n    display: \[.*\].*", "", t))
    rules = load(path)
    assert rules.ruleset.card_types["action"].display is None
    card = {"id": 3, "name": "Stab", "type": "action", "initiative": 90, "copies": 10, "selectable_in_play": False,
            "named": "", "charge": 0, "resolved": True, "cancelled": False, "part": "top"}
    # the deck rules' copy limit, a counter at 0, empty text, false flags: left out
    assert card_display(card, rules) == {"initiative": 90, "resolved": True, "part": "top"}


def test_a_misspelt_display_name_is_a_located_error(tmp_path):
    path = _initiative_copy(tmp_path, lambda t: t.replace("display: [initiative, part,", "display: [initiatve, part,"))
    with pytest.raises(CardrulesError) as caught:
        load(path)
    text = str(caught.value)
    line = next(i for i, x in enumerate(path.read_text().splitlines(), start=1) if "initiatve" in x)
    assert f"{path}:{line}:" in text
    assert "display names 'initiatve'" in text and "did you mean 'initiative'" in text


def test_the_summary_lays_zones_out_by_their_declaration(initiative):
    game = initiative.new_game(seed=5)
    seat = game.decision()[0]
    other = 3 - seat
    summary = state_summary(game.observation(seat), initiative)
    zones = {(z["owner"], z["zone"]): z for z in summary["zones"]}
    their_hand, my_hand = zones[(f"P{other}", "hand")], zones[(f"P{seat}", "hand")]
    assert their_hand["hidden"] and their_hand["cards"] == [] and their_hand["count"] == len(
        game.observation(other)["zones"][f"P{other}"]["hand"])
    assert not my_hand["hidden"] and my_hand["layout"] == "pile" and len(my_hand["cards"]) == my_hand["count"]
    assert zones[(f"P{seat}", "field")]["layout"] == "row"  # ordered in the ruleset
    declared = list(initiative.ruleset.zones)
    order = [declared.index(z["zone"]) for z in summary["zones"]]
    assert order == sorted(order)
    assert [p["you"] for p in summary["players"]] == [s == seat for s in (1, 2)]


def test_changes_name_the_cards_that_moved(initiative):
    game = initiative.new_game(seed=5)
    seat, options = game.decision()
    before = state_summary(game.observation(seat), initiative)
    picked = options[0].value
    game.apply(0)
    while game.decision()[0] != seat:
        game.apply(0)
    after = state_summary(game.observation(seat), initiative)
    found = changes(before, after)
    assert {card.id for card in picked} <= found["cards"]
    assert (f"P{seat}", "hand") in found["zones"]
    assert changes(None, after) == {"cards": set(), "zones": set(), "players": set(), "globals": set()}
    assert changes(after, after) == {"cards": set(), "zones": set(), "players": set(), "globals": set()}


def test_a_decision_a_card_asks_names_the_card(initiative):
    _game, _seat, obs = _first(initiative, lambda o: o["decision"]["prompt"] == "one target")
    title = decision_title(obs, initiative)
    name, _, rest = title.partition(", ")
    assert name in initiative.card_defs and rest in ("top: one target", "bottom: one target"), title
    _game, _seat, obs = _first(initiative, lambda o: o["decision"]["prompt"] == "two cards to play")
    assert decision_title(obs, initiative) == "two cards to play"  # asked by the rules' own code


def test_a_hidden_card_displays_nothing(initiative):
    assert card_display({"card": "hidden"}, initiative) == {}
    assert card_text({"card": "hidden"}, initiative) == "(hidden card)"
