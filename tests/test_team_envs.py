"""Teams, cooperative and scoring games in the layers above the engine (issue 32.3): what a
search backs up (agents/searchvalues.py), OpenSpiel's game type and returns, PettingZoo's rewards
(envs/returns.py), and random games of the two test rulesets (tests/data/coop, tests/data/partners)
with their results checked."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from playout import examples, playout

from interpreter import load
from interpreter.agents.searchvalues import values
from interpreter.envs.returns import CONSTANT_SUM, GENERAL_SUM, IDENTICAL, ZERO_SUM, seat_returns, utility

DATA = Path(__file__).resolve().parent / "data"
PARTNERS = DATA / "partners" / "partners.yaml"
COOP = DATA / "coop" / "coop.yaml"


def _plain_partners(folder: Path) -> Path:
    """The partners ruleset without its score (a win/lose game of two teams), named apart."""
    for f in (DATA / "partners").iterdir():
        shutil.copy(f, folder / f.name)
    path = folder / "partners.yaml"
    text = path.read_text(encoding="utf-8").replace("name: partners\n", "name: partners_plain\n")
    path.write_text(text.replace("score: {per: team, attribute: points, rewards: steps}   # P-3.1\n", ""),
                    encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def plain_partners(tmp_path_factory) -> Path:
    return _plain_partners(tmp_path_factory.mktemp("plain"))


def _played(rules, seed: int, pick=lambda n: 0):
    game = rules.new_game(seed=seed)
    while not game.is_over:
        _seat, options = game.decision()
        game.apply(pick(len(options)))
    return game


def test_the_kind_of_game_each_ruleset_makes(plain_partners):
    assert [utility(load(p)) for p in (COOP, PARTNERS, plain_partners, "lanes", "hearts")] == [
        IDENTICAL, GENERAL_SUM, CONSTANT_SUM, ZERO_SUM, GENERAL_SUM]


def test_a_search_backs_up_a_teams_result_for_each_member(plain_partners):
    rules = load(plain_partners, options={"limit": 10})
    game = _played(rules, 1)
    assert game.result.winners == (2, 4)
    assert values(game, 0.2) == [0.0, 1.0, 0.0, 1.0]  # (no score: the result alone)
    coop = load(COOP)
    lost, won = _played(coop, 1, lambda n: n - 1), _played(coop, 2)
    assert {tuple(values(g, 0.2)) for g in (lost, won)} == {(0.0, 0.0, 0.0), (1.0, 1.0, 1.0)}


def test_a_scoring_game_backs_up_the_score_normalised_over_the_range_seen():
    rules = load(PARTNERS, options={"limit": 10})
    game = _played(rules, 1)
    r = game.result
    assert r.winners == (2, 4) and r.scores[0] > r.scores[1]
    # R: 0 for the losing north_south, 1 for east_west; S: north_south's points are the highest
    # seen (1), east_west's the lowest (0)
    assert values(game, 0.2) == [0.2, 0.8, 0.2, 0.8]
    game = rules.new_game(seed=1)
    game.apply(0)  # (north_south scored, east_west not yet: a playout cut here)
    assert game.result is None and values(game, 0.2) == [1.0, 0.0, 1.0, 0.0]


def test_openspiel_game_types_and_returns(plain_partners):
    pytest.importorskip("pyspiel")
    import pyspiel

    from interpreter.envs import register_openspiel

    kinds = {}
    for path in (COOP, PARTNERS, plain_partners):
        game = register_openspiel(str(path), seed=5)
        kinds[path.name if path != plain_partners else "plain"] = game.get_type().utility
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(state.legal_actions()[0])
        returns = state.returns()
        result = state._core.game.result
        if path == COOP:
            assert len(set(returns)) == 1 and returns[0] in (1.0, -1.0)
        elif path == PARTNERS:
            assert returns == [float(s) for s in result.scores]
            assert (game.min_utility(), game.max_utility()) == (-1e6, 1e6)
        else:
            assert sum(returns) == 0.0 and game.utility_sum() == 0.0
            assert returns == [result.outcome(s) for s in range(1, 5)]
    assert kinds == {"coop.yaml": pyspiel.GameType.Utility.IDENTICAL,
                     "partners.yaml": pyspiel.GameType.Utility.GENERAL_SUM,
                     "plain": pyspiel.GameType.Utility.CONSTANT_SUM}


def _pz(path, **kwargs):
    pytest.importorskip("pettingzoo")
    from interpreter.envs.pettingzoo_aec import make_env

    return make_env(str(path), **kwargs)


def _run(env, seed: int) -> tuple[dict[str, list[float]], dict]:
    """Every reward each agent got, step by step, and the last infos."""
    env.reset(seed=seed)
    got: dict[str, list[float]] = {a: [] for a in env.possible_agents}
    for agent in env.agent_iter():
        _obs, reward, termination, truncation, info = env.last()
        got[agent].append(reward)
        if termination or truncation:
            env.step(None)
            continue
        mask = _obs["action_mask"]
        env.step(int(mask.nonzero()[0][0]))
    return got, info


def test_pettingzoo_rewards_each_member_its_teams_result():
    env = _pz(COOP)
    for seed in (1, 2, 3, 4):
        got, info = _run(env, seed)
        finals = {a: rewards[-1] for a, rewards in got.items()}
        assert len(set(finals.values())) == 1 and set(finals.values()) <= {1.0, -1.0}
        assert info["result"]["winners"] == ([] if finals["player_1"] < 0 else env.possible_agents)


def test_pettingzoo_rewards_score_changes_at_every_step_when_the_ruleset_asks():
    env = _pz(PARTNERS)
    got, info = _run(env, 1)
    scores = info["result"]["scores"]
    assert {a: sum(r) for a, r in got.items()} == scores
    assert scores["player_1"] == scores["player_3"] and scores["player_1"] > 0
    assert sum(1 for r in got["player_2"] if r) > 1  # (rewarded along the way, not once at the end)
    win_env = _pz(PARTNERS, reward="win")
    got, info = _run(win_env, 1)
    won = set(info["result"]["winners"])
    assert {a: r[-1] for a, r in got.items()} == {a: (1.0 if a in won else -1.0 if won else 0.0)
                                                  for a in win_env.possible_agents}


def test_pettingzoo_api_test_passes_for_a_team_game():
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    api_test(_pz(PARTNERS, seed=1), num_cycles=100)


# ------------------------------------------------------------------------------ random games
COOP_RULES, PARTNER_RULES = load(COOP), load(PARTNERS)


def _check(game) -> None:
    r = game.result
    seats = {p.seat for p in game.players}
    assert set(r.winners) <= seats and set(r.losers) <= seats and not set(r.winners) & set(r.losers)
    assert list(r.winners) == sorted(r.winners) and r.winner == (r.winners[0] if len(r.winners) == 1 else None)
    assert (r.scores is not None) == (game.rules.score is not None)
    if r.scores is not None:
        assert len(r.scores) == len(seats)
    assert r.teams == tuple(t.seats for t in game.rules.team_refs)


@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1), agent_seed=st.integers(0, 2**31 - 1), coop=st.booleans())
def test_random_games_of_the_team_rulesets_end_with_a_sound_result(seed, agent_seed, coop):
    rules = COOP_RULES if coop else PARTNER_RULES
    game, _choices = playout(rules, seed, agent_seed, lambda g: None)
    _check(game)
    r = game.result
    if coop:  # (one team: everyone wins or everyone loses, together)
        assert (r.winners, r.losers) in (((1, 2, 3), ()), ((), (1, 2, 3)))
    else:  # (two partnerships: one wins and the other loses, or a draw; partners share a score)
        assert (r.winners, r.losers) in (((1, 3), (2, 4)), ((2, 4), (1, 3)), ((), ()))
        assert r.scores[0] == r.scores[2] and r.scores[1] == r.scores[3]
        assert seat_returns(game.rules, r, 4) == [float(s) for s in r.scores]


@settings(max_examples=examples(20), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1), agent_seed=st.integers(0, 2**31 - 1))
def test_a_constant_sum_team_games_returns_sum_to_zero(plain_partners, seed, agent_seed):
    rules = load(plain_partners, options={"limit": 15})
    assert utility(rules) == CONSTANT_SUM
    game, _choices = playout(rules, seed, agent_seed, lambda g: None)
    _check(game)
    assert sum(seat_returns(rules, game.result, 4)) == 0.0
