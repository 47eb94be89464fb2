"""What a player saw go into a hidden zone they still know (issue 30): a card passed from one's
hand to another's, or returned from the table to a hand, is `KNOWN` to those who saw it go, shown
in their observation (`known`) and kept where it is by their determinization, until the zone is
shuffled or the card moves out of their view. The determinization and search of every shipped
game stay independent of everything else hidden (tests/test_no_peek.py, whose twins swap only
cards the decider does not know)."""

from __future__ import annotations

import random

from toyrules import TOY_DIR, empty_game

from interpreter import load, load_game_json
from interpreter.engine.determinize import hidden_from
from interpreter.lang.values import KNOWN, ZoneKey

HAND1, HAND2, PILE2, POOL = ZoneKey("hand", 1), ZoneKey("hand", 2), ZoneKey("pile", 2), ZoneKey("pool")


def _toy_game():
    game = empty_game(load(TOY_DIR / "toy.yaml"))
    cards = [game.state.new_card(game.rules.card_defs["Plain"], HAND1, game.players[0]) for _ in range(3)]
    return game, cards


def _known(game, card) -> int:
    return game.state.attrs[card.id][KNOWN]


def test_a_card_passed_from_a_hand_is_known_to_the_passer_only():
    game, (a, b, _c) = _toy_game()
    game.state.move(a, HAND2, None)
    assert _known(game, a) == 1 << 1  # P1 saw it go; P2 sees it anyway
    assert _known(game, b) == 0
    shown = game.observation(1)["zones"]["P2"]["hand"]
    assert shown["count"] == 1
    assert [(k["id"], k["name"]) for k in shown["known"]] == [(a.id, "Plain")]
    assert a in hidden_from(game.state, 1)
    for name in ("Plain", "Big", "Big"):  # P2 draws one of their pile, unseen by P1
        game.state.new_card(game.rules.card_defs[name], PILE2, game.players[1])
    game.state.move(game.state.zones[PILE2][0], HAND2, None)
    copies = [game.determinize(1, random.Random(k)) for k in range(10)]
    assert all(c.state.zones[HAND2][0] == a for c in copies)  # P1 knows it is there
    assert {c.state.zones[HAND2][1].defn.name for c in copies} == {"Plain", "Big"}  # not the drawn card
    assert "known" not in game.observation(2)["zones"]["P1"]["hand"]


def test_a_card_from_the_table_to_a_hand_is_known_to_everyone_else():
    game, (a, _b, _c) = _toy_game()
    game.state.move(a, POOL, None)
    assert _known(game, a) == 0  # a public zone: seen, not remembered
    game.state.move(a, HAND2, None)
    assert _known(game, a) == 1 << 1


def test_a_known_card_moved_out_of_view_is_forgotten_and_a_shuffle_forgets():
    game, (a, b, _c) = _toy_game()
    game.state.move(a, HAND2, None)
    game.state.move(a, PILE2, None)  # P2 moves it from their hand to their pile: P1 did not see which
    assert _known(game, a) == 1 << 2
    game.state.move(b, HAND2, None)
    game.state.reveal(b)
    game.state.move(b, PILE2, None)  # shown to all, then put away: both know where it went
    assert _known(game, b) == (1 << 1) | (1 << 2)
    game.state.shuffle(PILE2)
    assert _known(game, a) == _known(game, b) == 0


def test_a_move_to_a_public_zone_drops_what_was_known():
    game, (a, _b, _c) = _toy_game()
    game.state.move(a, HAND2, None)
    game.state.move(a, POOL, None)
    assert game.state.attrs[a.id][KNOWN] == 0


def _after_passing(seed: int):
    """A Hearts game just after the passes, and {passer: (receiver, cards passed)}."""
    game = load("hearts").new_game(seed=seed)
    rng = random.Random(seed)
    while not any(e[0] == "event" and e[1] == "dealt" for e in game.state.log_entries):
        game.apply(rng.randrange(len(game.decision()[1])))
    passes = {e[2]["player"].seat: (e[2]["to"].seat, e[2]["cards"]) for e in game.state.log_entries
              if e[0] == "event" and e[1] == "passed"}
    return game, passes


def test_hearts_a_passer_knows_the_cards_they_passed_and_the_others_do_not():
    """The cards P1 passed stay in the receiver's hand in every copy P1's search draws (among the
    places of the cards P1 passed there), and P1's observation lists them; a third player did not
    see them and their copies deal them anew (before, P1's copies dealt them anew too: 0 of 20
    copies kept them in that hand)."""
    game, passes = _after_passing(seed=5)
    receiver, passed = passes[1]
    third = next(s for s in (2, 3, 4) if s != receiver and passes[s][0] != 1)
    hand = ZoneKey("hand", receiver)
    still = [c for c in passed if c in game.state.zones[hand]]
    assert len(still) >= 2
    shown = game.observation(1)["zones"][f"P{receiver}"]["hand"]["known"]
    assert sorted(k["id"] for k in shown) == sorted(c.id for c in still)
    moved_for_third = 0
    for k in range(20):
        mine = game.determinize(1, random.Random(k))
        assert sorted(mine.state.zones[hand].index(c) for c in still) == sorted(game.state.zones[hand].index(c) for c in still)
        theirs = game.determinize(third, random.Random(k))
        moved_for_third += any(theirs.state.zones[hand].index(c) != game.state.zones[hand].index(c)
                               if c in theirs.state.zones[hand] else True for c in still)
    assert moved_for_third >= 15
    # a saved game remembers it
    assert load_game_json(game.to_json()).observation(1) == game.observation(1)
