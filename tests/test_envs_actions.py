"""The fixed action space and observation encoding (interpreter/envs): over thousands of random
decisions of every shipped ruleset, every legal option is reached by exactly one sequence of
action ids, distinct options by distinct sequences, and the encoding reads nothing the player
may not see."""

from __future__ import annotations

import copy
import random

import pytest

from interpreter import load
from interpreter.envs import ActionCatalogue, ActionSpaceError, DecisionActions, ObservationEncoding
from interpreter.envs.actions import STOP

GAMES = ("lanes", "initiative", "bases")
PATH_GAMES = (*GAMES, "hearts", "harvest")  # (the ids of every site of every shipped game)
DECISIONS = 5000


def _paths(actions: DecisionActions) -> dict[int, list[tuple[int, ...]]]:
    """Every sequence of action ids that completes the decision, by the option it gives."""
    found: dict[int, list[tuple[int, ...]]] = {}

    def walk(state: DecisionActions, taken: tuple[int, ...]) -> None:
        for action in list(state.legal()):
            branch = copy.copy(state)
            branch.prefix = list(state.prefix)
            branch._legal = None
            index = branch.take(action)
            if index is None:
                walk(branch, taken + (action,))
            else:
                found.setdefault(index, []).append(taken + (action,))

    walk(actions, ())
    return found


@pytest.mark.parametrize("game", PATH_GAMES)
def test_every_option_has_exactly_one_action_path(game):
    rules = load(game)
    catalogue = ActionCatalogue(rules)
    rng = random.Random(7)
    decisions = seed = 0
    while decisions < DECISIONS:
        g = rules.new_game(seed=seed, log=False)
        seed += 1
        while not g.is_over and decisions < DECISIONS:
            actions = DecisionActions(catalogue, g)
            paths = _paths(actions)
            _seat, options = g.decision()
            assert sorted(paths) == list(range(len(options))), f"seed {seed - 1}: options without a path"
            assert all(len(p) == 1 for p in paths.values()), f"seed {seed - 1}: an option with two paths"
            firsts = [p[0][0] for p in paths.values()]
            assert all(0 <= a < catalogue.size for a in firsts)
            single = [p[0] for p in paths.values() if len(p[0]) == 1]
            assert len(set(single)) == len(single)  # distinct options, distinct ids
            decisions += 1
            g.apply(rng.randrange(len(options)))


def test_the_same_kind_of_move_has_the_same_id_in_another_state():
    rules = load("initiative")
    catalogue = ActionCatalogue(rules)
    seen: dict[int, set[str]] = {}
    for seed in range(20):
        g = rules.new_game(seed=seed, log=False)
        rng = random.Random(seed)
        while not g.is_over:
            actions = DecisionActions(catalogue, g)
            for action, element in actions.legal().items():
                if element is not STOP and hasattr(element, "defn"):
                    seen.setdefault(action, set()).add(element.defn.name)
            g.apply(rng.randrange(len(g.decision()[1])))
    assert seen and all(len(names) == 1 for names in seen.values())  # one id, one card name


def test_an_illegal_action_is_refused_and_changes_nothing():
    rules = load("bases")
    catalogue = ActionCatalogue(rules)
    g = rules.new_game(seed=3)
    actions = DecisionActions(catalogue, g)
    illegal = next(a for a in range(catalogue.size) if a not in actions.legal())
    before = g.to_json()
    with pytest.raises(ActionSpaceError, match="is not legal now"):
        actions.take(illegal)
    assert actions.prefix == [] and g.to_json() == before


@pytest.mark.parametrize("game", GAMES)
def test_the_encoding_is_fixed_and_reads_only_what_the_player_may_see(game):
    """The vector (read from the state, as the adapters read it) of a game and of a copy with
    everything the player may not see drawn anew are the same."""
    rules = load(game)
    encoding = ObservationEncoding(rules)
    for seed in range(3):
        g = rules.new_game(seed=seed, log=False)
        rng = random.Random(seed)
        while not g.is_over:
            for viewer in (1, 2):
                vector = encoding.encode_game(g, viewer)
                assert len(vector) == encoding.size
                copy_ = g.determinize(viewer, random.Random(seed))  # the unseen drawn anew
                assert encoding.encode_game(copy_, viewer) == vector
            g.apply(rng.randrange(len(g.decision()[1])))


@pytest.mark.parametrize("game", GAMES)
def test_a_saved_and_resumed_game_keeps_its_action_ids(game):
    """A resumed game's decision keeps its site (it was lost: every action id changed)."""
    from interpreter import load_game_json

    rules = load(game)
    catalogue = ActionCatalogue(rules)
    g = rules.new_game(seed=4, log=False)
    rng = random.Random(4)
    for _ in range(60):
        if g.is_over:
            break
        resumed = load_game_json(g.to_json(), rules)
        assert sorted(DecisionActions(catalogue, resumed).legal()) == sorted(DecisionActions(catalogue, g).legal())
        assert resumed.observation(1) == g.observation(1)
        g.apply(rng.randrange(len(g.decision()[1])))


def test_a_reward_expression_is_checked_at_load_and_given_for_a_finished_game(tmp_path):
    import shutil

    from interpreter import paths
    from interpreter.errors import CardrulesError

    ruleset = paths.ruleset_path("initiative")
    shutil.copytree(ruleset.parent, tmp_path / "rulesets" / "initiative")
    shutil.copytree(paths.cards_dir() / "initiative", tmp_path / "cards" / "initiative")
    copy = tmp_path / "rulesets" / "initiative" / ruleset.name
    text = copy.read_text(encoding="utf-8")
    copy.write_text(text + 'reward: "p.helth"\n', encoding="utf-8")
    line = len(copy.read_text(encoding="utf-8").splitlines())
    with pytest.raises(CardrulesError, match=f"{copy}:{line}:.*helth.*did you mean 'health'"):
        load(copy)
    copy.write_text(text + 'reward: "p.health * 2"\n', encoding="utf-8")
    rules = load(copy)
    g = rules.new_game(seed=1, log=False)
    with pytest.raises(ValueError, match="only when it is over"):
        rules.reward(g, 1)
    rng = random.Random(1)
    while not g.is_over:
        g.apply(rng.randrange(len(g.decision()[1])))
    assert rules.reward(g, 1) == 2 * g.state.player_attrs[0]["health"]
    assert load("initiative").reward(g, g.result.winner or 1) in (0.0, 1.0)


def test_a_site_has_ids_only_for_what_its_code_can_offer():
    """Lanes' `choose from ["upper", "lower"]` has two ids, its card sites no player or value ids,
    its 'a card to play' (cards + labelled "done") the cards and "done"; STOP only where a choice
    has several parts; a decision from no `choose` keeps every id."""
    rules = load("lanes")
    catalogue = ActionCatalogue(rules)
    labels = {site.label: site.index for site in rules.decision_sites}
    rows = catalogue.site_slots[labels["a lane"]]
    assert [(s.kind, s.name) for s in rows] == [("value", ("str", "lower")), ("value", ("str", "upper"))]
    for site, slots in enumerate(catalogue.site_slots[:-1]):
        kinds = {s.kind for s in slots}
        assert ("stop" in kinds) == (rules.decision_sites[site].kind != "one")
        if catalogue.offers[site] == frozenset({"card"}):
            assert kinds <= {"card", "stop"}
    play = catalogue.site_slots[labels["a card to play"]]
    assert {s.kind for s in play} == {"card", "value"} and [s.name for s in play if s.kind == "value"] == [("str", "done")]
    assert len(catalogue.site_slots[-1]) == catalogue.block  # (any other decision: every id)
    assert catalogue.size < catalogue.block * catalogue.site_count


@pytest.mark.parametrize("game, before", [("initiative", 8211), ("lanes", 21015), ("bases", 32288), ("hearts", 6483),
                                          ("harvest", 2396)])
def test_the_action_spaces_are_smaller_than_one_block_per_site(game, before):
    """The sizes of docs/envs.md: each shipped game's space is smaller than the same block of every
    id for every site (the size it had)."""
    catalogue = ActionCatalogue(load(game))
    full = catalogue.block * catalogue.site_count
    assert catalogue.size < full and catalogue.size < before
    decoded = [(catalogue.site_of_action(a), catalogue.slot_of_action(a)) for a in range(catalogue.size)]
    assert [catalogue.action_id(site, s.kind, s.name, s.relation, s.ordinal) for site, s in decoded] == \
        list(range(catalogue.size))  # (every id decodes to its site and slot, and back)
