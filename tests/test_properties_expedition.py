"""Random Expedition games (docs/games/expedition.md; hypothesis-chosen seeds) with every generic
invariant (tests/helpers/playout.py) and Expedition's own checked after every decision, for
three, four and five players and missions of 2, 5 and 10 tasks."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from playout import examples, played_out_log, playout, replay_log

from interpreter import load

VARIANTS = [load("expedition"), load("expedition", {"players": 3, "mission": 5}),
            load("expedition", {"players": 5, "mission": 10})]
COLOURS = "RYGB"


def _zone(game, name: str, seat: int = 0) -> list:
    return game.state.zones[(name, seat, "")]


def _names(cards) -> list[str]:
    return [c.name for c in cards]


def _target(game, task) -> str:
    return game.read(task, "suit") + str(game.read(task, "rank"))


def _tasks(game, zone: str) -> list:
    return [t for p in game.players for t in _zone(game, zone, p.seat)]


def expedition_invariants(game) -> None:
    n = len(game.players)
    mission = game.rules.options["mission"]
    # E-1.2: 40 playing cards and 36 task cards, each once (zone consistency is a generic check)
    assert len(game.state.cards) == 76
    # E-1.3: F1 is out of a game of three, and only then
    assert _names(_zone(game, "box")) == (["F1"] if n == 3 else [])
    hands = [_zone(game, "hand", p.seat) for p in game.players]
    trick = _zone(game, "trick")
    assert len(trick) < n
    assert max(map(len, hands)) - min(map(len, hands)) <= 1
    # E-4.3: a won pile is whole tricks
    assert all(len(_zone(game, "won", p.seat)) % n == 0 for p in game.players)
    # E-4.2: the suit led is the first card's
    if trick:
        assert game.state.globals["led"] == game.read(trick[0], "suit")
    # E-2.1, E-2.2: the mission's tasks are in the offer, open or met; the rest in the pile
    open_, met = _tasks(game, "tasks"), _tasks(game, "done")
    assert len(open_) + len(met) + len(_zone(game, "offer")) == mission
    assert len(_zone(game, "pile")) == 36 - mission
    # E-2.3: the crew's completed counts the tasks met; each was won by its holder
    assert game.state.team_attrs[0]["completed"] == len(met)
    for p in game.players:
        won = set(_names(_zone(game, "won", p.seat)))
        assert all(_target(game, t) in won for t in _zone(game, "done", p.seat))
    # E-5.1: while the game goes on, no open task's card has been won
    if not game.is_over:
        taken = {c.name for p in game.players for c in _zone(game, "won", p.seat)}
        assert not any(_target(game, t) in taken for t in open_)
    # E-3.2, E-3.3: a claim goes with a signalled coloured card, shown to all while in the hand
    for p, hand in zip(game.players, hands):
        claim, card = game.read(p, "claim"), game.read(p, "signal")
        assert (claim is None) == (card is None)
        if card is not None:
            assert claim in ("only", "highest", "lowest") and game.read(card, "suit") in COLOURS
            assert (card.id in game.state.revealed) == (card in hand)


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1), agent_seed=st.integers(0, 2**31 - 1), variant=st.sampled_from([0, 1, 2]))
def test_random_games_keep_invariants_and_end(seed, agent_seed, variant):
    rules = VARIANTS[variant]
    game, choices = playout(rules, seed, agent_seed, expedition_invariants)
    result = game.result
    seats = tuple(p.seat for p in game.players)
    completed = game.state.team_attrs[0]["completed"]
    # E-1.1, E-5.3: one crew; every seat wins or every seat loses, never a draw; the score is the
    # crew's tasks met, for each seat
    assert result.teams == (seats,)
    assert not result.draw and result.winner is None
    assert result.scores == (completed,) * len(seats)
    if result.winners:                               # E-5.2: every task met
        assert result.winners == seats and result.losers == ()
        assert completed == rules.options["mission"] and not _tasks(game, "tasks")
        assert result.reason == "every task is met"
    else:                                            # E-5.1: a task failed
        assert result.losers == seats and completed < rules.options["mission"]
        assert result.reason == "a task failed"
    assert replay_log(rules, seed, choices) == game.log
    assert played_out_log(rules, seed, choices) == game.log == played_out_log(rules, seed, choices, fast=True)
