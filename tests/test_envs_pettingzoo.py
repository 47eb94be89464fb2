"""The PettingZoo adapter (interpreter/envs/pettingzoo_aec.py): PettingZoo's own API and seed
tests on every shipped ruleset, masked random games that never meet an illegal move and end with
zero-sum rewards, both ways of meeting an illegal action (refused with nothing changed, or a
loss for the offender with the turn order intact), the observation as the encoding of what the
player may see, and the message when the extra is missing."""

from __future__ import annotations

import importlib
import random
import sys
import warnings

import pytest

pytest.importorskip("pettingzoo")

import numpy as np  # noqa: E402  (after the skip: numpy comes with the extra)
from pettingzoo.test import api_test, seed_test  # noqa: E402
from playout import examples  # noqa: E402  (tests/helpers: the suite plays a tenth of the long run)

from interpreter import CardrulesError, load  # noqa: E402
from interpreter.envs import ActionSpaceError, ObservationEncoding, pettingzoo_env  # noqa: E402
from interpreter.envs.pettingzoo_aec import EnvFinishedError, IllegalActionError, make_env  # noqa: E402

GAMES = ("initiative", "lanes", "bases")
# agent_iter steps of the API and seed tests: 2 * cycles, enough for a whole random game of each
# (the games written later, four seats and a player range, pass PettingZoo's own tests too)
LATER_GAMES = ("hearts", "harvest", "spades", "expedition")
CYCLES = {"initiative": 100, "lanes": 100, "bases": 300, "hearts": 200, "harvest": 200, "spades": 200,
          "expedition": 100}
RANDOM_GAMES = examples(200, share=20)  # 10 in CI, 200 in the long run (CARDRULES_LONG=1)
MISSING_EXTRA = "the PettingZoo adapter needs the extra 'pettingzoo': pip install 'cardrules[pettingzoo]'"


def _legal(env) -> list[int]:
    return [int(a) for a in np.flatnonzero(env.action_mask(env.agent_selection))]


def _play_to(env, rng: random.Random, stop) -> None:
    """Masked random steps until `stop(env)` holds (the game must not end first)."""
    while not stop(env):
        assert not env.terminations[env.agent_selection], "the game ended before the state looked for"
        env.step(rng.choice(_legal(env)))


def _finish_game(env, rng: random.Random) -> dict[str, float]:
    """Plays the game to its end with masked random actions, and every agent's last step; the
    reward each agent got from its last `last()`."""
    final: dict[str, float] = {}
    for agent in env.agent_iter():
        _obs, reward, terminated, truncated, _info = env.last(observe=False)
        assert not truncated
        if terminated:
            final[agent] = reward
            env.step(None)
        else:
            env.step(rng.choice(_legal(env)))
    return final


@pytest.mark.parametrize("game", GAMES + LATER_GAMES)
def test_pettingzoo_api_test(game):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (its advice for array observations: ours is the classic dict)
        api_test(make_env(game, seed=1), num_cycles=CYCLES[game])


@pytest.mark.parametrize("game", GAMES + LATER_GAMES)
def test_pettingzoo_seed_test(game):
    seed_test(lambda: make_env(game), num_cycles=CYCLES[game])


@pytest.mark.parametrize("game", GAMES + LATER_GAMES)
def test_the_spaces_are_the_catalogue_and_the_encoding(game):
    env = make_env(game)
    rules = load(game)
    assert env.possible_agents == [f"player_{k}" for k in range(1, rules.player_count + 1)]
    assert env.metadata["name"] == f"cardrules_{game}_v0"
    for agent in env.possible_agents:
        assert env.action_space(agent).n == env.catalogue.size
        space = env.observation_space(agent)
        assert space["observation"].shape == (ObservationEncoding(rules).size,)
        assert space["observation"].dtype == np.float32
        assert space["action_mask"].shape == (env.catalogue.size,) and space["action_mask"].dtype == np.int8


@pytest.mark.parametrize("game", GAMES)
def test_masked_random_games_meet_no_illegal_move_and_end_zero_sum(game):
    env = make_env(game, seed=11)  # illegal="raise": an illegal move would fail the test
    rng = random.Random(5)
    for n in range(RANDOM_GAMES):
        env.reset()
        steps = 0
        final: dict[str, float] = {}
        for agent in env.agent_iter():
            if env.terminations[agent]:
                final[agent] = env.last(observe=False)[1]
                env.step(None)
                continue
            mask = env.action_mask(agent)
            assert mask.any(), f"game {n}: {agent} must act with an empty mask"
            if steps % 25 == 0:  # the mask of `observe` is the same (checked now and then: it costs)
                assert np.array_equal(env.observe(agent)["action_mask"], mask)
                other = next(a for a in env.agents if a != agent)
                assert not env.observe(other)["action_mask"].any()
            env.step(rng.choice([int(a) for a in np.flatnonzero(mask)]))
            steps += 1
        assert env.game.is_over and env.agents == []
        assert set(final) == set(env.possible_agents) and sum(final.values()) == 0, f"game {n}: {final}"


@pytest.mark.parametrize("game", GAMES)
def test_final_rewards_follow_the_result(game):
    env = make_env(game, seed=3)
    rng = random.Random(3)
    for _ in range(5):
        env.reset()
        final = _finish_game(env, rng)
        assert set(final) == set(env.possible_agents)
        assert sum(final.values()) == 0
        winner = env.game.result.winner
        for agent, reward in final.items():
            expected = 0.0 if winner is None else (1.0 if agent == f"player_{winner}" else -1.0)
            assert reward == expected


def test_result_in_infos_at_the_end():
    env = make_env("initiative", seed=2)
    env.reset(seed=2)
    rng = random.Random(2)
    _play_to(env, rng, lambda e: all(e.terminations.values()) or e.game.is_over)
    winner = env.game.result.winner
    for agent in env.agents:
        assert env.terminations[agent] and not env.truncations[agent]
        assert env.infos[agent]["result"]["winner"] == (None if winner is None else f"player_{winner}")
        assert env.infos[agent]["result"]["reason"] == env.game.result.reason
        assert not env.observe(agent)["action_mask"].any()


def test_a_choice_of_several_parts_keeps_the_same_agent_to_act():
    env = make_env("initiative")
    env.reset(seed=4)
    agent = env.agent_selection
    start = env.game.to_json()
    env.step(_legal(env)[0])  # the first of two cards: the game waits for the second
    assert env.agent_selection == agent and env.game.to_json() == start
    assert all(r == 0 for r in env.rewards.values())
    env.step(_legal(env)[0])  # the second: the option is complete and taken
    assert env.game.to_json() != start


def _illegal_id(env) -> int:
    legal = set(_legal(env))
    return next(a for a in range(env.catalogue.size) if a not in legal)


@pytest.mark.parametrize("game", GAMES)
def test_an_illegal_action_raises_and_changes_nothing(game):
    env = make_env(game)
    env.reset(seed=9)
    rng = random.Random(9)
    _play_to(env, rng, lambda e: e.agent_selection == "player_2")
    agent = env.agent_selection
    before = env.observe(agent)
    state = env.game.to_json()
    rewards = dict(env._cumulative_rewards)
    for bad in (_illegal_id(env), env.catalogue.size, -1, None, 1.5, "0"):
        with pytest.raises(IllegalActionError, match="is not legal now") as caught:
            env.step(bad)
        assert isinstance(caught.value, ActionSpaceError) and isinstance(caught.value, ValueError)
        assert env.agent_selection == agent
        after = env.observe(agent)
        assert np.array_equal(after["observation"], before["observation"])
        assert np.array_equal(after["action_mask"], before["action_mask"])
        assert env.game.to_json() == state
        assert env._cumulative_rewards == rewards
        assert not any(env.terminations.values())
    env.step(_legal(env)[0])  # play goes on
    assert _finish_game(env, rng)


def test_an_illegal_part_of_a_choice_keeps_the_parts_taken():
    env = make_env("initiative")
    env.reset(seed=4)
    agent = env.agent_selection
    env.step(_legal(env)[0])
    mask = env.action_mask(agent)
    with pytest.raises(IllegalActionError):
        env.step(_illegal_id(env))
    assert env.agent_selection == agent and np.array_equal(env.action_mask(agent), mask)


@pytest.mark.parametrize("offender", ["player_2", "player_1"])
def test_penalize_ends_the_game_as_a_loss_for_the_offender(offender):
    env = make_env("lanes", illegal="penalize")
    env.reset(seed=6)
    rng = random.Random(6)
    _play_to(env, rng, lambda e: e.agent_selection == offender and e.game.observation(1)["turn"] >= 2)
    env.step(_illegal_id(env))
    assert all(env.terminations.values()) and not any(env.truncations.values())
    assert env.rewards[offender] == -1 and all(r == 0 for a, r in env.rewards.items() if a != offender)
    for agent in env.agents:
        assert env.infos[agent]["result"]["illegal"] == offender
        assert env.infos[agent]["result"]["winner"] is None
    # the dead steps: each agent once, in the agents' order, the offender seeing its -1
    seen = []
    for agent in env.agent_iter():
        _obs, reward, terminated, _truncated, _info = env.last()
        assert terminated
        assert reward == (-1 if agent == offender else 0)
        seen.append(agent)
        env.step(None)
    assert seen == env.possible_agents and env.agents == []
    with pytest.raises(EnvFinishedError):
        env.step(0)
    # the next game starts as a new environment's would, and goes the same way
    assert _trajectory(env, 8) == _trajectory(make_env("lanes"), 8)


def _trajectory(env, seed: int) -> list[tuple]:
    """A masked random game from reset(seed): each step's agent, observation, reward and flags."""
    env.reset(seed=seed)
    assert env.agents == env.possible_agents
    rng = random.Random(seed)
    steps = []
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _info = env.last()
        steps.append((agent, observation["observation"].tobytes(), reward, terminated, truncated))
        env.step(None if terminated else rng.choice(_legal(env)))
    return steps


def test_a_finished_game_refuses_steps():
    env = make_env("initiative")
    with pytest.raises(EnvFinishedError, match="reset"):
        env.step(0)
    env.reset(seed=1)
    _finish_game(env, random.Random(1))
    for action in (0, None):
        with pytest.raises(EnvFinishedError, match="the game is over"):
            env.step(action)


def test_a_terminated_agent_may_only_step_none():
    env = make_env("initiative")
    env.reset(seed=1)
    rng = random.Random(1)
    _play_to(env, rng, lambda e: e.terminations[e.agent_selection])
    with pytest.raises(ValueError, match="only valid action is None"):
        env.step(0)


@pytest.mark.parametrize("game", GAMES)
def test_the_observation_is_the_encoding_of_what_the_player_may_see(game):
    env = make_env(game)
    rules = load(game)
    encoding = ObservationEncoding(rules)
    env.reset(seed=12)
    rng = random.Random(12)
    for step in range(60):
        if env.game.is_over:
            break
        for seat, agent in enumerate(env.possible_agents, start=1):
            seen = env.game.observation(seat)
            assert env.structured_observation(agent) == seen
            vector = env.observe(agent)["observation"]
            context = env.encoding_context(agent)
            assert np.array_equal(vector, np.asarray(encoding.encode_from_observation(seen, **context),
                                                     dtype=np.float32))
            if step % 10 == 0:  # a game that differs from this one only in what the agent may not see
                true_game = env.game
                env.game = true_game.determinize(seat, random.Random(step))
                assert np.array_equal(env.observe(agent)["observation"], vector)
                env.game = true_game
        env.step(rng.choice(_legal(env)))


def test_reset_seeds():
    a, b = make_env("lanes", seed=5), make_env("lanes", seed=5)
    for _ in range(3):  # no seed: each game's seed is drawn from the generator seeded at construction
        a.reset()
        b.reset()
        assert np.array_equal(a.observe(a.agent_selection)["observation"], b.observe(b.agent_selection)["observation"])
    a.reset(seed=3)
    b.reset(seed=3)
    a.reset()
    b.reset()
    assert a.game.to_json() == b.game.to_json()


def test_render():
    env = make_env("initiative", render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str) and f"{env.agent_selection} to decide" in text and "hidden" in text
    _finish_game(env, random.Random(1))
    assert "game over" in env.render()
    env.close()
    quiet = make_env("initiative")
    quiet.reset(seed=1)
    with pytest.warns(UserWarning, match="without specifying any render mode"):
        assert quiet.render() is None


def test_wrong_parameters_and_unknown_rulesets():
    with pytest.raises(CardrulesError):
        make_env("no_such_ruleset_here")
    with pytest.raises(CardrulesError):
        pettingzoo_env("no_such_ruleset_here")
    with pytest.raises(ValueError, match="illegal"):
        make_env("initiative", illegal="ignore")
    with pytest.raises(ValueError, match="reward"):
        make_env("initiative", reward="evaluate")
    with pytest.raises(ValueError, match="render_mode"):
        make_env("initiative", render_mode="rgb_array")


def test_without_the_extra_the_import_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "pettingzoo", None)
    monkeypatch.delitem(sys.modules, "interpreter.envs.pettingzoo_aec")
    with pytest.raises(ImportError) as caught:
        importlib.import_module("interpreter.envs.pettingzoo_aec")
    assert str(caught.value) == MISSING_EXTRA
    with pytest.raises(ImportError, match="pip install 'cardrules\\[pettingzoo\\]'"):
        pettingzoo_env("initiative")


def test_a_ruleset_declared_reward_is_what_each_player_gets(tmp_path):
    """`reward: "p.health - opponent(p).health"` in a copy of Initiative: the margin, not +-1."""
    import shutil

    from interpreter import paths

    ruleset = paths.ruleset_path("initiative")
    shutil.copytree(ruleset.parent, tmp_path / "rulesets" / "initiative")
    shutil.copytree(paths.cards_dir() / "initiative", tmp_path / "cards" / "initiative")
    copy = tmp_path / "rulesets" / "initiative" / ruleset.name
    copy.write_text(copy.read_text(encoding="utf-8") + '\nreward: "p.health - opponent(p).health"\n', encoding="utf-8")
    for scheme in ("rules", "win"):
        env = make_env(str(copy), seed=3, reward=scheme)
        env.reset(seed=3)
        rng = np.random.default_rng(3)
        totals = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            observation, reward, termination, truncation, _info = env.last()
            totals[agent] += reward
            if termination or truncation:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        health = [env.game.state.player_attrs[i]["health"] for i in range(2)]
        if scheme == "rules":
            assert totals == {"player_1": health[0] - health[1], "player_2": health[1] - health[0]}
        else:
            assert sorted(totals.values()) in ([-1.0, 1.0], [0.0, 0.0])


@pytest.mark.parametrize("game", ["lanes", "bases"])
def test_the_acting_agents_info_holds_its_legal_ids_sparse(game):
    env = make_env(game)
    env.reset(seed=5)
    rng = random.Random(5)
    for _ in range(150):
        if env.game.is_over:
            break
        acting = env.agent_selection
        for agent in env.agents:
            ids = env.infos[agent]["legal_actions"]
            assert ids.dtype == np.int64
            assert list(ids) == (_legal(env) if agent == acting else [])
        _obs, _reward, _term, _trunc, info = env.last(observe=False)
        env.step(int(rng.choice(info["legal_actions"])))


def test_the_mask_and_the_vector_are_made_once_per_decision_and_read_only():
    env = make_env("initiative")
    env.reset(seed=4)
    agent = env.agent_selection
    first = env.observe(agent)
    again = env.observe(agent)
    assert again["action_mask"] is first["action_mask"] and again["observation"] is first["observation"]
    with pytest.raises(ValueError, match="read-only"):
        first["action_mask"][0] = 1
    env.step(_legal(env)[0])  # the first part of a choice: a new mask and vector, the old ones kept as they were
    after = env.observe(agent)
    assert after["action_mask"] is not first["action_mask"] and after["observation"] is not first["observation"]
    assert not np.array_equal(after["observation"], first["observation"])


@pytest.mark.parametrize("game", ["bases", "hearts"])
def test_the_vector_is_read_from_the_state_without_building_the_observation(game, monkeypatch):
    """Steps of a self-play environment (every agent encoded, their fresh events counted) never
    build `game.observation` (issue 34: building it was most of a step's cost), and give the
    vectors the reference encoding of that observation gives."""
    from interpreter.engine.game import Game

    env = make_env(game)
    reference = make_env(game)
    built = []
    real = Game.observation
    env.reset(seed=5)
    reference.reset(seed=5)
    rng = random.Random(5)
    for _ in range(60):
        if env.game.is_over:
            break
        monkeypatch.setattr(Game, "observation", lambda self, *a, **k: (built.append(1), real(self, *a, **k))[1])
        observation, _reward, _terminated, _truncated, info = env.last()
        monkeypatch.setattr(Game, "observation", real)
        agent = env.agent_selection
        seen = env.game.observation(env.possible_agents.index(agent) + 1)
        expected = reference.encoding.encode_from_observation(seen, **env.encoding_context(agent))
        assert np.array_equal(observation["observation"], np.asarray(expected, dtype=np.float32))
        action = int(info["legal_actions"][rng.randrange(len(info["legal_actions"]))])
        monkeypatch.setattr(Game, "observation", lambda self, *a, **k: (built.append(1), real(self, *a, **k))[1])
        env.step(action)
        monkeypatch.setattr(Game, "observation", real)
        reference.step(action)
    assert built == [], f"game.observation was built {len(built)} times"


def test_seats_that_do_not_learn_are_not_encoded(monkeypatch):
    learner = make_env("lanes", learners=["player_1"])
    full = make_env("lanes")
    calls: list[int] = []
    encode = learner.encoding.encode_state_into
    monkeypatch.setattr(learner.encoding, "encode_state_into",
                        lambda game, seat, *a, **k: (calls.append(seat), encode(game, seat, *a, **k)))
    learner.reset(seed=3)
    full.reset(seed=3)
    rng = random.Random(3)
    for _ in range(80):
        if learner.game.is_over:
            break
        for agent in learner.possible_agents:
            mine, theirs = learner.observe(agent), full.observe(agent)
            assert np.array_equal(mine["action_mask"], theirs["action_mask"])
            if agent == "player_1":
                assert np.array_equal(mine["observation"], theirs["observation"])
            else:
                assert not mine["observation"].any()
        action = rng.choice(_legal(learner))
        learner.step(action)
        full.step(action)
    assert calls and set(calls) == {1}
    with pytest.raises(ValueError, match="'player_9' is not an agent"):
        make_env("lanes", learners=["player_9"])


def test_importing_the_environments_module_leaves_the_function_of_its_package():
    # the module was named pettingzoo_env, as the function: importing it replaced the package's
    # function by the module (`from interpreter.envs import pettingzoo_env` then gave a module)
    import interpreter.envs
    import interpreter.envs.pettingzoo_aec  # noqa: F401

    assert interpreter.envs.pettingzoo_env is pettingzoo_env and callable(pettingzoo_env)
