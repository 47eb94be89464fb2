"""Determinization (`Game.determinize`) in random games of every shipped ruleset: the copy shows
its player exactly what the true game shows, offers the same options, keeps every card (each
hidden card among the places of the hidden cards of its kin: one origin, see `kinship`), plays on
to an end, and does not depend on where the hidden cards truly are (tests/test_no_peek.py checks
that against twins of the true game)."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from playout import zone_consistency

from interpreter import load
from interpreter.engine.determinize import hidden_from, kinship
from interpreter.lang.values import ABSENT, KNOWN

GAMES = ("initiative", "lanes", "bases", "hearts", "harvest", "spades", "expedition")
RULES = {name: load(name) for name in GAMES}


def _options(game):
    return [(o.id, o.label) for o in game.decision()[1]]


def _hidden_places(game, seat):
    """{kin: sorted places} of the cards hidden from `seat` (a place: zone key, index)."""
    places: dict = {}
    for key, cards in game.state.zones.items():
        for index, card in enumerate(cards):
            if not game.visible(card, seat):
                places.setdefault(kinship(game.state, card), []).append((key, index))
    return places


def _check_copy(game, copy, viewer: int) -> None:
    assert json.dumps(copy.observation(viewer), sort_keys=True) == json.dumps(game.observation(viewer), sort_keys=True)
    if game.decision()[0] == viewer:
        assert _options(copy) == _options(game)
    # the same cards, the same zone sizes, each card in one zone
    zone_consistency(copy)
    assert Counter(c.id for cards in copy.state.zones.values() for c in cards) == Counter(
        c.id for cards in game.state.zones.values() for c in cards)
    assert {k: len(v) for k, v in copy.state.zones.items()} == {k: len(v) for k, v in game.state.zones.items()}
    # visible cards stay; hidden ones move only among the places of hidden cards of their kin
    for key, cards in game.state.zones.items():
        for index, card in enumerate(cards):
            if game.visible(card, viewer):
                assert copy.state.zones[key][index] is card
    assert _hidden_places(copy, viewer) == _hidden_places(game, viewer)
    assert {c.id for c in hidden_from(copy.state, viewer)} == {c.id for c in hidden_from(game.state, viewer)}
    for _seat, places in _hidden_places(game, viewer).items():
        assert Counter(game.state.zones[k][i].id for k, i in places) == Counter(copy.state.zones[k][i].id for k, i in places)
    assert copy.state.log_entries == [] and not copy.state.logging


def _determinizations(game, seed: int):
    """Plays `game`, new, at random from `seed`, with copies drawn for the player to decide and
    for the next player at random decisions: yields (viewer, copy) for each, before the decider's copy
    is, now and then, played out to its end (a copy is a game that goes on; another player's
    copy keeps the decision pending as it was asked, see engine/determinize.py)."""
    rng = random.Random(seed)
    while not game.is_over:
        if rng.random() < 0.15:
            seat = game.decision()[0]
            for viewer in (seat, seat % game.rules.player_count + 1):
                copy = game.determinize(viewer, random.Random(rng.random()))
                yield viewer, copy
                if viewer == seat and rng.random() < 0.1:
                    copy.play_out(lambda g: rng.randrange(len(g.pending)), fast=True)
                    assert copy.is_over
        game.apply(rng.randrange(len(game.decision()[1])))


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1))
def test_determinized_copies_agree_with_what_the_player_sees(name, seed):
    game = RULES[name].new_game(seed=seed, log=False)
    checked = 0
    for viewer, copy in _determinizations(game, seed):
        _check_copy(game, copy, viewer)
        checked += 1
    assert checked > 0 or game.state.answered < 10


def _state(game) -> str:
    return json.dumps(game.to_json(), sort_keys=True)


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1), steps=st.integers(0, 120))
def test_where_hidden_cards_truly_are_does_not_change_the_copy(name, seed, steps):
    """A game and another that differs only in what is hidden from the viewer (a determinized
    copy of it) give the very same copy for the same generator."""
    rules = RULES[name]
    rng = random.Random(seed)
    game = rules.new_game(seed=seed, log=False)
    for _ in range(steps):
        if game.is_over:
            return
        game.apply(rng.randrange(len(game.decision()[1])))
    if game.is_over:
        return
    viewer = game.decision()[0]
    for k in range(1, 21):  # (a copy that happens to put every hidden card back where it was shows nothing)
        other = game.determinize(viewer, random.Random(seed + k))
        moved = sum(a is not b for key in game.state.zones for a, b in zip(game.state.zones[key], other.state.zones[key]))
        if moved:
            break
    assert _state(game.determinize(viewer, random.Random(7))) == _state(other.determinize(viewer, random.Random(7)))
    assert moved > 0 or len(hidden_from(game.state, viewer)) < 2 or len(set(c.defn.name for c in hidden_from(game.state, viewer))) < 2


def test_a_hidden_pick_of_the_other_player_is_drawn_anew():
    """Initiative: P1 picks two hand cards hidden from P2; in P2's copies the pick is two cards
    of P1's (redrawn) hand, and differs between copies."""
    rules = RULES["initiative"]
    game = rules.new_game(seed=4, log=False)
    assert game.decision()[0] == 1
    game.apply(0)
    assert game.decision()[0] == 2
    true_pick = game.read(game.players[0], "selection")
    picks = set()
    for s in range(20):
        copy = game.determinize(2, random.Random(s))
        pick = copy.read(copy.players[0], "selection")
        hand = copy.state.zones[("hand", 1, "")]
        assert len(pick) == len(true_pick) == 2 and all(c in hand for c in pick)
        assert [hand.index(c) for c in pick] == [game.state.zones[("hand", 1, "")].index(c) for c in true_pick]
        picks.add(tuple(sorted(c.defn.name for c in pick)))
    assert len(picks) > 1
    # P1's own copies keep their pick as it is: they see it
    copy = game.determinize(1, random.Random(1))
    assert copy.read(copy.players[0], "selection") == true_pick


def test_the_true_generator_and_log_do_not_reach_the_copy():
    game = RULES["bases"].new_game(seed=11)
    for _ in range(12):
        game.apply(0)
    a = game.determinize(1, random.Random(3))
    b = game.determinize(1, random.Random(4))
    assert a.state.rng.getstate() != game.state.rng.getstate() and a.state.rng.getstate() != b.state.rng.getstate()
    assert a.state.log_entries == [] and game.state.log_entries
    # and the true game is untouched
    assert _state(game) == _state(game.clone())


def test_cards_every_player_saw_a_player_take_stay_that_players():
    """Lanes: the draft is public (L-6.1), so the other player's hand holds the cards they
    drafted, in some order: in a copy it holds the same cards, not cards of the draft pile those
    came from. Hearts: cards dealt face down from the stock mix across the other hands."""
    game = RULES["lanes"].new_game(seed=2, log=False)
    rng = random.Random(2)
    while game.state.zones[("draft_row", 0, "")] or game.state.zones[("picks", 1, "")]:
        game.apply(rng.randrange(len(game.decision()[1])))
    viewer = game.decision()[0]
    other = viewer % 2 + 1
    hand = sorted(c.defn.name for c in game.state.zones[("hand", other, "")])
    for k in range(5):
        copy = game.determinize(viewer, random.Random(k))
        assert sorted(c.defn.name for c in copy.state.zones[("hand", other, "")]) == hand
    game = RULES["hearts"].new_game(seed=2, log=False)
    viewer = game.decision()[0]
    others = [("hand", s, "") for s in range(1, 5) if s != viewer]
    copy = game.determinize(viewer, random.Random(1))
    assert all({c.id for c in copy.state.zones[k]} != {c.id for c in game.state.zones[k]} for k in others)


def test_references_are_found_in_lists_and_plain_attributes_are_skipped():
    """`_references` skips a card whose attributes hold only numbers, text and players (most
    cards), and still finds a card referred to from a list in another card's attributes."""
    from interpreter.engine.determinize import _references

    game = RULES["bases"].new_game(seed=3, log=False)
    rng = random.Random(1)
    for _ in range(25):
        game.apply(rng.randrange(len(game.decision()[1])))
    holder, target, plain = [cid for cid, row in enumerate(game.state.attrs) if row][:3]
    targets = game.rules.attr_slots["targets"]
    slots = game.rules.attr_slots  # (only slots declared to hold cards, abilities or lists are followed)
    assert {slots["targets"], slots["attacking"]} <= set(game.rules.reference_slots)
    assert slots["cost"] not in game.rules.reference_slots
    game.state.attrs[holder][targets] = ["red", [game.state.cards[target]]]
    game.state.attrs[plain] = [ABSENT if type(v) is list else v for v in game.state.attrs[plain]]
    _pinned, referenced, holders = _references(game.state)
    assert holder in holders and target in referenced
    assert plain not in holders
    game.state.attrs[holder][targets] = ["red", "blue"]  # (a list of text only refers to no card)
    assert holder not in _references(game.state)[2]


def _references_by_walking_everything(state):
    """`_references`' holders and referenced cards worked out plainly: every value of every row."""
    from interpreter.engine.determinize import _Walk

    holders, referenced = set(), set()
    walk = _Walk(set(), referenced)
    for cid, row in enumerate(state.attrs):
        before = walk.found
        walk(row)
        if walk.found != before:
            holders.add(cid)
    return holders, referenced


@pytest.mark.parametrize("name", GAMES)
def test_the_rows_followed_for_references_are_all_that_hold_them(name):
    """Determinization looks for card references only in the slots that may hold them (and, where
    a card's attachment is the only such slot, only in the rows of attached cards): at positions
    of random games, it finds every card a row refers to, as a walk of every value of every row
    does (Initiative's attached cards among them)."""
    from interpreter.engine.determinize import _references

    rules = RULES[name]
    attached_seen = 0
    for seed in range(5):
        game = rules.new_game(seed=seed, log=False)
        rng = random.Random(seed)
        for _ in range(40):
            if game.is_over:
                break
            _pinned, referenced, holders = _references(game.state)
            all_holders, all_referenced = _references_by_walking_everything(game.state)
            assert holders == all_holders and all_referenced <= referenced
            attached_seen += len(game.state.attached_ids)
            game.apply(rng.randrange(len(game.decision()[1])))
    if name == "initiative":
        assert attached_seen  # (the attached-only way was taken, with cards attached)


@pytest.mark.parametrize("name", GAMES)
def test_hidden_places_are_runs_of_one_kin_each(name):
    """`_hidden_places` (which works run by run) finds every card a player may not see, once, at
    its place, in the group of its kin (or of the zone it was seen go into)."""
    from interpreter.engine.determinize import _hidden_places
    from interpreter.lang.values import KNOWN

    rules = RULES[name]
    rng = random.Random(5)
    for seed in range(3):
        game = rules.new_game(seed=seed, log=False)
        for _ in range(40):
            if game.is_over:
                break
            state = game.state
            for seat in range(1, rules.player_count + 1):
                found = []
                for kin, runs in _hidden_places(state, seat, set()).items():
                    for key, start, run in runs:
                        assert state.zones[key][start:start + len(run)] == run
                        for card in run:
                            known = state.attrs[card.id][KNOWN] >> seat & 1
                            assert kin == (("known", key) if known else kinship(state, card))
                            found.append(card.id)
                hidden = [c.id for cards in state.zones.values() for c in cards if not game.visible(c, seat)]
                assert sorted(found) == sorted(hidden)
            game.apply(rng.randrange(len(game.decision()[1])))


def test_groups_are_shuffled_as_random_shuffle_would():
    """determinize's own Fisher-Yates (no call per card) draws as `random.Random.shuffle` does: the
    copies stay the same for the same generator whichever of the two a version uses."""
    from interpreter.engine.determinize import _shuffle

    for seed in range(20):
        for n in (0, 1, 2, 3, 13, 40, 52, 60):
            ours, theirs = random.Random(seed), random.Random(seed)
            cards, expected = list(range(n)), list(range(n))
            _shuffle(cards, ours.getrandbits)
            theirs.shuffle(expected)
            assert cards == expected and ours.getstate() == theirs.getstate()


@pytest.mark.parametrize("name", GAMES)
def test_copies_of_one_decision_share_its_plan_and_equal_those_made_without_it(name):
    """A search determinizes one decision many times: the hidden places are worked out once per
    decision and seat (`_plan_of`), and every copy is the very copy a game without that plan
    makes (a clone: it starts without caches), at each decision of a random game."""
    rng = random.Random(5)
    game = RULES[name].new_game(seed=5, log=False)
    for checked in range(12):
        if game.is_over:
            break
        seat = game.decision()[0]
        game.determinize(seat, random.Random(checked))
        plan = game.state._determinize_plans[seat]
        again = game.determinize(seat, random.Random(100 + checked))
        assert game.state._determinize_plans[seat] is plan
        assert _state(again) == _state(game.clone().determinize(seat, random.Random(100 + checked)))
        for _ in range(rng.randrange(1, 6)):
            if not game.is_over:
                game.apply(rng.randrange(len(game.decision()[1])))


def test_rule_code_run_at_a_decision_makes_a_new_plan():
    """Expedition: a card of another hand that a procedure run at the decision reveals (`perform`,
    E-3.3: a signal is shown to everyone; no card moves) stays where it is in every copy made after."""
    game = RULES["expedition"].new_game(seed=3, log=False)
    for _ in range(3):
        game.apply(0)
    seat = game.decision()[0]
    other = next(p for p in game.players if p.seat != seat)
    hand = ("hand", other.seat, "")
    card = game.state.zones[hand][0]
    assert not all(game.determinize(seat, random.Random(k)).state.zones[hand][0] is card for k in range(8))
    game.perform("give_signal", p=other, c=card)
    assert game.decision()[0] == seat and game.visible(card, seat)
    assert all(game.determinize(seat, random.Random(k)).state.zones[hand][0] is card for k in range(8))


def test_a_modifier_on_a_card_the_player_saw_go_into_a_hidden_zone_stays_on_that_card():
    """Lanes, seed 2090 (found by the test above): Iron Tonic gave Quill Pikeman +3 attack until
    the turn ends, and the Pikeman, destroyed, went back to its owner's hand, where the other
    player knows it is (`KNOWN`). Their copy must keep the modifier on the Pikeman, whose attack
    they see as 5, rather than move it to the card dealt at the Pikeman's place in the hand."""
    game = RULES["lanes"].new_game(seed=2090, log=False)
    checked = 0
    for viewer, copy in _determinizations(game, 2090):
        modified = [m[0].id for m in game.state.temp_mods if not game.visible(m[0], viewer)
                    and game.state.attrs[m[0].id][KNOWN] & 1 << viewer]
        assert [m[0].id for m in copy.state.temp_mods if m[0].id in modified] == modified
        checked += len(modified)
        assert json.dumps(copy.observation(viewer), sort_keys=True) == json.dumps(
            game.observation(viewer), sort_keys=True)
    assert checked > 0
