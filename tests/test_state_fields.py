"""The game's fields, declared once (interpreter/engine/state_fields.py): every attribute a game
has is declared, with the kind that says how a copy gets it; a copy shares no mutable container
with its original (but rows neither game may write before copying) and plays on without touching
it; a saved game loads to the same state."""

from __future__ import annotations

import json
import random

import pytest

from interpreter import load, load_game_json
from interpreter.engine import state_fields
from interpreter.engine.state import GameState
from interpreter.engine.state_fields import (
    BY_NAME,
    CACHE,
    CONTAINER_TYPES,
    DERIVED,
    DICT_OF_LISTS,
    FIELDS,
    FRAMES,
    GENERATOR,
    LIST_OF_DICTS,
    PER_COPY,
    ROWS,
    SHARED,
    undeclared,
    undeclared_message,
)
from interpreter.errors import RulesError
from interpreter.lang.runtime import Frame
from interpreter.paths import shipped_games

GAMES = tuple(shipped_games())
RULES = {name: load(name) for name in GAMES}
# the shared fields that hold a mutable container: made with the game and never changed in place
# (but `_rng_share`: the count of the games that share a generator, shared by them on purpose)
SHARED_CONTAINERS = {"options", "players", "decks", "_rng_share"}


def _random_game(name: str, seed: int, decisions: int) -> GameState:
    """A game of random play stopped at a decision about `decisions` in (earlier if it ends)."""
    rng = random.Random(seed)
    game = RULES[name].new_game(seed=seed).state
    for _ in range(decisions):
        if game.is_over:
            break
        game.apply(rng.randrange(len(game.decision()[1])))
    return game


def _saved(game: GameState) -> str:
    return json.dumps(game.to_json(), sort_keys=True)


def _check_declared(game: GameState) -> None:
    missing = undeclared(game)
    assert not missing, undeclared_message(missing)
    absent = [f.name for f in FIELDS if f.name not in vars(game)]
    assert not absent, f"declared in engine/state_fields.py but not on the game: {absent}"
    for f in FIELDS:
        value = getattr(game, f.name)
        kind_type = CONTAINER_TYPES.get(f.kind)
        if kind_type is not None:
            assert type(value) is kind_type, f"{f.name}: a {f.kind} holds a {type(value).__name__}"
        if f.kind == SHARED and isinstance(value, (list, dict, set)):
            assert f.name in SHARED_CONTAINERS, (
                f"{f.name} is declared {SHARED} but holds a {type(value).__name__}: a copy would share it")


def test_declaration_is_consistent() -> None:
    assert len(BY_NAME) == len(FIELDS)
    keys = [f.save.key for f in FIELDS if f.save is not None]
    assert len(keys) == len(set(keys))
    assert all(f.fresh is not None for f in FIELDS if f.kind in (CACHE, PER_COPY))


@pytest.mark.parametrize("name", GAMES)
def test_every_attribute_is_declared(name: str) -> None:
    rules = RULES[name]
    _check_declared(GameState(rules, 0))
    _check_declared(rules.new_game(seed=3).state)
    for seed in range(3):
        game = _random_game(name, seed, random.Random(seed).randrange(5, 60))
        _check_declared(game)
        _check_declared(game.clone())
        if not game.is_over:
            _check_declared(game.determinize(game.decision()[0], random.Random(seed)))
            _check_declared(load_game_json(game.to_json(), rules).state)
    _check_declared(rules.play_out(lambda g: 0, seed=1).state)
    game = rules.new_game(seed=1).state
    game.play_out(lambda g: 0, fast=True)
    _check_declared(game)


def test_an_undeclared_attribute_is_named() -> None:
    game = RULES[GAMES[0]].new_game(seed=1).state
    game.foo = 1
    assert undeclared(game) == ["foo"]
    message = undeclared_message(undeclared(game))
    assert "foo" in message and "interpreter/engine/state_fields.py" in message


def _shared_parts(original: GameState, copy: GameState) -> list[str]:
    """The mutable containers of declared fields that a copy shares with its original."""
    shared = []
    for f in FIELDS:
        a, b = getattr(original, f.name), getattr(copy, f.name)
        if f.kind == GENERATOR:  # (shared until one draws from it: as each game gets at it)
            a, b = original.rng, copy.rng
        if f.kind == SHARED or not isinstance(a, (list, dict, set, Frame)) and f.kind != GENERATOR:
            continue
        if a is b:
            shared.append(f.name)
        if f.kind == DICT_OF_LISTS:
            shared += [f"{f.name}[{k!r}]" for k in a if a[k] is b[k]]
        elif f.kind == LIST_OF_DICTS:
            shared += [f"{f.name}[{i}]" for i, (x, y) in enumerate(zip(a, b)) if x is y]
        elif f.kind == ROWS:  # (shared until written: then neither game may own a shared row)
            owned_a, owned_b = getattr(original, f.name + "_owned"), getattr(copy, f.name + "_owned")
            if owned_a is owned_b:
                shared.append(f.name + "_owned")
            shared += [f"{f.name}[{i}] (owned)" for i, (x, y) in enumerate(zip(a, b))
                       if x is y and x and (owned_a[i] or owned_b[i])]
        elif f.kind == FRAMES:
            shared += [f"{f.name}[{i}]" for i, (x, y) in enumerate(zip(a, b)) if x is y or x.locals is y.locals]
    return shared


@pytest.mark.parametrize("name", GAMES)
def test_a_clone_shares_no_mutable_container(name: str) -> None:
    for seed in range(4):
        game = _random_game(name, seed, random.Random(seed).randrange(5, 80))
        copy = game.clone()
        assert _shared_parts(game, copy) == []
        assert copy.watcher is None and copy.decide is None and not copy.rolling


@pytest.mark.parametrize("name", GAMES)
def test_a_clone_played_on_leaves_the_original_as_it_was(name: str) -> None:
    for seed in range(4):
        game = _random_game(name, seed, random.Random(seed).randrange(5, 80))
        if game.is_over:
            continue
        before = _saved(game)
        copy = game.clone()
        copy_before = _saved(copy)
        assert copy_before == before
        rng = random.Random(seed)
        for _ in range(40):
            if copy.is_over:
                break
            copy.apply(rng.randrange(len(copy.decision()[1])))
        assert _saved(game) == before
        # and the other way round: the original played on leaves a fresh copy as it was
        other = game.clone()
        for _ in range(40):
            if game.is_over:
                break
            game.apply(rng.randrange(len(game.decision()[1])))
        assert _saved(other) == before


@pytest.mark.parametrize("name", GAMES)
def test_a_clone_or_determinization_played_out_leaves_the_original_as_it_was(name: str) -> None:
    for seed in range(3):
        game = _random_game(name, seed, random.Random(seed).randrange(5, 80))
        if game.is_over:
            continue
        before = _saved(game)
        rng = random.Random(seed)

        def decide(g: GameState, rng: random.Random = rng) -> int:
            return rng.randrange(len(g.decision()[1]))
        for fast in (False, True):
            game.clone().play_out(decide, fast=fast)
            game.determinize(game.decision()[0], rng).play_out(decide, fast=fast)
            assert _saved(game) == before



def _texts(game: GameState) -> tuple:
    pending = game.pending
    return pending.prompt, [(o.id, o.label) for o in pending]


@pytest.mark.parametrize("name", GAMES)
def test_a_shared_decision_keeps_its_texts_whichever_game_takes_it_first(name: str) -> None:
    """Texts not read before the copy is made (prompts and labels are worked out when first
    read, from the game that asked): read after either game took the decision, they are those of
    the position (Bases, seed 3: "a base for Pyre Warlord 4/4 to attack", not the 6/4 its
    attack made it)."""
    for seed in range(4):
        for decisions in (10, 60):
            asking, copied, twin = (_random_game(name, seed, decisions) for _ in range(3))
            if twin.is_over:
                continue
            expected = _texts(twin)
            copy = asking.clone()
            asking.apply(0)
            assert _texts(copy) == expected
            copy = copied.clone()
            copy.apply(0)
            assert _texts(copied) == expected

def _draws(rng: random.Random) -> list[int]:
    return [rng.getrandbits(32) for _ in range(5)]


def test_copies_share_the_generator_until_one_draws_and_each_draws_as_a_copy_would() -> None:
    game = _random_game(GAMES[0], 3, 20)
    state = game.rng.getstate()
    twin = random.Random()
    twin.setstate(state)
    expected = _draws(twin)
    copy = game.clone()
    assert copy._rng is game._rng  # (no state copied: half of what a copy cost)
    third = copy.clone()  # a copy of a copy shares it too
    assert third._rng is game._rng and game._rng_share == [3]
    assert _draws(copy.rng) == expected  # each draws what the original would have drawn
    assert copy._rng is not game._rng and game._rng_share == [2]
    assert _draws(game.rng) == expected
    assert _draws(third.rng) == expected  # (the last one takes the generator itself)
    assert third._rng_share is None and game._rng_share is None
    assert third.to_json()["rng"] == copy.to_json()["rng"]
    # a copy given a generator takes it, and leaves the original's unshared
    given = random.Random(5)
    other = game.clone(given)
    assert other.rng is given and game._rng_share is None
    # a saved copy that never drew saves the state it shares
    shared = game.clone()
    assert shared.to_json()["rng"] == game.to_json()["rng"]


def test_the_generated_clone_is_written_from_the_declaration() -> None:
    source = state_fields.clone_source()
    for f in FIELDS:
        if f.kind != SHARED and f.kind not in ("decision",) and f.name not in state_fields._fresh_constants():
            assert repr(f.name) in source or f"s[{f.name!r}]" in source, f.name
    assert GameState.clone.__code__.co_filename.startswith("<engine/state_fields.py")


@pytest.mark.parametrize("name", GAMES)
def test_a_saved_game_loads_to_the_same_saved_game(name: str) -> None:
    rules = RULES[name]
    for seed in range(4):
        rng = random.Random(seed)
        game = rules.new_game(seed=seed, log=bool(seed % 2)).state
        for _ in range(rng.randrange(0, 120)):
            if game.is_over:
                break
            game.apply(rng.randrange(len(game.decision()[1])))
        saved = game.to_json()
        loaded = load_game_json(json.loads(json.dumps(saved)), rules).state
        assert json.dumps(loaded.to_json()) == json.dumps(saved)  # (keys in the same order too)
        # the derived fields, rebuilt; the caches, fresh
        for f in FIELDS:
            if f.name == "attrs_owned":  # (which rows a game owns depends on its copies, not its state)
                assert len(loaded.attrs_owned) == len(loaded.attrs) and all(loaded.attrs_owned)
            elif f.load == DERIVED:
                assert getattr(loaded, f.name) == getattr(game, f.name), f.name
        assert [getattr(loaded, f.name) for f in FIELDS if f.kind == CACHE] == [
            getattr(GameState(rules, 0), f.name) for f in FIELDS if f.kind == CACHE]
        # and it plays on as the original does
        if not game.is_over:
            for _ in range(30):
                if game.is_over:
                    break
                choice = rng.randrange(len(game.decision()[1]))
                game.apply(choice)
                loaded.apply(choice)
            assert _saved(loaded) == _saved(game)


def test_saved_keys_follow_the_declaration() -> None:
    game = RULES[GAMES[0]].new_game(seed=1).state
    keys = list(game.to_json())
    assert keys == ["format", "ruleset", "ruleset_file", *(f.save.key for f in FIELDS if f.save is not None)]


def test_a_saved_game_without_a_needed_field_is_refused() -> None:
    rules = RULES[GAMES[0]]
    data = rules.new_game(seed=1).state.to_json()
    del data["clock"]
    with pytest.raises(RulesError, match="saved game has no 'clock'"):
        load_game_json(data, rules)
    data = rules.new_game(seed=1).state.to_json()
    del data["turns_before"]  # (kept since games were saved without it: a new game's value)
    assert load_game_json(data, rules).state.turns_before == 0


def test_a_determinized_copy_starts_with_fresh_caches() -> None:
    rules = RULES[GAMES[0]]
    game = _random_game(GAMES[0], 2, 30)
    copy = game.determinize(game.decision()[0], random.Random(1))
    fresh = GameState(rules, 0)
    assert {f.name: getattr(copy, f.name) for f in FIELDS if f.kind == CACHE} == {
        f.name: getattr(fresh, f.name) for f in FIELDS if f.kind == CACHE}
