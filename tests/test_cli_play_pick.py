"""Issue 35.8 in the terminal: an unordered pick (the Bases mulligan, `choose up to 6`) lists the
six cards, not the 64 combinations (48 distinct moves); the person types the numbers of the
cards picked, in any order, and the game takes the one option whose value is that set. The
engine offers combinations for such a pick, never two orders of one set."""

from __future__ import annotations

import io
import json
import sys

import pytest

from interpreter import load
from interpreter.cli.main import main


@pytest.fixture(scope="module")
def bases():
    return load("bases")


def test_the_engine_offers_each_set_once_for_an_unordered_pick(bases):
    game = bases.new_game(seed=1)
    seat, options = game.decision()
    assert game.pending.prompt == "cards to put back (mulligan)"
    sets = [frozenset(o.id.split("+")) if o.id != "nothing" else frozenset() for o in options]
    assert len(options) == 64 and len(set(sets)) == 64  # every subset of 6 cards, each once: no orders


def hand_ids(game) -> list[int]:
    """The mulligan's cards, in the order the decision offers them (its one-card options)."""
    return [int(o.id[1:]) for o in game.pending if o.id != "nothing" and "+" not in o.id]


def test_the_pick_maps_a_set_in_any_order_to_its_option(bases):
    from interpreter.presentation import Pick, PickCard, pick_of

    game = bases.new_game(seed=1)
    seat, options = game.decision()
    pick = pick_of(game.observation(seat), bases)
    assert pick is not None and (pick.kind, pick.least, pick.most) == ("up_to", 0, 6)
    assert [c.label for c in pick.cards] == ["Spark Lash", "Cinderscale Raider 2/1 (copy 1)", "Pyre Warlord 4/4",
                                             "Cinderscale Raider 2/1 (copy 2)", "Warfire Brazier", "Unravel"]
    ids = [c.id for c in pick.cards]
    assert ids == hand_ids(game)
    assert options[pick.option_for([ids[2], ids[0]])].id == f"c{ids[0]}+c{ids[2]}"
    assert options[pick.option_for([])].id == "nothing"
    assert pick.option_for([*ids, 999]) is None
    exact = Pick("exactly", tuple(PickCard(i, str(i), {}) for i in (1, 2, 3)), {frozenset({1, 2}): 0}, 2, 2)
    assert exact.option_for([2, 1]) == 0 and exact.option_for([1]) is None
    assert exact.why_not([1]) == "pick exactly 2 cards: 1 picked"


def test_a_person_picks_the_mulligan_by_numbers(capsys, monkeypatch, bases, tmp_path):
    log = tmp_path / "game.jsonl"
    monkeypatch.setattr(sys, "stdin", io.StringIO("9\n1 1\n3 1\nq\n"))
    main(["play", "bases", "--seed", "1", "--players", "human,random", "--log", str(log)])
    out = capsys.readouterr().out
    listing = out[out.index("P1, cards to put back (mulligan) (pick up to 6 by number):"):].splitlines()
    assert listing[1:8] == ["  1) Spark Lash", "  2) Cinderscale Raider 2/1 (copy 1)", "  3) Pyre Warlord 4/4",
                            "  4) Cinderscale Raider 2/1 (copy 2)", "  5) Warfire Brazier", "  6) Unravel",
                            "pick by numbers from 1 to 6, e.g. 1 3, or nothing (? lists the cards, q quits): "
                            "9 is not a card in the list: type numbers from 1 to 6"]
    assert "card 1 is picked twice: type each number once" in out
    assert "Spark Lash + Cinderscale Raider 2/1" not in out  # (no combination is listed)
    first = next(e for e in map(json.loads, log.read_text().splitlines()) if e.get("type") == "decision")
    ids = hand_ids(bases.new_game(seed=1))
    assert first["player"] == 1 and first["option"] == f"c{ids[0]}+c{ids[2]}"
    assert first["label"] == "Spark Lash + Pyre Warlord 4/4"
