"""The OpenSpiel adapter (interpreter/envs/openspiel_game.py): OpenSpiel's own random simulation
test with serialization for every shipped game; 10,000 resamples per game, each with the
information state string and legal actions of the state it came from (ISMCTSBot's assertion);
ISMCTSBot beating a random player at Initiative; illegal actions; the parameters; the message
without the extra."""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import pickle
import random
import sys

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402
from playout import LONG  # noqa: E402

from interpreter import load  # noqa: E402
from interpreter.envs import ActionCatalogue, DecisionActions, register_openspiel  # noqa: E402
from interpreter.envs.encoding import fresh_count  # noqa: E402

GAMES = ("initiative", "lanes", "bases")
SIMS = {"initiative": 4, "lanes": 4, "bases": 2}
# per game, spread over random decision states: 10,000 in the long run (CARDRULES_LONG=1), a tenth in CI
RESAMPLES = 10_000 if os.environ.get("CARDRULES_LONG") == "1" else 1_000
RESAMPLES_PER_STATE = 50
ISMCTS_GAMES = 4
ISMCTS_SIMULATIONS = 10


def _game(name: str, **kwargs):
    return register_openspiel(name, **kwargs)


def _play_randomly(state, rng: random.Random, until=lambda s: False):
    """Random actions (chance included) until the state is over or `until(state)`."""
    while not state.is_terminal() and not until(state):
        if state.is_chance_node():
            outcomes = [a for a, _p in state.chance_outcomes()]
            state.apply_action(rng.choice(outcomes))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def _after_chance(game, rng: random.Random):
    return _play_randomly(game.new_initial_state(), rng, until=lambda s: not s.is_chance_node())


@pytest.mark.parametrize("name", GAMES)
def test_random_sim_test_with_serialization(name):
    game = _game(name)
    pyspiel.random_sim_test(game, num_sims=SIMS[name], serialize=True, verbose=False)


@pytest.mark.parametrize("name", GAMES)
def test_resampled_states_look_the_same_to_the_player(name):
    """At random decisions (some in the middle of a multi-part choice), every resample keeps the
    deciding player's information state string and legal actions; a resample for another player
    keeps theirs; some resamples are played on to an end."""
    game = _game(name)
    rng = random.Random(11)
    sampler = random.Random(12).random
    resamples = states = partial = 0
    while resamples < RESAMPLES:
        state = _after_chance(game, rng)
        while not state.is_terminal() and resamples < RESAMPLES:
            if rng.random() < 0.2:
                player = state.current_player()
                key = state.information_state_string(player)
                legal = state.legal_actions()
                states += 1
                partial += '"choosing"' in key
                for i in range(RESAMPLES_PER_STATE):
                    copy = state.resample_from_infostate(player, sampler if i else
                                                         pyspiel.UniformProbabilitySampler(0.0, 1.0))
                    assert copy.current_player() == player
                    assert copy.information_state_string(player) == key, f"{name}: {state}"
                    assert copy.legal_actions() == legal, f"{name}: {state}"
                    resamples += 1
                other = (player + 1) % game.num_players()
                copy = state.resample_from_infostate(other, sampler)
                assert copy.information_state_string(other) == state.information_state_string(other)
                if states % 10 == 0:
                    _play_randomly(copy, rng)
                    assert copy.is_terminal()
            state.apply_action(rng.choice(state.legal_actions()))
    assert states >= RESAMPLES // RESAMPLES_PER_STATE
    print(f"{name}: {resamples} resamples at {states} states ({partial} in a multi-part choice)")


@pytest.mark.skipif(not LONG, reason="a match of search against random: with CARDRULES_LONG=1")
def test_ismcts_beats_a_random_player_at_initiative(record_property):
    """ISMCTSBot (random rollouts, few simulations) against uniformly random play, seats
    alternating; everything seeded, the bot's resampling too, so the result is the same each run.
    The longer run: python benchmarks/envs_openspiel.py --ismcts-games 100."""
    game = _game("initiative")
    wins = 0
    for index in range(ISMCTS_GAMES):
        rs = np.random.RandomState(index)
        bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), uct_c=2.0,
                               max_simulations=ISMCTS_SIMULATIONS, random_state=rs)
        keys = random.Random(index)
        bot.set_resampler(lambda state, player, keys=keys: state.resample_from_infostate(player, keys.random))
        seat = index % 2
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(int(rs.randint(256)))
            elif state.current_player() == seat:
                state.apply_action(int(bot.step(state)))
            else:
                state.apply_action(int(rs.choice(state.legal_actions())))
        wins += state.returns()[seat] > 0
    rate = wins / ISMCTS_GAMES
    record_property("ismcts_win_rate", rate)
    print(f"ISMCTS ({ISMCTS_SIMULATIONS} simulations) vs random at Initiative: "
          f"{wins}/{ISMCTS_GAMES} = {rate:.2f}")
    assert wins > ISMCTS_GAMES / 2


def _snapshot(state) -> tuple:
    players = range(state.get_game().num_players())
    return (str(state), state.history(), state.legal_actions(), state.current_player(),
            [state.information_state_string(p) for p in players],
            [state.observation_tensor(p) for p in players])


def test_an_illegal_action_raises_and_changes_nothing():
    game = _game("initiative")
    rng = random.Random(3)
    state = _after_chance(game, rng)
    _play_randomly(state, rng, until=lambda s: len(s.history()) > 12 and len(s.legal_actions()) > 1)
    before = _snapshot(state)
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in state.legal_actions())
    for action in (illegal, game.num_distinct_actions() + 5):
        with pytest.raises(pyspiel.SpielError):
            state.apply_action(action)
        assert _snapshot(state) == before
    # a chance node of a game with a fixed seed has one outcome
    fixed = _game("initiative", seed=5).new_initial_state()
    outcome = fixed.chance_outcomes()[0][0]
    with pytest.raises(pyspiel.SpielError, match="chance outcome"):
        fixed.apply_action((outcome + 1) % 256)
    assert fixed.history() == []
    # an over game takes nothing
    over = _play_randomly(state.clone(), rng)
    with pytest.raises(pyspiel.SpielError, match="over"):
        over.apply_action(over.legal_actions()[0] if over.legal_actions() else 0)


def test_an_option_the_action_space_cannot_name_is_its_own_error():
    """More copies of a card than its ordinals: UnnamedOptionError (a SpielError), through C++ too."""
    from interpreter.envs.openspiel_game import UnnamedOptionError

    game = register_openspiel("initiative", copies={"Monster": 1, "Soldier": 1})
    rng = random.Random(2)
    with pytest.raises(UnnamedOptionError, match="copies"):
        for _ in range(100):
            _play_randomly(game.new_initial_state(), rng)


def test_a_fixed_seed_plays_the_game_of_the_raw_api():
    """`seed=N`: chance has one outcome per byte, and the game is `rules.new_game(seed=N)` with
    the options given as game parameters: the same observations at every step."""
    game = register_openspiel("initiative", options={"round_limit": 7}, seed=123456)
    assert str(game) == "cardrules_initiative(copies=,round_limit=7,seed=123456)"
    assert str(register_openspiel("initiative", copies={"Soldier": 40, "Monster": 64})) == \
        "cardrules_initiative(copies=Monster:64;Soldier:40,round_limit=100,seed=-1)"
    assert pyspiel.load_game(str(game)).get_parameters() == game.get_parameters()
    rules = load("initiative", {"round_limit": 7})
    catalogue = ActionCatalogue(rules)
    raw = rules.new_game(seed=123456, log=False)
    state = game.new_initial_state()
    while state.is_chance_node():
        (outcome, probability), = state.chance_outcomes()
        assert probability == 1.0
        state.apply_action(outcome)
    rng = random.Random(4)
    cursor = None
    while not state.is_terminal():
        for player in range(2):
            assert json.loads(state.observation_string(player)) == raw.observation(player + 1)
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
        cursor = cursor or DecisionActions(catalogue, raw)
        index = cursor.take(action)
        if index is not None:
            raw.apply(index)
            cursor = None
    assert raw.is_over and raw.result.turns <= 7
    winner = raw.result.winner
    expected = [0.0, 0.0] if winner is None else [1.0 if seat == winner else -1.0 for seat in (1, 2)]
    assert state.returns() == expected


def test_serialized_states_come_back_the_same():
    """Mid multi-part choice, and resampled: pickling and serialize_game_and_state give the same
    state (the engine's full JSON included)."""
    game = _game("initiative")
    rng = random.Random(8)
    found = []
    while len(found) < 4:  # two states in a multi-part choice, and a resample of each
        state = _play_randomly(_after_chance(game, rng), rng, until=lambda s: bool(s._core.prefix))
        if not state.is_terminal():
            found += [state, state.resample_from_infostate(state.current_player(), rng.random)]
    for state in found:
        for copy in (pickle.loads(pickle.dumps(state)),
                     pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1]):
            assert _snapshot(copy) == _snapshot(state)
            assert copy._core.game.to_json() == state._core.game.to_json()
            action = state.legal_actions()[0]
            after, copy_after = state.clone(), copy.clone()
            after.apply_action(action)
            copy_after.apply_action(action)
            assert _snapshot(after) == _snapshot(copy_after)


def test_information_state_json_holds_the_past_in_full():
    game = _game("lanes")
    rng = random.Random(5)
    state = _play_randomly(_after_chance(game, rng), rng, until=lambda s: len(s.history()) > 30)
    player = state.current_player()
    short = json.loads(state.information_state_string(player))
    whole = json.loads(state.information_state_json(player))
    assert short["now"] == whole["now"] and short["decisions"] == len(whole["decisions"]) > 0
    texts = "".join(json.dumps(d, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n"
                    for d in whole["decisions"])
    assert short["past"] == hashlib.sha256(texts.encode()).hexdigest()


def test_registering_twice_is_the_same_game():
    assert str(_game("lanes")) == str(_game("lanes"))
    assert "cardrules_lanes" in pyspiel.registered_names()


def test_without_the_extra_the_import_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    monkeypatch.delitem(sys.modules, "interpreter.envs.openspiel_game", raising=False)
    with pytest.raises(ImportError) as info:
        importlib.import_module("interpreter.envs.openspiel_game")
    assert str(info.value) == ("the OpenSpiel adapter needs the extra 'openspiel': "
                               "pip install 'cardrules[openspiel]'")


def test_an_unknown_ruleset_is_the_loaders_located_error():
    from interpreter.errors import CardrulesError

    with pytest.raises(CardrulesError, match="no_such_ruleset_here"):
        register_openspiel("no_such_ruleset_here")


@pytest.mark.parametrize("name", GAMES)
def test_the_information_state_tensor_is_a_function_of_the_information_state(name):
    """OpenSpiel's contract: a state and its resamples for a player (one information state string)
    give that player one information state tensor, and the observation tensor is its first part."""
    game = _game(name)
    assert game.get_type().provides_information_state_tensor
    size = game.observation_tensor_size()
    assert game.information_state_tensor_size() > size
    rng = random.Random(21)
    sampler = random.Random(22).random
    checked = 0
    while checked < 40:
        state = _after_chance(game, rng)
        while not state.is_terminal() and checked < 40:
            if rng.random() < 0.1:
                player = state.current_player()
                tensor = state.information_state_tensor(player)
                assert tensor[:size] == state.observation_tensor(player)
                for _ in range(3):
                    copy = state.resample_from_infostate(player, sampler)
                    assert copy.information_state_string(player) == state.information_state_string(player)
                    assert copy.information_state_tensor(player) == tensor, f"{name}: {state}"
                checked += 1
            state.apply_action(rng.choice(state.legal_actions()))


def test_the_information_state_tensor_remembers_the_players_own_actions():
    """The recall part: the player's last decisions, newest first: the site and number of the ids
    they took there, and what they took (the tensor was the observation tensor: it forgot)."""
    game = _game("lanes")
    rng = random.Random(3)
    state = _after_chance(game, rng)
    taken: dict[int, list[list[int]]] = {0: [], 1: []}
    current: list[int] = []
    while len(taken[0]) < 20:
        player = state.current_player()
        action = rng.choice(state.legal_actions())
        current.append(action)
        state.apply_action(action)
        if state.is_terminal():
            break
        if not state._core.prefix:
            taken[player].append(current)
            current = []
    player = 0
    assert state.information_state_tensor(player) != state.observation_tensor(player)
    tensor = np.asarray(state.information_state_tensor(player))
    spec = state._core.spec
    recall = spec.recall
    catalogue = spec.catalogue
    assert len(tensor) == recall.size
    for k, took in enumerate(reversed(taken[player][-recall.recall:])):
        part = tensor[recall.base + k * recall.width:recall.base + (k + 1) * recall.width]
        assert part[0] == 1.0
        assert list(np.flatnonzero(part[1:1 + recall.sites])) == [catalogue.site_of_action(took[0])]
        assert part[1 + recall.sites] == len(took)
        kinds = [catalogue.slot_of_action(a).kind for a in took]
        assert list(part[recall.at_kinds:recall.at_names]) == [kinds.count(k) for k in ("card", "ability", "player",
                                                                                         "value", "stop")]
    assert not tensor[recall.base + recall.recall * recall.width:].any()


def test_the_observation_tensor_is_read_from_the_state(monkeypatch):
    """The observation tensor is the reference encoding of the observation, and is made without
    building `game.observation` (the strings still build it)."""
    from interpreter.engine.game import Game

    game = _game("lanes")
    rng = random.Random(4)
    state = _after_chance(game, rng)
    real = Game.observation
    for _ in range(30):
        if state.is_terminal():
            break
        for player in range(game.num_players()):
            monkeypatch.setattr(Game, "observation", lambda *a, **k: pytest.fail("observation built"))
            tensor = state.observation_tensor(player)
            monkeypatch.setattr(Game, "observation", real)
            core = state._core
            seen = core.game.observation(player + 1)
            chain = core.seen[player]
            before = None if chain is None else chain.record.window()
            choosing = core.cursor().prefix if core.prefix and state.current_player() == player else ()
            expected = core.spec.encoding.encode_from_observation(seen, choosing, fresh_count(before, seen["seen"]))
            assert np.array_equal(np.asarray(tensor, dtype=np.float32), np.asarray(expected, dtype=np.float32))
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("name", ["hearts", "lanes"])
def test_the_observation_tensor_is_the_pettingzoo_observation(name):
    """The same game (a fixed seed) played with the same action ids through both adapters gives
    the acting player the same vector, the events witnessed since their last decision included
    (the OpenSpiel game told them from its records, read back from canonical JSON with the
    events' arguments in another order, and counted every event as new)."""
    pytest.importorskip("pettingzoo")
    from interpreter.envs.pettingzoo_aec import make_env

    game = _game(name, seed=3)
    env = make_env(name)
    env.reset(seed=3)
    rng = random.Random(3)
    state = _after_chance(game, rng)  # (one outcome each: the fixed seed)
    fresh_seen = 0
    for _ in range(120):
        if state.is_terminal():
            break
        player = state.current_player()
        agent = env.agent_selection
        assert agent == env.possible_agents[player]
        vector = env.observe(agent)["observation"]
        assert np.array_equal(np.asarray(state.observation_tensor(player), dtype=np.float32), vector)
        encoding = state._core.spec.encoding
        fresh_seen += sum(vector[encoding.events_at + k * encoding.event_width + 1] for k in range(encoding.event_count))
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
        env.step(action)
    assert fresh_seen > 0


def test_the_observation_tensor_shows_the_first_part_of_a_multi_part_choice():
    game = _game("initiative")
    rng = random.Random(8)
    state = _after_chance(game, rng)
    player = state.current_player()
    before = state.observation_tensor(player)
    state.apply_action(state.legal_actions()[0])  # the first of two cards
    assert state.current_player() == player and state._core.prefix
    after = state.observation_tensor(player)
    changed = [spec_label for i, spec_label in enumerate(state._core.spec.encoding.labels) if before[i] != after[i]]
    assert "choice in progress: parts taken" in changed
    assert any(label.endswith("taken as part N of the viewer's choice in progress") for label in changed)
