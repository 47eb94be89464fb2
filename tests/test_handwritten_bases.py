"""The hand-written Bases (benchmarks/handwritten_bases.py), the interpreter's speed baseline.

It must end every game, keep each player's cards (main deck and bases), and play the very same
games as the interpreted Bases with the same seed and the same random agent: the same seat and
number of options at every decision, the same winner, reason and turn count (else the games/s
ratio compares different work).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from baselines import load_baseline, play_checked

from interpreter import load

ROOT = Path(__file__).resolve().parents[1]
DECK_DIR = ROOT / "rulesets" / "bases" / "decks"




baseline = load_baseline("bases")


def test_baseline_ends_every_game_and_keeps_every_card():
    rng = random.Random(11)
    reasons = set()
    winners = set()
    for seed in range(150):
        game = baseline.Game(seed)
        owned = [len(main) + len(bases) for main, bases in baseline.DECKS]

        def check(game, seed=seed, owned=owned):
            for p, n in zip(game.players, owned):
                assert game.cards_of(p) == n, f"seed {seed}: P{p.seat} has {game.cards_of(p)} cards, not {n}"
                assert 0 <= p.resources <= 10 and p.max_resources <= 10
                for a in p.allies:           # (no ally changes side with these decks)
                    assert a.zone == baseline.PLAY and a.controller is p
                    assert a.damage < baseline.life(a), f"seed {seed}: {a} should have died"

        play_checked(game, rng, check, f"seed {seed}")
        for p, n in zip(game.players, owned):
            assert game.cards_of(p) == n
        assert 1 <= game.turn <= game.turn_limit
        loser = game.players[2 - game.winner]
        if game.reason == "Centre destroyed":
            assert any(c.centre for c in loser.discard)
        elif game.reason == "Centre taken":
            assert any(b.centre and b.controller is not loser for b in loser.territory)
        else:
            assert game.reason == "drew from an empty deck" and not loser.deck
        reasons.add(game.reason)
        winners.add(game.winner)
    assert winners == {1, 2}
    assert {"Centre destroyed", "Centre taken"} <= reasons   # (an empty deck: about 1 game in 1000)


def test_baseline_turn_limit_is_a_draw():
    rng = random.Random(3)
    game = baseline.Game(5, turn_limit=3)
    while not game.over:
        game.apply(rng.randrange(len(game.decision()[1])))
    assert (game.winner, game.reason, game.turn) == (None, "turn limit reached", 4)


def test_baseline_rejects_a_card_no_base_can_pay_for(tmp_path):
    deck = (DECK_DIR / "conflict-red-blue.yaml").read_text(encoding="utf-8")
    bad = tmp_path / "bad.yaml"
    bad.write_text(deck.replace('"Hush": 3', '"Hush": 2\n  "Thornsnap": 1'), encoding="utf-8")
    with pytest.raises(ValueError, match="Thornsnap"):
        baseline.load_deck(bad)


def _play_both(rules, seed: int, decks=None, hand_decks=None, labels: bool = False, turn_limit: int = 200):
    """Both versions with one random agent: the decisions (seat, option count) and the result,
    failing at the first decision where they part."""
    interpreted = rules.new_game(seed=seed, log=labels, decks=decks)
    handwritten = baseline.Game(seed, decks=hand_decks, turn_limit=turn_limit)
    rng = random.Random(seed)
    n = 0
    while not interpreted.is_over:
        assert not handwritten.over, f"seed {seed}: the hand-written game ended at decision {n}"
        seat, options = interpreted.decision()
        hand_seat, hand_options = handwritten.decision()
        assert (hand_seat, len(hand_options)) == (seat, len(options)), (
            f"seed {seed}, decision {n} ({options.prompt!r}): P{seat} with {len(options)} options "
            f"interpreted, P{hand_seat} with {len(hand_options)} by hand")
        if labels:
            assert [handwritten.label(o) for o in hand_options] == [o.label for o in options], (
                f"seed {seed}, decision {n} ({options.prompt!r})")
        index = rng.randrange(len(options))
        interpreted.apply(index)
        handwritten.apply(index)
        n += 1
    assert handwritten.over, f"seed {seed}: the interpreted game ended at decision {n}, not the hand-written one"
    result = interpreted.result
    assert (handwritten.winner, handwritten.reason, handwritten.turn) == (result.winner, result.reason, result.turns)
    return n


def test_baseline_plays_the_interpreters_games():
    rules = load("bases")
    decisions = [_play_both(rules, seed) for seed in range(60)]
    assert sum(decisions) > 60 * 100   # (real games, not ones that stop at once)


def test_baseline_offers_the_interpreters_options_in_order():
    rules = load("bases")
    for seed in range(100, 104):
        _play_both(rules, seed, labels=True)


@pytest.mark.parametrize("format, files", [
    ("conflict", ("conflict-blue-green.yaml", "conflict-red-blue.yaml")),       # Mind Lure, Verdant Tide
    ("skirmish", ("skirmish-red-green.yaml", "skirmish-blue-white.yaml")),      # Watchfire, Cinderstorm
    ("skirmish", ("skirmish-red-white.yaml", "skirmish-blue-white.yaml")),      # Elders' Counsel, Marshal
])
def test_baseline_plays_the_interpreters_games_with_other_decks(format, files):
    rules = load("bases", {"format": format})
    decks = [str(DECK_DIR / f) for f in files]
    hand_decks = [baseline.load_deck(f, format) for f in files]
    for seed in range(15):
        _play_both(rules, seed, decks, hand_decks, labels=seed < 2)


def test_baseline_turn_limit_matches_the_interpreter():
    rules = load("bases", {"turn_limit": 7})
    for seed in range(10):
        _play_both(rules, seed, turn_limit=7)


def test_games_per_second_is_positive():
    assert baseline.games_per_second(0.05) > 0
