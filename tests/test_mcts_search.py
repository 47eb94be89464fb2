"""The `mcts` agent's search (issue 30): edges keyed by what an option is, never its label; every
kind of result backed up as each player's value from 0 to 1; a value function of the user's in
place of playouts; the tree kept between a player's consecutive decisions."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter import load
from interpreter.agents import AgentError, AgentSpecError, MctsAgent, make_agent, view_of
from interpreter.agents.mcts import option_key
from interpreter.agents.searchvalues import values
from interpreter.cli.main import main

TWINS = Path(__file__).parent / "data" / "twins" / "twins.yaml"


def _twins(**options):
    return load(str(TWINS), options={k: str(v) for k, v in options.items()})


# ---------------------------------------------------------------- 1. edges by what an option is
def test_two_options_with_one_label_are_two_edges_and_the_second_can_be_chosen():
    game = _twins().new_game(seed=1, log=False)
    seat, options = game.decision()
    assert [o.label for o in options] == ["Token", "Token"] and options[0].id != options[1].id
    agent = MctsAgent(seed=2, iterations=40)
    assert agent.act(view_of(game)) == 1  # the second Token is worth 3: taking it wins
    stats = {i: (visits, mean) for i, _id, _label, visits, mean in agent.last_search.options}
    assert stats[0][0] > 0 and stats[1][0] > 0  # both searched
    assert stats[0][1] == pytest.approx(0.0) and stats[1][1] == pytest.approx(1.0)  # apart: a loss, a win
    assert stats[0][0] + stats[1][0] == 40


def _same_label_position(rules, seed: int):
    """A random Bases game at a decision with two options of one label."""
    rng = random.Random(seed)
    game = rules.new_game(seed=seed, log=False)
    while not game.is_over:
        seat, options = game.decision()
        labels = [o.label for o in options]
        if len(set(labels)) < len(labels):
            return game
        game.apply(rng.randrange(len(options)))
    return None


def test_keys_in_bases_tell_apart_options_of_one_label_and_agree_across_copies():
    rules = load("bases")
    game = next(g for g in (_same_label_position(rules, s) for s in range(20)) if g is not None)
    seat, options = game.decision()
    view = view_of(game)
    rng = random.Random(4)
    copies = [game.clone(), view.determinize(rng), view.determinize(rng)]
    keys = [[option_key(g, g.pending.value_at(i), seat, seat) for i in range(len(options))] for g in copies]
    assert len(set(keys[0])) == len(options)  # one edge per option, whatever the labels
    assert keys[0] == keys[1] == keys[2]  # the same play in every copy is the same edge
    labels = [o.label for o in options]
    twins = [i for i, label in enumerate(labels) if labels.count(label) > 1]
    agent = MctsAgent(seed=1, iterations=3 * len(options))
    agent.act(view)
    visits = {i: v for i, _id, _label, v, _mean in agent.last_search.options}
    assert all(visits[i] > 0 for i in twins)  # each copy of the label searched on its own


def test_an_unseen_card_of_another_player_is_keyed_by_its_name_and_ones_own_hidden_pick_by_place():
    rules = load("bases")
    game = rules.new_game(seed=3, log=False)
    seat = game.decision()[0]
    other = 3 - seat
    hidden = [c for key, cards in game.state.zones.items() if key[1] == other for c in cards
              if not game.visible(c, seat)]
    a, twin = next((a, b) for i, a in enumerate(hidden) for b in hidden[i + 1:]
                   if a.defn.name == b.defn.name)  # two copies of one card
    assert option_key(game, a, seat, other) == option_key(game, twin, seat, other) == ("unseen", a.defn.name)
    zone, position = game.where(a)
    assert game.state.zones[zone][position - 1] is a and zone[1] == other
    assert option_key(game, a, seat, seat) == ("place", zone, position)
    mine = next(c for key, cards in game.state.zones.items() for c in cards if game.visible(c, seat))
    assert option_key(game, mine, seat, other) == ("card", mine.id)


# ---------------------------------------------------------------- 2. every kind of result
def test_where_only_the_score_tells_moves_apart_mcts_takes_the_better_one():
    rules = _twins(layout="distinct", ending="draw")
    game = rules.new_game(seed=1, log=False)
    assert [o.label for o in game.decision()[1]] == ["Token", "Gem"]  # every game a draw
    agent = MctsAgent(seed=5, iterations=30)
    assert agent.act(view_of(game)) == 1
    means = [mean for *_rest, mean in agent.last_search.options]
    assert means == pytest.approx([0.8 * 0.5 + 0.2 * 0.0, 0.8 * 0.5 + 0.2 * 1.0])


def test_the_values_of_each_kind_of_end():
    rules = _twins(layout="row", picks=2)
    won = rules.new_game(seed=1, log=False)
    while not won.is_over:
        won.apply(len(won.decision()[1]) - 1)  # P1 takes 3 and 2, P2 1 and 0: P1 wins 5 to 1
    assert won.result.winner == 1
    assert values(won, 0.2) == pytest.approx([1.0, 0.0])  # the winner is also ahead on score
    assert values(won, 0.0) == [1.0, 0.0]
    drawn = _twins(layout="distinct", ending="draw").new_game(seed=1, log=False)
    drawn.apply(0)  # P1 takes the Token (0), P2 the Gem (3): a draw
    assert drawn.result.draw and values(drawn, 0.2) == pytest.approx([0.4, 0.6])
    capped = rules.new_game(seed=1, log=False, max_decisions=1)
    capped.apply(3)  # P1 has 3, P2 0, and the cap stops the game
    assert capped.result.unfinished and values(capped, 0.2) == [1.0, 0.0]
    cut = rules.new_game(seed=1, log=False)
    cut.apply(0)
    assert cut.result is None and values(cut, 0.2) == [0.5, 0.5]  # 0 to 0: places shared


def test_the_score_weight_is_from_0_to_1():
    with pytest.raises(AgentSpecError) as caught:
        make_agent("mcts:score=2")
    assert str(caught.value) == "agent 'mcts:score=2': score is a weight from 0 to 1, not 2"
    assert make_agent("mcts:score=0").score == 0.0


# ---------------------------------------------------------------- 3. an evaluator of the user's
EVALUATORS = '''
calls = []

def low_score(game, seat):
    calls.append((game, seat))
    return 1.0 - game.read(game.players[seat - 1], "score") / 6

def first_first(game, seat):
    priors = [0.0] * len(game.decision()[1]) if not game.is_over else []
    if priors:
        priors[0] = 1.0
    return [0.5, 0.5], priors

def wordy(game, seat):
    return "high"

def too_big(game, seat):
    return {1: 0.5, 2: 7}
'''


@pytest.fixture
def evaluators(tmp_path, monkeypatch):
    (tmp_path / "myvalues_for_test.py").write_text(EVALUATORS)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    import importlib
    import sys

    sys.modules.pop("myvalues_for_test", None)
    return importlib.import_module("myvalues_for_test")


def test_an_evaluator_judges_positions_instead_of_playouts(evaluators):
    game = _twins(layout="row", picks=2).new_game(seed=1, log=False)
    agent = make_agent("mcts:iterations=4,evaluator=myvalues_for_test:low_score", seed=1)
    assert agent.act(view_of(game)) == 0  # each option judged once: the lowest score is best
    assert len(evaluators.calls) == 1 + 4  # the root (for its priors), then each new node
    assert all(g is not game and seat == 1 for g, seat in evaluators.calls)  # a determinized copy
    assert [round(m, 4) for *_r, m in agent.last_search.options] == [1.0, round(5 / 6, 4), round(4 / 6, 4), 0.5]


def test_an_evaluators_priors_order_the_first_expansions(evaluators):
    game = _twins(layout="row", picks=2).new_game(seed=1, log=False)
    for seed in range(4):
        agent = make_agent("mcts:iterations=1,evaluator=myvalues_for_test:first_first", seed=seed)
        assert agent.act(view_of(game)) == 0


@pytest.mark.parametrize("function, text", [
    ("wordy", "returned 'high': give a number from 0 to 1"),
    ("too_big", "returned 7 as a value of P2: it must be a number from 0 to 1"),
])
def test_an_evaluator_that_answers_no_value_is_an_error_naming_the_agent_and_decision(evaluators, function, text):
    game = _twins(layout="row", picks=2).new_game(seed=1)
    before = game.to_json()
    spec = f"mcts:iterations=5,evaluator=myvalues_for_test:{function}"
    from interpreter.agents import play_decision

    with pytest.raises(AgentError) as caught:
        play_decision(game, [make_agent(spec), make_agent("random")])
    message = str(caught.value)
    assert f"agent {spec!r} (P1)" in message and text in message and "'a token to take'" in message
    assert game.to_json() == before  # nothing applied


@pytest.mark.parametrize("spec, text", [
    ("mcts:evaluator=nosuchmodule_x:f", "agent 'mcts:evaluator=nosuchmodule_x:f': evaluator 'nosuchmodule_x:f': "
                                        "cannot import 'nosuchmodule_x': ModuleNotFoundError"),
    ("mcts:evaluator=myvalues_for_test:nothing", "module 'myvalues_for_test' has no function 'nothing'"),
    ("mcts:evaluator=justaname", "evaluator is module:function, not 'justaname'"),
])
def test_a_bad_evaluator_spec_is_a_usage_error(evaluators, spec, text, capsys):
    with pytest.raises(AgentSpecError) as caught:
        make_agent(spec)
    assert text in str(caught.value)
    assert main(["simulate", str(TWINS), "--games", "1", "--agents", f"{spec},random"]) == 2
    assert text in capsys.readouterr().err


# ---------------------------------------------------------------- 4. tree reuse
def _two_picks(spec: str, seed: int):
    """P1's two consecutive picks in a row game: (choice, stats) of each."""
    game = _twins(layout="row", picks=2).new_game(seed=1, log=False)
    agent = make_agent(spec, seed=seed)
    out = []
    for _ in range(2):
        assert game.decision()[0] == 1
        choice = agent.act(view_of(game))
        out.append((choice, agent.last_search))
        game.apply(choice)
    return out


def test_the_tree_is_kept_for_the_same_players_next_decision():
    (first, s1), (second, s2) = _two_picks("mcts:iterations=40", seed=3)
    assert s1.reused == 0 and s2.reused > 0
    kept = next(v for i, _id, _l, v, _m in s1.options if i == first)
    assert s2.reused == kept - 1  # the visits under the chosen option, but the one that expanded it
    assert sum(v for *_r, v, _m in s2.options) == s2.reused + 40
    again = _two_picks("mcts:iterations=40", seed=3)  # seeded: the same choices and statistics
    assert [(c, s.options, s.reused) for c, s in again] == [(first, s1.options, 0), (second, s2.options, s2.reused)]
    (_c, off1), (_d, off2) = _two_picks("mcts:iterations=40,reuse=off", seed=3)
    assert off2.reused == 0 and sum(v for *_r, v, _m in off2.options) == 40


def test_no_reuse_in_another_game_or_after_another_players_decision():
    rules = _twins(layout="row", picks=1)
    game = rules.new_game(seed=1, log=False)
    agent = make_agent("mcts:iterations=30", seed=1)
    game.apply(agent.act(view_of(game)))  # P1, then P2 decides
    game.apply(0)
    agent.act(view_of(game))  # P1 again, after P2's unseen-by-the-tree choice
    assert agent.last_search.reused == 0
    fresh = rules.new_game(seed=2, log=False)
    agent.act(view_of(fresh))
    assert agent.last_search.reused == 0
