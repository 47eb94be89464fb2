"""A log of the events alone (`new_game(log="events")`, `play_out(log="events")`): the full log
without its decisions, in the same game, for every shipped game and both ways of playing; the
records of a batch (which read such a log) are those read from a full log; any other `log` value
is refused."""

from __future__ import annotations

import random

import pytest

from interpreter import load
from interpreter.agents import decider, make_agent
from interpreter.backends import BatchSpec, agent_seed, play_game
from interpreter.backends.records import RecordWatcher, game_record
from interpreter.paths import shipped_games

SHIPPED = [*shipped_games(), "lanes-classic"]  # (and the variant with Lanes' other rules)


def _random(seed: int):
    rng = random.Random(seed)
    return lambda g: rng.randrange(len(g.decision()[1]))


@pytest.mark.parametrize("name", SHIPPED)
def test_the_events_are_the_full_log_without_its_decisions(name):
    rules = load(name)
    for seed in (1, 2):
        full = rules.play_out(_random(seed), seed=seed, log=True).log
        events = rules.play_out(_random(seed), seed=seed, log="events").log
        assert any(e["type"] == "decision" for e in full) and full[-1]["type"] == "end"
        assert events == [e for e in full if e["type"] != "decision"]
        stepped = rules.new_game(seed=seed, log="events")
        stepped.play_out(_random(seed))
        assert stepped.log == events


@pytest.mark.parametrize("name", SHIPPED)
def test_a_record_from_the_events_is_the_record_from_the_full_log(name):
    rules = load(name)
    seed = 5
    agents = tuple("random" for _ in range(rules.player_count))
    record, _lines = play_game(BatchSpec.of(name, agents=agents, records=True), seed)
    watcher = RecordWatcher(rules, record["decks"])
    players = [make_agent(a, seed=agent_seed(seed, s)) for s, a in enumerate(agents, start=1)]
    game = rules.play_out(watcher.deciding(decider(players)), seed=seed, log=True, watcher=watcher)
    assert record == {**game_record(rules, game, watcher, seed, agents), "decks": record["decks"]}
    assert record["players"][0]["drawn"] or record["players"][0]["played"] or record["players"][0]["picked"]


@pytest.mark.parametrize("log", ["decisions", 1, None])
def test_any_other_log_is_refused(log):
    with pytest.raises(ValueError, match=r'log must be True, False or "events", not'):
        load("initiative").new_game(seed=1, log=log)
