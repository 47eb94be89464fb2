"""The public `Game` (engine/game.py): twenty-three members over the engine's state, the same game
through either, copies and play-outs that stay on the public side, a clear word for a member
that moved to the state; what adapters read (the cards and where they are, the decision count,
the scores, the decks and cap, the log with its values, everything shown, the automatic-choice
hook) with exact values."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter import GAME, GameStateError, load, load_game_json
from interpreter.engine.game import PUBLIC, Game, Setup, on_automatic_choice
from interpreter.engine.serialize import readable
from interpreter.engine.state import GameState
from interpreter.lang.values import CardRef, PlayerRef

RULES = load("initiative")


def test_the_api_is_these_members():
    assert PUBLIC == ("apply", "cards", "clone", "decision", "decision_count", "determinize",
                      "is_over", "log", "log_since", "observation",
                      "pending", "perform", "play_out", "players", "read", "result",
                      "rules", "scores", "setup", "state", "to_json", "visible", "where")
    assert Game.__slots__ == ("state",)  # (nothing else can be set on it)



def test_the_readme_names_every_member_and_their_number():
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    start = readme.index("A `Game` has these")
    paragraph = readme[start:readme.index("\n\n", start)]
    words = {22: "twenty-two", 23: "twenty-three", 24: "twenty-four"}
    assert paragraph.startswith(f"A `Game` has these {words[len(PUBLIC)]} members and no others")
    for name in PUBLIC:
        assert f"`{name}`" in paragraph or f"`{name}()`" in paragraph or f"`{name}(" in paragraph, name

def test_every_way_to_a_game_gives_the_public_one():
    game = RULES.new_game(seed=3)
    assert type(game) is Game and type(game.state) is GameState
    assert type(game.clone()) is Game and type(game.determinize(1, random.Random(1))) is Game
    assert type(load_game_json(game.to_json(), RULES)) is Game
    assert type(RULES.play_out(lambda g: 0, seed=3)) is Game


def test_play_out_gives_the_public_game_to_decide():
    seen = set()

    def decide(game):
        seen.add(type(game))
        return 0

    RULES.new_game(seed=1).play_out(decide)
    RULES.new_game(seed=1).play_out(decide, fast=True)
    RULES.play_out(decide, seed=1)
    assert seen == {Game}


def test_the_same_game_through_the_facade_and_the_state():
    game, state = RULES.new_game(seed=5), RULES.new_game(seed=5).state
    while not game.is_over:
        assert game.decision()[0] == state.decision()[0] and game.pending.prompt == state.prompt
        assert game.observation(1) == state.observation(1)
        game.apply(0)
        state.apply(0)
    assert game.log == state.log and game.result == state.result and len(game.log_since(0)) == len(state.log_entries)


def test_a_member_of_the_state_is_named_where_it_went():
    game = RULES.new_game(seed=1)
    with pytest.raises(AttributeError, match=r"'Game' has no attribute 'zones': .*`game\.state\.zones`"):
        game.zones  # noqa: B018
    with pytest.raises(AttributeError, match=r"^'Game' has no attribute 'seed': use game\.setup\.seed$"):
        game.seed  # noqa: B018
    with pytest.raises(AttributeError, match=r"'observation_encoder': use game\.rules\.observation_encoder\(layout, seat\)$"):
        game.observation_encoder  # noqa: B018
    with pytest.raises(AttributeError, match=r"^'Game' has no attribute 'nonsense'$"):
        game.nonsense  # noqa: B018
    with pytest.raises(AttributeError):
        game.zones = {}


def _random_until(game, rng, stop):
    """Apply random options until `stop(game)` or the end; how many were applied."""
    n = 0
    while not game.is_over and not stop(game):
        game.apply(rng.randrange(len(game.decision()[1])))
        n += 1
    return n


def test_what_the_game_was_started_with():
    game = RULES.new_game(seed=3)
    setup = game.setup
    assert setup.seed == 3 and [d.name for d in setup.decks] == ["Tempo", "Swarm"] and len(setup.decks[0].cards) == 40
    with pytest.raises(AttributeError):
        setup.seed = 4  # (a record: the game keeps what it was started with)
    assert setup.max_decisions == 100000 and RULES.new_game(seed=3, max_decisions=7).setup.max_decisions == 7
    assert load_game_json(game.to_json(), RULES).setup == Setup(3, (), 100000)
    assert game.determinize(1, random.Random(1)).setup.seed is None  # (its generator is drawn anew)


def test_the_game_itself_is_read_as_game():
    game = RULES.new_game(seed=3)
    assert repr(GAME) == "game" and GAME is game.state.GAME
    assert game.read(GAME, "turn") == 1
    _random_until(game, random.Random(3), lambda g: g.read(GAME, "turn") == 2)
    assert game.read(GAME, "turn") == 2 and game.state.globals["turn"] == 2


def test_the_decision_count_counts_the_decisions_asked_the_one_due_included():
    game = RULES.new_game(seed=1)
    assert game.decision_count == 1
    applied = _random_until(game, random.Random(1), lambda g: False)
    assert game.decision_count == applied == 48
    capped = RULES.new_game(seed=1, max_decisions=5)
    assert _random_until(capped, random.Random(1), lambda g: False) == 5
    assert capped.decision_count == 5 and capped.result.unfinished
    played = RULES.new_game(seed=1)
    assert played.play_out(lambda g: 0) == played.decision_count == 31


def test_the_cards_by_id_and_where_each_is():
    game = RULES.new_game(seed=1)
    assert len(game.cards) == 80 and list(game.cards) == list(range(1, 81))
    assert all(type(c) is CardRef and c.id == i for i, c in game.cards.items())
    with pytest.raises(TypeError):
        game.cards[1] = game.cards[2]
    first = game.cards[1]
    assert str(first) == "Stab#1" and game.where(first) == (("deck", 1, ""), 22)
    for card in game.cards.values():
        key, position = game.where(card)
        assert game.read(card, "zone") == key[0] and game.read(card, "position") == position
        assert game.state.zones[key][position - 1] is card
    cards = game.cards
    seen = {}

    def gone(g):
        seen.update(g.cards)
        return len(seen) > len(g.cards)

    assert _random_until(game, random.Random(1), gone) == 19
    [(token_id, token)] = [(i, c) for i, c in seen.items() if i not in game.cards]
    assert str(token) == "Monster#81" and token_id not in cards  # (the view follows the game)
    assert game.where(token) is None


def test_the_scores_now_are_those_of_the_result():
    spades = load("spades").new_game(seed=1)
    assert spades.scores == (0, 0, 0, 0)
    _random_until(spades, random.Random(1), lambda g: False)
    assert spades.scores == spades.result.scores == (-150, -210, -150, -210)
    assert RULES.new_game(seed=1).scores is None


def test_the_log_with_its_values():
    game = RULES.new_game(seed=1)
    _random_until(game, random.Random(1), lambda g: g.state.log_length > 40)
    plain, valued = game.log_since(0), game.log_since(0, values=True)
    assert len(valued) == len(plain) == len(game.log) and game.log_since(5, values=True) == valued[5:]
    assert valued[0] == {"type": "event", "event": "turn_start", "args": {"turn": 1, "player": None}}
    cards = [v for e in valued if e["type"] == "event" for v in e["args"].values() if type(v) is CardRef]
    assert cards and any(type(v) is PlayerRef for e in valued if e["type"] == "event" for v in e["args"].values())
    for p, v in zip(plain, valued, strict=True):
        assert p == (dict(v, args=readable(v["args"], game.state)) if v["type"] == "event" else v)
    valued[0]["args"]["turn"] = 9  # (copies: the log keeps its own)
    assert game.log_since(0, values=True)[0]["args"]["turn"] == 1


def test_an_observation_with_every_card_revealed():
    game = RULES.new_game(seed=3)
    hidden = game.observation(1)["zones"]["P2"]
    assert hidden["hand"] == {"count": 5} and hidden["deck"] == {"count": 35}
    shown = game.observation(1, reveal_all=True)
    hand = shown["zones"]["P2"]["hand"]
    assert hand["count"] == 5 and [c["position"] for c in hand["revealed"]] == [1, 2, 3, 4, 5]
    assert [c["name"] for c in hand["revealed"]] == [c.defn.name for c in game.state.zones[("hand", 2, "")]]
    assert len(shown["zones"]["P2"]["deck"]["revealed"]) == 35
    assert game.observation(1)["zones"]["P2"] == hidden and not game.state.revealed  # (on a copy)
    assert game.observation(2, reveal_all=True)["decision"] == game.observation(2)["decision"]


def test_a_game_played_out_fast_cannot_be_determinized():
    tried = []

    def decide(game):
        if not tried:
            with pytest.raises(GameStateError, match="cannot be copied while play_out"):
                game.determinize(1, random.Random(1))
            tried.append(game.decision_count)
        return 0

    RULES.new_game(seed=1).play_out(decide, fast=True)
    assert tried == [1]
    game = RULES.new_game(seed=1)
    game.play_out(lambda g: tried.append(g.determinize(1, random.Random(1)).decision_count) or 0)
    assert tried[1:4] == [1, 2, 3]


def test_a_look_at_each_choice_the_engine_takes_itself():
    looks, game = [], RULES.new_game(seed=1)
    on_automatic_choice(game, lambda: looks.append(len(game.log)))
    _random_until(game, random.Random(1), lambda g: False)
    assert looks == [137]  # (the log then: what the viewer reads)
    asked, game = [], RULES.new_game(seed=1)  # an earlier hook still answers: here, it asks them
    game.state.one_option = lambda state, pending: asked.append(pending.seat) or True
    on_automatic_choice(game, lambda: looks.append(None))
    _random_until(game, random.Random(1), lambda g: False)
    assert asked and looks.count(None) == len(asked) and game.decision_count > 31
