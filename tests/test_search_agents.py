"""The agents that search (greedy, mcts): they never read the true state, they are seeded, their
specs are checked, and they beat random play. Also agents of a user's own by dotted path, and
agents that misbehave."""

from __future__ import annotations

import os
import random

import pytest

from interpreter import load
from interpreter.agents import (
    AgentError,
    AgentSpecError,
    GreedyAgent,
    MctsAgent,
    UnknownAgentError,
    make_agent,
    play_decision,
    split_agent_specs,
    view_of,
)

GAMES = ("initiative", "lanes", "bases")
RULES = {name: load(name) for name in GAMES}
LONG = os.environ.get("CARDRULES_LONG") == "1"  # (the longer games' matches too)


# No peeking: tests/test_no_peek.py checks mcts, greedy and turn against twins of true games of
# every shipped ruleset (two hidden cards the decider cannot tell apart, dealt the other way
# round), with a control that peeks.


# ---------------------------------------------------------------- seeded, specs
def test_the_same_seed_game_and_spec_give_the_same_choice():
    game = RULES["initiative"].new_game(seed=9, log=False)
    runs = []
    for _ in range(2):
        agent = make_agent("mcts:iterations=40,c=1.0", seed="9/P1")
        runs.append((agent.act(view_of(game)), agent.last_search.options))
    assert runs[0] == runs[1]
    other = make_agent("mcts:iterations=40,c=1.0", seed="10/P1")
    other.act(view_of(game))
    assert other.last_search.options != runs[0][1]


def test_agent_specs():
    agent = make_agent("mcts:200")
    assert isinstance(agent, MctsAgent) and agent.iterations == 200 and agent.name == "mcts:200"
    agent = make_agent("mcts:iterations=500,c=1.4,time=0.5,playout=greedy,seed=3,depth=6")
    assert (agent.iterations, agent.c, agent.time, agent.playout, agent.seed, agent.depth) == (
        500, 1.4, 0.5, "greedy", "3", 6)
    assert make_agent("mcts:time=0.2").iterations is None  # a time alone bounds the search
    assert make_agent("mcts").iterations == 200
    assert isinstance(make_agent("greedy:samples=2"), GreedyAgent)
    assert split_agent_specs("mcts:iterations=500,c=1.4,random") == ["mcts:iterations=500,c=1.4", "random"]
    assert split_agent_specs("mcts:200,random") == ["mcts:200", "random"]
    assert split_agent_specs("samplebots.bots:LastBot:offset=1,greedy") == ["samplebots.bots:LastBot:offset=1",
                                                                            "greedy"]


@pytest.mark.parametrize("spec, message", [
    ("mcts:abc", "iterations must be a whole number, not 'abc'"),
    ("mcts:iterations=-1", "iterations must be at least 1, not -1"),
    ("mcts:c=x", "c must be a number, not 'x'"),
    ("mcts:playout=smart", "playout is one of random, greedy, not 'smart'"),
    ("mcts:iteration=5", "has no parameter 'iteration' (did you mean 'iterations'?)"),
    ("mcts:5,6", "takes only its first parameter by position"),
    ("random:3", "takes no parameters"),
    ("mtcs", "unknown agent 'mtcs' (did you mean 'mcts'?)"),
    ("nosuchpkg.bot:Bot", "cannot import 'nosuchpkg.bot': ModuleNotFoundError"),
    ("samplebots.bots:Missing", "module 'samplebots.bots' has no class 'Missing'"),
    ("samplebots.bots:NoAct", "NoAct has no act(view) method"),
    ("samplebots.bots:LastBot:wrong=1", "LastBot(wrong, seed) failed: TypeError"),
])
def test_bad_agent_specs_are_usage_errors_naming_the_agent(spec, message):
    with pytest.raises(AgentSpecError) as caught:
        make_agent(spec)
    assert message in str(caught.value)
    assert isinstance(caught.value, UnknownAgentError) == spec.startswith("mtcs")


def test_an_agent_of_ones_own_by_dotted_path():
    agent = make_agent("samplebots.bots:LastBot:offset=1", seed=5)
    assert agent.offset == 1 and agent.seed == 5 and agent.name == "samplebots.bots:LastBot:offset=1"
    game = RULES["initiative"].new_game(seed=1, log=False)
    n = len(game.decision()[1])
    option = play_decision(game, [agent, agent])
    assert option.index == n - 2


@pytest.mark.parametrize("spec, text", [
    ("samplebots.bots:Crashing", "raised ZeroDivisionError: the bot divided by zero at the decision"),
    ("samplebots.bots:Illegal", "which is not one of the"),
])
def test_a_misbehaving_agent_is_an_error_naming_it_and_the_decision(spec, text):
    game = RULES["initiative"].new_game(seed=1)
    before = game.to_json()
    with pytest.raises(AgentError) as caught:
        play_decision(game, [make_agent(spec), make_agent("random")])
    message = str(caught.value)
    assert f"agent {spec!r} (P1)" in message and text in message and game.pending.prompt in message
    assert game.to_json() == before  # left at that decision


# ---------------------------------------------------------------- evaluation, strength
def test_rulesets_declare_an_evaluation_and_greedy_follows_it():
    rules = RULES["initiative"]
    game = rules.new_game(seed=2, log=False)
    p1, p2 = game.players
    game.state.write(p2, "health", 13)
    assert rules.evaluate(game, 1) == 7 and rules.evaluate(game, 2) == -7
    assert all(RULES[n].has_evaluation for n in GAMES)


def _match(rules, spec: str, opponent: str, games: int) -> list[int]:
    """[wins, losses, draws] of `spec` against `opponent`, seats alternating."""
    tally = [0, 0, 0]
    for i in range(games):
        seat = 1 + i % 2
        agents = [make_agent(opponent, seed=f"{i}/opp")] * 2
        agents[seat - 1] = make_agent(spec, seed=f"{i}/me")
        game = rules.new_game(seed=1000 + i, log=False)
        from interpreter.agents import play_out

        play_out(game, agents)
        w = game.result.winner
        tally[0 if w == seat else 2 if w is None else 1] += 1
    return tally


_LONGER_GAMES = pytest.mark.skipif(not LONG, reason="a longer game's match: with CARDRULES_LONG=1")


@pytest.mark.parametrize("name, spec, games", [
    ("initiative", "mcts:40", 8),
    pytest.param("lanes", "mcts:40", 6, marks=_LONGER_GAMES),
    pytest.param("bases", "mcts:iterations=20,depth=30", 4, marks=_LONGER_GAMES),  # (playouts cut short)
])
def test_mcts_beats_random(name, spec, games):
    wins, losses, draws = _match(RULES[name], spec, "random", games)
    assert wins > losses and wins >= games * 0.6, (wins, losses, draws)


def test_greedy_beats_random_in_initiative():
    wins, losses, _draws = _match(RULES["initiative"], "greedy", "random", 10)
    assert wins > losses


def test_a_module_without_dots_and_a_registered_name(tmp_path, monkeypatch):
    (tmp_path / "mybots_for_test.py").write_text(
        "class Cautious:\n    def __init__(self, seed=None):\n        self.seed = seed\n"
        "    def act(self, view):\n        return 0\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    agent = make_agent("mybots_for_test:Cautious", seed=4)
    assert type(agent).__name__ == "Cautious" and agent.seed == 4
    from interpreter.agents import register_agent
    from interpreter.agents.registry import _REGISTERED

    register_agent("cautious-test", lambda seed=None: type(agent)(seed))
    try:
        assert make_agent("cautious-test", seed=9).seed == 9
        with pytest.raises(AgentSpecError, match="lower-case"):
            register_agent("Bad Name", lambda seed=None: agent)
    finally:
        _REGISTERED.pop("cautious-test", None)


def test_an_agent_that_determinizes_without_saying_it_searches_is_told_what_to_do():
    game_rules = RULES["initiative"]
    agents = [make_agent("samplebots.bots:SearchesWithoutSaying"), make_agent("random")]
    from interpreter.agents import decider

    with pytest.raises(AgentError, match="searches = True"):
        game_rules.play_out(decider(agents), seed=3)
    # told, it runs: played in the form that can be copied
    agents[0].searches = True
    game = game_rules.new_game(seed=3, log=False)
    from interpreter.agents import play_out

    play_out(game, agents, fast=True)
    assert game.is_over


@pytest.mark.parametrize("name", GAMES)
def test_the_evaluation_is_a_number_at_every_decision_of_random_games(name):
    """Greedy reads it at every decision, in every phase (a Lanes draft has no keep yet)."""
    rules = RULES[name]
    for seed in range(3):
        rng = random.Random(seed)
        game = rules.new_game(seed=seed, log=False)
        while not game.is_over:
            for seat in (1, 2):
                value = rules.evaluate(game, seat)
                assert isinstance(value, float) and value == -rules.evaluate(game, 3 - seat)
            game.apply(rng.randrange(len(game.decision()[1])))
