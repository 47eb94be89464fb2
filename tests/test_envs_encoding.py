"""The observation encoding carries the state (interpreter/envs/encoding.py, docs/envs.md): a
visible card's attributes in its slot (a change of damage changes the vector), the player's
choice in progress, the events witnessed since their last decision; every index is named, and
`cardrules envs describe` prints them."""

from __future__ import annotations

import copy
import random

import pytest

from interpreter import load
from interpreter.cli.main import main
from interpreter.envs import ObservationEncoding
from interpreter.envs.encoding import fresh_count

GAMES = ("lanes", "initiative", "bases", "hearts", "harvest")


def _slot_entry(encoding: ObservationEncoding, owner: str, label: str, viewer: int, k: int, what: str) -> int:
    """The index of entry `what` of the k-th slot (0-based) of a zone of an observation."""
    name, _, row = label.partition(".")
    relation = None if owner == "shared" else (int(owner[1:]) - viewer) % encoding.players
    where = f"{name}{'.' + row if row else ''} ({'shared' if relation is None else f'seat +{relation}'})"
    suffix = f" ({where} #{k + 1}): {what}"
    found = [i for i in range(encoding.slots_at, encoding.players_at) if encoding.labels[i].endswith(suffix)]
    assert len(found) == 1, suffix
    return found[0]


@pytest.mark.parametrize("game", ["lanes", "bases"])
def test_the_vector_changes_when_a_visible_cards_damage_changes(game):
    """Between two looks of a player, a card they see took damage: its slot holds the new damage,
    and the vector differs from the one of the same observation with the old damage."""
    rules = load(game)
    encoding = ObservationEncoding(rules)
    changes = 0
    for seed in range(40):
        g = rules.new_game(seed=seed, log=False)
        rng = random.Random(seed)
        damage: dict[int, int] = {}
        while not g.is_over and changes < 6:
            observation = g.observation(1)
            vector = encoding.encode_from_observation(observation)
            for owner, zones in observation["zones"].items():
                for label, content in zones.items():
                    if not isinstance(content, list):
                        continue
                    for k, card in enumerate(content[:8]):  # (every zone has 8 slots or more by default)
                        if "damage" not in card:
                            continue
                        before = damage.get(card["id"])
                        damage[card["id"]] = card["damage"]
                        if before is None or before == card["damage"]:
                            continue
                        changes += 1
                        older = copy.deepcopy(observation)
                        older["zones"][owner][label][k]["damage"] = before
                        differ = [i for i, (a, b) in enumerate(zip(vector, encoding.encode_from_observation(older))) if a != b]
                        assert len(differ) == 1, f"seed {seed}: {card['name']} took damage, entries changed: {differ}"
                        assert differ == [_slot_entry(encoding, owner, label, 1, k, "damage")]
                        assert vector[differ[0]] == card["damage"]
            g.apply(rng.randrange(len(g.decision()[1])))
        if changes >= 6:
            break
    assert changes >= 6, f"{game}: only {changes} changes of damage met"


@pytest.mark.parametrize("game", GAMES)
def test_every_index_is_named_once_and_the_layout_is_fixed(game):
    encoding = ObservationEncoding(load(game))
    assert len(encoding.labels) == encoding.size == len(set(encoding.labels))
    sections = encoding.sections()
    assert sections[0][1] == 0 and sections[-1][2] == encoding.size
    assert all(a[2] == b[1] for a, b in zip(sections, sections[1:]))


def test_fresh_count_aligns_two_windows_of_events():
    def ev(name, n):
        return {"event": name, "args": {"player": "P1", "amount": n}}

    before = [ev("a", 1), ev("b", 2), ev("c", 3)]
    assert fresh_count(None, before) == 3
    assert fresh_count(before, before) == 0
    assert fresh_count(before, [ev("b", 2), ev("c", 3), ev("d", 4), ev("e", 5)]) == 2
    assert fresh_count(before, [ev("x", 9)]) == 1
    masked = [{"event": "c", "args": {"player": "P1", "amount": 3, "card": {"card": "hidden"}}}]
    seen = [{"event": "c", "args": {"player": "P1", "amount": 3, "card": {"card": 7, "name": "X"}}}]
    assert fresh_count(seen, masked + [ev("d", 4)]) == 1  # (a card's masking is not the event)


def test_envs_describe_prints_every_index(capsys):
    assert main(["envs", "describe", "initiative"]) == 0
    out = capsys.readouterr().out
    encoding = ObservationEncoding(load("initiative"))
    lines = out.splitlines()
    assert lines[0].startswith(f"initiative: observation vector of {encoding.size:,} entries")
    assert lines[-1].split(None, 1) == [str(encoding.size - 1), encoding.labels[-1]]
    width = len(str(encoding.size - 1))
    assert f"{encoding.slots_at:>{width}}  {encoding.labels[encoding.slots_at]}" in lines
    assert main(["envs", "describe", "initiative", "--slots", "discard=0", "--sections"]) == 0
    assert "card slots (144 of" in capsys.readouterr().out
    assert main(["envs", "describe", "initiative", "--slots", "dscard=2"]) == 2
    assert "'dscard' is not a zone of initiative" in capsys.readouterr().err


@pytest.mark.parametrize("game", ["initiative", "lanes", "bases"])
def test_the_vector_changes_when_the_first_part_of_a_multi_part_choice_is_made(game):
    """The first element of a choice of several parts marks the card taken (its slot) and the
    parts taken: the agent picks the next one seeing the first (the vector was the same)."""
    np = pytest.importorskip("numpy")
    from interpreter.envs.pettingzoo_aec import make_env

    env = make_env(game)
    met = 0
    for seed in range(30):
        env.reset(seed=seed)
        rng = random.Random(seed)
        while not env.game.is_over and met < 3:
            agent = env.agent_selection
            legal = [int(a) for a in np.flatnonzero(env.action_mask(agent))]
            action = rng.choice(legal)
            started = env._current_actions().prefix == []
            before = env.observe(agent)["observation"].copy()
            env.step(action)
            if started and env._actions is not None and env._actions.prefix and env.agent_selection == agent:
                met += 1
                after = env.observe(agent)["observation"]
                changed = [env.encoding.labels[i] for i in np.flatnonzero(before != after)]
                element = env._actions.prefix[0]
                assert "choice in progress: parts taken" in changed
                if hasattr(element, "defn"):
                    assert any(label.endswith("taken as part N of the viewer's choice in progress")
                               for label in changed), changed
                assert len(changed) <= 3, changed  # (and the player or value taken)
        if met >= 3:
            break
    assert met >= 1, f"{game}: no choice of several parts met"
