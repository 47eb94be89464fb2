"""Agents: seeded random determinism, their own generator, and only observations as input."""

from __future__ import annotations

import dataclasses
import io

import pytest

from interpreter import load
from interpreter.agents import (
    DecisionView,
    FirstAgent,
    HumanAgent,
    HumanQuit,
    RandomAgent,
    UnknownAgentError,
    make_agent,
    play_decision,
    render_observation,
    view_of,
)
from interpreter.engine.game import Game
from interpreter.engine.state import GameState

GAME = "initiative"


@pytest.fixture(scope="module")
def rules():
    return load(GAME)


def play(rules, agents, seed=3, limit=10_000):
    game = rules.new_game(seed=seed)
    n = 0
    while not game.is_over and n < limit:
        play_decision(game, agents)
        n += 1
    return game


def decisions(game):
    return [(e["player"], e["option"]) for e in game.log if e["type"] == "decision"]


def test_random_agent_is_deterministic_by_seed(rules):
    a = play(rules, [RandomAgent(11), RandomAgent(12)])
    b = play(rules, [RandomAgent(11), RandomAgent(12)])
    assert a.is_over and a.log == b.log
    c = play(rules, [RandomAgent(99), RandomAgent(98)])
    assert decisions(c) != decisions(a)


def test_random_agent_uses_its_own_generator(rules):
    game = rules.new_game(seed=4)
    agent = RandomAgent("x")
    assert agent.rng is not game.state.rng
    before = game.state.rng.getstate()
    view = view_of(game)
    for _ in range(20):
        assert 0 <= agent.act(view) < len(view.options)  # an index: no Option need be made
    assert game.state.rng.getstate() == before


def test_random_agent_is_roughly_uniform(rules):
    game = rules.new_game(seed=4)
    view = view_of(game)
    agent = RandomAgent(1)
    picks = {view.options[agent.act(view)].id for _ in range(50 * len(view.options))}
    assert picks == {o.id for o in view.options}


def test_first_agent_takes_option_zero(rules):
    game = rules.new_game(seed=2)
    view = view_of(game)
    assert FirstAgent().act(view) == 0
    played = play(rules, [FirstAgent(), FirstAgent()], seed=2, limit=30)
    first_ids = decisions(played)
    replay = rules.new_game(seed=2)
    for _seat, option_id in first_ids:
        assert replay.decision()[1][0].id == option_id
        replay.apply(0)


def _contains_game(value, depth=0) -> bool:
    if isinstance(value, (Game, GameState)):
        return True
    if depth > 6:
        return False
    if isinstance(value, dict):
        return any(_contains_game(v, depth + 1) for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(_contains_game(v, depth + 1) for v in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return any(_contains_game(getattr(value, f.name), depth + 1) for f in dataclasses.fields(value))
    return False


class Recorder:
    def __init__(self, game_ref):
        self.game_ref = game_ref
        self.views = []

    def act(self, view):
        game = self.game_ref[0]
        assert isinstance(view, DecisionView)
        # what the agent gets is exactly the deciding player's observation, nothing more
        assert view.observation == game.observation(view.seat)
        assert not _contains_game(view)
        self.views.append(view)
        return view.options[len(self.views) % len(view.options)]


def test_agents_only_receive_the_observation(rules):
    game = rules.new_game(seed=6)
    ref = [game]
    recorders = [Recorder(ref) for _ in range(rules.player_count)]
    n = 0
    while not game.is_over and n < 60:
        play_decision(game, recorders)
        n += 1
    hidden_zones = [name for name, spec in rules.zones.items() if spec.visibility != "public" and spec.per_player]
    assert hidden_zones, "the test needs a ruleset with a zone hidden from the other players"
    checked = 0
    for seat, rec in enumerate(recorders, start=1):
        for view in rec.views:
            for owner, zones in view.observation["zones"].items():
                for name in hidden_zones:
                    if owner != f"P{seat}" and name in zones:
                        # another player's non-public zone: a count (and maybe revealed cards), no list
                        assert isinstance(zones[name], dict) and "count" in zones[name]
                        checked += 1
    assert checked > 0


def test_make_agent_registry():
    assert isinstance(make_agent("random", seed=1), RandomAgent)
    assert isinstance(make_agent("first"), FirstAgent)
    assert isinstance(make_agent("human"), HumanAgent)
    with pytest.raises(UnknownAgentError, match="did you mean 'random'"):
        make_agent("randm")


def _view(rules, seed=5):
    return view_of(rules.new_game(seed=seed))


def test_human_agent_reasks_on_bad_input(rules):
    view = _view(rules)
    out = io.StringIO()
    agent = HumanAgent(input=io.StringIO("nonsense\n0\n\n2\n"), output=out)
    assert agent.act(view) == view.options[1]
    text = out.getvalue()
    assert "'nonsense' is not an option" in text
    assert "0 is not in the list" in text
    assert view.prompt in text
    assert view.options[0].label in text


def test_human_agent_accepts_ids_and_labels(rules):
    view = _view(rules)
    last = view.options[-1]
    assert HumanAgent.match(view, last.id) == (last, None)
    unique = next(o for o in view.options if sum(p.label == o.label for p in view.options) == 1)
    assert HumanAgent.match(view, unique.label)[0] == unique
    assert HumanAgent.match(view, unique.label.upper())[0] == unique


def test_human_agent_eof_and_quit(rules):
    view = _view(rules)
    with pytest.raises(HumanQuit):
        HumanAgent(input=io.StringIO(""), output=io.StringIO()).act(view)
    with pytest.raises(HumanQuit):
        HumanAgent(input=io.StringIO("q\n"), output=io.StringIO()).act(view)


def test_render_observation_shows_counts_for_hidden_zones(rules):
    game = rules.new_game(seed=5)
    seat = game.decision()[0]
    text = render_observation(game.observation(seat))
    assert f"you are P{seat}" in text
    assert "(hidden)" in text
    # the deciding player's own non-public zone is listed card by card
    own = game.observation(seat)["zones"][f"P{seat}"]
    listed = [label for label, content in own.items() if isinstance(content, list) and content]
    assert any(f"{label.replace('_', ' ')} (" in text for label in listed)
