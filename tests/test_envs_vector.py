"""The vector environment (interpreter/envs/vector_env.py): N games in worker processes, stacked
observations and masks, Stable-Baselines3's VecEnv interface, and a short MaskablePPO run on it;
Stable-Baselines3's own checker on the single-agent environment. Longer training behind
CARDRULES_LONG=1."""

from __future__ import annotations

import json
import os
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("sb3_contrib")

import torch  # noqa: E402
from sb3_contrib import MaskablePPO  # noqa: E402
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported  # noqa: E402
from stable_baselines3.common.env_checker import check_env as sb3_check_env  # noqa: E402
from stable_baselines3.common.vec_env import VecEnv  # noqa: E402

from interpreter.envs.gym_env import CardrulesGymEnv  # noqa: E402
from interpreter.envs.vector_env import CardrulesVecEnv  # noqa: E402

torch.set_num_threads(1)  # (several threads on a shared 2-core machine run 20x slower, not faster)


@pytest.fixture(scope="module")
def venv():
    env = CardrulesVecEnv("initiative", n_envs=3, workers=2, seed=10, opponents="random", start_method="fork")
    yield env
    env.close()


def test_stable_baselines3_checker_passes_on_the_single_agent_env():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sb3_check_env(CardrulesGymEnv("lanes", seed=0), warn=False)


def test_observations_and_masks_come_stacked_and_match_single_games(venv):
    assert isinstance(venv, VecEnv) and venv.num_envs == 3
    single = CardrulesGymEnv("initiative", opponents="random")
    venv.seed(10)
    observations = venv.reset()
    assert observations.shape == (3, *single.observation_space.shape) and observations.dtype == np.float32
    masks = get_action_masks(venv)
    assert masks.shape == (3, single.action_space.n) and masks.dtype == bool
    assert is_masking_supported(venv)
    for i in range(3):  # game i's seed is seed + i
        alone, _ = single.reset(seed=10 + i)
        assert np.array_equal(observations[i], alone)
        assert np.array_equal(masks[i], single.action_masks())
    assert venv.get_attr("seat") == [1, 1, 1]
    assert venv.env_method("action_masks", indices=[2])[0].tolist() == masks[2].tolist()


def test_a_finished_game_is_reset_with_its_last_observation_in_info(venv):
    venv.reset()
    rng = np.random.default_rng(0)
    finished = []
    for _ in range(400):
        masks = venv.action_masks()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        observations, rewards, dones, infos = venv.step(actions)
        assert venv.action_masks().any(axis=1).all()  # (a done game is already the next one)
        for i in np.flatnonzero(dones):
            finished.append((rewards[i], infos[i]))
        if len(finished) >= 3:
            break
    assert len(finished) >= 3
    for reward, info in finished:
        assert info["terminal_observation"].shape == observations.shape[1:]
        assert info["TimeLimit.truncated"] is False
        assert reward in (-1.0, 1.0)


def test_maskable_ppo_learns_on_the_vector_env_for_1000_steps(venv):
    model = MaskablePPO("MlpPolicy", venv, n_steps=128, batch_size=128, n_epochs=1, seed=0,
                        policy_kwargs={"net_arch": [32]}, verbose=0)
    model.learn(1000)
    assert model.num_timesteps >= 1000
    action, _ = model.predict(venv.reset(), action_masks=get_action_masks(venv), deterministic=True)
    assert all(get_action_masks(venv)[i, a] for i, a in enumerate(action))


def test_default_workers_start_by_forkserver_and_close():
    env = CardrulesVecEnv("initiative", n_envs=2, workers=1)
    try:
        assert env.reset().shape[0] == 2
        assert env.worker_cpu_seconds() > 0
    finally:
        env.close()
    assert not any(p.is_alive() for p in env._processes)


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="n_envs"):
        CardrulesVecEnv("initiative", n_envs=0)
    with pytest.raises(ValueError, match="workers"):
        CardrulesVecEnv("initiative", n_envs=2, workers=3)
    with pytest.raises(Exception, match="no_such_game"):
        CardrulesVecEnv("no_such_game", n_envs=1, start_method="fork")


@pytest.mark.skipif(os.environ.get("CARDRULES_LONG") != "1", reason="long: set CARDRULES_LONG=1")
def test_long_training_beats_random():
    from interpreter import load
    from interpreter.agents import make_agent, play_out
    from interpreter.agents.policy import PolicyAgent

    env = CardrulesVecEnv("initiative", n_envs=4, workers=2, seed=0, opponents="random")
    model = MaskablePPO("MlpPolicy", env, n_steps=256, batch_size=256, seed=0, verbose=0).learn(40_000)
    env.close()
    path = os.path.join(os.environ.get("TMPDIR", "/tmp"), "cardrules_long_policy.zip")
    from interpreter.agents.policy import save_policy

    rules = load("initiative")
    save_policy(model, path, rules)
    wins = 0
    for seed in range(100):
        agent = PolicyAgent(seed=seed, path=path)
        seat = seed % 2 + 1
        agents = [agent, make_agent("random", seed=seed)] if seat == 1 else [make_agent("random", seed=seed), agent]
        game = rules.new_game(seed=seed)
        play_out(game, agents)
        wins += game.result.winner == seat
    assert wins >= 60


@pytest.mark.skipif(os.environ.get("CARDRULES_LONG") != "1", reason="long: set CARDRULES_LONG=1")
def test_the_training_example_runs_and_reports_intervals(tmp_path, capsys, monkeypatch):
    import importlib
    from pathlib import Path

    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[1] / "benchmarks"))
    module = importlib.import_module("train_ppo")  # (by name: its evaluation workers import it)
    out = tmp_path / "p.zip"
    assert module.main(["--cpu-seconds", "5", "--envs", "2", "--workers", "1", "--games", "4",
                        "--against", "random", "--out", str(out), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert out.is_file() and summary["training"]["cpu_seconds"] >= 5
    row = summary["against"]["random"]
    assert row["wins"] + row["losses"] + row["draws"] + row["unfinished"] == 4
    assert row["low"] <= row["win_rate"] <= row["high"]
