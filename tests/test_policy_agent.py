"""A saved policy as an agent (interpreter/agents/policy.py): `policy:PATH` in `cardrules simulate`
and `compare`, the same ids the environment's observation would give, and the files it refuses."""

from __future__ import annotations

import json
import random
import zipfile

import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("sb3_contrib")

import torch  # noqa: E402
from sb3_contrib import MaskablePPO  # noqa: E402

from interpreter import load  # noqa: E402
from interpreter.agents import AgentSpecError, make_agent, play_out, view_of  # noqa: E402
from interpreter.agents.policy import PolicyMismatchError, save_policy  # noqa: E402
from interpreter.cli.main import main  # noqa: E402
from interpreter.envs.gym_env import CardrulesGymEnv, option_actions  # noqa: E402
from interpreter.envs.pettingzoo_aec import make_env  # noqa: E402

torch.set_num_threads(1)


@pytest.fixture(scope="module")
def policy_file(tmp_path_factory):
    """A tiny MaskablePPO policy for Initiative, trained for 64 steps and saved with save_policy."""
    env = CardrulesGymEnv("initiative", seed=0)
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=64, n_epochs=1, seed=0,
                        policy_kwargs={"net_arch": [8]}, verbose=0)
    model.learn(64)
    return save_policy(model, tmp_path_factory.mktemp("policy") / "tiny", env.rules)


def test_the_file_names_its_ruleset_and_sizes(policy_file):
    assert policy_file.endswith("tiny.zip")
    with zipfile.ZipFile(policy_file) as archive:
        meta = json.loads(archive.read("cardrules.json"))
    env = make_env("initiative")
    assert meta == {"format": 1, "ruleset": "initiative", "options": {"round_limit": 100},
                    "observation_size": env.observation_space("player_1")["observation"].shape[0],
                    "action_size": env.action_space("player_1").n}


@pytest.mark.parametrize("pick", ["best", "sample"])
def test_simulate_plays_the_policy(policy_file, pick, capsys):
    argv = ["simulate", "initiative", "--games", "6", "--seed", "3", "--agents",
            f"policy:{policy_file},pick={pick},random", "--json"]
    code = main(argv)
    first = capsys.readouterr()
    assert code == 0, first.err
    summary = json.loads(first.out)
    assert summary["games"] == 6 and summary.get("aborted", 0) == 0, summary
    assert main(argv) == 0  # (the same seeds give the same games: the agent is seeded)
    again = json.loads(capsys.readouterr().out)
    timing = ("seconds", "games_per_s")
    assert {k: v for k, v in again.items() if k not in timing} == {k: v for k, v in summary.items() if k not in timing}


def test_compare_takes_the_policy_too(policy_file, capsys):
    code = main(["compare", "initiative", "--replace", "Sneak Attack=Twist Fate", "--games", "4", "--seed", "1",
                 "--agents", f"policy:{policy_file},greedy", "--json"])
    out = capsys.readouterr()
    assert code == 0, out.err
    assert json.loads(out.out)


def test_the_agent_takes_the_ids_the_environment_would_give_the_policy(policy_file):
    """At every decision of seat 1, the action ids of the agent's answer are those the policy
    picks from the PettingZoo environment's own observation and mask of the true game, one id at a
    time: the agent's copy drawn from its player's view encodes to the player's own vector."""
    agent = make_agent(f"policy:{policy_file}", seed=5)
    aec = make_env("initiative")
    opponent = make_agent("random", seed=1)
    compared = 0
    for seed in range(3):
        aec.reset(seed=seed)
        while not aec.game.is_over:
            if aec.agent_selection != "player_1":
                for action in option_actions(aec, opponent):
                    aec.step(action)
                continue
            for expected in list(option_actions(aec, agent)):
                observed = aec.observe("player_1")
                assert agent._choose(observed["observation"], observed["action_mask"]) == expected
                aec.step(expected)
                compared += 1
    assert compared > 20


def test_a_policy_for_another_game_is_refused_by_name(policy_file):
    rules = load("lanes")
    agents = [make_agent(f"policy:{policy_file}", seed=1), make_agent("random", seed=2)]
    with pytest.raises(PolicyMismatchError, match="trained on 'initiative', not 'lanes'"):
        play_out(rules.new_game(seed=1), agents)


def test_a_policy_of_other_sizes_is_refused_with_both(policy_file, tmp_path):
    bare = tmp_path / "bare.zip"
    with zipfile.ZipFile(policy_file) as source, zipfile.ZipFile(bare, "w") as target:
        for name in source.namelist():
            if name != "cardrules.json":
                target.writestr(name, source.read(name))
    agents = [make_agent(f"policy:{bare}", seed=1), make_agent("random", seed=2)]
    with pytest.raises(PolicyMismatchError, match=r"reads observations of shape \(\d+,\) and \d+ actions; lanes gives"):
        play_out(load("lanes").new_game(seed=1), agents)
    game = load("initiative").new_game(seed=2)  # (without the member, the right game is played)
    play_out(game, agents[:1] + [make_agent("random")])
    assert game.is_over


def test_missing_and_foreign_files_are_spec_errors(tmp_path, capsys):
    with pytest.raises(AgentSpecError, match="cannot read it"):
        make_agent(f"policy:{tmp_path / 'none.zip'}")
    text = tmp_path / "notes.zip"
    text.write_text("not a zip")
    with pytest.raises(AgentSpecError, match="not a Stable-Baselines3 model file"):
        make_agent(f"policy:{text}")
    with pytest.raises(AgentSpecError, match="needs its file"):
        make_agent("policy")
    with pytest.raises(AgentSpecError, match="pick is one of best, sample|pick.*best, sample"):
        make_agent(f"policy:{text},pick=worst")
    code = main(["simulate", "initiative", "--games", "1", "--agents", f"policy:{tmp_path / 'none.zip'},random"])
    assert code == 2 and "cannot read it" in capsys.readouterr().err


def test_the_policy_sees_no_more_than_its_player(policy_file):
    """Two games that differ only in what seat 1 cannot see get the same answers from it."""
    rules = load("initiative")
    agent_a = make_agent(f"policy:{policy_file},pick=sample", seed=9)
    agent_b = make_agent(f"policy:{policy_file},pick=sample", seed=9)
    game = rules.new_game(seed=4)
    while game.decision()[0] != 1:
        game.apply(0)
    hidden = game.determinize(1, random.Random(3))
    assert game.observation(1) == hidden.observation(1)
    assert agent_a.act(view_of(game)) == agent_b.act(view_of(hidden))


def test_the_browser_table_lets_the_policy_play(policy_file):
    """`cardrules serve --players policy:PATH,...`: the table's session asks the agent as any other."""
    from interpreter.server.table import TableSession

    spec = f"policy:{policy_file}"
    session = TableSession(load("initiative"), 6, [spec, "random"], [make_agent(spec, seed=1), make_agent("random")])
    session.advance()
    assert session.failure is None and session.game.is_over
    assert any(entry[0] == "decision" and entry[1] == 1 for entry in session.game.state.log_entries)


def test_a_saved_policy_is_an_opponent_of_the_gym_env(policy_file):
    from interpreter.agents.policy import PolicyAgent

    env = CardrulesGymEnv("initiative", opponents=f"policy:{policy_file}", seed=2)
    _obs, info = env.reset()
    assert isinstance(env.opponents[3 - info["seat"]], PolicyAgent)
    while True:
        action = int(next(iter(env.action_masks().nonzero()[0])))
        _obs, _reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break
    assert info["result"]["winner"] in ("player_1", "player_2")
