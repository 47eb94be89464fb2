"""The turn agent (agents/turn.py): it looks through the rest of its own turn where greedy sees
one decision, it is seeded, its cost is bounded, and it never reads the true state."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from twins import peeking_view

from interpreter import load
from interpreter.agents import (
    AgentSpecError,
    GreedyAgent,
    TurnAgent,
    make_agent,
    play_decision,
    view_of,
)

LOOKAHEAD = load(Path(__file__).parent / "data" / "lookahead" / "lookahead.yaml")


def _label(view, answer) -> str:
    return view.options[answer].label if type(answer) is int else answer.label


# ---------------------------------------------------------------- what it sees that greedy does not
@pytest.mark.parametrize("seed", range(5))
def test_turn_attacks_where_the_payoff_is_the_later_target_and_greedy_does_not(seed):
    """'attack' is worth 3 only through the target chosen at the next decision of the same turn;
    'gain 1' is worth 1 at once, a 'draw' at most 2."""
    game = LOOKAHEAD.new_game(seed=seed, log=False)
    view = view_of(game)
    turn = TurnAgent(seed=seed)
    assert _label(view, turn.act(view)) == "attack"
    assert turn.last_search.values[1] == 3.0  # (the attack, valued through its target)
    assert _label(view, GreedyAgent(seed=seed, samples=4).act(view)) != "attack"
    # and it follows through: the target is the opponent
    play_decision(game, [turn, turn])
    assert game.decision()[0] == 1 and _label(view_of(game), turn.act(view_of(game))) == "the opponent"


def test_over_a_game_turn_outscores_greedy():
    game = LOOKAHEAD.new_game(seed=3, log=False)
    agents = [make_agent("turn", seed="t"), make_agent("greedy", seed="g")]
    while not game.is_over:
        play_decision(game, agents)
    p1, p2 = game.players
    assert game.read(p1, "score") - game.read(p2, "score") >= 6


# ---------------------------------------------------------------- seeded, bounded, specs
def test_the_same_seed_game_and_spec_give_the_same_search():
    game = load("bases").new_game(seed=4, log=False)
    rng = random.Random(4)
    for _ in range(20):
        game.apply(rng.randrange(len(game.decision()[1])))
    while len(game.decision()[1]) < 3 or game.pending.prompt != "a card or ability":
        game.apply(rng.randrange(len(game.decision()[1])))
    runs = []
    for _ in range(2):
        agent = make_agent("turn:width=3,samples=2", seed="4/P1")
        runs.append((agent.act(view_of(game)), agent.last_search.values, agent.last_search.iterations))
    assert runs[0] == runs[1]
    assert len(set(runs[0][1])) > 1  # (the search told the options apart)


def test_the_node_cap_bounds_the_search():
    game = load("bases").new_game(seed=6, log=False)
    rng = random.Random(6)
    for _ in range(4):
        game.apply(rng.randrange(len(game.decision()[1])))
    capped = TurnAgent(seed=1, nodes=5)
    capped.act(view_of(game))
    n = len(game.decision()[1])
    assert capped.last_search.iterations == max(5, n)  # (every option is tried once, then the cap holds)
    wide = TurnAgent(seed=1, nodes=100_000)
    wide.act(view_of(game))
    assert wide.last_search.iterations > capped.last_search.iterations


def test_turn_specs():
    agent = make_agent("turn:width=8,samples=4,nodes=50,seed=2")
    assert isinstance(agent, TurnAgent) and (agent.width, agent.samples, agent.nodes, agent.seed) == (8, 4, 50, "2")
    assert (make_agent("turn:6").width, make_agent("turn").nodes) == (6, 400)
    with pytest.raises(AgentSpecError, match="width must be at least 1, not 0"):
        make_agent("turn:width=0")
    with pytest.raises(AgentSpecError, match="did you mean 'samples'"):
        make_agent("turn:sample=2")


# ---------------------------------------------------------------- no peeking
def _swap(game, a, b):
    """A copy of the game with the cards at places a and b, (zone key, index), exchanged."""
    copy = game.clone()
    twin = copy.state
    (key_a, i), (key_b, j) = a, b
    x, y = twin.zones[key_a][i], twin.zones[key_b][j]
    twin.zones[key_a][i], twin.zones[key_b][j] = y, x
    twin.card_zone[x.id], twin.card_zone[y.id] = key_b, key_a
    twin.layout += 1
    twin.version += 1
    return copy


def test_a_draw_from_its_own_hidden_pile_is_valued_alike_whatever_the_pile_holds():
    """The control can fail: a search on copies of the true game knows the pile's top card."""
    game = LOOKAHEAD.new_game(seed=1, log=False)
    pile = next(k for k in game.state.zones if k[0] == "pile" and k[1] == 1)
    cards = game.state.zones[pile]
    other = next(i for i, c in enumerate(cards) if c.defn.name != cards[0].defn.name)
    twin = _swap(game, (pile, 0), (pile, other))
    assert game.observation(1) == twin.observation(1)
    honest = [TurnAgent(seed=2, samples=3) for _ in range(2)]
    for agent, g in zip(honest, (game, twin)):
        agent.act(view_of(g))
    assert [(a.last_search.values, a.last_search.iterations) for a in honest][0] == (
        honest[1].last_search.values, honest[1].last_search.iterations)
    peeking = [TurnAgent(seed=2, samples=3) for _ in range(2)]
    for agent, g in zip(peeking, (game, twin)):
        agent.act(peeking_view(g))
    draw = [a.last_search.values[2] for a in peeking]
    assert sorted(draw) == [0.0, 2.0]  # (Lead on top in one game, Gold in the other)


# Against twins of true games of every shipped ruleset: tests/test_no_peek.py (with mcts and greedy).


def test_without_an_evaluation_it_values_only_results(tmp_path):
    """The documented fallback: every unfinished position is worth 0 (a win within the turn
    would still count), so the options tie and the seeded generator picks."""
    folder = Path(__file__).parent / "data" / "lookahead"
    for f in folder.iterdir():
        text = f.read_text()
        (tmp_path / f.name).write_text("\n".join(x for x in text.splitlines() if not x.startswith("evaluate:")))
    rules = load(tmp_path / "lookahead.yaml")
    assert not rules.has_evaluation
    agent = TurnAgent(seed=1)
    answer = agent.act(view_of(rules.new_game(seed=1, log=False)))
    assert agent.last_search.values == (0.0, 0.0, 0.0) and answer in (0, 1, 2)
