"""Random Bases games (both formats) with invariants after every decision."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from playout import cards_of, examples, played_out_log, playout, replay_log

from interpreter import load

FORMATS = {name: load("bases", options={"format": name}) for name in ("conflict", "skirmish")}
DECLARATIONS = {"attacks", "blocks", "influences", "guards"}


class BasesInvariants:
    """Checks a game after every decision; remembers which allies were tapped the time before."""

    def __init__(self, rules) -> None:
        self.sizes = None
        self.tapped: dict[int, bool] = {}
        self.seen_events = 0

    def __call__(self, game) -> None:
        if self.sizes is None:  # cards per player at the start: main deck and bases
            self.sizes = [len(cards_of(game, p.seat)) for p in game.players]
        for player in game.players:
            # no card lost or duplicated: every card a player owns is still somewhere
            assert len(cards_of(game, player.seat)) == self.sizes[player.seat - 1]
            assert 0 <= game.read(player, "resources") <= 10
            assert 0 <= game.read(player, "max_resources") <= 10
        for key, cards in game.state.zones.items():
            if key[0] == "play":
                for card in cards:
                    if card.defn.type == "ally":  # no ally at life <= 0 stays in play
                        assert game.read(card, "damage") < game.read(card, "life")
        # a tapped ally never attacks, blocks or influences: each declaration since the last
        # decision names an ally that was untapped then
        entries = game.state.log_entries
        for entry in entries[self.seen_events:]:
            if entry[0] == "event" and entry[1] in DECLARATIONS:
                card = entry[2]["card"]
                assert not self.tapped.get(card.id, False), f"{card!r} was tapped and {entry[1]}"
        self.seen_events = len(entries)
        self.tapped = {c.id: game.state.attrs[c.id][game.rules.attr_slots["tapped"]] is True for c in game.state.cards.values()
                       if c.defn.type == "ally"}


@pytest.mark.parametrize("format_name", sorted(FORMATS))
@settings(max_examples=examples(300, share=60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1), agent_seed=st.integers(0, 2**31 - 1))
def test_random_bases_games_keep_invariants_and_end(format_name, seed, agent_seed):
    rules = FORMATS[format_name]
    game, choices = playout(rules, seed, agent_seed, BasesInvariants(rules))
    assert game.result is not None
    assert game.result.turns <= rules.options["turn_limit"] + 1
    # the same seed and decisions give the same log ...
    assert replay_log(rules, seed, choices) == game.log
    # ... whether the rules stop at each decision (`apply`) or not (`play_out`, in either form)
    assert played_out_log(rules, seed, choices) == game.log == played_out_log(rules, seed, choices, fast=True)
