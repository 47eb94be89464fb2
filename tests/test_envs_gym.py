"""The Gymnasium single-agent environment (interpreter/envs/gym_env.py): Gymnasium's own checker,
pluggable opponents that play through the action ids, seat alternation, truncation at the cap,
illegal actions; and `render_mode="human"` of the PettingZoo environment (PettingZoo's render_test)."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import render_test  # noqa: E402

from interpreter.agents import RandomAgent  # noqa: E402
from interpreter.envs.gym_env import CardrulesGymEnv, option_actions  # noqa: E402
from interpreter.envs.pettingzoo_aec import IllegalActionError, make_env  # noqa: E402


def random_episode(env: CardrulesGymEnv, rng: np.random.Generator, seed: int | None = None):
    """(observations, rewards, the final info) of one episode of random legal learner actions."""
    observation, info = env.reset(seed=seed)
    observations, rewards = [observation], []
    while True:
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        observation, reward, terminated, truncated, info = env.step(action)
        observations.append(observation)
        rewards.append(reward)
        if terminated or truncated:
            return observations, rewards, info, terminated, truncated


def test_gymnasium_env_checker_passes():
    env = CardrulesGymEnv("initiative", opponents="random", seed=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (its advice on unbounded Box spaces)
        check_env(env, skip_render_check=False)


@pytest.mark.parametrize("game", ["initiative", "lanes", "bases"])
def test_spaces_come_from_the_pettingzoo_environment(game):
    env = CardrulesGymEnv(game)
    aec = env.aec
    assert env.observation_space == aec.observation_space("player_1")["observation"]
    assert env.action_space.n == aec.action_space("player_1").n
    observation, info = env.reset(seed=1)
    assert observation.shape == env.observation_space.shape and observation.dtype == np.float32
    assert np.array_equal(observation, aec.observe(env.learner)["observation"])
    assert np.array_equal(info["action_mask"], env.action_masks()) and env.action_masks().dtype == bool
    assert env.action_masks().any()


def test_seats_alternate_and_a_seed_starts_the_alternation_again():
    env = CardrulesGymEnv("initiative", seed=3)
    seats = [env.reset()[1]["seat"] for _ in range(4)]
    assert seats == [1, 2, 1, 2]
    assert env.reset(seed=9)[1]["seat"] == 1
    assert env.reset()[1]["seat"] == 2
    fixed = CardrulesGymEnv("initiative", seat=2)
    assert {fixed.reset(seed=s)[1]["seat"] for s in range(3)} == {2}
    assert fixed.learner == "player_2"


def test_an_episode_is_a_function_of_its_seed_and_the_learners_actions():
    runs = []
    for _ in range(2):
        env = CardrulesGymEnv("lanes", opponents="greedy")
        observations, rewards, info, _t, _u = random_episode(env, np.random.default_rng(4), seed=11)
        runs.append((np.stack(observations), rewards, info["result"]))
    assert np.array_equal(runs[0][0], runs[1][0]) and runs[0][1:] == runs[1][1:]


def test_the_learner_gets_the_end_reward_of_its_seat():
    env = CardrulesGymEnv("initiative", opponents="random", reward="win", seed=5)
    rng = np.random.default_rng(0)
    for _ in range(4):
        _obs, rewards, info, terminated, truncated = random_episode(env, rng)
        assert terminated and not truncated
        winner = info["result"]["winner"]
        expected = 0.0 if winner is None else (1.0 if winner == f"player_{info['seat']}" else -1.0)
        assert sum(rewards) == expected and rewards[:-1] == [0.0] * (len(rewards) - 1)


class Recorder:
    """An opponent that records the views it is given and picks at random."""

    def __init__(self) -> None:
        self.seats: list[int] = []
        self.inner = RandomAgent(1)

    def act(self, view):
        self.seats.append(view.seat)
        return self.inner.act(view)


def test_opponents_are_agents_deciding_for_the_other_seats_only():
    recorder = Recorder()
    env = CardrulesGymEnv("bases", opponents=recorder, seat=2, seed=2)
    random_episode(env, np.random.default_rng(1))
    assert recorder.seats and set(recorder.seats) == {1}


@pytest.mark.parametrize("game", ["initiative", "lanes", "bases"])
def test_an_opponents_answer_becomes_the_action_ids_that_take_that_option(game):
    """Each option an agent picks, taken in the PettingZoo environment through `option_actions`,
    leaves the game exactly as applying that option directly does (multi-part choices included)."""
    aec = make_env(game)
    rng = random.Random(7)
    checked = multi = 0
    for episode in range(3):
        aec.reset(seed=episode)
        for _ in range(120):  # (to_json is the slow part: a bounded number of decisions per game)
            if aec.game.is_over:
                break
            index = rng.randrange(len(aec.game.decision()[1]))
            expected = aec.game.clone()
            expected.apply(index)
            path = list(option_actions(aec, PickIndex(index)))
            multi += len(path) > 1
            for action in path:
                aec.step(action)
            assert aec.game.to_json() == expected.to_json()
            checked += 1
    assert checked > 50
    if game == "initiative":
        assert multi > 0  # (Initiative's two-card plays: a multi-part choice)


class PickIndex:
    def __init__(self, index: int) -> None:
        self.index = index

    def act(self, view):
        return self.index


def test_a_game_stopped_at_its_cap_truncates_the_episode():
    env = CardrulesGymEnv("bases", max_decisions=6, seed=1)
    _obs, rewards, info, terminated, truncated = random_episode(env, np.random.default_rng(0))
    assert truncated and not terminated
    assert rewards[-1] == 0.0 and info["result"]["unfinished"] is True
    assert not env.action_masks().any()


def test_an_illegal_action_is_a_loss_or_an_error():
    env = CardrulesGymEnv("initiative", seed=1)
    env.reset()
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert info["result"]["illegal"] == env.learner
    strict = CardrulesGymEnv("initiative", seed=1, illegal="raise")
    before, _ = strict.reset()
    with pytest.raises(IllegalActionError):
        strict.step(illegal)
    assert np.array_equal(before, strict.aec.observe(strict.learner)["observation"])


def test_stepping_a_finished_episode_asks_for_reset():
    import gymnasium

    env = CardrulesGymEnv("initiative", max_decisions=2, seed=1)
    random_episode(env, np.random.default_rng(0))
    with pytest.raises(gymnasium.error.ResetNeeded):
        env.step(0)


def test_wrong_arguments_are_refused_at_once():
    with pytest.raises(ValueError, match="seat must be"):
        CardrulesGymEnv("initiative", seat=3)
    with pytest.raises(ValueError, match="1 other seat"):
        CardrulesGymEnv("initiative", opponents="random,greedy")
    with pytest.raises(ValueError, match="human"):
        CardrulesGymEnv("initiative", opponents="human")
    with pytest.raises(ValueError, match="unknown agent 'randm'"):
        CardrulesGymEnv("initiative", opponents="randm")
    with pytest.raises(ValueError, match="render_mode"):
        CardrulesGymEnv("initiative", render_mode="rgb_array")


def test_gym_env_renders_as_text_or_to_the_terminal(capsys):
    env = CardrulesGymEnv("initiative", render_mode="ansi", seed=1)
    env.reset()
    text = env.render()
    assert text.startswith("turn ") and "to decide" in text
    human = CardrulesGymEnv("initiative", render_mode="human", seed=1)
    human.reset()
    assert human.render() is None
    assert capsys.readouterr().out.strip() == text


@pytest.mark.parametrize("game", ["initiative", "lanes", "bases"])
def test_pettingzoo_render_test_passes_with_human_rendering(game, capsys):
    render_test(lambda render_mode=None: make_env(game, render_mode=render_mode, seed=3))
    printed = capsys.readouterr().out
    assert printed.count("turn ") >= 5  # (five renders printed by the "human" round)


def test_pettingzoo_human_render_prints_what_ansi_returns(capsys):
    ansi, human = make_env("lanes", render_mode="ansi"), make_env("lanes", render_mode="human")
    ansi.reset(seed=4)
    human.reset(seed=4)
    assert human.render() is None
    assert capsys.readouterr().out == ansi.render() + "\n"
