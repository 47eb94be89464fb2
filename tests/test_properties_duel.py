"""Random games of the duel test ruleset (tests/data/duel: silence, effects tied to a card, effects
until removed, a dispel) with invariants after every decision: a silence and a tied effect last no
longer than their card stays in its zone, a silenced card has none of its printed keywords, and
copies, saved games and determinized copies keep silences and removable effects."""

from __future__ import annotations

import random
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from playout import examples, played_out_log, playout, replay_log

from interpreter import load, load_game_json
from interpreter.lang.values import LEAVING, SILENCED

RULES = load(Path(__file__).resolve().parent / "data" / "duel" / "duel.yaml")


def silenced_ids(game) -> list[int]:
    return sorted(cid for cid, d in enumerate(game.state.attrs) if d and d[SILENCED] is not None)


def effects(game) -> list[tuple]:
    """The temporary modifiers as (target id, attribute, amount, until as text, source id)."""
    def until(u):
        return u if isinstance(u, str) or u is None else ("leaves", u[1].id)
    return [(m[0].id, m[1], m[3], until(m[4]), m[6].id if m[6] is not None else None) for m in game.state.temp_mods]


def duel_invariants(game) -> None:
    for cid in silenced_ids(game):
        card = game.state.cards[cid]
        # a silence lasts while its card stays on the board (where Hush and Daze silence)
        assert game.state.card_zone[cid][0] == "board" and game.state.attrs[cid][LEAVING]
        assert not game.state.has_keyword(card, "taunt") and game.state.keywords_of(card) == ()
        assert game.state.activatable([card]) == []
        assert {"name": card.name, "silenced": True}.items() <= _viewed(game, card).items()
    for m in game.state.temp_mods:
        if m[4] is None:
            continue  # (until removed: a Blessing's)
        if not isinstance(m[4], str):  # a Banner's buff: while the Banner stays in the auras
            banner = m[4][1]
            assert game.state.card_zone[banner.id][0] == "auras" and game.state.attrs[banner.id][LEAVING]
            assert m[6] is banner
    # every cloned, saved and determinized game keeps the silences and the effects
    copy = game.clone()
    loaded = load_game_json(game.to_json(), RULES)
    for other in (copy, loaded):
        assert silenced_ids(other) == silenced_ids(game) and effects(other) == effects(game)
        assert other.observation(1) == game.observation(1)
    if not game.is_over:
        seat = game.decision()[0]
        det = game.determinize(seat, random.Random(7))
        assert silenced_ids(det) == silenced_ids(game) and effects(det) == effects(game)


def _viewed(game, card) -> dict:
    seat = game.state.card_zone[card.id][1]
    return next(c for c in game.observation(1)["zones"][f"P{seat}"]["board"] if c["id"] == card.id)


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1), agent_seed=st.integers(0, 2**31 - 1))
def test_random_duels_keep_invariants_and_end(seed, agent_seed):
    game, choices = playout(RULES, seed, agent_seed, duel_invariants)
    assert game.result is not None and game.result.turns <= 41
    assert replay_log(RULES, seed, choices) == game.log
    assert played_out_log(RULES, seed, choices) == game.log == played_out_log(RULES, seed, choices, fast=True)


def test_random_duels_silence_tie_and_remove_effects():
    """The random games above do reach what they check: silenced minions, Banner buffs tied to
    their Banner, Blessings until removed (seeds fixed, so this is exact)."""
    seen = {"silenced": 0, "tied": 0, "removed": 0}
    for seed in range(30):
        rng = random.Random(seed)
        game = RULES.new_game(seed=seed)
        while not game.is_over:
            game.apply(rng.randrange(len(game.decision()[1])))
            seen["silenced"] += bool(silenced_ids(game))
            seen["tied"] += any(type(m[4]) is tuple for m in game.state.temp_mods)
            seen["removed"] += any(m[4] is None for m in game.state.temp_mods)
    assert all(n > 0 for n in seen.values()), seen
